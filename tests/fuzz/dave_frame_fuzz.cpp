// DAVE media frames as they arrive from other call members: the trailer parse, and an open attempt with a
// fixed key (any result but a crash or an over-read is fine; a frame that opens must fit its body).
#include "voice/dave/frame.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::voice::dave;
  static FrameCipher cipher;
  static const std::array<uint8_t, kKeySize> key{};
  ParsedFrame parsed;
  if (ParseFrame(std::span<const uint8_t>(data, size), parsed) != FrameError::None) return 0;
  if (parsed.body.size() + parsed.tag.size() > size || parsed.rangeCount > kMaxRanges) __builtin_trap();
  std::vector<uint8_t> out(parsed.body.size());
  const long opened = cipher.Open(key, parsed, out);
  if (opened > static_cast<long>(parsed.body.size())) __builtin_trap();
  return 0;
}
