#include "admin_json.hpp"

#include <stdexcept>

namespace platformpp::testkit::detail {

std::string RequireString(const json::Document& document, const char* name, const std::string& where) {
  auto value = json::GetString(document, name);
  if (!value) throw std::runtime_error(where + ": missing string field '" + name + "'");
  return std::string(*value);
}

json::Document ParseOrThrow(const std::string& text, const std::string& where) {
  json::Document document;
  std::string error;
  if (!json::Parse(text, document, &error) || !document.IsObject()) {
    throw std::runtime_error(where + ": invalid JSON (" + error + "): " + text.substr(0, 200));
  }
  return document;
}

json::Document Expect(const EmulatorAdmin::Response& response, int status, const std::string& what) {
  if (response.status != status) {
    throw std::runtime_error(what + ": HTTP " + std::to_string(response.status) + ": " + response.body);
  }
  if (response.body.empty()) return json::Document(rapidjson::kObjectType);
  return ParseOrThrow(response.body, what);
}

uint64_t RequireSnowflake(const json::Document& document, const char* name, const std::string& where) {
  auto value = json::GetSnowflake(document, name);
  if (!value) throw std::runtime_error(where + ": missing snowflake '" + name + "'");
  return *value;
}

int ConnectionCount(const json::Document& document) {
  return static_cast<int>(json::GetInt(document, "connections").value_or(0));
}

}  // namespace platformpp::testkit::detail
