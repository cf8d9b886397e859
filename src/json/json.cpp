#include "json/json.hpp"

#include <charconv>

#include "json_wire/exact_numbers.hpp"

namespace platformpp::json {

namespace {

bool Report(const rapidjson::ParseResult& result, std::string* error) {
  if (!result.IsError()) return true;
  if (error)
    *error = std::string(rapidjson::GetParseError_En(result.Code())) + " at offset " +
             std::to_string(result.Offset());
  return false;
}

}  // namespace

bool Parse(std::string_view text, Document& document, std::string* error) {
  // Iterative: nesting depth costs heap, not stack. Trailing garbage after the value is an error. Numbers
  // exactly: an integer as itself, any other as the nearest double (json_wire/exact_numbers.hpp).
  return Report(json_wire::ParseExact(text, document, /*validateUtf8=*/false), error);
}

bool ParseInsitu(char* text, Document& document, std::string* error) {
  rapidjson::InsituStringStream stream(text);
  return Report(
      json_wire::ParseExact<rapidjson::kParseIterativeFlag | rapidjson::kParseInsituFlag>(stream, document),
      error);
}

const Value* Member(const Value& object, std::string_view name) noexcept {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(rapidjson::StringRef(name.data(), name.size()));
  return it == object.MemberEnd() ? nullptr : &it->value;
}

const Value* ObjectMember(const Value& object, std::string_view name) noexcept {
  const Value* v = Member(object, name);
  return v && v->IsObject() ? v : nullptr;
}

const Value* ArrayMember(const Value& object, std::string_view name) noexcept {
  const Value* v = Member(object, name);
  return v && v->IsArray() ? v : nullptr;
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

std::optional<int32_t> GetInt32(const Value& object, std::string_view name) noexcept {
  const Value* v = Member(object, name);
  if (!v || !v->IsInt()) return std::nullopt;
  return v->GetInt();
}

std::string GetText(const Value& object, std::string_view name) {
  return std::string(GetString(object, name).value_or(""));
}

std::optional<std::string> GetOptionalText(const Value& object, std::string_view name) {
  if (auto text = GetString(object, name)) return std::string(*text);
  return std::nullopt;
}

std::optional<uint64_t> AsSnowflake(const Value& value) noexcept {
  if (value.IsUint64()) return value.GetUint64();
  if (!value.IsString() || value.GetStringLength() == 0) return std::nullopt;
  uint64_t out = 0;
  const char* begin = value.GetString();
  const char* end = begin + value.GetStringLength();
  auto [ptr, ec] = std::from_chars(begin, end, out);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return out;
}

std::optional<uint64_t> GetSnowflake(const Value& object, std::string_view name) noexcept {
  const Value* v = Member(object, name);
  if (!v) return std::nullopt;
  return AsSnowflake(*v);
}

Value StringValue(std::string_view text, Document::AllocatorType& allocator) {
  return Value(text.data(), static_cast<rapidjson::SizeType>(text.size()), allocator);
}

void AddTextOrNull(Document& object, const char* name, const std::string& text) {
  auto& a = object.GetAllocator();
  if (text.empty()) {
    object.AddMember(Value(name, a), Value(rapidjson::kNullType), a);
  } else {
    object.AddMember(Value(name, a), StringValue(text, a), a);
  }
}

Value SnowflakeArray(const std::vector<uint64_t>& ids, Document::AllocatorType& allocator) {
  Value array(rapidjson::kArrayType);
  for (uint64_t id : ids)
    array.PushBack(StringValue(std::to_string(id), allocator), allocator);
  return array;
}

std::string Serialize(const Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace platformpp::json
