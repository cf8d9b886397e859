// The query-string parameters of the API's list routes (limit, before/after anchors, filters), read with the
// platform's 50035 field issues so that every route words them alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/api_error.hpp"
#include "core/form_encoding.hpp"

namespace platformpp::emulator {

// An integer parameter between `min` and `max`; absent: nullopt. Not a number or out of range: nullopt with
// the issue added under `name`.
std::optional<std::int64_t> query_integer(const FormFields& query, std::string_view name, std::int64_t min,
                                          std::int64_t max, FieldErrors& errors);
// A snowflake parameter (decimal digits that fit 64 bits), canonical (no leading zeros); absent: nullopt.
std::optional<std::string> query_snowflake(const FormFields& query, std::string_view name,
                                           FieldErrors& errors);

}  // namespace platformpp::emulator
