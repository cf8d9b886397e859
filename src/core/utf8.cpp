#include "core/utf8.hpp"

#include <cstdint>

namespace platformpp::core {

std::optional<std::size_t> CountCodePoints(std::string_view text) noexcept {
  std::size_t count = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length;
    uint32_t cp;
    if (byte < 0x80) {
      ++i;
      ++count;
      continue;
    } else if ((byte & 0xE0) == 0xC0) {
      length = 2;
      cp = byte & 0x1F;
    } else if ((byte & 0xF0) == 0xE0) {
      length = 3;
      cp = byte & 0x0F;
    } else if ((byte & 0xF8) == 0xF0) {
      length = 4;
      cp = byte & 0x07;
    } else {
      return std::nullopt;  // a continuation byte first, or 0xF8..0xFF
    }
    if (i + length > text.size()) return std::nullopt;
    for (std::size_t k = 1; k < length; ++k) {
      auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (next & 0x3F);
    }
    static constexpr uint32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMinForLength[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
    i += length;
    ++count;
  }
  return count;
}

std::string_view TrimAsciiSpace(std::string_view text) noexcept {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && space(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && space(text.back()))
    text.remove_suffix(1);
  return text;
}

}  // namespace platformpp::core
