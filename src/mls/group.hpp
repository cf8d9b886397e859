#pragma once
// An MLS group as one member sees it (RFC 9420 sections 11 and 12): creating it, proposals from members and
// from external senders (the ExternalSenders extension: DAVE's voice server), commits with an UpdatePath,
// Welcomes for the members a commit adds, joining from a Welcome, and each epoch's exporter and
// authenticator.
//
// Handshake messages are PublicMessages. Proposals apply in the RFC's order (Update, Remove, Add); PSK,
// ReInit, ExternalInit and GroupContextExtensions proposals, external commits and PrivateMessages are
// refused with an mls::Error that says so. Only the current epoch's secrets are kept.

#include "mls/bytes.hpp"
#include "mls/framing.hpp"
#include "mls/group_context.hpp"
#include "mls/key_package.hpp"
#include "mls/key_schedule.hpp"
#include "mls/ratchet_tree.hpp"
#include "mls/treekem.hpp"
#include "mls/welcome.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace platformpp::mls {

/// ExternalSenders (extension 5): who may send proposals from outside the group.
struct ExternalSender {
  Bytes signatureKey;
  Credential credential;
  friend bool operator==(const ExternalSender&, const ExternalSender&) = default;
};
Extension MakeExternalSendersExtension(const std::vector<ExternalSender>& senders);
std::vector<ExternalSender> ReadExternalSenders(const Extension& extension);

/// A proposal of this epoch, as the group received or sent it.
struct ProposalRecord {
  Proposal proposal;
  Sender sender;
};

/// ProposalRef: RefHash("MLS 1.0 Proposal Reference", the AuthenticatedContent that carried it).
Bytes ProposalRef(const AuthenticatedContent& content);

/// A proposal made by an external sender: signed, as DAVE's voice server does (tests and tools use it).
MlsMessage ExternalProposal(const GroupContext& context, uint32_t senderIndex, const SignaturePrivateKey& key,
                            Proposal proposal);

class Group {
 public:
  struct State;  // one epoch, as this member sees it

  /// A one-member group at epoch 0, `self` being its first member.
  static Group Create(Bytes groupId, const KeyPackageBundle& self, std::vector<Extension> extensions);
  struct JoinOptions {
    /// The ratchet tree when it comes out of band; by default the GroupInfo's ratchet_tree extension.
    std::optional<RatchetTree> tree;
    /// External pre-shared keys by PSK id. DAVE uses none: a Welcome or commit that needs a PSK the group
    /// does not hold is refused. (The RFC's passive-client vectors use them.) Resumption PSKs are refused.
    std::map<Bytes, Secret> externalPsks;
  };
  /// Joins from a Welcome for one of this client's KeyPackages.
  static Group Join(const Welcome& welcome, const KeyPackageBundle& mine, const JoinOptions& options = {});

  Group(Group&&) noexcept;
  Group& operator=(Group&&) noexcept;
  ~Group();

  const GroupContext& Context() const;
  uint64_t Epoch() const { return Context().epoch; }
  const RatchetTree& Tree() const;
  LeafIndex OwnLeaf() const;
  const Bytes& EpochAuthenticator() const;
  /// MLS-Exporter(label, context, length) of the current epoch.
  Secret Export(std::string_view label, ByteView context, std::size_t length) const;

  // Proposals this member sends (PublicMessages, signed and membership-tagged).
  MlsMessage ProposeAdd(const KeyPackage& keyPackage);
  MlsMessage ProposeRemove(LeafIndex leaf);
  /// A new encryption key for this member's leaf, taken into use when another member commits the proposal
  /// (a member does not commit its own Update: its commit's path renews its keys anyway).
  MlsMessage ProposeUpdate();

  /// A proposal from a member or an external sender: verified, then kept until the epoch's commit. Returns
  /// its ProposalRef.
  Bytes HandleProposal(const MlsMessage& message);

  /// Withdraws a proposal of this epoch (DAVE's voice server revokes proposals it no longer wants
  /// committed); a commit prepared with it is dropped. False when the ref is unknown.
  bool RevokeProposal(ByteView ref);
  /// Proposals received this epoch and not revoked.
  std::size_t ProposalCount() const;

  struct CommitOutput {
    MlsMessage commit;
    std::optional<MlsMessage> welcome;  // when the commit adds members
  };
  /// Commits every proposal received this epoch (by reference) plus `inlineProposals`, with a fresh
  /// UpdatePath. The group stays in its epoch until the commit comes back through HandleCommit (it may lose
  /// to another member's commit of the same epoch); then the prepared next epoch is used.
  CommitOutput Commit(std::vector<Proposal> inlineProposals = {});

  enum class CommitResult {
    Applied,  ///< the group is in the next epoch
    Removed,  ///< the commit removed this member: the group is over for it
  };
  /// Whether `message` is the commit this member prepared for the current epoch (and still holds).
  bool IsPendingCommit(const MlsMessage& message) const;
  /// A commit of the current epoch from a member (this member's own included): verified (membership tag,
  /// signature, proposals, UpdatePath, confirmation tag) and applied.
  CommitResult HandleCommit(const MlsMessage& message);

  /// Members' leaves, in order.
  std::vector<LeafIndex> Members() const;

  /// The clock KeyPackage lifetimes are checked against (seconds since 1970; the system clock by default).
  void SetClock(std::function<uint64_t()> now);

 private:
  friend struct GroupTesting;
  explicit Group(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

/// For tests that forge what only a member can make (a message with a valid membership tag but a wrong
/// confirmation tag, say).
struct GroupTesting {
  static Secret MembershipKey(const Group& group);
};

}  // namespace platformpp::mls
