#pragma once
// UDP IP discovery with the voice server (docs/voice-protocol.md, "IP discovery"), big-endian: the request is
// 74 bytes, `u16 type=1 | u16 length=70 | u32 ssrc | 64 zero bytes | u16 port=0`; the answer has type 2, the
// client's external address as a NUL-terminated string from offset 8, and its port in the last 2 bytes.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace platformpp::media_wire {

inline constexpr std::size_t kIpDiscoverySize = 74;

std::array<uint8_t, kIpDiscoverySize> IpDiscoveryRequest(uint32_t ssrc) noexcept;

struct DiscoveredAddress {
  std::string address;
  uint16_t port = 0;
};

/// The answer to our request for `ssrc`; nullopt for anything else (wrong size, type, length or ssrc, an
/// address that is empty, not NUL-terminated within the packet, or not printable).
std::optional<DiscoveredAddress> ParseIpDiscoveryResponse(std::span<const uint8_t> packet, uint32_t ssrc);

}  // namespace platformpp::media_wire
