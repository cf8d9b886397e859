// Thin helpers over RapidJSON shared by the emulator's handlers.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

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

inline void write_string(JsonWriter& writer, std::string_view value) {
  writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

}  // namespace platformpp::emulator
