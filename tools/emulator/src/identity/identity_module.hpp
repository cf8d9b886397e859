// Game Stats Widget (identity/): the Application Identity Profiles a claimed game writes with its bot token
// (PATCH, with the platform's limits and ours: identity/profile_limits.hpp), read back with GET, and the
// admin flag that says whether an application's game is claimed. Its own plain state, keyed by ids.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "core/service_context.hpp"

namespace platformpp::emulator {

class IdentityModule : public FeatureModule {
 public:
  explicit IdentityModule(ServiceContext& context);

 private:
  HttpResponse api_update_profile(const RouteContext& context);
  HttpResponse api_get_profile(const RouteContext& context);
  HttpResponse admin_set_claimed(const RouteContext& context);
  // The application's bot token, the claimed game and the user, in that order; the refusal otherwise.
  std::optional<HttpResponse> check_caller(const RouteContext& context, bool writing) const;

  struct Profile {
    std::string provider_issued_user_id;
    std::optional<std::string> username;
    std::optional<std::string> data_json;  // compact JSON object
  };
  // (application id, user id) -> the one identity's profile (the platform keeps writes to the identity the
  // first write created).
  std::map<std::tuple<std::string, std::string>, Profile> profiles_;
  std::set<std::string, std::less<>> claimed_;
};

}  // namespace platformpp::emulator
