#include "voice/send_pipeline.hpp"

#include "voice/opus_toc.hpp"

#include <cstring>
#include <random>

namespace platformpp::voice {

namespace {

uint32_t RandomU32() {
  std::random_device device;
  return device();
}

}  // namespace

SendPipeline::SendPipeline(uint32_t ssrc, media_wire::TransportMode mode, const media_wire::TransportKey& key,
                           SendPipelineOptions options)
    : ssrc_(ssrc),
      sequence_(options.initialSequence.value_or(static_cast<uint16_t>(RandomU32()))),
      timestamp_(options.initialTimestamp.value_or(RandomU32())),
      encoder_(options.bitrate, options.expectedLossPercent),
      sealer_(mode, key) {}

SendPipeline::FrameResult SendPipeline::ProcessFrame(ConstPcmFrame pcm,
                                                     std::span<uint8_t> datagram) noexcept {
  FrameResult result;
  ++counters_.framesCaptured;
  const uint32_t timestamp = timestamp_;
  timestamp_ += media_wire::kOpusFrameTimestampStep;
  const TransmitGate::Decision decision = gate_.Process(pcm);
  result.speakingStarted = decision.speakingStarted;
  result.speakingStopped = decision.speakingStopped;
  if (decision.action == TransmitGate::Action::None) return result;

  std::span<uint8_t> payloadOut(rtp_.data() + media_wire::kRtpFixedHeaderSize,
                                rtp_.size() - media_wire::kRtpFixedHeaderSize);
  std::size_t payloadSize = 0;
  if (decision.action == TransmitGate::Action::Silence) {
    // Silence frames are never end-to-end encrypted.
    std::memcpy(payloadOut.data(), kOpusSilenceFrame, sizeof kOpusSilenceFrame);
    payloadSize = sizeof kOpusSilenceFrame;
    result.silence = true;
  } else {
    // Without a transform the encoder writes straight behind the RTP header.
    std::span<uint8_t> encodeOut =
        encryptor_ ? std::span<uint8_t>(opus_) : payloadOut.first(kOpusMaxPacketSize);
    const int encoded = encoder_.Encode(pcm, encodeOut);
    if (encoded <= 0) {
      ++counters_.encodeErrors;
      return result;
    }
    payloadSize = static_cast<std::size_t>(encoded);
    if (encryptor_) {
      payloadSize = encryptor_->Encrypt(ssrc_, encodeOut.first(payloadSize), payloadOut);
      if (payloadSize == 0 || payloadSize > payloadOut.size()) {
        ++counters_.encryptErrors;
        return result;
      }
    }
  }
  media_wire::WriteRtpHeader(
      sequence_, timestamp, ssrc_,
      std::span<uint8_t, media_wire::kRtpFixedHeaderSize>(rtp_.data(), media_wire::kRtpFixedHeaderSize));
  const std::size_t written = sealer_.Seal(
      std::span<const uint8_t>(rtp_.data(), media_wire::kRtpFixedHeaderSize + payloadSize), datagram);
  if (written == 0) {
    ++counters_.sealErrors;
    return result;
  }
  ++sequence_;
  ++counters_.framesSent;
  if (result.silence) ++counters_.silenceFramesSent;
  counters_.bytesSent += written;
  result.size = written;
  return result;
}

}  // namespace platformpp::voice
