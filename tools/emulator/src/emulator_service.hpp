// The emulator's request handling, independent of sockets: the server feeds it HttpRequests and delivers the
// Outcomes. Handling is two-phase so that a fault's delay can be waited for asynchronously in between:
// plan() picks the fault (if any), complete() produces what to send after the delay.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "emulator_state.hpp"
#include "fake_clock.hpp"
#include "fault_injector.hpp"
#include "http_message.hpp"
#include "rate_limiter.hpp"
#include "router.hpp"
#include "snowflake.hpp"

namespace platformpp::emulator {

inline constexpr const char* kEmulatorVersion = "0.1.0";
inline constexpr std::string_view kApiBasePath = "/api/v10";
inline constexpr std::string_view kAdminBasePath = "/_emulator";
inline constexpr std::int64_t kAccessTokenLifetimeS = 604800;

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

  void register_api_routes();
  void register_admin_routes();

  HttpResponse handle_api(const HttpRequest& request, std::string_view api_path);
  HttpResponse handle_admin(const HttpRequest& request, std::string_view admin_path);
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

  // API handlers.
  HttpResponse api_get_gateway(const RouteContext& context);
  HttpResponse api_get_current_user(const RouteContext& context);

  FakeClock& clock_;
  ServiceEndpoints endpoints_;
  SnowflakeGenerator snowflakes_;
  EmulatorState state_;
  FaultInjector faults_;
  RateLimiter rate_limiter_;
  Router api_router_;
  Router admin_router_;
  std::chrono::steady_clock::time_point started_at_ = std::chrono::steady_clock::now();
  uint64_t connections_accepted_ = 0;
};

// Serializes a user object as the API returns it.
std::string user_json(const User& user);

}  // namespace platformpp::emulator
