// The emulator's request handling, independent of sockets: the server feeds it HttpRequests and delivers the
// Outcomes. Handling is two-phase so that a fault's delay can be waited for asynchronously in between:
// plan() picks the fault (if any), complete() produces what to send after the delay.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "emulator_state.hpp"
#include "fake_clock.hpp"
#include "fault_injector.hpp"
#include "form_encoding.hpp"
#include "http_message.hpp"
#include "rate_limiter.hpp"
#include "router.hpp"
#include "snowflake.hpp"

namespace platformpp::emulator {

inline constexpr const char* kEmulatorVersion = "0.1.0";
inline constexpr std::string_view kApiBasePath = "/api/v10";
inline constexpr std::string_view kAdminBasePath = "/_emulator";
inline constexpr std::int64_t kAccessTokenLifetimeS = 604800;
inline constexpr std::int64_t kAuthorizationCodeLifetimeMs = 10 * 60 * 1000;

struct ServiceEndpoints {
  std::string gateway_url;  // returned by GET /gateway
};

struct RequestPlan {
  std::chrono::milliseconds delay{0};
  std::optional<Fault> fault;
};

struct Outcome {
  enum class Delivery {
    respond,   // send `response`
    drop,      // close the connection without answering
    truncate,  // send `response`'s headers with its full Content-Length but only part of its body, then close
  };
  Delivery delivery = Delivery::respond;
  HttpResponse response;
};

class EmulatorService {
 public:
  /// Counts accepted connections (reported by /_emulator/health, so tests can see keep-alive reuse).
  void note_connection_accepted() { ++connections_accepted_; }
  EmulatorService(FakeClock& clock, ServiceEndpoints endpoints, RateLimitSettings rate_limits = {});

  RequestPlan plan(const HttpRequest& request);
  Outcome complete(const HttpRequest& request, const RequestPlan& plan);
  // Convenience for tests and callers that need no delay: plan() then complete() immediately.
  Outcome handle(const HttpRequest& request) { return complete(request, plan(request)); }

  [[nodiscard]] EmulatorState& state() noexcept { return state_; }
  [[nodiscard]] FakeClock& clock() noexcept { return clock_; }

 private:
  struct Principal {
    const User* user = nullptr;
    const Application* application = nullptr;
    const AccessGrant* grant = nullptr;  // null for bot tokens
  };

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
  };

  void register_api_routes();
  void register_admin_routes();
  void register_oauth_routes();
  void register_provisional_routes();

  HttpResponse handle_api(const HttpRequest& request, std::string_view api_path);
  HttpResponse handle_admin(const HttpRequest& request, std::string_view admin_path);
  HttpResponse handle_web(const HttpRequest& request, std::string_view path);
  // Routes an admin or web request: 404/405 in the platform's error shape when nothing matches.
  HttpResponse dispatch(const Router& router, const HttpRequest& request, std::string_view path);
  HttpResponse fault_response(const HttpRequest& request, std::string_view api_path, const Fault& fault);
  std::optional<Principal> authenticate(const HttpRequest& request);

  // Admin handlers.
  HttpResponse admin_health(const RouteContext& context);
  HttpResponse admin_create_app(const RouteContext& context);
  HttpResponse admin_create_user(const RouteContext& context);
  HttpResponse admin_create_token(const RouteContext& context);
  HttpResponse admin_revoke_token(const RouteContext& context);
  HttpResponse admin_get_clock(const RouteContext& context);
  HttpResponse admin_set_clock(const RouteContext& context);
  HttpResponse admin_add_fault(const RouteContext& context);
  HttpResponse admin_list_faults(const RouteContext& context);
  HttpResponse admin_clear_faults(const RouteContext& context);
  HttpResponse admin_get_ratelimits(const RouteContext& context);
  HttpResponse admin_set_ratelimits(const RouteContext& context);
  HttpResponse admin_reset_ratelimits(const RouteContext& context);
  HttpResponse admin_set_consent(const RouteContext& context);
  HttpResponse admin_authorize(const RouteContext& context);
  HttpResponse admin_ban_user(const RouteContext& context);
  HttpResponse admin_unban_user(const RouteContext& context);
  HttpResponse admin_map_external_identity(const RouteContext& context);

  // API handlers.
  HttpResponse api_get_gateway(const RouteContext& context);
  HttpResponse api_get_current_user(const RouteContext& context);

  // OAuth2 (oauth_routes.cpp).
  AuthorizeOutcome authorize(const HttpRequest& request);
  HttpResponse web_authorize(const RouteContext& context);
  HttpResponse api_oauth_token(const RouteContext& context);
  HttpResponse api_oauth_revoke(const RouteContext& context);
  HttpResponse api_oauth_current_authorization(const RouteContext& context);
  std::variant<ClientAuth, HttpResponse> authenticate_client(const HttpRequest& request,
                                                             const FormFields& form);
  HttpResponse grant_authorization_code(const FormFields& form, const ClientAuth& client);
  HttpResponse grant_refresh_token(const FormFields& form, const ClientAuth& client);
  HttpResponse grant_client_credentials(const FormFields& form, const ClientAuth& client);
  // Fills in fresh tokens and the expiry, stores the grant.
  const AccessGrant& issue_grant(AccessGrant grant, bool with_refresh_token);

  // Provisional accounts, merging and bans (provisional_routes.cpp).
  HttpResponse api_partner_token(const RouteContext& context);
  HttpResponse api_partner_token_bot(const RouteContext& context);
  HttpResponse api_partner_unmerge(const RouteContext& context);
  HttpResponse api_partner_unmerge_bot(const RouteContext& context);
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
  // Returns the restricted provisional accounts created for the user's linked identities.
  std::vector<std::string> ban_user(User& user, bool permanent);

  FakeClock& clock_;
  ServiceEndpoints endpoints_;
  SnowflakeGenerator snowflakes_;
  EmulatorState state_;
  FaultInjector faults_;
  RateLimiter rate_limiter_;
  Router api_router_;
  Router admin_router_;
  Router web_router_;  // the platform's web pages at the root (/oauth2/authorize)
  std::chrono::steady_clock::time_point started_at_ = std::chrono::steady_clock::now();
  uint64_t connections_accepted_ = 0;
};

// Serializes a user object as the API returns it.
std::string user_json(const User& user);
// The OAuth2 token response: {access_token, token_type, expires_in, refresh_token?, scope, id_token?}.
std::string token_json(const AccessGrant& grant, std::optional<std::string_view> id_token = std::nullopt);

}  // namespace platformpp::emulator
