// Provisional accounts (docs/http-api.md, "Provisional accounts"): external identities exchanged for platform
// tokens under /api/v10/partner-sdk, their merge into a platform user (the token endpoint's
// authorization_code grant with external_auth_type/external_auth_token), unmerge, bans (POST/DELETE
// /_emulator/users/{id}/ban) and what they do to linked identities, and the admin route that maps external
// tokens to accounts.
#include "auth/auth_module.hpp"

#include "auth/external_auth.hpp"
#include "auth/oauth_error.hpp"
#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/random_token.hpp"
#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::size_t kExternalUserIdMax = 128;

// Looks like a JWT (three base64url parts) and carries the usual claims; the signature is random bytes, as
// nothing in the emulator verifies it.
std::string make_id_token(const std::string& user_id, const std::string& app_id, std::int64_t now_ms) {
  const auto header = R"({"alg":"HS256","typ":"JWT"})";
  const auto payload = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("iss");
    writer.String("platformpp-emulator");
    writer.Key("sub");
    write_string(writer, user_id);
    writer.Key("aud");
    write_string(writer, app_id);
    writer.Key("iat");
    writer.Int64(now_ms / 1000);
    writer.Key("exp");
    writer.Int64(now_ms / 1000 + kAccessTokenLifetimeS);
    writer.EndObject();
  });
  return base64url_encode(header) + "." + base64url_encode(payload) + "." + random_token(32);
}

FieldIssue unknown_type_issue(const std::string& type) {
  std::string expected;
  for (const auto candidate : kExternalAuthTypes) {
    if (!expected.empty()) expected += ", ";
    expected += candidate;
  }
  return {"ENUM_TYPE_COERCE",
          "Value \"" + type + "\" is not a valid external_auth_type; expected one of: " + expected + "."};
}

}  // namespace

void AuthModule::register_provisional_routes() {
  admin_router_.add("POST", "/users/{user_id}/ban", bind(&AuthModule::admin_ban_user));
  admin_router_.add("DELETE", "/users/{user_id}/ban", bind(&AuthModule::admin_unban_user));
  admin_router_.add("POST", "/external-identities", bind(&AuthModule::admin_map_external_identity));
  api_router_.add("POST", "/partner-sdk/token", bind(&AuthModule::api_partner_token));
  api_router_.add("POST", "/partner-sdk/token/bot", bind(&AuthModule::api_partner_token_bot));
  api_router_.add("POST", "/partner-sdk/provisional-accounts/unmerge",
                  bind(&AuthModule::api_partner_unmerge));
  api_router_.add("POST", "/partner-sdk/provisional-accounts/unmerge/bot",
                  bind(&AuthModule::api_partner_unmerge_bot));
}

const User& AuthModule::create_provisional_user(std::optional<std::string> global_name, bool restricted) {
  User user;
  user.id = snowflakes_.next_string();
  user.username = state_.next_provisional_username();
  user.global_name = std::move(global_name);
  user.provisional = true;
  user.restricted = restricted;
  return state_.add_user(std::move(user));
}

ExternalIdentity& AuthModule::ensure_identity(const IdentityKey& key,
                                              std::optional<std::string> global_name) {
  if (auto* existing = state_.find_identity(key)) return *existing;
  const auto& user = create_provisional_user(std::move(global_name), false);
  return state_.upsert_identity({key, user.id, false, std::nullopt});
}

std::optional<IdentityKey> AuthModule::external_identity_key(const Application& app, const std::string& type,
                                                             const std::string& token) {
  if (type == kBotIssuedAuthType) {
    const AccessGrant* grant = state_.find_grant_by_access_token(token);
    if (grant == nullptr || clock_.now_ms() >= grant->expires_at_ms || grant->app_id != app.id ||
        !grant->identity || grant->identity->type != kBotIssuedAuthType) {
      return std::nullopt;
    }
    return grant->identity;
  }
  return IdentityKey{app.id, type, state_.external_user_id_for(type, token)};
}

HttpResponse AuthModule::partner_token_response(const ExternalIdentity& identity) {
  // OIDC answers carry a refresh token the refresh grant then refuses (deprecated: re-authenticate instead).
  const bool oidc = identity.key.type == kOidcAuthType;
  AccessGrant grant;
  grant.user_id = identity.user_id;
  grant.app_id = identity.key.app_id;
  grant.scopes = {std::string(kProvisionalScope)};
  grant.refresh_deprecated = oidc;
  grant.identity = identity.key;
  const auto& stored = issue_grant(std::move(grant), oidc);
  return HttpResponse::json(
      200, token_json(stored, make_id_token(stored.user_id, stored.app_id, clock_.now_ms())));
}

std::variant<IdentityKey, HttpResponse> AuthModule::read_partner_token_request(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto client_id = fields.string("client_id", true);
  const auto client_secret = fields.string("client_secret", false);
  const auto type = fields.string("external_auth_type", true);
  if (type && !is_external_auth_type(*type))
    fields.add_issue("external_auth_type", unknown_type_issue(*type));
  const auto token = fields.string("external_auth_token", true);
  if (token && token->empty()) fields.add_issue("external_auth_token", required_field_issue());
  if (!errors.empty()) return invalid_form_body(errors);

  const Application* app = state_.find_application(*client_id);
  if (app == nullptr) return unknown_application();
  if (client_secret && *client_secret != app->client_secret) return status_error(401);
  auto key = external_identity_key(*app, *type, *token);
  if (!key) return error_response(401, error_code::kInvalidToken, "Invalid external_auth_token");
  return std::move(*key);
}

HttpResponse AuthModule::api_partner_token(const RouteContext& context) {
  auto request = read_partner_token_request(context);
  if (auto* error = std::get_if<HttpResponse>(&request)) return std::move(*error);
  // First exchange creates the provisional account; later ones reach the same account (or the merged user).
  return partner_token_response(ensure_identity(std::get<IdentityKey>(request), std::nullopt));
}

HttpResponse AuthModule::api_partner_token_bot(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal || principal->grant != nullptr) return status_error(401);  // Bot tokens only
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto external_user_id = fields.string("external_user_id", true);
  if (external_user_id && (external_user_id->empty() || external_user_id->size() > kExternalUserIdMax)) {
    fields.add_issue("external_user_id", length_issue(1, kExternalUserIdMax));
  }
  auto global_name = fields.string("preferred_global_name", false);
  if (global_name) {
    if (auto issue = check_global_name(*global_name))
      fields.add_issue("preferred_global_name", std::move(*issue));
  }
  if (!errors.empty()) return invalid_form_body(errors);
  const IdentityKey key{principal->application->id, std::string(kBotIssuedAuthType),
                        std::move(*external_user_id)};
  return partner_token_response(ensure_identity(key, std::move(global_name)));
}

HttpResponse AuthModule::api_partner_unmerge(const RouteContext& context) {
  auto request = read_partner_token_request(context);
  if (auto* error = std::get_if<HttpResponse>(&request)) return std::move(*error);
  return unmerge_identity(std::get<IdentityKey>(request));
}

HttpResponse AuthModule::api_partner_unmerge_bot(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal || principal->grant != nullptr) return status_error(401);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto external_user_id = fields.string("external_user_id", true);
  if (!errors.empty()) return invalid_form_body(errors);
  return unmerge_identity(
      {principal->application->id, std::string(kBotIssuedAuthType), std::move(*external_user_id)});
}

std::optional<HttpResponse> AuthModule::merge_identity(const IdentityKey& key, const User& user) {
  namespace oe = oauth_error_code;
  if (user.ban) {
    return oauth_error(oe::kInvalidGrant,
                       "Account merge is not allowed while the platform account is banned.",
                       error_code::kMergeWhileBanned);
  }
  ExternalIdentity* identity = state_.find_identity(key);
  if (identity == nullptr) {
    state_.upsert_identity({key, user.id, true, std::nullopt});
    return std::nullopt;
  }
  if (identity->restricted_by_ban_of) {
    return oauth_error(oe::kInvalidGrant,
                       "Account merge is not allowed: this identity's platform account is banned.",
                       error_code::kMergeWhileBanned);
  }
  if (identity->merged) {
    if (identity->user_id == user.id) return std::nullopt;
    return oauth_error(oe::kInvalidGrant,
                       "The external identity is already linked to another platform account.");
  }
  // The provisional account's data becomes the user's (users carry no other data yet), then it disappears.
  const auto provisional_id = identity->user_id;
  identity->user_id = user.id;
  identity->merged = true;
  state_.remove_user(provisional_id);
  return std::nullopt;
}

HttpResponse AuthModule::unmerge_identity(const IdentityKey& key) {
  ExternalIdentity* identity = state_.find_identity(key);
  if (identity == nullptr || !identity->merged) {
    return error_response(400, error_code::kNotMerged,
                          "Account is not merged: this external identity has no linked platform account");
  }
  // The link's tokens go (a refresh then gets invalid_grant); the platform user keeps its data.
  const auto user_id = identity->user_id;
  state_.revoke_user_grants(user_id, key.app_id);
  identity->user_id = create_provisional_user(std::nullopt, false).id;
  identity->merged = false;
  // The game's server hears the link is severed.
  if (const User* user = state_.find_user(user_id)) webhooks_.application_deauthorized(key.app_id, *user);
  return HttpResponse::empty(204);
}

std::vector<std::string> AuthModule::ban_user(User& user, bool permanent) {
  user.ban = Ban{permanent || (user.ban && user.ban->permanent)};
  state_.revoke_user_grants(user.id);
  // Linked game accounts are severed: each identity gets a restricted provisional account of its own.
  std::vector<std::string> restricted;
  for (auto* identity : state_.identities_of_user(user.id)) {
    if (!identity->merged) continue;
    identity->user_id = create_provisional_user(std::nullopt, true).id;
    identity->merged = false;
    identity->restricted_by_ban_of = user.id;
    restricted.push_back(identity->user_id);
  }
  return restricted;
}

// ---- admin: bans and external identities -----------------------------------------------------------------

HttpResponse AuthModule::admin_ban_user(const RouteContext& context) {
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
  if (user == nullptr) return unknown_user();
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

HttpResponse AuthModule::admin_unban_user(const RouteContext& context) {
  User* user = state_.find_user_mutable(context.params.at("user_id"));
  if (user == nullptr) return unknown_user();
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

HttpResponse AuthModule::admin_map_external_identity(const RouteContext& context) {
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
