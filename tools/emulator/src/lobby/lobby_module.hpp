// Lobbies (lobby/): the SDK's and the backend's lobby routes, members, secrets, linked channels, guild
// invites, idle deletion, and the LOBBY_* dispatches and READY's lobbies on the Gateway. Plain data in
// lobby_state.hpp. Lobby messages (messaging/) and lobby calls (voice/) build on it: a lobby reaches them
// through LobbyMessages and LobbyCalls.
#pragma once

#include <string>
#include <string_view>

#include "core/service_context.hpp"
#include "gateway/gateway_module.hpp"
#include "guild/guild_module.hpp"
#include "http/social_rate_limits.hpp"
#include "lobby/lobby_state.hpp"

namespace platformpp::emulator {

// What a lobby asks of its call. The voice module implements it.
class LobbyCalls {
 public:
  virtual ~LobbyCalls() = default;
  // The lobby object's `voice_states` (a JSON array): who is in its call.
  [[nodiscard]] virtual std::string voice_states_json(const Lobby& lobby) const = 0;
  // The member is leaving the lobby (still a member): their part of the call ends.
  virtual void member_left(const std::string& lobby_id, const std::string& user_id) = 0;
  // The lobby is being deleted (it still exists): its call ends.
  virtual void lobby_deleted(const std::string& lobby_id) = 0;
};

// What a lobby's messages hear of the lobby. The messaging module implements it.
class LobbyMessages {
 public:
  virtual ~LobbyMessages() = default;
  // The lobby was deleted: its history goes with it (only members could read it, and it has none).
  virtual void lobby_deleted(const std::string& lobby_id) = 0;
};

class LobbyModule : public FeatureModule, public GatewayListener {
 public:
  LobbyModule(ServiceContext& context, GatewayModule& gateway, GuildModule& guilds,
              SocialRateLimits& social_limits);

  // The lobbies' calls (none until set: lobby objects then show no voice states).
  void set_calls(LobbyCalls* calls) noexcept { calls_ = calls; }
  // The lobbies' messages (none until set: a deleted lobby's messages then stay).
  void set_messages(LobbyMessages* messages) noexcept { messages_ = messages; }

  // The lobby with this id if it belongs to the application, or of any application. Read-only: lobbies
  // change here, where each change is named for the state file.
  [[nodiscard]] const Lobby* find(const std::string& id, const std::string& app_id) const;
  [[nodiscard]] const Lobby* find(const std::string& id) const;
  // One dispatch to every session (live or resumable) of the lobby's members in the lobby's application.
  void dispatch(const Lobby& lobby, std::string_view type, std::string_view d_json);
  // Deletes the lobbies none of whose members has been connected for their idle timeout (fake clock), and
  // starts or stops idle timers as members are connected or not. Every lobby route runs it first: the
  // Gateway's tick may not have run since the clock moved.
  void sweep_idle();
  // The same for one lobby, without the timers (what a lobby message route needs, on every request); true if
  // it was deleted.
  bool expire_if_idle(const std::string& lobby_id);

  // GatewayListener: READY's lobbies, LOBBY_MEMBER_CONNECT|DISCONNECT, idle deletion on the tick.
  void fill_ready(const GatewaySession& session, ReadyContent& ready) override;
  void connection_changed(const std::string& user_id, const std::string& app_id,
                          ConnectionChange change) override;
  void tick() override;

 private:
  // Connection state, dispatches, objects and membership (lobby_module.cpp).
  // Whether the member has a live Gateway connection identified with a token of the lobby's application.
  [[nodiscard]] bool member_connected(const Lobby& lobby, const std::string& user_id) const;
  [[nodiscard]] bool any_connected(const Lobby& lobby) const;
  // The same as dispatch() to one user's sessions of the lobby's application (member or not: a leaver gets
  // LOBBY_DELETE).
  void dispatch_to_user(const Lobby& lobby, const std::string& user_id, std::string_view type,
                        std::string_view d_json);
  // The lobby object; members carry `user` when `with_users` (Gateway payloads).
  [[nodiscard]] std::string lobby_json(const Lobby& lobby, bool with_users) const;
  [[nodiscard]] std::string member_json(const Lobby& lobby, const LobbyMember& member, bool with_users) const;
  [[nodiscard]] std::string calls_voice_states_json(const Lobby& lobby) const;
  // READY's `lobbies` (a JSON array) for the session.
  [[nodiscard]] std::string ready_json(const GatewaySession& session) const;
  // The user's live connection in the application may have changed (identify, resume, drop, close, session
  // end): LOBBY_MEMBER_CONNECT|DISCONNECT when it did, and idle timers start.
  void member_connection_changed(const std::string& user_id, const std::string& app_id);
  // Adds or updates a member with dispatches: LOBBY_CREATE to a new member, LOBBY_MEMBER_ADD to the
  // others; LOBBY_MEMBER_UPDATE to everyone for an existing one.
  void upsert_member(Lobby& lobby, LobbyMember member);
  // Removes a member: LOBBY_DELETE {reason: "removed"} to them, LOBBY_MEMBER_REMOVE to the others.
  void remove_member(Lobby& lobby, const std::string& user_id);
  // LOBBY_DELETE {reason} to the members, then forgets the lobby.
  void delete_lobby(const std::string& lobby_id, std::string_view reason);
  // A single-use invite to the linked channel's guild for the user, valid one hour. Invites that can no
  // longer be used are forgotten first.
  HttpResponse create_invite(const Lobby& lobby, const std::string& user_id);

  // Routes (lobby_routes.cpp).
  void register_routes();
  HttpResponse api_create_or_join_lobby(const RouteContext& context);
  HttpResponse api_leave_lobby(const RouteContext& context);
  HttpResponse api_link_lobby_channel(const RouteContext& context);
  HttpResponse api_lobby_invite_self(const RouteContext& context);
  HttpResponse api_lobby_invite_user(const RouteContext& context);
  HttpResponse api_create_lobby(const RouteContext& context);
  HttpResponse api_get_lobby(const RouteContext& context);
  HttpResponse api_patch_lobby(const RouteContext& context);
  HttpResponse api_delete_lobby(const RouteContext& context);
  HttpResponse api_put_lobby_member(const RouteContext& context);
  HttpResponse api_delete_lobby_member(const RouteContext& context);
  HttpResponse api_bulk_lobby_members(const RouteContext& context);
  HttpResponse admin_lobbies(const RouteContext& context);

  GatewayModule& gateway_;
  GuildModule& guilds_;
  SocialRateLimits& social_limits_;
  LobbyCalls* calls_ = nullptr;
  LobbyMessages* messages_ = nullptr;
  LobbyState lobbies_;
};

}  // namespace platformpp::emulator
