// Admin API under /_emulator: health, seeding applications, users and tokens, and the fake clock. Paths here
// are relative to /_emulator. Not rate-limited.
#include "admin/admin_module.hpp"

#include <sodium.h>

#include <array>
#include <chrono>
#include <cmath>

#include "auth/auth_module.hpp"
#include "auth/scopes.hpp"
#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/random_token.hpp"
#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

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

AdminModule::AdminModule(ServiceContext& context, std::function<void()> clock_moved, WebhookModule& webhooks)
    : FeatureModule(context), clock_moved_(std::move(clock_moved)), webhooks_(webhooks) {
  admin_router_.add("GET", "/health", bind(&AdminModule::admin_health));
  admin_router_.add("POST", "/apps", bind(&AdminModule::admin_create_app));
  admin_router_.add("POST", "/users", bind(&AdminModule::admin_create_user));
  admin_router_.add("POST", "/tokens", bind(&AdminModule::admin_create_token));
  admin_router_.add("DELETE", "/tokens/{token}", bind(&AdminModule::admin_revoke_token));
  admin_router_.add("GET", "/clock", bind(&AdminModule::admin_get_clock));
  admin_router_.add("POST", "/clock", bind(&AdminModule::admin_set_clock));
}

HttpResponse AdminModule::admin_health(const RouteContext&) {
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

HttpResponse AdminModule::admin_create_app(const RouteContext& context) {
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
    return unknown_application();
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
                              writer.Key("verify_key");  // the developer portal's "public key"
                              write_string(writer, stored.verify_key);
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

HttpResponse AdminModule::admin_create_user(const RouteContext& context) {
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

HttpResponse AdminModule::admin_create_token(const RouteContext& context) {
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
  if (state_.find_user(*user_id) == nullptr) return unknown_user();
  if (state_.find_application(*app_id) == nullptr) {
    return unknown_application();
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

HttpResponse AdminModule::admin_revoke_token(const RouteContext& context) {
  // Idempotent: revoking an unknown or already revoked token also answers 204. The whole grant goes, so
  // deleting an access token also kills its refresh token (a refresh then gets invalid_grant).
  const auto& token = context.params.at("token");
  const AccessGrant* grant = state_.find_grant_by_access_token(token);
  if (grant == nullptr) grant = state_.find_grant_by_refresh_token(token);
  if (grant == nullptr) return HttpResponse::empty(204);
  const auto user_id = grant->user_id;
  const auto app_id = grant->app_id;
  state_.revoke_token(token);
  webhooks_.grant_revoked(user_id, app_id);  // a user unlinking
  return HttpResponse::empty(204);
}

HttpResponse AdminModule::admin_get_clock(const RouteContext&) {
  return HttpResponse::json(200, clock_json(clock_));
}

HttpResponse AdminModule::admin_set_clock(const RouteContext& context) {
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
  if (now_ms || advance_ms || frozen) changes_.touch(kClockDocument, kClockDocument);
  if (clock_moved_) clock_moved_();  // e.g. lobbies idle for their timeout by the new time go now
  return HttpResponse::json(200, clock_json(clock_));
}

}  // namespace platformpp::emulator
