#pragma once
// What the testkit's files share: reading the emulator's JSON answers (a missing member is an exception that
// says where), and building admin request bodies.

#include <platformpp/testkit/emulator.hpp>

#include "json/json.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <string>

namespace platformpp::testkit::detail {

std::string RequireString(const json::Document& document, const char* name, const std::string& where);
uint64_t RequireSnowflake(const json::Document& document, const char* name, const std::string& where);
json::Document ParseOrThrow(const std::string& text, const std::string& where);
/// The answer's body as JSON when its status is `status`; otherwise an exception naming `what`.
json::Document Expect(const EmulatorAdmin::Response& response, int status, const std::string& what);
/// The `connections` an admin call on sessions reports it acted on.
int ConnectionCount(const json::Document& document);

// Minimal JSON object builder for admin request bodies.
class JsonObject {
 public:
  JsonObject() { writer_.StartObject(); }
  JsonObject& Add(const char* key, const std::string& value) {
    writer_.Key(key);
    writer_.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
    return *this;
  }
  JsonObject& Add(const char* key, int64_t value) {
    writer_.Key(key);
    writer_.Int64(value);
    return *this;
  }
  JsonObject& Add(const char* key, double value) {
    writer_.Key(key);
    writer_.Double(value);
    return *this;
  }
  JsonObject& Add(const char* key, bool value) {
    writer_.Key(key);
    writer_.Bool(value);
    return *this;
  }
  /// `json` must be valid JSON text.
  JsonObject& AddRaw(const char* key, const std::string& json) {
    writer_.Key(key);
    writer_.RawValue(json.c_str(), json.size(), rapidjson::kObjectType);
    return *this;
  }
  std::string Done() {
    writer_.EndObject();
    return std::string(buffer_.GetString(), buffer_.GetSize());
  }

 private:
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_{buffer_};
};

}  // namespace platformpp::testkit::detail
