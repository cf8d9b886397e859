#include "gateway_dispatch_conformance.hpp"

#include <rapidjson/document.h>
#include <rapidjson/schema.h>

#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "schema_failure.hpp"

namespace platformpp::emulator::test {

namespace {

// The names `value` refers to as "#/definitions/NAME" ($ref), in `found`. False if a $ref points elsewhere or
// uses JSON Pointer escapes (then the caller keeps every definition).
bool DispatchSchemaRefs(const rapidjson::Value& value, std::vector<std::string>& found) {
  constexpr std::string_view kPrefix = "#/definitions/";
  if (value.IsArray()) {
    for (const auto& item : value.GetArray())
      if (!DispatchSchemaRefs(item, found)) return false;
  } else if (value.IsObject()) {
    for (const auto& member : value.GetObject()) {
      if (std::string_view(member.name.GetString()) == "$ref" && member.value.IsString()) {
        const std::string_view ref(member.value.GetString(), member.value.GetStringLength());
        if (ref.substr(0, kPrefix.size()) != kPrefix || ref.find_first_of("~/%", kPrefix.size()) != ref.npos)
          return false;
        found.emplace_back(ref.substr(kPrefix.size()));
      } else if (!DispatchSchemaRefs(member.value, found)) {
        return false;
      }
    }
  }
  return true;
}

// The definitions an event's schema reaches, transitively; nullopt when it cannot tell (all are needed then).
// A document holding only those compiles in a fraction of the time: RapidJSON's SchemaDocument looks each
// new subschema up in a linear list, so its cost grows with the square of the document (all 538
// definitions in each of 61 documents took 18.7 s at start-up, 36 s under ASan+UBSan).
std::optional<std::set<std::string>> ReachedDefinitions(const rapidjson::Value& schema,
                                                        const rapidjson::Value* definitions) {
  std::set<std::string> reached;
  std::vector<std::string> pending;
  if (!DispatchSchemaRefs(schema, pending)) return std::nullopt;
  while (!pending.empty()) {
    std::string name = std::move(pending.back());
    pending.pop_back();
    if (!reached.insert(name).second) continue;
    if (definitions == nullptr || !definitions->HasMember(name.c_str())) return std::nullopt;
    if (!DispatchSchemaRefs((*definitions)[name.c_str()], pending)) return std::nullopt;
  }
  return reached;
}

}  // namespace

struct GatewayDispatchConformance::Impl {
  rapidjson::Document schemas;
  struct Compiled {
    rapidjson::Document root;
    std::unique_ptr<rapidjson::SchemaDocument> schema;
  };
  std::map<std::string, std::unique_ptr<Compiled>, std::less<>> compiled;
  Report report;
};

GatewayDispatchConformance::GatewayDispatchConformance(const std::string& schemas_path)
    : impl_(std::make_unique<Impl>()) {
  std::ifstream in(schemas_path);
  if (!in) throw std::runtime_error("cannot read the dispatch schemas " + schemas_path);
  std::stringstream text;
  text << in.rdbuf();
  auto& schemas = impl_->schemas;
  schemas.Parse(text.str().c_str());
  if (!schemas.IsObject() || !schemas.HasMember("events") || !schemas["events"].IsObject()) {
    throw std::runtime_error("not a dispatch schema file: " + schemas_path);
  }
  // One schema document per event, each with the shared definitions its $refs reach.
  const rapidjson::Value* definitions = schemas.HasMember("definitions") && schemas["definitions"].IsObject()
                                            ? &schemas["definitions"]
                                            : nullptr;
  for (const auto& event : schemas["events"].GetObject()) {
    if (!event.value.IsObject() || !event.value.HasMember("schema") || !event.value.HasMember("source")) {
      throw std::runtime_error(schemas_path + ": event " + event.name.GetString() +
                               " needs a schema and a source");
    }
    auto entry = std::make_unique<Impl::Compiled>();
    auto& root = entry->root;
    root.SetObject();
    auto& allocator = root.GetAllocator();
    if (definitions != nullptr) {
      const auto reached = ReachedDefinitions(event.value["schema"], definitions);
      if (!reached) {
        root.AddMember("definitions", rapidjson::Value(*definitions, allocator), allocator);
      } else {
        rapidjson::Value subset(rapidjson::kObjectType);
        for (const auto& name : *reached) {
          subset.AddMember(rapidjson::Value(name.c_str(), allocator),
                           rapidjson::Value((*definitions)[name.c_str()], allocator), allocator);
        }
        root.AddMember("definitions", subset, allocator);
      }
    }
    root.AddMember("x-event", rapidjson::Value(event.value["schema"], allocator), allocator);
    root.AddMember("$ref", "#/x-event", allocator);
    entry->schema = std::make_unique<rapidjson::SchemaDocument>(root);
    impl_->compiled.emplace(event.name.GetString(), std::move(entry));
  }
}

GatewayDispatchConformance::~GatewayDispatchConformance() = default;

void GatewayDispatchConformance::check(std::string_view type, std::string_view d_json) {
  std::lock_guard lock(mutex_);
  auto& impl = *impl_;
  const std::string name(type);
  const auto found = impl.compiled.find(name);
  if (found == impl.compiled.end()) {
    impl.report.without_schema.insert(name);
    return;
  }
  ++impl.report.validated;
  ++impl.report.events_validated[name];
  auto fail = [&](std::string why) {
    auto& list = impl.report.mismatches[name];
    if (list.size() < 5) list.push_back(std::move(why) + ": " + std::string(d_json.substr(0, 200)));
  };
  rapidjson::Document document;
  document.Parse(d_json.data(), d_json.size());
  if (document.HasParseError()) return fail("not JSON");
  rapidjson::SchemaValidator validator(*found->second->schema);
  if (document.Accept(validator)) return;
  fail(schema_failure_text(validator, found->second->root, document));
}

GatewayDispatchConformance::Report GatewayDispatchConformance::report() const {
  std::lock_guard lock(mutex_);
  return impl_->report;
}

std::set<std::string> GatewayDispatchConformance::described_events() const {
  std::lock_guard lock(mutex_);
  std::set<std::string> names;
  for (const auto& [name, entry] : impl_->compiled)
    names.insert(name);
  return names;
}

}  // namespace platformpp::emulator::test
