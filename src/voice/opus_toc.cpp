#include "voice/opus_toc.hpp"

namespace platformpp::voice {

namespace {

// Reads a frame length (RFC 6716 section 3.2.1): one byte below 252, else two bytes, 4 * second + first.
bool ReadFrameLength(std::span<const uint8_t> packet, std::size_t& at, std::size_t& length) noexcept {
  if (at >= packet.size()) return false;
  const uint8_t first = packet[at++];
  if (first < 252) {
    length = first;
    return true;
  }
  if (at >= packet.size()) return false;
  length = std::size_t{packet[at++]} * 4 + first;
  return true;
}

}  // namespace

uint32_t OpusConfigFrameSamples48k(uint8_t config) noexcept {
  config &= 0x1F;
  if (config < 12) {  // SILK: 10, 20, 40, 60 ms
    constexpr uint32_t kSilk[] = {480, 960, 1920, 2880};
    return kSilk[config % 4];
  }
  if (config < 16) return (config % 2) == 0 ? 480 : 960;  // Hybrid: 10, 20 ms
  constexpr uint32_t kCelt[] = {120, 240, 480, 960};      // CELT: 2.5, 5, 10, 20 ms
  return kCelt[config % 4];
}

std::optional<OpusToc> ParseOpusToc(std::span<const uint8_t> packet) noexcept {
  if (packet.empty()) return std::nullopt;  // [R1]
  OpusToc toc;
  const uint8_t byte = packet[0];
  toc.config = byte >> 3;
  toc.stereo = (byte & 0x04) != 0;
  toc.code = byte & 0x03;
  if (toc.config < 12) {
    toc.mode = OpusMode::Silk;
    toc.bandwidth = static_cast<OpusBandwidth>(toc.config / 4);  // NB, MB, WB
  } else if (toc.config < 16) {
    toc.mode = OpusMode::Hybrid;
    toc.bandwidth = toc.config < 14 ? OpusBandwidth::SuperWide : OpusBandwidth::Full;
  } else {
    toc.mode = OpusMode::Celt;
    constexpr OpusBandwidth kCelt[] = {OpusBandwidth::Narrow, OpusBandwidth::Wide, OpusBandwidth::SuperWide,
                                       OpusBandwidth::Full};
    toc.bandwidth = kCelt[(toc.config - 16) / 4];
  }
  toc.frameSamples48k = OpusConfigFrameSamples48k(toc.config);
  const std::size_t rest = packet.size() - 1;

  switch (toc.code) {
    case 0:
      if (rest > kOpusMaxFrameBytes) return std::nullopt;  // [R2]
      toc.frameCount = 1;
      break;
    case 1:
      if (rest % 2 != 0 || rest / 2 > kOpusMaxFrameBytes) return std::nullopt;  // [R3]
      toc.frameCount = 2;
      toc.vbr = false;
      break;
    case 2: {
      std::size_t at = 1, first = 0;
      if (!ReadFrameLength(packet, at, first)) return std::nullopt;  // [R4]
      const std::size_t left = packet.size() - at;
      if (first > left || first > kOpusMaxFrameBytes || left - first > kOpusMaxFrameBytes)
        return std::nullopt;
      toc.frameCount = 2;
      toc.vbr = true;
      break;
    }
    default: {
      if (packet.size() < 2) return std::nullopt;  // [R6]/[R7]: the frame count byte is required
      const uint8_t countByte = packet[1];
      toc.vbr = (countByte & 0x80) != 0;
      const bool padded = (countByte & 0x40) != 0;
      toc.frameCount = countByte & 0x3F;
      if (toc.frameCount == 0) return std::nullopt;  // [R5]
      if (uint32_t{toc.frameCount} * toc.frameSamples48k > kOpusMaxPacketSamples48k) return std::nullopt;
      std::size_t at = 2;
      if (padded) {
        for (;;) {
          if (at >= packet.size()) return std::nullopt;
          const uint8_t value = packet[at++];
          // 255 means 254 bytes of padding and another length byte follows.
          toc.padding += value == 255 ? 254 : value;
          if (value != 255) break;
        }
      }
      if (toc.padding > packet.size() - at) return std::nullopt;
      std::size_t left = packet.size() - at - toc.padding;
      if (toc.vbr) {
        std::size_t total = 0;
        for (unsigned i = 0; i + 1 < toc.frameCount; ++i) {
          std::size_t length = 0;
          if (!ReadFrameLength(packet, at, length)) return std::nullopt;
          if (length > kOpusMaxFrameBytes) return std::nullopt;
          total += length;
        }
        if (at + toc.padding > packet.size()) return std::nullopt;  // the length bytes ate into the padding
        left = packet.size() - at - toc.padding;
        if (total > left || left - total > kOpusMaxFrameBytes) return std::nullopt;  // [R7]
      } else {
        if (left % toc.frameCount != 0 || left / toc.frameCount > kOpusMaxFrameBytes)
          return std::nullopt;  // [R6]
      }
      break;
    }
  }
  toc.durationSamples48k = uint32_t{toc.frameCount} * toc.frameSamples48k;
  return toc;
}

}  // namespace platformpp::voice
