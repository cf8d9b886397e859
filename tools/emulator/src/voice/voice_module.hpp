// Lobby calls (voice/, docs/voice-protocol.md): who is in which lobby's call (the main Gateway's op 4 and the
// LOBBY_VOICE_* dispatches), the voice gateway v8 with its sessions and connections, DAVE (docs/dave.md), the
// media relay (the ForwardingUnit, fed by the UDP front end the server runs) and the admin routes under
// /_emulator/voice. Plain data in voice_state.hpp and voice_gateway.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/json_body.hpp"
#include "core/service_context.hpp"
#include "gateway/gateway_module.hpp"
#include "lobby/lobby_module.hpp"
#include "voice/dave_call.hpp"
#include "voice/forwarding_unit.hpp"
#include "voice/guild_voice_states.hpp"
#include "voice/voice_gateway.hpp"
#include "voice/voice_state.hpp"

namespace platformpp::emulator {

// The live-only document kind (core/state_changes.hpp) of a lobby's call in progress: id = the lobby's id,
// body = its members (muted, deafened, connected, speaking) and its end-to-end encryption (DAVE). Streamed to
// the web console, never written to the state file (voice_call_document.cpp).
inline constexpr std::string_view kVoiceCallDocument = "voice_call";

class VoiceModule : public FeatureModule, public GatewayListener, public LobbyCalls {
 public:
  VoiceModule(ServiceContext& context, GatewayModule& gateway, LobbyModule& lobbies);

  // The media relay: the UDP front end feeds it datagrams and gives it a MediaSink.
  [[nodiscard]] ForwardingUnit& forwarding_unit() noexcept { return forwarding_unit_; }
  // The forwarding unit's UDP port, as voice Ready announces it.
  void set_udp_port(std::uint16_t port) noexcept { udp_port_ = port; }

  // The server reports voice WebSocket events here. A freshly accepted WebSocket at `target` ("/voice/?v=8"):
  // sends Hello, or closes it with 4012 (v 4..7). The server refuses other versions before the upgrade
  // (voice_gateway_version). Returns the connection id.
  std::uint64_t opened(VoiceGatewayPeer& peer, std::string_view target);
  // One complete WebSocket message (`text` false for a binary frame).
  void received(std::uint64_t id, std::string_view message, bool text);
  // The peer is gone. A no-op for connections the module closed or dropped.
  void disconnected(std::uint64_t id, std::optional<int> close_code);
  [[nodiscard]] std::size_t connection_count() const noexcept { return voice_.connections.size(); }
  // The voice session a connection identified or resumed, and its user (empty until then): the event log's.
  // Views of the module's records, valid until it next changes.
  [[nodiscard]] std::pair<std::string_view, std::string_view> owner_of(std::uint64_t connection) const;

  // GatewayListener: a Gateway session's calls end with it; the tick closes voice connections without
  // heartbeats (4009), runs DAVE's transition timers and ends sessions past their resume window.
  void session_ending(const GatewaySession& session) override;
  void tick() override;

  // LobbyCalls.
  [[nodiscard]] std::string voice_states_json(const Lobby& lobby) const override;
  void member_left(const std::string& lobby_id, const std::string& user_id) override;
  void lobby_deleted(const std::string& lobby_id) override;

 private:
  // Calls, sessions and connections (voice_module.cpp).
  // Main Gateway op 4 (lobby calls).
  void voice_state_update(std::uint64_t id, const rapidjson::Value& d);
  // LOBBY_VOICE_STATE_UPDATE for the state to the lobby's members (channel_id null unless `in_call`).
  void dispatch_state(const Lobby& lobby, const VoiceState& state, bool in_call);
  // Ends the user's voice state in the lobby's call: its voice session ends (close 4014, op 13 to the
  // others) and the members get channel_id null. A no-op if the user is not in the call.
  void end_state(const std::string& lobby_id, const std::string& user_id);
  // LOBBY_VOICE_SERVER_UPDATE with the state's token to its Gateway session.
  void dispatch_server(const VoiceState& state);
  void end_lobby(const std::string& lobby_id);
  void end_gateway_session(const std::string& session_id);
  // Forgets a voice session: its live connection is closed with `close_code`, the forwarding unit drops it
  // and the rest of the call gets op 13. Its voice state (if any) stays.
  void end_session(const std::string& voice_session, int close_code);
  // Sequences, buffers and (if connected) sends one server message; returns its seq (0 if no such session).
  std::int64_t send(const std::string& voice_session, int opcode, std::string_view d_json);
  void send_to_others(const VoiceSession& from, int opcode, std::string_view d_json);
  // Gives the session's next seq to `make`, sends the frame it makes on the live connection (if any) and
  // keeps it for resume; returns the seq (0 for an unknown session).
  std::int64_t send_sequenced(const std::string& voice_session,
                              const std::function<VoiceSession::Sent(std::int64_t)>& make);
  // Closes a connection; codes other than 4015 and those below 4000 end its session and voice state.
  void close_connection(std::uint64_t id, int code, std::string_view reason);
  void drop_connection(std::uint64_t id);

  // Client messages (voice_messages.cpp).
  void heartbeat(std::uint64_t id, const rapidjson::Value& d);
  void identify(std::uint64_t id, const rapidjson::Value& d);
  void resume(std::uint64_t id, const rapidjson::Value& d);
  void select_protocol(std::uint64_t id, const rapidjson::Value& d);
  void speaking(std::uint64_t id, const rapidjson::Value& d);
  static std::string speaking_json(const VoiceSession& session);

  // DAVE (voice_dave_routes.cpp): the client's binary opcodes 26 and 28, and its text opcodes 23 and 31.
  void dave_binary(std::uint64_t id, std::string_view message);
  void dave_transition(std::uint64_t id, int opcode, const rapidjson::Value& d);
  [[nodiscard]] bool e2ee_required();
  DaveCall& dave_call(const std::string& lobby_id);
  // Sends what the lobby's DAVE call has to say, and forgets the call once it has no member.
  void dave_flush(const std::string& lobby_id);
  void dave_leave(const VoiceSession& session);
  // A binary server message: `u16 BE seq | u8 opcode | payload`, sequenced and buffered like the others.
  std::int64_t send_binary(const std::string& voice_session, int opcode, std::string_view payload);
  HttpResponse admin_calls(const RouteContext& context);
  HttpResponse admin_dave(const RouteContext& context);

  // Admin routes (voice_admin_routes.cpp).
  void register_routes();
  [[nodiscard]] std::string settings_json() const;
  // The optional "user_id" of an admin voice request's body.
  std::variant<std::optional<std::string>, HttpResponse> target_user(const RouteContext& context);
  // The live connections of that user's voice sessions (all live connections without one).
  [[nodiscard]] std::vector<std::uint64_t> select(BodyFields& fields) const;
  HttpResponse admin_sessions(const RouteContext& context);
  HttpResponse admin_get_settings(const RouteContext& context);
  HttpResponse admin_set_settings(const RouteContext& context);
  HttpResponse admin_drop(const RouteContext& context);
  HttpResponse admin_close(const RouteContext& context);
  HttpResponse admin_move(const RouteContext& context);

  // The "voice_call" documents (voice_call_document.cpp).
  void register_documents();
  // The lobby's call changed (who is in it, connected, speaking, its encryption): named for the console.
  void call_changed(const std::string& lobby_id);
  [[nodiscard]] std::optional<std::string> call_document(const std::string& lobby_id) const;

  GatewayModule& gateway_;
  LobbyModule& lobbies_;
  VoiceRegistry voice_;
  ForwardingUnit forwarding_unit_;
  std::uint16_t udp_port_ = 0;

  // ---- Guild voice channels ----
 public:
  // Where op 4 payloads that name no lobby go (guild voice channels); without one they are ignored.
  void set_guild_voice(GuildVoiceStates* guild_voice) noexcept { guild_voice_ = guild_voice; }

 private:
  GuildVoiceStates* guild_voice_ = nullptr;
};

}  // namespace platformpp::emulator
