// The Opus TOC byte and packet framing (RFC 6716 sections 3.1 and 3.2): every configuration's mode, bandwidth
// and frame duration, the four frame count codes, and each framing rule crossed by one byte.
#include "voice/opus_toc.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace opus_toc_test {

using namespace platformpp::voice;

namespace {

std::vector<uint8_t> Packet(uint8_t toc, std::vector<uint8_t> rest) {
  rest.insert(rest.begin(), toc);
  return rest;
}

}  // namespace

TEST_CASE("every Opus configuration has the RFC 6716 mode, bandwidth and frame duration") {
  // Table 2 of RFC 6716, in 48 kHz samples.
  const uint32_t expected[32] = {480,  960, 1920, 2880, 480, 960, 1920, 2880, 480, 960, 1920,
                                 2880, 480, 960,  480,  960, 120, 240,  480,  960, 120, 240,
                                 480,  960, 120,  240,  480, 960, 120,  240,  480, 960};
  for (uint8_t config = 0; config < 32; ++config) {
    CAPTURE(config);
    for (uint8_t stereo = 0; stereo < 2; ++stereo) {
      auto toc = ParseOpusToc(Packet(static_cast<uint8_t>(config << 3 | stereo << 2), {0x11, 0x22}));
      REQUIRE(toc);
      CHECK(toc->config == config);
      CHECK(toc->stereo == (stereo == 1));
      CHECK(toc->code == 0);
      CHECK(toc->frameCount == 1);
      CHECK(toc->frameSamples48k == expected[config]);
      CHECK(toc->durationSamples48k == expected[config]);
      CHECK(toc->mode == (config < 12 ? OpusMode::Silk : config < 16 ? OpusMode::Hybrid : OpusMode::Celt));
    }
  }
  CHECK(ParseOpusToc(Packet(0 << 3, {}))->bandwidth == OpusBandwidth::Narrow);
  CHECK(ParseOpusToc(Packet(4 << 3, {}))->bandwidth == OpusBandwidth::Medium);
  CHECK(ParseOpusToc(Packet(8 << 3, {}))->bandwidth == OpusBandwidth::Wide);
  CHECK(ParseOpusToc(Packet(12 << 3, {}))->bandwidth == OpusBandwidth::SuperWide);
  CHECK(ParseOpusToc(Packet(14 << 3, {}))->bandwidth == OpusBandwidth::Full);
  CHECK(ParseOpusToc(Packet(16 << 3, {}))->bandwidth == OpusBandwidth::Narrow);
  CHECK(ParseOpusToc(Packet(20 << 3, {}))->bandwidth == OpusBandwidth::Wide);
  CHECK(ParseOpusToc(Packet(24 << 3, {}))->bandwidth == OpusBandwidth::SuperWide);
  CHECK(ParseOpusToc(Packet(28 << 3, {}))->bandwidth == OpusBandwidth::Full);
}

TEST_CASE("the silence frame is a 20 ms CELT frame") {
  auto toc = ParseOpusToc(kOpusSilenceFrame);
  REQUIRE(toc);
  CHECK(toc->durationSamples48k == 960);
  CHECK(IsOpusSilenceFrame(kOpusSilenceFrame));
  CHECK_FALSE(IsOpusSilenceFrame(std::vector<uint8_t>{0xF8, 0xFF, 0xFE, 0x00}));
  CHECK_FALSE(IsOpusSilenceFrame(std::vector<uint8_t>{0xF8, 0xFF, 0xFF}));
}

TEST_CASE("code 0: one frame of at most 1275 bytes") {
  CHECK_FALSE(ParseOpusToc(std::vector<uint8_t>{}));
  CHECK(ParseOpusToc(Packet(0xF8, {})));  // an empty frame (DTX) is allowed
  CHECK(ParseOpusToc(Packet(0xF8, std::vector<uint8_t>(1275))));
  CHECK_FALSE(ParseOpusToc(Packet(0xF8, std::vector<uint8_t>(1276))));
}

TEST_CASE("code 1: two frames of equal size") {
  auto toc = ParseOpusToc(Packet(0xF9, std::vector<uint8_t>(10)));
  REQUIRE(toc);
  CHECK(toc->code == 1);
  CHECK(toc->frameCount == 2);
  CHECK(toc->durationSamples48k == 1920);
  CHECK_FALSE(ParseOpusToc(Packet(0xF9, std::vector<uint8_t>(11))));  // odd
  CHECK(ParseOpusToc(Packet(0xF9, std::vector<uint8_t>(2550))));
  CHECK_FALSE(ParseOpusToc(Packet(0xF9, std::vector<uint8_t>(2552))));
}

TEST_CASE("code 2: two frames, the first one's length coded") {
  auto toc = ParseOpusToc(Packet(0xFA, {3, 1, 2, 3, 4, 5}));
  REQUIRE(toc);
  CHECK(toc->code == 2);
  CHECK(toc->frameCount == 2);
  CHECK(toc->vbr);
  CHECK(ParseOpusToc(Packet(0xFA, {5, 1, 2, 3, 4, 5})));        // the second frame empty
  CHECK_FALSE(ParseOpusToc(Packet(0xFA, {6, 1, 2, 3, 4, 5})));  // the first longer than the packet
  CHECK_FALSE(ParseOpusToc(Packet(0xFA, {})));                  // no length byte
  CHECK_FALSE(ParseOpusToc(Packet(0xFA, {252})));               // a two-byte length cut short
  // Two-byte length: 252 + 4 * 1 = 256.
  std::vector<uint8_t> twoByte = {252, 1};
  twoByte.resize(2 + 256);
  CHECK(ParseOpusToc(Packet(0xFA, twoByte)));
  twoByte.resize(2 + 255);
  CHECK_FALSE(ParseOpusToc(Packet(0xFA, twoByte)));
}

TEST_CASE("code 3: M frames, CBR or VBR, with padding, at most 120 ms") {
  // CBR, 3 frames of 4 bytes.
  auto toc = ParseOpusToc(Packet(0xFB, {0x03, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  REQUIRE(toc);
  CHECK(toc->code == 3);
  CHECK(toc->frameCount == 3);
  CHECK_FALSE(toc->vbr);
  CHECK(toc->durationSamples48k == 3 * 960);
  CHECK_FALSE(ParseOpusToc(Packet(0xFB, {0x03, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})));  // 11 bytes / 3
  CHECK_FALSE(ParseOpusToc(Packet(0xFB, {0x00})));                                     // M = 0
  CHECK_FALSE(ParseOpusToc(Packet(0xFB, {})));                                         // no count byte
  // 120 ms: 6 frames of 20 ms pass, 7 do not; 48 frames of 2.5 ms pass, 49 do not.
  CHECK(ParseOpusToc(Packet(0xFB, {0x06})));
  CHECK_FALSE(ParseOpusToc(Packet(0xFB, {0x07})));
  CHECK(ParseOpusToc(Packet(static_cast<uint8_t>(16 << 3 | 3), {48})));
  CHECK_FALSE(ParseOpusToc(Packet(static_cast<uint8_t>(16 << 3 | 3), {49})));
  // Padding: 2 bytes of padding after two 1-byte frames.
  toc = ParseOpusToc(Packet(0xFB, {0x42, 2, 0xA, 0xB, 0, 0}));
  REQUIRE(toc);
  CHECK(toc->padding == 2);
  CHECK_FALSE(ParseOpusToc(Packet(0xFB, {0x42, 2, 0xA, 0, 0})));  // 1 byte left for 2 frames
  CHECK_FALSE(ParseOpusToc(Packet(0xFB, {0x42, 5, 0xA, 0xB})));   // padding beyond the packet
  // A 255 padding byte means 254 and another length byte.
  std::vector<uint8_t> padded = {0x41, 255, 1};
  padded.resize(3 + 255 + 2);
  toc = ParseOpusToc(Packet(0xFB, padded));
  REQUIRE(toc);
  CHECK(toc->padding == 255);
  padded.resize(3 + 255 - 1);
  CHECK_FALSE(ParseOpusToc(Packet(0xFB, padded)));
  // VBR: lengths of all frames but the last.
  toc = ParseOpusToc(Packet(0xFB, {0x83, 1, 2, 0xA, 0xB, 0xC, 0xD}));
  REQUIRE(toc);
  CHECK(toc->vbr);
  CHECK(toc->frameCount == 3);
  CHECK(ParseOpusToc(Packet(0xFB, {0x83, 1, 3, 0xA, 0xB, 0xC, 0xD})));        // the last frame empty
  CHECK_FALSE(ParseOpusToc(Packet(0xFB, {0x83, 1, 4, 0xA, 0xB, 0xC, 0xD})));  // beyond the packet
  CHECK_FALSE(ParseOpusToc(Packet(0xFB, {0x83, 1})));                         // a length missing
  CHECK_FALSE(ParseOpusToc(Packet(0xFB, {0xC3, 1, 1, 1, 0xA, 0xB})));  // frames and padding beyond the packet
}

}  // namespace opus_toc_test
