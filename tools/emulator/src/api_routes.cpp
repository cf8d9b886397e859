// Platform API routes under /api/v10. Paths here are relative to the API base.
#include "api_error.hpp"
#include "emulator_service.hpp"
#include "json.hpp"
#include "json_body.hpp"
#include "validation.hpp"

namespace platformpp::emulator {

namespace {

std::string_view trim_whitespace(std::string_view text) {
  constexpr std::string_view kWhitespace = " \t\n\r\f\v";
  const auto first = text.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(kWhitespace);
  return text.substr(first, last - first + 1);
}

}  // namespace

void EmulatorService::register_api_routes() {
  api_router_.add("GET", "/gateway", [this](const RouteContext& c) { return api_get_gateway(c); });
  api_router_.add("GET", "/users/@me", [this](const RouteContext& c) { return api_get_current_user(c); });
  api_router_.add("PATCH", "/users/@me", [this](const RouteContext& c) { return api_patch_current_user(c); });
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
  return HttpResponse::json(200, user_json(*principal->user, premium_visible(*principal)));
}

// A provisional account's display name ({"global_name"}); regular accounts edit their profile on the
// platform, not through a game, and bot profiles are not modelled: both get 403 50001.
HttpResponse EmulatorService::api_patch_current_user(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant == nullptr || !principal->user->provisional) {
    return error_response(403, error_code::kMissingAccess, "Missing Access");
  }
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto global_name = fields.string("global_name", true);
  std::string trimmed;
  if (global_name) {
    trimmed = trim_whitespace(*global_name);
    if (auto issue = check_global_name(trimmed)) fields.add_issue("global_name", std::move(*issue));
  }
  if (!errors.empty()) return invalid_form_body(errors);
  User* user = state_.find_user_mutable(principal->user->id);
  const bool changed = user->global_name != trimmed;
  user->global_name = std::move(trimmed);
  if (changed) dispatch_user_changed(user->id);
  return HttpResponse::json(200, user_json(*user, premium_visible(*principal)));
}

}  // namespace platformpp::emulator
