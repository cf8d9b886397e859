// Opus packets from the network (after transport and end-to-end decryption): the TOC parser must stay inside
// the packet and only accept what the framing rules of RFC 6716 section 3 allow.
#include "voice/opus_toc.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto toc = platformpp::voice::ParseOpusToc(std::span<const uint8_t>(data, size));
  if (!toc) return 0;
  if (size == 0 || toc->config != (data[0] >> 3) || toc->code != (data[0] & 3)) __builtin_trap();
  if (toc->frameCount == 0 || toc->durationSamples48k > platformpp::voice::kOpusMaxPacketSamples48k)
    __builtin_trap();
  if (toc->durationSamples48k != toc->frameCount * toc->frameSamples48k) __builtin_trap();
  if (toc->padding > size) __builtin_trap();
  return 0;
}
