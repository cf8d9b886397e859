#include "core/service_context.hpp"

#include <algorithm>

namespace platformpp::emulator {

namespace {

constexpr std::string_view kPremiumScope = "identify.premium";

}  // namespace

ServiceContext::ServiceContext(FakeClock& clock_ref, ServiceEndpoints served)
    : clock(clock_ref), endpoints(std::move(served)), snowflakes(clock_ref) {}

FeatureModule::FeatureModule(ServiceContext& context)
    : clock_(context.clock),
      endpoints_(context.endpoints),
      snowflakes_(context.snowflakes),
      state_(context.state),
      api_router_(context.api_router),
      admin_router_(context.admin_router),
      web_router_(context.web_router) {}

std::optional<Principal> FeatureModule::authenticate(const HttpRequest& request) const {
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

bool FeatureModule::premium_visible(std::string_view app_id, const std::vector<std::string>& scopes) const {
  const auto* app = state_.find_application(app_id);
  return app != nullptr && app->premium_approved &&
         std::find(scopes.begin(), scopes.end(), kPremiumScope) != scopes.end();
}

bool FeatureModule::premium_visible(const Principal& principal) const {
  return principal.grant != nullptr && premium_visible(principal.grant->app_id, principal.grant->scopes);
}

}  // namespace platformpp::emulator
