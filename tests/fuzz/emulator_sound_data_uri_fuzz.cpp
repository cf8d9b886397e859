// The emulator's reading of an uploaded file (a data URI: soundboard sounds, emoji images) fed any text.
// Nothing may crash or throw; what it reads is consistent: a media type in lower case without parameters, and
// a decoded size no larger than the base64 text can hold.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/data_uri.hpp"
#include "guild/soundboard.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::emulator;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto sound = parse_data_uri(input);
  if (!sound) return 0;
  if (sound->media_type.empty() || sound->media_type.find(';') != std::string_view::npos) __builtin_trap();
  for (const char c : sound->media_type) {
    if (std::isupper(static_cast<unsigned char>(c))) __builtin_trap();
  }
  const auto comma = input.find(',');
  if (comma == std::string_view::npos || sound->size_bytes > (size - comma - 1) / 4 * 3 + 3) __builtin_trap();
  (void)soundboard_media_type_allowed(sound->media_type);
  return 0;
}
