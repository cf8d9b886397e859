#include "media_wire/rtp_packet.hpp"

namespace platformpp::media_wire {

namespace {

uint16_t ReadU16(std::span<const uint8_t> in, std::size_t at) noexcept {
  return static_cast<uint16_t>((in[at] << 8) | in[at + 1]);
}

uint32_t ReadU32(std::span<const uint8_t> in, std::size_t at) noexcept {
  return (static_cast<uint32_t>(in[at]) << 24) | (static_cast<uint32_t>(in[at + 1]) << 16) |
         (static_cast<uint32_t>(in[at + 2]) << 8) | static_cast<uint32_t>(in[at + 3]);
}

}  // namespace

bool IsRtcp(std::span<const uint8_t> packet) noexcept {
  if (packet.size() < 2) return false;
  const uint8_t type = packet[1] & 0x7F;
  return type >= 72 && type <= 76;
}

std::optional<RtpHeader> ParseRtpHeader(std::span<const uint8_t> packet) noexcept {
  if (packet.size() < kRtpFixedHeaderSize) return std::nullopt;
  if ((packet[0] >> 6) != 2 || IsRtcp(packet)) return std::nullopt;
  RtpHeader header;
  const std::size_t csrcCount = packet[0] & 0x0F;
  const bool extension = (packet[0] & 0x10) != 0;
  header.marker = (packet[1] & 0x80) != 0;
  header.payloadType = packet[1] & 0x7F;
  header.sequence = ReadU16(packet, 2);
  header.timestamp = ReadU32(packet, 4);
  header.ssrc = ReadU32(packet, 8);
  header.clearSize = kRtpFixedHeaderSize + 4 * csrcCount;
  if (extension) {
    if (packet.size() < header.clearSize + 4) return std::nullopt;
    // The preamble (profile 0xBEDE, length in 32-bit words) stays clear; the body is encrypted.
    header.extensionBodySize = std::size_t{ReadU16(packet, header.clearSize + 2)} * 4;
    header.clearSize += 4;
  }
  if (packet.size() < header.clearSize) return std::nullopt;
  return header;
}

void WriteRtpHeader(uint16_t sequence, uint32_t timestamp, uint32_t ssrc,
                    std::span<uint8_t, kRtpFixedHeaderSize> out) noexcept {
  out[0] = kRtpVersionFlags;
  out[1] = kOpusPayloadType;
  out[2] = static_cast<uint8_t>(sequence >> 8);
  out[3] = static_cast<uint8_t>(sequence);
  for (int i = 0; i < 4; ++i) {
    out[4 + static_cast<std::size_t>(i)] = static_cast<uint8_t>(timestamp >> (24 - 8 * i));
    out[8 + static_cast<std::size_t>(i)] = static_cast<uint8_t>(ssrc >> (24 - 8 * i));
  }
}

}  // namespace platformpp::media_wire
