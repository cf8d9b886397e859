// Per-frame cost of the media pipelines against the bare libraries, measured in the same run:
//   send:    SendPipeline::ProcessFrame (gate + Opus encode + RTP + transport seal) vs bare opus_encode plus
//   the
//            same AEAD done directly with OpenSSL (AES-256-GCM) / libsodium (XChaCha20-Poly1305);
//   receive: ReceivePipeline::OnDatagram + PlayoutTick (open + RTP + TOC + jitter buffer + decode + mix) vs
//            bare opus_decode (and vs opus_decode plus the bare AEAD open, for reference).
// Many frames per round, median of rounds; prints the ratios last (targets: send <= 1.05x, receive <= 1.1x).
// Fails only when the work fails, never on timing.
#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"
#include "voice/opus_codec.hpp"
#include "voice/receive_pipeline.hpp"
#include "voice/send_pipeline.hpp"

#include "bare_voice.hpp"

#include <openssl/evp.h>
#include <opus.h>
#include <sodium.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <random>
#include <vector>

#include "bench_mode.hpp"

using namespace platformpp::voice;
namespace media_wire = platformpp::media_wire;
using platformpp::bench::BareOpener;
using platformpp::bench::BareSealer;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kFrames = 500;  // 10 s of audio per round
const int kRounds = platformpp::bench::Sized(5, 1);

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::vector<std::array<int16_t, kOpusFrameSamples>> Input() {
  // A voice-like signal: two harmonics under a syllabic envelope, plus a little noise.
  std::vector<std::array<int16_t, kOpusFrameSamples>> frames(kFrames);
  std::mt19937 random(7);
  std::normal_distribution<double> noise(0, 200);
  for (int f = 0; f < kFrames; ++f) {
    for (int i = 0; i < kOpusFrameSamplesPerChannel; ++i) {
      const double t = static_cast<double>(f * kOpusFrameSamplesPerChannel + i) / kOpusSampleRate;
      const double envelope = 0.55 + 0.45 * std::sin(2 * std::numbers::pi * 3 * t);
      const double v = envelope * (6000 * std::sin(2 * std::numbers::pi * 220 * t) +
                                   3000 * std::sin(2 * std::numbers::pi * 440 * t)) +
                       noise(random);
      const auto sample = static_cast<int16_t>(std::clamp(v, -32768.0, 32767.0));
      frames[f][2 * static_cast<std::size_t>(i)] = sample;
      frames[f][2 * static_cast<std::size_t>(i) + 1] = sample;
    }
  }
  return frames;
}

media_wire::TransportKey Key() {
  media_wire::TransportKey key{};
  for (std::size_t i = 0; i < key.size(); ++i)
    key[i] = static_cast<uint8_t>(i * 13 + 1);
  return key;
}

}  // namespace

int main() {
  if (sodium_init() < 0) return 1;
  const auto input = Input();
  const media_wire::TransportKey key = Key();
  int failures = 0;
  std::vector<double> sendRatios, receiveRatios;

  for (media_wire::TransportMode mode : {media_wire::TransportMode::AeadAes256GcmRtpsize,
                                         media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize}) {
    const char* name = media_wire::TransportModeName(mode).data();
    // --- send ---
    std::vector<double> bareSend, sdkSend;
    std::vector<std::vector<uint8_t>> datagrams;
    uint64_t bareBytes = 0, sdkBytes = 0;
    for (int round = 0; round < kRounds; ++round) {
      {
        OpusEncoder* encoder = platformpp::bench::NewBareEncoder();
        BareSealer sealer(mode, key);
        std::array<uint8_t, 1500> rtp{}, out{};
        bareBytes = 0;
        auto start = Clock::now();
        for (int f = 0; f < kFrames; ++f) {
          media_wire::WriteRtpHeader(static_cast<uint16_t>(f), static_cast<uint32_t>(f) * 960, 1234,
                                     std::span<uint8_t, media_wire::kRtpFixedHeaderSize>(
                                         rtp.data(), media_wire::kRtpFixedHeaderSize));
          const int n = opus_encode(encoder, input[f].data(), 960, rtp.data() + 12, 1276);
          if (n <= 0) ++failures;
          bareBytes += sealer.Seal(rtp.data(), 12 + static_cast<std::size_t>(n), out.data());
        }
        bareSend.push_back(MsSince(start));
        opus_encoder_destroy(encoder);
      }
      {
        SendPipelineOptions options;
        options.initialSequence = 0;
        options.initialTimestamp = 0;
        SendPipeline pipeline(1234, mode, key, options);
        pipeline.Gate().SetAudioMode(AudioMode::PTT);  // every frame goes out, as in the baseline
        pipeline.Gate().SetPttActive(true);
        std::array<uint8_t, SendPipeline::kMaxDatagramSize> out{};
        const bool keep = datagrams.empty();
        auto start = Clock::now();
        for (int f = 0; f < kFrames; ++f) {
          auto result = pipeline.ProcessFrame(input[f], out);
          if (result.size == 0) ++failures;
          if (keep) datagrams.emplace_back(out.begin(), out.begin() + static_cast<long>(result.size));
        }
        sdkSend.push_back(MsSince(start));
        sdkBytes = pipeline.GetCounters().bytesSent;
      }
    }
    if (sdkBytes == 0 || bareBytes == 0) ++failures;

    // --- receive ---
    std::vector<std::vector<uint8_t>> opusPackets;
    {
      BareOpener opener(mode, key);
      for (const auto& d : datagrams) {
        std::vector<uint8_t> payload(d.size());
        if (!opener.Open(d.data(), d.size(), payload.data())) ++failures;
        payload.resize(d.size() - media_wire::kRtpFixedHeaderSize - media_wire::kTransportOverhead);
        opusPackets.push_back(std::move(payload));
      }
    }
    std::vector<double> bareReceive, bareOpenReceive, sdkReceive;
    std::array<int16_t, kOpusFrameSamples> pcm{};
    for (int round = 0; round < kRounds; ++round) {
      {
        int error = 0;
        OpusDecoder* decoder = opus_decoder_create(48000, 2, &error);
        auto start = Clock::now();
        for (const auto& packet : opusPackets)
          if (opus_decode(decoder, packet.data(), static_cast<int>(packet.size()), pcm.data(), 960, 0) != 960)
            ++failures;
        bareReceive.push_back(MsSince(start));
        opus_decoder_destroy(decoder);
      }
      {
        int error = 0;
        OpusDecoder* decoder = opus_decoder_create(48000, 2, &error);
        BareOpener opener(mode, key);
        std::array<uint8_t, 1500> payload{};
        auto start = Clock::now();
        for (const auto& d : datagrams) {
          if (!opener.Open(d.data(), d.size(), payload.data())) ++failures;
          const int size =
              static_cast<int>(d.size() - media_wire::kRtpFixedHeaderSize - media_wire::kTransportOverhead);
          if (opus_decode(decoder, payload.data(), size, pcm.data(), 960, 0) != 960) ++failures;
        }
        bareOpenReceive.push_back(MsSince(start));
        opus_decoder_destroy(decoder);
      }
      {
        ReceivePipeline pipeline(mode, key);
        pipeline.MapSsrc(1234, 1);
        auto start = Clock::now();
        uint64_t now = 0;
        for (const auto& d : datagrams) {
          if (pipeline.OnDatagram(d, now) != ReceivePipeline::PacketResult::Accepted) ++failures;
          pipeline.PlayoutTick(now, pcm);
          now += 20;
        }
        sdkReceive.push_back(MsSince(start));
        if (pipeline.GetCounters().framesDecoded + 2 < static_cast<uint64_t>(kFrames)) ++failures;
      }
    }

    const double bs = Median(bareSend), ss = Median(sdkSend);
    const double br = Median(bareReceive), bor = Median(bareOpenReceive), sr = Median(sdkReceive);
    std::printf("%s, %d frames, median of %d rounds:\n", name, kFrames, kRounds);
    std::printf(
        "  send:    bare opus_encode + AEAD %.2f ms (%.1f us/frame), SendPipeline %.2f ms (%.1f us/frame)\n",
        bs, 1000 * bs / kFrames, ss, 1000 * ss / kFrames);
    std::printf(
        "  receive: bare opus_decode %.2f ms, bare open + decode %.2f ms, ReceivePipeline %.2f ms "
        "(%.1f us/frame)\n",
        br, bor, sr, 1000 * sr / kFrames);
    sendRatios.push_back(ss / bs);
    receiveRatios.push_back(sr / br);
    std::printf("  receive vs bare open + decode: %.3fx\n", sr / bor);
  }
  if (failures) {
    std::printf("error: %d frames failed\n", failures);
    return 1;
  }
  std::printf("send ratio (GCM, XChaCha): %.3fx, %.3fx (target <= 1.05x)\n", sendRatios[0], sendRatios[1]);
  std::printf("receive ratio vs bare opus_decode (GCM, XChaCha): %.3fx, %.3fx (target <= 1.1x)\n",
              receiveRatios[0], receiveRatios[1]);
  return 0;
}
