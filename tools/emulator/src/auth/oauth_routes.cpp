// OAuth2: the headless consent page /oauth2/authorize (web root), the token and revoke endpoints and
// /oauth2/@me under /api/v10, the bot's application (/applications/@me), and the consent (POST
// /_emulator/consent, GET /_emulator/authorize). Token endpoints answer RFC 6749 error bodies, not the
// platform's error shape.
#include "auth/auth_module.hpp"

#include <algorithm>
#include <cctype>

#include "auth/basic_auth.hpp"
#include "auth/code_challenge.hpp"
#include "auth/external_auth.hpp"
#include "auth/oauth_error.hpp"
#include "auth/scopes.hpp"
#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/random_token.hpp"
#include "core/user_json.hpp"
#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

namespace oe = oauth_error_code;

// The members every application object of the API has (the published ApplicationResponse's required ones plus
// the bot flags), written into an object the caller has started: /oauth2/@me's application, the start of
// /applications/@me.
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
  // GATEWAY_PRESENCE, GATEWAY_GUILD_MEMBERS, GATEWAY_MESSAGE_CONTENT for the privileged intents enabled, and
  // the flags the admin set: bits beyond 30 only in flags_new.
  writer.Key("flags");
  writer.Uint64(app.flags_31_bits());
  writer.Key("flags_new");
  write_string(writer, std::to_string(app.flags()));
}

constexpr const char* kRefreshDeprecated =
    "The refresh_token grant is deprecated for provisional accounts: re-authenticate with the identity "
    "provider and call UpdateToken with the new token.";

// "http://127.0.0.1[:port][/path]" (or [::1]): native apps listen on any loopback port (RFC 8252
// section 7.3).
bool is_loopback_redirect(std::string_view uri) {
  for (const std::string_view origin : {"http://127.0.0.1", "http://[::1]"}) {
    if (!uri.starts_with(origin)) continue;
    auto rest = uri.substr(origin.size());
    if (rest.starts_with(':')) {
      rest.remove_prefix(1);
      const auto digits = std::min(rest.find_first_not_of("0123456789"), rest.size());
      if (digits == 0 || digits > 5 || std::stoi(std::string(rest.substr(0, digits))) > 65535) return false;
      rest.remove_prefix(digits);
    }
    return rest.empty() || rest.front() == '/' || rest.front() == '?';
  }
  return false;
}

// "<scheme>:/authorize/callback", the mobile redirect (not http/https, which must be registered).
bool is_custom_scheme_callback(std::string_view uri) {
  const auto colon = uri.find(':');
  if (colon == 0 || colon == std::string_view::npos) return false;
  const auto scheme = uri.substr(0, colon);
  if (std::isalpha(static_cast<unsigned char>(scheme.front())) == 0) return false;
  const bool valid = std::all_of(scheme.begin(), scheme.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
  });
  if (!valid || iequals(scheme, "http") || iequals(scheme, "https")) return false;
  return uri.substr(colon) == ":/authorize/callback";
}

HttpResponse no_store(HttpResponse response) {
  response.set_header("Cache-Control", "no-store");
  response.set_header("Pragma", "no-cache");
  return response;
}

// Parses a token-endpoint body: form-urlencoded only (JSON is a common client bug the platform refuses).
std::variant<FormFields, HttpResponse> read_form(const HttpRequest& request) {
  if (!has_form_content_type(request)) {
    return oauth_error(oe::kInvalidRequest, "The body must be application/x-www-form-urlencoded.");
  }
  auto form = FormFields::parse(request.body);
  if (!form) return oauth_error(oe::kInvalidRequest, "The body has a malformed percent-encoding.");
  if (const auto name = form->repeated()) {
    return oauth_error(oe::kInvalidRequest, "Parameter " + *name + " is repeated.");
  }
  return std::move(*form);
}

constexpr std::string_view kTokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange";
constexpr std::string_view kAccessTokenType = "urn:ietf:params:oauth:token-type:access_token";

// The form's `scope`, which may narrow `granted` (RFC 6749 section 6), or the invalid_scope error when it
// asks for more; `granted` when absent.
std::variant<std::vector<std::string>, HttpResponse> requested_scopes(
    const FormFields& form, const std::vector<std::string>& granted) {
  const auto requested = form.get("scope");
  if (!requested) return granted;
  auto scopes = split_scopes(*requested);
  for (const auto& scope : scopes) {
    if (std::find(granted.begin(), granted.end(), scope) == granted.end()) {
      return oauth_error(oe::kInvalidScope, "scope " + scope + " was not granted.");
    }
  }
  if (scopes.empty()) return granted;
  return scopes;
}

}  // namespace

bool redirect_uri_allowed(const Application& app, std::string_view uri) {
  if (uri.find('#') != std::string_view::npos) return false;  // RFC 6749 section 3.1.2: no fragment
  if (is_loopback_redirect(uri) || is_custom_scheme_callback(uri)) return true;
  return std::find(app.redirect_uris.begin(), app.redirect_uris.end(), uri) != app.redirect_uris.end();
}

std::string token_json(const AccessGrant& grant, std::optional<std::string_view> id_token,
                       const std::optional<std::string>& guild_json) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("access_token");
    write_string(writer, grant.access_token);
    writer.Key("token_type");
    writer.String("Bearer");
    writer.Key("expires_in");
    writer.Int64(kAccessTokenLifetimeS);
    if (!grant.refresh_token.empty()) {
      writer.Key("refresh_token");
      write_string(writer, grant.refresh_token);
    }
    writer.Key("scope");
    write_string(writer, join_scopes(grant.scopes));
    if (id_token) {
      writer.Key("id_token");
      write_string(writer, *id_token);
    }
    if (guild_json) {
      writer.Key("guild");
      write_raw(writer, *guild_json, rapidjson::kObjectType);
    }
    writer.EndObject();
  });
}

AuthModule::AuthModule(ServiceContext& context, WebhookModule& webhooks)
    : FeatureModule(context), webhooks_(webhooks) {
  register_oauth_routes();
  register_provisional_routes();
}

void AuthModule::register_oauth_routes() {
  api_router_.add("GET", "/applications/@me", bind(&AuthModule::api_get_my_application));
  api_router_.add("GET", "/oauth2/applications/@me", bind(&AuthModule::api_get_my_application));
  web_router_.add("GET", "/oauth2/authorize", bind(&AuthModule::web_authorize));
  admin_router_.add("GET", "/authorize", bind(&AuthModule::admin_authorize));
  admin_router_.add("POST", "/consent", bind(&AuthModule::admin_set_consent));
  admin_router_.add("DELETE", "/users/{user_id}/applications/{app_id}",
                    bind(&AuthModule::admin_remove_application));
  api_router_.add("POST", "/oauth2/token", bind(&AuthModule::api_oauth_token));
  api_router_.add("POST", "/oauth2/token/revoke", bind(&AuthModule::api_oauth_revoke));
  api_router_.add("GET", "/oauth2/@me", bind(&AuthModule::api_oauth_current_authorization));
}

const AccessGrant& AuthModule::issue_grant(AccessGrant grant, bool with_refresh_token) {
  grant.access_token = random_token(32);
  grant.refresh_token = with_refresh_token ? random_token(32) : std::string();
  grant.expires_at_ms = clock_.now_ms() + kAccessTokenLifetimeS * 1000;
  return state_.add_grant(std::move(grant));
}

AuthModule::AuthorizeOutcome AuthModule::authorize(const HttpRequest& request) {
  AuthorizeOutcome outcome;
  const auto query = FormFields::parse(query_of(request));
  if (!query) {
    outcome.error = oauth_error(oe::kInvalidRequest, "The query string has a malformed percent-encoding.");
    return outcome;
  }
  if (const auto name = query->repeated()) {
    outcome.error = oauth_error(oe::kInvalidRequest, "Parameter " + *name + " is repeated.");
    return outcome;
  }
  // Until client and redirect URI are known good, errors are shown here, never redirected (RFC 6749 4.1.2.1).
  const auto client_id = query->get("client_id");
  const Application* app = client_id ? state_.find_application(*client_id) : nullptr;
  if (app == nullptr) {
    outcome.error =
        oauth_error(oe::kInvalidRequest, client_id ? "Unknown client_id." : "client_id is required.");
    return outcome;
  }
  const auto scopes = split_scopes(query->get("scope").value_or(""));
  const bool bot_scope = std::find(scopes.begin(), scopes.end(), "bot") != scopes.end();
  // The installation context: 0 a guild, 1 the user's account; scope `bot` installs to a guild.
  std::optional<int> integration_type;
  if (const auto text = query->get("integration_type")) {
    if (*text != "0" && *text != "1") {
      outcome.error = oauth_error(oe::kInvalidRequest, "integration_type must be 0 (guild) or 1 (user).");
      return outcome;
    }
    integration_type = *text == "0" ? 0 : 1;
  }
  const bool guild_install = integration_type.value_or(bot_scope ? 0 : 1) == 0;
  if (bot_scope && !guild_install) {
    outcome.error =
        oauth_error(oe::kInvalidScope, "Scope bot installs to a guild: integration_type must be 0.");
    return outcome;
  }
  // The bot authorization flow: no response_type and nothing but `bot` and `applications.commands` adds the
  // bot to a guild without a code, so it needs no redirect URI either.
  const bool codeless = guild_install && !scopes.empty() && !query->get("response_type") &&
                        std::all_of(scopes.begin(), scopes.end(), [](const std::string& scope) {
                          return scope == "bot" || scope == "applications.commands";
                        });

  auto redirect_uri = query->get("redirect_uri");
  if (!redirect_uri && app->redirect_uris.size() == 1 && !codeless) redirect_uri = app->redirect_uris.front();
  if (!redirect_uri && !codeless) {
    outcome.error = oauth_error(oe::kInvalidRequest, "redirect_uri is required.");
    return outcome;
  }
  if (redirect_uri && !redirect_uri_allowed(*app, *redirect_uri)) {
    outcome.error = oauth_error(oe::kInvalidRequest, "redirect_uri is not allowed for this application.");
    return outcome;
  }

  const auto state = query->get("state");
  // Errors from here on go back to the redirect URI; the codeless flow, which may have none, shows them.
  auto redirect = [&](std::vector<std::pair<std::string, std::string>> params) {
    if (state) params.emplace_back("state", *state);
    outcome.location = append_query(*redirect_uri, params);
    return outcome;
  };
  auto redirect_error = [&](const char* error, std::string description) {
    if (!redirect_uri) {
      outcome.error = oauth_error(error, std::move(description));
      return outcome;
    }
    return redirect({{"error", error}, {"error_description", std::move(description)}});
  };

  if (!codeless && query->get("response_type") != "code") {
    return redirect_error(oe::kUnsupportedResponseType, "response_type must be code.");
  }

  // A guild install: the consenting user picks the guild (guild_id; the headless consent has no picker) and
  // must be allowed to manage it. The bot joins when the user consents, with the permissions asked for.
  std::optional<std::string> guild_id;
  std::uint64_t permissions = 0;
  if (guild_install) {
    guild_id = query->get("guild_id");
    if (!guild_id) {
      return redirect_error(
          oe::kInvalidRequest,
          "guild_id is required for a guild install (the emulator's consent has no picker).");
    }
    if (const auto text = query->get("permissions")) {
      const auto bits = decimal_bits(*text);
      if (!bits) return redirect_error(oe::kInvalidRequest, "permissions must be decimal permission bits.");
      permissions = *bits;
    }
    const User* user = consenting_user();
    if (user != nullptr && !state_.consent.deny) {
      if (guild_installs_ == nullptr)
        return redirect_error(oe::kInvalidRequest, "Guild installs are not served.");
      switch (guild_installs_->may_install(*guild_id, user->id)) {
        case GuildInstalls::Check::unknown_guild:
          return redirect_error(oe::kInvalidRequest, "Unknown guild.");
        case GuildInstalls::Check::not_permitted:
          return redirect_error(oe::kAccessDenied,
                                "The user may not add applications to that guild (MANAGE_GUILD).");
        case GuildInstalls::Check::allowed:
          break;
      }
    }
  }

  // Adds the bot (a guild install) and announces it: APPLICATION_AUTHORIZED with integration_type 0 and the
  // guild. The redirect then carries guild_id and permissions as the platform's does.
  std::vector<std::pair<std::string, std::string>> install_params;
  auto install = [&] {
    if (!guild_install) return;
    const User* user = consenting_user();
    const auto guild_json = guild_installs_->install_bot(*app, *guild_id, permissions);
    webhooks_.application_authorized(app->id, *user, scopes, guild_json);
    install_params = {{"guild_id", *guild_id}, {"permissions", std::to_string(permissions)}};
  };

  if (codeless) {
    const User* user = consenting_user();
    if (user == nullptr) {
      outcome.error = oauth_error(oe::kInvalidRequest,
                                  "No consenting user: create one (POST /_emulator/users) or choose one "
                                  "(POST /_emulator/consent).");
      return outcome;
    }
    if (state_.consent.deny) return redirect_error(oe::kAccessDenied, "The user denied the authorization.");
    install();
    outcome.installed_guild_id = guild_id;
    outcome.installed_permissions = permissions;
    if (redirect_uri) return redirect(install_params);
    return outcome;
  }

  auto consent = consent_code(*app, *redirect_uri, scopes, query->get("code_challenge"),
                              query->get("code_challenge_method"), guild_install ? guild_id : std::nullopt);
  if (auto* code = std::get_if<std::string>(&consent)) {
    install();
    auto params = install_params;
    params.insert(params.begin(), {"code", std::move(*code)});
    return redirect(std::move(params));
  }
  auto& failure = std::get<ConsentFailure>(consent);
  switch (failure.kind) {
    case ConsentFailure::Kind::no_consenting_user:
      outcome.error = oauth_error(oe::kInvalidRequest, failure.description);
      return outcome;
    case ConsentFailure::Kind::invalid_scope:
      return redirect_error(oe::kInvalidScope, std::move(failure.description));
    case ConsentFailure::Kind::access_denied:
      return redirect_error(oe::kAccessDenied, std::move(failure.description));
    case ConsentFailure::Kind::invalid_request:
      break;
  }
  return redirect_error(oe::kInvalidRequest, std::move(failure.description));
}

const User* AuthModule::consenting_user() const {
  const auto& id = state_.consent.user_id ? state_.consent.user_id : state_.first_regular_user_id();
  return id ? state_.find_user(*id) : nullptr;
}

std::variant<std::string, AuthModule::ConsentFailure> AuthModule::consent_code(
    const Application& app, const std::string& redirect_uri, std::vector<std::string> scopes,
    const std::optional<std::string>& challenge, const std::optional<std::string>& method,
    const std::optional<std::string>& guild_id) {
  using Kind = ConsentFailure::Kind;
  if (scopes.empty()) return ConsentFailure{Kind::invalid_scope, "scope is required."};
  if (method && *method != "S256")
    return ConsentFailure{Kind::invalid_request, "code_challenge_method must be S256."};
  if (challenge && !method) {
    return ConsentFailure{Kind::invalid_request, "code_challenge_method=S256 must accompany code_challenge."};
  }
  if (method && !challenge) return ConsentFailure{Kind::invalid_request, "code_challenge is required."};
  if (challenge && !is_valid_code_verifier(*challenge)) {
    return ConsentFailure{Kind::invalid_request,
                          "code_challenge must be 43-128 characters of [A-Za-z0-9-._~]."};
  }

  // Headless consent: the configured user answers the consent screen.
  const User* user = consenting_user();
  if (user == nullptr) {
    return ConsentFailure{Kind::no_consenting_user,
                          "No consenting user: create one (POST /_emulator/users) or choose one "
                          "(POST /_emulator/consent)."};
  }
  if (state_.consent.deny) return ConsentFailure{Kind::access_denied, "The user denied the authorization."};

  AuthorizationCode code;
  code.code = random_token(32);
  code.app_id = app.id;
  code.user_id = user->id;
  code.redirect_uri = redirect_uri;
  code.scopes = std::move(scopes);
  code.code_challenge = challenge;
  code.guild_id = guild_id;
  code.expires_at_ms = clock_.now_ms() + kAuthorizationCodeLifetimeMs;
  auto code_value = code.code;
  state_.add_code(std::move(code));
  return code_value;
}

HttpResponse AuthModule::web_authorize(const RouteContext& context) {
  auto outcome = authorize(context.request);
  if (outcome.installed_guild_id && !outcome.location) {
    // The platform's page says the application was added; a browser gets the same in words.
    auto response = HttpResponse::empty(200);
    response.body = "Authorized: the application was added to guild " + *outcome.installed_guild_id + ".\n";
    response.set_header("Content-Type", "text/plain; charset=utf-8");
    response.set_header("Cache-Control", "no-store");
    return response;
  }
  if (!outcome.location) return outcome.error;
  auto response = HttpResponse::empty(302);
  response.set_header("Location", std::move(*outcome.location));
  response.set_header("Cache-Control", "no-store");
  return response;
}

HttpResponse AuthModule::admin_authorize(const RouteContext& context) {
  auto outcome = authorize(context.request);
  if (!outcome.location && !outcome.installed_guild_id) return outcome.error;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              if (outcome.location) {
                                writer.Key("location");
                                write_string(writer, *outcome.location);
                              }
                              if (outcome.installed_guild_id) {
                                writer.Key("guild_id");
                                write_string(writer, *outcome.installed_guild_id);
                                writer.Key("permissions");
                                write_string(writer, std::to_string(outcome.installed_permissions));
                              }
                              writer.EndObject();
                            }));
}

std::variant<AuthModule::ClientAuth, HttpResponse> AuthModule::authenticate_client(const HttpRequest& request,
                                                                                   const FormFields& form) {
  auto client_id = form.get("client_id");
  auto secret = form.get("client_secret");
  if (const auto header = request.header("Authorization")) {
    const auto basic = parse_basic_authorization(*header);
    if (!basic)
      return oauth_error(oe::kInvalidClient, "Client authentication failed: malformed Basic credentials.");
    if (secret) return oauth_error(oe::kInvalidRequest, "Use one client authentication method, not two.");
    if (client_id && *client_id != basic->user) {
      return oauth_error(oe::kInvalidRequest, "client_id differs from the Basic credentials.");
    }
    client_id = basic->user;
    if (!basic->password.empty()) secret = basic->password;
  }
  if (!client_id) {
    return oauth_error(oe::kInvalidClient,
                       "Client authentication failed: send HTTP Basic credentials or a client_id.");
  }
  const Application* app = state_.find_application(*client_id);
  if (app == nullptr) return oauth_error(oe::kInvalidClient, "Client authentication failed: unknown client.");
  if (secret) {
    if (*secret != app->client_secret) {
      return oauth_error(oe::kInvalidClient, "Client authentication failed: wrong client secret.");
    }
    return ClientAuth{app, true};
  }
  if (!app->public_client_flows) {
    return oauth_error(oe::kInvalidClient, "Client authentication failed: the client secret is required.");
  }
  return ClientAuth{app, false};
}

HttpResponse AuthModule::api_oauth_token(const RouteContext& context) {
  auto form = read_form(context.request);
  if (auto* error = std::get_if<HttpResponse>(&form)) return std::move(*error);
  const auto& fields = std::get<FormFields>(form);
  auto client = authenticate_client(context.request, fields);
  if (auto* error = std::get_if<HttpResponse>(&client)) return std::move(*error);
  const auto& auth = std::get<ClientAuth>(client);

  const auto grant_type = fields.get("grant_type");
  if (!grant_type) return oauth_error(oe::kInvalidRequest, "grant_type is required.");
  if (*grant_type == "authorization_code") return no_store(grant_authorization_code(fields, auth));
  if (*grant_type == "refresh_token") return no_store(grant_refresh_token(fields, auth));
  if (*grant_type == "client_credentials") return no_store(grant_client_credentials(fields, auth));
  if (*grant_type == kTokenExchangeGrant) return no_store(grant_token_exchange(fields, auth));
  return oauth_error(oe::kUnsupportedGrantType, "Unsupported grant_type " + *grant_type + ".");
}

HttpResponse AuthModule::grant_authorization_code(const FormFields& form, const ClientAuth& client) {
  const auto code_value = form.get("code");
  if (!code_value) return oauth_error(oe::kInvalidRequest, "code is required.");
  const auto redirect_uri = form.get("redirect_uri");
  if (!redirect_uri) return oauth_error(oe::kInvalidRequest, "redirect_uri is required.");
  const auto verifier = form.get("code_verifier");
  if (verifier && !is_valid_code_verifier(*verifier)) {
    return oauth_error(oe::kInvalidRequest, "code_verifier must be 43-128 characters of [A-Za-z0-9-._~].");
  }
  const auto external_type = form.get("external_auth_type");
  const auto external_token = form.get("external_auth_token");
  if (external_type.has_value() != external_token.has_value()) {
    return oauth_error(oe::kInvalidRequest, "external_auth_type and external_auth_token go together.");
  }
  if (external_type && !is_external_auth_type(*external_type)) {
    return oauth_error(oe::kInvalidRequest, "Unknown external_auth_type " + *external_type + ".");
  }

  // Any attempt with a well-formed request spends the code, so a guessed verifier gets one try.
  const auto code = state_.take_code(*code_value);
  if (!code) return oauth_error(oe::kInvalidGrant, "Invalid authorization code (unknown or already used).");
  if (code->app_id != client.app->id) {
    return oauth_error(oe::kInvalidGrant, "The authorization code was issued to another client.");
  }
  if (clock_.now_ms() >= code->expires_at_ms) {
    return oauth_error(oe::kInvalidGrant, "The authorization code has expired.");
  }
  if (*redirect_uri != code->redirect_uri) {
    return oauth_error(oe::kInvalidGrant, "redirect_uri does not match the authorization request.");
  }
  if (code->code_challenge) {
    if (!verifier)
      return oauth_error(oe::kInvalidGrant, "code_verifier is required (the request used PKCE).");
    if (s256_code_challenge(*verifier) != *code->code_challenge) {
      return oauth_error(oe::kInvalidGrant, "PKCE verification failed: code_verifier does not match.");
    }
  } else if (verifier) {
    return oauth_error(oe::kInvalidGrant, "code_verifier sent, but the authorization had no code_challenge.");
  } else if (!client.confidential) {
    return oauth_error(oe::kInvalidRequest, "Public clients must use PKCE (code_challenge, code_verifier).");
  }
  const User* user = state_.find_user(code->user_id);
  if (user == nullptr) return oauth_error(oe::kInvalidGrant, "The authorizing user no longer exists.");

  if (external_type) {
    const auto key = external_identity_key(*client.app, *external_type, *external_token);
    if (!key) return oauth_error(oe::kInvalidGrant, "external_auth_token is not valid.");
    if (auto error = merge_identity(*key, *user)) return std::move(*error);
  } else if (user->ban) {
    return oauth_error(oe::kInvalidGrant, "The user is banned.");
  }

  AccessGrant grant;
  grant.user_id = user->id;
  grant.app_id = client.app->id;
  grant.scopes = code->scopes;
  const auto& issued = issue_grant(std::move(grant), true);
  // A guild install's code: the guild the bot was added to comes with the token, and its
  // APPLICATION_AUTHORIZED went out when the user consented. Otherwise this is a user install, announced now.
  if (code->guild_id && guild_installs_ != nullptr) {
    return HttpResponse::json(200,
                              token_json(issued, std::nullopt, guild_installs_->guild_json(*code->guild_id)));
  }
  webhooks_.application_authorized(client.app->id, *user, code->scopes);
  return HttpResponse::json(200, token_json(issued));
}

HttpResponse AuthModule::grant_refresh_token(const FormFields& form, const ClientAuth& client) {
  const auto refresh_token = form.get("refresh_token");
  if (!refresh_token) return oauth_error(oe::kInvalidRequest, "refresh_token is required.");
  const AccessGrant* old = state_.find_grant_by_refresh_token(*refresh_token);
  if (old == nullptr) {
    return oauth_error(oe::kInvalidGrant, "Invalid refresh token (unknown, rotated, revoked or deleted).");
  }
  if (old->app_id != client.app->id) {
    return oauth_error(oe::kInvalidGrant, "The refresh token was issued to another client.");
  }
  if (old->refresh_deprecated) return oauth_error(oe::kInvalidGrant, kRefreshDeprecated);
  auto scopes = requested_scopes(form, old->scopes);
  if (auto* error = std::get_if<HttpResponse>(&scopes)) return std::move(*error);
  AccessGrant grant;
  grant.user_id = old->user_id;
  grant.app_id = old->app_id;
  grant.scopes = std::move(std::get<std::vector<std::string>>(scopes));
  grant.identity = old->identity;
  // Rotation: both old tokens die with the old grant.
  state_.revoke_token(*refresh_token);
  return HttpResponse::json(200, token_json(issue_grant(std::move(grant), true)));
}

HttpResponse AuthModule::grant_client_credentials(const FormFields& form, const ClientAuth& client) {
  if (!client.confidential) {
    return oauth_error(oe::kInvalidClient, "client_credentials needs the client secret (HTTP Basic).");
  }
  AccessGrant grant;
  grant.user_id = client.app->bot_user_id;
  grant.app_id = client.app->id;
  grant.scopes = split_scopes(form.get("scope").value_or("identify"));
  if (grant.scopes.empty()) grant.scopes = {"identify"};
  return HttpResponse::json(200, token_json(issue_grant(std::move(grant), false)));
}

// RFC 8693 token exchange, our wire format for publisher parent/child applications (the platform does not
// document one): a parent application's user access token buys the same user a token of a child application.
HttpResponse AuthModule::grant_token_exchange(const FormFields& form, const ClientAuth& client) {
  const auto subject_token = form.get("subject_token");
  if (!subject_token || subject_token->empty())
    return oauth_error(oe::kInvalidRequest, "subject_token is required.");
  const auto subject_type = form.get("subject_token_type");
  if (!subject_type) return oauth_error(oe::kInvalidRequest, "subject_token_type is required.");
  if (*subject_type != kAccessTokenType) {
    return oauth_error(oe::kInvalidRequest,
                       "subject_token_type must be urn:ietf:params:oauth:token-type:access_token.");
  }
  if (const auto requested = form.get("requested_token_type"); requested && *requested != kAccessTokenType) {
    return oauth_error(oe::kInvalidRequest,
                       "requested_token_type must be urn:ietf:params:oauth:token-type:access_token.");
  }
  const AccessGrant* parent = state_.find_grant_by_access_token(*subject_token);
  if (parent == nullptr || clock_.now_ms() >= parent->expires_at_ms) {
    return oauth_error(oe::kInvalidGrant,
                       "subject_token is not a valid access token (unknown, revoked or expired).");
  }
  if (!client.app->parent_id || parent->app_id != *client.app->parent_id) {
    return oauth_error(oe::kInvalidGrant, "The token's application is not the parent of this application.");
  }
  const User* user = state_.find_user(parent->user_id);
  if (user == nullptr || user->bot) {
    return oauth_error(oe::kInvalidGrant, "subject_token does not belong to a user account.");
  }
  if (user->ban) return oauth_error(oe::kInvalidGrant, "The user is banned.");
  auto scopes = requested_scopes(form, parent->scopes);
  if (auto* error = std::get_if<HttpResponse>(&scopes)) return std::move(*error);

  // An authorization of its own: revoking either side leaves the other alone.
  AccessGrant grant;
  grant.user_id = user->id;
  grant.app_id = client.app->id;
  grant.scopes = std::move(std::get<std::vector<std::string>>(scopes));
  const auto& stored = issue_grant(std::move(grant), true);
  auto body = token_json(stored);
  // RFC 8693 section 2.2.1 requires issued_token_type: splice it in before the closing brace.
  body.insert(body.size() - 1, R"(,"issued_token_type":")" + std::string(kAccessTokenType) + "\"");
  return HttpResponse::json(200, std::move(body));
}

HttpResponse AuthModule::api_oauth_revoke(const RouteContext& context) {
  auto form = read_form(context.request);
  if (auto* error = std::get_if<HttpResponse>(&form)) return std::move(*error);
  const auto& fields = std::get<FormFields>(form);
  auto client = authenticate_client(context.request, fields);
  if (auto* error = std::get_if<HttpResponse>(&client)) return std::move(*error);
  const auto token = fields.get("token");
  if (!token) return oauth_error(oe::kInvalidRequest, "token is required.");
  // token_type_hint is optional and may be ignored (RFC 7009 section 2.1): both kinds are looked up.
  const AccessGrant* grant = state_.find_grant_by_access_token(*token);
  if (grant == nullptr) grant = state_.find_grant_by_refresh_token(*token);
  // Unknown tokens, and other clients' tokens, answer 200 too: nothing to reveal (RFC 7009 section 2.2).
  if (grant != nullptr && grant->app_id == std::get<ClientAuth>(client).app->id) {
    const auto user_id = grant->user_id;
    const auto app_id = grant->app_id;
    state_.revoke_token(*token);
    // The last authorization revoked: the seed severs the game accounts linked through it, as on removal.
    if (!state_.has_grant(user_id, app_id)) sever_linked_accounts(user_id, app_id);
    webhooks_.grant_revoked(user_id, app_id);
  }
  return HttpResponse::json(200, "{}");
}

HttpResponse AuthModule::api_oauth_current_authorization(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal || principal->grant == nullptr || principal->application == nullptr)
    return status_error(401);
  return HttpResponse::json(
      200, authorization_json(*principal->grant, *principal->user, *principal->application, false));
}

std::string AuthModule::authorization_json(const AccessGrant& grant, const User& user, const Application& app,
                                           bool with_access_token) {
  const auto user_text = user_json(user, premium_visible(grant.app_id, grant.scopes));
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("application");
    writer.StartObject();
    write_application_members(writer, app);
    writer.EndObject();
    writer.Key("scopes");
    writer.StartArray();
    for (const auto& scope : grant.scopes)
      write_string(writer, scope);
    writer.EndArray();
    writer.Key("expires");
    write_string(writer, format_rfc3339_ms(grant.expires_at_ms));
    writer.Key("user");
    write_raw(writer, user_text, rapidjson::kObjectType);
    if (with_access_token) {
      writer.Key("access_token");
      write_string(writer, grant.access_token);
    }
    writer.EndObject();
  });
}

// ---- applications ----------------------------------------------------------------------------------------

HttpResponse AuthModule::api_get_my_application(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal || principal->grant != nullptr) return status_error(401);
  const auto& app = *principal->application;
  const auto bot = user_json(*principal->user);
  const auto authorized = state_.authorized_user_count(app.id);
  return HttpResponse::json(
      200, to_json([&](JsonWriter& writer) {
        writer.StartObject();
        write_application_members(writer, app);
        writer.Key("bot");
        write_raw(writer, bot, rapidjson::kObjectType);
        writer.Key("redirect_uris");
        writer.StartArray();
        for (const auto& uri : app.redirect_uris)
          write_string(writer, uri);
        writer.EndArray();
        writer.Key("interactions_endpoint_url");
        write_optional_string(writer, app.interactions_endpoint_url);
        writer.Key("role_connections_verification_url");
        writer.Null();
        // The emulator has no developer accounts: the bot user stands for the owner.
        writer.Key("owner");
        write_raw(writer, bot, rapidjson::kObjectType);
        writer.Key("approximate_guild_count");
        writer.Uint64(guild_installs_ != nullptr ? guild_installs_->guild_count(app.bot_user_id) : 0);
        writer.Key("approximate_user_install_count");
        writer.Uint64(state_.user_install_count(app.id));
        writer.Key("approximate_user_authorization_count");
        writer.Uint64(authorized);
        writer.Key("explicit_content_filter");
        writer.Int(0);
        writer.Key("team");
        writer.Null();
        writer.Key("eligible_oauth2_scopes");
        writer.StartArray();
        writer.EndArray();
        writer.EndObject();
      }));
}

// ---- admin: the user removes the application -------------------------------------------------------------

// What the user does in their settings' authorized apps: every grant of the application goes (a refresh then
// gets invalid_grant) and their game accounts linked through it are severed (each identity gets a provisional
// account of its own again, as after an unmerge). APPLICATION_DEAUTHORIZED when anything was authorized or
// linked; 204 either way.
HttpResponse AuthModule::admin_remove_application(const RouteContext& context) {
  const User* user = state_.find_user(context.params.at("user_id"));
  if (user == nullptr) return unknown_user();
  const Application* app = state_.find_application(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  bool removed = state_.revoke_user_grants(user->id, app->id) > 0;
  removed = sever_linked_accounts(user->id, app->id) || removed;
  if (removed) webhooks_.application_deauthorized(app->id, *user);
  return HttpResponse::empty(204);
}

bool AuthModule::sever_linked_accounts(const std::string& user_id, const std::string& app_id) {
  bool severed = false;
  for (auto* identity : state_.identities_of_user(user_id)) {
    if (!identity->merged || identity->key.app_id != app_id) continue;
    identity->user_id = create_provisional_user(std::nullopt, false).id;
    identity->merged = false;
    severed = true;
  }
  return severed;
}

// ---- admin: consent --------------------------------------------------------------------------------------

HttpResponse AuthModule::admin_set_consent(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto user_id = fields.string("user_id", false);
  const auto deny = fields.boolean("deny", false);
  if (!errors.empty()) return invalid_form_body(errors);
  if (user_id) {
    const User* user = state_.find_user(*user_id);
    if (user == nullptr) return unknown_user();
    if (user->bot || user->provisional) {
      fields.add_issue("user_id", {"USER_NOT_REGULAR", "Bots and provisional accounts cannot consent."});
      return invalid_form_body(errors);
    }
    state_.consent.user_id = std::move(user_id);
  }
  state_.consent.deny = deny.value_or(false);
  state_.consent_changed();
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

}  // namespace platformpp::emulator
