// The emulator's multipart/form-data reader fed any body and Content-Type: the first line of the input is the
// Content-Type, the rest the body. Nothing may crash or throw; parts read are within the body, and never more
// than asked for.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/multipart_form.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::emulator;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto line_end = input.find('\n');
  const auto content_type = input.substr(0, line_end);
  const auto body = line_end == std::string_view::npos ? std::string_view() : input.substr(line_end + 1);
  const auto boundary = multipart_boundary(content_type);
  if (!boundary) return 0;
  if (boundary->empty() || boundary->size() > 70) __builtin_trap();
  const auto parts = parse_multipart_form(body, *boundary, 8);
  if (!parts) return 0;
  if (parts->size() > 8) __builtin_trap();
  std::size_t total = 0;
  for (const auto& part : *parts)
    total += part.body.size() + part.name.size();
  if (total > body.size()) __builtin_trap();
  return 0;
}
