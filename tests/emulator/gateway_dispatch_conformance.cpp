#include "gateway_dispatch_conformance.hpp"

#include <rapidjson/document.h>
#include <rapidjson/schema.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "schema_failure.hpp"

namespace platformpp::emulator::test {

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
  // One schema document per event, each with the shared definitions its $refs point into.
  for (const auto& event : schemas["events"].GetObject()) {
    if (!event.value.IsObject() || !event.value.HasMember("schema") || !event.value.HasMember("source")) {
      throw std::runtime_error(schemas_path + ": event " + event.name.GetString() +
                               " needs a schema and a source");
    }
    auto entry = std::make_unique<Impl::Compiled>();
    auto& root = entry->root;
    root.SetObject();
    auto& allocator = root.GetAllocator();
    if (schemas.HasMember("definitions")) {
      root.AddMember("definitions", rapidjson::Value(schemas["definitions"], allocator), allocator);
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
