// Game Stats Widget (identity/): the Application Identity Profiles a claimed game writes with its bot token
// (PATCH, with the platform's limits and ours: identity/profile_limits.hpp), read back with GET, and the
// admin flag that says whether an application's game is claimed. Its own plain state, keyed by ids, kept in
// the state file (core/state_changes.hpp, identity/identity_documents.cpp) as the document kinds below.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>

#include "core/service_context.hpp"

namespace platformpp::emulator {

namespace document_kind {
// One Application Identity Profile; id "<application id>:<user id>" (the profile's key).
inline constexpr std::string_view kGameStatsProfile = "game_stats_profile";
// A claimed game (an application whose game is claimed on the platform); id: the application id. No document:
// not claimed.
inline constexpr std::string_view kClaimedGame = "claimed_game";
}  // namespace document_kind

class IdentityModule : public FeatureModule {
 public:
  explicit IdentityModule(ServiceContext& context);

 private:
  HttpResponse api_update_profile(const RouteContext& context);
  HttpResponse api_get_profile(const RouteContext& context);
  HttpResponse admin_set_claimed(const RouteContext& context);
  // The application's bot token, the claimed game and the user, in that order; the refusal otherwise.
  std::optional<HttpResponse> check_caller(const RouteContext& context, bool writing) const;
  // Registers the kinds above (identity_documents.cpp).
  void register_documents();

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
