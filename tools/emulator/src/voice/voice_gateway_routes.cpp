// Lobby calls (docs/voice-protocol.md): the main Gateway's op 4 Voice State Update and its LOBBY_VOICE_*
// dispatches, the voice gateway v8 (Hello, Identify -> Ready, Select Protocol -> Session Description,
// Speaking, Clients Connect/Disconnect, heartbeats, buffered resume), and the admin routes under
// /_emulator/voice. Socket-free: the server reports voice WebSocket events here and sends what the
// VoiceGatewayPeer is given; media goes through the ForwardingUnit.
#include <openssl/rand.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <variant>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/random_token.hpp"
#include "service/emulator_service.hpp"

namespace platformpp::emulator {

namespace {

std::int64_t steady_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A server message without seq (Hello, Heartbeat ACK, Resumed).
std::string unsequenced(int opcode, std::string_view d_json) {
  return "{\"op\":" + std::to_string(opcode) + ",\"d\":" + std::string(d_json) + "}";
}

// Closes that leave the voice session resumable (the SDK resumes on them); any other ends it.
bool close_keeps_session(int code) {
  return code < 4000 || code == voice_close::kVoiceServerCrashed;
}

std::optional<std::string> string_member(const rapidjson::Value& object, const char* name) {
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return std::nullopt;
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

bool has_member(const rapidjson::Value& object, const char* name) {
  const auto it = object.FindMember(name);
  return it != object.MemberEnd() && !it->value.IsNull();
}

}  // namespace

// ---- lobby voice states (main Gateway) -------------------------------------------------------------------

std::string EmulatorService::lobby_voice_states_json(const Lobby& lobby) const {
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

void EmulatorService::voice_dispatch_state(const Lobby& lobby, const VoiceState& state, bool in_call) {
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
  lobby_dispatch(lobby, "LOBBY_VOICE_STATE_UPDATE", d);
}

void EmulatorService::gateway_voice_state_update(std::uint64_t id, const rapidjson::Value& d) {
  if (!d.IsObject()) {
    return gateway_.close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  // Guild voice (guild_id) is not modelled: only lobby calls.
  if (!d.HasMember("lobby_id")) return;
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

  if (channel->value.IsNull()) return voice_end_state(*lobby_id, user_id);
  if (std::string_view(channel->value.GetString(), channel->value.GetStringLength()) != *lobby_id) return;

  if (auto* state = voice_.find_state(*lobby_id, user_id);
      state != nullptr && state->session_id == session_id) {
    if (state->self_mute == self_mute && state->self_deaf == self_deaf) return;
    const bool deaf_changed = state->self_deaf != self_deaf;
    state->self_mute = self_mute;
    state->self_deaf = self_deaf;
    if (deaf_changed && state->voice_session) forwarding_unit_.set_deaf(*state->voice_session, self_deaf);
    return voice_dispatch_state(*lobby, *state, true);
  }
  // Joining from another Gateway session moves the call there: the old join (and its voice session) ends.
  voice_end_state(*lobby_id, user_id);
  VoiceState state;
  state.lobby_id = *lobby_id;
  state.user_id = user_id;
  state.session_id = session_id;
  state.self_mute = self_mute;
  state.self_deaf = self_deaf;
  state.token = random_token(24);
  const auto& stored =
      voice_.states.emplace(std::make_pair(*lobby_id, user_id), std::move(state)).first->second;
  voice_dispatch_state(*lobby, stored, true);
  voice_dispatch_server(stored);
}

void EmulatorService::voice_dispatch_server(const VoiceState& state) {
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

void EmulatorService::voice_end_state(const std::string& lobby_id_ref, const std::string& user_id_ref) {
  // Copies: callers may pass the state's own fields, which the erase below destroys.
  const auto lobby_id = lobby_id_ref;
  const auto user_id = user_id_ref;
  const auto it = voice_.states.find({lobby_id, user_id});
  if (it == voice_.states.end()) return;
  const auto state = std::move(it->second);
  voice_.states.erase(it);
  if (state.voice_session) voice_end_session(*state.voice_session, voice_close::kDisconnected);
  const auto lobby = lobbies_.lobbies.find(lobby_id);
  if (lobby != lobbies_.lobbies.end()) voice_dispatch_state(lobby->second, state, false);
}

void EmulatorService::voice_end_lobby(const std::string& lobby_id) {
  std::vector<std::string> users;
  for (const auto* state : voice_.states_of_lobby(lobby_id))
    users.push_back(state->user_id);
  for (const auto& user_id : users)
    voice_end_state(lobby_id, user_id);
}

void EmulatorService::voice_end_gateway_session(const std::string& session_id) {
  std::vector<std::pair<std::string, std::string>> ended;
  for (const auto& [key, state] : voice_.states) {
    if (state.session_id == session_id) ended.push_back(key);
  }
  for (const auto& [lobby_id, user_id] : ended)
    voice_end_state(lobby_id, user_id);
}

// ---- voice sessions
// ----------------------------------------------------------------------------------------

std::int64_t EmulatorService::voice_send(const std::string& voice_session, int opcode,
                                         std::string_view d_json) {
  return voice_send_sequenced(voice_session, [&](std::int64_t seq) {
    return VoiceSession::Sent{seq,
                              "{\"op\":" + std::to_string(opcode) + ",\"d\":" + std::string(d_json) +
                                  ",\"seq\":" + std::to_string(seq) + "}",
                              false};
  });
}

std::int64_t EmulatorService::voice_send_sequenced(
    const std::string& voice_session, const std::function<VoiceSession::Sent(std::int64_t)>& make) {
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
  session.buffer.push_back(std::move(sent));
  while (static_cast<std::int64_t>(session.buffer.size()) >
         std::max<std::int64_t>(voice_.settings.buffer_size, 0))
    session.buffer.pop_front();
  return session.seq;
}

void EmulatorService::voice_send_to_others(const VoiceSession& from, int opcode, std::string_view d_json) {
  for (const auto& id : voice_.sessions_of_lobby(from.lobby_id)) {
    if (id != from.id) voice_send(id, opcode, d_json);
  }
}

void EmulatorService::voice_end_session(const std::string& voice_session, int close_code) {
  const auto it = voice_.sessions.find(voice_session);
  if (it == voice_.sessions.end()) return;
  auto session = std::move(it->second);
  voice_.sessions.erase(it);
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
  // The user's DAVE membership is its current session's: a moved call's old session ending after the new
  // one identified leaves it alone.
  if (current == nullptr || !current->voice_session || current->voice_session == voice_session) {
    voice_dave_leave(session);
  }
  if (auto* state = voice_.find_state(session.lobby_id, session.user_id);
      state != nullptr && state->voice_session == voice_session) {
    state->voice_session.reset();
  }
  voice_send_to_others(session, voice_op::kClientDisconnect, "{\"user_id\":\"" + session.user_id + "\"}");
}

// ---- connections
// -------------------------------------------------------------------------------------------

std::uint64_t EmulatorService::voice_opened(VoiceGatewayPeer& peer, std::string_view target) {
  const auto id = voice_.next_connection++;
  auto& connection = voice_.connections[id];
  connection.peer = &peer;
  connection.last_heartbeat_steady_ms = steady_now_ms();
  connection.heartbeat_interval_ms = voice_.settings.heartbeat_interval_ms;
  const auto version = voice_gateway_version(target);
  connection.version = version.value_or(0);
  // The server refuses a missing or out-of-range version at the upgrade; 4..7 get here and are not served.
  if (version != kVoiceGatewayVersion) {
    voice_close_connection(id, voice_close::kUnknownProtocol, "Unknown protocol.");
    return id;
  }
  peer.send_text(unsequenced(
      voice_op::kHello, "{\"heartbeat_interval\":" + std::to_string(connection.heartbeat_interval_ms) + "}"));
  return id;
}

void EmulatorService::voice_disconnected(std::uint64_t id, std::optional<int>) {
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
}

void EmulatorService::voice_close_connection(std::uint64_t id, int code, std::string_view reason) {
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
  if (close_keeps_session(code)) return;
  // The SDK ends the call on any other code: so does the server (voice state included).
  const auto lobby_id = session->second.lobby_id;
  const auto user_id = session->second.user_id;
  const auto* state = voice_.find_state(lobby_id, user_id);
  if (state != nullptr && state->voice_session == *voice_session) {
    voice_end_state(lobby_id, user_id);
  } else {
    voice_end_session(*voice_session, code);
  }
}

void EmulatorService::voice_drop_connection(std::uint64_t id) {
  const auto it = voice_.connections.find(id);
  if (it == voice_.connections.end()) return;
  it->second.peer->drop();
  voice_disconnected(id, std::nullopt);
}

void EmulatorService::voice_tick() {
  const auto now = steady_now_ms();
  std::vector<std::uint64_t> zombies;
  for (const auto& [id, connection] : voice_.connections) {
    if (now - connection.last_heartbeat_steady_ms > 2 * connection.heartbeat_interval_ms)
      zombies.push_back(id);
  }
  for (const auto id : zombies)
    voice_close_connection(id, voice_close::kSessionTimeout, "Session timed out.");
  std::vector<std::string> dave_lobbies;
  for (auto& [lobby_id, call] : voice_.dave_calls) {
    call.tick(now);
    dave_lobbies.push_back(lobby_id);
  }
  for (const auto& lobby_id : dave_lobbies)
    voice_dave_flush(lobby_id);
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
      voice_end_state(lobby_id, user_id);
    } else {
      voice_end_session(id, voice_close::kSessionNoLongerValid);
    }
  }
}

// ---- client messages
// ---------------------------------------------------------------------------------------

void EmulatorService::voice_received(std::uint64_t id, std::string_view message, bool text) {
  const auto it = voice_.connections.find(id);
  if (it == voice_.connections.end()) return;
  auto& connection = it->second;
  if (!text) {
    // Binary client frames are `u8 opcode | payload`: DAVE's key package (26) and commit (28).
    if (message.empty()) return voice_close_connection(id, voice_close::kDecodeError, "Decode error.");
    return voice_dave_binary(id, message);
  }
  rapidjson::Document payload;
  if (!parse_json(message, payload) || !payload.IsObject()) {
    return voice_close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const auto op_member = payload.FindMember("op");
  if (op_member == payload.MemberEnd() || !op_member->value.IsInt()) {
    return voice_close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const int opcode = op_member->value.GetInt();
  const bool known = opcode == voice_op::kIdentify || opcode == voice_op::kSelectProtocol ||
                     opcode == voice_op::kHeartbeat || opcode == voice_op::kSpeaking ||
                     opcode == voice_op::kResume || opcode == dave_op::kReadyForTransition ||
                     opcode == dave_op::kInvalidCommitWelcome;
  if (!known) return voice_close_connection(id, voice_close::kUnknownOpcode, "Unknown opcode.");
  const auto d_member = payload.FindMember("d");
  if (d_member == payload.MemberEnd() || !d_member->value.IsObject()) {
    return voice_close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const auto& d = d_member->value;
  switch (opcode) {
    case voice_op::kHeartbeat:
      return voice_heartbeat(id, d);
    case voice_op::kIdentify:
    case voice_op::kResume:
      if (connection.voice_session) {
        return voice_close_connection(id, voice_close::kAlreadyAuthenticated, "Already authenticated.");
      }
      return opcode == voice_op::kIdentify ? voice_identify(id, d) : voice_resume(id, d);
    default:
      if (!connection.voice_session) {
        return voice_close_connection(id, voice_close::kNotAuthenticated, "Not authenticated.");
      }
      if (opcode == dave_op::kReadyForTransition || opcode == dave_op::kInvalidCommitWelcome) {
        return voice_dave_transition(id, opcode, d);
      }
      return opcode == voice_op::kSelectProtocol ? voice_select_protocol(id, d) : voice_speaking(id, d);
  }
}

void EmulatorService::voice_heartbeat(std::uint64_t id, const rapidjson::Value& d) {
  const auto t = d.FindMember("t");
  if (t == d.MemberEnd() || t->value.IsNull()) {
    return voice_close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const auto seq_ack = d.FindMember("seq_ack");
  if (!t->value.IsUint64() ||
      (seq_ack != d.MemberEnd() && !seq_ack->value.IsNull() && !seq_ack->value.IsInt64())) {
    return voice_close_connection(id, voice_close::kBadRequest, "Bad request.");
  }
  auto& connection = voice_.connections.at(id);
  connection.last_heartbeat_steady_ms = steady_now_ms();
  connection.peer->send_text(
      unsequenced(voice_op::kHeartbeatAck, "{\"t\":" + std::to_string(t->value.GetUint64()) + "}"));
}

void EmulatorService::voice_identify(std::uint64_t id, const rapidjson::Value& d) {
  const auto server_id = string_member(d, "server_id");
  const auto user_id = string_member(d, "user_id");
  const auto session_id = string_member(d, "session_id");
  const auto token = string_member(d, "token");
  if (!server_id || !user_id || !session_id || !token) {
    return voice_close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  if (has_member(d, "max_dave_protocol_version") && !d["max_dave_protocol_version"].IsInt()) {
    return voice_close_connection(id, voice_close::kBadRequest, "Bad request.");
  }
  const int max_dave_version =
      has_member(d, "max_dave_protocol_version") ? d["max_dave_protocol_version"].GetInt() : 0;
  auto* state = voice_.find_state(*server_id, *user_id);
  if (state == nullptr || state->session_id != *session_id || state->token != *token) {
    return voice_close_connection(id, voice_close::kAuthenticationFailed, "Authentication failed.");
  }
  // From 1 March 2026 the platform supports end-to-end encrypted calls only.
  // The client cannot stay in the call: its voice state ends with the connection.
  if (max_dave_version < kDaveProtocolVersion && voice_e2ee_required()) {
    voice_close_connection(id, voice_close::kE2eeRequired, "E2EE/DAVE protocol required.");
    return voice_end_state(*server_id, *user_id);
  }
  // A fresh Identify for a join that already has a voice session replaces it.
  if (state->voice_session) voice_end_session(*state->voice_session, voice_close::kSessionNoLongerValid);

  VoiceSession session;
  session.id = random_token(16);
  session.lobby_id = *server_id;
  session.user_id = *user_id;
  session.session_id = *session_id;
  session.ssrc = forwarding_unit_.allocate_ssrc();
  session.offered_modes = voice_.settings.modes;
  session.max_dave_version = max_dave_version;
  session.connection = id;
  const auto voice_session = session.id;
  forwarding_unit_.add_session(voice_session, session.ssrc, *user_id, *server_id);
  if (state->self_deaf) forwarding_unit_.set_deaf(voice_session, true);
  state->voice_session = voice_session;
  auto& connection = voice_.connections.at(id);
  connection.voice_session = voice_session;
  const auto ssrc = session.ssrc;
  const auto& stored = voice_.sessions.emplace(voice_session, std::move(session)).first->second;

  voice_send(voice_session, voice_op::kReady, to_json([&](JsonWriter& writer) {
               writer.StartObject();
               writer.Key("ssrc");
               writer.Uint(ssrc);
               writer.Key("ip");
               writer.String("127.0.0.1");
               writer.Key("port");
               writer.Uint(voice_udp_port_);
               writer.Key("modes");
               writer.StartArray();
               for (const auto& mode : stored.offered_modes)
                 write_string(writer, mode);
               writer.EndArray();
               writer.Key("heartbeat_interval");
               writer.Int64(connection.heartbeat_interval_ms);
               writer.EndObject();
             }));
  // Who is already in the call, and what each last said about speaking, so SSRCs map to users before audio.
  std::vector<std::string> others;
  for (const auto& other_id : voice_.sessions_of_lobby(*server_id)) {
    if (other_id != voice_session) others.push_back(other_id);
  }
  if (!others.empty()) {
    voice_send(voice_session, voice_op::kClientsConnect, to_json([&](JsonWriter& writer) {
                 writer.StartObject();
                 writer.Key("user_ids");
                 writer.StartArray();
                 for (const auto& other_id : others)
                   write_string(writer, voice_.sessions.at(other_id).user_id);
                 writer.EndArray();
                 writer.EndObject();
               }));
  }
  for (const auto& other_id : others) {
    const auto& other = voice_.sessions.at(other_id);
    if (other.speaking) voice_send(voice_session, voice_op::kSpeaking, speaking_json(other));
  }
  const auto connect = "{\"user_ids\":[\"" + *user_id + "\"]}";
  for (const auto& other_id : others)
    voice_send(other_id, voice_op::kClientsConnect, connect);
}

std::string EmulatorService::speaking_json(const VoiceSession& session) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("user_id");
    write_string(writer, session.user_id);
    writer.Key("ssrc");
    writer.Uint(session.ssrc);
    writer.Key("speaking");
    writer.Int(session.speaking.value_or(0));
    writer.EndObject();
  });
}

void EmulatorService::voice_resume(std::uint64_t id, const rapidjson::Value& d) {
  const auto server_id = string_member(d, "server_id");
  const auto session_id = string_member(d, "session_id");
  const auto token = string_member(d, "token");
  const auto seq_member = d.FindMember("seq_ack");
  if (!server_id || !session_id || !token || seq_member == d.MemberEnd() || seq_member->value.IsNull()) {
    return voice_close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  if (!seq_member->value.IsInt64())
    return voice_close_connection(id, voice_close::kBadRequest, "Bad request.");
  const auto seq_ack = seq_member->value.GetInt64();
  const VoiceState* state = nullptr;
  for (const auto* candidate : voice_.states_of_lobby(*server_id)) {
    if (candidate->session_id == *session_id) state = candidate;
  }
  if (state == nullptr || !state->voice_session || voice_.sessions.count(*state->voice_session) == 0) {
    return voice_close_connection(id, voice_close::kSessionNoLongerValid, "Session no longer valid.");
  }
  if (state->token != *token) {
    return voice_close_connection(id, voice_close::kAuthenticationFailed, "Authentication failed.");
  }
  const auto voice_session = *state->voice_session;
  auto& session = voice_.sessions.at(voice_session);
  // Every message after seq_ack must still be kept; else the session cannot be resumed and the call ends.
  const bool replayable =
      seq_ack <= session.seq &&
      (seq_ack == session.seq || (!session.buffer.empty() && session.buffer.front().seq <= seq_ack + 1));
  if (!replayable) {
    voice_close_connection(id, voice_close::kSessionNoLongerValid, "Session no longer valid.");
    return voice_end_state(state->lobby_id, state->user_id);
  }
  // A connection still attached (one the client gave up on) is cut.
  if (session.connection && *session.connection != id) {
    const auto old = voice_.connections.find(*session.connection);
    if (old != voice_.connections.end()) {
      old->second.peer->drop();
      voice_.connections.erase(old);
    }
  }
  session.connection = id;
  auto& connection = voice_.connections.at(id);
  connection.voice_session = voice_session;
  for (const auto& sent : session.buffer) {
    if (sent.seq <= seq_ack) continue;
    if (sent.binary) {
      connection.peer->send_binary(sent.frame);
    } else {
      connection.peer->send_text(sent.frame);
    }
  }
  connection.peer->send_text(unsequenced(voice_op::kResumed, "null"));
}

void EmulatorService::voice_select_protocol(std::uint64_t id, const rapidjson::Value& d) {
  const auto protocol = string_member(d, "protocol");
  const auto data = d.FindMember("data");
  if (!protocol || data == d.MemberEnd() || !data->value.IsObject()) {
    return voice_close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const auto& fields = data->value;
  const auto address = string_member(fields, "address");
  const auto mode_name = string_member(fields, "mode");
  const auto port = fields.FindMember("port");
  if (!address || !mode_name || port == fields.MemberEnd()) {
    return voice_close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  if (*protocol != "udp" || address->empty() || !port->value.IsInt() || port->value.GetInt() < 1 ||
      port->value.GetInt() > 65535) {
    return voice_close_connection(id, voice_close::kBadRequest, "Bad request.");
  }
  const auto voice_session = *voice_.connections.at(id).voice_session;
  auto& session = voice_.sessions.at(voice_session);
  const auto mode = voice::ParseTransportMode(*mode_name);
  const bool offered = std::find(session.offered_modes.begin(), session.offered_modes.end(), *mode_name) !=
                       session.offered_modes.end();
  // Deprecated and unknown modes parse to nothing: refused even when a test made the server offer them.
  if (!mode || !offered) {
    return voice_close_connection(id, voice_close::kUnknownEncryptionMode, "Unknown encryption mode.");
  }
  if (!session.key_set) {
    if (RAND_bytes(session.key.data(), static_cast<int>(session.key.size())) != 1) {
      throw std::runtime_error("OpenSSL RAND_bytes failed");
    }
    session.key_set = true;
  }
  session.mode = *mode;
  session.media = MediaEndpoint{*address, static_cast<std::uint16_t>(port->value.GetInt())};
  forwarding_unit_.set_media(voice_session, *session.media, *mode, session.key);
  const auto lobby_id = session.lobby_id;
  const int dave_version =
      voice_dave_call(lobby_id).join(session.user_id, session.max_dave_version, steady_now_ms());
  voice_send(voice_session, voice_op::kSessionDescription, to_json([&](JsonWriter& writer) {
               writer.StartObject();
               writer.Key("mode");
               write_string(writer, *mode_name);
               writer.Key("secret_key");
               writer.StartArray();
               for (const auto byte : session.key)
                 writer.Uint(byte);
               writer.EndArray();
               writer.Key("dave_protocol_version");
               writer.Int(dave_version);
               writer.EndObject();
             }));
  voice_dave_flush(lobby_id);
}

void EmulatorService::voice_speaking(std::uint64_t id, const rapidjson::Value& d) {
  const auto speaking = d.FindMember("speaking");
  if (speaking == d.MemberEnd() || speaking->value.IsNull()) {
    return voice_close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const auto voice_session = *voice_.connections.at(id).voice_session;
  auto& session = voice_.sessions.at(voice_session);
  const auto ssrc = d.FindMember("ssrc");
  // The bitmask: 1 microphone, 2 soundshare, 4 priority.
  if (!speaking->value.IsInt() || speaking->value.GetInt() < 0 || speaking->value.GetInt() > 7 ||
      (ssrc != d.MemberEnd() && !ssrc->value.IsNull() &&
       (!ssrc->value.IsUint() || ssrc->value.GetUint() != session.ssrc))) {
    return voice_close_connection(id, voice_close::kBadRequest, "Bad request.");
  }
  session.speaking = speaking->value.GetInt();
  voice_send_to_others(session, voice_op::kSpeaking, speaking_json(session));
}

// ---- admin routes ----------------------------------------------------------------------------------------

void EmulatorService::register_voice_routes() {
  auto bind = [this](HttpResponse (EmulatorService::*handler)(const RouteContext&)) {
    return [this, handler](const RouteContext& context) { return (this->*handler)(context); };
  };
  admin_router_.add("GET", "/voice/sessions", bind(&EmulatorService::admin_voice_sessions));
  admin_router_.add("GET", "/voice/settings", bind(&EmulatorService::admin_voice_get_settings));
  admin_router_.add("POST", "/voice/settings", bind(&EmulatorService::admin_voice_settings));
  admin_router_.add("POST", "/voice/drop", bind(&EmulatorService::admin_voice_drop));
  admin_router_.add("POST", "/voice/close", bind(&EmulatorService::admin_voice_close));
  admin_router_.add("POST", "/voice/move", bind(&EmulatorService::admin_voice_move));
  admin_router_.add("GET", "/voice/calls", bind(&EmulatorService::admin_voice_calls));
  admin_router_.add("POST", "/voice/dave", bind(&EmulatorService::admin_voice_dave));
  // A request for the voice gateway that the server did not upgrade: no or a bad version (or no upgrade).
  const auto refuse = [](const RouteContext& context) {
    if (!voice_gateway_version(context.request.target)) {
      return error_response(400, error_code::kInvalidApiVersion, "Invalid API version");
    }
    return error_response(400, error_code::kGeneral, "WebSocket upgrade expected");
  };
  web_router_.add("GET", "/voice", refuse);
  web_router_.add("GET", "/voice/", refuse);
}

HttpResponse EmulatorService::admin_voice_sessions(const RouteContext&) {
  return HttpResponse::json(
      200, to_json([&](JsonWriter& writer) {
        writer.StartArray();
        for (const auto& [id, session] : voice_.sessions) {
          const auto stats = forwarding_unit_.stats(id).value_or(ForwardingStats{});
          writer.StartObject();
          writer.Key("user_id");
          write_string(writer, session.user_id);
          writer.Key("lobby_id");
          write_string(writer, session.lobby_id);
          writer.Key("session_id");
          write_string(writer, session.session_id);
          writer.Key("ssrc");
          writer.Uint(session.ssrc);
          writer.Key("mode");
          if (session.mode) {
            write_string(writer, voice::TransportModeName(*session.mode));
          } else {
            writer.Null();
          }
          writer.Key("connected");
          writer.Bool(session.connection.has_value());
          writer.Key("media_address");
          if (session.media) {
            write_string(writer, session.media->address + ":" + std::to_string(session.media->port));
          } else {
            writer.Null();
          }
          writer.Key("packets_received");
          writer.Uint64(stats.packets_received);
          writer.Key("packets_forwarded");
          writer.Uint64(stats.packets_forwarded);
          writer.Key("packets_rejected");
          writer.Uint64(stats.packets_rejected);
          writer.Key("payloads_e2ee");
          writer.Uint64(stats.payloads_e2ee);
          writer.Key("payloads_clear");
          writer.Uint64(stats.payloads_clear);
          writer.EndObject();
        }
        writer.EndArray();
      }));
}

std::string EmulatorService::voice_settings_json() const {
  const auto& s = voice_.settings;
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("modes");
    writer.StartArray();
    for (const auto& mode : s.modes)
      write_string(writer, mode);
    writer.EndArray();
    writer.Key("heartbeat_interval_ms");
    writer.Int64(s.heartbeat_interval_ms);
    writer.Key("resume_window_ms");
    writer.Int64(s.resume_window_ms);
    writer.Key("buffer_size");
    writer.Int64(s.buffer_size);
    writer.Key("e2ee");
    write_string(writer, s.e2ee);
    writer.Key("dave_transition_timeout_ms");
    writer.Int64(s.dave_transition_timeout_ms);
    writer.EndObject();
  });
}

HttpResponse EmulatorService::admin_voice_get_settings(const RouteContext&) {
  return HttpResponse::json(200, voice_settings_json());
}

HttpResponse EmulatorService::admin_voice_settings(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto next = voice_.settings;
  if (const auto* modes = fields.value("modes", false)) {
    const bool valid = modes->IsArray() && !modes->Empty() &&
                       std::all_of(modes->Begin(), modes->End(), [](const rapidjson::Value& m) {
                         return m.IsString() && m.GetStringLength() > 0;
                       });
    if (valid) {
      next.modes.clear();
      for (const auto& mode : modes->GetArray())
        next.modes.emplace_back(mode.GetString(), mode.GetStringLength());
    } else {
      fields.add_issue("modes", {"BASE_TYPE_INVALID", "A non-empty array of mode names."});
    }
  }
  if (auto v = fields.integer("heartbeat_interval_ms", false, 10, 3600000)) next.heartbeat_interval_ms = *v;
  if (auto v = fields.integer("resume_window_ms", false, 0, 3600000)) next.resume_window_ms = *v;
  if (auto v = fields.integer("buffer_size", false, 1, 100000)) next.buffer_size = *v;
  if (auto v = fields.string("e2ee", false)) {
    if (*v == "by_date" || *v == "required" || *v == "optional") {
      next.e2ee = std::string(*v);
    } else {
      fields.add_issue("e2ee", {"BASE_TYPE_CHOICES", "One of by_date, required, optional."});
    }
  }
  if (auto v = fields.integer("dave_transition_timeout_ms", false, 0, 600000))
    next.dave_transition_timeout_ms = *v;
  const bool reset = fields.boolean("reset", false).value_or(false);
  if (!errors.empty()) return invalid_form_body(errors);
  voice_.settings = reset ? VoiceSettings{} : next;
  // Requiring E2EE now ends the calls of clients that cannot do it, as Identify would have refused them.
  if (voice_e2ee_required()) {
    std::vector<std::uint64_t> plain;
    for (const auto& [id, connection] : voice_.connections) {
      if (!connection.voice_session) continue;
      const auto session = voice_.sessions.find(*connection.voice_session);
      if (session != voice_.sessions.end() && session->second.max_dave_version < kDaveProtocolVersion)
        plain.push_back(id);
    }
    for (const auto id : plain)
      voice_close_connection(id, voice_close::kE2eeRequired, "E2EE/DAVE protocol required.");
  }
  return HttpResponse::json(200, voice_settings_json());
}

std::variant<std::optional<std::string>, HttpResponse> EmulatorService::voice_target_user(
    const RouteContext& context, rapidjson::Document& body) {
  if (context.request.body.empty()) {
    body.SetObject();
  } else if (auto error = read_json_object(context.request, body)) {
    return std::move(*error);
  }
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto user_id = fields.string("user_id", false);
  if (!errors.empty()) return invalid_form_body(errors);
  return user_id ? std::optional<std::string>(std::string(*user_id)) : std::nullopt;
}

std::variant<std::vector<std::uint64_t>, HttpResponse> EmulatorService::voice_select(
    const RouteContext& context, rapidjson::Document& body) {
  auto target = voice_target_user(context, body);
  if (auto* error = std::get_if<HttpResponse>(&target)) return std::move(*error);
  const auto& user_id = std::get<std::optional<std::string>>(target);
  std::vector<std::uint64_t> ids;
  for (const auto& [id, connection] : voice_.connections) {
    if (user_id) {
      if (!connection.voice_session) continue;
      const auto session = voice_.sessions.find(*connection.voice_session);
      if (session == voice_.sessions.end() || session->second.user_id != *user_id) continue;
    }
    ids.push_back(id);
  }
  return ids;
}

HttpResponse EmulatorService::admin_voice_drop(const RouteContext& context) {
  rapidjson::Document body;
  auto selected = voice_select(context, body);
  if (auto* error = std::get_if<HttpResponse>(&selected)) return std::move(*error);
  const auto ids = std::get<std::vector<std::uint64_t>>(selected);
  for (const auto id : ids)
    voice_drop_connection(id);
  return HttpResponse::json(200, "{\"connections\":" + std::to_string(ids.size()) + "}");
}

HttpResponse EmulatorService::admin_voice_close(const RouteContext& context) {
  rapidjson::Document body;
  auto selected = voice_select(context, body);
  if (auto* error = std::get_if<HttpResponse>(&selected)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto code = fields.integer("code", true, 1000, 4999);
  const auto reason = fields.string("reason", false);
  if (reason && reason->size() > 123) {
    fields.add_issue("reason", {"BASE_TYPE_MAX_LENGTH", "Must be 123 bytes or fewer in length."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  const auto ids = std::get<std::vector<std::uint64_t>>(selected);
  for (const auto id : ids)
    voice_close_connection(id, static_cast<int>(*code), reason.value_or(""));
  return HttpResponse::json(200, "{\"connections\":" + std::to_string(ids.size()) + "}");
}

// As when the platform moves a call to another voice server (failover, region change): every voice state of
// the user (or of everyone) gets a new token and a LOBBY_VOICE_SERVER_UPDATE, and its voice session is
// detached from the state. That session lives on until its client leaves it for the new server (ending
// it then ends that session only) or its connection is closed; Identify with the new token starts afresh.
HttpResponse EmulatorService::admin_voice_move(const RouteContext& context) {
  rapidjson::Document body;
  auto target = voice_target_user(context, body);
  if (auto* error = std::get_if<HttpResponse>(&target)) return std::move(*error);
  const auto& user_id = std::get<std::optional<std::string>>(target);
  std::size_t moved = 0;
  for (auto& [key, state] : voice_.states) {
    if (user_id && state.user_id != *user_id) continue;
    state.token = random_token(24);
    state.voice_session.reset();
    voice_dispatch_server(state);
    ++moved;
  }
  return HttpResponse::json(200, "{\"moved\":" + std::to_string(moved) + "}");
}

}  // namespace platformpp::emulator
