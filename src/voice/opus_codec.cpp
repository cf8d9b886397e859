#include "voice/opus_codec.hpp"

#include <opus.h>

#include <climits>
#include <stdexcept>

namespace platformpp::voice {

OpusFrameEncoder::OpusFrameEncoder(int bitrate, int expectedLossPercent)
    : bitrate_(kDefaultBitrate), lossPercent_(kDefaultExpectedLossPercent) {
  int error = OPUS_OK;
  encoder_ = opus_encoder_create(kOpusSampleRate, kOpusChannels, OPUS_APPLICATION_VOIP, &error);
  if (error != OPUS_OK || encoder_ == nullptr) throw std::runtime_error("opus_encoder_create failed");
  opus_encoder_ctl(encoder_, OPUS_SET_INBAND_FEC(1));
  opus_encoder_ctl(encoder_, OPUS_SET_DTX(0));
  opus_encoder_ctl(encoder_, OPUS_SET_SIGNAL(OPUS_SIGNAL_VOICE));
  SetBitrate(bitrate);
  SetExpectedPacketLoss(expectedLossPercent);
}

OpusFrameEncoder::~OpusFrameEncoder() {
  opus_encoder_destroy(encoder_);
}

bool OpusFrameEncoder::SetBitrate(int bitsPerSecond) noexcept {
  if (bitsPerSecond < 6000 || bitsPerSecond > 510000) return false;
  if (opus_encoder_ctl(encoder_, OPUS_SET_BITRATE(bitsPerSecond)) != OPUS_OK) return false;
  bitrate_ = bitsPerSecond;
  return true;
}

bool OpusFrameEncoder::SetExpectedPacketLoss(int percent) noexcept {
  if (percent < 0 || percent > 100) return false;
  if (opus_encoder_ctl(encoder_, OPUS_SET_PACKET_LOSS_PERC(percent)) != OPUS_OK) return false;
  lossPercent_ = percent;
  return true;
}

int OpusFrameEncoder::Encode(ConstPcmFrame pcm, std::span<uint8_t> out) noexcept {
  const auto capacity = static_cast<opus_int32>(out.size() > INT_MAX ? INT_MAX : out.size());
  return opus_encode(encoder_, pcm.data(), kOpusFrameSamplesPerChannel, out.data(), capacity);
}

OpusFrameDecoder::OpusFrameDecoder() {
  int error = OPUS_OK;
  decoder_ = opus_decoder_create(kOpusSampleRate, kOpusChannels, &error);
  if (error != OPUS_OK || decoder_ == nullptr) throw std::runtime_error("opus_decoder_create failed");
}

OpusFrameDecoder::~OpusFrameDecoder() {
  opus_decoder_destroy(decoder_);
}

int OpusFrameDecoder::Decode(std::span<const uint8_t> packet, PcmFrame pcm) noexcept {
  if (packet.empty() || packet.size() > INT_MAX) return OPUS_INVALID_PACKET;
  return opus_decode(decoder_, packet.data(), static_cast<opus_int32>(packet.size()), pcm.data(),
                     kOpusFrameSamplesPerChannel, 0);
}

int OpusFrameDecoder::DecodeFec(std::span<const uint8_t> nextPacket, PcmFrame pcm) noexcept {
  if (nextPacket.empty() || nextPacket.size() > INT_MAX) return Conceal(pcm);
  // The frame size must be exactly the missing duration for libopus to use the FEC data.
  return opus_decode(decoder_, nextPacket.data(), static_cast<opus_int32>(nextPacket.size()), pcm.data(),
                     kOpusFrameSamplesPerChannel, 1);
}

int OpusFrameDecoder::Conceal(PcmFrame pcm) noexcept {
  return opus_decode(decoder_, nullptr, 0, pcm.data(), kOpusFrameSamplesPerChannel, 0);
}

void OpusFrameDecoder::Reset() noexcept {
  opus_decoder_ctl(decoder_, OPUS_RESET_STATE);
}

}  // namespace platformpp::voice
