#include "openapi_conformance.hpp"

#include <rapidjson/document.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace platformpp::emulator::test {

namespace {

// Draft 4 has no `const`: give every schema that has one the equivalent one-value `enum`.
void add_enum_for_const(rapidjson::Value& value, rapidjson::Document::AllocatorType& allocator) {
  if (value.IsArray()) {
    for (auto& item : value.GetArray())
      add_enum_for_const(item, allocator);
    return;
  }
  if (!value.IsObject()) return;
  for (auto& member : value.GetObject())
    add_enum_for_const(member.value, allocator);
  const auto constant = value.FindMember("const");
  if (constant != value.MemberEnd() && !value.HasMember("enum")) {
    rapidjson::Value one(rapidjson::kArrayType);
    one.PushBack(rapidjson::Value(constant->value, allocator), allocator);
    value.AddMember("enum", one, allocator);
  }
}

std::string pointer_text(const rapidjson::Pointer& pointer) {
  rapidjson::StringBuffer buffer;
  pointer.StringifyUriFragment(buffer);
  return buffer.GetString();
}

}  // namespace

struct OpenApiConformance::Impl {
  rapidjson::Document spec;
  struct Compiled {
    rapidjson::Document root;
    std::unique_ptr<rapidjson::SchemaDocument> schema;
  };
  std::map<std::string, std::unique_ptr<Compiled>> cache;
  Report report;

  const rapidjson::Value* member(const rapidjson::Value& object, std::string_view name) const {
    if (!object.IsObject()) return nullptr;
    const auto it = object.FindMember(
        rapidjson::Value(rapidjson::StringRef(name.data(), static_cast<rapidjson::SizeType>(name.size()))));
    return it == object.MemberEnd() ? nullptr : &it->value;
  }

  // A `$ref` to "#/components/responses/<name>", followed.
  const rapidjson::Value* resolve(const rapidjson::Value* value) const {
    if (value == nullptr) return nullptr;
    const auto* ref = member(*value, "$ref");
    if (ref == nullptr || !ref->IsString()) return value;
    rapidjson::Pointer pointer(ref->GetString() + 1);  // after '#'
    return pointer.Get(spec);
  }

  Compiled& compile(const std::string& key, const rapidjson::Value& schema) {
    auto& slot = cache[key];
    if (slot) return *slot;
    slot = std::make_unique<Compiled>();
    auto& root = slot->root;
    root.SetObject();
    auto& allocator = root.GetAllocator();
    root.AddMember("components", rapidjson::Value(spec["components"], allocator), allocator);
    root.AddMember("x-root", rapidjson::Value(schema, allocator), allocator);
    root.AddMember("$ref", "#/x-root", allocator);
    slot->schema = std::make_unique<rapidjson::SchemaDocument>(root);
    return *slot;
  }
};

OpenApiConformance::OpenApiConformance(const std::string& spec_path) : impl_(std::make_unique<Impl>()) {
  std::ifstream in(spec_path);
  if (!in) throw std::runtime_error("cannot read the OpenAPI document " + spec_path);
  std::stringstream text;
  text << in.rdbuf();
  impl_->spec.Parse(text.str().c_str());
  if (!impl_->spec.IsObject() || !impl_->spec.HasMember("paths")) {
    throw std::runtime_error("not an OpenAPI document: " + spec_path);
  }
  add_enum_for_const(impl_->spec, impl_->spec.GetAllocator());
}

OpenApiConformance::~OpenApiConformance() = default;

void OpenApiConformance::apply_divergences(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the divergences " + path);
  std::stringstream text;
  text << in.rdbuf();
  rapidjson::Document divergences;
  divergences.Parse(text.str().c_str());
  if (!divergences.IsArray()) throw std::runtime_error("not a JSON array: " + path);
  auto& allocator = impl_->spec.GetAllocator();
  for (const auto& divergence : divergences.GetArray()) {
    const auto* pointer_text = impl_->member(divergence, "pointer");
    const auto* schema = impl_->member(divergence, "schema");
    const auto* append = impl_->member(divergence, "append");
    const auto* reason = impl_->member(divergence, "reason");
    if (pointer_text == nullptr || !pointer_text->IsString() || (schema == nullptr) == (append == nullptr) ||
        (append != nullptr && !append->IsArray()) || reason == nullptr || !reason->IsString() ||
        reason->GetStringLength() == 0) {
      throw std::runtime_error(path +
                               ": each divergence needs a pointer, a schema or an append list, and a reason");
    }
    const rapidjson::Pointer pointer(pointer_text->GetString());
    // Only a schema the document has can be changed: a stale entry fails instead of quietly adding one.
    auto* target = pointer.IsValid() ? pointer.Get(impl_->spec) : nullptr;
    if (target == nullptr || (append != nullptr && !target->IsArray())) {
      throw std::runtime_error(path + ": the document has no " + (append ? "array" : "schema") + " at " +
                               pointer_text->GetString());
    }
    if (schema != nullptr) {
      rapidjson::Value copy(*schema, allocator);
      add_enum_for_const(copy, allocator);
      *target = std::move(copy);
    } else {
      for (const auto& item : append->GetArray()) {
        rapidjson::Value copy(item, allocator);
        add_enum_for_const(copy, allocator);
        target->PushBack(copy, allocator);
      }
    }
    ++divergences_applied_;
  }
  impl_->cache.clear();
}

void OpenApiConformance::check(std::string_view method, std::string_view route, int status,
                               std::string_view body) {
  std::lock_guard lock(mutex_);
  auto& impl = *impl_;
  if (route.empty()) return;  // 404/405 for no route: nothing the document describes
  std::string lower(method);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::string operation_name = std::string(method) + " " + std::string(route);
  const auto* path_item = impl.member(impl.spec["paths"], route);
  const auto* operation = path_item ? impl.member(*path_item, lower) : nullptr;
  if (operation == nullptr) {
    impl.report.undocumented.insert(operation_name);
    return;
  }
  const auto* responses = impl.member(*operation, "responses");
  const std::string code = std::to_string(status);
  const rapidjson::Value* response = responses ? impl.member(*responses, code) : nullptr;
  std::string status_key = code;
  if (response == nullptr && responses != nullptr) {
    status_key = code.substr(0, 1) + "XX";
    response = impl.member(*responses, status_key);
  }
  if (response == nullptr && responses != nullptr) {
    status_key = "default";
    response = impl.member(*responses, status_key);
  }
  response = impl.resolve(response);
  if (response == nullptr) {
    ++impl.report.without_schema;
    impl.report.mismatches[operation_name + " " + code].push_back("a status the document does not list");
    ++impl.report.mismatch_count;
    return;
  }
  const std::string key = operation_name + " " + status_key;
  const auto* content = impl.member(*response, "content");
  const auto* json = content ? impl.member(*content, "application/json") : nullptr;
  const auto* schema = json ? impl.member(*json, "schema") : nullptr;
  impl.report.operations_validated.insert(key);
  ++impl.report.validated;
  auto fail = [&](std::string why) {
    auto& list = impl.report.mismatches[key];
    if (list.size() < 5) list.push_back(std::move(why) + ": " + std::string(body.substr(0, 160)));
    ++impl.report.mismatch_count;
  };
  if (schema == nullptr) {
    if (!body.empty()) fail("a body where the document has none");
    return;
  }
  rapidjson::Document document;
  document.Parse(body.data(), body.size());
  if (document.HasParseError()) return fail("not JSON");
  auto& compiled = impl.compile(key, *schema);
  rapidjson::SchemaValidator validator(*compiled.schema);
  if (!document.Accept(validator)) {
    // RapidJSON 1.1 reports where, not what: for 'required', name the members that are missing.
    std::string what;
    const auto schema_pointer = validator.GetInvalidSchemaPointer();
    const auto document_pointer = validator.GetInvalidDocumentPointer();
    if (std::string_view(validator.GetInvalidSchemaKeyword()) == "required") {
      const auto* failed_schema = schema_pointer.Get(compiled.root);
      const auto* failed_value = document_pointer.Get(document);
      const auto* required = failed_schema ? impl.member(*failed_schema, "required") : nullptr;
      if (required != nullptr && required->IsArray() && failed_value != nullptr && failed_value->IsObject()) {
        for (const auto& name : required->GetArray()) {
          if (name.IsString() && !failed_value->HasMember(name)) what += std::string(" ") + name.GetString();
        }
        if (!what.empty()) what = " (missing:" + what + ")";
      }
    }
    fail(pointer_text(document_pointer) + " fails '" + validator.GetInvalidSchemaKeyword() + "' of " +
         pointer_text(schema_pointer) + what);
  }
}

std::set<std::string> OpenApiConformance::read_list(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::set<std::string> entries;
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
      line.pop_back();
    if (!line.empty()) entries.insert(line);
  }
  return entries;
}

OpenApiConformance::Report OpenApiConformance::report() const {
  std::lock_guard lock(mutex_);
  return impl_->report;
}

}  // namespace platformpp::emulator::test
