// OAuth2 and provisional accounts (auth/): the consent page and the token endpoints (oauth_routes.cpp), the
// partner-sdk token routes, merging, unmerging and bans (provisional_routes.cpp), with their admin routes
// (consent, authorize, bans, external identities) and the bot's application (/applications/@me). The IPC
// stand-in asks it for the consent and the authorization object.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "auth/guild_install.hpp"
#include "core/form_encoding.hpp"
#include "core/service_context.hpp"
#include "webhook/webhook_module.hpp"

namespace platformpp::emulator {

class AuthModule : public FeatureModule {
 public:
  // `webhooks` hears of authorizations given and taken back (APPLICATION_AUTHORIZED, _DEAUTHORIZED).
  AuthModule(ServiceContext& context, WebhookModule& webhooks);
  // What guild installs (scope `bot`) add the bot to; set once the guild module exists. Without it, guild
  // installs are refused.
  void set_guild_installs(GuildInstalls* installs) { guild_installs_ = installs; }

  // Why the consent step (shared by /oauth2/authorize and the IPC AUTHORIZE command) gave no code.
  struct ConsentFailure {
    enum class Kind { invalid_scope, invalid_request, access_denied, no_consenting_user };
    Kind kind = Kind::invalid_request;
    std::string description;
  };
  // The consenting user (POST /_emulator/consent, else the first regular user), if any.
  [[nodiscard]] const User* consenting_user() const;
  // The consent step after the client and redirect URI are known good: validates scopes and the PKCE
  // parameters, consents as the consenting user and stores a code bound to all of them. Returns the code.
  std::variant<std::string, ConsentFailure> consent_code(
      const Application& app, const std::string& redirect_uri, std::vector<std::string> scopes,
      const std::optional<std::string>& challenge, const std::optional<std::string>& method,
      const std::optional<std::string>& guild_id = std::nullopt);
  // {"application", "scopes", "expires", "user"}: /oauth2/@me and the IPC AUTHENTICATE answer.
  std::string authorization_json(const AccessGrant& grant, const User& user, const Application& app,
                                 bool with_access_token);

 private:
  // A client authenticated at the token endpoints: HTTP Basic or client_secret (confidential) or a bare
  // client_id (public, PKCE).
  struct ClientAuth {
    const Application* app = nullptr;
    bool confidential = false;
  };
  // /oauth2/authorize's answer: where to redirect, or an error to show instead of redirecting.
  struct AuthorizeOutcome {
    std::optional<std::string> location;
    HttpResponse error;
    // A guild install without a code (the bot flow): where the bot was added and with which permissions.
    std::optional<std::string> installed_guild_id;
    std::uint64_t installed_permissions = 0;
  };

  // OAuth2 (oauth_routes.cpp).
  void register_oauth_routes();
  AuthorizeOutcome authorize(const HttpRequest& request);
  HttpResponse web_authorize(const RouteContext& context);
  HttpResponse admin_authorize(const RouteContext& context);
  HttpResponse admin_set_consent(const RouteContext& context);
  // The user removes the application from their authorized apps.
  HttpResponse admin_remove_application(const RouteContext& context);
  HttpResponse api_oauth_token(const RouteContext& context);
  HttpResponse api_oauth_revoke(const RouteContext& context);
  HttpResponse api_oauth_current_authorization(const RouteContext& context);
  HttpResponse api_get_my_application(const RouteContext& context);
  std::variant<ClientAuth, HttpResponse> authenticate_client(const HttpRequest& request,
                                                             const FormFields& form);
  HttpResponse grant_authorization_code(const FormFields& form, const ClientAuth& client);
  HttpResponse grant_refresh_token(const FormFields& form, const ClientAuth& client);
  HttpResponse grant_client_credentials(const FormFields& form, const ClientAuth& client);
  HttpResponse grant_token_exchange(const FormFields& form, const ClientAuth& client);
  // Fills in fresh tokens and the expiry, stores the grant.
  const AccessGrant& issue_grant(AccessGrant grant, bool with_refresh_token);

  // Provisional accounts, merging and bans (provisional_routes.cpp).
  void register_provisional_routes();
  HttpResponse api_partner_token(const RouteContext& context);
  HttpResponse api_partner_token_bot(const RouteContext& context);
  HttpResponse api_partner_unmerge(const RouteContext& context);
  HttpResponse api_partner_unmerge_bot(const RouteContext& context);
  HttpResponse admin_ban_user(const RouteContext& context);
  HttpResponse admin_unban_user(const RouteContext& context);
  HttpResponse admin_map_external_identity(const RouteContext& context);
  // Validates a {client_id, client_secret?, external_auth_type, external_auth_token} body.
  std::variant<IdentityKey, HttpResponse> read_partner_token_request(const RouteContext& context);
  // The identity an external token names; nullopt if it names none (a dead bot-issued token).
  std::optional<IdentityKey> external_identity_key(const Application& app, const std::string& type,
                                                   const std::string& token);
  const User& create_provisional_user(std::optional<std::string> global_name, bool restricted);
  ExternalIdentity& ensure_identity(const IdentityKey& key, std::optional<std::string> global_name);
  HttpResponse partner_token_response(const ExternalIdentity& identity);
  // Merges the identity's provisional account into `user`; the RFC 6749 error if it may not.
  std::optional<HttpResponse> merge_identity(const IdentityKey& key, const User& user);
  HttpResponse unmerge_identity(const IdentityKey& key);
  // The seed's "linked game account severed": each of the user's game identities merged through the
  // application gets a provisional account of its own again. Whether there was one.
  bool sever_linked_accounts(const std::string& user_id, const std::string& app_id);
  // Returns the restricted provisional accounts created for the user's linked identities.
  std::vector<std::string> ban_user(User& user, bool permanent);

  WebhookModule& webhooks_;
  GuildInstalls* guild_installs_ = nullptr;
};

// Whether /oauth2/authorize (and IPC AUTHORIZE) accept this redirect URI for the app: loopback
// (http://127.0.0.1[:port][/path], [::1]), "<scheme>:/authorize/callback" or one the app registered.
bool redirect_uri_allowed(const Application& app, std::string_view uri);
// The OAuth2 token response: {access_token, token_type, expires_in, refresh_token?, scope, id_token?, guild?}
// (`guild` for the code of a guild install: the guild object the bot was added to).
std::string token_json(const AccessGrant& grant, std::optional<std::string_view> id_token = std::nullopt,
                       const std::optional<std::string>& guild_json = std::nullopt);

}  // namespace platformpp::emulator
