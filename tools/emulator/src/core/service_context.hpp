// What every feature module of the emulator shares, and the base class that names it for them.
//
// EmulatorService (service/) owns one ServiceContext and builds the modules on it: the fake clock, the
// addresses it serves, the id generator, the platform's shared data (users, applications, tokens,
// authorization codes and external identities) and the three routers on which each module registers its own
// routes. What a module
// needs of another module it names in its constructor, never through this context.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/emulator_state.hpp"
#include "core/fake_clock.hpp"
#include "core/http_message.hpp"
#include "core/router.hpp"
#include "core/snowflake.hpp"
#include "core/state_changes.hpp"

namespace platformpp::emulator {

inline constexpr const char* kEmulatorVersion = "0.1.0";
inline constexpr std::string_view kApiBasePath = "/api/v10";
inline constexpr std::string_view kAdminBasePath = "/_emulator";
inline constexpr std::int64_t kAccessTokenLifetimeS = 604800;
// The clock's document (kind and id): the fake clock and the id generator.
inline constexpr std::string_view kClockDocument = "clock";
inline constexpr std::int64_t kAuthorizationCodeLifetimeMs = std::int64_t{10} * 60 * 1000;

struct ServiceEndpoints {
  std::string gateway_url;  // returned by GET /gateway
  std::string api_base;     // "https://127.0.0.1:PORT/api/v10": the IPC READY's config.api_endpoint
  std::string cdn_host;     // "127.0.0.1:PORT": the IPC READY's config.cdn_host
};

// Who is calling, from a request's Authorization header (or a Gateway Identify's token).
struct Principal {
  const User* user = nullptr;
  const Application* application = nullptr;
  const AccessGrant* grant = nullptr;  // null for bot tokens
};

struct ServiceContext {
  ServiceContext(FakeClock& clock_ref, ServiceEndpoints served);
  ServiceContext(const ServiceContext&) = delete;  // its document kinds refer to it
  ServiceContext& operator=(const ServiceContext&) = delete;

  FakeClock& clock;
  ServiceEndpoints endpoints;
  SnowflakeGenerator snowflakes;
  // Every module names the documents it changes here; the clock and the id generator are one document
  // ("clock") saved with every change.
  StateChanges changes;
  EmulatorState state;
  Router api_router;    // the platform API, paths relative to /api/v10
  Router admin_router;  // the admin API, paths relative to /_emulator
  Router web_router;    // the platform's web pages at the root (/oauth2/authorize)
};

// The base of every feature module: the shared context under short names, and what most routes do first.
class FeatureModule {
 public:
  FeatureModule(const FeatureModule&) = delete;
  FeatureModule& operator=(const FeatureModule&) = delete;

  // `Authorization: Bearer <access token>` or `Bot <bot token>`; nullopt when missing, malformed, unknown,
  // revoked or expired. Public for the event log, which names the caller of each request.
  [[nodiscard]] std::optional<Principal> authenticate(const HttpRequest& request) const;

 protected:
  explicit FeatureModule(ServiceContext& context);
  ~FeatureModule() = default;

  // Whether user objects show the real premium_type to this app's token with these scopes: the app is
  // approved for identify.premium and the token has that scope.
  [[nodiscard]] bool premium_visible(std::string_view app_id, const std::vector<std::string>& scopes) const;
  [[nodiscard]] bool premium_visible(const Principal& principal) const;
  // The route handler that calls one of the module's own: `api_router_.add("GET", "/x", bind(&M::api_x))`.
  template <class Module>
  RouteHandler bind(HttpResponse (Module::*handler)(const RouteContext&)) {
    static_assert(std::is_base_of_v<FeatureModule, Module>);
    return [module = static_cast<Module*>(this), handler](const RouteContext& context) {
      return (module->*handler)(context);
    };
  }

  FakeClock& clock_;
  const ServiceEndpoints& endpoints_;
  SnowflakeGenerator& snowflakes_;
  StateChanges& changes_;
  EmulatorState& state_;
  Router& api_router_;
  Router& admin_router_;
  Router& web_router_;
};

}  // namespace platformpp::emulator
