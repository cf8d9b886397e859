// platformpp-voice-call: two players talk in their lobby's voice call, scripted and headless, on one running
// platformpp-emulator. Without a sound card the SDK picks its null audio device; the games hook the audio
// callbacks instead: Ada's microphone frames carry a 440 Hz tone (her "voice"), Bo's game listens to what
// arrives from Ada and measures it. The call is end-to-end encrypted (the platform's DAVE protocol: the voice
// server forwards frames it cannot read), and both games show the verification codes their players would
// compare out loud. Then Ada switches to push-to-talk, the network loses 10 % of the packets, and Ada's voice
// connection drops and resumes; the call goes on through all of it. Exits non-zero on failure.
//
//   platformpp-emulator --scenario samples/voice-call/voice-call.scenario.json --connection-file emu.json
//   platformpp-voice-call --connection-file emu.json
#include <platformpp/platformpp.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <numbers>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using platformpp::Call;

// A verification code as players read it: groups of five digits.
std::string Grouped(const std::string& digits) {
  std::string out;
  for (std::size_t i = 0; i < digits.size(); i += 5)
    out += (i ? " " : "") + digits.substr(i, 5);
  return out;
}

struct Player {
  std::string name;
  uint64_t id = 0;
  platformpp::Client client;
  Call call;
};

// What Bo's game hears from Ada: the audio callback runs on the SDK's voice thread, the game reads it here.
struct Ear {
  std::mutex mutex;
  std::vector<float> samples;  // left channel
  std::atomic<int> frames{0};
  uint64_t from = 0;

  std::vector<float> Take() {
    std::lock_guard lock(mutex);
    return std::exchange(samples, {});
  }
};

// The tone's share of what was heard, in dB: per window, the best-fitting 440 Hz sine against the rest.
// `median`: the median window's figure instead of the whole's, which one late burst of packets on a busy
// machine (a few concealed frames in two seconds) cannot decide alone.
double ToneSnrDb(const std::vector<float>& x, std::size_t window = 4800, bool median = false) {
  double signal = 0, noise = 0;
  std::vector<double> windows;
  for (std::size_t start = 0; start + window <= x.size(); start += window) {
    const double signalBefore = signal, noiseBefore = noise;
    double ss = 0, cc = 0, sc = 0, xs = 0, xc = 0;
    for (std::size_t i = 0; i < window; ++i) {
      const double t = 2 * std::numbers::pi * 440 * static_cast<double>(i) / 48000;
      ss += std::sin(t) * std::sin(t);
      cc += std::cos(t) * std::cos(t);
      sc += std::sin(t) * std::cos(t);
      xs += x[start + i] * std::sin(t);
      xc += x[start + i] * std::cos(t);
    }
    const double det = ss * cc - sc * sc, a = (xs * cc - xc * sc) / det, b = (xc * ss - xs * sc) / det;
    for (std::size_t i = 0; i < window; ++i) {
      const double t = 2 * std::numbers::pi * 440 * static_cast<double>(i) / 48000;
      const double fit = a * std::sin(t) + b * std::cos(t);
      signal += fit * fit;
      noise += (x[start + i] - fit) * (x[start + i] - fit);
    }
    windows.push_back(10 * std::log10((signal - signalBefore) / std::max(noise - noiseBefore, 1e-9)));
  }
  if (median && !windows.empty()) {
    std::nth_element(windows.begin(), windows.begin() + static_cast<std::ptrdiff_t>(windows.size() / 2),
                     windows.end());
    return windows[windows.size() / 2];
  }
  return 10 * std::log10(signal / std::max(noise, 1e-9));
}

template <class Done>
bool Frames(Player& a, Player& b, Done done, std::chrono::seconds timeout = std::chrono::seconds(15)) {
  auto deadline = Clock::now() + timeout;
  while (!done()) {
    if (Clock::now() > deadline) return false;
    a.client.RunCallbacks();
    b.client.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

void Play(Player& a, Player& b, std::chrono::milliseconds duration) {
  const auto until = Clock::now() + duration;
  Frames(
      a, b, [&] { return Clock::now() >= until; }, std::chrono::seconds(60));
}

// Pumps both games until `frames` has not moved for 200 ms; false if it keeps moving for 10 s.
bool Quiet(Player& a, Player& b, const std::atomic<int>& frames) {
  int last = frames;
  auto since = Clock::now();
  return Frames(
      a, b,
      [&] {
        if (frames != last) {
          last = frames;
          since = Clock::now();
        }
        return Clock::now() - since >= std::chrono::milliseconds(200);
      },
      std::chrono::seconds(10));
}

bool Check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::string connectionFile;
  if (argc == 3 && std::strcmp(argv[1], "--connection-file") == 0) connectionFile = argv[2];
  if (connectionFile.empty()) {
    std::cerr << "usage: platformpp-voice-call --connection-file PATH\n";
    return 2;
  }
  // Headless: no sound card needed (the SDK would fall back to the null device anyway when there is none).
  // (Unless the environment chose a device already.)
#ifdef _WIN32
  if (std::getenv("PLATFORMPP_AUDIO") == nullptr) ::_putenv_s("PLATFORMPP_AUDIO", "null");
#else
  ::setenv("PLATFORMPP_AUDIO", "null", 0);
#endif

  try {
    auto emulator = platformpp::testkit::ConnectionInfo::Load(connectionFile);
    platformpp::testkit::EmulatorAdmin admin(emulator);
    if (!admin.HasScenarioName("game")) {
      std::cerr << "platformpp-voice-call: start the emulator with --scenario "
                   "samples/voice-call/voice-call.scenario.json\n";
      return 2;
    }
    auto app = admin.ScenarioApp("game");
    auto ada = admin.ScenarioUser("ada");
    auto bo = admin.ScenarioUser("bo");
    auto options = emulator.ClientOptionsFor();
    options.ipcEnabled = false;
    // What the audio callbacks use lives longer than the Clients, whose voice threads call them.
    std::atomic<bool> talking{false};
    std::atomic<bool> syllables{false};  // speech-like loudness, rising and falling twice a second
    double phase = 0;
    uint64_t made = 0;
    Ear ear;
    Player a{"Ada", ada.id, platformpp::Client(options), {}};
    Player b{"Bo", bo.id, platformpp::Client(options), {}};
    bool ok = true;

    // 1. Both log in, connect and meet in the match lobby by its secret.
    uint64_t lobbyId = 0;
    int joined = 0;
    for (auto* player : {&a, &b}) {
      player->client.SetApplicationId(app.id);
      // Ada's "voice" is a test tone, not a voice: the noise suppressor would learn a steady tone as noise
      // and the gain control would ride it, so this game measures the call path with audio processing off.
      // [guide:audio-processing]
      player->client.SetEchoCancellation(false);
      player->client.SetNoiseSuppression(false);
      player->client.SetAutomaticGainControl(false);
      // [guide-end]
      auto token = admin.MintToken(player->id, app.id, platformpp::Client::GetDefaultCommunicationScopes());
      player->client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token.accessToken, nullptr);
      player->client.Connect();
    }
    ok &= Check(Frames(a, b,
                       [&] {
                         return a.client.GetStatus() == platformpp::Client::Status::Ready &&
                                b.client.GetStatus() == platformpp::Client::Status::Ready;
                       }),
                "both players connected (Ready)");
    for (auto* player : {&a, &b}) {
      // [guide:join-lobby]
      player->client.CreateOrJoinLobby("harbor-duel",
                                       [&](const platformpp::ClientResult& result, uint64_t id) {
                                         joined += result.Successful();
                                         lobbyId = id;
                                       });
      // [guide-end]
      Frames(a, b, [&] { return joined == (player == &a ? 1 : 2); });
    }
    ok &= Check(joined == 2, "both are in the lobby");

    // 2. Both join its call. Ada's "voice" is a tone her game writes into her microphone frames.
    ear.from = a.id;
    // [guide:microphone]
    a.call = a.client.StartCallWithAudioCallbacks(
        lobbyId, nullptr, [&](int16_t* data, uint64_t samples, int32_t rate, uint64_t channels) {
          for (uint64_t i = 0; i < samples; ++i) {
            const double t = static_cast<double>(made++) / rate;
            const double level = syllables ? 0.7 + 0.3 * std::sin(2 * std::numbers::pi * 2 * t) : 1.0;
            const auto v = talking ? static_cast<int16_t>(9000 * level * std::sin(phase)) : int16_t{0};
            phase = std::fmod(phase + 2 * std::numbers::pi * 440 / rate, 2 * std::numbers::pi);
            for (uint64_t c = 0; c < channels; ++c)
              data[i * channels + c] = v;
          }
        });
    // [guide-end]
    // [guide:listen]
    b.call = b.client.StartCallWithAudioCallbacks(
        lobbyId,
        [&](uint64_t user, int16_t* data, uint64_t samples, int32_t, uint64_t channels, bool&) {
          if (user != ear.from) return;
          ++ear.frames;
          std::lock_guard lock(ear.mutex);
          for (uint64_t i = 0; i < samples; ++i)
            ear.samples.push_back(data[i * channels]);
        },
        nullptr);
    // [guide-end]
    // [guide:call-callbacks]
    std::vector<std::string> boSees;
    b.call.SetSpeakingStatusChangedCallback([&](uint64_t user, bool speaking) {
      if (user == a.id) boSees.emplace_back(speaking ? "Ada speaks" : "Ada is quiet");
    });
    std::vector<std::string> adaStatus;
    a.call.SetStatusChangedCallback([&](Call::Status status, Call::Error, int32_t) {
      adaStatus.push_back(Call::StatusToString(status));
      std::cout << "  [Ada's call] " << adaStatus.back() << "\n";
    });
    // [guide-end]
    ok &= Check(a.call && b.call, "both started the call");
    if (!a.call || !b.call) return 1;
    ok &= Check(Frames(a, b,
                       [&] {
                         return a.call.GetStatus() == Call::Status::Connected &&
                                b.call.GetStatus() == Call::Status::Connected &&
                                b.call.GetParticipants().size() == 2;
                       }),
                "both are connected to the call and see each other");

    // 3. End-to-end encryption: the two form the call's MLS group with the voice server as external sender;
    //    no audio leaves either of them before it. Both see the same codes: the call's (it changes whenever
    //    someone joins or leaves) and the pair's (from their two keys), which players compare out of band.
    ok &= Check(Frames(a, b,
                       [&] {
                         return a.call.GetE2eeActive() && b.call.GetE2eeActive() &&
                                a.call.GetEpochVerificationCode() == b.call.GetEpochVerificationCode();
                       }),
                "the call is end-to-end encrypted, and both see the same call code");
    // [guide:verification]
    std::cout << "  call verification code: " << Grouped(a.call.GetEpochVerificationCode()) << "\n";
    std::string adaSees, boSeesCode;
    a.call.GetPairwiseVerificationCode(b.id, [&](std::string code) { adaSees = std::move(code); });
    b.call.GetPairwiseVerificationCode(a.id, [&](std::string code) { boSeesCode = std::move(code); });
    // [guide-end]
    ok &=
        Check(Frames(a, b, [&] { return !adaSees.empty() && !boSeesCode.empty(); }) && adaSees == boSeesCode,
              "Ada and Bo see the same pairwise verification code");
    std::cout << "  Ada and Bo's verification code: " << Grouped(adaSees) << "\n";

    // 4. Ada talks for two seconds; Bo hears her.
    talking = true;
    Play(a, b, std::chrono::milliseconds(500));
    ear.Take();
    const platformpp::CallMediaStatistics boBefore = b.call.GetMediaStatistics();
    Play(a, b, std::chrono::milliseconds(2000));
    auto heard = ear.Take();
    const double snr = ToneSnrDb(heard);
    const double medianSnr = ToneSnrDb(heard, 4800, true);
    std::cout << std::fixed << std::setprecision(1) << "  Bo heard " << heard.size() / 48
              << " ms of Ada, SNR " << snr << " dB (median 100 ms window " << medianSnr << " dB)\n";
    // [guide:call-quality]
    // What Bo's call did over those two seconds: frames that were missing when due to play (lost on the
    // way, or late: a sender that did not run for a while) and the frames concealment made up for them.
    const platformpp::CallMediaStatistics boNow = b.call.GetMediaStatistics();
    const uint64_t decoded = boNow.framesDecoded - boBefore.framesDecoded;
    const uint64_t lost = boNow.framesLost - boBefore.framesLost;
    const uint64_t concealed = boNow.framesConcealed - boBefore.framesConcealed;
    // [guide-end]
    std::cout << "  Bo's call: " << decoded << " frames decoded, " << lost << " lost, " << concealed
              << " concealed\n";
    ok &= Check(heard.size() >= 48000 && medianSnr >= 20 && snr >= 10,
                "Bo hears Ada's 440 Hz clearly (SNR >= 20 dB in the median 100 ms, >= 10 dB in all)");
    ok &= Check(Frames(a, b, [&] { return !boSees.empty() && boSees.front() == "Ada speaks"; }),
                "Bo's game shows Ada speaking");

    // 5. 10 % of the packets are lost on the way: forward error correction and concealment keep her voice
    //    going. Opus protects speech, so Ada now speaks in syllables rather than a steady tone.
    syllables = true;
    admin.SetVoiceUdpFaults(10, 0, 0, 3);
    Play(a, b, std::chrono::milliseconds(300));
    ear.Take();
    Play(a, b, std::chrono::milliseconds(2000));
    heard = ear.Take();
    admin.ClearVoiceUdpFaults();
    const double lossySnr = ToneSnrDb(heard, 960);  // 20 ms windows follow the syllables
    std::cout << "  with 10 % loss: " << heard.size() / 48 << " ms, SNR " << lossySnr << " dB\n";
    ok &= Check(heard.size() >= 48000 && lossySnr >= 10,
                "with 10 % loss Ada is still understood (SNR >= 10 dB)");

    // 6. Ada's voice connection drops; the SDK resumes the session and the call goes on.
    adaStatus.clear();
    admin.DropVoice(a.id);
    ok &= Check(Frames(a, b,
                       [&] {
                         return adaStatus.size() >= 2 && adaStatus.front() == "Reconnecting" &&
                                a.call.GetStatus() == Call::Status::Connected;
                       }),
                "Ada's call went Reconnecting -> Connected by resuming");
    const int before = ear.frames;
    Play(a, b, std::chrono::milliseconds(500));
    ok &= Check(ear.frames - before >= 15, "Bo hears Ada again after the resume");

    // 7. Push-to-talk: Ada only sends while her key is down (and 100 ms after).
    // [guide:ptt]
    a.call.SetAudioMode(platformpp::AudioModeType::PTT);
    a.call.SetPTTReleaseDelay(100);
    // [guide-end]
    // Frames Ada sent before her key went up may still be on their way (a loaded machine, or Wine, can hold
    // them for a while): wait until Bo's ear has been quiet for 200 ms, then listen for half a second.
    ok &= Check(Quiet(a, b, ear.frames), "PTT up: Bo's ear goes quiet");
    const int quiet = ear.frames;
    Play(a, b, std::chrono::milliseconds(500));
    ok &= Check(ear.frames - quiet <= 1, "PTT up: Bo hears nothing");
    a.call.SetPTTActive(true);
    Play(a, b, std::chrono::milliseconds(600));
    ok &= Check(ear.frames - quiet >= 20, "PTT down: Bo hears Ada");
    a.call.SetPTTActive(false);

    // 8. Both leave.
    // [guide:end-call]
    int left = 0;
    a.client.EndCalls([&] { ++left; });
    b.client.EndCall(lobbyId, [&] { ++left; });
    // [guide-end]
    ok &= Check(Frames(a, b, [&] { return left == 2; }), "both left the call");

    a.client.Disconnect();
    b.client.Disconnect();
    std::cout << (ok ? "platformpp-voice-call: all steps passed\n" : "platformpp-voice-call: FAILED\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "platformpp-voice-call: " << e.what() << "\n";
    return 1;
  }
}
