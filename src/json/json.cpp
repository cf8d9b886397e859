#include "json/json.hpp"

#include <charconv>

namespace platformpp::json {

bool Parse(std::string_view text, Document& document, std::string* error) {
  // Iterative: nesting depth costs heap, not stack. Trailing garbage after the value is an error.
  document.Parse<rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (!document.HasParseError()) return true;
  if (error) {
    *error = std::string(rapidjson::GetParseError_En(document.GetParseError())) + " at offset " +
             std::to_string(document.GetErrorOffset());
  }
  return false;
}

const Value* Member(const Value& object, std::string_view name) noexcept {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(rapidjson::StringRef(name.data(), name.size()));
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::optional<std::string_view> GetString(const Value& object, std::string_view name) noexcept {
  const Value* v = Member(object, name);
  if (!v || !v->IsString()) return std::nullopt;
  return std::string_view(v->GetString(), v->GetStringLength());
}

std::optional<int64_t> GetInt(const Value& object, std::string_view name) noexcept {
  const Value* v = Member(object, name);
  if (!v || !v->IsInt64()) return std::nullopt;
  return v->GetInt64();
}

std::optional<double> GetNumber(const Value& object, std::string_view name) noexcept {
  const Value* v = Member(object, name);
  if (!v || !v->IsNumber()) return std::nullopt;
  return v->GetDouble();
}

std::optional<bool> GetBool(const Value& object, std::string_view name) noexcept {
  const Value* v = Member(object, name);
  if (!v || !v->IsBool()) return std::nullopt;
  return v->GetBool();
}

std::optional<uint64_t> GetSnowflake(const Value& object, std::string_view name) noexcept {
  const Value* v = Member(object, name);
  if (!v) return std::nullopt;
  if (v->IsUint64()) return v->GetUint64();
  if (!v->IsString() || v->GetStringLength() == 0) return std::nullopt;
  uint64_t out = 0;
  const char* begin = v->GetString();
  const char* end = begin + v->GetStringLength();
  auto [ptr, ec] = std::from_chars(begin, end, out);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return out;
}

std::string Serialize(const Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace platformpp::json
