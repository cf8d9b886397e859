// The front door of the emulator's HTTP side, independent of sockets: the server feeds it HttpRequests and
// delivers the Outcomes. It routes /_emulator to the admin router, /api/v10 to the API router (through the
// fault injector and the rate limiter) and the rest to the web router; and it owns the faults and rate limits
// (the API's, and the Social SDK development limits the lobby and messaging routes take from) with their
// admin routes.
//
// Handling is two-phase so that a fault's delay can be waited for asynchronously in between: plan() picks the
// fault (if any), complete() produces what to send after the delay.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/http_message.hpp"
#include "core/router.hpp"
#include "core/service_context.hpp"
#include "http/admin_access.hpp"
#include "http/fault_injector.hpp"
#include "http/rate_limiter.hpp"
#include "http/social_rate_limits.hpp"

namespace platformpp::emulator {

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

// One answer of the platform API (/api/v10), for a conformance check: the route as registered (an OpenAPI
// path template), or empty when no route matched.
struct ApiExchange {
  std::string_view method;
  std::string_view route;
  const HttpRequest& request;
  const HttpResponse& response;
};
using ApiObserver = std::function<void(const ApiExchange&)>;

class HttpModule : public FeatureModule {
 public:
  HttpModule(ServiceContext& context, RateLimitSettings rate_limits);

  // Sees every API answer of every module in the process (tests check them against the platform's published
  // schemas). Set before any request is handled; not thread-safe.
  static void set_api_observer(ApiObserver observer) { api_observer() = std::move(observer); }

  RequestPlan plan(const HttpRequest& request);
  Outcome complete(const HttpRequest& request, const RequestPlan& plan);

  // The Social SDK development rate limits (lobbies, lobby messages, DMs).
  [[nodiscard]] SocialRateLimits& social_limits() noexcept { return social_limits_; }
  // Who may use the admin API (http/admin_access.hpp).
  [[nodiscard]] AdminAccess& admin_access() noexcept { return admin_access_; }

 private:
  static ApiObserver& api_observer() {
    static ApiObserver observer;
    return observer;
  }
  HttpResponse handle_api(const HttpRequest& request, std::string_view api_path);
  HttpResponse handle_admin(const HttpRequest& request, std::string_view admin_path);
  HttpResponse handle_web(const HttpRequest& request, std::string_view path);
  // Routes an admin or web request: 404/405 in the platform's error shape when nothing matches.
  HttpResponse dispatch(const Router& router, const HttpRequest& request, std::string_view path);
  HttpResponse fault_response(const HttpRequest& request, std::string_view api_path, const Fault& fault);

  HttpResponse admin_add_fault(const RouteContext& context);
  HttpResponse admin_list_faults(const RouteContext& context);
  HttpResponse admin_clear_faults(const RouteContext& context);
  HttpResponse admin_get_ratelimits(const RouteContext& context);
  HttpResponse admin_set_ratelimits(const RouteContext& context);
  HttpResponse admin_reset_ratelimits(const RouteContext& context);
  HttpResponse admin_get_social_rate_limits(const RouteContext& context);
  HttpResponse admin_set_social_rate_limits(const RouteContext& context);
  [[nodiscard]] std::string social_rate_limits_json() const;

  FaultInjector faults_;
  RateLimiter rate_limiter_;
  SocialRateLimits social_limits_;
  AdminAccess admin_access_;
  std::uint64_t admin_refusals_ = 0;  // refused admin requests, for the log's rate
};

}  // namespace platformpp::emulator
