#include "core/validation.hpp"

#include <algorithm>
#include <charconv>

namespace platformpp::emulator {

std::size_t utf8_length(std::string_view text) noexcept {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

FieldIssue length_issue(std::size_t min, std::size_t max) {
  return {"BASE_TYPE_BAD_LENGTH",
          "Must be between " + std::to_string(min) + " and " + std::to_string(max) + " in length."};
}

std::optional<FieldIssue> check_username(std::string_view username) {
  if (username.size() < kUsernameMin || username.size() > kUsernameMax) {
    return length_issue(kUsernameMin, kUsernameMax);
  }
  const bool allowed = std::all_of(username.begin(), username.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  });
  if (!allowed || username.find("..") != std::string_view::npos) {
    return FieldIssue{
        "USERNAME_INVALID_CHARACTERS",
        "Username can only contain lowercase letters a-z, numbers, underscores and single periods."};
  }
  return std::nullopt;
}

std::optional<FieldIssue> check_global_name(std::string_view global_name) {
  const auto length = utf8_length(global_name);
  if (length < kGlobalNameMin || length > kGlobalNameMax) return length_issue(kGlobalNameMin, kGlobalNameMax);
  return std::nullopt;
}

std::optional<FieldIssue> check_app_name(std::string_view name) {
  const auto length = utf8_length(name);
  if (length < kAppNameMin || length > kAppNameMax) return length_issue(kAppNameMin, kAppNameMax);
  return std::nullopt;
}

std::optional<std::uint64_t> decimal_bits(std::string_view text) noexcept {
  std::uint64_t bits = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bits);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return bits;
}

}  // namespace platformpp::emulator
