// The DAVE session of one member, driven by a scripted voice gateway (external sender) that signs its own
// proposals: group creation from pending groups, a third member's Welcome, a commit race, removal, the
// proposal policy, recovery with op 31, downgrade and upgrade, the sole-member reset. Media keys are checked
// by encrypting at one member and decrypting at the others.
#include "voice/dave/session.hpp"

#include "voice/dave/messages.hpp"

#include <doctest/doctest.h>

#include <deque>
#include <string>
#include <vector>

namespace dave_session_test {

using namespace platformpp::voice::dave;
namespace mls = platformpp::mls;

constexpr uint64_t kChannel = 0x0A0B0C0D0E0F1011ull;

struct RecordingSink : DaveSessionSink {
  std::deque<std::pair<Opcode, mls::Bytes>> binary;
  std::vector<uint16_t> ready, invalid;
  std::vector<std::string> log;
  std::vector<bool> e2ee;
  int groupChanges = 0;
  DaveFrameEncryptor encryptor;
  DaveFrameDecryptor decryptor;
  bool receivePassThrough = false;
  uint64_t nowMs = 0;

  void SendBinary(Opcode op, mls::Bytes payload) override { binary.emplace_back(op, std::move(payload)); }
  void SendReadyForTransition(uint16_t id) override { ready.push_back(id); }
  void SendInvalidCommitWelcome(uint16_t id) override { invalid.push_back(id); }
  void AddReceiveEpoch(std::unique_ptr<ReceiveEpoch> keys) override {
    decryptor.AddEpoch(std::move(keys), nowMs);
  }
  void SetReceivePassThrough(bool on) override {
    receivePassThrough = on;
    decryptor.SetPassThrough(on, nowMs);
  }
  void UseSendKeys(std::unique_ptr<SenderKeys> keys) override { encryptor.UseKeys(std::move(keys)); }
  void UseSendPassThrough() override { encryptor.UsePassThrough(); }
  void E2eeChanged(bool encrypted) override { e2ee.push_back(encrypted); }
  void GroupChanged() override { ++groupChanges; }
  void Log(const std::string& message) override { log.push_back(message); }

  /// The last message of `op` sent, removed from the record.
  mls::Bytes Take(Opcode op) {
    for (auto it = binary.rbegin(); it != binary.rend(); ++it) {
      if (it->first != op) continue;
      mls::Bytes payload = std::move(it->second);
      binary.erase(std::next(it).base());
      return payload;
    }
    FAIL("no message of opcode " << static_cast<int>(op));
    return {};
  }
  bool Sent(Opcode op) const {
    for (const auto& [o, p] : binary)
      if (o == op) return true;
    return false;
  }
};

struct Member {
  uint64_t user;
  RecordingSink sink;
  DaveSession session;
  explicit Member(uint64_t id) : user(id), session(sink, id, kChannel) {}
  mls::KeyPackage KeyPackage() { return ReadKeyPackageMessage(sink.Take(Opcode::KeyPackage)); }
  CommitWelcomeMessage Commit() { return ReadCommitWelcome(sink.Take(Opcode::CommitWelcome)); }
};

/// The voice gateway's side, as far as these tests need it: its key, and proposals it signs.
mls::Bytes GatewayIdentity() {
  const std::string name = "voice gateway";  // a string, not a braced list: GCC 12 warns falsely on those
  return mls::Bytes(name.begin(), name.end());
}

struct ScriptedGateway {
  mls::SignaturePrivateKey key = mls::SignaturePrivateKey::Generate();
  mls::ExternalSender sender{key.PublicKey(), mls::Credential{mls::kCredentialBasic, GatewayIdentity(), {}}};

  mls::Bytes Package() const { return WriteExternalSenderPackage(sender); }
  mls::MlsMessage Propose(uint64_t epoch, mls::Proposal proposal) const {
    mls::GroupContext context;
    context.groupId = IdentityOf(kChannel);
    context.epoch = epoch;
    return mls::ExternalProposal(context, 0, key, std::move(proposal));
  }
  mls::Bytes Adds(uint64_t epoch, const std::vector<mls::KeyPackage>& packages) const {
    ProposalsMessage message;
    for (const auto& package : packages)
      message.proposals.push_back(Propose(epoch, mls::Proposal{mls::AddProposal{package}}));
    return WriteProposals(message);
  }
  mls::Bytes Remove(uint64_t epoch, mls::LeafIndex leaf) const {
    ProposalsMessage message;
    message.proposals.push_back(Propose(epoch, mls::Proposal{mls::RemoveProposal{leaf}}));
    return WriteProposals(message);
  }
  static mls::Bytes Announce(uint16_t id, const CommitWelcomeMessage& commit) {
    return WriteAnnounceCommit({id, commit.commit});
  }
  static mls::Bytes Welcome(uint16_t id, const CommitWelcomeMessage& commit) {
    REQUIRE(commit.welcome);
    return WriteWelcome({id, *commit.welcome});
  }
};

const std::vector<uint8_t> kOpus = {0xFC, 1, 2, 3, 4, 5, 6, 7};

/// `from` sends a frame; whether `to` plays it.
bool Hears(Member& from, Member& to) {
  std::vector<uint8_t> frame(kOpus.size() + from.sink.encryptor.MaxOverhead());
  frame.resize(from.sink.encryptor.Encrypt(1, kOpus, frame));
  if (frame.empty()) return false;
  std::vector<uint8_t> out(frame.size());
  out.resize(to.sink.decryptor.Decrypt(1, from.user, to.sink.nowMs, frame, out));
  return out == kOpus;
}

/// Alice and Bob start DAVE and form the group on Alice's commit (transition 1, executed).
struct TwoMembers {
  ScriptedGateway gateway;
  Member alice{1001}, bob{1002};
  mls::KeyPackage alicePackage, bobPackage;

  TwoMembers() {
    for (Member* m : {&alice, &bob}) {
      m->session.Start(1);
      m->session.OnClientsConnect({1001, 1002});
      m->session.OnExternalSender(gateway.Package());
    }
    alicePackage = alice.KeyPackage();
    bobPackage = bob.KeyPackage();
    // In the unestablished group each pending member is sent the others' Adds, for its own epoch 0.
    alice.session.OnProposals(gateway.Adds(0, {bobPackage}));
    bob.session.OnProposals(gateway.Adds(0, {alicePackage}));
    const auto aliceCommit = alice.Commit();
    const auto bobCommit = bob.Commit();
    CHECK(aliceCommit.welcome.has_value());
    CHECK(bobCommit.welcome.has_value());
    // Alice's commit wins: it comes back to her; Bob gets the Welcome (and ignores the commit).
    alice.session.OnAnnounceCommit(gateway.Announce(1, aliceCommit));
    bob.session.OnAnnounceCommit(gateway.Announce(1, aliceCommit));
    bob.session.OnWelcome(gateway.Welcome(1, aliceCommit));
  }
  void Execute(uint16_t id) {
    alice.session.OnExecuteTransition(id);
    bob.session.OnExecuteTransition(id);
  }
};

TEST_CASE("DAVE session: a plain call (version 0) passes media through and sends no key package") {
  Member alice(1001);
  alice.session.Start(0);
  CHECK(alice.sink.binary.empty());
  CHECK(alice.sink.encryptor.CurrentMode() == DaveFrameEncryptor::Mode::PassThrough);
  CHECK(alice.sink.receivePassThrough);
  CHECK_FALSE(alice.session.Encrypted());
}

TEST_CASE("DAVE session: two pending members form the group; nothing is sent or played before it executes") {
  TwoMembers call;
  auto& [gateway, alice, bob, alicePackage, bobPackage] = call;
  CHECK(alicePackage.leafNode.credential.identity == IdentityOf(1001));
  CHECK(alicePackage.leafNode.lifetime.notBefore == 0);
  CHECK(alicePackage.leafNode.lifetime.notAfter == UINT64_MAX);
  CHECK(alice.sink.ready == std::vector<uint16_t>{1});
  CHECK(bob.sink.ready == std::vector<uint16_t>{1});
  REQUIRE(alice.session.Group() != nullptr);
  REQUIRE(bob.session.Group() != nullptr);
  CHECK(alice.session.Group()->Epoch() == 1);
  CHECK(alice.session.EpochAuthenticator() == bob.session.EpochAuthenticator());
  CHECK(alice.session.EpochAuthenticator().size() == 32);
  CHECK(alice.session.SignatureKeyOf(1002) == bobPackage.leafNode.signatureKey);
  // Ready, not executed: senders still withhold (E2EE is required and they had no key).
  CHECK_FALSE(alice.session.Encrypted());
  CHECK_FALSE(Hears(alice, bob));
  CHECK(alice.sink.encryptor.GetCounters().withheld == 1);

  call.Execute(1);
  CHECK(alice.session.Encrypted());
  CHECK(bob.session.Encrypted());
  CHECK(alice.sink.e2ee == std::vector<bool>{true});
  CHECK(Hears(alice, bob));
  CHECK(Hears(bob, alice));
  CHECK(alice.session.GetCounters().commitsApplied == 1);
  CHECK(bob.session.GetCounters().welcomesApplied == 1);
}

TEST_CASE("DAVE session: after a resume, ready is said again for each transition not executed yet") {
  TwoMembers call;
  auto& [gateway, alice, bob, alicePackage, bobPackage] = call;
  CHECK(alice.sink.ready == std::vector<uint16_t>{1});
  alice.session.OnResumed();  // the first op 23 may have been lost with the connection
  CHECK(alice.sink.ready == std::vector<uint16_t>{1, 1});
  call.Execute(1);
  alice.session.OnResumed();  // nothing is waiting any more
  CHECK(alice.sink.ready == std::vector<uint16_t>{1, 1});
  CHECK(alice.session.Encrypted());
}

TEST_CASE("DAVE session: a third member joins through a commit race; a removed member's keys stop working") {
  TwoMembers call;
  auto& [gateway, alice, bob, alicePackage, bobPackage] = call;
  call.Execute(1);
  Member carol(1003);
  carol.session.Start(1);
  carol.session.OnClientsConnect({1001, 1002, 1003});
  carol.session.OnExternalSender(gateway.Package());
  const auto carolPackage = carol.KeyPackage();
  // One broadcast: the same signed bytes to every member (ECDSA signatures differ each time).
  const auto adds = gateway.Adds(1, {carolPackage});
  for (Member* m : {&alice, &bob}) {
    m->session.OnClientsConnect({1003});
    m->session.OnProposals(adds);
  }
  const auto aliceCommit = alice.Commit();
  const auto bobCommit = bob.Commit();
  // Both committed epoch 1; the gateway announces Bob's. Alice drops her own and follows Bob's.
  alice.session.OnAnnounceCommit(gateway.Announce(2, bobCommit));
  bob.session.OnAnnounceCommit(gateway.Announce(2, bobCommit));
  carol.session.OnWelcome(gateway.Welcome(2, bobCommit));
  (void)aliceCommit;
  for (Member* m : {&alice, &bob, &carol}) {
    INFO("member " << m->user << " log: " << (m->sink.log.empty() ? "" : m->sink.log.back()));
    CHECK(m->sink.invalid.empty());
    REQUIRE(m->session.Group() != nullptr);
    CHECK(m->session.Group()->Epoch() == 2);
    CHECK(m->session.EpochAuthenticator() == alice.session.EpochAuthenticator());
  }
  // Before execute, Alice and Bob still send with epoch 1 keys: Carol cannot hear them yet.
  CHECK(Hears(alice, bob));
  CHECK_FALSE(Hears(alice, carol));
  for (Member* m : {&alice, &bob, &carol})
    m->session.OnExecuteTransition(2);
  CHECK(Hears(alice, carol));
  CHECK(Hears(carol, bob));

  // Alice leaves: the gateway proposes her removal at epoch 2; Carol's commit wins.
  const auto removeAlice = gateway.Remove(2, alice.session.Group()->OwnLeaf());
  for (Member* m : {&bob, &carol}) {
    m->session.OnClientDisconnect(1001);
    m->session.OnProposals(removeAlice);
  }
  const auto removal = carol.Commit();
  CHECK_FALSE(removal.welcome.has_value());
  bob.session.OnAnnounceCommit(gateway.Announce(3, removal));
  carol.session.OnAnnounceCommit(gateway.Announce(3, removal));
  bob.session.OnExecuteTransition(3);
  carol.session.OnExecuteTransition(3);
  CHECK(Hears(carol, bob));
  // Alice still holds epoch 2 keys; frames of epoch 3 do not open with them.
  CHECK_FALSE(Hears(bob, alice));
  CHECK(alice.sink.decryptor.GetCounters().drops.authentication >= 1);
}

TEST_CASE("DAVE session: proposals outside the protocol's policy are refused and not committed") {
  TwoMembers call;
  auto& [gateway, alice, bob, alicePackage, bobPackage] = call;
  call.Execute(1);
  mls::KeyPackageOptions options;
  options.identity = IdentityOf(4040);  // never announced by op 11
  const auto stranger = mls::MakeKeyPackage(mls::SignaturePrivateKey::Generate(), options);
  alice.session.OnProposals(gateway.Adds(1, {stranger.keyPackage}));
  CHECK_FALSE(alice.sink.Sent(Opcode::CommitWelcome));
  CHECK(alice.session.GetCounters().proposalsRefused == 1);

  // Once op 11 announces the user, the same Add is taken.
  alice.session.OnClientsConnect({4040});
  alice.session.OnProposals(gateway.Adds(1, {stranger.keyPackage}));
  CHECK(alice.sink.Sent(Opcode::CommitWelcome));
  alice.sink.binary.clear();

  // A proposal for another epoch, and one signed by someone else than the announced gateway.
  bob.session.OnClientsConnect({4040});
  bob.session.OnProposals(gateway.Adds(0, {stranger.keyPackage}));
  ScriptedGateway impostor;
  bob.session.OnProposals(impostor.Adds(1, {stranger.keyPackage}));
  CHECK_FALSE(bob.sink.Sent(Opcode::CommitWelcome));
  CHECK(bob.session.GetCounters().proposalsRefused == 2);

  // Revoking: the revoked Add leaves nothing to commit.
  const auto proposals = ReadProposals(gateway.Adds(1, {stranger.keyPackage}));
  bob.session.OnProposals(WriteProposals(proposals));
  CHECK(bob.sink.Sent(Opcode::CommitWelcome));
  bob.sink.binary.clear();
  ProposalsMessage revoke;
  revoke.operation = ProposalsMessage::Operation::Revoke;
  revoke.revokedRefs.push_back(
      mls::ProposalRef(std::get<mls::PublicMessage>(proposals.proposals[0].body).Authenticated()));
  bob.session.OnProposals(WriteProposals(revoke));
  CHECK_FALSE(bob.sink.Sent(Opcode::CommitWelcome));
  CHECK(bob.session.Group()->ProposalCount() == 0);
  bob.session.OnProposals(WriteProposals(revoke));  // unknown now
  CHECK(bob.session.GetCounters().proposalsRefused == 3);
}

TEST_CASE("DAVE session: a Welcome that does not process is reported (op 31) and the member starts over") {
  ScriptedGateway gateway;
  Member alice(1001), bob(1002);
  for (Member* m : {&alice, &bob}) {
    m->session.Start(1);
    m->session.OnClientsConnect({1001, 1002});
    m->session.OnExternalSender(gateway.Package());
  }
  const auto alicePackage = alice.KeyPackage();
  const auto bobPackage = bob.KeyPackage();
  alice.session.OnProposals(gateway.Adds(0, {bobPackage}));
  auto commit = alice.Commit();
  alice.session.OnAnnounceCommit(gateway.Announce(7, commit));
  // The Welcome's group info is damaged in transit.
  REQUIRE(commit.welcome);
  commit.welcome->encryptedGroupInfo[0] ^= 1;
  bob.session.OnWelcome(gateway.Welcome(7, commit));
  CHECK(bob.sink.invalid == std::vector<uint16_t>{7});
  CHECK(bob.session.Group() == nullptr);
  CHECK(bob.session.GetCounters().keyPackagesSent == 2);
  const auto fresh = bob.KeyPackage();
  CHECK_FALSE(fresh == bobPackage);
  CHECK(fresh.leafNode.signatureKey == bobPackage.leafNode.signatureKey);  // one signature key per session

  // A Welcome from a group whose external sender is not the gateway's is refused the same way.
  ScriptedGateway other;
  Member mallory(1003);
  mallory.session.Start(1);
  mallory.session.OnClientsConnect({1002});
  mallory.session.OnExternalSender(other.Package());
  mallory.KeyPackage();
  mallory.session.OnProposals(other.Adds(0, {fresh}));
  const auto forged = mallory.Commit();
  bob.session.OnWelcome(gateway.Welcome(8, forged));
  CHECK(bob.sink.invalid == std::vector<uint16_t>{7, 8});
}

TEST_CASE("DAVE session: a commit that does not process is reported with its transition id") {
  TwoMembers call;
  auto& [gateway, alice, bob, alicePackage, bobPackage] = call;
  call.Execute(1);
  bob.session.OnProposals(gateway.Remove(1, alice.session.Group()->OwnLeaf()));
  auto commit = bob.Commit();
  // Alice never received the proposal the commit refers to.
  alice.session.OnAnnounceCommit(gateway.Announce(9, commit));
  CHECK(alice.sink.invalid == std::vector<uint16_t>{9});
  CHECK(alice.session.Group() == nullptr);
  // Media keeps its keys until the gateway has moved the group on.
  CHECK(alice.session.Encrypted());
}

TEST_CASE("DAVE session: downgrade to version 0 only when told, and the upgrade back through a new group") {
  TwoMembers call;
  auto& [gateway, alice, bob, alicePackage, bobPackage] = call;
  call.Execute(1);
  alice.session.OnPrepareTransition(5, 0);
  CHECK(alice.sink.receivePassThrough);  // at once: others may execute first
  CHECK(alice.sink.ready.back() == 5);
  CHECK(alice.session.Encrypted());
  alice.session.OnExecuteTransition(5);
  CHECK_FALSE(alice.session.Encrypted());
  CHECK(alice.session.ProtocolVersion() == 0);
  CHECK(alice.sink.encryptor.CurrentMode() == DaveFrameEncryptor::Mode::PassThrough);
  CHECK(alice.sink.e2ee == std::vector<bool>{true, false});

  // Upgrade: prepare epoch 1 of version 1 -> a new key package, a new group, executed: encrypted again.
  alice.sink.binary.clear();
  alice.session.OnPrepareEpoch(1, 1);
  CHECK(alice.session.Group() == nullptr);
  const auto package = alice.KeyPackage();
  CHECK(package.leafNode.credential.identity == IdentityOf(1001));
  CHECK(alice.sink.encryptor.CurrentMode() == DaveFrameEncryptor::Mode::PassThrough);  // until it executes
}

TEST_CASE("DAVE session: the sole member reset (epoch 1, then transition 0) leaves a pending member") {
  TwoMembers call;
  auto& [gateway, alice, bob, alicePackage, bobPackage] = call;
  call.Execute(1);
  alice.sink.binary.clear();
  alice.session.OnClientDisconnect(1002);
  alice.session.OnPrepareEpoch(1, 1);
  alice.session.OnPrepareTransition(0, 1);
  CHECK(alice.session.Group() == nullptr);
  CHECK(alice.sink.Sent(Opcode::KeyPackage));
  CHECK(alice.sink.ready.back() == 1);  // nothing acknowledged for transition 0
  CHECK(alice.sink.encryptor.CurrentMode() == DaveFrameEncryptor::Mode::Withhold);
  CHECK_FALSE(alice.session.Encrypted());
}

TEST_CASE("DAVE session: malformed server payloads are refused without a state change") {
  TwoMembers call;
  auto& [gateway, alice, bob, alicePackage, bobPackage] = call;
  const mls::Bytes junk = {0xFF, 0x00, 0x13};
  const auto log = alice.sink.log.size();
  alice.session.OnExternalSender(junk);
  alice.session.OnProposals(junk);
  alice.session.OnAnnounceCommit(junk);
  alice.session.OnWelcome(junk);
  alice.session.OnExecuteTransition(77);
  CHECK(alice.sink.log.size() == log + 5);
  CHECK(alice.sink.invalid.empty());
  CHECK(alice.session.Group()->Epoch() == 1);
}

}  // namespace dave_session_test
