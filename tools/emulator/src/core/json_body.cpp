#include "core/json_body.hpp"

#include <cmath>

#include "core/validation.hpp"

namespace platformpp::emulator {

bool has_json_content_type(const HttpRequest& request) {
  return request.has_media_type("application/json");
}

std::optional<HttpResponse> read_json_object(const HttpRequest& request, rapidjson::Document& document) {
  if (!has_json_content_type(request)) {
    return error_response(415, error_code::kGeneral,
                          "415: Unsupported Media Type (expected application/json)");
  }
  if (!parse_json(request.body, document)) {
    return error_response(400, error_code::kInvalidJson, "The request body contains invalid JSON.");
  }
  if (!document.IsObject()) {
    FieldErrors errors;
    errors.add({"_root"}, {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"});
    return invalid_form_body(errors);
  }
  return std::nullopt;
}

std::optional<HttpResponse> read_optional_json_object(const HttpRequest& request,
                                                      rapidjson::Document& document) {
  if (request.body.empty()) {
    document.SetObject();
    return std::nullopt;
  }
  return read_json_object(request, document);
}

std::size_t string_characters(const rapidjson::Value& value) {
  return value.IsString() ? utf8_length(value.GetString()) : 0;
}

bool BodyFields::has(const char* name) const {
  const auto it = object_.FindMember(name);
  return it != object_.MemberEnd() && !it->value.IsNull();
}

const rapidjson::Value* BodyFields::value(const char* name, bool required) {
  const auto it = object_.FindMember(name);
  if (it == object_.MemberEnd() || it->value.IsNull()) {
    if (required) add_issue(name, required_field_issue());
    return nullptr;
  }
  return &it->value;
}

std::optional<std::string> BodyFields::string(const char* name, bool required) {
  const auto* member = value(name, required);
  if (member == nullptr) return std::nullopt;
  if (!member->IsString()) {
    add_issue(name, {"BASE_TYPE_STRING", "Must be a string."});
    return std::nullopt;
  }
  return std::string(member->GetString(), member->GetStringLength());
}

std::optional<std::int64_t> BodyFields::integer(const char* name, bool required, std::int64_t min,
                                                std::int64_t max) {
  const auto* member = value(name, required);
  if (member == nullptr) return std::nullopt;
  std::int64_t result = 0;
  if (member->IsInt64()) {
    result = member->GetInt64();
  } else if (member->IsDouble() && std::isfinite(member->GetDouble()) &&
             member->GetDouble() == std::trunc(member->GetDouble()) &&
             std::fabs(member->GetDouble()) < 9.0e15) {
    result = static_cast<std::int64_t>(member->GetDouble());
  } else {
    add_issue(name, {"NUMBER_TYPE_COERCE", "Value is not int."});
    return std::nullopt;
  }
  if (result < min) {
    add_issue(name, {"NUMBER_TYPE_MIN",
                     "int value should be greater than or equal to " + std::to_string(min) + "."});
    return std::nullopt;
  }
  if (result > max) {
    add_issue(name,
              {"NUMBER_TYPE_MAX", "int value should be less than or equal to " + std::to_string(max) + "."});
    return std::nullopt;
  }
  return result;
}

std::optional<double> BodyFields::number(const char* name, bool required, double min) {
  const auto* member = value(name, required);
  if (member == nullptr) return std::nullopt;
  if (!member->IsNumber() || !std::isfinite(member->GetDouble())) {
    add_issue(name, {"NUMBER_TYPE_COERCE", "Value is not a number."});
    return std::nullopt;
  }
  const double result = member->GetDouble();
  if (result < min) {
    add_issue(name,
              {"NUMBER_TYPE_MIN", "Value should be greater than or equal to " + std::to_string(min) + "."});
    return std::nullopt;
  }
  return result;
}

std::optional<bool> BodyFields::boolean(const char* name, bool required) {
  const auto* member = value(name, required);
  if (member == nullptr) return std::nullopt;
  if (!member->IsBool()) {
    add_issue(name, {"BASE_TYPE_BOOLEAN", "Must be either true or false."});
    return std::nullopt;
  }
  return member->GetBool();
}

}  // namespace platformpp::emulator
