#pragma once
// RapidJSON, set up the one way the SDK parses network input: iteratively (no recursion, so no stack overflow
// on deeply nested input), with typed lookups that never assert.

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::json {

using Value = rapidjson::Value;
using Document = rapidjson::Document;

/// Parses `text`; on failure returns false and sets `error` to a short description with the offset.
bool Parse(std::string_view text, Document& document, std::string* error = nullptr);

const Value* Member(const Value& object, std::string_view name) noexcept;
std::optional<std::string_view> GetString(const Value& object, std::string_view name) noexcept;
std::optional<int64_t> GetInt(const Value& object, std::string_view name) noexcept;
std::optional<double> GetNumber(const Value& object, std::string_view name) noexcept;
std::optional<bool> GetBool(const Value& object, std::string_view name) noexcept;
/// Snowflakes are strings on the wire; numbers are accepted too. Empty when absent or not a valid u64.
std::optional<uint64_t> GetSnowflake(const Value& object, std::string_view name) noexcept;

std::string Serialize(const Value& value);

}  // namespace platformpp::json
