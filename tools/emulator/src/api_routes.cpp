// Platform API routes under /api/v10. Paths here are relative to the API base.
#include "api_error.hpp"
#include "emulator_service.hpp"
#include "json.hpp"

namespace platformpp::emulator {

void EmulatorService::register_api_routes() {
  api_router_.add("GET", "/gateway", [this](const RouteContext& c) { return api_get_gateway(c); });
  api_router_.add("GET", "/users/@me", [this](const RouteContext& c) { return api_get_current_user(c); });
}

HttpResponse EmulatorService::api_get_gateway(const RouteContext&) {
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("url");
                              write_string(writer, endpoints_.gateway_url);
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::api_get_current_user(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  return HttpResponse::json(200, user_json(*principal->user));
}

}  // namespace platformpp::emulator
