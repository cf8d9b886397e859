// End-to-end encrypted calls (DAVE v1, docs/dave.md) against the emulator, whose voice gateway is the
// external sender: headless players form the MLS group, the 440 Hz tone passes through DAVE, every join and
// leave moves to a new epoch on which all agree, the forwarding unit relays frames it cannot read, a drop in
// the middle of a transition resumes, a downgrade (E2EE optional) and an upgrade switch the call's media, and
// a close with 4017 ends the call as Forbidden.
#include "voice_call_fixture.hpp"

#include <string>
#include <vector>

namespace voice_dave_test {

namespace {

using namespace voice_call_fixture;
using Admin = platformpp::testkit::EmulatorAdmin;

/// Every player's call end-to-end encrypted, all on the same epoch authenticator.
bool AllEncryptedTogether(VoiceFixture& f, std::chrono::milliseconds timeout = 20s) {
  const bool agreed = f.RunAll(
      [&] {
        std::vector<uint8_t> first;
        for (auto& p : f.players) {
          if (!p->call || !p->call.GetE2eeActive()) return false;
          const auto authenticator = p->call.GetEpochAuthenticator();
          if (authenticator.size() != 32) return false;
          if (first.empty()) first = authenticator;
          if (authenticator != first) return false;
        }
        return true;
      },
      timeout);
  if (!agreed) {
    for (auto& p : f.players) {
      MESSAGE("player " << p->Id() << ": e2ee " << (p->call && p->call.GetE2eeActive()) << ", code "
                        << (p->call ? p->call.GetEpochVerificationCode() : std::string("-"))
                        << ", events: " << Joined(p->events));
    }
  }
  return agreed;
}

std::optional<Admin::VoiceCall> CallOf(uint64_t lobbyId) {
  for (auto& call : itest::Shared().admin->VoiceCalls())
    if (call.lobbyId == lobbyId) return call;
  return std::nullopt;
}

Admin::VoiceSession SessionOf(uint64_t userId) {
  for (auto& session : itest::Shared().admin->VoiceSessions())
    if (session.userId == userId) return session;
  FAIL("no voice session of " << userId);
  return {};
}

/// The tone from `from` as `to` hears it, over `duration` after a settling time.
std::vector<float> HearTone(VoiceFixture& f, Player& from, Player& to, std::chrono::milliseconds duration) {
  to.tap.watchedUser = from.Id();
  from.tap.tone = true;
  f.Pump(600ms);
  to.tap.Take();
  f.Pump(duration);
  from.tap.tone = false;
  return to.tap.Take();
}

/// E2EE status changes as the player's callback saw them.
void WatchE2ee(Player& p, std::vector<bool>& changes) {
  p.call.SetE2eeStatusChangedCallback([&changes](bool active) { changes.push_back(active); });
}

/// Restores the emulator's voice settings for the tests that follow (the emulator is shared).
struct SettingsReset {
  ~SettingsReset() {
    Admin::VoiceSettings reset;
    reset.reset = true;
    itest::Shared().admin->SetVoiceSettings(reset);
  }
};

}  // namespace

TEST_CASE(
    "DAVE: three players' call is end-to-end encrypted; joins and leaves bring new epochs all agree on") {
  VoiceFixture f;
  Player& a = f.Add();
  Player& b = f.Add();
  std::vector<bool> aChanges;
  f.Join(a);
  WatchE2ee(a, aChanges);
  f.Join(b);
  REQUIRE(f.AllConnected());
  REQUIRE(AllEncryptedTogether(f));
  CHECK(f.RunAll([&] { return aChanges == std::vector<bool>{true}; }));
  const auto code = a.call.GetEpochVerificationCode();
  CHECK(code.size() == 30);
  CHECK(code == b.call.GetEpochVerificationCode());
  auto call = CallOf(f.lobbyId);
  REQUIRE(call);
  CHECK(call->daveProtocolVersion == 1);
  CHECK(call->epoch == 1);
  CHECK(call->leaves.size() == 2);

  // The tone of the voice issue, through DAVE.
  const auto heard = HearTone(f, a, b, 2000ms);
  REQUIRE(heard.size() >= static_cast<std::size_t>(kRate));
  CHECK(DominantFrequency(heard) == doctest::Approx(440).epsilon(0.03));
  const double snr = ToneSnrDb(heard, 440);
  const double median = ToneSnrMedianDb(heard, 440);
  MESSAGE("440 Hz tone A -> B through DAVE: SNR " << snr << " dB over " << heard.size() / 48
                                                  << " ms, median of 100 ms windows " << median << " dB");
  CHECK(median >= 20.0);
  // The forwarding unit relayed A's frames without being able to read them: no Opus in clear, ever.
  const auto relayed = SessionOf(a.Id());
  MESSAGE("forwarding unit, from A: " << relayed.payloadsE2ee << " DAVE frames, " << relayed.payloadsClear
                                      << " in clear");
  // Every 20 ms frame B heard came through it encrypted (a count by what was heard, not by wall-clock time:
  // a loaded machine sends fewer frames in the same two seconds).
  CHECK(relayed.payloadsE2ee >= heard.size() / (kRate / 50));
  CHECK(relayed.payloadsClear == 0);
  // The players' own statistics say the same: A's frames left encrypted, B decrypted them, none in clear.
  const auto sent = a.call.GetMediaStatistics();
  const auto got = b.call.GetMediaStatistics();
  MESSAGE("A sent " << sent.framesSent << " frames, " << sent.framesEncrypted << " encrypted, "
                    << sent.framesWithheld << " withheld before the group; B decrypted "
                    << got.framesDecrypted << ", " << got.framesUndecryptable << " undecryptable, "
                    << got.framesLost << " lost");
  CHECK(sent.framesEncrypted >= heard.size() / (kRate / 50));
  CHECK(got.framesDecrypted >= heard.size() / (kRate / 50));
  CHECK(got.framesInClear == 0);
  CHECK(got.framesDecoded > 0);  // decoded at playout: the jitter buffer holds the last few decrypted

  // Pairwise codes: the same 45 digits on both sides.
  std::optional<std::string> ab, ba;
  a.call.GetPairwiseVerificationCode(b.Id(), [&](std::string c) { ab = std::move(c); });
  b.call.GetPairwiseVerificationCode(a.Id(), [&](std::string c) { ba = std::move(c); });
  REQUIRE(f.RunAll([&] { return ab && ba; }));
  CHECK(ab->size() == 45);
  CHECK(*ab == *ba);

  // Carol joins: a new epoch, new digits, the same for all three.
  Player& c = f.Add();
  f.Join(c);
  REQUIRE(f.AllConnected());
  REQUIRE(f.RunAll([&] { return a.call.GetEpochVerificationCode() != code; }));
  REQUIRE(AllEncryptedTogether(f));
  call = CallOf(f.lobbyId);
  REQUIRE(call);
  CHECK(call->epoch == 2);
  CHECK(call->leaves.size() == 3);
  const auto withCarol = a.call.GetEpochVerificationCode();
  const auto toCarol = HearTone(f, a, c, 1000ms);
  // The median of 100 ms windows, as for B: a single 20 ms gap, which a loaded machine (the sanitizer build
  // beside other tests) brings when it starves the playout, caps a whole second's SNR near 17 dB.
  const auto carolGot = c.call.GetMediaStatistics();
  MESSAGE("440 Hz tone A -> Carol: SNR " << ToneSnrDb(toCarol, 440) << " dB, median of 100 ms windows "
                                         << ToneSnrMedianDb(toCarol, 440) << " dB; Carol decrypted "
                                         << carolGot.framesDecrypted << ", " << carolGot.framesUndecryptable
                                         << " undecryptable, " << carolGot.framesLost << " lost");
  CHECK(ToneSnrMedianDb(toCarol, 440) >= 20.0);
  CHECK(carolGot.framesInClear == 0);

  // Bob leaves: his leaf goes, and the others move on without him.
  bool ended = false;
  b.client->EndCall(f.lobbyId, [&] { ended = true; });
  REQUIRE(f.RunAll([&] { return ended; }));
  REQUIRE(f.RunAll([&] {
    return a.call.GetEpochVerificationCode() != withCarol &&
           a.call.GetEpochVerificationCode() == c.call.GetEpochVerificationCode() && a.call.GetE2eeActive();
  }));
  call = CallOf(f.lobbyId);
  REQUIRE(call);
  CHECK(call->epoch == 3);
  CHECK(call->leaves.size() == 2);
  CHECK(call->leaves.count(b.Id()) == 0);
  CHECK(call->commitsAccepted == 3);
  CHECK(call->transitionsTimedOut == 0);
  CHECK(aChanges == std::vector<bool>{true});  // encrypted throughout
  CHECK_FALSE(b.call.GetE2eeActive());         // over for Bob
}

TEST_CASE("DAVE: a voice gateway drop in the middle of a transition resumes and the group converges") {
  VoiceFixture f;
  Player& a = f.Add();
  Player& b = f.Add();
  f.Join(a);
  f.Join(b);
  REQUIRE(f.AllConnected());
  REQUIRE(AllEncryptedTogether(f));
  const auto before = a.call.GetEpochVerificationCode();
  Player& c = f.Add();
  f.Join(c);
  // Cut Bob's voice gateway connection while the group takes Carol in: DAVE messages wait in the resume
  // buffer, and what Bob would have said goes out after Resumed.
  REQUIRE(f.RunAll([&] { return CallOf(f.lobbyId) && CallOf(f.lobbyId)->leaves.size() == 2; }));
  REQUIRE(itest::Shared().admin->DropVoice(b.Id()) == 1);
  REQUIRE(f.AllConnected());
  REQUIRE(AllEncryptedTogether(f, 30s));
  CHECK(a.call.GetEpochVerificationCode() != before);
  const auto call = CallOf(f.lobbyId);
  REQUIRE(call);
  CHECK(call->leaves.size() == 3);
  const auto heard = HearTone(f, c, b, 1000ms);
  CHECK(ToneSnrMedianDb(heard, 440) >= 20.0);
}

TEST_CASE("DAVE: a downgrade (E2EE optional) sends media in clear; the upgrade encrypts it again") {
  SettingsReset restore;
  VoiceFixture f;
  Player& a = f.Add();
  Player& b = f.Add();
  std::vector<bool> aChanges, bChanges;
  f.Join(a);
  f.Join(b);
  WatchE2ee(a, aChanges);
  WatchE2ee(b, bChanges);
  REQUIRE(f.AllConnected());
  REQUIRE(AllEncryptedTogether(f));
  auto& admin = *itest::Shared().admin;
  // While E2EE is required the platform does not downgrade.
  CHECK_THROWS(admin.DaveAction(f.lobbyId, "downgrade"));
  Admin::VoiceSettings optional;
  optional.e2ee = "optional";
  admin.SetVoiceSettings(optional);
  REQUIRE(admin.DaveAction(f.lobbyId, "downgrade"));
  REQUIRE(f.RunAll([&] { return !a.call.GetE2eeActive() && !b.call.GetE2eeActive(); }));
  CHECK(a.call.GetEpochVerificationCode().empty());  // no group any more
  CHECK(a.call.GetEpochAuthenticator().empty());
  const auto clearBefore = SessionOf(a.Id()).payloadsClear;
  const auto heard = HearTone(f, a, b, 1000ms);
  CHECK(ToneSnrMedianDb(heard, 440) >= 20.0);
  CHECK(SessionOf(a.Id()).payloadsClear > clearBefore + 20);  // plain media, as the call now is

  REQUIRE(admin.DaveAction(f.lobbyId, "upgrade"));
  REQUIRE(AllEncryptedTogether(f));
  const auto clearAfter = SessionOf(a.Id()).payloadsClear;
  const auto again = HearTone(f, a, b, 1000ms);
  // The median window, as everywhere here: a machine that stops running the audio threads for 100 ms
  // (docs/fault-soak.md) spoils a window or two of the whole, not the path.
  MESSAGE("440 Hz tone A -> B after the upgrade: SNR "
          << ToneSnrDb(again, 440) << " dB, median of 100 ms windows " << ToneSnrMedianDb(again, 440)
          << " dB");
  CHECK(ToneSnrMedianDb(again, 440) >= 20.0);
  CHECK(SessionOf(a.Id()).payloadsClear <= clearAfter + 2);  // frames in flight at the switch at most
  f.Pump(200ms);
  CHECK(aChanges == std::vector<bool>{true, false, true});
  CHECK(bChanges == std::vector<bool>{true, false, true});
}

TEST_CASE("DAVE: the voice gateway starts a new group; the players rekey and agree on new digits") {
  VoiceFixture f;
  Player& a = f.Add();
  Player& b = f.Add();
  f.Join(a);
  f.Join(b);
  REQUIRE(f.AllConnected());
  REQUIRE(AllEncryptedTogether(f));
  const auto before = a.call.GetEpochVerificationCode();
  REQUIRE(itest::Shared().admin->DaveAction(f.lobbyId, "new_group"));
  REQUIRE(f.RunAll([&] { return a.call.GetEpochVerificationCode() != before; }));
  REQUIRE(AllEncryptedTogether(f));
  const auto call = CallOf(f.lobbyId);
  REQUIRE(call);
  CHECK(call->epoch == 1);
  const auto heard = HearTone(f, b, a, 1000ms);
  CHECK(ToneSnrMedianDb(heard, 440) >= 20.0);
}

TEST_CASE("DAVE: a call the voice server closes with 4017 (E2EE required) ends as Forbidden") {
  VoiceFixture f;
  Player& a = f.Add();
  f.Join(a);
  REQUIRE(f.RunAll([&] { return a.call.GetStatus() == Call::Status::Connected; }));
  REQUIRE(itest::Shared().admin->CloseVoice(a.Id(), 4017, "E2EE/DAVE protocol required.") == 1);
  INFO("events: " << Joined(a.events));
  CHECK(f.RunAll([&] { return Count(a.events, "status Disconnected Forbidden 4017") == 1; }));
  CHECK_FALSE(a.call.GetE2eeActive());
}

}  // namespace voice_dave_test
