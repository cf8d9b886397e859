#pragma once
// libopus for the call's one format: 48 kHz, 2 channels, 20 ms frames (960 samples per channel, 1920
// interleaved int16 samples). The encoder is tuned for speech (OPUS_APPLICATION_VOIP) with in-band FEC on and
// DTX off (the platform marks the end of speech with explicit silence frames instead). The decoder conceals a
// missing frame (PLC) or rebuilds it from the next packet's FEC data. Encode and decode never allocate; the
// libopus states are allocated once, in the constructors. Not thread-safe: one per stream.

#include <cstddef>
#include <cstdint>
#include <span>

struct OpusEncoder;
struct OpusDecoder;

namespace platformpp::voice {

inline constexpr int kOpusSampleRate = 48000;
inline constexpr int kOpusChannels = 2;
inline constexpr int kOpusFrameSamplesPerChannel = 960;  // 20 ms
inline constexpr std::size_t kOpusFrameSamples = 1920;   // interleaved stereo
/// What an encoded 20 ms frame can take (libopus' recommended maximum packet size).
inline constexpr std::size_t kOpusMaxPacketSize = 1276;

using PcmFrame = std::span<int16_t, kOpusFrameSamples>;
using ConstPcmFrame = std::span<const int16_t, kOpusFrameSamples>;

class OpusFrameEncoder {
 public:
  static constexpr int kDefaultBitrate = 64000;
  static constexpr int kDefaultExpectedLossPercent = 10;

  /// Throws std::runtime_error when libopus cannot create the encoder.
  explicit OpusFrameEncoder(int bitrate = kDefaultBitrate,
                            int expectedLossPercent = kDefaultExpectedLossPercent);
  ~OpusFrameEncoder();
  OpusFrameEncoder(const OpusFrameEncoder&) = delete;
  OpusFrameEncoder& operator=(const OpusFrameEncoder&) = delete;

  /// Bits per second, 6000..510000; false (unchanged) outside.
  bool SetBitrate(int bitsPerSecond) noexcept;
  int Bitrate() const noexcept { return bitrate_; }
  /// The loss the in-band FEC is sized for, 0..100 %; false (unchanged) outside.
  bool SetExpectedPacketLoss(int percent) noexcept;
  int ExpectedPacketLoss() const noexcept { return lossPercent_; }

  /// Encodes one frame into `out`; returns the packet's size, or a negative libopus error.
  int Encode(ConstPcmFrame pcm, std::span<uint8_t> out) noexcept;

  /// The raw libopus state (benchmarks compare against it).
  OpusEncoder* Raw() noexcept { return encoder_; }

 private:
  OpusEncoder* encoder_ = nullptr;
  int bitrate_;
  int lossPercent_;
};

class OpusFrameDecoder {
 public:
  /// Throws std::runtime_error when libopus cannot create the decoder.
  OpusFrameDecoder();
  ~OpusFrameDecoder();
  OpusFrameDecoder(const OpusFrameDecoder&) = delete;
  OpusFrameDecoder& operator=(const OpusFrameDecoder&) = delete;

  /// Decodes one packet; returns samples per channel (960) or a negative libopus error. A packet longer
  /// than 20 ms does not fit and fails.
  int Decode(std::span<const uint8_t> packet, PcmFrame pcm) noexcept;
  /// Rebuilds the frame before `nextPacket` from its in-band FEC data (plain concealment when it has none).
  int DecodeFec(std::span<const uint8_t> nextPacket, PcmFrame pcm) noexcept;
  /// Conceals a missing frame (packet loss concealment).
  int Conceal(PcmFrame pcm) noexcept;
  /// Forgets the stream (a new talk spurt after a long silence).
  void Reset() noexcept;

  OpusDecoder* Raw() noexcept { return decoder_; }

 private:
  OpusDecoder* decoder_ = nullptr;
};

}  // namespace platformpp::voice
