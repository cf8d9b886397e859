// Reading JSON request bodies: content-type and syntax checks, and typed field access that records
// platform-style field errors (50035) instead of failing on the first problem.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "core/api_error.hpp"
#include "core/http_message.hpp"
#include "core/json.hpp"

namespace platformpp::emulator {

// True if the Content-Type's media type is application/json (parameters such as charset are ignored).
bool has_json_content_type(const HttpRequest& request);

// Parses the body into `document` as a JSON object. On failure returns the error response to send:
// 415 without a JSON content type, 400 code 50109 for invalid JSON, 400 code 50035 if the root is not an
// object.
std::optional<HttpResponse> read_json_object(const HttpRequest& request, rapidjson::Document& document);
// The same for a body that may also be empty (no Content-Type needed): an empty object then.
std::optional<HttpResponse> read_optional_json_object(const HttpRequest& request,
                                                      rapidjson::Document& document);

// The length in characters (code points) of a string value, up to its first NUL; 0 for any other value.
std::size_t string_characters(const rapidjson::Value& value);

// Typed access to an object's members. A member that is absent or null counts as missing.
class BodyFields {
 public:
  BodyFields(const rapidjson::Value& object, FieldErrors& errors) : object_(object), errors_(errors) {}

  [[nodiscard]] bool has(const char* name) const;
  std::optional<std::string> string(const char* name, bool required);
  std::optional<std::int64_t> integer(const char* name, bool required,
                                      std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                                      std::int64_t max = std::numeric_limits<std::int64_t>::max());
  std::optional<double> number(const char* name, bool required, double min);
  std::optional<bool> boolean(const char* name, bool required);
  // The raw member, or nullptr if absent/null (records "required" if `required`).
  const rapidjson::Value* value(const char* name, bool required);

  void add_issue(const char* name, FieldIssue issue) { errors_.add({name}, std::move(issue)); }

 private:
  const rapidjson::Value& object_;
  FieldErrors& errors_;
};

}  // namespace platformpp::emulator
