#pragma once
// The outgoing media of one voice session, from a captured frame to the UDP datagram's bytes:
//   int16 stereo 20 ms frame -> TransmitGate -> Opus encode (or the silence frame F8 FF FE)
//   -> FrameEncryptor (not for silence frames) -> RTP header -> media_wire::TransportSealer -> caller's
//   buffer.
// The RTP sequence advances per packet sent; the timestamp advances by 960 per captured frame, sent or not,
// so that it follows the sampling clock across pauses (RFC 3550 section 5.1). No sockets, no threads:
// the caller owns the UDP socket and sends op 5 Speaking on the edges the result reports, before the
// datagram. ProcessFrame never allocates. Not thread-safe.

#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"
#include "voice/frame_transform.hpp"
#include "voice/opus_codec.hpp"
#include "voice/voice_activity.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace platformpp::voice {

struct SendPipelineOptions {
  int bitrate = OpusFrameEncoder::kDefaultBitrate;
  int expectedLossPercent = OpusFrameEncoder::kDefaultExpectedLossPercent;
  /// Random when unset (RFC 3550); tests set them.
  std::optional<uint16_t> initialSequence;
  std::optional<uint32_t> initialTimestamp;
};

class SendPipeline {
 public:
  /// The largest end-to-end frame overhead the pipeline reserves room for.
  static constexpr std::size_t kMaxFrameOverhead = 256;
  /// A datagram is at most this large; the caller's buffer should hold it.
  static constexpr std::size_t kMaxDatagramSize = media_wire::kRtpFixedHeaderSize + kOpusMaxPacketSize +
                                                  kMaxFrameOverhead + media_wire::kTransportOverhead;

  /// `ssrc` from op 2 Ready; `mode` and `key` from op 4 Session Description.
  SendPipeline(uint32_t ssrc, media_wire::TransportMode mode, const media_wire::TransportKey& key,
               SendPipelineOptions options = {});

  struct FrameResult {
    std::size_t size = 0;  // datagram bytes written; 0: nothing to send for this frame
    bool speakingStarted = false;
    bool speakingStopped = false;
    bool silence = false;  // the datagram carries a silence frame
  };
  /// One captured frame (1920 interleaved samples). `datagram` should hold kMaxDatagramSize bytes.
  FrameResult ProcessFrame(ConstPcmFrame pcm, std::span<uint8_t> datagram) noexcept;

  TransmitGate& Gate() noexcept { return gate_; }
  OpusFrameEncoder& Encoder() noexcept { return encoder_; }
  media_wire::TransportSealer& Sealer() noexcept { return sealer_; }
  /// Not owned; null (the default) is pass-through. Its MaxOverhead() must not exceed kMaxFrameOverhead.
  void SetFrameEncryptor(FrameEncryptor* encryptor) noexcept { encryptor_ = encryptor; }

  uint32_t Ssrc() const noexcept { return ssrc_; }
  uint16_t NextSequence() const noexcept { return sequence_; }
  uint32_t NextTimestamp() const noexcept { return timestamp_; }

  struct Counters {
    uint64_t framesCaptured = 0;
    uint64_t framesSent = 0;  // datagrams produced, silence frames included
    uint64_t silenceFramesSent = 0;
    uint64_t bytesSent = 0;  // datagram bytes
    uint64_t encodeErrors = 0;
    uint64_t encryptErrors = 0;  // frames the FrameEncryptor refused
    uint64_t sealErrors = 0;     // the datagram buffer was too small
  };
  const Counters& GetCounters() const noexcept { return counters_; }

 private:
  uint32_t ssrc_;
  uint16_t sequence_;
  uint32_t timestamp_;
  TransmitGate gate_;
  OpusFrameEncoder encoder_;
  media_wire::TransportSealer sealer_;
  FrameEncryptor* encryptor_ = nullptr;
  std::array<uint8_t, kOpusMaxPacketSize> opus_{};
  std::array<uint8_t, media_wire::kRtpFixedHeaderSize + kOpusMaxPacketSize + kMaxFrameOverhead> rtp_{};
  Counters counters_;
};

}  // namespace platformpp::voice
