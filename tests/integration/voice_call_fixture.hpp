// The voice call tests' fixture: headless players (null audio device) in one lobby's call against the
// emulator, their audio taps (a tone into A's microphone, what B hears), and the tone measurements. Shared by
// voice_call_test.cpp and voice_dave_test.cpp.
#pragma once

#include "emulator_fixture.hpp"

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

namespace voice_call_fixture {

using platformpp::Call;
using platformpp::Client;
using platformpp::ClientResult;
using App = platformpp::testkit::EmulatorAdmin::App;
using namespace std::chrono_literals;

inline constexpr int kRate = 48000;

inline std::string UniqueName(const std::string& base) {
  static std::atomic<int> counter{0};
  return base + std::to_string(counter++);
}

// Headless audio for every Client of this process.
inline const bool kNullAudio = [] {
#ifdef _WIN32
  return ::_putenv_s("PLATFORMPP_AUDIO", "null") == 0;
#else
  return setenv("PLATFORMPP_AUDIO", "null", 1) == 0;
#endif
}();

/// What one player's audio callbacks saw; written on the voice thread, read by the test.
struct AudioTap {
  std::mutex mutex;
  std::atomic<bool> tone{false};
  // Speech-like: the tone's loudness rises and falls at 2 Hz (Opus codes FEC for speech, not for a steady
  // tone, which its voice detector takes for background noise).
  std::atomic<bool> syllables{false};
  double phase = 0;          // voice thread only
  uint64_t samplesMade = 0;  // voice thread only
  double frequency = 440;
  std::vector<float> received;           // left channel of the watched user's frames
  std::atomic<uint64_t> watchedUser{0};  // set by the test thread, read on the voice thread
  std::atomic<uint64_t> framesFromWatched{0};
  std::atomic<uint64_t> framesCaptured{0};  // calls of the captured-audio callback

  Client::UserAudioCapturedCallback Captured() {
    return [this](int16_t* data, uint64_t samples, int32_t rate, uint64_t channels) {
      ++framesCaptured;
      const double step = 2 * std::numbers::pi * frequency / rate;
      for (uint64_t i = 0; i < samples; ++i) {
        const double t = static_cast<double>(samplesMade++) / rate;
        const double level = syllables ? 0.7 + 0.3 * std::sin(2 * std::numbers::pi * 2 * t) : 1.0;
        const auto value =
            tone ? static_cast<int16_t>(std::lround(9000 * level * std::sin(phase))) : int16_t{0};
        phase = std::fmod(phase + step, 2 * std::numbers::pi);
        for (uint64_t c = 0; c < channels; ++c)
          data[i * channels + c] = value;
      }
    };
  }
  Client::UserAudioReceivedCallback Received() {
    return [this](uint64_t userId, int16_t* data, uint64_t samples, int32_t, uint64_t channels, bool& mute) {
      mute = true;  // nothing to play on the null device anyway
      if (userId != watchedUser) return;
      ++framesFromWatched;
      std::lock_guard lock(mutex);
      for (uint64_t i = 0; i < samples; ++i)
        received.push_back(static_cast<float>(data[i * channels]));
    };
  }
  std::vector<float> Take() {
    std::lock_guard lock(mutex);
    return std::exchange(received, {});
  }
};

struct ToneFit {
  double snrDb = 0;
  std::vector<double> amplitudes;   // the fitted sine's amplitude in each window
  std::vector<double> windowSnrDb;  // each window's own ratio
};

/// Signal-to-noise ratio of a tone at `frequency`: in each window, the best-fitting sine (least squares on
/// sin and cos: its amplitude and phase) is the signal and what is left the noise; energies summed over all
/// windows.
inline ToneFit FitTone(const std::vector<float>& x, double frequency, std::size_t window) {
  ToneFit result;
  double signal = 0, noise = 0;
  for (std::size_t start = 0; start + window <= x.size(); start += window) {
    double ss = 0, cc = 0, sc = 0, xs = 0, xc = 0;
    for (std::size_t i = 0; i < window; ++i) {
      const double t = 2 * std::numbers::pi * frequency * static_cast<double>(i) / kRate;
      const double s = std::sin(t), c = std::cos(t);
      ss += s * s;
      cc += c * c;
      sc += s * c;
      xs += x[start + i] * s;
      xc += x[start + i] * c;
    }
    const double det = ss * cc - sc * sc;
    const double a = (xs * cc - xc * sc) / det, b = (xc * ss - xs * sc) / det;
    result.amplitudes.push_back(std::hypot(a, b));
    double windowSignal = 0, windowNoise = 0;
    for (std::size_t i = 0; i < window; ++i) {
      const double t = 2 * std::numbers::pi * frequency * static_cast<double>(i) / kRate;
      const double fit = a * std::sin(t) + b * std::cos(t);
      windowSignal += fit * fit;
      const double residual = x[start + i] - fit;
      windowNoise += residual * residual;
    }
    signal += windowSignal;
    noise += windowNoise;
    result.windowSnrDb.push_back(10 * std::log10(windowSignal / std::max(windowNoise, 1e-9)));
  }
  result.snrDb = 10 * std::log10(signal / std::max(noise, 1e-9));
  return result;
}

inline double ToneSnrDb(const std::vector<float>& x, double frequency) {
  return FitTone(x, frequency, kRate / 10).snrDb;
}

/// The median of the 100 ms windows' ratios: what the tone sounds like most of the time. A broken path
/// (wrong key, lost frames) spoils every window; a test machine too loaded to schedule the audio thread
/// spoils a few, which the whole-signal ratio (ToneSnrDb) counts against the path.
inline double ToneSnrMedianDb(const std::vector<float>& x, double frequency) {
  auto windows = FitTone(x, frequency, kRate / 10).windowSnrDb;
  if (windows.empty()) return 0;
  std::nth_element(windows.begin(), windows.begin() + static_cast<std::ptrdiff_t>(windows.size() / 2),
                   windows.end());
  return windows[windows.size() / 2];
}

/// The frequency with the most energy between 100 Hz and 2 kHz (Goertzel, 10 Hz steps).
inline double DominantFrequency(const std::vector<float>& x) {
  double best = 0, bestPower = -1;
  for (double f = 100; f <= 2000; f += 10) {
    const double w = 2 * std::cos(2 * std::numbers::pi * f / kRate);
    double s1 = 0, s2 = 0;
    for (float v : x) {
      const double s0 = v + w * s1 - s2;
      s2 = s1;
      s1 = s0;
    }
    const double power = s1 * s1 + s2 * s2 - w * s1 * s2;
    if (power > bestPower) {
      bestPower = power;
      best = f;
    }
  }
  return best;
}

inline std::string Joined(const std::vector<std::string>& events) {
  std::string out;
  for (const auto& e : events)
    out += e + "; ";
  return out;
}

inline int Count(const std::vector<std::string>& events, const std::string& what) {
  return static_cast<int>(std::count(events.begin(), events.end(), what));
}

struct Player {
  platformpp::testkit::EmulatorAdmin::User user;
  AudioTap tap;  // before the Client: its audio callbacks may run until the Client is gone
  std::unique_ptr<Client> client;
  Call call;
  std::vector<std::string> events;  // call callbacks in delivery order
  uint64_t Id() const { return user.id; }
};

struct VoiceFixture {
  App app;
  std::vector<std::unique_ptr<Player>> players;
  uint64_t lobbyId = 0;
  std::string secret = UniqueName("voice-lobby-");

  VoiceFixture() : app(itest::Shared().admin->CreateApp(UniqueName("Voice Game "))) {
    REQUIRE(kNullAudio);
    itest::Shared().admin->ClearVoiceUdpFaults();
  }

  Player& Add() {
    auto& e = itest::Shared();
    auto player = std::make_unique<Player>();
    player->user = e.admin->CreateUser(UniqueName("talker"));
    const auto token = e.admin->MintToken(player->user.id, app.id, "openid sdk.social_layer").accessToken;
    player->client = std::make_unique<Client>(e.Options());
    Client& client = *player->client;
    client.SetApplicationId(app.id);
    // The tests measure the codec and transport path; audio processing has its own unit tests.
    client.SetEchoCancellation(false);
    client.SetNoiseSuppression(false);
    client.SetAutomaticGainControl(false);
    bool updated = false;
    client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token,
                       [&](const ClientResult& result) { updated = result.Successful(); });
    REQUIRE(itest::RunUntil(client, [&] { return updated; }));
    client.Connect();
    REQUIRE(itest::RunUntil(
        client, [&] { return client.GetStatus() == Client::Status::Ready; }, 20s));
    std::optional<ClientResult> joined;
    client.CreateOrJoinLobby(secret, [&](const ClientResult& result, uint64_t id) {
      joined = result;
      lobbyId = id;
    });
    REQUIRE(itest::RunUntil(
        client, [&] { return joined.has_value(); }, 20s));
    REQUIRE(joined->Successful());
    players.push_back(std::move(player));
    return *players.back();
  }

  bool RunAll(const std::function<bool()>& done, std::chrono::milliseconds timeout = 15s) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      for (auto& p : players)
        p->client->RunCallbacks();
      std::this_thread::sleep_for(1ms);
    }
    return true;
  }

  void Pump(std::chrono::milliseconds duration) {
    const auto until = std::chrono::steady_clock::now() + duration;
    RunAll([&] { return std::chrono::steady_clock::now() >= until; }, duration + 1s);
  }

  void Join(Player& p) {
    p.call = p.client->StartCallWithAudioCallbacks(lobbyId, p.tap.Received(), p.tap.Captured());
    REQUIRE(p.call);
    Player* self = &p;
    p.call.SetStatusChangedCallback([self](Call::Status status, Call::Error error, int32_t detail) {
      self->events.push_back("status " + Call::StatusToString(status) + " " + Call::ErrorToString(error) +
                             " " + std::to_string(detail));
    });
    p.call.SetSpeakingStatusChangedCallback([self](uint64_t user, bool speaking) {
      self->events.push_back("speaking " + std::to_string(user) + (speaking ? " on" : " off"));
    });
    p.call.SetParticipantChangedCallback([self](uint64_t user, bool added) {
      self->events.push_back(std::string(added ? "joined " : "left ") + std::to_string(user));
    });
  }

  bool AllConnected() {
    bool connected = RunAll([&] {
      for (auto& p : players)
        // Connected, and (calls being end-to-end encrypted) keyed: media flows both ways from here.
        if (!p->call || p->call.GetStatus() != Call::Status::Connected ||
            p->call.GetParticipants().size() != players.size() ||
            Count(p->events, "status Connected None 0") == 0 || !p->call.GetE2eeActive())
          return false;
      return true;
    });
    if (!connected) {
      for (auto& p : players) {
        MESSAGE("player " << p->Id() << ": "
                          << (p->call ? Call::StatusToString(p->call.GetStatus()) : std::string("no call"))
                          << ", " << (p->call ? p->call.GetParticipants().size() : 0)
                          << " participants; events: " << Joined(p->events));
      }
    }
    return connected;
  }
};

}  // namespace voice_call_fixture
