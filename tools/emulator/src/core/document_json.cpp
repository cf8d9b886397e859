#include "core/document_json.hpp"

#include <stdexcept>

namespace platformpp::emulator::document {

namespace {

const rapidjson::Value* member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) throw std::invalid_argument("not an object");
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return nullptr;
  return &it->value;
}

const rapidjson::Value& required(const rapidjson::Value& object, const char* name) {
  const auto* value = member(object, name);
  if (value == nullptr) throw std::invalid_argument(std::string("missing \"") + name + "\"");
  return *value;
}

[[noreturn]] void mistyped(const char* name, const char* expected) {
  throw std::invalid_argument(std::string("\"") + name + "\" is not " + expected);
}

std::string string_of(const rapidjson::Value& value, const char* name) {
  if (!value.IsString()) mistyped(name, "a string");
  return {value.GetString(), value.GetStringLength()};
}

std::int64_t integer_of(const rapidjson::Value& value, const char* name) {
  if (!value.IsInt64()) mistyped(name, "an integer");
  return value.GetInt64();
}

void write_name(JsonWriter& writer, std::string_view name) {
  writer.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
}

}  // namespace

void check_format(const rapidjson::Value& body, std::int64_t newest) {
  const auto version = integer(body, "v");
  if (version < 1 || version > newest) {
    throw std::invalid_argument("format version " + std::to_string(version) +
                                " is not one this emulator reads");
  }
}

std::string string(const rapidjson::Value& object, const char* name) {
  return string_of(required(object, name), name);
}

std::int64_t integer(const rapidjson::Value& object, const char* name) {
  return integer_of(required(object, name), name);
}

bool boolean(const rapidjson::Value& object, const char* name) {
  const auto& value = required(object, name);
  if (!value.IsBool()) mistyped(name, "a boolean");
  return value.GetBool();
}

const rapidjson::Value& object(const rapidjson::Value& object, const char* name) {
  const auto& value = required(object, name);
  if (!value.IsObject()) mistyped(name, "an object");
  return value;
}

const rapidjson::Value& array(const rapidjson::Value& object, const char* name) {
  const auto& value = required(object, name);
  if (!value.IsArray()) mistyped(name, "an array");
  return value;
}

std::optional<std::string> optional_string(const rapidjson::Value& object, const char* name) {
  const auto* value = member(object, name);
  if (value == nullptr) return std::nullopt;
  return string_of(*value, name);
}

std::optional<std::int64_t> optional_integer(const rapidjson::Value& object, const char* name) {
  const auto* value = member(object, name);
  if (value == nullptr) return std::nullopt;
  return integer_of(*value, name);
}

bool boolean_or(const rapidjson::Value& object, const char* name, bool fallback) {
  const auto* value = member(object, name);
  if (value == nullptr) return fallback;
  if (!value->IsBool()) mistyped(name, "a boolean");
  return value->GetBool();
}

std::int64_t integer_or(const rapidjson::Value& object, const char* name, std::int64_t fallback) {
  return optional_integer(object, name).value_or(fallback);
}

std::vector<std::string> strings(const rapidjson::Value& object, const char* name) {
  std::vector<std::string> values;
  const auto* value = member(object, name);
  if (value == nullptr) return values;
  if (!value->IsArray()) mistyped(name, "an array");
  values.reserve(value->Size());
  for (const auto& element : value->GetArray())
    values.push_back(string_of(element, name));
  return values;
}

std::map<std::string, std::string> string_map(const rapidjson::Value& object, const char* name) {
  std::map<std::string, std::string> values;
  const auto* value = member(object, name);
  if (value == nullptr) return values;
  if (!value->IsObject()) mistyped(name, "an object");
  for (const auto& entry : value->GetObject()) {
    values.emplace(std::string(entry.name.GetString(), entry.name.GetStringLength()),
                   string_of(entry.value, name));
  }
  return values;
}

std::string string_value(const rapidjson::Value& value, const char* what) {
  return string_of(value, what);
}

void write_member(JsonWriter& writer, std::string_view name, std::string_view value) {
  write_name(writer, name);
  write_string(writer, value);
}

void write_member(JsonWriter& writer, std::string_view name, const std::optional<std::string>& value) {
  if (!value) return;
  write_member(writer, name, std::string_view(*value));
}

void write_member(JsonWriter& writer, std::string_view name, std::int64_t value) {
  write_name(writer, name);
  writer.Int64(value);
}

void write_member(JsonWriter& writer, std::string_view name, const std::optional<std::int64_t>& value) {
  if (!value) return;
  write_member(writer, name, *value);
}

void write_member(JsonWriter& writer, std::string_view name, bool value) {
  write_name(writer, name);
  writer.Bool(value);
}

void write_member(JsonWriter& writer, std::string_view name, const std::vector<std::string>& values) {
  write_name(writer, name);
  writer.StartArray();
  for (const auto& value : values)
    write_string(writer, value);
  writer.EndArray();
}

void write_member(JsonWriter& writer, std::string_view name,
                  const std::map<std::string, std::string>& values) {
  write_name(writer, name);
  writer.StartObject();
  for (const auto& [key, value] : values) {
    write_name(writer, key);
    write_string(writer, value);
  }
  writer.EndObject();
}

std::vector<std::string> split_id(const std::string& id, std::size_t parts) {
  std::vector<std::string> result;
  std::size_t start = 0;
  while (result.size() + 1 < parts) {
    const auto colon = id.find(':', start);
    if (colon == std::string::npos) throw std::invalid_argument("malformed id " + id);
    result.push_back(id.substr(start, colon - start));
    start = colon + 1;
  }
  result.push_back(id.substr(start));
  return result;
}

}  // namespace platformpp::emulator::document
