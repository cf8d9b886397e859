#pragma once
// RTP as the voice server carries it (docs/voice-protocol.md, "RTP"): `0x80 0x78 | u16 seq | u32 timestamp |
// u32 ssrc`, big-endian, Opus payload. With the rtpsize transport modes ("Transport encryption" there) the
// clear part of a packet (authenticated, not encrypted) is the fixed header, the CSRCs and, when the X bit is
// set, the 4-byte extension preamble; the extension's body is encrypted with the payload and skipped after
// decryption.
// Parsing never reads past the packet and refuses what a receiver must drop: runts, other RTP versions, RTCP.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace platformpp::media_wire {

inline constexpr std::size_t kRtpFixedHeaderSize = 12;
inline constexpr uint8_t kRtpVersionFlags = 0x80;  // version 2, no padding, no extension, no CSRC
inline constexpr uint8_t kOpusPayloadType = 0x78;
inline constexpr uint32_t kOpusFrameTimestampStep = 960;  // 20 ms at 48 kHz

struct RtpHeader {
  uint16_t sequence = 0;
  uint32_t timestamp = 0;
  uint32_t ssrc = 0;
  uint8_t payloadType = 0;
  bool marker = false;
  /// The clear, authenticated part (fixed header + CSRCs + extension preamble): the AEAD's additional data.
  std::size_t clearSize = kRtpFixedHeaderSize;
  /// Bytes of extension body at the start of the decrypted payload, to skip (0 without an extension).
  std::size_t extensionBodySize = 0;
};

/// Payload types 72-76 (marker bit masked) are RTCP, which receivers drop.
bool IsRtcp(std::span<const uint8_t> packet) noexcept;

/// The header of an RTP media packet; nullopt for a runt (shorter than its own header), another version, or
/// RTCP. The extension body's size comes from the preamble and may exceed what follows (it is encrypted;
/// the caller checks it against the decrypted payload).
std::optional<RtpHeader> ParseRtpHeader(std::span<const uint8_t> packet) noexcept;

/// Writes the 12-byte header of an Opus packet (no CSRC, no extension).
void WriteRtpHeader(uint16_t sequence, uint32_t timestamp, uint32_t ssrc,
                    std::span<uint8_t, kRtpFixedHeaderSize> out) noexcept;

}  // namespace platformpp::media_wire
