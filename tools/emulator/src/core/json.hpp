// Thin helpers over RapidJSON shared by the emulator's handlers.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <optional>
#include <string>
#include <string_view>

namespace platformpp::emulator {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// Serializes whatever `write` emits into a compact JSON string.
template <class WriteFn>
std::string to_json(WriteFn&& write) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  write(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// Parses untrusted text. Iterative (no recursion, so deep nesting cannot overflow the stack) and validates
// UTF-8. Returns false on any syntax error or trailing garbage.
[[nodiscard]] bool parse_json(std::string_view text, rapidjson::Document& document);

// parse_json for text the emulator stored or made itself (a message's embeds, a command's options, an
// answer it wrote): the same exact numbers, so that what it writes again is what it stored. Text that does
// not parse leaves `document` null, which the caller's type checks refuse.
void parse_stored_json(std::string_view text, rapidjson::Document& document);

// A JSON string of `value`. Text that is not valid UTF-8 (a percent-decoded query parameter's name echoed in
// an error, say) would make the whole answer invalid JSON: each byte of an invalid sequence is written as
// U+FFFD.
void write_string(JsonWriter& writer, std::string_view value);

// null, or the string.
inline void write_optional_string(JsonWriter& writer, const std::optional<std::string>& value) {
  if (value) {
    write_string(writer, *value);
  } else {
    writer.Null();
  }
}

// JSON text made elsewhere (what another to_json returned), unchanged, as the next value: an object when
// `type` is rapidjson::kObjectType, an array for kArrayType.
inline void write_raw(JsonWriter& writer, std::string_view json, rapidjson::Type type) {
  writer.RawValue(json.data(), json.size(), type);
}

// The compact JSON text of a value.
std::string json_text(const rapidjson::Value& value);

}  // namespace platformpp::emulator
