#include "openapi_conformance.hpp"

#include <rapidjson/document.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "schema_failure.hpp"

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

// How many literal segments of `path_template` ("/lobbies/{lobby_id}/members/@me") equal those of `path`, or
// -1 when the path does not fit the template (a parameter matches any one non-empty segment).
int template_literals(std::string_view path_template, std::string_view path) {
  int literals = 0;
  while (!path_template.empty() || !path.empty()) {
    if (path_template.empty() || path.empty() || path_template[0] != '/' || path[0] != '/') return -1;
    path_template.remove_prefix(1);
    path.remove_prefix(1);
    const auto template_end = std::min(path_template.find('/'), path_template.size());
    const auto path_end = std::min(path.find('/'), path.size());
    const auto segment_template = path_template.substr(0, template_end);
    const auto segment = path.substr(0, path_end);
    if (segment_template.size() >= 2 && segment_template.front() == '{' && segment_template.back() == '}') {
      if (segment.empty()) return -1;
    } else if (segment_template == segment) {
      ++literals;
    } else {
      return -1;
    }
    path_template.remove_prefix(template_end);
    path.remove_prefix(path_end);
  }
  return literals;
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

  void fail(const std::string& key, std::string why, std::string_view body) {
    auto& list = report.mismatches[key];
    if (list.size() < 5) list.push_back(std::move(why) + ": " + std::string(body.substr(0, 160)));
    ++report.mismatch_count;
  }

  // `body` against `schema` (null: the document describes no body), failures recorded under `key`.
  void validate(const std::string& key, const rapidjson::Value* schema, std::string_view body) {
    if (schema == nullptr) {
      if (!body.empty()) fail(key, "a body where the document has none", body);
      return;
    }
    rapidjson::Document document;
    document.Parse(body.data(), body.size());
    if (document.HasParseError()) return fail(key, "not JSON", body);
    auto& compiled = compile(key, *schema);
    rapidjson::SchemaValidator validator(*compiled.schema);
    if (document.Accept(validator)) return;
    fail(key, schema_failure_text(validator, compiled.root, document), body);
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
  impl.validate(key, schema, body);
}

void OpenApiConformance::check_request(std::string_view method, std::string_view url,
                                       std::string_view content_type, std::string_view body) {
  std::lock_guard lock(mutex_);
  auto& impl = *impl_;
  // The path after the API base ("https://host/api/v10/lobbies/1?x" -> "/lobbies/1"); other URLs are not API.
  const auto scheme_end = url.find("://");
  const auto path_start = url.find('/', scheme_end == std::string_view::npos ? 0 : scheme_end + 3);
  if (path_start == std::string_view::npos) return;
  auto path = url.substr(path_start);
  path = path.substr(0, path.find_first_of("?#"));
  constexpr std::string_view kApiBase = "/api/v10";
  if (path.substr(0, kApiBase.size()) != kApiBase) return;
  path.remove_prefix(kApiBase.size());
  ++impl.report.requests_seen;

  std::string lower(method);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  // The most specific documented template: literal segments beat parameters ("/users/@me" over
  // "/users/{id}").
  const rapidjson::Value* operation = nullptr;
  std::string route;
  int best_literals = -1;
  for (const auto& entry : impl.spec["paths"].GetObject()) {
    const std::string_view candidate(entry.name.GetString(), entry.name.GetStringLength());
    const int literals = template_literals(candidate, path);
    if (literals <= best_literals) continue;
    const auto* found = impl.member(entry.value, lower);
    if (found == nullptr) continue;
    best_literals = literals;
    operation = found;
    route = candidate;
  }
  if (operation == nullptr) {
    impl.report.undocumented_requests.insert(std::string(method) + " " + std::string(path));
    return;
  }
  const std::string key = "request " + std::string(method) + " " + route;
  const auto* request_body = impl.resolve(impl.member(*operation, "requestBody"));
  const auto media = content_type.substr(0, content_type.find(';'));
  const auto* content = request_body ? impl.member(*request_body, "content") : nullptr;
  const auto* media_entry = content && !media.empty() ? impl.member(*content, media) : nullptr;
  impl.report.operations_validated.insert(key);
  ++impl.report.requests_validated;
  if (body.empty()) {
    const auto* required = request_body ? impl.member(*request_body, "required") : nullptr;
    if (required != nullptr && required->IsBool() && required->GetBool()) impl.fail(key, "no body", body);
    return;
  }
  if (request_body == nullptr) return impl.fail(key, "a body where the document has none", body);
  if (media_entry == nullptr) {
    return impl.fail(
        key, "a body of type '" + std::string(content_type) + "', which the document does not list", body);
  }
  if (media != "application/json") return;  // form bodies: the document's JSON schemas do not apply
  impl.validate(key, impl.member(*media_entry, "schema"), body);
}

const rapidjson::Value* OpenApiConformance::component_schema(std::string_view name) const {
  const auto* schemas = impl_->member(impl_->spec["components"], "schemas");
  return schemas != nullptr ? impl_->member(*schemas, name) : nullptr;
}

const rapidjson::Value& OpenApiConformance::follow(const rapidjson::Value& schema) const {
  const auto* resolved = impl_->resolve(&schema);
  return resolved != nullptr ? *resolved : schema;
}

bool OpenApiConformance::valid(std::string_view name, const rapidjson::Value& instance) {
  std::lock_guard lock(mutex_);
  const auto* schema = component_schema(name);
  if (schema == nullptr) throw std::runtime_error("no schema " + std::string(name));
  auto& compiled = impl_->compile("component " + std::string(name), *schema);
  rapidjson::SchemaValidator validator(*compiled.schema);
  return instance.Accept(validator);
}

bool OpenApiConformance::path_matches(std::string_view path_template, std::string_view path) {
  return template_literals(path_template, path) >= 0;
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

int OpenApiConformance::print_mismatches(const Report& report, const std::set<std::string>& known) {
  const bool known_details = std::getenv("PLATFORMPP_CONFORMANCE_DETAILS") != nullptr;
  int unknown = 0;
  for (const auto& [operation, details] : report.mismatches) {
    const bool listed = known.count(operation) != 0;
    if (listed && !known_details) continue;
    std::printf("  %s %s\n", listed ? "listed mismatch" : "MISMATCH", operation.c_str());
    for (const auto& detail : details)
      std::printf("    %s\n", detail.c_str());
    if (!listed) ++unknown;
  }
  return unknown;
}

OpenApiConformance::Report OpenApiConformance::report() const {
  std::lock_guard lock(mutex_);
  return impl_->report;
}

}  // namespace platformpp::emulator::test
