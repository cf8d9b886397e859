// The voice gateway as DAVE's external sender, without sockets (docs/dave.md): the E2EE requirement of
// 1 March 2026, key package validation, group creation from pending members, a new group in one commit, the
// first commit of an epoch winning, Welcomes to exactly the added members, transitions (all ready, or the
// timeout), leaves, the sole member reset, op 31 recovery, downgrade and upgrade, and the admin routes. The
// members here are minimal MLS clients on src/mls (not the SDK's DAVE session, which the integration tests
// run against the emulator).
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dave_member.hpp"

namespace voice_dave_test {

using namespace platformpp;
using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::test::voice_fixture;
using namespace platformpp::emulator::test::dave_member;

namespace {

rapidjson::Document calls(Fixture& f) {
  return parse(f.call("GET", "/_emulator/voice/calls").body);
}
const rapidjson::Value* call_of(const rapidjson::Document& all, const std::string& lobby_id) {
  for (const auto& c : all.GetArray())
    if (str(c["lobby_id"]) == lobby_id) return &c;
  return nullptr;
}

struct DaveFixture : Fixture {
  DaveFixture() { settings(R"({"e2ee":"by_date"})"); }
  std::string lobby_id;
  std::vector<std::unique_ptr<Member>> members;
  Member& add(const std::string& user) {
    if (lobby_id.empty()) lobby_id = lobby({alice, bob, carol});
    members.push_back(std::make_unique<Member>(*this, user));
    members.back()->lobby = lobby_id;
    return *members.back();
  }
  // Alice, Bob and Carol, joined and in one group.
  std::vector<Member*> three_in_group() {
    std::vector<Member*> three{&add(alice), &add(bob), &add(carol)};
    for (auto* m : three)
      m->join(lobby_id);
    settle(all());
    REQUIRE(three.back()->established);
    return three;
  }
  // The admin action that makes the members form a new group; whether it changed anything.
  bool new_group() {
    return parse(raw("POST", "/_emulator/voice/dave",
                     R"({"lobby_id":")" + lobby_id + R"(","action":"new_group"})")
                     .body)["changed"]
        .GetBool();
  }
  std::vector<Member*> all() {
    std::vector<Member*> out;
    for (auto& m : members)
      if (!m->peer.closed) out.push_back(m.get());
    return out;
  }
};

}  // namespace

TEST_CASE("DAVE: from 1 March 2026 on the fake clock a call needs E2EE (4017); a millisecond before, not") {
  Fixture before(kE2eeRequiredFromMs - 1);
  before.settings(R"({"e2ee":"by_date"})");
  const auto lobby_id = before.lobby({before.alice, before.bob});
  Member plain(before, before.alice);
  plain.join(lobby_id, 0);
  CHECK_FALSE(plain.peer.closed);
  CHECK(plain.dave_version == 0);  // a plain call

  Fixture after(kE2eeRequiredFromMs);
  after.settings(R"({"e2ee":"by_date"})");
  const auto lobby2 = after.lobby({after.alice, after.bob});
  Member refused(after, after.alice);
  refused.join(lobby2, 0);
  CHECK(refused.peer.closed);
  CHECK(refused.peer.close_code == 4017);
  // The call ended: no voice state is left.
  CHECK(after.get_lobby(lobby2)["voice_states"].Size() == 0);
  Member dave(after, after.bob);
  dave.join(lobby2, 1);
  CHECK_FALSE(dave.peer.closed);
  CHECK(dave.dave_version == 1);
  // Without the field, a client offers no DAVE.
  after.settings(R"({"e2ee":"required"})");
  CHECK(str(parse(after.call("GET", "/_emulator/voice/settings").body)["e2ee"]) == "required");
  CHECK(after.raw("POST", "/_emulator/voice/settings", R"({"e2ee":"sometimes"})").status == 400);
}

TEST_CASE_FIXTURE(DaveFixture,
                  "DAVE: three members form a group, each welcomed once; leaves advance the epoch") {
  auto& a = add(alice);
  a.join(lobby_id);
  REQUIRE(a.dave_version == 1);
  settle(all());
  CHECK(a.ops == std::vector<int>{dave_op::kExternalSenderPackage});  // alone: nothing to commit
  auto& b = add(bob);
  b.join(lobby_id);
  settle(all());
  REQUIRE(a.established);
  REQUIRE(b.established);
  CHECK(a.group->Epoch() == 1);
  CHECK(a.group->EpochAuthenticator() == b.group->EpochAuthenticator());
  // One commit won: its committer got op 29, the other its Welcome; the transition executed for both.
  CHECK((a.announced.size() + b.announced.size()) == 1);
  CHECK((a.welcomed.has_value() != b.welcomed.has_value()));
  CHECK(a.executed == b.executed);
  CHECK(a.executed.size() == 1);

  auto& c = add(carol);
  c.join(lobby_id);
  settle(all());
  REQUIRE(c.established);
  REQUIRE(c.welcomed);
  for (auto* m : {&a, &b, &c}) {
    CHECK(m->group->Epoch() == 2);
    CHECK(m->group->EpochAuthenticator() == a.group->EpochAuthenticator());
    CHECK(m->executed.back() == *c.welcomed);
  }
  auto status = calls(*this);
  const auto* call = call_of(status, lobby_id);
  REQUIRE(call != nullptr);
  CHECK((*call)["epoch"].GetUint() == 2);
  CHECK((*call)["established"].GetBool());
  CHECK((*call)["leaves"].MemberCount() == 3);
  CHECK((*call)["counters"]["welcomes_sent"].GetUint() == 2);
  CHECK((*call)["counters"]["transitions_timed_out"].GetUint() == 0);

  // Bob leaves: the others commit his removal; Carol's leaf stays where it was.
  const auto carol_leaf = c.group->OwnLeaf();
  voice_state(bob, lobby_id, false);
  settle(all());
  for (auto* m : {&a, &c}) {
    CHECK(m->group->Epoch() == 3);
    CHECK(m->group->Members().size() == 2);
  }
  CHECK(a.group->EpochAuthenticator() == c.group->EpochAuthenticator());
  CHECK(c.group->OwnLeaf() == carol_leaf);
  status = calls(*this);
  CHECK((*call_of(status, lobby_id))["leaves"].MemberCount() == 2);

  // Bob comes back: he takes the leftmost blank leaf again.
  b.peer = VoicePeer{};
  b.binary_read = b.text_read = 0;
  b.established = false;
  b.welcomed.reset();
  b.join(lobby_id);
  settle(all());
  REQUIRE(b.established);
  CHECK(b.group->Epoch() == 4);
  CHECK(b.group->EpochAuthenticator() == a.group->EpochAuthenticator());
  CHECK(b.group->Members().size() == 3);
}

TEST_CASE_FIXTURE(DaveFixture,
                  "DAVE: the sole member left gets a new group (op 24 epoch 1, op 21 transition 0)") {
  auto& a = add(alice);
  auto& b = add(bob);
  a.join(lobby_id);
  b.join(lobby_id);
  settle(all());
  REQUIRE(a.established);
  voice_state(bob, lobby_id, false);
  settle(all());
  REQUIRE(a.prepare_epochs.size() == 1);
  const auto epoch = parse(a.prepare_epochs[0]);
  CHECK(epoch["d"]["epoch"].GetUint() == 1);
  CHECK(epoch["d"]["protocol_version"].GetInt() == 1);
  REQUIRE(a.prepare_transitions.size() == 1);
  CHECK(parse(a.prepare_transitions[0])["d"]["transition_id"].GetUint() == 0);
  auto status = calls(*this);
  CHECK_FALSE((*call_of(status, lobby_id))["established"].GetBool());
  // A newcomer and the former sole member form the new group together.
  auto& c = add(carol);
  c.join(lobby_id);
  settle(all());
  REQUIRE(a.established);
  REQUIRE(c.established);
  CHECK(a.group->Epoch() == 1);
  CHECK(a.group->EpochAuthenticator() == c.group->EpochAuthenticator());
}

TEST_CASE_FIXTURE(DaveFixture,
                  "DAVE: a new group forms in one commit: its Adds wait for every member's key package") {
  const auto three = three_in_group();
  auto& a = *three[0];
  auto& b = *three[1];
  auto& c = *three[2];
  const auto before = (*call_of(calls(*this), lobby_id))["counters"]["commits_accepted"].GetUint();
  REQUIRE(new_group());
  // Alice and Bob answer at once; Carol is late. Had their Adds gone out as their key packages came, they
  // would have made a group of two, and Carol would have taken a second commit.
  settle({&a, &b});
  CHECK_FALSE(a.established);
  CHECK_FALSE((*call_of(calls(*this), lobby_id))["established"].GetBool());
  settle(all());
  for (auto* m : {&a, &b, &c}) {
    REQUIRE(m->established);
    CHECK(m->group->Epoch() == 1);
    CHECK(m->group->Members().size() == 3);
    CHECK(m->group->EpochAuthenticator() == a.group->EpochAuthenticator());
  }
  CHECK((*call_of(calls(*this), lobby_id))["counters"]["commits_accepted"].GetUint() == before + 1);
}

TEST_CASE_FIXTURE(DaveFixture,
                  "DAVE: a new group does not wait past dave_new_group_wait_ms for a silent member") {
  settings(R"({"dave_new_group_wait_ms":50})");
  CHECK(parse(call("GET", "/_emulator/voice/settings").body)["dave_new_group_wait_ms"].GetInt() == 50);
  CHECK(raw("POST", "/_emulator/voice/settings", R"({"dave_new_group_wait_ms":600001})").status == 400);
  const auto three = three_in_group();
  auto& a = *three[0];
  auto& b = *three[1];
  auto& c = *three[2];
  c.auto_commit = false;  // Carol will not answer the new group's op 24 with a key package
  REQUIRE(new_group());
  settle(all());
  service.voice_tick();  // before the wait is over: still held
  settle(all());
  CHECK_FALSE(a.established);
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  service.voice_tick();
  settle(all());
  REQUIRE(a.established);
  REQUIRE(b.established);
  CHECK(a.group->Epoch() == 1);
  CHECK(a.group->Members().size() == 2);
  CHECK((*call_of(calls(*this), lobby_id))["counters"]["new_group_waits_expired"].GetUint() == 1);
  // Carol's key package, when it comes, is added to the group as a joiner's is.
  c.auto_commit = true;
  c.send_key_package();
  settle(all());
  REQUIRE(c.established);
  CHECK(c.welcomed);
  CHECK(c.group->Epoch() == 2);
  CHECK(c.group->EpochAuthenticator() == a.group->EpochAuthenticator());
}

TEST_CASE_FIXTURE(DaveFixture, "DAVE: the member a new group waits for leaves: the others form it at once") {
  const auto three = three_in_group();
  auto& a = *three[0];
  auto& b = *three[1];
  auto& c = *three[2];
  c.auto_commit = false;
  REQUIRE(new_group());
  settle(all());
  CHECK_FALSE(a.established);  // waiting for Carol's key package
  voice_state(carol, lobby_id, false);
  settle({&a, &b});
  REQUIRE(a.established);
  REQUIRE(b.established);
  CHECK(a.group->Members().size() == 2);
  CHECK(a.group->EpochAuthenticator() == b.group->EpochAuthenticator());
  CHECK((*call_of(calls(*this), lobby_id))["counters"]["new_group_waits_expired"].GetUint() == 0);
}

TEST_CASE_FIXTURE(DaveFixture, "DAVE: key packages must name the user, span all time, and be signed") {
  auto& a = add(alice);
  a.auto_commit = false;
  a.join(lobby_id);
  a.pump();
  REQUIRE(a.external);
  SUBCASE("another user's identity") {
    mls::KeyPackageOptions options;
    options.identity = be64(bob);
    a.send_key_package(mls::MakeKeyPackage(a.signature, options));
  }
  SUBCASE("a lifetime short of the whole range by one") {
    mls::KeyPackageOptions options;
    options.identity = be64(alice);
    options.notAfter = UINT64_MAX - 1;
    a.send_key_package(mls::MakeKeyPackage(a.signature, options));
  }
  SUBCASE("a bad signature") {
    mls::KeyPackageOptions options;
    options.identity = be64(alice);
    auto bundle = mls::MakeKeyPackage(a.signature, options);
    bundle.keyPackage.signature.back() ^= 1;
    a.send_binary(dave_op::kKeyPackage, bundle.keyPackage.Encode());
  }
  SUBCASE("bytes after it") {
    mls::KeyPackageOptions options;
    options.identity = be64(alice);
    a.bundle = mls::MakeKeyPackage(a.signature, options);
    auto bytes = a.bundle->keyPackage.Encode();
    bytes.push_back(0);
    a.send_binary(dave_op::kKeyPackage, bytes);
  }
  CHECK(a.peer.closed);
  CHECK(a.peer.close_code == 4020);
}

TEST_CASE_FIXTURE(DaveFixture,
                  "DAVE: the first valid commit of an epoch wins; late, stale and partial ones do not") {
  auto& a = add(alice);
  auto& b = add(bob);
  a.join(lobby_id);
  b.join(lobby_id);
  settle(all());
  REQUIRE(a.established);
  auto& c = add(carol);
  a.auto_commit = b.auto_commit = false;
  const auto refused_before = (*call_of(calls(*this), lobby_id))["counters"]["commits_refused"].GetUint();
  const auto announced_before = a.announced.size() + b.announced.size();
  c.join(lobby_id);
  settle(all());
  // Both members hold Carol's Add; both commit; Bob's arrives first.
  REQUIRE(a.group->ProposalCount() == 1);
  b.commit();
  a.commit();
  settle(all());
  // Bob's commit went to both (the group before it) and brought Carol her Welcome.
  CHECK(a.announced.size() + b.announced.size() == announced_before + 2);
  CHECK(a.announced.back() == b.announced.back());
  CHECK(c.welcomed == b.announced.back());
  const auto status = calls(*this);
  const auto& counters = (*call_of(status, lobby_id))["counters"];
  CHECK(counters["commits_refused"].GetUint() == refused_before + 1);  // Alice's: a past epoch now
  // Alice follows Bob's announced commit and drops hers.
  CHECK(a.group->Epoch() == 2);
  CHECK(c.group->Epoch() == 2);
  CHECK(a.group->EpochAuthenticator() == c.group->EpochAuthenticator());
  // Replaying Bob's commit: a past epoch, refused.
  b.send_binary(dave_op::kCommitWelcome, *b.last_commit);
  CHECK((*call_of(calls(*this), lobby_id))["counters"]["commits_refused"].GetUint() == refused_before + 2);
  CHECK_FALSE(b.peer.closed);
}

TEST_CASE_FIXTURE(DaveFixture, "DAVE: a commit without every proposal of the epoch is refused") {
  auto& a = add(alice);
  auto& b = add(bob);
  a.join(lobby_id);
  b.join(lobby_id);
  settle(all());
  a.auto_commit = b.auto_commit = false;
  auto& c = add(carol);
  c.join(lobby_id);
  settle(all());
  REQUIRE(a.group->ProposalCount() == 1);
  const auto refused_before = (*call_of(calls(*this), lobby_id))["counters"]["commits_refused"].GetUint();
  const auto announced_before = a.announced.size() + b.announced.size();
  // Alice drops Carol's Add on her side (the ref of the proposal the gateway sent) and commits without it.
  const auto& frame = a.peer.binary.back();
  REQUIRE(static_cast<std::uint8_t>(frame[2]) == dave_op::kProposals);
  const auto payload = as_bytes(std::string_view(frame).substr(4));
  mls::Reader in(payload);
  std::optional<mls::Bytes> ref;
  in.Items([&](mls::Reader& item) {
    const auto message = mls::MlsMessage::Read(item);
    ref = mls::ProposalRef(std::get<mls::PublicMessage>(message.body).Authenticated());
  });
  REQUIRE(ref);
  REQUIRE(a.group->RevokeProposal(*ref));
  a.commit();
  CHECK((*call_of(calls(*this), lobby_id))["counters"]["commits_refused"].GetUint() == refused_before + 1);
  settle(all());
  CHECK(a.announced.size() + b.announced.size() == announced_before);  // nothing announced
  // Bob's commit has them all: taken. (Alice, who dropped the Add, could not follow it: she would report
  // it with op 31.)
  b.commit();
  settle({&b, &c});
  CHECK(c.established);
  CHECK(b.group->Epoch() == 2);
  CHECK(c.group->EpochAuthenticator() == b.group->EpochAuthenticator());
}

TEST_CASE_FIXTURE(DaveFixture, "DAVE: op 31 removes the member and adds it again with its new key package") {
  auto& a = add(alice);
  auto& b = add(bob);
  auto& c = add(carol);
  a.join(lobby_id);
  b.join(lobby_id);
  c.join(lobby_id);
  settle(all());
  REQUIRE(c.established);
  const auto epoch = a.group->Epoch();
  // Carol reports an invalid commit, resets and sends a new key package.
  c.f.send(c.connection, R"({"op":31,"d":{"transition_id":)" + std::to_string(a.executed.back()) + "}}");
  c.established = false;
  c.welcomed.reset();
  c.send_key_package();
  settle(all());
  REQUIRE(c.established);
  REQUIRE(c.welcomed);
  CHECK(a.group->Epoch() > epoch);
  CHECK(c.group->EpochAuthenticator() == a.group->EpochAuthenticator());
  CHECK(a.group->Members().size() == 3);
  CHECK((*call_of(calls(*this), lobby_id))["counters"]["invalid_reports"].GetUint() == 1);
}

TEST_CASE_FIXTURE(DaveFixture,
                  "DAVE: a transition executes when every member is ready, or after the timeout") {
  settings(R"({"dave_transition_timeout_ms":50})");
  auto& a = add(alice);
  auto& b = add(bob);
  b.auto_ready = false;
  a.join(lobby_id);
  b.join(lobby_id);
  settle(all());
  REQUIRE(b.established);
  CHECK(a.executed.empty());  // Bob never said ready
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  service.voice_tick();
  settle(all());
  CHECK(a.executed.size() == 1);
  CHECK(b.executed == a.executed);
  CHECK((*call_of(calls(*this), lobby_id))["counters"]["transitions_timed_out"].GetUint() == 1);
}

TEST_CASE_FIXTURE(
    DaveFixture,
    "DAVE: without the requirement a plain client downgrades the call; its leaving upgrades it") {
  settings(R"({"e2ee":"optional"})");
  auto& a = add(alice);
  auto& b = add(bob);
  a.join(lobby_id);
  b.join(lobby_id);
  settle(all());
  REQUIRE(a.established);
  auto& c = add(carol);
  c.join(lobby_id, 0);
  CHECK(c.dave_version == 0);
  settle(all());
  for (auto* m : {&a, &b}) {
    REQUIRE(m->prepare_transitions.size() == 1);
    const auto d = parse(m->prepare_transitions[0]);
    CHECK(d["d"]["protocol_version"].GetInt() == 0);
    CHECK(m->executed.back() == d["d"]["transition_id"].GetUint());
  }
  CHECK(c.ops.empty());  // the plain client hears nothing of DAVE
  CHECK((*call_of(calls(*this), lobby_id))["dave_protocol_version"].GetInt() == 0);
  // Requiring E2EE ends the plain client's call (4017) and the others upgrade to a new group.
  settings(R"({"e2ee":"required"})");
  CHECK(c.peer.closed);
  CHECK(c.peer.close_code == 4017);
  settle(all());
  for (auto* m : {&a, &b}) {
    CHECK(m->prepare_epochs.size() == 1);
    CHECK(m->established);
    CHECK(m->group->Epoch() == 1);
  }
  CHECK(a.group->EpochAuthenticator() == b.group->EpochAuthenticator());
  CHECK((*call_of(calls(*this), lobby_id))["dave_protocol_version"].GetInt() == 1);
}

TEST_CASE_FIXTURE(DaveFixture,
                  "DAVE: admin downgrade, upgrade and new group; refused while E2EE is required") {
  auto& a = add(alice);
  auto& b = add(bob);
  a.join(lobby_id);
  b.join(lobby_id);
  settle(all());
  const auto action = [&](const std::string& what) {
    return raw("POST", "/_emulator/voice/dave",
               R"({"lobby_id":")" + lobby_id + R"(","action":")" + what + "\"}");
  };
  CHECK(action("downgrade").status == 400);  // 2026-11-18: E2EE is required
  CHECK(raw("POST", "/_emulator/voice/dave", R"({"lobby_id":"1","action":"new_group"})").status == 404);
  CHECK(action("sideways").status == 400);
  const auto authenticator = a.group->EpochAuthenticator();
  CHECK(parse(action("new_group").body)["changed"].GetBool());
  settle(all());
  CHECK(a.group->Epoch() == 1);
  CHECK(a.group->EpochAuthenticator() != authenticator);
  CHECK(a.group->EpochAuthenticator() == b.group->EpochAuthenticator());

  settings(R"({"e2ee":"optional"})");
  CHECK(parse(action("downgrade").body)["changed"].GetBool());
  settle(all());
  CHECK(parse(a.prepare_transitions.back())["d"]["protocol_version"].GetInt() == 0);
  CHECK_FALSE(parse(action("downgrade").body)["changed"].GetBool());
  CHECK(parse(action("upgrade").body)["changed"].GetBool());
  settle(all());
  CHECK(a.prepare_epochs.size() == 2);
  CHECK(a.group->EpochAuthenticator() == b.group->EpochAuthenticator());
  CHECK((*call_of(calls(*this), lobby_id))["dave_protocol_version"].GetInt() == 1);
}

TEST_CASE_FIXTURE(DaveFixture, "DAVE: binary opcodes a client may not send, and before Identify") {
  VoicePeer early;
  const auto id = open(early);
  service.voice_received(id, std::string(1, static_cast<char>(dave_op::kKeyPackage)), false);
  CHECK(early.close_code == 4003);
  auto& a = add(alice);
  a.join(lobby_id);
  a.send_binary(dave_op::kAnnounceCommit, {0, 1});
  CHECK(a.peer.close_code == 4001);
}

}  // namespace voice_dave_test
