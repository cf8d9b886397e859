// The voice transport's packet formats without sockets: RTP headers (the clear part the rtpsize modes
// authenticate, CSRCs, the extension preamble, RTCP and runts dropped) and UDP IP discovery.
#include "media_wire/ip_discovery.hpp"
#include "media_wire/rtp_packet.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace voice_packets_test {

namespace media_wire = platformpp::media_wire;

TEST_CASE("an Opus RTP header is written big-endian and read back") {
  std::array<uint8_t, media_wire::kRtpFixedHeaderSize> header{};
  media_wire::WriteRtpHeader(0x1234, 0x89ABCDEF, 0x01020304, header);
  CHECK(header ==
        std::array<uint8_t, 12>{0x80, 0x78, 0x12, 0x34, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x02, 0x03, 0x04});
  auto parsed = media_wire::ParseRtpHeader(header);
  REQUIRE(parsed);
  CHECK(parsed->sequence == 0x1234);
  CHECK(parsed->timestamp == 0x89ABCDEF);
  CHECK(parsed->ssrc == 0x01020304);
  CHECK(parsed->payloadType == media_wire::kOpusPayloadType);
  CHECK_FALSE(parsed->marker);
  CHECK(parsed->clearSize == 12);
  CHECK(parsed->extensionBodySize == 0);
}

TEST_CASE("the clear part covers the CSRCs and the extension preamble, not the extension body") {
  // Version 2, X set, CC 2; then 2 CSRCs, the preamble 0xBEDE with 3 words, then (encrypted) body.
  std::vector<uint8_t> packet = {0x92, 0x78, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3};
  packet.insert(packet.end(), 8, 0xAA);                   // CSRCs
  packet.insert(packet.end(), {0xBE, 0xDE, 0x00, 0x03});  // preamble
  packet.insert(packet.end(), 12, 0x55);                  // the extension body, encrypted in practice
  auto parsed = media_wire::ParseRtpHeader(packet);
  REQUIRE(parsed);
  CHECK(parsed->clearSize == 12 + 8 + 4);
  CHECK(parsed->extensionBodySize == 12);
  // One byte short of the preamble: a runt.
  packet.resize(12 + 8 + 3);
  CHECK_FALSE(media_wire::ParseRtpHeader(packet));
  // One byte short of the CSRCs without an extension: a runt too.
  std::vector<uint8_t> csrcs = {0x82, 0x78, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0};
  CHECK_FALSE(media_wire::ParseRtpHeader(csrcs));
  csrcs.push_back(2);
  CHECK(media_wire::ParseRtpHeader(csrcs));
}

TEST_CASE("runts, other versions and RTCP are dropped") {
  std::array<uint8_t, media_wire::kRtpFixedHeaderSize> header{};
  media_wire::WriteRtpHeader(1, 960, 7, header);
  CHECK_FALSE(media_wire::ParseRtpHeader(std::span<const uint8_t>(header.data(), 11)));
  CHECK(media_wire::ParseRtpHeader(std::span<const uint8_t>(header.data(), 12)));
  auto v1 = header;
  v1[0] = 0x40;
  CHECK_FALSE(media_wire::ParseRtpHeader(v1));
  for (uint8_t type = 71; type <= 77; ++type) {
    for (uint8_t marker : {uint8_t{0}, uint8_t{0x80}}) {
      auto rtcp = header;
      rtcp[1] = static_cast<uint8_t>(marker | type);
      const bool isRtcp = type >= 72 && type <= 76;
      CHECK(media_wire::IsRtcp(rtcp) == isRtcp);
      CHECK(media_wire::ParseRtpHeader(rtcp).has_value() == !isRtcp);
    }
  }
}

TEST_CASE("IP discovery: the request's layout, and only our own well-formed answer is taken") {
  auto request = media_wire::IpDiscoveryRequest(0xA1B2C3D4);
  CHECK(request.size() == 74);
  CHECK(request[0] == 0);
  CHECK(request[1] == 1);
  CHECK(request[2] == 0);
  CHECK(request[3] == 70);
  CHECK(request[4] == 0xA1);
  CHECK(request[7] == 0xD4);
  for (std::size_t i = 8; i < 74; ++i)
    CHECK(request[i] == 0);

  auto answer = request;
  answer[1] = 2;
  std::memcpy(answer.data() + 8, "203.0.113.7", 11);
  answer[72] = 0xC3;
  answer[73] = 0x50;  // 50000
  auto found = media_wire::ParseIpDiscoveryResponse(answer, 0xA1B2C3D4);
  REQUIRE(found);
  CHECK(found->address == "203.0.113.7");
  CHECK(found->port == 50000);

  CHECK_FALSE(media_wire::ParseIpDiscoveryResponse(answer, 0xA1B2C3D5));   // someone else's
  CHECK_FALSE(media_wire::ParseIpDiscoveryResponse(request, 0xA1B2C3D4));  // type 1
  CHECK_FALSE(media_wire::ParseIpDiscoveryResponse(std::span<const uint8_t>(answer.data(), 73), 0xA1B2C3D4));
  auto noNul = answer;
  std::memset(noNul.data() + 8, '9', 64);  // fills up to the port: no terminator
  CHECK_FALSE(media_wire::ParseIpDiscoveryResponse(noNul, 0xA1B2C3D4));
  auto longest = answer;
  std::memset(longest.data() + 8, '9', 63);  // 63 characters and the NUL right before the port
  longest[71] = 0;
  CHECK(media_wire::ParseIpDiscoveryResponse(longest, 0xA1B2C3D4));
  auto empty = answer;
  std::memset(empty.data() + 8, 0, 64);
  CHECK_FALSE(media_wire::ParseIpDiscoveryResponse(empty, 0xA1B2C3D4));
  auto control = answer;
  control[9] = '\n';
  CHECK_FALSE(media_wire::ParseIpDiscoveryResponse(control, 0xA1B2C3D4));
}

}  // namespace voice_packets_test
