// The voice gateway as DAVE's external sender (the platform's DAVE protocol v1, docs/dave.md): for one
// lobby call, the protocol version, the MLS group as the gateway sees it (group id, epoch, who holds which
// leaf), the key packages of pending members, the proposals of the epoch, commit ordering and the
// transitions. It never holds a member's key: it signs its own proposals and reads public commits only.
//
// Socket-free and single-threaded: the voice gateway routes call it and send what take_outgoing() returns.
// Members are users (a user is in a lobby's call once).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "mls/group.hpp"

namespace platformpp::emulator {

namespace dave_op {
inline constexpr int kPrepareTransition = 21;
inline constexpr int kExecuteTransition = 22;
inline constexpr int kReadyForTransition = 23;
inline constexpr int kPrepareEpoch = 24;
inline constexpr int kExternalSenderPackage = 25;
inline constexpr int kKeyPackage = 26;
inline constexpr int kProposals = 27;
inline constexpr int kCommitWelcome = 28;
inline constexpr int kAnnounceCommit = 29;
inline constexpr int kWelcome = 30;
inline constexpr int kInvalidCommitWelcome = 31;
}  // namespace dave_op

inline constexpr int kDaveProtocolVersion = 1;  // the only version served

// One message for one member: the JSON `d` of a text opcode, or the payload after the binary header.
struct DaveOutgoing {
  std::string user_id;
  int opcode = 0;
  std::string payload;
  bool binary = false;
};

// The gateway's identity as external sender: one P-256 key for the whole emulator.
struct DaveExternalSender {
  mls::SignaturePrivateKey key;
  mls::ExternalSender sender;
  static DaveExternalSender generate();
};

struct DaveCounters {
  std::uint64_t key_packages = 0;
  std::uint64_t proposals_sent = 0;
  std::uint64_t commits_accepted = 0;
  std::uint64_t commits_refused = 0;
  std::uint64_t welcomes_sent = 0;
  std::uint64_t transitions_executed = 0;
  std::uint64_t transitions_timed_out = 0;
  std::uint64_t invalid_reports = 0;
  std::uint64_t new_group_waits_expired = 0;  // a new group's Adds went out without every key package
};

class DaveCall {
 public:
  // `new_group_wait_ms`: how long a new group's Adds wait for the key packages of members who have not sent
  // theirs yet (see propose_pending_adds).
  DaveCall(const DaveExternalSender& gateway, std::string lobby_id, std::int64_t transition_timeout_ms,
           std::int64_t new_group_wait_ms);

  // A member's session selected its protocol, offering up to `max_version` at Identify. Returns the
  // protocol version its Session Description carries; the caller sends that first, then take_outgoing()
  // (the external sender package, and for the others a downgrade when this member cannot do DAVE).
  // Joining again (a new Select Protocol) starts the member over.
  int join(const std::string& user_id, int max_version, std::int64_t now_ms);
  // The member left the call (its voice session ended): its Add is revoked, its leaf proposed for removal;
  // the last non-DAVE member leaving upgrades the call, the sole remaining member gets a new group.
  void leave(const std::string& user_id, std::int64_t now_ms);

  // Opcode 26. A malformed or invalid key package: the reason (the gateway closes with 4020).
  std::optional<std::string> key_package(const std::string& user_id, std::string_view payload,
                                         std::int64_t now_ms);
  // Opcode 28. A commit that is not the first valid one of its epoch is dropped (counted); nothing is said.
  void commit_welcome(const std::string& user_id, std::string_view payload, std::int64_t now_ms);
  // Opcodes 23 and 31.
  void ready_for_transition(const std::string& user_id, std::uint16_t transition_id);
  void invalid_commit_welcome(const std::string& user_id, std::uint16_t transition_id, std::int64_t now_ms);
  // Executes the transitions whose members were not all ready in time, and proposes a new group's Adds whose
  // wait for the missing key packages is over.
  void tick(std::int64_t now_ms);

  // Admin: drop to protocol 0 now (and stay there until allowed again), allow protocol 1 again (upgrades
  // when every member can), or make the members form a new group. False when there was nothing to do.
  bool force_downgrade(std::int64_t now_ms);
  bool allow_upgrade(std::int64_t now_ms);
  bool new_group();

  std::vector<DaveOutgoing> take_outgoing();

  [[nodiscard]] int version() const noexcept { return version_; }
  [[nodiscard]] bool established() const noexcept { return established_; }
  [[nodiscard]] std::uint64_t epoch() const noexcept { return epoch_; }
  [[nodiscard]] bool empty() const noexcept { return members_.empty(); }
  [[nodiscard]] const DaveCounters& counters() const noexcept { return counters_; }
  [[nodiscard]] std::size_t pending_transitions() const noexcept { return transitions_.size(); }
  // The leaf of each member in the group, by user id (members not in the group are absent).
  [[nodiscard]] std::map<std::string, std::uint32_t> leaves() const;

 private:
  struct Member {
    int max_version = 0;
    bool has_external_sender = false;            // sent op 25 (this member can make a local group)
    std::optional<mls::KeyPackage> key_package;  // the pending member's current one
    std::optional<mls::Bytes> add_ref;           // its Add in flight, if any
    std::optional<std::uint32_t> leaf;           // its leaf in the established group
    std::optional<mls::LeafNode> leaf_node;      // what that leaf holds (its credential and signature key)
    bool flagged = false;                        // reported an invalid commit/welcome: out until re-added
    std::set<mls::Bytes> seen;                   // refs of unrevoked proposals it was sent this epoch
  };
  struct Proposal {
    mls::Bytes encoded;  // the MLSMessage, sent to each recipient as signed once
    bool add = false;
    std::string user_id;     // whom it adds or removes
    std::uint32_t leaf = 0;  // a Remove's leaf
  };
  struct Transition {
    std::set<std::string> waiting;     // members whose op 23 is still due
    std::set<std::string> recipients;  // who gets op 22
    std::int64_t deadline_ms = 0;
  };

  [[nodiscard]] mls::Bytes group_id() const;
  [[nodiscard]] bool in_good_standing(const Member& member) const;
  // Members that receive the group's proposals and commits: those in the group, not flagged.
  [[nodiscard]] std::vector<std::string> group_members() const;
  void send(const std::string& user_id, int opcode, std::string payload, bool binary);
  void send_external_sender(const std::string& user_id);
  // Signs a proposal for the current epoch and records it (an Add as its subject's add_ref); its reference.
  mls::Bytes sign_proposal(mls::Proposal proposal, const std::string& subject, std::uint32_t leaf);
  // The proposals in one op 27 to each recipient, so that its next commit names them all.
  void send_proposals(const std::vector<mls::Bytes>& refs, const std::vector<std::string>& recipients);
  void propose_remove(const std::string& user_id, std::uint32_t leaf);
  void revoke(const mls::Bytes& ref);
  // The pending members' key packages not yet proposed become Adds. Without a group they wait until every
  // DAVE member has sent one, or for new_group_wait_ms: each pending member commits the Adds it was sent,
  // and a group formed from some of them would take a commit (and a transition for everyone) per late one.
  void propose_pending_adds(std::int64_t now_ms);
  // Why a commit is not the one to announce, or nothing when it is.
  [[nodiscard]] std::optional<std::string> check_commit(const Member& member, const mls::MlsMessage& message,
                                                        const std::optional<mls::Welcome>& welcome) const;
  // Pending members with a key package see each other's Adds while no group is established.
  void send_pending_adds_to(const std::string& user_id);
  std::uint16_t next_transition_id();
  void start_transition(std::uint16_t id, std::set<std::string> waiting, std::set<std::string> recipients,
                        std::int64_t now_ms);
  void execute(std::uint16_t id);
  void forget_member_in_transitions(const std::string& user_id);
  // Forgets the group: no epoch, no leaves, no proposals; members keep what they are.
  void reset_group();
  void downgrade(std::int64_t now_ms);
  void upgrade();
  [[nodiscard]] bool everyone_can_dave() const;

  const DaveExternalSender& gateway_;
  const std::string lobby_id_;
  const std::int64_t transition_timeout_ms_;
  const std::int64_t new_group_wait_ms_;
  std::optional<std::int64_t> adds_held_until_ms_;  // a new group's Adds are held for missing key packages
  int version_ = kDaveProtocolVersion;
  bool forced_plain_ = false;
  bool established_ = false;
  std::uint64_t epoch_ = 0;
  std::vector<std::optional<std::string>> leaves_;  // by leaf index: the member there, or blank
  std::map<std::string, Member> members_;
  std::map<mls::Bytes, Proposal> proposals_;  // unrevoked, of the current epoch, by ProposalRef
  std::map<std::uint16_t, Transition> transitions_;
  std::uint16_t last_transition_id_ = 0;
  std::vector<DaveOutgoing> outgoing_;
  DaveCounters counters_;
};

}  // namespace platformpp::emulator
