// Platform API routes under /api/v10. Paths here are relative to the API base.
#include <algorithm>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/validation.hpp"
#include "service/emulator_service.hpp"

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
  api_router_.add("GET", "/gateway/bot", [this](const RouteContext& c) { return api_get_gateway_bot(c); });
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

// Bot tokens only (a user's Bearer token gets 401, as on the platform). One shard is enough for any emulated
// bot; the session start limit is the Gateway's identify budget of the application (its window on the fake
// clock), shared with the Social SDK's users of the same application as the emulator counts it.
HttpResponse EmulatorService::api_get_gateway_bot(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal || principal->grant != nullptr) return status_error(401);
  const auto now = clock_.now_ms();
  const auto& starts = identify_starts(principal->application->id, now);
  const auto total = gateway_settings_.identify_budget;
  const auto remaining = std::max<std::int64_t>(0, total - static_cast<std::int64_t>(starts.size()));
  const auto reset_after = starts.empty() ? gateway_settings_.identify_window_ms
                                          : gateway_settings_.identify_window_ms - (now - starts.front());
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("url");
                              write_string(writer, endpoints_.gateway_url);
                              writer.Key("shards");
                              writer.Int(1);
                              writer.Key("session_start_limit");
                              writer.StartObject();
                              writer.Key("total");
                              writer.Int64(total);
                              writer.Key("remaining");
                              writer.Int64(remaining);
                              writer.Key("reset_after");
                              writer.Int64(reset_after);
                              writer.Key("max_concurrency");
                              writer.Int(1);
                              writer.EndObject();
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::api_get_current_user(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  return HttpResponse::json(200, user_json(*principal->user, premium_visible(*principal), true));
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
  return HttpResponse::json(200, user_json(*user, premium_visible(*principal), true));
}

}  // namespace platformpp::emulator
