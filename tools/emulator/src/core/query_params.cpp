#include "core/query_params.hpp"

#include <charconv>

namespace platformpp::emulator {

std::optional<std::int64_t> query_integer(const FormFields& query, std::string_view name, std::int64_t min,
                                          std::int64_t max, FieldErrors& errors) {
  const auto text = query.get(name);
  if (!text) return std::nullopt;
  std::int64_t value = 0;
  const char* end = text->data() + text->size();
  const std::string key(name);
  if (std::from_chars(text->data(), end, value).ptr != end) {
    errors.add({key}, FieldIssue{"NUMBER_TYPE_COERCE", "Value \"" + *text + "\" is not int."});
    return std::nullopt;
  }
  if (value < min) {
    errors.add({key}, FieldIssue{"NUMBER_TYPE_MIN", "int value should be greater than or equal to " +
                                                        std::to_string(min) + "."});
    return std::nullopt;
  }
  if (value > max) {
    errors.add({key}, FieldIssue{"NUMBER_TYPE_MAX",
                                 "int value should be less than or equal to " + std::to_string(max) + "."});
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> query_snowflake(const FormFields& query, std::string_view name,
                                           FieldErrors& errors) {
  const auto text = query.get(name);
  if (!text) return std::nullopt;
  std::uint64_t value = 0;
  const char* end = text->data() + text->size();
  if (std::from_chars(text->data(), end, value).ptr != end) {
    errors.add({std::string(name)},
               FieldIssue{"NUMBER_TYPE_COERCE", "Value \"" + *text + "\" is not snowflake."});
    return std::nullopt;
  }
  return std::to_string(value);
}

}  // namespace platformpp::emulator
