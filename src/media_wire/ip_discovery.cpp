#include "media_wire/ip_discovery.hpp"

namespace platformpp::media_wire {

namespace {

constexpr uint16_t kRequestType = 1;
constexpr uint16_t kResponseType = 2;
constexpr uint16_t kBodyLength = 70;  // everything after type and length
constexpr std::size_t kAddressOffset = 8;
constexpr std::size_t kPortOffset = kIpDiscoverySize - 2;

}  // namespace

std::array<uint8_t, kIpDiscoverySize> IpDiscoveryRequest(uint32_t ssrc) noexcept {
  std::array<uint8_t, kIpDiscoverySize> out{};
  out[0] = 0;
  out[1] = kRequestType;
  out[2] = 0;
  out[3] = kBodyLength;
  for (std::size_t i = 0; i < 4; ++i)
    out[4 + i] = static_cast<uint8_t>(ssrc >> (24 - 8 * i));
  return out;  // address bytes and port stay zero
}

std::optional<DiscoveredAddress> ParseIpDiscoveryResponse(std::span<const uint8_t> packet, uint32_t ssrc) {
  if (packet.size() != kIpDiscoverySize) return std::nullopt;
  if (((packet[0] << 8) | packet[1]) != kResponseType || ((packet[2] << 8) | packet[3]) != kBodyLength)
    return std::nullopt;
  const uint32_t echoed = (static_cast<uint32_t>(packet[4]) << 24) |
                          (static_cast<uint32_t>(packet[5]) << 16) | (static_cast<uint32_t>(packet[6]) << 8) |
                          static_cast<uint32_t>(packet[7]);
  if (echoed != ssrc) return std::nullopt;
  DiscoveredAddress result;
  std::size_t end = kAddressOffset;
  while (end < kPortOffset && packet[end] != 0) {
    if (packet[end] < 0x21 || packet[end] > 0x7E) return std::nullopt;  // an IP literal is printable ASCII
    ++end;
  }
  if (end == kAddressOffset || end == kPortOffset) return std::nullopt;  // empty, or no NUL before the port
  result.address.assign(packet.begin() + kAddressOffset, packet.begin() + static_cast<std::ptrdiff_t>(end));
  result.port = static_cast<uint16_t>((packet[kPortOffset] << 8) | packet[kPortOffset + 1]);
  return result;
}

}  // namespace platformpp::media_wire
