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
#include <vector>

namespace platformpp::json {

using Value = rapidjson::Value;
using Document = rapidjson::Document;

/// Parses `text`; on failure returns false and sets `error` to a short description with the offset. An
/// integer reads as itself, any other number as the nearest double (json_wire/exact_numbers.hpp).
bool Parse(std::string_view text, Document& document, std::string* error = nullptr);
/// Parse in place: `text`, NUL-terminated, becomes the strings' storage and must outlive the document.
bool ParseInsitu(char* text, Document& document, std::string* error = nullptr);

const Value* Member(const Value& object, std::string_view name) noexcept;
/// The member when it is an object (ObjectMember) or an array (ArrayMember); null otherwise.
const Value* ObjectMember(const Value& object, std::string_view name) noexcept;
const Value* ArrayMember(const Value& object, std::string_view name) noexcept;
std::optional<std::string_view> GetString(const Value& object, std::string_view name) noexcept;
std::optional<int64_t> GetInt(const Value& object, std::string_view name) noexcept;
std::optional<double> GetNumber(const Value& object, std::string_view name) noexcept;
std::optional<bool> GetBool(const Value& object, std::string_view name) noexcept;
/// Snowflakes are strings on the wire; numbers are accepted too. Empty when absent or not a valid u64.
std::optional<uint64_t> GetSnowflake(const Value& object, std::string_view name) noexcept;

/// The member as a 32-bit integer; empty when absent, not an integer or out of range.
std::optional<int32_t> GetInt32(const Value& object, std::string_view name) noexcept;
/// The string member copied out; "" when absent or not a string.
std::string GetText(const Value& object, std::string_view name);
/// The string member copied out; empty when absent or not a string (which "" is not).
std::optional<std::string> GetOptionalText(const Value& object, std::string_view name);
/// A snowflake value itself (a decimal string, or a number); empty when it is neither.
std::optional<uint64_t> AsSnowflake(const Value& value) noexcept;

/// Adds `name`: `text` to `object`, or `name`: null when `text` is empty (a field the platform clears on
/// null).
void AddTextOrNull(Document& object, const char* name, const std::string& text);
/// A string value holding a copy of `text`, made with `allocator`.
Value StringValue(std::string_view text, Document::AllocatorType& allocator);
/// An array of snowflakes as the wire writes them: decimal strings.
Value SnowflakeArray(const std::vector<uint64_t>& ids, Document::AllocatorType& allocator);

std::string Serialize(const Value& value);

}  // namespace platformpp::json
