// End-to-end voice latency over loopback: two Clients in one lobby call against the emulator (null audio
// device, default jitter buffer, audio processing on as by default). A's captured-audio callback starts a
// 100 ms chirp every 400 ms and notes when; B's received-audio callback notes when the burst's first loud
// frame reaches it. The difference is what the SDK adds between a player's microphone frame and the other
// player's playout frame: encoding, encryption, the forwarding unit, the jitter buffer, decoding. Target:
// median
// <= 60 ms. The bare baseline, in the same run, is the same design built from the bare libraries: a sender
// thread paced at 20 ms that makes the same bursts, opus_encodes each frame and sends it over loopback UDP,
// and a receiver thread with its own 20 ms playout clock that keeps arriving packets in a plain queue, starts
// playing at the least depth a jitter buffer can have (1 frame, the SDK's minimum) and opus_decodes a frame
// per tick (packet loss concealment when none is there): the latency that capture and playout periods, the
// network, the codec and a jitter buffer impose, with nothing else. The headline is the SDK's median over
// that; the floor of one frame through libopus and a socket, without pacing, and the 60 ms target are printed
// too. Fails only when bursts are not heard, never on timing.
#include <platformpp/client.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <opus/opus.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_mode.hpp"

using Clock = std::chrono::steady_clock;

namespace {

const int kBursts = platformpp::bench::Sized(15, 3);  // per configuration
constexpr double kTargetMs = 60.0;
constexpr int kPeriodFrames = 20;  // a burst every 400 ms
constexpr int kBurstFrames = 5;

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

double Max(const std::vector<double>& values) {
  return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

double Rms(const int16_t* data, uint64_t count) {
  double sum = 0;
  for (uint64_t i = 0; i < count; ++i)
    sum += double(data[i]) * data[i];
  return std::sqrt(sum / static_cast<double>(count));
}

// Two UDP sockets on loopback: `sender` sends to `address`, where `receiver` is bound.
struct LoopbackUdp {
  LoopbackUdp() {
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (bind(receiver, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        getsockname(receiver, reinterpret_cast<sockaddr*>(&address), &length) != 0)
      throw std::runtime_error("loopback socket failed");
  }
  ~LoopbackUdp() {
    close(receiver);
    close(sender);
  }
  LoopbackUdp(const LoopbackUdp&) = delete;
  LoopbackUdp& operator=(const LoopbackUdp&) = delete;
  int receiver = socket(AF_INET, SOCK_DGRAM, 0);
  int sender = socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in address{};
};

// The floor: one 20 ms frame encoded, sent over loopback UDP, received and decoded, with nothing else.
std::vector<double> BareLoopback(int frames) {
  int error = 0;
  OpusEncoder* encoder = opus_encoder_create(48000, 2, OPUS_APPLICATION_VOIP, &error);
  OpusDecoder* decoder = opus_decoder_create(48000, 2, &error);
  if (!encoder || !decoder) throw std::runtime_error("opus init failed");
  LoopbackUdp udp;
  const int receiver = udp.receiver, sender = udp.sender;
  sockaddr_in address = udp.address;
  std::vector<int16_t> pcm(1920), out(1920);
  unsigned char packet[1500], received[1500];
  std::vector<double> latencies;
  double phase = 0;
  for (int f = 0; f < frames; ++f) {
    for (size_t i = 0; i < 960; ++i, phase += 2 * std::numbers::pi * 1000 / 48000)
      pcm[2 * i] = pcm[2 * i + 1] = static_cast<int16_t>(8000 * std::sin(phase));
    const auto start = Clock::now();
    const int size = opus_encode(encoder, pcm.data(), 960, packet, sizeof packet);
    sendto(sender, packet, static_cast<size_t>(size), 0, reinterpret_cast<sockaddr*>(&address),
           sizeof address);
    const auto got = recv(receiver, received, sizeof received, 0);
    if (opus_decode(decoder, received, static_cast<opus_int32>(got), out.data(), 960, 0) != 960)
      throw std::runtime_error("bare decode failed");
    latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  opus_encoder_destroy(encoder);
  opus_decoder_destroy(decoder);
  return latencies;
}

// The same design from the bare libraries (see the top): paced sender, UDP, a queue of 1 frame before
// playout, a paced receiver. The latency of each burst, from its first captured frame to the first loud
// decoded frame.
std::vector<double> BarePipeline(int bursts) {
  int error = 0;
  OpusEncoder* encoder = opus_encoder_create(48000, 2, OPUS_APPLICATION_VOIP, &error);
  OpusDecoder* decoder = opus_decoder_create(48000, 2, &error);
  if (!encoder || !decoder) throw std::runtime_error("opus init failed");
  LoopbackUdp udp;
  const int receiver = udp.receiver, sender = udp.sender;
  sockaddr_in address = udp.address;
  constexpr auto kPeriod = std::chrono::milliseconds(20);
  const int frames = bursts * kPeriodFrames + kPeriodFrames;
  std::mutex mutex;
  std::vector<Clock::time_point> sent, heard;
  std::atomic<bool> sending{true};
  std::thread capture([&] {
    std::vector<int16_t> pcm(1920);
    unsigned char packet[1500];
    double phase = 0;
    auto next = Clock::now();
    for (int f = 0; f < frames; ++f) {
      next += kPeriod;
      std::this_thread::sleep_until(next);  // a period of audio has been captured
      const int inPeriod = f % kPeriodFrames;
      const bool burst = f >= kPeriodFrames && inPeriod < kBurstFrames;  // one quiet period first
      if (burst && inPeriod == 0) {
        std::lock_guard lock(mutex);
        sent.push_back(Clock::now());
      }
      for (std::size_t i = 0; i < 960; ++i) {
        const double progress = (inPeriod * 960.0 + static_cast<double>(i)) / (kBurstFrames * 960.0);
        const double frequency = 300 + 2700 * std::min(progress, 1.0);
        pcm[2 * i] = pcm[2 * i + 1] = burst ? static_cast<int16_t>(12000 * std::sin(phase)) : int16_t{0};
        phase = std::fmod(phase + 2 * std::numbers::pi * frequency / 48000, 2 * std::numbers::pi);
      }
      const int size = opus_encode(encoder, pcm.data(), 960, packet, sizeof packet);
      sendto(sender, packet, static_cast<size_t>(size), 0, reinterpret_cast<sockaddr*>(&address),
             sizeof address);
    }
    sending = false;
  });
  std::thread playout([&] {
    std::deque<std::vector<unsigned char>> queue;
    std::vector<int16_t> out(1920);
    unsigned char datagram[1500];
    bool playing = false, loud = false;
    // The two devices share no clock: the playout ticks half a period after the capture's (the mean of a
    // phase that is anywhere in the period).
    auto next = Clock::now() + kPeriod / 2;
    while (sending || !queue.empty()) {
      next += kPeriod;
      std::this_thread::sleep_until(next);
      for (;;) {  // what arrived since the last tick
        const auto got = recv(receiver, datagram, sizeof datagram, MSG_DONTWAIT);
        if (got <= 0) break;
        queue.emplace_back(datagram, datagram + got);
      }
      if (!playing && queue.empty()) continue;  // the least queue: one frame, the SDK's minimum depth
      playing = true;
      int decoded = 0;
      if (queue.empty()) {
        decoded = opus_decode(decoder, nullptr, 0, out.data(), 960, 0);  // concealment
      } else {
        decoded = opus_decode(decoder, queue.front().data(), static_cast<opus_int32>(queue.front().size()),
                              out.data(), 960, 0);
        queue.pop_front();
      }
      const bool now = decoded == 960 && Rms(out.data(), 1920) > 300;
      if (now && !loud) {
        std::lock_guard lock(mutex);
        heard.push_back(Clock::now());
      }
      loud = now;
    }
  });
  capture.join();
  playout.join();
  opus_encoder_destroy(encoder);
  opus_decoder_destroy(decoder);
  std::vector<double> latencies;
  for (const auto& onset : heard) {
    const Clock::time_point* best = nullptr;
    for (const auto& start : sent)
      if (start <= onset) best = &start;
    if (best) latencies.push_back(std::chrono::duration<double, std::milli>(onset - *best).count());
  }
  if (static_cast<int>(latencies.size()) < bursts) throw std::runtime_error("the bare pipeline lost bursts");
  return latencies;
}

struct Timings {
  std::mutex mutex;
  std::vector<Clock::time_point> sent;   // burst starts at A
  std::vector<Clock::time_point> heard;  // burst onsets at B
};

// One call between two new Clients: the latency of each burst, A's capture callback to B's receive callback.
std::vector<double> Measure(const platformpp::testkit::ConnectionInfo& info,
                            platformpp::testkit::EmulatorAdmin& admin, uint64_t appId, bool processing) {
  std::vector<std::unique_ptr<platformpp::Client>> clients;
  std::vector<uint64_t> ids;
  uint64_t lobbyId = 0;
  for (int i = 0; i < 2; ++i) {
    auto user = admin.CreateUser("latency_" + std::to_string(processing) + "_" + std::to_string(i));
    auto token = admin.MintToken(user.id, appId, "openid sdk.social_layer");
    platformpp::ClientOptions clientOptions;
    clientOptions.apiBase = info.apiBase;
    clientOptions.caFile = info.caFile;
    clientOptions.ipcEnabled = false;
    auto client = std::make_unique<platformpp::Client>(std::move(clientOptions));
    client->SetApplicationId(appId);
    client->SetEchoCancellation(processing);
    client->SetNoiseSuppression(processing);
    client->SetAutomaticGainControl(processing);
    client->UpdateToken(platformpp::AuthorizationTokenType::Bearer, token.accessToken, [](auto) {});
    client->Connect();
    clients.push_back(std::move(client));
    ids.push_back(user.id);
  }
  const auto pump = [&](auto done, std::chrono::seconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (!done()) {
      if (Clock::now() > deadline) return false;
      for (auto& c : clients)
        c->RunCallbacks();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  };
  if (!pump(
          [&] {
            return clients[0]->GetStatus() == platformpp::Client::Status::Ready &&
                   clients[1]->GetStatus() == platformpp::Client::Status::Ready;
          },
          std::chrono::seconds(20)))
    throw std::runtime_error("the Clients did not get Ready");
  int joined = 0;
  for (auto& c : clients) {
    c->CreateOrJoinLobby(processing ? "latency-processed" : "latency-plain",
                         [&](const platformpp::ClientResult& result, uint64_t id) {
                           joined += result.Successful();
                           lobbyId = id;
                         });
    const int want = joined + 1;
    pump([&] { return joined >= want; }, std::chrono::seconds(10));
  }
  if (joined != 2) throw std::runtime_error("lobby join failed");

  Timings timings;
  int frameIndex = 0;  // voice thread only
  double phase = 0;
  std::atomic<bool> running{false};
  auto callA = clients[0]->StartCallWithAudioCallbacks(
      lobbyId, nullptr, [&](int16_t* data, uint64_t samples, int32_t rate, uint64_t channels) {
        const int inPeriod = frameIndex++ % kPeriodFrames;
        const bool burst = running && inPeriod < kBurstFrames;
        if (burst && inPeriod == 0) {
          std::lock_guard lock(timings.mutex);
          timings.sent.push_back(Clock::now());
        }
        // A chirp, 300 Hz up to 3 kHz over the burst: speech-like enough that noise suppression lets it
        // through (it learns a steady tone as noise and removes it).
        for (uint64_t i = 0; i < samples; ++i) {
          const double progress = (inPeriod * static_cast<double>(samples) + static_cast<double>(i)) /
                                  (kBurstFrames * static_cast<double>(samples));
          const double frequency = 300 + 2700 * std::min(progress, 1.0);
          const auto v = burst ? static_cast<int16_t>(12000 * std::sin(phase)) : int16_t{0};
          phase = std::fmod(phase + 2 * std::numbers::pi * frequency / rate, 2 * std::numbers::pi);
          for (uint64_t c = 0; c < channels; ++c)
            data[i * channels + c] = v;
        }
      });
  bool loud = false;  // voice thread of B only
  std::atomic<int> framesFromA{0};
  auto callB = clients[1]->StartCallWithAudioCallbacks(
      lobbyId,
      [&](uint64_t user, int16_t* data, uint64_t samples, int32_t, uint64_t channels, bool& mute) {
        mute = true;
        if (user != ids[0]) return;
        ++framesFromA;
        // Well above silence (0 to a few units): gain control brings the burst to an RMS near 1000.
        const bool now = Rms(data, samples * channels) > 300;
        if (now && !loud) {
          std::lock_guard lock(timings.mutex);
          timings.heard.push_back(Clock::now());
        }
        loud = now;
      },
      nullptr);
  if (!callA || !callB) throw std::runtime_error("StartCall failed");
  if (!pump(
          [&] {
            return callA.GetStatus() == platformpp::Call::Status::Connected &&
                   callB.GetStatus() == platformpp::Call::Status::Connected;
          },
          std::chrono::seconds(20)))
    throw std::runtime_error("the call did not connect");
  pump([] { return false; }, std::chrono::seconds(1));  // settle
  running = true;
  pump(
      [&] {
        std::lock_guard lock(timings.mutex);
        return static_cast<int>(timings.heard.size()) >= kBursts + 1;
      },
      std::chrono::seconds(kBursts));
  running = false;

  std::vector<double> latencies;
  {
    std::lock_guard lock(timings.mutex);
    // Pair each onset heard with the latest burst start before it.
    for (const auto& heard : timings.heard) {
      const Clock::time_point* best = nullptr;
      for (const auto& sent : timings.sent)
        if (sent <= heard) best = &sent;
      if (best) latencies.push_back(std::chrono::duration<double, std::milli>(heard - *best).count());
    }
  }
  if (static_cast<int>(latencies.size()) < kBursts)
    throw std::runtime_error("only " + std::to_string(latencies.size()) + " of " +
                             std::to_string(timings.sent.size()) + " bursts were heard (" +
                             std::to_string(framesFromA.load()) + " frames from A)");
  return latencies;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    setenv("PLATFORMPP_AUDIO", "null", 1);
    platformpp::testkit::EmulatorProcess::Options options;
    if (argc > 1) options.binary = argv[1];
    options.ipc = false;
    auto emulator = platformpp::testkit::EmulatorProcess::Start(options);
    const auto& info = emulator->Connection();
    platformpp::testkit::EmulatorAdmin admin(info);
    auto app = admin.CreateApp("Voice latency bench");

    const auto processed = Measure(info, admin, app.id, true);
    const auto plain = Measure(info, admin, app.id, false);
    const auto bare = BareLoopback(500);
    const auto barePipeline = BarePipeline(kBursts);
    const double sdk = Median(processed);
    std::printf(
        "voice latency, capture callback -> receive callback, %zu + %zu bursts (default jitter buffer):\n",
        processed.size(), plain.size());
    std::printf(
        "  SDK, defaults (echo cancellation, noise suppression, gain control on): median %.1f ms, max %.1f "
        "ms\n",
        sdk, Max(processed));
    std::printf("  SDK, audio processing off: median %.1f ms, max %.1f ms\n", Median(plain), Max(plain));
    std::printf(
        "  bare, the same design (20 ms capture and playout periods, UDP, 1 frame queued, libopus): "
        "median %.1f ms, max %.1f ms\n",
        Median(barePipeline), Max(barePipeline));
    std::printf(
        "  bare floor, one frame through opus_encode + loopback UDP + opus_decode, unpaced: median %.3f ms\n",
        Median(bare));
    std::printf("  SDK median with defaults / %.0f ms target: %.2f\n", kTargetMs, sdk / kTargetMs);
    std::printf("ratio (SDK median with defaults / the bare design's median): %.2fx\n",
                sdk / Median(barePipeline));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "voice latency bench: %s\n", e.what());
    return 1;
  }
}
