// What a failed RapidJSON schema validation says, as one line: where in the document, which keyword of which
// schema, and for 'required' the members that are missing (RapidJSON 1.1 reports where, not what).
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>

#include <string>
#include <string_view>

namespace platformpp::emulator::test {

inline std::string pointer_text(const rapidjson::Pointer& pointer) {
  rapidjson::StringBuffer buffer;
  pointer.StringifyUriFragment(buffer);
  return buffer.GetString();
}

// `root`: the schema document the validator was built from; `document`: what it rejected.
inline std::string schema_failure_text(const rapidjson::SchemaValidator& validator,
                                       const rapidjson::Value& root, const rapidjson::Value& document) {
  const auto schema_pointer = validator.GetInvalidSchemaPointer();
  const auto document_pointer = validator.GetInvalidDocumentPointer();
  std::string missing;
  if (std::string_view(validator.GetInvalidSchemaKeyword()) == "required") {
    const auto* schema = schema_pointer.Get(root);
    const auto* value = document_pointer.Get(document);
    if (schema != nullptr && schema->IsObject() && value != nullptr && value->IsObject()) {
      const auto required = schema->FindMember("required");
      if (required != schema->MemberEnd() && required->value.IsArray()) {
        for (const auto& name : required->value.GetArray()) {
          if (name.IsString() && !value->HasMember(name)) missing += std::string(" ") + name.GetString();
        }
      }
    }
  }
  return pointer_text(document_pointer) + " fails '" + validator.GetInvalidSchemaKeyword() + "' of " +
         pointer_text(schema_pointer) + (missing.empty() ? "" : " (missing:" + missing + ")");
}

}  // namespace platformpp::emulator::test
