#pragma once
// One call's DAVE v1 session (the platform's DAVE protocol, docs/dave.md, "The protocol on the wire (v1)"):
// this member's side of the MLS group the voice gateway runs as external sender, and the transitions that
// switch media between epochs and protocol versions. Free of sockets and threads: the voice gateway
// connection feeds it the server's messages on the network thread and carries out what it asks through a
// DaveSessionSink.
//
//   Session Description (op 4) version 1 -> key package (26); external sender (25) -> a one-member pending
//   group; proposals (27) -> commit (28, with a Welcome when it adds); the announced commit (29) or a Welcome
//   (30) -> the new epoch's receive keys at once, ready (23); execute (22) -> send with the new keys.
//   Prepare epoch (24) with epoch 1 -> start over with a new key package; prepare transition (21) to version
//   0 -> passthrough (a downgrade happens only when the server says so). A commit or Welcome that cannot be
//   processed -> invalid (31), start over.
//
// Proposals are checked before they are taken: external sender 0 only, Add and Remove only, an Add only
// for a user the gateway said is in the call (ops 11/13). A Welcome must carry exactly the external sender
// the gateway announced; no group may hold one user twice.

#include "mls/group.hpp"
#include "voice/dave/frame_transforms.hpp"
#include "voice/dave/messages.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace platformpp::voice::dave {

class DaveSessionSink {
 public:
  virtual ~DaveSessionSink() = default;
  /// A binary client frame: `u8 op | payload`.
  virtual void SendBinary(Opcode op, mls::Bytes payload) = 0;
  /// Op 23 ready for transition / op 31 invalid commit or welcome (JSON).
  virtual void SendReadyForTransition(uint16_t transitionId) = 0;
  virtual void SendInvalidCommitWelcome(uint16_t transitionId) = 0;
  /// Media (carried to the voice thread in call order):
  virtual void AddReceiveEpoch(std::unique_ptr<ReceiveEpoch> keys) = 0;
  virtual void SetReceivePassThrough(bool on) = 0;
  /// Null keys: withhold (send nothing); see DaveFrameEncryptor.
  virtual void UseSendKeys(std::unique_ptr<SenderKeys> keys) = 0;
  virtual void UseSendPassThrough() = 0;
  /// Whether media is end-to-end encrypted now changed.
  virtual void E2eeChanged(bool encrypted) = 0;
  /// The established group changed (a new epoch, or none after a reset): its authenticator and roster.
  virtual void GroupChanged() = 0;
  /// Something the session refused or failed at (for the log; never secrets).
  virtual void Log(const std::string& message) = 0;
};

class DaveSession {
 public:
  /// `channelId`: the call's channel, whose id (8 bytes big-endian) is the MLS group id.
  DaveSession(DaveSessionSink& sink, uint64_t selfUserId, uint64_t channelId);
  ~DaveSession();
  DaveSession(const DaveSession&) = delete;
  DaveSession& operator=(const DaveSession&) = delete;

  /// Op 4's `dave_protocol_version`: 0 plain (passthrough both ways), 1 DAVE.
  void Start(int protocolVersion);
  void OnClientsConnect(const std::vector<uint64_t>& userIds);
  void OnClientDisconnect(uint64_t userId);

  // Binary server messages (payload after `seq | op`). Malformed payloads are refused and logged.
  void OnExternalSender(mls::ByteView payload);
  void OnProposals(mls::ByteView payload);
  void OnAnnounceCommit(mls::ByteView payload);
  void OnWelcome(mls::ByteView payload);
  // JSON server messages.
  void OnPrepareTransition(uint16_t transitionId, int protocolVersion);
  void OnExecuteTransition(uint16_t transitionId);
  void OnPrepareEpoch(uint64_t epoch, int protocolVersion);
  /// The voice gateway session resumed: says again that it is ready for each transition still waiting to be
  /// executed (an op 23 sent as the connection dropped is lost; the server takes a repeat as the same
  /// answer), rather than leave the call waiting for the server's timeout.
  void OnResumed();

  /// Version of the protocol media uses now (0 until a DAVE transition executes).
  int ProtocolVersion() const noexcept { return executedVersion_; }
  bool Encrypted() const noexcept { return encrypted_; }
  /// The established group, or null while pending.
  const mls::Group* Group() const noexcept { return group_ ? &*group_ : nullptr; }
  /// The established group's epoch authenticator (empty while pending).
  mls::Bytes EpochAuthenticator() const;
  /// The signature public key of `userId` in the established group (for verification fingerprints).
  std::optional<mls::Bytes> SignatureKeyOf(uint64_t userId) const;

  /// KeyPackage lifetimes and proposal checks use this clock (seconds since 1970).
  void SetClock(std::function<uint64_t()> now) { now_ = std::move(now); }

  struct Counters {
    uint64_t keyPackagesSent = 0;
    uint64_t commitsSent = 0;
    uint64_t commitsApplied = 0;
    uint64_t welcomesApplied = 0;
    uint64_t invalidReported = 0;  // op 31 sent
    uint64_t proposalsRefused = 0;
    uint64_t resets = 0;
  };
  const Counters& GetCounters() const noexcept { return counters_; }

 private:
  struct Transition {
    int protocolVersion = 1;
    std::unique_ptr<SenderKeys> sendKeys;  // version 1: this member's keys of the new epoch
  };

  void Reset();
  void SendKeyPackage();
  void EnsurePendingGroup();
  mls::Group* Target() noexcept;
  void CheckProposal(const mls::MlsMessage& message, const mls::Group& group) const;
  void CommitProposals(mls::Group& group);
  /// The group moved to a new epoch (own commit, another's commit, or a Welcome).
  void EnteredEpoch(uint16_t transitionId);
  void CheckRoster(const mls::Group& group) const;
  void Execute(uint16_t transitionId, Transition transition);
  void Recover(uint16_t transitionId, const std::string& why);
  void SetEncrypted(bool encrypted);

  DaveSessionSink& sink_;
  uint64_t selfUserId_;
  mls::Bytes groupId_;
  std::function<uint64_t()> now_;

  int protocolVersion_ = 0;  // negotiated (op 4 / op 24 / op 21)
  int executedVersion_ = 0;  // in use by media
  bool encrypted_ = false;
  std::set<uint64_t> users_;  // who the gateway says is in the call (and this member)
  std::optional<mls::ExternalSender> externalSender_;
  std::optional<mls::SignaturePrivateKey> signatureKey_;  // this session's, across key packages
  std::optional<mls::KeyPackageBundle> joinPackage_;      // the one last sent (op 26)
  std::optional<mls::Group> pendingGroup_;                // this member alone, epoch 0
  std::optional<mls::Group> group_;                       // established
  std::map<uint16_t, Transition> transitions_;            // prepared, not executed
  Counters counters_;
};

}  // namespace platformpp::voice::dave
