#include "service/emulator_service.hpp"

#include <sodium.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "voice/voice_media_routes.hpp"

namespace platformpp::emulator {

namespace {

bool starts_with_segment(std::string_view path, std::string_view base) {
  return path.starts_with(base) && (path.size() == base.size() || path[base.size()] == '/');
}

void add_rate_limit_headers(HttpResponse& response, const RateLimitDecision& decision) {
  response.set_header("X-RateLimit-Limit", std::to_string(decision.limit));
  response.set_header("X-RateLimit-Remaining", std::to_string(decision.remaining));
  response.set_header("X-RateLimit-Reset", format_seconds(decision.reset_at_ms));
  response.set_header("X-RateLimit-Reset-After", format_seconds(decision.reset_after_ms));
  response.set_header("X-RateLimit-Bucket", decision.bucket);
}

}  // namespace

HttpResponse rate_limited_response(double retry_after_s, bool global, std::string_view scope) {
  auto response = HttpResponse::json(429, to_json([&](JsonWriter& writer) {
                                       writer.StartObject();
                                       // The published RatelimitedResponse requires code (0: general error).
                                       writer.Key("code");
                                       writer.Int(0);
                                       writer.Key("message");
                                       writer.String("You are being rate limited.");
                                       writer.Key("retry_after");
                                       writer.Double(retry_after_s);
                                       writer.Key("global");
                                       writer.Bool(global);
                                       writer.EndObject();
                                     }));
  response.set_header("Retry-After", std::to_string(static_cast<std::int64_t>(std::ceil(retry_after_s))));
  if (global) response.set_header("X-RateLimit-Global", "true");
  response.set_header("X-RateLimit-Scope", global ? std::string("global") : std::string(scope));
  return response;
}

void stamp_activity(rapidjson::Value& activity, rapidjson::Document::AllocatorType& allocator,
                    const Application* app, std::string_view app_id, std::size_t index, std::int64_t now_ms) {
  auto set = [&](const char* name, rapidjson::Value value) {
    activity.RemoveMember(name);
    activity.AddMember(rapidjson::Value(name, allocator), value, allocator);
  };
  set("application_id",
      rapidjson::Value(app_id.data(), static_cast<rapidjson::SizeType>(app_id.size()), allocator));
  if (!activity.HasMember("name")) {
    const std::string name = app != nullptr ? app->name : std::string("Game");
    set("name", rapidjson::Value(name.c_str(), allocator));
  }
  // 16 hex digits like the platform's activity ids: FNV-1a of the application and the activity's slot, so an
  // activity that is updated keeps its id.
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : std::string(app_id) + ":" + std::to_string(index)) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  char id[17];
  std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(hash));
  set("id", rapidjson::Value(id, allocator));
  set("created_at", rapidjson::Value(static_cast<std::int64_t>(now_ms)));
}

void write_application_members(JsonWriter& writer, const Application& app) {
  writer.Key("id");
  write_string(writer, app.id);
  writer.Key("name");
  write_string(writer, app.name);
  writer.Key("icon");
  writer.Null();
  writer.Key("description");
  writer.String("");
  writer.Key("type");
  writer.Null();
  writer.Key("bot_public");
  writer.Bool(false);
  writer.Key("bot_require_code_grant");
  writer.Bool(false);
  writer.Key("verify_key");
  write_string(writer, app.verify_key);
  // GATEWAY_PRESENCE, GATEWAY_GUILD_MEMBERS, GATEWAY_MESSAGE_CONTENT for the privileged intents enabled.
  const std::uint64_t flags = (app.intent_presences ? std::uint64_t{1} << 12 : 0) |
                              (app.intent_guild_members ? std::uint64_t{1} << 14 : 0) |
                              (app.intent_message_content ? std::uint64_t{1} << 18 : 0);
  writer.Key("flags");
  writer.Uint64(flags);
  writer.Key("flags_new");
  write_string(writer, std::to_string(flags));
}

std::string deleted_user_json(std::string_view id) {
  User deleted;
  deleted.id = std::string(id);
  deleted.username = "Deleted User";
  return user_json(deleted);
}

std::string user_json(const User& user, bool show_premium, bool pii) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, user.id);
    writer.Key("username");
    write_string(writer, user.username);
    writer.Key("global_name");
    if (user.global_name) {
      write_string(writer, *user.global_name);
    } else {
      writer.Null();
    }
    writer.Key("discriminator");
    writer.String("0");
    writer.Key("avatar");
    if (user.avatar) {
      write_string(writer, *user.avatar);
    } else {
      writer.Null();
    }
    writer.Key("bot");
    writer.Bool(user.bot);
    writer.Key("flags");
    writer.Int(0);
    writer.Key("public_flags");
    writer.Int(0);
    if (pii) {
      writer.Key("mfa_enabled");
      writer.Bool(false);
      writer.Key("locale");
      writer.String("en-US");
    }
    writer.Key("premium_type");
    writer.Int(show_premium ? user.premium_type : 0);
    writer.Key("primary_guild");
    if (user.primary_guild) {
      writer.StartObject();
      writer.Key("identity_guild_id");
      write_string(writer, user.primary_guild->identity_guild_id);
      writer.Key("identity_enabled");
      writer.Bool(true);
      writer.Key("tag");
      write_string(writer, user.primary_guild->tag);
      writer.Key("badge");
      if (user.primary_guild->badge) {
        write_string(writer, *user.primary_guild->badge);
      } else {
        writer.Null();
      }
      writer.EndObject();
    } else {
      writer.Null();
    }
    writer.Key("provisional");
    writer.Bool(user.provisional);
    if (user.restricted) {
      writer.Key("restricted");
      writer.Bool(true);
    }
    writer.EndObject();
  });
}

EmulatorService::EmulatorService(FakeClock& clock, ServiceEndpoints endpoints, RateLimitSettings rate_limits)
    : clock_(clock), endpoints_(std::move(endpoints)), snowflakes_(clock), rate_limiter_(rate_limits) {
  // Application key pairs (admin_routes.cpp) and the transport ciphers use libsodium.
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  register_api_routes();
  register_admin_routes();
  register_oauth_routes();
  register_provisional_routes();
  register_ipc_routes();
  register_gateway_routes();
  register_social_routes();
  register_guild_routes();
  register_lobby_routes();
  register_message_routes();
  register_voice_routes();
  register_voice_media_routes(admin_router_, forwarding_unit_);
}

RequestPlan EmulatorService::plan(const HttpRequest& request) {
  RequestPlan result;
  const auto path = request.path();
  if (!starts_with_segment(path, kApiBasePath)) return result;
  auto api_path = path.substr(kApiBasePath.size());
  if (api_path.empty()) api_path = "/";
  result.fault = faults_.take_match(request.method, api_path);
  if (result.fault) result.delay = std::chrono::milliseconds(result.fault->delay_ms);
  return result;
}

Outcome EmulatorService::complete(const HttpRequest& request, const RequestPlan& plan) {
  Outcome outcome;
  const auto path = request.path();
  const Fault* fault = plan.fault ? &*plan.fault : nullptr;
  if (fault != nullptr && fault->drop) {
    outcome.delivery = Outcome::Delivery::drop;
    return outcome;
  }

  if (starts_with_segment(path, kAdminBasePath)) {
    auto admin_path = path.substr(kAdminBasePath.size());
    outcome.response = handle_admin(request, admin_path.empty() ? "/" : admin_path);
  } else if (starts_with_segment(path, kApiBasePath)) {
    auto api_path = path.substr(kApiBasePath.size());
    if (api_path.empty()) api_path = "/";
    if (fault != nullptr && (fault->status || fault->body)) {
      outcome.response = fault_response(request, api_path, *fault);
    } else {
      outcome.response = handle_api(request, api_path);
    }
  } else if (starts_with_segment(path, "/api")) {
    // "/api/v<N>/..." with another version N is a known API with an unsupported version.
    const auto version = path.substr(5, path.find('/', 5) - 5);
    const bool looks_versioned = version.size() >= 2 && version[0] == 'v' &&
                                 std::all_of(version.begin() + 1, version.end(), [](char c) {
                                   return std::isdigit(static_cast<unsigned char>(c)) != 0;
                                 });
    outcome.response = looks_versioned
                           ? error_response(400, error_code::kInvalidApiVersion, "Invalid API version")
                           : status_error(404);
  } else {
    // The platform's web pages (/oauth2/authorize); "/" is reserved for the Gateway's WebSocket upgrade.
    outcome.response = handle_web(request, path);
  }

  if (fault != nullptr && fault->truncate) outcome.delivery = Outcome::Delivery::truncate;
  if (fault != nullptr && fault->drop_after) outcome.delivery = Outcome::Delivery::drop;
  return outcome;
}

HttpResponse EmulatorService::handle_api(const HttpRequest& request, std::string_view api_path) {
  const auto match = api_router_.match(request.method, api_path);
  const std::string route_key =
      match.kind == Router::MatchKind::found ? match.route->key : std::string("unmatched route");
  const auto authorization = request.header("Authorization");
  const std::string identity =
      authorization ? "auth:" + std::string(*authorization) : "ip:" + request.client_address;

  const auto decision = rate_limiter_.check(request.method, api_path, route_key, identity, clock_.now_ms());
  HttpResponse response;
  if (!decision.allowed) {
    response = rate_limited_response(static_cast<double>(decision.retry_after_ms) / 1000.0, decision.global);
  } else if (match.kind == Router::MatchKind::found) {
    response = match.route->handler(RouteContext{request, match.params});
  } else {
    response = status_error(match.kind == Router::MatchKind::method_not_allowed ? 405 : 404);
  }
  add_rate_limit_headers(response, decision);
  if (const auto& observer = api_observer_()) {
    observer(
        ApiExchange{request.method,
                    match.kind == Router::MatchKind::found ? match.route->pattern.text() : std::string_view(),
                    request, response});
  }
  return response;
}

HttpResponse EmulatorService::handle_admin(const HttpRequest& request, std::string_view admin_path) {
  return dispatch(admin_router_, request, admin_path);
}

HttpResponse EmulatorService::handle_web(const HttpRequest& request, std::string_view path) {
  return dispatch(web_router_, request, path);
}

HttpResponse EmulatorService::dispatch(const Router& router, const HttpRequest& request,
                                       std::string_view path) {
  const auto match = router.match(request.method, path);
  switch (match.kind) {
    case Router::MatchKind::found:
      return match.route->handler(RouteContext{request, match.params});
    case Router::MatchKind::method_not_allowed:
      return status_error(405);
    case Router::MatchKind::not_found:
      break;
  }
  return status_error(404);
}

HttpResponse EmulatorService::fault_response(const HttpRequest& request, std::string_view api_path,
                                             const Fault& fault) {
  const int status = fault.status.value_or(200);
  if (status == 429 && !fault.body) {
    const double retry_after = fault.retry_after_s.value_or(1.0);
    auto response = rate_limited_response(retry_after, fault.global);
    const auto match = api_router_.match(request.method, api_path);
    const auto info = rate_limiter_.bucket_for(
        request.method, api_path,
        match.kind == Router::MatchKind::found ? match.route->key : "unmatched route");
    const auto retry_after_ms = static_cast<std::int64_t>(std::llround(retry_after * 1000.0));
    response.set_header("X-RateLimit-Limit", std::to_string(info.limit));
    response.set_header("X-RateLimit-Remaining", "0");
    response.set_header("X-RateLimit-Reset", format_seconds(clock_.now_ms() + retry_after_ms));
    response.set_header("X-RateLimit-Reset-After", format_seconds(retry_after_ms));
    response.set_header("X-RateLimit-Bucket", info.bucket);
    return response;
  }
  if (fault.body) {
    HttpResponse response;
    response.status = status;
    response.body = *fault.body;
    response.set_header("Content-Type", fault.content_type.value_or("application/json"));
    return response;
  }
  return status_error(status);
}

std::optional<EmulatorService::Principal> EmulatorService::authenticate(const HttpRequest& request) {
  const auto authorization = request.header("Authorization");
  if (!authorization) return std::nullopt;
  const auto space = authorization->find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const auto scheme = authorization->substr(0, space);
  const auto token = authorization->substr(space + 1);
  Principal principal;
  if (iequals(scheme, "Bearer")) {
    principal.grant = state_.find_grant_by_access_token(token);
    if (principal.grant == nullptr || clock_.now_ms() >= principal.grant->expires_at_ms) return std::nullopt;
    principal.user = state_.find_user(principal.grant->user_id);
    principal.application = state_.find_application(principal.grant->app_id);
  } else if (iequals(scheme, "Bot")) {
    principal.application = state_.find_application_by_bot_token(token);
    if (principal.application == nullptr) return std::nullopt;
    principal.user = state_.find_user(principal.application->bot_user_id);
  }
  if (principal.user == nullptr) return std::nullopt;
  return principal;
}

}  // namespace platformpp::emulator
