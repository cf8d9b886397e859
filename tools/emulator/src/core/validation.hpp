// Field rules for admin-created users and applications. Each check returns the issue to report, if any.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/api_error.hpp"

namespace platformpp::emulator {

inline constexpr std::size_t kUsernameMin = 2, kUsernameMax = 32;
inline constexpr std::size_t kGlobalNameMin = 1, kGlobalNameMax = 32;
inline constexpr std::size_t kAppNameMin = 1, kAppNameMax = 100;

// Number of Unicode code points in valid UTF-8 text.
std::size_t utf8_length(std::string_view text) noexcept;

// 2-32 characters of [a-z0-9_.] without "..".
std::optional<FieldIssue> check_username(std::string_view username);
// 1-32 characters.
std::optional<FieldIssue> check_global_name(std::string_view global_name);
// 1-100 characters.
std::optional<FieldIssue> check_app_name(std::string_view name);

FieldIssue length_issue(std::size_t min, std::size_t max);

// Bits (permissions, flags) as the wire writes them: one or more decimal digits, nothing else, at most 2^64
// - 1.
std::optional<std::uint64_t> decimal_bits(std::string_view text) noexcept;

}  // namespace platformpp::emulator
