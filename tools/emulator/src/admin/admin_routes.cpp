// Admin API under /_emulator: seeding data, the fake clock, fault injection and rate-limit configuration.
// Paths here are relative to /_emulator. Not rate-limited.
#include <sodium.h>

#include <array>
#include <chrono>
#include <cmath>

#include "auth/external_auth.hpp"
#include "auth/scopes.hpp"
#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/random_token.hpp"
#include "core/validation.hpp"
#include "service/emulator_service.hpp"

namespace platformpp::emulator {

namespace {

void write_optional_string(JsonWriter& writer, const std::optional<std::string>& value) {
  if (value) {
    write_string(writer, *value);
  } else {
    writer.Null();
  }
}

std::string clock_json(FakeClock& clock) {
  const auto now = clock.now_ms();
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("now");
    write_string(writer, format_rfc3339_ms(now));
    writer.Key("now_ms");
    writer.Int64(now);
    writer.Key("frozen");
    writer.Bool(clock.frozen());
    writer.EndObject();
  });
}

}  // namespace

void EmulatorService::register_admin_routes() {
  auto bind = [this](HttpResponse (EmulatorService::*handler)(const RouteContext&)) {
    return [this, handler](const RouteContext& context) { return (this->*handler)(context); };
  };
  admin_router_.add("GET", "/health", bind(&EmulatorService::admin_health));
  admin_router_.add("POST", "/apps", bind(&EmulatorService::admin_create_app));
  admin_router_.add("POST", "/users", bind(&EmulatorService::admin_create_user));
  admin_router_.add("POST", "/tokens", bind(&EmulatorService::admin_create_token));
  admin_router_.add("DELETE", "/tokens/{token}", bind(&EmulatorService::admin_revoke_token));
  admin_router_.add("GET", "/clock", bind(&EmulatorService::admin_get_clock));
  admin_router_.add("POST", "/clock", bind(&EmulatorService::admin_set_clock));
  admin_router_.add("GET", "/faults", bind(&EmulatorService::admin_list_faults));
  admin_router_.add("POST", "/faults", bind(&EmulatorService::admin_add_fault));
  admin_router_.add("DELETE", "/faults", bind(&EmulatorService::admin_clear_faults));
  admin_router_.add("GET", "/ratelimits", bind(&EmulatorService::admin_get_ratelimits));
  admin_router_.add("POST", "/ratelimits", bind(&EmulatorService::admin_set_ratelimits));
  admin_router_.add("DELETE", "/ratelimits", bind(&EmulatorService::admin_reset_ratelimits));
  admin_router_.add("POST", "/users/{user_id}/ban", bind(&EmulatorService::admin_ban_user));
  admin_router_.add("DELETE", "/users/{user_id}/ban", bind(&EmulatorService::admin_unban_user));
  admin_router_.add("POST", "/external-identities", bind(&EmulatorService::admin_map_external_identity));
}

HttpResponse EmulatorService::admin_health(const RouteContext&) {
  const auto uptime =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_at_)
          .count();
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("ok");
                              writer.Bool(true);
                              writer.Key("version");
                              writer.String(kEmulatorVersion);
                              writer.Key("uptime_ms");
                              writer.Int64(uptime);
                              writer.Key("connections_accepted");
                              writer.Uint64(connections_accepted_);
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::admin_create_app(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto name = fields.string("name", true);
  if (name) {
    if (auto issue = check_app_name(*name)) fields.add_issue("name", std::move(*issue));
  }
  auto parent_id = fields.string("parent_id", false);
  std::vector<std::string> redirect_uris;
  if (const auto* raw = fields.value("redirect_uris", false)) {
    if (!raw->IsArray()) {
      fields.add_issue("redirect_uris", {"BASE_TYPE_ARRAY", "Must be an array of URIs."});
    } else {
      for (rapidjson::SizeType i = 0; i < raw->Size(); ++i) {
        const auto& uri = (*raw)[i];
        const std::string_view text =
            uri.IsString() ? std::string_view(uri.GetString(), uri.GetStringLength()) : std::string_view();
        // Absolute ("scheme:...") and without a fragment (RFC 6749 section 3.1.2).
        const auto colon = text.find(':');
        if (colon == 0 || colon == std::string_view::npos || text.find('#') != std::string_view::npos) {
          errors.add({"redirect_uris", std::to_string(i)},
                     {"URL_TYPE_INVALID_URL", "Must be an absolute URI without a fragment."});
        } else {
          redirect_uris.emplace_back(text);
        }
      }
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (parent_id && state_.find_application(*parent_id) == nullptr) {
    return error_response(404, error_code::kUnknownApplication, "Unknown Application");
  }

  User bot;
  bot.id = snowflakes_.next_string();
  bot.username = *name;
  bot.bot = true;
  Application app;
  app.id = snowflakes_.next_string();
  app.name = *name;
  app.client_secret = random_token(32);
  app.bot_token = base64url_encode(app.id) + "." + random_token(32);
  app.bot_user_id = bot.id;
  app.parent_id = parent_id;
  app.redirect_uris = std::move(redirect_uris);
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> public_key{};
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> secret_key{};
  crypto_sign_keypair(public_key.data(), secret_key.data());
  static constexpr char kHex[] = "0123456789abcdef";
  for (const auto byte : public_key) {
    app.verify_key += kHex[byte >> 4];
    app.verify_key += kHex[byte & 0x0F];
  }
  app.signing_secret_key.assign(secret_key.begin(), secret_key.end());
  sodium_memzero(secret_key.data(), secret_key.size());
  state_.add_user(std::move(bot));
  const auto& stored = state_.add_application(std::move(app));

  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("id");
                              write_string(writer, stored.id);
                              writer.Key("name");
                              write_string(writer, stored.name);
                              writer.Key("client_secret");
                              write_string(writer, stored.client_secret);
                              writer.Key("bot_token");
                              write_string(writer, stored.bot_token);
                              writer.Key("bot_user_id");
                              write_string(writer, stored.bot_user_id);
                              writer.Key("public_client");
                              writer.Bool(stored.public_client_flows);
                              if (stored.parent_id) {
                                writer.Key("parent_id");
                                write_string(writer, *stored.parent_id);
                              }
                              writer.Key("redirect_uris");
                              writer.StartArray();
                              for (const auto& uri : stored.redirect_uris)
                                write_string(writer, uri);
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::admin_create_user(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto username = fields.string("username", true);
  if (username) {
    if (auto issue = check_username(*username)) {
      fields.add_issue("username", std::move(*issue));
    } else if (state_.username_taken(*username)) {
      fields.add_issue("username", {"USERNAME_ALREADY_TAKEN", "Username is unavailable."});
    }
  }
  auto global_name = fields.string("global_name", false);
  if (global_name) {
    if (auto issue = check_global_name(*global_name)) fields.add_issue("global_name", std::move(*issue));
  }
  if (!errors.empty()) return invalid_form_body(errors);

  User user;
  user.id = snowflakes_.next_string();
  user.username = std::move(*username);
  user.global_name = std::move(global_name);
  const auto& stored = state_.add_user(std::move(user));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("id");
                              write_string(writer, stored.id);
                              writer.Key("username");
                              write_string(writer, stored.username);
                              writer.Key("global_name");
                              write_optional_string(writer, stored.global_name);
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::admin_create_token(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto user_id = fields.string("user_id", true);
  auto app_id = fields.string("app_id", true);
  std::vector<std::string> scopes;
  if (const auto* raw = fields.value("scopes", true)) {
    if (raw->IsString()) {
      scopes = split_scopes(std::string_view(raw->GetString(), raw->GetStringLength()));
    } else if (raw->IsArray()) {
      for (rapidjson::SizeType i = 0; i < raw->Size(); ++i) {
        const auto& scope = (*raw)[i];
        if (!scope.IsString() || scope.GetStringLength() == 0 ||
            std::string_view(scope.GetString(), scope.GetStringLength()).find(' ') !=
                std::string_view::npos) {
          errors.add({"scopes", std::to_string(i)},
                     {"BASE_TYPE_STRING", "Must be a non-empty scope string."});
        } else {
          scopes.emplace_back(scope.GetString(), scope.GetStringLength());
        }
      }
    } else {
      fields.add_issue("scopes", {"BASE_TYPE_STRING", "Must be a string or an array of strings."});
    }
    if (errors.empty() && scopes.empty())
      fields.add_issue("scopes", {"BASE_TYPE_REQUIRED", "At least one scope"});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (state_.find_user(*user_id) == nullptr)
    return error_response(404, error_code::kUnknownUser, "Unknown User");
  if (state_.find_application(*app_id) == nullptr) {
    return error_response(404, error_code::kUnknownApplication, "Unknown Application");
  }

  AccessGrant grant;
  grant.access_token = random_token(32);
  grant.refresh_token = random_token(32);
  grant.user_id = *user_id;
  grant.app_id = *app_id;
  grant.scopes = std::move(scopes);
  grant.expires_at_ms = clock_.now_ms() + kAccessTokenLifetimeS * 1000;
  return HttpResponse::json(200, token_json(state_.add_grant(std::move(grant))));
}

HttpResponse EmulatorService::admin_revoke_token(const RouteContext& context) {
  // Idempotent: revoking an unknown or already revoked token also answers 204. The whole grant goes, so
  // deleting an access token also kills its refresh token (a refresh then gets invalid_grant).
  state_.revoke_token(context.params.at("token"));
  return HttpResponse::empty(204);
}

HttpResponse EmulatorService::admin_get_clock(const RouteContext&) {
  return HttpResponse::json(200, clock_json(clock_));
}

HttpResponse EmulatorService::admin_set_clock(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto advance_ms = fields.integer("advance_ms", false, 0);
  const auto now_text = fields.string("now", false);
  const auto frozen = fields.boolean("frozen", false);
  std::optional<std::int64_t> now_ms;
  if (now_text) {
    now_ms = parse_rfc3339(*now_text);
    if (!now_ms) {
      fields.add_issue(
          "now", {"DATE_TIME_INVALID", "Must be an RFC 3339 date-time, e.g. 2026-11-22T10:00:00.000Z."});
    } else if (*now_ms < clock_.now_ms()) {
      fields.add_issue("now", {"CLOCK_BACKWARDS", "The clock never moves backwards."});
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (now_ms) clock_.set(*now_ms);
  if (advance_ms) clock_.advance(*advance_ms);
  if (frozen) clock_.set_frozen(*frozen);
  lobby_sweep_idle();  // lobbies idle for their timeout by the new time go now
  return HttpResponse::json(200, clock_json(clock_));
}

HttpResponse EmulatorService::admin_add_fault(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto route_text = fields.string("route", true);
  std::optional<RoutePattern> route;
  if (route_text) {
    route = RoutePattern::parse(*route_text);
    if (!route) {
      fields.add_issue("route",
                       {"ROUTE_INVALID", "Must be \"<METHOD|*> <path pattern>\", e.g. \"GET /users/@me\"."});
    }
  }
  const auto status = fields.integer("status", false, 200, 599);
  const auto retry_after = fields.number("retry_after", false, 0.0);
  const auto global = fields.boolean("global", false);
  const auto delay_ms = fields.integer("delay_ms", false, 0, 600'000);
  const auto drop = fields.boolean("drop", false);
  const auto drop_after = fields.boolean("drop_after", false);
  const auto truncate = fields.boolean("truncate", false);
  auto raw_body = fields.string("body", false);
  auto content_type = fields.string("content_type", false);
  const auto count = fields.integer("count", false, 0, 1'000'000'000);
  if (!errors.empty()) return invalid_form_body(errors);

  Fault fault(std::move(*route));
  if (status) fault.status = static_cast<int>(*status);
  fault.retry_after_s = retry_after;
  fault.global = global.value_or(false);
  fault.delay_ms = delay_ms.value_or(0);
  fault.drop = drop.value_or(false);
  fault.drop_after = drop_after.value_or(false);
  fault.truncate = truncate.value_or(false);
  fault.body = std::move(raw_body);
  fault.content_type = std::move(content_type);
  fault.count = static_cast<int>(count.value_or(1));
  const auto id = faults_.add(std::move(fault));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("id");
                              write_string(writer, id);
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::admin_list_faults(const RouteContext&) {
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("faults");
                              writer.StartArray();
                              for (const auto& fault : faults_.faults()) {
                                writer.StartObject();
                                writer.Key("id");
                                write_string(writer, fault.id);
                                writer.Key("route");
                                write_string(writer, fault.route.text());
                                if (fault.status) {
                                  writer.Key("status");
                                  writer.Int(*fault.status);
                                }
                                if (fault.retry_after_s) {
                                  writer.Key("retry_after");
                                  writer.Double(*fault.retry_after_s);
                                }
                                writer.Key("global");
                                writer.Bool(fault.global);
                                writer.Key("delay_ms");
                                writer.Int64(fault.delay_ms);
                                writer.Key("drop");
                                writer.Bool(fault.drop);
                                writer.Key("drop_after");
                                writer.Bool(fault.drop_after);
                                writer.Key("truncate");
                                writer.Bool(fault.truncate);
                                if (fault.body) {
                                  writer.Key("body");
                                  write_string(writer, *fault.body);
                                }
                                if (fault.content_type) {
                                  writer.Key("content_type");
                                  write_string(writer, *fault.content_type);
                                }
                                writer.Key("count");
                                writer.Int(fault.count);
                                writer.Key("remaining");
                                writer.Int(fault.count == 0 ? 0 : fault.remaining);
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::admin_clear_faults(const RouteContext&) {
  faults_.clear();
  return HttpResponse::empty(204);
}

HttpResponse EmulatorService::admin_get_ratelimits(const RouteContext&) {
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("global_per_second");
                              writer.Int(rate_limiter_.global_per_second());
                              writer.Key("rules");
                              writer.StartArray();
                              for (const auto& rule : rate_limiter_.rules()) {
                                writer.StartObject();
                                writer.Key("route");
                                write_string(writer, rule.route.text());
                                writer.Key("limit");
                                writer.Int(rule.limit);
                                writer.Key("window_ms");
                                writer.Int64(rule.window_ms);
                                writer.Key("bucket");
                                write_string(writer, bucket_id("rule " + rule.route.text()));
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::admin_set_ratelimits(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const bool has_rule = fields.has("route") || fields.has("limit") || fields.has("window_ms");
  const auto global = fields.integer("global_per_second", !has_rule, 0, 1'000'000);
  std::optional<RoutePattern> route;
  std::optional<std::int64_t> limit;
  std::optional<std::int64_t> window_ms;
  if (has_rule) {
    if (const auto route_text = fields.string("route", true)) {
      route = RoutePattern::parse(*route_text);
      if (!route) {
        fields.add_issue(
            "route", {"ROUTE_INVALID", "Must be \"<METHOD|*> <path pattern>\", e.g. \"GET /users/@me\"."});
      }
    }
    limit = fields.integer("limit", true, 1, 1'000'000);
    window_ms = fields.integer("window_ms", true, 1, 86'400'000);
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (has_rule) rate_limiter_.add_rule({std::move(*route), static_cast<int>(*limit), *window_ms});
  if (global) rate_limiter_.set_global_per_second(static_cast<int>(*global));
  return admin_get_ratelimits(context);
}

HttpResponse EmulatorService::admin_reset_ratelimits(const RouteContext&) {
  rate_limiter_.reset_to_defaults();
  return HttpResponse::empty(204);
}

HttpResponse EmulatorService::admin_set_consent(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto user_id = fields.string("user_id", false);
  const auto deny = fields.boolean("deny", false);
  if (!errors.empty()) return invalid_form_body(errors);
  if (user_id) {
    const User* user = state_.find_user(*user_id);
    if (user == nullptr) return error_response(404, error_code::kUnknownUser, "Unknown User");
    if (user->bot || user->provisional) {
      fields.add_issue("user_id", {"USER_NOT_REGULAR", "Bots and provisional accounts cannot consent."});
      return invalid_form_body(errors);
    }
    state_.consent.user_id = std::move(user_id);
  }
  state_.consent.deny = deny.value_or(false);
  const auto effective = state_.consent.user_id ? state_.consent.user_id : state_.first_regular_user_id();
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("user_id");
                              write_optional_string(writer, effective);
                              writer.Key("deny");
                              writer.Bool(state_.consent.deny);
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::admin_ban_user(const RouteContext& context) {
  bool permanent = false;
  if (!context.request.body.empty()) {
    rapidjson::Document body;
    if (auto error = read_json_object(context.request, body)) return std::move(*error);
    FieldErrors errors;
    BodyFields fields(body, errors);
    permanent = fields.boolean("permanent", false).value_or(false);
    if (!errors.empty()) return invalid_form_body(errors);
  }
  User* user = state_.find_user_mutable(context.params.at("user_id"));
  if (user == nullptr) return error_response(404, error_code::kUnknownUser, "Unknown User");
  const auto restricted = ban_user(*user, permanent);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("user_id");
                              write_string(writer, user->id);
                              writer.Key("permanent");
                              writer.Bool(user->ban->permanent);
                              writer.Key("restricted_user_ids");
                              writer.StartArray();
                              for (const auto& id : restricted)
                                write_string(writer, id);
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::admin_unban_user(const RouteContext& context) {
  User* user = state_.find_user_mutable(context.params.at("user_id"));
  if (user == nullptr) return error_response(404, error_code::kUnknownUser, "Unknown User");
  if (!user->ban) return HttpResponse::empty(204);  // idempotent
  if (user->ban->permanent)
    return error_response(400, error_code::kGeneral, "A permanent ban cannot be lifted");
  user->ban.reset();
  // The restricted provisional accounts made by the ban may link (merge) again.
  for (auto* identity : state_.identities_restricted_by(user->id)) {
    identity->restricted_by_ban_of.reset();
    if (User* provisional = state_.find_user_mutable(identity->user_id)) provisional->restricted = false;
  }
  return HttpResponse::empty(204);
}

HttpResponse EmulatorService::admin_map_external_identity(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto type = fields.string("type", true);
  if (type && (!is_external_auth_type(*type) || *type == kBotIssuedAuthType)) {
    fields.add_issue("type", {"ENUM_TYPE_COERCE",
                              "Must be an external_auth_type other than DISCORD_BOT_ISSUED_ACCESS_TOKEN."});
  }
  auto token = fields.string("token", true);
  auto external_user_id = fields.string("external_user_id", true);
  if (token && token->empty()) fields.add_issue("token", required_field_issue());
  if (external_user_id && external_user_id->empty())
    fields.add_issue("external_user_id", required_field_issue());
  if (!errors.empty()) return invalid_form_body(errors);
  state_.map_external_token(*type, *token, *external_user_id);
  return HttpResponse::empty(204);
}

}  // namespace platformpp::emulator
