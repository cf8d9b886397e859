// Social (social/): users, platform and game relationships with their state machine and dispatches to both
// users, READY's relationships, and the admin routes of profiles, spammers, identify.premium and friendships.
// The relationships are its own (social_state.hpp): presence reads friendships through PresenceAudience,
// messaging through relationships().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "core/service_context.hpp"
#include "gateway/gateway_module.hpp"
#include "presence/presence_module.hpp"
#include "social/social_state.hpp"

namespace platformpp::emulator {

class SocialModule : public FeatureModule, public GatewayListener, public PresenceAudience {
 public:
  SocialModule(ServiceContext& context, GatewayModule& gateway, PresenceModule& presence);

  // The platform and game relationships. Read-only: they change here, where each change is dispatched.
  [[nodiscard]] const SocialState& relationships() const noexcept { return relationships_; }

  // GatewayListener: READY's relationships, game relationships and user application profiles.
  void fill_ready(const GatewaySession& session, ReadyContent& ready) override;

  // PresenceAudience: friends on the platform and game friends.
  [[nodiscard]] std::vector<std::string> friends_of(std::string_view user_id) const override;
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> game_friends_of(
      std::string_view user_id) const override;
  [[nodiscard]] bool is_friend(std::string_view user_id, std::string_view other_id) const override;

 private:
  // Whether user objects show the real premium_type to this session (its token has identify.premium and
  // its application is approved).
  using FeatureModule::premium_visible;
  [[nodiscard]] bool premium_visible(const GatewaySession& session) const;

  // Users and admin routes (social_module.cpp).
  HttpResponse api_get_current_user(const RouteContext& context);
  HttpResponse api_patch_current_user(const RouteContext& context);
  HttpResponse api_get_user(const RouteContext& context);
  HttpResponse admin_set_user_profile(const RouteContext& context);
  HttpResponse admin_set_spammer(const RouteContext& context);
  HttpResponse admin_approve_premium(const RouteContext& context);
  HttpResponse admin_make_friends(const RouteContext& context);
  // What platform and game relationship objects share: the other user, the type and since when.
  void write_relationship_fields(JsonWriter& writer, const std::string& other_id, int type,
                                 std::int64_t since_ms, bool show_premium) const;
  // What `user_id` sees of `other_id` (platform relationship); nullopt if nothing.
  [[nodiscard]] std::optional<std::string> relationship_json(const std::string& user_id,
                                                             const std::string& other_id,
                                                             bool show_premium = false) const;
  [[nodiscard]] std::optional<std::string> game_relationship_json(const std::string& app_id,
                                                                  const std::string& user_id,
                                                                  const std::string& other_id,
                                                                  bool show_premium = false) const;
  // RELATIONSHIP_ADD/UPDATE with what `user_id` now sees of `other_id`, built per session (premium_type).
  void dispatch_relationship(const std::string& user_id, const std::string& other_id, std::string_view type);
  void dispatch_game_relationship_add(const std::string& app_id, const std::string& user_id,
                                      const std::string& other_id);
  void dispatch_game_relationship_remove(const std::string& app_id, const std::string& user_id,
                                         const std::string& other_id);
  // USER_UPDATE to the user and RELATIONSHIP_UPDATE to everyone with a relationship to them.
  void dispatch_user_changed(const std::string& user_id);
  // READY's user_application_profiles: the user's external identities in this application.
  [[nodiscard]] std::string user_application_profiles_json(const std::string& user_id,
                                                           const std::string& app_id);

  // Relationships (relationship_routes.cpp).
  HttpResponse api_list_relationships(const RouteContext& context);
  HttpResponse api_add_relationship_by_username(const RouteContext& context);
  HttpResponse api_put_relationship(const RouteContext& context);
  HttpResponse api_delete_relationship(const RouteContext& context);
  HttpResponse api_list_game_relationships(const RouteContext& context);
  HttpResponse api_add_game_relationship_by_username(const RouteContext& context);
  HttpResponse api_put_game_relationship(const RouteContext& context);
  HttpResponse api_delete_game_relationship(const RouteContext& context);
  std::optional<HttpResponse> user_named_in_body(const RouteContext& context, const User*& user);
  // The state machine behind PUT/POST: send a request, accept an incoming one, or block.
  HttpResponse relationship_put(const User& user, const std::string& other_id, bool block);
  HttpResponse relationship_delete(const User& user, const std::string& other_id);
  HttpResponse game_relationship_put(const User& user, const std::string& app_id,
                                     const std::string& other_id);
  HttpResponse game_relationship_delete(const User& user, const std::string& app_id,
                                        const std::string& other_id);
  // Removes every game relationship between the two users (in all applications), with dispatches.
  void remove_game_relationships_between(const std::string& user_id, const std::string& other_id);

  GatewayModule& gateway_;
  PresenceModule& presence_;
  SocialState relationships_;
};

}  // namespace platformpp::emulator
