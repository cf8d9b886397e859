#pragma once
// The platform's timestamps (ISO 8601, as messages, entitlements and subscriptions carry them) as
// milliseconds since the Unix epoch, both ways.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::json {

/// ISO 8601 with a date, a time, optional fraction and a `Z` or `+hh:mm` offset -> ms since the epoch.
/// Empty for anything else, and for instants before 1970.
std::optional<uint64_t> ParseTimestampMs(std::string_view text);

/// "YYYY-MM-DDTHH:MM:SS.mmm+00:00", the form the platform writes.
std::string FormatTimestampMs(uint64_t ms);

}  // namespace platformpp::json
