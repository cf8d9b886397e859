// The emulator's request handling, independent of sockets: the server feeds it HttpRequests and delivers the
// Outcomes. Handling is two-phase so that a fault's delay can be waited for asynchronously in between:
// plan() picks the fault (if any), complete() produces what to send after the delay.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "admin/admin_module.hpp"
#include "auth/auth_module.hpp"
#include "core/activity.hpp"
#include "core/api_error.hpp"
#include "core/emulator_state.hpp"
#include "core/fake_clock.hpp"
#include "core/form_encoding.hpp"
#include "core/http_message.hpp"
#include "core/json.hpp"
#include "core/router.hpp"
#include "core/service_context.hpp"
#include "core/snowflake.hpp"
#include "core/user_json.hpp"
#include "gateway/gateway_module.hpp"
#include "guild/guild_module.hpp"
#include "http/http_module.hpp"
#include "http/social_rate_limits.hpp"
#include "ipc/ipc_peer.hpp"
#include "lobby/lobby_state.hpp"
#include "presence/presence_module.hpp"
#include "social/social_module.hpp"
#include "voice/voice_state.hpp"

namespace platformpp::emulator {

// One Gateway dispatch as a session is sent it (event name, `d` as JSON), for a conformance check.
using DispatchObserver = std::function<void(std::string_view type, std::string_view d_json)>;

// Owns the context, so that it is built before the modules that take it (a base is built before members).
struct ServiceContextOwner {
  ServiceContextOwner(FakeClock& clock, ServiceEndpoints endpoints) : context_(clock, std::move(endpoints)) {}
  ServiceContext context_;
};

class EmulatorService : private ServiceContextOwner,
                        private FeatureModule,
                        private GatewayListener,
                        private DesktopActivities {
 public:
  // Sees every API answer of every service in the process (tests check them against the platform's
  // published schemas). Set before any service handles a request; not thread-safe.
  static void set_api_observer(ApiObserver observer) { HttpModule::set_api_observer(std::move(observer)); }
  // Sees every Gateway dispatch of every service in the process, the same way.
  static void set_dispatch_observer(DispatchObserver observer) {
    GatewayModule::set_dispatch_observer(std::move(observer));
  }
  // "<METHOD> <route>" of every platform API route it serves (routes as the OpenAPI document writes them).
  [[nodiscard]] std::vector<std::string> api_routes() const { return context_.api_router.keys(); }

  /// Counts accepted connections (reported by /_emulator/health, so tests can see keep-alive reuse).
  void note_connection_accepted() { admin_.note_connection_accepted(); }
  EmulatorService(FakeClock& clock, ServiceEndpoints endpoints, RateLimitSettings rate_limits = {});

  RequestPlan plan(const HttpRequest& request) { return http_.plan(request); }
  Outcome complete(const HttpRequest& request, const RequestPlan& plan) {
    return http_.complete(request, plan);
  }
  // Convenience for tests and callers that need no delay: plan() then complete() immediately.
  Outcome handle(const HttpRequest& request) { return complete(request, plan(request)); }

  [[nodiscard]] EmulatorState& state() noexcept { return state_; }
  [[nodiscard]] FakeClock& clock() noexcept { return clock_; }

  // The desktop-client stand-in on IPC (ipc_routes.cpp). The server reports socket events here and the
  // service answers through the IpcPeer. `listener` is null when IPC is off (--no-ipc).
  void set_ipc_listener(IpcListenerControl* listener) noexcept { ipc_listener_ = listener; }
  // Registers a freshly accepted peer; the returned id names it in the calls below.
  std::uint64_t ipc_connected(IpcPeer& peer);
  // Bytes read from the peer: frames are decoded and answered; protocol errors close the connection.
  void ipc_received(std::uint64_t connection, std::string_view bytes);
  // The peer is gone (end of stream, error or destruction). A no-op for connections the service closed.
  void ipc_disconnected(std::uint64_t connection);
  [[nodiscard]] std::size_t ipc_connection_count() const noexcept { return ipc_connections_.size(); }

  // The Gateway (gateway_routes.cpp). The server reports WebSocket events here and the service answers
  // through the GatewayPeer. A freshly accepted WebSocket at `target` ("/?v=10&encoding=json..."): sends
  // Hello, or closes it (bad query); the returned id names it in the calls below.
  std::uint64_t gateway_opened(GatewayPeer& peer, std::string_view target) {
    return gateway_.opened(peer, target);
  }
  // One complete WebSocket message (`text` false for a binary frame).
  void gateway_received(std::uint64_t connection, std::string_view message, bool text) {
    gateway_.received(connection, message, text);
  }
  // The peer is gone, with the client's close code if it sent a close frame. A no-op for connections the
  // service closed or dropped.
  void gateway_disconnected(std::uint64_t connection, std::optional<int> close_code) {
    gateway_.disconnected(connection, close_code);
  }
  // Called every few tens of ms: closes zombies (no heartbeat in time) and forgets sessions past their
  // resume window.
  void gateway_tick() { gateway_.tick(); }
  [[nodiscard]] std::size_t gateway_connection_count() const noexcept { return gateway_.connection_count(); }

  // GatewayListener (transitional: lobbies and lobby calls).
  void fill_ready(const GatewaySession& session, ReadyContent& ready) override;
  void connection_changed(const std::string& user_id, const std::string& app_id,
                          ConnectionChange change) override;
  void session_ending(const GatewaySession& session) override;
  void tick() override;
  // DesktopActivities (transitional: IPC).
  [[nodiscard]] std::vector<std::string> desktop_activities(std::string_view user_id) const override;

 private:
  void register_ipc_routes();
  void register_lobby_routes();
  void register_message_routes();

  // IPC (ipc_routes.cpp).
  void ipc_handle_frame(std::uint64_t id, IpcFrame frame);
  void ipc_handshake(std::uint64_t id, const rapidjson::Document& payload);
  void ipc_command(std::uint64_t id, const rapidjson::Document& payload);
  // Sends CLOSE {code, message} (unless code is 0), then closes and forgets the connection.
  void ipc_close(std::uint64_t id, int code, std::string_view message);
  void ipc_send_frame(std::uint64_t id, std::string_view payload);
  // A command's answer: `data` (JSON text), or an ERROR with an RPC error code.
  struct IpcReply {
    std::string data = "null";
    int error = 0;  // 0 = success
    std::string message;
  };
  IpcReply ipc_authorize(const IpcConnection& connection, const rapidjson::Value* args);
  IpcReply ipc_authenticate(const IpcConnection& connection, const rapidjson::Value* args);
  IpcReply ipc_subscribe(IpcConnection& connection, const rapidjson::Value& payload, bool subscribe);
  IpcReply ipc_set_activity(std::uint64_t id, IpcConnection& connection, const rapidjson::Value* args);
  void ipc_forget_activity(std::uint64_t connection);
  HttpResponse admin_ipc_status(const RouteContext& context);
  HttpResponse admin_ipc_authorize_request(const RouteContext& context);
  HttpResponse admin_ipc_drop(const RouteContext& context);
  HttpResponse admin_ipc_restore(const RouteContext& context);
  HttpResponse admin_ipc_close(const RouteContext& context);
  HttpResponse admin_ipc_activity_join(const RouteContext& context);

  // ---- Lobbies (lobby_routes.cpp) ----
  // Whether the member has a live Gateway connection identified with a token of the lobby's application.
  [[nodiscard]] bool lobby_member_connected(const Lobby& lobby, const std::string& user_id) const;
  // One dispatch to every session (live or resumable) of the lobby's members in the lobby's application.
  void lobby_dispatch(const Lobby& lobby, std::string_view type, std::string_view d_json);
  // The same to one user's sessions of the lobby's application (member or not: a leaver gets LOBBY_DELETE).
  void lobby_dispatch_to_user(const Lobby& lobby, const std::string& user_id, std::string_view type,
                              std::string_view d_json);
  // The lobby object; members carry `user` when `with_users` (Gateway payloads).
  [[nodiscard]] std::string lobby_json(const Lobby& lobby, bool with_users) const;
  [[nodiscard]] std::string lobby_member_json(const Lobby& lobby, const LobbyMember& member,
                                              bool with_users) const;
  // READY's `lobbies` (a JSON array) for the session.
  [[nodiscard]] std::string lobby_ready_json(const GatewaySession& session) const;
  // Gateway hook: the user's live connection in the application may have changed (identify, resume, drop,
  // close, session end). Sends LOBBY_MEMBER_CONNECT|DISCONNECT when it did and starts idle timers.
  void lobby_connection_changed(const std::string& user_id, const std::string& app_id);
  // Deletes the lobbies none of whose members has been connected for their idle timeout (fake clock).
  void lobby_sweep_idle();
  [[nodiscard]] bool lobby_any_connected(const Lobby& lobby) const;
  // Adds or updates a member with dispatches: LOBBY_CREATE to a new member, LOBBY_MEMBER_ADD to the
  // others; LOBBY_MEMBER_UPDATE to everyone for an existing one.
  void lobby_upsert_member(Lobby& lobby, LobbyMember member);
  // Removes a member: LOBBY_DELETE {reason: "removed"} to them, LOBBY_MEMBER_REMOVE to the others.
  void lobby_remove_member(Lobby& lobby, const std::string& user_id);
  // LOBBY_DELETE {reason} to the members, then forgets the lobby.
  void lobby_delete(const std::string& lobby_id, std::string_view reason);
  // A single-use invite to the linked channel's guild for the user, valid one hour.
  HttpResponse lobby_create_invite(const Lobby& lobby, const std::string& user_id);
  HttpResponse api_create_or_join_lobby(const RouteContext& context);
  HttpResponse api_leave_lobby(const RouteContext& context);
  HttpResponse api_link_lobby_channel(const RouteContext& context);
  HttpResponse api_lobby_invite_self(const RouteContext& context);
  HttpResponse api_lobby_invite_user(const RouteContext& context);
  HttpResponse api_accept_invite(const RouteContext& context);
  HttpResponse api_create_lobby(const RouteContext& context);
  HttpResponse api_get_lobby(const RouteContext& context);
  HttpResponse api_patch_lobby(const RouteContext& context);
  HttpResponse api_delete_lobby(const RouteContext& context);
  HttpResponse api_put_lobby_member(const RouteContext& context);
  HttpResponse api_delete_lobby_member(const RouteContext& context);
  HttpResponse api_bulk_lobby_members(const RouteContext& context);
  HttpResponse admin_lobbies(const RouteContext& context);
  HttpResponse admin_delete_lobby_message(const RouteContext& context);
  // READY's and lobby objects' `voice_states` (a JSON array): who is in the lobby's call.
  [[nodiscard]] std::string lobby_voice_states_json(const Lobby& lobby) const;

  // ---- Lobby calls and the voice gateway (voice_gateway_routes.cpp) ----
 public:
  // The media relay: the UDP front end feeds it datagrams and gives it a MediaSink.
  [[nodiscard]] ForwardingUnit& forwarding_unit() noexcept { return forwarding_unit_; }
  // The forwarding unit's UDP port, as voice Ready announces it.
  void set_voice_udp_port(std::uint16_t port) noexcept { voice_udp_port_ = port; }
  // A freshly accepted WebSocket at `target` ("/voice/?v=8"): sends Hello, or closes it with 4012 (v 4..7).
  // The server refuses other versions before the upgrade (voice_gateway_version). Returns the connection id.
  std::uint64_t voice_opened(VoiceGatewayPeer& peer, std::string_view target);
  // One complete WebSocket message (`text` false for a binary frame).
  void voice_received(std::uint64_t connection, std::string_view message, bool text);
  // The peer is gone. A no-op for connections the service closed or dropped.
  void voice_disconnected(std::uint64_t connection, std::optional<int> close_code);
  // Called from gateway_tick: closes voice connections without heartbeats (4009) and ends sessions past
  // their resume window.
  void voice_tick();
  [[nodiscard]] std::size_t voice_connection_count() const noexcept { return voice_.connections.size(); }

 private:
  void register_voice_routes();
  // Main Gateway op 4 (lobby calls).
  void gateway_voice_state_update(std::uint64_t id, const rapidjson::Value& d);
  // LOBBY_VOICE_STATE_UPDATE for the state to the lobby's members (channel_id null unless `in_call`).
  void voice_dispatch_state(const Lobby& lobby, const VoiceState& state, bool in_call);
  // Ends the user's voice state in the lobby's call: its voice session ends (close 4014, op 13 to the
  // others) and the members get channel_id null. A no-op if the user is not in the call.
  void voice_end_state(const std::string& lobby_id, const std::string& user_id);
  // LOBBY_VOICE_SERVER_UPDATE with the state's token to its Gateway session.
  void voice_dispatch_server(const VoiceState& state);
  void voice_end_lobby(const std::string& lobby_id);
  void voice_end_gateway_session(const std::string& session_id);
  // Forgets a voice session: its live connection is closed with `close_code`, the forwarding unit drops it
  // and the rest of the call gets op 13. Its voice state (if any) stays.
  void voice_end_session(const std::string& voice_session, int close_code);
  // Sequences, buffers and (if connected) sends one server message; returns its seq (0 if no such session).
  std::int64_t voice_send(const std::string& voice_session, int opcode, std::string_view d_json);
  void voice_send_to_others(const VoiceSession& from, int opcode, std::string_view d_json);
  // Closes a connection; codes other than 4015 and those below 4000 end its session and voice state.
  void voice_close_connection(std::uint64_t id, int code, std::string_view reason);
  void voice_drop_connection(std::uint64_t id);
  void voice_heartbeat(std::uint64_t id, const rapidjson::Value& d);
  void voice_identify(std::uint64_t id, const rapidjson::Value& d);
  void voice_resume(std::uint64_t id, const rapidjson::Value& d);
  void voice_select_protocol(std::uint64_t id, const rapidjson::Value& d);
  void voice_speaking(std::uint64_t id, const rapidjson::Value& d);
  // DAVE (voice_dave_routes.cpp): the client's binary opcodes 26 and 28, and its text opcodes 23 and 31.
  void voice_dave_binary(std::uint64_t id, std::string_view message);
  void voice_dave_transition(std::uint64_t id, int opcode, const rapidjson::Value& d);
  [[nodiscard]] bool voice_e2ee_required();
  DaveCall& voice_dave_call(const std::string& lobby_id);
  // Sends what the lobby's DAVE call has to say, and forgets the call once it has no member.
  void voice_dave_flush(const std::string& lobby_id);
  void voice_dave_leave(const VoiceSession& session);
  // A binary server message: `u16 BE seq | u8 opcode | payload`, sequenced and buffered like the others.
  std::int64_t voice_send_binary(const std::string& voice_session, int opcode, std::string_view payload);
  // Gives the session's next seq to `make`, sends the frame it makes on the live connection (if any) and
  // keeps it for resume; returns the seq (0 for an unknown session).
  std::int64_t voice_send_sequenced(const std::string& voice_session,
                                    const std::function<VoiceSession::Sent(std::int64_t)>& make);
  HttpResponse admin_voice_calls(const RouteContext& context);
  HttpResponse admin_voice_dave(const RouteContext& context);
  static std::string speaking_json(const VoiceSession& session);
  [[nodiscard]] std::string voice_settings_json() const;
  // The optional "user_id" of an admin voice request's body.
  std::variant<std::optional<std::string>, HttpResponse> voice_target_user(const RouteContext& context,
                                                                           rapidjson::Document& body);
  std::variant<std::vector<std::uint64_t>, HttpResponse> voice_select(const RouteContext& context,
                                                                      rapidjson::Document& body);
  HttpResponse admin_voice_sessions(const RouteContext& context);
  HttpResponse admin_voice_get_settings(const RouteContext& context);
  HttpResponse admin_voice_settings(const RouteContext& context);
  HttpResponse admin_voice_drop(const RouteContext& context);
  HttpResponse admin_voice_close(const RouteContext& context);
  HttpResponse admin_voice_move(const RouteContext& context);

  // ---- Lobby messages, DMs, social rate limits (message_routes.cpp) ----
 public:
  // --no-social-rate-limits (and POST /_emulator/social-rate-limits).
  void set_social_rate_limits_enabled(bool enabled) { http_.social_limits().set_enabled(enabled); }

 private:
  // What POST bodies of lobby messages and DMs share: {content, metadata?, nonce?, enforce_nonce?}.
  struct MessageInput {
    std::optional<std::string> content;
    std::map<std::string, std::string> metadata;
    std::optional<std::string> nonce;
    bool nonce_is_number = false;
    bool enforce_nonce = false;
  };
  // Reads metadata, nonce and enforce_nonce into `input` (content is read by the caller: DMs with an
  // activity may have none), recording field errors.
  void read_message_extras(const rapidjson::Value& body, MessageInput& input, FieldErrors& errors);
  // The earlier message when `input` asks for the nonce dedupe and one matches.
  std::optional<Message> nonce_duplicate(const std::string& channel_id, const std::string& author_id,
                                         const MessageInput& input);
  // Counts one use of a Social SDK development limit; the 429 to answer when over it.
  std::optional<HttpResponse> take_social_limit(const std::string& app_id, SocialLimit category);
  // The DM rule: nullopt if `user_id` may not DM `other_id` (50007), else whether it is ephemeral.
  std::optional<bool> dm_allowed(const std::string& user_id, const std::string& other_id,
                                 const std::string& channel_id, const std::string& app_id) const;
  [[nodiscard]] std::string lobby_message_json(const Message& message) const;
  [[nodiscard]] std::string message_json(const Message& message) const;
  void dispatch_dm(const DmChannel& channel, std::string_view type, std::string_view d_json);
  HttpResponse api_create_lobby_message(const RouteContext& context);
  HttpResponse api_get_lobby_messages(const RouteContext& context);
  HttpResponse api_put_lobby_message_moderation(const RouteContext& context);
  HttpResponse api_get_dm_messages(const RouteContext& context);
  HttpResponse api_edit_dm_message(const RouteContext& context);
  HttpResponse api_delete_dm_message(const RouteContext& context);
  HttpResponse api_message_summaries(const RouteContext& context);
  HttpResponse api_put_dm_message_moderation(const RouteContext& context);
  HttpResponse api_create_dm_channel(const RouteContext& context);
  HttpResponse api_create_message(const RouteContext& context);

  HttpModule http_;
  AdminModule admin_;
  AuthModule auth_;
  GatewayModule gateway_;
  PresenceModule presence_;
  SocialModule social_;
  GuildModule guilds_;
  IpcListenerControl* ipc_listener_ = nullptr;
  std::map<std::uint64_t, IpcConnection> ipc_connections_;
  std::uint64_t next_ipc_connection_ = 1;
  std::uint64_t ipc_handshakes_ = 0;  // successful handshakes since start (GET /_emulator/ipc)
  // IPC connections whose SET_ACTIVITY is part of a user's presence: connection id -> user id (the desktop
  // client's logged-in user when it was set).
  std::map<std::uint64_t, std::string> ipc_activity_users_;
  LobbyState lobbies_;
  VoiceRegistry voice_;
  ForwardingUnit forwarding_unit_;
  std::uint16_t voice_udp_port_ = 0;
  SocialRateLimits& social_limits_;
};

}  // namespace platformpp::emulator
