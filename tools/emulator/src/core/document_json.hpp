// Reading and writing the emulator's own state documents (core/state_changes.hpp). Unlike request bodies,
// these were written by the emulator itself, so a missing or mistyped field means a damaged or foreign file:
// the readers throw std::invalid_argument naming the field, and loading stops there.
#pragma once

#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"

namespace platformpp::emulator::document {

// Every document carries "v", its format version, so that a later emulator can read an older one forward.
// Throws std::invalid_argument unless the body's "v" is between 1 and `newest`.
void check_format(const rapidjson::Value& body, std::int64_t newest = 1);
// An object with "v": `version` first, then whatever `write` adds.
template <class WriteFn>
std::string document_json(WriteFn&& write, std::int64_t version = 1) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("v");
    writer.Int64(version);
    write(writer);
    writer.EndObject();
  });
}

// Required members.
[[nodiscard]] std::string string(const rapidjson::Value& object, const char* name);
[[nodiscard]] std::int64_t integer(const rapidjson::Value& object, const char* name);
[[nodiscard]] bool boolean(const rapidjson::Value& object, const char* name);
[[nodiscard]] const rapidjson::Value& object(const rapidjson::Value& object, const char* name);
[[nodiscard]] const rapidjson::Value& array(const rapidjson::Value& object, const char* name);

// Optional members: absent or null give nullopt (or the fallback); present with another type throws.
[[nodiscard]] std::optional<std::string> optional_string(const rapidjson::Value& object, const char* name);
[[nodiscard]] std::optional<std::int64_t> optional_integer(const rapidjson::Value& object, const char* name);
[[nodiscard]] bool boolean_or(const rapidjson::Value& object, const char* name, bool fallback);
[[nodiscard]] std::int64_t integer_or(const rapidjson::Value& object, const char* name,
                                      std::int64_t fallback);
// Arrays of strings and string-to-string objects; absent gives an empty one.
[[nodiscard]] std::vector<std::string> strings(const rapidjson::Value& object, const char* name);
[[nodiscard]] std::map<std::string, std::string> string_map(const rapidjson::Value& object, const char* name);
// An element of an array that must be a string.
[[nodiscard]] std::string string_value(const rapidjson::Value& value, const char* what);

// A composite id, "a:b:c", split at its first `parts - 1` colons (the last part may hold colons). Throws
// std::invalid_argument when it has fewer.
[[nodiscard]] std::vector<std::string> split_id(const std::string& id, std::size_t parts);
// The keys of a map by id: a document kind's ids.
template <class Map>
std::vector<std::string> keys_of(const Map& map) {
  std::vector<std::string> ids;
  ids.reserve(map.size());
  for (const auto& entry : map)
    ids.push_back(entry.first);
  return ids;
}

// Writers for the same shapes (members are written only when set, so documents stay small).
void write_member(JsonWriter& writer, std::string_view name, std::string_view value);
void write_member(JsonWriter& writer, std::string_view name, const std::optional<std::string>& value);
void write_member(JsonWriter& writer, std::string_view name, std::int64_t value);
void write_member(JsonWriter& writer, std::string_view name, const std::optional<std::int64_t>& value);
void write_member(JsonWriter& writer, std::string_view name, bool value);
void write_member(JsonWriter& writer, std::string_view name, const std::vector<std::string>& values);
void write_member(JsonWriter& writer, std::string_view name,
                  const std::map<std::string, std::string>& values);
// Without these, an int or a string literal would be ambiguous or pick the bool overload.
inline void write_member(JsonWriter& writer, std::string_view name, int value) {
  write_member(writer, name, std::int64_t{value});
}
inline void write_member(JsonWriter& writer, std::string_view name, const std::string& value) {
  write_member(writer, name, std::string_view(value));
}
inline void write_member(JsonWriter& writer, std::string_view name, const char* value) {
  write_member(writer, name, std::string_view(value));
}

}  // namespace platformpp::emulator::document
