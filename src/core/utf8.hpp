#pragma once
// UTF-8 as the platform counts text limits: in code points, and only for valid UTF-8; and the trimming the
// platform applies to names before it checks them.

#include <cstddef>
#include <optional>
#include <string_view>

namespace platformpp::core {

/// The number of Unicode code points of `text`; empty when it is not valid UTF-8 (overlong forms,
/// surrogates, code points above U+10FFFF and truncated sequences are invalid).
std::optional<std::size_t> CountCodePoints(std::string_view text) noexcept;

/// `text` without the ASCII white space (space, tab, CR, LF) at either end.
std::string_view TrimAsciiSpace(std::string_view text) noexcept;

}  // namespace platformpp::core
