#include "state/state_module.hpp"

#include <stdexcept>

#include "core/api_error.hpp"
#include "core/json.hpp"

namespace platformpp::emulator {

StateModule::StateModule(ServiceContext& context, StateStore& store, GatewayModule& gateway)
    : FeatureModule(context), store_(store), gateway_(gateway) {
  admin_router_.add("GET", "/state", bind(&StateModule::admin_summary));
  admin_router_.add("GET", "/state/export", bind(&StateModule::admin_export));
  admin_router_.add("POST", "/state/import", bind(&StateModule::admin_import));
  admin_router_.add("POST", "/state/reset", bind(&StateModule::admin_reset));
}

std::string StateModule::summary_json() const {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("durable");
    writer.Bool(store_.durable());
    writer.Key("path");
    if (store_.file() != nullptr) {
      write_string(writer, store_.file()->path());
    } else {
      writer.Null();
    }
    writer.Key("schema_version");
    writer.Int(StateFile::kSchemaVersion);
    writer.Key("counts");
    writer.StartObject();
    for (const auto& [kind, count] : store_.counts()) {
      writer.Key(kind.c_str());
      writer.Int64(count);
    }
    writer.EndObject();
    writer.EndObject();
  });
}

HttpResponse StateModule::admin_summary(const RouteContext&) {
  return HttpResponse::json(200, summary_json());
}

HttpResponse StateModule::admin_export(const RouteContext&) {
  auto response = HttpResponse::json(200, store_.export_json());
  response.headers.emplace_back("Content-Disposition", "attachment; filename=\"emulator-state.json\"");
  return response;
}

HttpResponse StateModule::admin_import(const RouteContext& context) {
  try {
    const auto documents = StateStore::parse_snapshot(context.request.body);
    gateway_.end_all_sessions();
    store_.replace_all(documents);
  } catch (const std::invalid_argument& e) {
    return error_response(400, error_code::kGeneral, std::string("Invalid snapshot: ") + e.what());
  }
  return HttpResponse::json(200, summary_json());
}

HttpResponse StateModule::admin_reset(const RouteContext&) {
  gateway_.end_all_sessions();
  store_.reset();
  return HttpResponse::json(200, summary_json());
}

}  // namespace platformpp::emulator
