// Voice calls against the emulator: two (or three) headless players in a lobby call, over the real Gateway,
// voice gateway (TLS WebSocket, v8) and UDP forwarding unit, with the null audio device
// (PLATFORMPP_AUDIO=null: silence in, nothing out, paced in real time). The audio callbacks put a tone into
// A's microphone frames and record what B receives, so the tests measure what a player would hear.
#include "voice_call_fixture.hpp"

#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <numbers>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace voice_call_test {

namespace {

using namespace voice_call_fixture;

}  // namespace

TEST_CASE("voice: a 440 Hz tone captured at A arrives at B with 440 Hz dominant and SNR >= 20 dB") {
  VoiceFixture f;
  Player& a = f.Add();
  Player& b = f.Add();
  f.Join(a);
  f.Join(b);
  REQUIRE(f.AllConnected());
  CHECK(a.call.GetChannelId() == f.lobbyId);
  CHECK(Count(a.events, "status Connected None 0") == 1);
  // The lobby shows its call.
  auto lobby = b.client->GetLobbyHandle(f.lobbyId);
  REQUIRE(lobby);
  REQUIRE(lobby->GetCallInfoHandle());
  CHECK(lobby->GetCallInfoHandle()->GetParticipants().size() == 2);

  b.tap.watchedUser = a.Id();
  a.tap.tone = true;
  f.Pump(600ms);  // codec and jitter buffer settle; speaking starts
  b.tap.Take();
  f.Pump(2000ms);
  const auto heard = b.tap.Take();
  INFO("samples heard: " << heard.size());
  REQUIRE(heard.size() >= static_cast<std::size_t>(kRate));  // at least one of the two seconds
  CHECK(DominantFrequency(heard) == doctest::Approx(440).epsilon(0.03));
  const double snr = ToneSnrDb(heard, 440);
  const double median = ToneSnrMedianDb(heard, 440);
  MESSAGE("440 Hz tone A -> B: SNR " << snr << " dB over " << heard.size() / 48
                                     << " ms, median of 100 ms windows " << median << " dB");
  CHECK(median >= 20.0);
  CHECK(Count(b.events, "speaking " + std::to_string(a.Id()) + " on") == 1);
  CHECK(Count(a.events, "speaking " + std::to_string(a.Id()) + " on") == 1);

  // Mute stops the packets: the forwarding unit sees nothing more from A (after its five silence frames).
  a.call.SetSelfMute(true);
  f.Pump(300ms);
  const uint64_t before = b.tap.framesFromWatched.load();
  f.Pump(600ms);
  CHECK(b.tap.framesFromWatched.load() - before <= 1);
  CHECK(f.RunAll([&] { return Count(b.events, "speaking " + std::to_string(a.Id()) + " off") == 1; }));
  REQUIRE(b.call.GetVoiceStateHandle(a.Id()));
  CHECK(f.RunAll([&] { return b.call.GetVoiceStateHandle(a.Id())->SelfMute(); }));

  // EndCall: A leaves, B sees it, A's call handle is done.
  bool ended = false;
  a.client->EndCall(f.lobbyId, [&] { ended = true; });
  CHECK(f.RunAll([&] { return ended && Count(b.events, "left " + std::to_string(a.Id())) == 1; }));
  CHECK(b.call.GetParticipants().size() == 1);
  CHECK(a.call.GetStatus() == Call::Status::Disconnected);
  CHECK(!a.client->GetCall(f.lobbyId));
}

TEST_CASE("voice: a player who joins a call under way lists everyone, hears who speaks, and sets volumes") {
  VoiceFixture f;
  Player& a = f.Add();
  Player& b = f.Add();
  f.Join(a);
  f.Join(b);
  REQUIRE(f.AllConnected());
  // A and B have been talking for a while (A still is) when C arrives in the lobby and joins the call.
  a.tap.tone = true;
  f.Pump(1000ms);
  Player& c = f.Add();
  c.tap.watchedUser = a.Id();
  f.Join(c);
  // Everybody's list has all three (AllConnected waits for it), each of them announced once.
  REQUIRE(f.AllConnected());
  std::vector<uint64_t> everyone{a.Id(), b.Id(), c.Id()};
  std::sort(everyone.begin(), everyone.end());
  for (auto* p : {&a, &b, &c}) {
    INFO("player " << p->Id() << " events: " << Joined(p->events));
    auto ids = p->call.GetParticipants();
    std::sort(ids.begin(), ids.end());
    CHECK(ids == everyone);
    for (uint64_t id : everyone)
      CHECK(Count(p->events, "joined " + std::to_string(id)) == 1);
  }
  // C knows the voice states of those who were there first.
  CHECK(c.call.GetVoiceStateHandle(a.Id()));
  CHECK(c.call.GetVoiceStateHandle(b.Id()));
  // A was speaking when C joined: C is told; B starts after: C is told too.
  const std::string aSpeaks = "speaking " + std::to_string(a.Id()) + " on";
  const std::string bSpeaks = "speaking " + std::to_string(b.Id()) + " on";
  CHECK(f.RunAll([&] { return Count(c.events, aSpeaks) == 1; }));
  b.tap.tone = true;
  CHECK(f.RunAll([&] { return Count(c.events, bSpeaks) == 1; }));
  CHECK(Count(c.events, aSpeaks) == 1);

  // C sets the volume and local mute of those who were there first (the receive pipeline's scaling has
  // its unit test; on the null device the mix itself is not heard).
  c.call.SetParticipantVolume(a.Id(), 50);
  c.call.SetLocalMute(b.Id(), true);
  CHECK(c.call.GetParticipantVolume(a.Id()) == 50);
  CHECK(c.call.GetLocalMute(b.Id()));
  // B leaves: C and A are told once, and C's list follows.
  bool ended = false;
  b.client->EndCall(f.lobbyId, [&] { ended = true; });
  CHECK(f.RunAll([&] {
    return ended && Count(c.events, "left " + std::to_string(b.Id())) == 1 &&
           Count(a.events, "left " + std::to_string(b.Id())) == 1;
  }));
  f.Pump(200ms);
  CHECK(Count(c.events, "left " + std::to_string(b.Id())) == 1);
  CHECK(c.call.GetParticipants().size() == 2);
}

TEST_CASE("voice: with 10 % of packets lost the tone continues (PLC, FEC) with SNR >= 10 dB") {
  VoiceFixture f;
  Player& a = f.Add();
  Player& b = f.Add();
  f.Join(a);
  f.Join(b);
  REQUIRE(f.AllConnected());
  itest::Shared().admin->SetVoiceUdpFaults(10, 0, 0, 7);
  b.tap.watchedUser = a.Id();
  a.tap.syllables = true;
  a.tap.tone = true;
  f.Pump(600ms);
  b.tap.Take();
  f.Pump(3000ms);
  const auto heard = b.tap.Take();
  itest::Shared().admin->ClearVoiceUdpFaults();
  // Concealment keeps the stream whole: close to 3 s of audio despite the losses.
  CHECK(heard.size() >= static_cast<std::size_t>(kRate * 2.5));
  // 20 ms windows follow the syllables' loudness; the gaps must be filled: in (nearly) every window the tone
  // is there, at no less than a quarter of the quietest syllable level (0.4 x 9000): concealment fades a
  // lost frame somewhat, silence would fail.
  const auto fit = FitTone(heard, 440, kRate / 50);
  const auto present = std::count_if(fit.amplitudes.begin(), fit.amplitudes.end(),
                                     [](double amplitude) { return amplitude >= 900; });
  MESSAGE("440 Hz syllables with 10 % loss: SNR " << fit.snrDb << " dB over " << heard.size() / 48 << " ms; "
                                                  << present << " of " << fit.amplitudes.size()
                                                  << " windows carry it");
  CHECK(fit.snrDb >= 10.0);
  CHECK(static_cast<double>(present) >= 0.95 * static_cast<double>(fit.amplitudes.size()));
  CHECK(DominantFrequency(heard) == doctest::Approx(440).epsilon(0.03));
}

TEST_CASE("voice: StartCall needs lobby membership and refuses a second call in the same lobby") {
  VoiceFixture f;
  Player& a = f.Add();
  CHECK_FALSE(a.client->StartCall(f.lobbyId + 1));  // not a lobby of the player
  f.Join(a);
  CHECK_FALSE(a.client->StartCall(f.lobbyId));  // already in it
  CHECK(a.client->GetCall(f.lobbyId));
  CHECK(a.client->GetCalls().size() == 1);
  REQUIRE(f.RunAll([&] { return a.call.GetStatus() == Call::Status::Connected; }));
  bool ended = false;
  a.client->EndCalls([&] { ended = true; });
  CHECK(f.RunAll([&] { return ended; }));
  CHECK(a.client->GetCalls().empty());
  CHECK(a.events.back() == "status Disconnected None 0");
}

TEST_CASE(
    "voice: a dropped voice gateway resumes (Reconnecting -> Connected) and nothing it missed is lost") {
  VoiceFixture f;
  Player& a = f.Add();
  Player& b = f.Add();
  f.Join(a);
  f.Join(b);
  REQUIRE(f.AllConnected());
  auto sessionOf = [](uint64_t user) {
    for (const auto& session : itest::Shared().admin->VoiceSessions())
      if (session.userId == user) return session;
    return platformpp::testkit::EmulatorAdmin::VoiceSession{};
  };
  const auto before = sessionOf(a.Id());
  REQUIRE(before.ssrc != 0);
  a.events.clear();

  // A's connection is cut; while A is away (its first retry waits 125-250 ms), B starts to speak: the
  // server's Speaking for A waits in A's session buffer and comes with the resume.
  REQUIRE(itest::Shared().admin->DropVoice(a.Id()) == 1);
  b.tap.tone = true;
  const std::string bSpeaks = "speaking " + std::to_string(b.Id()) + " on";
  // Wait for the callbacks themselves: a status is updated before its callback is queued.
  CHECK(f.RunAll(
      [&] { return Count(a.events, "status Connected None 0") == 1 && Count(a.events, bSpeaks) == 1; }));
  CHECK(a.call.GetStatus() == Call::Status::Connected);
  CHECK(a.events.front() == "status Reconnecting None 0");
  CHECK(Count(a.events, "status Connected None 0") == 1);
  CHECK(Count(a.events, bSpeaks) == 1);
  // The same voice session (resumed, not a new one): same SSRC and key, media never stopped.
  const auto after = sessionOf(a.Id());
  CHECK(after.ssrc == before.ssrc);
  CHECK(after.connected);
  // And A hears B.
  a.tap.watchedUser = b.Id();
  f.Pump(600ms);
  CHECK(a.tap.framesFromWatched.load() >= 15);
}

TEST_CASE("voice: a call moved to another voice server keeps the player's mute and audio callbacks") {
  VoiceFixture f;
  Player& a = f.Add();
  Player& b = f.Add();
  f.Join(a);
  f.Join(b);
  REQUIRE(f.AllConnected());
  auto& admin = *itest::Shared().admin;
  uint32_t oldSsrc = 0;
  for (const auto& session : admin.VoiceSessions())
    if (session.userId == a.Id()) oldSsrc = session.ssrc;
  REQUIRE(oldSsrc != 0);
  b.tap.watchedUser = a.Id();
  a.tap.tone = true;
  a.call.SetSelfMute(true);
  f.Pump(300ms);
  a.events.clear();

  REQUIRE(admin.MoveVoice(a.Id()) == 1);
  INFO("A's events: " << Joined(a.events));
  REQUIRE(f.RunAll([&] { return Count(a.events, "status Connected None 0") == 1; }));
  CHECK(Count(a.events, "status Connecting None 0") == 1);
  bool onNewSession = false;
  for (const auto& session : admin.VoiceSessions())
    if (session.userId == a.Id() && session.connected && session.ssrc != oldSsrc) onNewSession = true;
  CHECK(onNewSession);
  // Still muted on the new server (nothing reaches B), and A's audio callback still runs.
  f.Pump(300ms);
  const uint64_t heardBefore = b.tap.framesFromWatched.load();
  const uint64_t capturedBefore = a.tap.framesCaptured.load();
  f.Pump(600ms);
  CHECK(b.tap.framesFromWatched.load() - heardBefore <= 1);
  CHECK(a.tap.framesCaptured.load() - capturedBefore >= 20);
  CHECK(a.call.GetSelfMute());
  // Nobody left the call.
  CHECK(Count(b.events, "left " + std::to_string(a.Id())) == 0);
  CHECK(b.call.GetParticipants().size() == 2);
  // Unmuted, A is heard through the new server.
  a.call.SetSelfMute(false);
  CHECK(f.RunAll([&] { return b.tap.framesFromWatched.load() >= heardBefore + 15; }));
}

TEST_CASE("voice: AES-256-GCM is chosen when offered, XChaCha20-Poly1305 otherwise, deprecated modes never") {
  auto& admin = *itest::Shared().admin;
  auto modeOf = [&](uint64_t user) {
    for (const auto& session : admin.VoiceSessions())
      if (session.userId == user) return session.mode;
    return std::string();
  };
  {
    VoiceFixture f;
    Player& a = f.Add();
    f.Join(a);
    REQUIRE(f.RunAll([&] { return a.call.GetStatus() == Call::Status::Connected; }));
    CHECK(modeOf(a.Id()) == "aead_aes256_gcm_rtpsize");
  }
  platformpp::testkit::EmulatorAdmin::VoiceSettings offered;
  offered.modes = std::vector<std::string>{"xsalsa20_poly1305_lite", "aead_aes256_gcm", "xsalsa20_poly1305",
                                           "aead_xchacha20_poly1305_rtpsize"};
  admin.SetVoiceSettings(offered);
  {
    VoiceFixture f;
    Player& a = f.Add();
    Player& b = f.Add();
    f.Join(a);
    f.Join(b);
    REQUIRE(f.AllConnected());
    CHECK(modeOf(a.Id()) == "aead_xchacha20_poly1305_rtpsize");
    b.tap.watchedUser = a.Id();
    a.tap.tone = true;
    f.Pump(800ms);
    CHECK(b.tap.framesFromWatched.load() >= 15);  // media flows in the mode chosen
  }
  offered.modes =
      std::vector<std::string>{"xsalsa20_poly1305", "aead_aes256_gcm", "xsalsa20_poly1305_suffix"};
  admin.SetVoiceSettings(offered);
  {
    VoiceFixture f;
    Player& a = f.Add();
    f.Join(a);
    INFO("events: " << Joined(a.events));
    CHECK(f.RunAll([&] { return Count(a.events, "status Disconnected VoiceConnectionFailed 0") == 1; }));
    CHECK(a.call.GetStatus() == Call::Status::Disconnected);
    CHECK(modeOf(a.Id()).empty());  // nothing was selected
  }
  platformpp::testkit::EmulatorAdmin::VoiceSettings reset;
  reset.reset = true;
  admin.SetVoiceSettings(reset);
}

TEST_CASE("voice: a voice gateway closing for good ends the call with the close code; it must be rejoined") {
  VoiceFixture f;
  Player& a = f.Add();
  f.Join(a);
  REQUIRE(f.RunAll([&] { return a.call.GetStatus() == Call::Status::Connected; }));
  REQUIRE(itest::Shared().admin->CloseVoice(a.Id(), 4014) == 1);
  INFO("events: " << Joined(a.events));
  CHECK(f.RunAll([&] { return Count(a.events, "status Disconnected SignalingUnexpectedClose 4014") == 1; }));
  // Disconnected is final: the Call stays so until ended; a new call can then be started.
  CHECK_FALSE(a.client->StartCall(f.lobbyId));
  bool ended = false;
  a.client->EndCall(f.lobbyId, [&] { ended = true; });
  CHECK(f.RunAll([&] { return ended; }));
  f.Join(a);
  CHECK(f.RunAll([&] { return a.call.GetStatus() == Call::Status::Connected; }));
}

TEST_CASE(
    "voice: a call that fails on the player's side leaves the platform's call; joining again connects") {
  // Found by the fault soak: a call whose media could not be set up ended at the player only. The platform
  // still counted the player in the call, the others kept a silent participant, and the game's next join
  // from the same Gateway session was taken for the stay in place: no new voice server, a join timeout.
  auto& admin = *itest::Shared().admin;
  VoiceFixture f;
  Player& b = f.Add();
  f.Join(b);
  REQUIRE(f.RunAll([&] { return b.call.GetStatus() == Call::Status::Connected; }));
  platformpp::testkit::EmulatorAdmin::VoiceSettings offered;
  offered.modes = std::vector<std::string>{"xsalsa20_poly1305"};  // no mode the SDK accepts
  admin.SetVoiceSettings(offered);
  Player& a = f.Add();
  f.Join(a);
  INFO("events: " << Joined(a.events));
  CHECK(f.RunAll([&] { return Count(a.events, "status Disconnected VoiceConnectionFailed 0") == 1; }));
  platformpp::testkit::EmulatorAdmin::VoiceSettings reset;
  reset.reset = true;
  admin.SetVoiceSettings(reset);
  const auto bLists = [&](uint64_t user) {
    const auto ids = b.call.GetParticipants();
    return std::find(ids.begin(), ids.end(), user) != ids.end();
  };
  CHECK(f.RunAll([&] { return !bLists(a.Id()); }));  // the platform was told
  bool ended = false;
  a.client->EndCall(f.lobbyId, [&] { ended = true; });
  CHECK(f.RunAll([&] { return ended; }));
  f.Join(a);
  CHECK(f.RunAll([&] { return a.call.GetStatus() == Call::Status::Connected && bLists(a.Id()); }));
}

}  // namespace voice_call_test
