// Presence (presence/): what friends see of a user, built from what the user's Gateway sessions set and what
// the desktop client set, and sent to friends when it changes; the join of an activity invite.
//
// Nothing here is kept in the state file (docs/emulator-state.md): a presence lives only as long as its
// user's Gateway sessions (GatewayModule forgets it with the last one, so even a custom status set by op 3
// goes), the desktop client's IPC connections and the admin API's presences, none of which outlives the
// process; last_sent_ only spares friends a repeat of what they already saw.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/service_context.hpp"
#include "gateway/gateway_module.hpp"

namespace platformpp::emulator {

// The live-only document kind (core/state_changes.hpp) of who is online: id = the user's id, body = their
// status, activities (as friends see them), Gateway sessions and whether the desktop client holds an
// activity. Streamed to the web console, never written to the state file.
inline constexpr std::string_view kPresenceDocument = "presence";

// The activities set through the desktop client (IPC SET_ACTIVITY), which are part of their user's presence.
// The IPC stand-in implements it.
class DesktopActivities {
 public:
  virtual ~DesktopActivities() = default;
  // The user's activities (JSON object texts), oldest connection first.
  [[nodiscard]] virtual std::vector<std::string> desktop_activities(std::string_view user_id) const = 0;
};

// Who sees a user's presence: their friends on the platform, and their game friends in that game. The social
// module implements it.
class PresenceAudience {
 public:
  virtual ~PresenceAudience() = default;
  // The users `user_id` is friends with on the platform, by id.
  [[nodiscard]] virtual std::vector<std::string> friends_of(std::string_view user_id) const = 0;
  // (application id, other user id) of each game friendship of the user, in every application.
  [[nodiscard]] virtual std::vector<std::pair<std::string, std::string>> game_friends_of(
      std::string_view user_id) const = 0;
  // Whether `user_id` is friends with `other_id` on the platform.
  [[nodiscard]] virtual bool is_friend(std::string_view user_id, std::string_view other_id) const = 0;
};

// The activity invites sent in DMs, as joining one reads them. The messaging module implements it.
class ActivityInvites {
 public:
  // An invite's message: who sent it, and the party it invites to (none: the message is no activity invite).
  struct Invite {
    std::string author_id;
    std::optional<std::string> party_id;
  };
  virtual ~ActivityInvites() = default;
  // Message `message_id` of DM channel `channel_id` as `user_id` reads it, or the error to answer: unknown
  // channel (404 code 10003), not one of its participants (403 code 50001), unknown message (404 code 10008).
  [[nodiscard]] virtual std::variant<Invite, HttpResponse> find_invite(const std::string& channel_id,
                                                                       const std::string& message_id,
                                                                       const std::string& user_id) const = 0;
};

class PresenceModule : public FeatureModule, public GatewayListener {
 public:
  PresenceModule(ServiceContext& context, GatewayModule& gateway);

  // Where the desktop client's activities come from (none until set).
  void set_desktop_activities(const DesktopActivities* desktop) noexcept { desktop_ = desktop; }
  // Who sees presences (until set, nobody: no user has friends).
  void set_audience(const PresenceAudience* audience) noexcept { audience_ = audience; }
  // Where activity invites are read (until set, there are none: every channel is unknown).
  void set_invites(const ActivityInvites* invites) noexcept { invites_ = invites; }

  // PRESENCE_UPDATE's d for the user as friends see it; nullopt when offline (or invisible). With `only_app`:
  // as a game friend of that application sees it (the status, and that game's activities only).
  [[nodiscard]] std::optional<std::string> presence_update_json(std::string_view user_id,
                                                                std::string_view only_app = {}) const;
  // Tells the user's friends when what they see of the user's presence changed (always if `force`, then
  // also the user's own sessions but `origin_session`).
  void changed(const std::string& user_id, bool force = false, const std::string& origin_session = {});
  // Each now sees the other's presence (after they became friends).
  void exchange(const std::string& user_id, const std::string& other_id);
  // The same for game friends of `app_id`: their sessions of that application see each other's presence in
  // it.
  void exchange_in_game(const std::string& app_id, const std::string& user_id, const std::string& other_id);
  // The user's current activities with secrets (JSON array texts), from the Gateway and the desktop client.
  [[nodiscard]] std::vector<std::string> current_activities(std::string_view user_id) const;

  // GatewayListener: READY's friends' presences, and friends hear of sessions coming and going.
  void fill_ready(const GatewaySession& session, ReadyContent& ready) override;
  void connection_changed(const std::string& user_id, const std::string& app_id,
                          ConnectionChange change) override;
  void presence_updated(const std::string& user_id, const std::string& session_id) override;

 private:
  [[nodiscard]] std::vector<std::string> desktop_activities(std::string_view user_id) const;
  // The audience's answers, empty while there is none.
  [[nodiscard]] std::vector<std::string> friends_of(std::string_view user_id) const;
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> game_friends_of(
      std::string_view user_id) const;
  // Sends `user_id`'s presence as game friends of `app_id` see it to `other_id`'s sessions of that
  // application, unless the two are friends on the platform (who see all of it already).
  void send_to_game_friend(const std::string& app_id, const std::string& user_id, const std::string& other_id,
                           const std::string& text);
  [[nodiscard]] static std::string offline_json(const std::string& user_id);
  // The "presence" document of the user; nullopt while they are offline (no session, no desktop activity).
  [[nodiscard]] std::optional<std::string> presence_document(const std::string& user_id) const;
  HttpResponse api_activity_join(const RouteContext& context);
  // POST /_emulator/users/{user_id}/presence {status, activities}: what friends see of a user who has no
  // Gateway session (a friend who comes online in a scenario, a bot's stand-in); "offline" ends it.
  HttpResponse admin_set_presence(const RouteContext& context);

  // A presence set through the admin API, shown while the user has no Gateway session of their own.
  struct SetPresence {
    std::string status;      // online, idle or dnd
    std::string activities;  // a JSON array text
  };

  GatewayModule& gateway_;
  const DesktopActivities* desktop_ = nullptr;
  const PresenceAudience* audience_ = nullptr;
  const ActivityInvites* invites_ = nullptr;
  std::map<std::string, std::string> last_sent_;                   // by user id: friends' last view
  std::map<std::string, SetPresence, std::less<>> set_presences_;  // by user id
};

}  // namespace platformpp::emulator
