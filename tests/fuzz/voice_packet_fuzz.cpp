// Voice transport packets from the network: RTP headers (media and RTCP) and IP discovery answers. Whatever
// parses must describe bytes that lie inside the packet.
#include "media_wire/ip_discovery.hpp"
#include "media_wire/rtp_packet.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> packet(data, size);
  (void)platformpp::media_wire::IsRtcp(packet);
  if (auto header = platformpp::media_wire::ParseRtpHeader(packet)) {
    if (header->clearSize > size || header->clearSize < platformpp::media_wire::kRtpFixedHeaderSize)
      __builtin_trap();
    if (platformpp::media_wire::IsRtcp(packet)) __builtin_trap();
  }
  uint32_t ssrc = size >= 8
                      ? (static_cast<uint32_t>(data[4]) << 24) | (static_cast<uint32_t>(data[5]) << 16) |
                            (static_cast<uint32_t>(data[6]) << 8) | data[7]
                      : 0;
  if (auto found = platformpp::media_wire::ParseIpDiscoveryResponse(packet, ssrc)) {
    if (found->address.empty() || found->address.size() > 63) __builtin_trap();
  }
  return 0;
}
