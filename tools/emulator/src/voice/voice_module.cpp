// Lobby calls (docs/voice-protocol.md): the main Gateway's op 4 Voice State Update and its LOBBY_VOICE_*
// dispatches, the voice sessions (sequenced, buffered for resume) and connections, and what ends them.
// Socket-free: the server reports voice WebSocket events here and sends what the VoiceGatewayPeer is given;
// media goes through the ForwardingUnit. Client messages: voice_messages.cpp; admin routes:
// voice_admin_routes.cpp; DAVE: voice_dave_routes.cpp.
#include "voice/voice_module.hpp"

#include <algorithm>
#include <vector>

#include "core/fake_clock.hpp"
#include "core/json.hpp"
#include "core/random_token.hpp"
#include "voice/voice_media_routes.hpp"
#include "voice/voice_protocol.hpp"

namespace platformpp::emulator {

namespace {

using voice_protocol::close_keeps_session;
using voice_protocol::string_member;
using voice_protocol::unsequenced;

}  // namespace

namespace {

constexpr int kVoiceStateUpdateOpcode = 4;

}  // namespace

VoiceModule::VoiceModule(ServiceContext& context, GatewayModule& gateway, LobbyModule& lobbies)
    : FeatureModule(context), gateway_(gateway), lobbies_(lobbies) {
  gateway_.set_op_handler(
      kVoiceStateUpdateOpcode,
      [this](std::uint64_t connection, const rapidjson::Value& d) { voice_state_update(connection, d); });
  register_routes();
  register_voice_media_routes(admin_router_, forwarding_unit_);
  register_documents();
}

// ---- LobbyCalls and GatewayListener ----------------------------------------------------------------------

void VoiceModule::member_left(const std::string& lobby_id, const std::string& user_id) {
  end_state(lobby_id, user_id);
}

void VoiceModule::lobby_deleted(const std::string& lobby_id) {
  end_lobby(lobby_id);
}

// A session's lobby calls end with it.
void VoiceModule::session_ending(const GatewaySession& session) {
  end_gateway_session(session.id);
}

// ---- lobby voice states (main Gateway) -------------------------------------------------------------------

std::string VoiceModule::voice_states_json(const Lobby& lobby) const {
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto* state : voice_.states_of_lobby(lobby.id)) {
      writer.StartObject();
      writer.Key("user_id");
      write_string(writer, state->user_id);
      writer.Key("session_id");
      write_string(writer, state->session_id);
      writer.Key("channel_id");
      write_string(writer, lobby.id);
      writer.Key("self_mute");
      writer.Bool(state->self_mute);
      writer.Key("self_deaf");
      writer.Bool(state->self_deaf);
      writer.EndObject();
    }
    writer.EndArray();
  });
}

void VoiceModule::dispatch_state(const Lobby& lobby, const VoiceState& state, bool in_call) {
  const auto d = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("lobby_id");
    write_string(writer, lobby.id);
    writer.Key("user_id");
    write_string(writer, state.user_id);
    writer.Key("session_id");
    write_string(writer, state.session_id);
    writer.Key("channel_id");
    if (in_call) {
      write_string(writer, lobby.id);
    } else {
      writer.Null();
    }
    writer.Key("self_mute");
    writer.Bool(state.self_mute);
    writer.Key("self_deaf");
    writer.Bool(state.self_deaf);
    writer.EndObject();
  });
  lobbies_.dispatch(lobby, "LOBBY_VOICE_STATE_UPDATE", d);
}

void VoiceModule::voice_state_update(std::uint64_t id, const rapidjson::Value& d) {
  if (!d.IsObject()) {
    return gateway_.close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  // Without a lobby_id the payload is a guild's (guild_id, a guild channel or null): the guild side's.
  if (!d.HasMember("lobby_id")) {
    if (guild_voice_ != nullptr) guild_voice_->guild_voice_state_update(id, d);
    return;
  }
  const auto lobby_id = string_member(d, "lobby_id");
  const auto channel = d.FindMember("channel_id");
  const auto mute = d.FindMember("self_mute");
  const auto deaf = d.FindMember("self_deaf");
  if (!lobby_id || channel == d.MemberEnd() || !(channel->value.IsString() || channel->value.IsNull()) ||
      (mute != d.MemberEnd() && !mute->value.IsBool()) || (deaf != d.MemberEnd() && !deaf->value.IsBool())) {
    return gateway_.close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const bool self_mute = mute != d.MemberEnd() && mute->value.GetBool();
  const bool self_deaf = deaf != d.MemberEnd() && deaf->value.GetBool();
  const auto* session = gateway_.session_of(id);
  if (session == nullptr || session->bot) return;
  const auto session_id = session->id;
  const auto user_id = session->user_id;
  auto* lobby = lobbies_.find(*lobby_id, session->app_id);
  // Only members may be in a lobby's call; the SDK refuses before sending, so the server just ignores it.
  if (lobby == nullptr || lobby->member(user_id) == nullptr) return;

  if (channel->value.IsNull()) return end_state(*lobby_id, user_id);
  if (std::string_view(channel->value.GetString(), channel->value.GetStringLength()) != *lobby_id) return;

  if (auto* state = voice_.find_state(*lobby_id, user_id);
      state != nullptr && state->session_id == session_id) {
    if (state->self_mute == self_mute && state->self_deaf == self_deaf) return;
    const bool deaf_changed = state->self_deaf != self_deaf;
    state->self_mute = self_mute;
    state->self_deaf = self_deaf;
    if (deaf_changed && state->voice_session) forwarding_unit_.set_deaf(*state->voice_session, self_deaf);
    call_changed(*lobby_id);
    return dispatch_state(*lobby, *state, true);
  }
  // Joining from another Gateway session moves the call there: the old join (and its voice session) ends.
  end_state(*lobby_id, user_id);
  VoiceState state;
  state.lobby_id = *lobby_id;
  state.user_id = user_id;
  state.session_id = session_id;
  state.self_mute = self_mute;
  state.self_deaf = self_deaf;
  state.token = random_token(24);
  const auto& stored =
      voice_.states.emplace(std::make_pair(*lobby_id, user_id), std::move(state)).first->second;
  call_changed(*lobby_id);
  dispatch_state(*lobby, stored, true);
  dispatch_server(stored);
}

void VoiceModule::dispatch_server(const VoiceState& state) {
  gateway_.dispatch(state.session_id, "LOBBY_VOICE_SERVER_UPDATE", to_json([&](JsonWriter& writer) {
                      writer.StartObject();
                      writer.Key("lobby_id");
                      write_string(writer, state.lobby_id);
                      writer.Key("token");
                      write_string(writer, state.token);
                      writer.Key("endpoint");
                      write_string(writer, endpoints_.cdn_host + "/voice");
                      writer.EndObject();
                    }));
}

void VoiceModule::end_state(const std::string& lobby_id, const std::string& user_id) {
  const auto it = voice_.states.find({lobby_id, user_id});
  if (it == voice_.states.end()) return;
  // Callers may pass the state's own fields, which the erase destroys: from here on only the moved state's.
  const auto state = std::move(it->second);
  voice_.states.erase(it);
  call_changed(state.lobby_id);
  if (state.voice_session) end_session(*state.voice_session, voice_close::kDisconnected);
  if (const auto* lobby = lobbies_.find(state.lobby_id)) dispatch_state(*lobby, state, false);
}

void VoiceModule::end_lobby(const std::string& lobby_id) {
  std::vector<std::string> users;
  for (const auto* state : voice_.states_of_lobby(lobby_id))
    users.push_back(state->user_id);
  for (const auto& user_id : users)
    end_state(lobby_id, user_id);
}

void VoiceModule::end_gateway_session(const std::string& session_id) {
  std::vector<std::pair<std::string, std::string>> ended;
  for (const auto& [key, state] : voice_.states) {
    if (state.session_id == session_id) ended.push_back(key);
  }
  for (const auto& [lobby_id, user_id] : ended)
    end_state(lobby_id, user_id);
}

// ---- voice sessions
// ----------------------------------------------------------------------------------------

std::int64_t VoiceModule::send(const std::string& voice_session, int opcode, std::string_view d_json) {
  const auto it = voice_.sessions.find(voice_session);
  const bool sequenced = it != voice_.sessions.end() && it->second.version >= kVoiceBufferedResumeVersion;
  return send_sequenced(voice_session, [&](std::int64_t seq) {
    // Before v8 a JSON message has no seq (the buffered resume came with it).
    if (!sequenced) return VoiceSession::Sent{seq, unsequenced(opcode, d_json), false};
    return VoiceSession::Sent{seq,
                              "{\"op\":" + std::to_string(opcode) + ",\"d\":" + std::string(d_json) +
                                  ",\"seq\":" + std::to_string(seq) + "}",
                              false};
  });
}

std::int64_t VoiceModule::send_sequenced(const std::string& voice_session,
                                         const std::function<VoiceSession::Sent(std::int64_t)>& make) {
  const auto it = voice_.sessions.find(voice_session);
  if (it == voice_.sessions.end()) return 0;
  auto& session = it->second;
  auto sent = make(++session.seq);
  if (session.connection) {
    const auto connection = voice_.connections.find(*session.connection);
    if (connection != voice_.connections.end()) {
      if (sent.binary) {
        connection->second.peer->send_binary(sent.frame);
      } else {
        connection->second.peer->send_text(sent.frame);
      }
    }
  }
  // Only the buffered resume (v8) re-sends anything; before it nothing is kept.
  if (session.version < kVoiceBufferedResumeVersion) return session.seq;
  session.buffer.push_back(std::move(sent));
  while (static_cast<std::int64_t>(session.buffer.size()) >
         std::max<std::int64_t>(voice_.settings.buffer_size, 0))
    session.buffer.pop_front();
  return session.seq;
}

void VoiceModule::send_to_others(const VoiceSession& from, int opcode, std::string_view d_json) {
  for (const auto& id : voice_.sessions_of_lobby(from.lobby_id)) {
    if (id != from.id) send(id, opcode, d_json);
  }
}

void VoiceModule::end_session(const std::string& voice_session, int close_code) {
  const auto it = voice_.sessions.find(voice_session);
  if (it == voice_.sessions.end()) return;
  auto session = std::move(it->second);
  voice_.sessions.erase(it);
  call_changed(session.lobby_id);
  if (session.connection) {
    const auto connection = voice_.connections.find(*session.connection);
    if (connection != voice_.connections.end()) {
      auto* peer = connection->second.peer;
      voice_.connections.erase(connection);
      peer->close(close_code, close_code == voice_close::kDisconnected ? "Disconnected." : "Session ended.");
    }
  }
  forwarding_unit_.remove_session(voice_session);
  const auto* current = voice_.find_state(session.lobby_id, session.user_id);
  // A moved call's old session ending after the new one identified: the user is still in the call, on its
  // new session. Its DAVE membership and the others' view of it (op 13 would make them forget its SSRC and
  // refuse its Add as a user no longer in the call) are the new session's.
  if (current != nullptr && current->voice_session && current->voice_session != voice_session) return;
  dave_leave(session);
  if (auto* state = voice_.find_state(session.lobby_id, session.user_id);
      state != nullptr && state->voice_session == voice_session) {
    state->voice_session.reset();
  }
  send_to_others(session, voice_op::kClientDisconnect, "{\"user_id\":\"" + session.user_id + "\"}");
}

// ---- connections
// -------------------------------------------------------------------------------------------

std::pair<std::string_view, std::string_view> VoiceModule::owner_of(std::uint64_t connection) const {
  const auto it = voice_.connections.find(connection);
  if (it == voice_.connections.end() || !it->second.voice_session) return {};
  const auto session = voice_.sessions.find(*it->second.voice_session);
  if (session == voice_.sessions.end()) return {*it->second.voice_session, {}};
  return {session->first, session->second.user_id};
}

std::uint64_t VoiceModule::opened(VoiceGatewayPeer& peer, std::string_view target) {
  const auto id = voice_.next_connection++;
  auto& connection = voice_.connections[id];
  connection.peer = &peer;
  connection.last_heartbeat_steady_ms = steady_now_ms();
  connection.heartbeat_interval_ms = voice_.settings.heartbeat_interval_ms;
  const auto version = voice_gateway_version(target);
  // The server refuses a missing or out-of-range version at the upgrade: only 4..8 get here.
  if (!version) {
    close_connection(id, voice_close::kUnknownProtocol, "Unknown protocol.");
    return id;
  }
  connection.version = *version;
  peer.send_text(unsequenced(
      voice_op::kHello, "{\"heartbeat_interval\":" + std::to_string(connection.heartbeat_interval_ms) + "}"));
  return id;
}

void VoiceModule::disconnected(std::uint64_t id, std::optional<int>) {
  const auto it = voice_.connections.find(id);
  if (it == voice_.connections.end()) return;
  const auto voice_session = it->second.voice_session;
  voice_.connections.erase(it);
  // Whatever the client's close code, the session stays resumable for the window (the SDK leaves a call
  // through the main Gateway's op 4).
  if (!voice_session) return;
  const auto session = voice_.sessions.find(*voice_session);
  if (session == voice_.sessions.end() || session->second.connection != id) return;
  session->second.connection.reset();
  session->second.detached_at_steady_ms = steady_now_ms();
  call_changed(session->second.lobby_id);
}

void VoiceModule::close_connection(std::uint64_t id, int code, std::string_view reason) {
  const auto it = voice_.connections.find(id);
  if (it == voice_.connections.end()) return;
  auto* peer = it->second.peer;
  const auto voice_session = it->second.voice_session;
  voice_.connections.erase(it);
  peer->close(code, std::string(reason));
  if (!voice_session) return;
  const auto session = voice_.sessions.find(*voice_session);
  if (session == voice_.sessions.end() || session->second.connection != id) return;
  session->second.connection.reset();
  session->second.detached_at_steady_ms = steady_now_ms();
  call_changed(session->second.lobby_id);
  if (close_keeps_session(code)) return;
  // The SDK ends the call on any other code: so does the server (voice state included).
  const auto lobby_id = session->second.lobby_id;
  const auto user_id = session->second.user_id;
  const auto* state = voice_.find_state(lobby_id, user_id);
  if (state != nullptr && state->voice_session == *voice_session) {
    end_state(lobby_id, user_id);
  } else {
    end_session(*voice_session, code);
  }
}

void VoiceModule::drop_connection(std::uint64_t id) {
  const auto it = voice_.connections.find(id);
  if (it == voice_.connections.end()) return;
  it->second.peer->drop();
  disconnected(id, std::nullopt);
}

void VoiceModule::tick() {
  const auto now = steady_now_ms();
  std::vector<std::uint64_t> zombies;
  for (const auto& [id, connection] : voice_.connections) {
    if (now - connection.last_heartbeat_steady_ms > 2 * connection.heartbeat_interval_ms)
      zombies.push_back(id);
  }
  for (const auto id : zombies)
    close_connection(id, voice_close::kSessionTimeout, "Session timed out.");
  std::vector<std::string> dave_lobbies;
  for (auto& [lobby_id, call] : voice_.dave_calls) {
    call.tick(now);
    dave_lobbies.push_back(lobby_id);
  }
  for (const auto& lobby_id : dave_lobbies)
    dave_flush(lobby_id);
  std::vector<std::string> expired;
  for (const auto& [id, session] : voice_.sessions) {
    if (!session.connection && now - session.detached_at_steady_ms > voice_.settings.resume_window_ms)
      expired.push_back(id);
  }
  for (const auto& id : expired) {
    const auto session = voice_.sessions.find(id);
    if (session == voice_.sessions.end()) continue;
    const auto lobby_id = session->second.lobby_id;
    const auto user_id = session->second.user_id;
    // Not resumed in time: the user leaves the call.
    const auto* state = voice_.find_state(lobby_id, user_id);
    if (state != nullptr && state->voice_session == id) {
      end_state(lobby_id, user_id);
    } else {
      end_session(id, voice_close::kSessionNoLongerValid);
    }
  }
}

}  // namespace platformpp::emulator
