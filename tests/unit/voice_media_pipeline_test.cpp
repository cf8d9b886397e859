// The media path end to end in memory: SendPipeline -> (a forwarding unit model: open, re-seal with its own
// nonce sequence, optionally drop, reorder, duplicate or tamper) -> ReceivePipeline, in both transport modes.
// A 440 Hz tone must come out dominant with SNR >= 20 dB (>= 10 dB with 10 % of the packets lost), within 60
// ms of added latency; tampered and replayed datagrams are dropped and counted; mute stops the packets.
#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"
#include "voice/opus_toc.hpp"
#include "voice/receive_pipeline.hpp"
#include "voice/send_pipeline.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <numbers>
#include <random>
#include <vector>

namespace voice_media_pipeline_test {

using namespace platformpp::voice;
namespace media_wire = platformpp::media_wire;

namespace {

using Datagram = std::vector<uint8_t>;
using Frame = std::array<int16_t, kOpusFrameSamples>;

constexpr uint32_t kSsrc = 0x11223344;
constexpr uint64_t kUser = 4242;
constexpr double kToneHz = 440.0;
constexpr double kAmplitude = 8000.0;
// Samples in one 20 ms frame of 48 kHz stereo output, as an offset type: frame counts times it index buffers.
constexpr std::ptrdiff_t kFrameSamples = 960;

media_wire::TransportKey Key(uint8_t seed) {
  media_wire::TransportKey key{};
  for (std::size_t i = 0; i < key.size(); ++i)
    key[i] = static_cast<uint8_t>(seed + i * 7);
  return key;
}

// A syllable-like envelope (2 Hz, 10 % to 100 %): SILK's voice activity detector takes a steady tone for
// background noise and then codes no FEC data for it, so the loss test modulates its tone like speech.
double Envelope(double seconds, bool speechLike) {
  return speechLike ? 0.55 + 0.45 * std::sin(2 * std::numbers::pi * 2.0 * seconds) : 1.0;
}

Frame Tone(int frameIndex, double hz = kToneHz, double amplitude = kAmplitude, bool speechLike = false) {
  Frame frame{};
  for (int i = 0; i < kOpusFrameSamplesPerChannel; ++i) {
    const double t = static_cast<double>(frameIndex * kOpusFrameSamplesPerChannel + i) / kOpusSampleRate;
    const auto sample = static_cast<int16_t>(
        std::lround(amplitude * Envelope(t, speechLike) * std::sin(2 * std::numbers::pi * hz * t)));
    frame[2 * static_cast<std::size_t>(i)] = sample;
    frame[2 * static_cast<std::size_t>(i) + 1] = sample;
  }
  return frame;
}

// The forwarding unit as docs/voice-protocol.md describes it: it opens the sender's packet with the sender's
// key and re-seals the same RTP packet with the receiver's key and its own nonce counter.
struct Relay {
  Relay(media_wire::TransportMode mode, const media_wire::TransportKey& senderKey,
        const media_wire::TransportKey& receiverKey)
      : opener(mode, senderKey), sealer(mode, receiverKey) {}
  Datagram Forward(std::span<const uint8_t> datagram) {
    std::vector<uint8_t> rtp(datagram.size());
    std::size_t written = 0;
    REQUIRE(opener.Open(datagram, rtp, written) == media_wire::OpenResult::Ok);
    rtp.resize(written);
    return Reseal(rtp);
  }
  Datagram Reseal(std::span<const uint8_t> rtp) {
    Datagram out(rtp.size() + media_wire::kTransportOverhead);
    REQUIRE(sealer.Seal(rtp, out) == out.size());
    return out;
  }
  std::vector<uint8_t> Open(std::span<const uint8_t> datagram) {
    std::vector<uint8_t> rtp(datagram.size());
    std::size_t written = 0;
    REQUIRE(opener.Open(datagram, rtp, written) == media_wire::OpenResult::Ok);
    rtp.resize(written);
    return rtp;
  }
  media_wire::TransportOpener opener;
  media_wire::TransportSealer sealer;
};

struct Fixture {
  explicit Fixture(media_wire::TransportMode mode, SendPipelineOptions sendOptions = {})
      : send(kSsrc, mode, Key(1), sendOptions), relay(mode, Key(1), Key(2)), receive(mode, Key(2)) {
    receive.MapSsrc(kSsrc, kUser);
  }
  // One 20 ms tick: capture `pcm`, send, forward, receive and play out. Returns the forwarded datagram (empty
  // when nothing was sent) after the caller's filter had its say.
  SendPipeline send;
  Relay relay;
  ReceivePipeline receive;
  std::array<uint8_t, SendPipeline::kMaxDatagramSize> buffer{};
};

// Least-squares fit of a 440 Hz sine (any phase and amplitude: the best-aligned reference) to `x`, whose
// first sample is output sample `offset` (for the envelope). SNR = fitted sine energy / residual energy.
struct Fit {
  double snrDb;
  double amplitude;
};
Fit FitTone(const std::vector<double>& x, double hz = kToneHz, bool speechLike = false,
            std::size_t offset = 0) {
  auto envelope = [&](std::size_t n) {
    return Envelope(static_cast<double>(n + offset) / kOpusSampleRate, speechLike);
  };
  double cc = 0, ss = 0, cs = 0, xc = 0, xs = 0;
  for (std::size_t n = 0; n < x.size(); ++n) {
    const double w = 2 * std::numbers::pi * hz * static_cast<double>(n) / kOpusSampleRate;
    const double c = envelope(n) * std::cos(w), s = envelope(n) * std::sin(w);
    cc += c * c;
    ss += s * s;
    cs += c * s;
    xc += x[n] * c;
    xs += x[n] * s;
  }
  const double det = cc * ss - cs * cs;
  const double a = (xc * ss - xs * cs) / det;
  const double b = (xs * cc - xc * cs) / det;
  double signal = 0, noise = 0;
  for (std::size_t n = 0; n < x.size(); ++n) {
    const double w = 2 * std::numbers::pi * hz * static_cast<double>(n) / kOpusSampleRate;
    const double fit = envelope(n) * (a * std::cos(w) + b * std::sin(w));
    signal += fit * fit;
    noise += (x[n] - fit) * (x[n] - fit);
  }
  return {10 * std::log10(signal / std::max(noise, 1e-9)), std::hypot(a, b)};
}

double Goertzel(const std::vector<double>& x, double hz) {
  const double coefficient = 2 * std::cos(2 * std::numbers::pi * hz / kOpusSampleRate);
  double s1 = 0, s2 = 0;
  for (double sample : x) {
    const double s0 = sample + coefficient * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return s1 * s1 + s2 * s2 - coefficient * s1 * s2;
}

// Runs `frames` ticks of the tone through the fixture; `deliver` gets each datagram the sender produced and
// decides what reaches the receiver (normally f.relay.Forward of it). Returns the left channel of the played
// output.
template <typename Deliver>
std::vector<double> RunTone(Fixture& f, int frames, Deliver deliver, bool speechLike = false) {
  std::vector<double> left;
  Frame mix{};
  for (int i = 0; i < frames; ++i) {
    const auto pcm = Tone(i, kToneHz, kAmplitude, speechLike);
    auto result = f.send.ProcessFrame(pcm, f.buffer);
    if (result.size > 0)
      deliver(i, Datagram(f.buffer.begin(), f.buffer.begin() + static_cast<std::ptrdiff_t>(result.size)));
    const uint64_t now = 20 * static_cast<uint64_t>(i);
    f.receive.PlayoutTick(now, mix);
    for (std::size_t s = 0; s < mix.size(); s += 2)
      left.push_back(mix[s]);
  }
  return left;
}

constexpr media_wire::TransportMode kModes[] = {media_wire::TransportMode::AeadAes256GcmRtpsize,
                                                media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize};

}  // namespace

TEST_CASE("a 440 Hz tone arrives dominant with SNR >= 20 dB in both transport modes") {
  for (media_wire::TransportMode mode : kModes) {
    CAPTURE(media_wire::TransportModeName(mode));
    Fixture f(mode);
    uint64_t now = 0;
    auto output = RunTone(f, 150, [&](int i, Datagram d) {
      now = 20 * static_cast<uint64_t>(i);
      CHECK(f.receive.OnDatagram(f.relay.Forward(d), now) == ReceivePipeline::PacketResult::Accepted);
    });
    // Skip the codec's start-up (10 frames) and the buffering; keep 2 s.
    std::vector<double> window(output.begin() + 20 * kFrameSamples, output.begin() + 120 * kFrameSamples);
    const Fit fit = FitTone(window);
    MESSAGE("SNR " << fit.snrDb << " dB, amplitude " << fit.amplitude);
    CHECK(fit.snrDb >= 20.0);
    CHECK(fit.amplitude == doctest::Approx(kAmplitude).epsilon(0.15));
    const double at440 = Goertzel(window, 440);
    for (double other : {220.0, 330.0, 550.0, 660.0, 880.0, 1320.0, 2000.0})
      CHECK(at440 > 100 * Goertzel(window, other));
    CHECK(f.send.GetCounters().framesSent == 150);
    CHECK(f.receive.GetCounters().accepted == 150);
    CHECK(f.receive.GetCounters().lost == 0);
    CHECK(f.receive.GetCounters().framesDecoded >= 148);
  }
}

TEST_CASE("a wrong tone or silence fails the SNR measure") {
  // The measure itself can fail: 660 Hz against the 440 Hz reference, and white noise.
  std::vector<double> other(96000);
  for (std::size_t n = 0; n < other.size(); ++n)
    other[n] = kAmplitude * std::sin(2 * std::numbers::pi * 660 * static_cast<double>(n) / kOpusSampleRate);
  CHECK(FitTone(other).snrDb < 0);
  std::mt19937 random(1);
  std::normal_distribution<double> noise(0, 1000);
  for (std::size_t n = 0; n < other.size(); ++n)
    other[n] = kAmplitude * std::sin(2 * std::numbers::pi * 440 * static_cast<double>(n) / kOpusSampleRate) +
               noise(random) * 3;
  CHECK(FitTone(other).snrDb < 20);
}

TEST_CASE("with 10 % of the packets lost the tone continues (FEC, PLC) with SNR >= 10 dB") {
  // The output lags the input by the buffering and codec delay; the fit's envelope is aligned to it by
  // searching the lag (the sine's phase is fitted anyway).
  for (media_wire::TransportMode mode : kModes) {
    CAPTURE(media_wire::TransportModeName(mode));
    Fixture f(mode);
    f.send.Gate().Vad().SetHangoverFrames(50);  // the envelope's quiet part stays on air
    std::mt19937 random(2026);
    std::bernoulli_distribution lose(0.10);
    int dropped = 0;
    auto output = RunTone(
        f, 300,
        [&](int i, Datagram d) {
          if (i >= 10 && lose(random)) {
            ++dropped;
            return;
          }
          f.receive.OnDatagram(f.relay.Forward(d), 20 * static_cast<uint64_t>(i));
        },
        true);
    const std::size_t start = static_cast<std::size_t>(20 * kFrameSamples),
                      end = static_cast<std::size_t>(280 * kFrameSamples);
    std::vector<double> window(output.begin() + start, output.begin() + end);
    Fit best{-100, 0};
    for (std::size_t lag = 0; lag <= static_cast<std::size_t>(3 * kFrameSamples); lag += 48) {
      const Fit fit = FitTone(window, kToneHz, true, start - lag);
      if (fit.snrDb > best.snrDb) best = fit;
    }
    MESSAGE("dropped " << dropped << ", SNR " << best.snrDb << " dB, concealed "
                       << f.receive.GetCounters().concealed << ", FEC "
                       << f.receive.GetCounters().fecRecovered);
    CHECK(dropped >= 20);
    CHECK(best.snrDb >= 10.0);
    CHECK(f.receive.GetCounters().lost == static_cast<uint64_t>(dropped));
    CHECK(f.receive.GetCounters().concealed >= f.receive.GetCounters().lost);
    CHECK(f.receive.GetCounters().fecRecovered > 0);
  }
}

TEST_CASE("capture-to-playback added latency is at most 60 ms with the default jitter buffer") {
  Fixture f(media_wire::TransportMode::AeadAes256GcmRtpsize);
  constexpr int kOnsetFrame = 20;
  std::vector<double> left;
  Frame mix{};
  for (int i = 0; i < 60; ++i) {
    const Frame pcm = i < kOnsetFrame ? Frame{} : Tone(i);
    auto result = f.send.ProcessFrame(pcm, f.buffer);
    if (result.size > 0)
      f.receive.OnDatagram(f.relay.Forward(std::span<const uint8_t>(f.buffer.data(), result.size)),
                           20 * static_cast<uint64_t>(i));
    f.receive.PlayoutTick(20 * static_cast<uint64_t>(i), mix);
    for (std::size_t s = 0; s < mix.size(); s += 2)
      left.push_back(mix[s]);
  }
  const auto onset =
      std::find_if(left.begin(), left.end(), [](double v) { return std::abs(v) > kAmplitude / 4; });
  REQUIRE(onset != left.end());
  const double latencyMs = static_cast<double>(onset - left.begin() - kOnsetFrame * kFrameSamples) / 48.0;
  MESSAGE("added latency " << latencyMs << " ms");
  CHECK(latencyMs > 0);
  CHECK(latencyMs <= 60.0);
}

TEST_CASE("reordered and duplicated packets are played once, in order") {
  for (media_wire::TransportMode mode : kModes) {
    CAPTURE(media_wire::TransportModeName(mode));
    Fixture f(mode);
    std::deque<Datagram> held;
    int duplicates = 0;
    auto output = RunTone(f, 150, [&](int i, Datagram d) {
      const uint64_t now = 20 * static_cast<uint64_t>(i);
      const auto rtp = f.relay.Open(d);
      // Every other packet arrives after the next one (swapped pairs).
      if (i % 2 == 0 && i > 0) {
        held.push_back(f.relay.Reseal(rtp));
        return;
      }
      CHECK(f.receive.OnDatagram(f.relay.Reseal(rtp), now) == ReceivePipeline::PacketResult::Accepted);
      while (!held.empty()) {
        CHECK(f.receive.OnDatagram(held.front(), now) == ReceivePipeline::PacketResult::Accepted);
        held.pop_front();
      }
      // Every 7th RTP packet comes twice (re-sealed: a fresh nonce, the same sequence).
      if (i % 7 == 3) {
        ++duplicates;
        CHECK(f.receive.OnDatagram(f.relay.Reseal(rtp), now) == ReceivePipeline::PacketResult::Duplicate);
      }
    });
    std::vector<double> window(output.begin() + 20 * kFrameSamples, output.begin() + 140 * kFrameSamples);
    CHECK(FitTone(window).snrDb >= 20.0);
    CHECK(f.receive.GetCounters().lost == 0);
    CHECK(f.receive.GetCounters().late == 0);
    CHECK(f.receive.GetCounters().duplicate == static_cast<uint64_t>(duplicates));
    CHECK(f.receive.GetCounters().accepted == 150);
  }
}

TEST_CASE("a tampered datagram is dropped and counted, the untouched one still plays; a replay is refused") {
  for (media_wire::TransportMode mode : kModes) {
    CAPTURE(media_wire::TransportModeName(mode));
    Fixture f(mode);
    const auto pcm = Tone(0);
    auto result = f.send.ProcessFrame(pcm, f.buffer);
    REQUIRE(result.size > 0);
    Datagram good = f.relay.Forward(std::span<const uint8_t>(f.buffer.data(), result.size));
    for (std::size_t at : {std::size_t{2}, std::size_t{12}, good.size() - 5, good.size() - 1}) {
      Datagram bad = good;
      bad[at] ^= 0x01;
      CHECK(f.receive.OnDatagram(bad, 0) == ReceivePipeline::PacketResult::Tampered);
    }
    CHECK(f.receive.GetCounters().tampered == 4);  // a changed nonce fails authentication too
    CHECK(f.receive.OnDatagram(good, 0) == ReceivePipeline::PacketResult::Accepted);
    CHECK(f.receive.OnDatagram(good, 1) == ReceivePipeline::PacketResult::Replayed);
    CHECK(f.receive.GetCounters().replayed == 1);
    CHECK(f.receive.GetCounters().accepted == 1);
    // Wrong key: tampered as well.
    ReceivePipeline stranger(mode, Key(9));
    CHECK(stranger.OnDatagram(good, 0) == ReceivePipeline::PacketResult::Tampered);
    // Runts and RTCP are malformed.
    CHECK(f.receive.OnDatagram(std::span<const uint8_t>(good.data(), 11), 0) ==
          ReceivePipeline::PacketResult::Malformed);
    Datagram rtcp = good;
    rtcp[1] = 0xC8;  // payload type 72 with the marker bit
    CHECK(f.receive.OnDatagram(rtcp, 0) == ReceivePipeline::PacketResult::Malformed);
    CHECK(f.receive.GetCounters().malformed == 2);
  }
}

TEST_CASE("a non-Opus payload type or a malformed Opus packet is dropped") {
  Fixture f(media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize);
  std::vector<uint8_t> rtp(media_wire::kRtpFixedHeaderSize);
  media_wire::WriteRtpHeader(
      1, 960, kSsrc,
      std::span<uint8_t, media_wire::kRtpFixedHeaderSize>(rtp.data(), media_wire::kRtpFixedHeaderSize));
  auto withPayload = [&](std::vector<uint8_t> payload) {
    auto packet = rtp;
    packet.insert(packet.end(), payload.begin(), payload.end());
    return packet;
  };
  // A 40 ms SILK packet: valid Opus, but not a 20 ms frame.
  CHECK(f.receive.OnDatagram(f.relay.Reseal(withPayload({0x10, 1, 2, 3})), 0) ==
        ReceivePipeline::PacketResult::Malformed);
  // Code 3 with no frames.
  CHECK(f.receive.OnDatagram(f.relay.Reseal(withPayload({0xFB, 0x00})), 0) ==
        ReceivePipeline::PacketResult::Malformed);
  // No payload at all.
  CHECK(f.receive.OnDatagram(f.relay.Reseal(rtp), 0) == ReceivePipeline::PacketResult::Malformed);
  // Another payload type.
  auto other = withPayload({0xF8, 0xFF, 0xFE});
  other[1] = 0x60;
  CHECK(f.receive.OnDatagram(f.relay.Reseal(other), 0) == ReceivePipeline::PacketResult::Malformed);
  // The extension body is skipped: X set, one word of extension, then the silence frame.
  std::vector<uint8_t> extended = rtp;
  extended[0] |= 0x10;
  extended.insert(extended.end(), {0xBE, 0xDE, 0x00, 0x01, 0x10, 0xAA, 0x00, 0x00, 0xF8, 0xFF, 0xFE});
  CHECK(f.receive.OnDatagram(f.relay.Reseal(extended), 0) == ReceivePipeline::PacketResult::Accepted);
  CHECK(f.receive.GetCounters().malformed == 4);
}

TEST_CASE("after speech: five silence frames, Speaking off, then no packets; mute stops packets") {
  for (bool viaMute : {false, true}) {
    CAPTURE(viaMute);
    Fixture f(media_wire::TransportMode::AeadAes256GcmRtpsize);
    f.send.Gate().Vad().SetHangoverFrames(0);
    int audio = 0, silence = 0, after = 0;
    bool started = false, stopped = false;
    for (int i = 0; i < 60; ++i) {
      if (viaMute && i == 10) f.send.Gate().SetSelfMute(true);
      const Frame pcm = (viaMute || i < 10) ? Tone(i) : Frame{};
      auto result = f.send.ProcessFrame(pcm, f.buffer);
      if (result.speakingStarted) {
        CHECK(i == 0);
        started = true;
      }
      if (result.size == 0) {
        if (stopped) continue;
        FAIL("a frame without a packet before the end of the silence frames");
      }
      CHECK_FALSE(stopped);  // nothing after Speaking off
      if (stopped) ++after;
      const auto rtp = f.relay.Open(std::span<const uint8_t>(f.buffer.data(), result.size));
      const auto payload = std::span<const uint8_t>(rtp).subspan(media_wire::kRtpFixedHeaderSize);
      CHECK(result.silence == IsOpusSilenceFrame(payload));
      if (result.silence) {
        ++silence;
      } else {
        CHECK(silence == 0);
        ++audio;
      }
      if (result.speakingStopped) stopped = true;
    }
    CHECK(started);
    CHECK(stopped);
    CHECK(audio == 10);
    CHECK(silence == 5);
    CHECK(after == 0);
    CHECK(f.send.GetCounters().framesSent == 15);
    CHECK(f.send.GetCounters().silenceFramesSent == 5);
    CHECK(f.send.GetCounters().framesCaptured == 60);
  }
}

TEST_CASE("RTP sequence wraps at 65535 and the timestamp steps 960 per frame, sent or not") {
  SendPipelineOptions options;
  options.initialSequence = 65533;
  options.initialTimestamp = 0xFFFFFC40u;  // wraps too
  Fixture f(media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize, options);
  std::vector<uint16_t> sequences;
  std::vector<uint32_t> timestamps;
  auto output = RunTone(f, 100, [&](int i, Datagram d) {
    const auto rtp = f.relay.Open(d);
    const auto header = media_wire::ParseRtpHeader(rtp);
    REQUIRE(header);
    CHECK(header->ssrc == kSsrc);
    sequences.push_back(header->sequence);
    timestamps.push_back(header->timestamp);
    CHECK(f.receive.OnDatagram(f.relay.Reseal(rtp), 20 * static_cast<uint64_t>(i)) ==
          ReceivePipeline::PacketResult::Accepted);
  });
  REQUIRE(sequences.size() == 100);
  CHECK(sequences[0] == 65533);
  CHECK(sequences[2] == 65535);
  CHECK(sequences[3] == 0);
  CHECK(sequences[4] == 1);
  CHECK(timestamps[0] == 0xFFFFFC40u);
  CHECK(timestamps[1] == 0);
  CHECK(timestamps[2] == 960);
  CHECK(f.receive.GetCounters().lost == 0);
  CHECK(f.receive.GetCounters().late == 0);
  std::vector<double> window(output.begin() + 20 * kFrameSamples, output.begin() + 95 * kFrameSamples);
  CHECK(FitTone(window).snrDb >= 20.0);

  // A frame the gate holds back still advances the timestamp.
  f.send.Gate().SetSelfMute(true);
  const uint32_t before = f.send.NextTimestamp();
  const uint16_t sequenceBefore = f.send.NextSequence();
  for (int i = 0; i < 10; ++i)
    f.send.ProcessFrame(Tone(i), f.buffer);
  CHECK(f.send.NextTimestamp() == before + 10 * 960);
  CHECK(f.send.NextSequence() == static_cast<uint16_t>(sequenceBefore + 5));  // the five silence frames
}

TEST_CASE("per-user callback, local mute, volume 0..200 % and saturating mix") {
  constexpr uint32_t kOtherSsrc = 0x55667788;
  constexpr uint64_t kOther = 777;
  const media_wire::TransportMode mode = media_wire::TransportMode::AeadAes256GcmRtpsize;
  SendPipelineOptions options;
  SendPipeline second(kOtherSsrc, mode, Key(3), options);
  Relay secondRelay(mode, Key(3), Key(2));
  Fixture f(mode);
  f.receive.MapSsrc(kOtherSsrc, kOther);
  CHECK(f.receive.UserForSsrc(kOtherSsrc) == kOther);
  CHECK_FALSE(f.receive.UserForSsrc(1));

  CHECK(f.receive.SetUserVolume(kUser, 200));
  CHECK(f.receive.SetUserVolume(kUser, 0));
  CHECK_FALSE(f.receive.SetUserVolume(kUser, 201));
  CHECK_FALSE(f.receive.SetUserVolume(kUser, -1));
  CHECK(f.receive.UserVolume(kUser) == 0);
  CHECK(f.receive.SetUserVolume(kUser, 100));

  std::vector<uint64_t> calledFor;
  bool muteOther = false;
  f.receive.SetUserAudioCallback(
      [&](uint64_t user, int16_t* pcm, int samples, int rate, int channels, bool& outMute) {
        CHECK(samples == 960);
        CHECK(rate == 48000);
        CHECK(channels == 2);
        CHECK(pcm != nullptr);
        calledFor.push_back(user);
        if (user == kOther) outMute = muteOther;
      });

  // Both senders' packets reach the receiver through one sealer: the unit's single nonce sequence.
  Frame mix{};
  auto tick = [&](int i, double amplitude1, double amplitude2) {
    auto r1 = f.send.ProcessFrame(Tone(i, 440, amplitude1), f.buffer);
    if (r1.size)
      f.receive.OnDatagram(f.relay.Forward(std::span<const uint8_t>(f.buffer.data(), r1.size)),
                           uint64_t{20} * i);
    std::array<uint8_t, SendPipeline::kMaxDatagramSize> buffer2{};
    auto r2 = second.ProcessFrame(Tone(i, 440, amplitude2), buffer2);
    if (r2.size)
      f.receive.OnDatagram(
          f.relay.Reseal(secondRelay.Open(std::span<const uint8_t>(buffer2.data(), r2.size))),
          uint64_t{20} * i);
    return f.receive.PlayoutTick(20 * static_cast<uint64_t>(i), mix);
  };
  auto peak = [&]() {
    int value = 0;
    for (int16_t s : mix)
      value = std::max(value, std::abs(static_cast<int>(s)));
    return value;
  };
  int i = 0;
  for (; i < 30; ++i)
    tick(i, 8000, 8000);
  CHECK(tick(i++, 8000, 8000) == 2);
  CHECK(std::count(calledFor.begin(), calledFor.end(), kUser) > 20);
  CHECK(std::count(calledFor.begin(), calledFor.end(), kOther) > 20);
  const int both = peak();
  CHECK(both > 12000);  // two in-phase tones add up

  muteOther = true;  // the callback's "mute SDK playback"
  for (int k = 0; k < 3; ++k)
    CHECK(tick(i++, 8000, 8000) == 1);
  CHECK(peak() < 10000);
  muteOther = false;

  f.receive.SetLocalMute(kUser, true);
  CHECK(f.receive.LocalMuted(kUser));
  CHECK(tick(i++, 8000, 8000) == 1);
  f.receive.SetLocalMute(kUser, false);
  CHECK(f.receive.SetUserVolume(kUser, 0));
  CHECK(tick(i++, 8000, 8000) == 1);
  CHECK(f.receive.SetUserVolume(kUser, 100));

  // Loud tones at 200 %: the mix saturates instead of wrapping around.
  CHECK(f.receive.SetUserVolume(kUser, 200));
  CHECK(f.receive.SetUserVolume(kOther, 200));
  bool clipped = false, wrapped = false;
  for (int k = 0; k < 20; ++k) {
    tick(i++, 30000, 30000);
    for (std::size_t s = 2; s < mix.size(); s += 2) {
      if (mix[s] == 32767 || mix[s] == -32768) clipped = true;
      // A wrap-around shows as a jump of more than half the range between neighbours.
      if (std::abs(static_cast<int>(mix[s]) - mix[s - 2]) > 40000) wrapped = true;
    }
  }
  CHECK(clipped);
  CHECK_FALSE(wrapped);

  // Client Disconnect: the user's stream goes away.
  f.receive.UnmapUser(kOther);
  CHECK_FALSE(f.receive.UserForSsrc(kOtherSsrc));
  CHECK(f.receive.JitterFor(kOtherSsrc) == nullptr);
  CHECK(f.receive.JitterFor(kSsrc) != nullptr);
}

TEST_CASE("the frame transform runs between codec and RTP, and silence frames bypass it") {
  // An XOR "encryption" that adds a 2-byte marker, to see where it applies.
  struct XorEncryptor : FrameEncryptor {
    std::size_t MaxOverhead() const noexcept override { return 2; }
    std::size_t Encrypt(uint32_t, std::span<const uint8_t> frame, std::span<uint8_t> out) noexcept override {
      ++calls;
      for (std::size_t i = 0; i < frame.size(); ++i)
        out[i] = frame[i] ^ 0x5A;
      out[frame.size()] = 0xFA;
      out[frame.size() + 1] = 0xFA;
      return frame.size() + 2;
    }
    int calls = 0;
  };
  struct XorDecryptor : FrameDecryptor {
    std::size_t Decrypt(uint32_t ssrc, uint64_t user, uint64_t, std::span<const uint8_t> frame,
                        std::span<uint8_t> out) noexcept override {
      ++calls;
      lastUser = user;
      (void)ssrc;
      if (frame.size() < 3 || frame[frame.size() - 1] != 0xFA || frame[frame.size() - 2] != 0xFA) return 0;
      for (std::size_t i = 0; i + 2 < frame.size(); ++i)
        out[i] = frame[i] ^ 0x5A;
      return frame.size() - 2;
    }
    int calls = 0;
    uint64_t lastUser = 0;
  };
  XorEncryptor encryptor;
  XorDecryptor decryptor;
  Fixture f(media_wire::TransportMode::AeadAes256GcmRtpsize);
  f.send.Gate().Vad().SetHangoverFrames(0);
  f.send.SetFrameEncryptor(&encryptor);
  f.receive.SetFrameDecryptor(&decryptor);
  std::vector<double> left;
  Frame mix{};
  int silenceSeen = 0;
  for (int i = 0; i < 80; ++i) {
    auto result = f.send.ProcessFrame(i < 70 ? Tone(i) : Frame{}, f.buffer);
    if (result.size) {
      const auto rtp = f.relay.Open(std::span<const uint8_t>(f.buffer.data(), result.size));
      const auto payload = std::span<const uint8_t>(rtp).subspan(media_wire::kRtpFixedHeaderSize);
      if (result.silence) {
        CHECK(IsOpusSilenceFrame(payload));  // unencrypted on the wire
        ++silenceSeen;
      } else {
        CHECK(payload.back() == 0xFA);
      }
      CHECK(f.receive.OnDatagram(f.relay.Reseal(rtp), 20 * static_cast<uint64_t>(i)) ==
            ReceivePipeline::PacketResult::Accepted);
    }
    f.receive.PlayoutTick(20 * static_cast<uint64_t>(i), mix);
    for (std::size_t s = 0; s < mix.size(); s += 2)
      left.push_back(mix[s]);
  }
  CHECK(silenceSeen == 5);
  CHECK(encryptor.calls == 70);
  CHECK(decryptor.calls == 70);
  CHECK(decryptor.lastUser == kUser);
  std::vector<double> window(left.begin() + 20 * kFrameSamples, left.begin() + 65 * kFrameSamples);
  CHECK(FitTone(window).snrDb >= 20.0);

  // A frame the decryptor refuses is dropped and counted.
  f.send.Gate().SetSelfMute(false);
  auto result = f.send.ProcessFrame(Tone(0), f.buffer);
  REQUIRE(result.size);
  auto rtp = f.relay.Open(std::span<const uint8_t>(f.buffer.data(), result.size));
  rtp.back() = 0x00;  // break the marker
  CHECK(f.receive.OnDatagram(f.relay.Reseal(rtp), 2000) == ReceivePipeline::PacketResult::DecryptFailed);
  CHECK(f.receive.GetCounters().decryptFailed == 1);
}

TEST_CASE("an encrypted frame of an SSRC op 5 has not mapped yet waits for the mapping, for 500 ms at most") {
  // The sender's key is chosen by its user id: this decryptor decrypts only kUser's frames.
  struct XorEncryptor : FrameEncryptor {
    std::size_t MaxOverhead() const noexcept override { return 2; }
    std::size_t Encrypt(uint32_t, std::span<const uint8_t> frame, std::span<uint8_t> out) noexcept override {
      for (std::size_t i = 0; i < frame.size(); ++i)
        out[i] = frame[i] ^ 0x5A;
      out[frame.size()] = out[frame.size() + 1] = 0xFA;
      return frame.size() + 2;
    }
  };
  struct UserDecryptor : FrameDecryptor {
    std::size_t Decrypt(uint32_t, uint64_t user, uint64_t, std::span<const uint8_t> frame,
                        std::span<uint8_t> out) noexcept override {
      ++calls;
      if (user != kUser) return 0;
      for (std::size_t i = 0; i + 2 < frame.size(); ++i)
        out[i] = frame[i] ^ 0x5A;
      return frame.size() - 2;
    }
    bool NeedsSender(std::span<const uint8_t> frame) const noexcept override { return frame.back() == 0xFA; }
    int calls = 0;
  };
  XorEncryptor encryptor;
  UserDecryptor decryptor;
  Fixture f(media_wire::TransportMode::AeadAes256GcmRtpsize);
  f.send.Gate().Vad().SetHangoverFrames(0);
  f.send.SetFrameEncryptor(&encryptor);
  f.receive.SetFrameDecryptor(&decryptor);
  f.receive.UnmapUser(kUser);  // a new sender: its first frames overtake op 5
  uint64_t now = 0;
  const auto sendOne = [&](int i) {
    const auto result = f.send.ProcessFrame(Tone(i), f.buffer);
    REQUIRE(result.size);
    const auto rtp = f.relay.Open(std::span<const uint8_t>(f.buffer.data(), result.size));
    now += 20;
    return f.receive.OnDatagram(f.relay.Reseal(rtp), now);
  };
  for (int i = 0; i < 5; ++i)
    CHECK(sendOne(i) == ReceivePipeline::PacketResult::Held);
  CHECK(f.receive.GetCounters().held == 5);
  CHECK(decryptor.calls == 0);
  // Op 5 maps the SSRC: the five frames are decrypted, in order, and buffered; the next ones go straight on.
  f.receive.MapSsrc(kSsrc, kUser);
  CHECK(decryptor.calls == 5);
  CHECK(f.receive.GetCounters().accepted == 5);
  CHECK(f.receive.GetCounters().decryptFailed == 0);
  CHECK(sendOne(5) == ReceivePipeline::PacketResult::Accepted);
  Frame mix{};
  CHECK(f.receive.PlayoutTick(now, mix) == 1);

  // Never mapped: held until 500 ms have passed, then dropped as undecryptable.
  f.receive.UnmapUser(kUser);
  for (int i = 0; i < 3; ++i)
    CHECK(sendOne(10 + i) == ReceivePipeline::PacketResult::Held);
  const int before = decryptor.calls;
  f.receive.PlayoutTick(now + ReceivePipeline::kHoldMs - 60, mix);  // the oldest is 40 ms short of it
  CHECK(decryptor.calls == before);
  f.receive.PlayoutTick(now + ReceivePipeline::kHoldMs, mix);
  CHECK(decryptor.calls == before + 3);
  CHECK(f.receive.GetCounters().decryptFailed == 3);

  // At most kHeldSlots at a time: the oldest makes room, dropped unmapped.
  for (std::size_t i = 0; i < ReceivePipeline::kHeldSlots + 4; ++i)
    CHECK(sendOne(20 + static_cast<int>(i)) == ReceivePipeline::PacketResult::Held);
  CHECK(f.receive.GetCounters().decryptFailed == 3 + 4);
  f.receive.MapSsrc(kSsrc, kUser);
  CHECK(f.receive.GetCounters().decryptFailed == 3 + 4);
  CHECK(f.receive.GetCounters().accepted >= 6 + ReceivePipeline::kHeldSlots - 1);
}

TEST_CASE("Opus encoder settings are range-checked and the decoder conceals and refuses long packets") {
  OpusFrameEncoder encoder;
  CHECK(encoder.Bitrate() == 64000);
  CHECK(encoder.ExpectedPacketLoss() == 10);
  CHECK(encoder.SetBitrate(6000));
  CHECK(encoder.SetBitrate(510000));
  CHECK_FALSE(encoder.SetBitrate(5999));
  CHECK_FALSE(encoder.SetBitrate(510001));
  CHECK(encoder.Bitrate() == 510000);
  CHECK(encoder.SetExpectedPacketLoss(0));
  CHECK(encoder.SetExpectedPacketLoss(100));
  CHECK_FALSE(encoder.SetExpectedPacketLoss(-1));
  CHECK_FALSE(encoder.SetExpectedPacketLoss(101));
  CHECK(encoder.ExpectedPacketLoss() == 100);
  CHECK(encoder.SetBitrate(32000));

  std::array<uint8_t, kOpusMaxPacketSize> packet{};
  const auto pcm = Tone(0);
  const int size = encoder.Encode(pcm, packet);
  REQUIRE(size > 0);
  auto toc = ParseOpusToc(std::span<const uint8_t>(packet.data(), static_cast<std::size_t>(size)));
  REQUIRE(toc);
  CHECK(toc->durationSamples48k == 960);
  CHECK(toc->stereo);

  OpusFrameDecoder decoder;
  Frame out{};
  CHECK(decoder.Decode(std::span<const uint8_t>(packet.data(), static_cast<std::size_t>(size)), out) == 960);
  CHECK(decoder.Conceal(out) == 960);
  CHECK(decoder.DecodeFec(std::span<const uint8_t>(packet.data(), static_cast<std::size_t>(size)), out) ==
        960);
  // A 40 ms packet does not fit a 20 ms frame.
  const uint8_t longPacket[] = {0x10, 0x00};
  CHECK(decoder.Decode(longPacket, out) < 0);
  CHECK(decoder.Decode({}, out) < 0);
}

TEST_CASE("streams are preallocated: a new SSRC waits for a free or idle one") {
  const media_wire::TransportMode mode = media_wire::TransportMode::AeadAes256GcmRtpsize;
  ReceivePipelineOptions options;
  options.maxStreams = 1;
  options.jitter.resetAfterSilenceMs = 500;
  ReceivePipeline receive(mode, Key(2), options);
  Relay relay(mode, Key(2), Key(2));
  auto packet = [&](uint32_t ssrc, uint16_t sequence) {
    std::vector<uint8_t> rtp(media_wire::kRtpFixedHeaderSize);
    media_wire::WriteRtpHeader(sequence, sequence * 960u, ssrc,
                               std::span<uint8_t, media_wire::kRtpFixedHeaderSize>(rtp.data(), 12));
    rtp.insert(rtp.end(), {0xF8, 0xFF, 0xFE});
    return relay.Reseal(rtp);
  };
  CHECK(receive.OnDatagram(packet(1, 10), 0) == ReceivePipeline::PacketResult::Accepted);
  CHECK(receive.OnDatagram(packet(2, 10), 10) == ReceivePipeline::PacketResult::NoStream);
  CHECK(receive.GetCounters().noStream == 1);
  Frame mix{};
  for (uint64_t now = 20; now <= 400; now += 20)
    receive.PlayoutTick(now, mix);
  // Still within the 500 ms of the first stream's last packet.
  CHECK(receive.OnDatagram(packet(2, 11), 400) == ReceivePipeline::PacketResult::NoStream);
  CHECK(receive.OnDatagram(packet(2, 12), 501) == ReceivePipeline::PacketResult::Accepted);
  CHECK(receive.JitterFor(1) == nullptr);
  CHECK(receive.JitterFor(2) != nullptr);
}

}  // namespace voice_media_pipeline_test
