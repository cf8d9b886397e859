// The voice gateway's client messages (v4 to v8, docs/voice-protocol.md "Voice gateway"): Identify -> Ready,
// Select Protocol -> Session Description, Speaking, heartbeats and Resume (each in its version's shape);
// DAVE's are handed to voice_dave_routes.cpp.
#include <openssl/rand.h>

#include <algorithm>
#include <stdexcept>

#include "core/fake_clock.hpp"
#include "core/json.hpp"
#include "core/random_token.hpp"
#include "voice/voice_module.hpp"
#include "voice/voice_protocol.hpp"

namespace platformpp::emulator {

namespace {

using voice_protocol::has_member;
using voice_protocol::string_member;
using voice_protocol::unsequenced;

}  // namespace

// ---- client messages
// ---------------------------------------------------------------------------------------

void VoiceModule::received(std::uint64_t id, std::string_view message, bool text) {
  const auto it = voice_.connections.find(id);
  if (it == voice_.connections.end()) return;
  auto& connection = it->second;
  if (!text) {
    // Binary client frames are `u8 opcode | payload`: DAVE's key package (26) and commit (28).
    if (message.empty()) return close_connection(id, voice_close::kDecodeError, "Decode error.");
    return dave_binary(id, message);
  }
  rapidjson::Document payload;
  if (!parse_json(message, payload) || !payload.IsObject()) {
    return close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const auto op_member = payload.FindMember("op");
  if (op_member == payload.MemberEnd() || !op_member->value.IsInt()) {
    return close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const int opcode = op_member->value.GetInt();
  const bool known = opcode == voice_op::kIdentify || opcode == voice_op::kSelectProtocol ||
                     opcode == voice_op::kHeartbeat || opcode == voice_op::kSpeaking ||
                     opcode == voice_op::kResume || opcode == dave_op::kReadyForTransition ||
                     opcode == dave_op::kInvalidCommitWelcome;
  if (!known) return close_connection(id, voice_close::kUnknownOpcode, "Unknown opcode.");
  const auto d_member = payload.FindMember("d");
  if (d_member == payload.MemberEnd())
    return close_connection(id, voice_close::kDecodeError, "Decode error.");
  const auto& d = d_member->value;
  // Before v8 a heartbeat's d is the bare nonce; every other payload is an object.
  if (opcode == voice_op::kHeartbeat) return heartbeat(id, d);
  if (!d.IsObject()) return close_connection(id, voice_close::kDecodeError, "Decode error.");
  switch (opcode) {
    case voice_op::kIdentify:
    case voice_op::kResume:
      if (connection.voice_session) {
        return close_connection(id, voice_close::kAlreadyAuthenticated, "Already authenticated.");
      }
      return opcode == voice_op::kIdentify ? identify(id, d) : resume(id, d);
    default:
      if (!connection.voice_session) {
        return close_connection(id, voice_close::kNotAuthenticated, "Not authenticated.");
      }
      if (opcode == dave_op::kReadyForTransition || opcode == dave_op::kInvalidCommitWelcome) {
        return dave_transition(id, opcode, d);
      }
      return opcode == voice_op::kSelectProtocol ? select_protocol(id, d) : speaking(id, d);
  }
}

// v8: d = {t, seq_ack?}, acknowledged with {t}. Before v8: d is the nonce itself, echoed as d.
void VoiceModule::heartbeat(std::uint64_t id, const rapidjson::Value& d) {
  auto& connection = voice_.connections.at(id);
  if (connection.version < kVoiceBufferedResumeVersion) {
    if (d.IsNull() || d.IsObject()) return close_connection(id, voice_close::kDecodeError, "Decode error.");
    if (!d.IsUint64()) return close_connection(id, voice_close::kBadRequest, "Bad request.");
    connection.last_heartbeat_steady_ms = steady_now_ms();
    connection.peer->send_text(unsequenced(voice_op::kHeartbeatAck, std::to_string(d.GetUint64())));
    return;
  }
  if (!d.IsObject()) return close_connection(id, voice_close::kDecodeError, "Decode error.");
  const auto t = d.FindMember("t");
  if (t == d.MemberEnd() || t->value.IsNull()) {
    return close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const auto seq_ack = d.FindMember("seq_ack");
  if (!t->value.IsUint64() ||
      (seq_ack != d.MemberEnd() && !seq_ack->value.IsNull() && !seq_ack->value.IsInt64())) {
    return close_connection(id, voice_close::kBadRequest, "Bad request.");
  }
  connection.last_heartbeat_steady_ms = steady_now_ms();
  connection.peer->send_text(
      unsequenced(voice_op::kHeartbeatAck, "{\"t\":" + std::to_string(t->value.GetUint64()) + "}"));
}

void VoiceModule::identify(std::uint64_t id, const rapidjson::Value& d) {
  const auto server_id = string_member(d, "server_id");
  const auto user_id = string_member(d, "user_id");
  const auto session_id = string_member(d, "session_id");
  const auto token = string_member(d, "token");
  if (!server_id || !user_id || !session_id || !token) {
    return close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  if (has_member(d, "max_dave_protocol_version") && !d["max_dave_protocol_version"].IsInt()) {
    return close_connection(id, voice_close::kBadRequest, "Bad request.");
  }
  const int max_dave_version =
      has_member(d, "max_dave_protocol_version") ? d["max_dave_protocol_version"].GetInt() : 0;
  auto* state = voice_.find_state(*server_id, *user_id);
  if (state == nullptr || state->session_id != *session_id || state->token != *token) {
    return close_connection(id, voice_close::kAuthenticationFailed, "Authentication failed.");
  }
  // From 1 March 2026 the platform supports end-to-end encrypted calls only.
  // The client cannot stay in the call: its voice state ends with the connection.
  if (max_dave_version < kDaveProtocolVersion && e2ee_required()) {
    close_connection(id, voice_close::kE2eeRequired, "E2EE/DAVE protocol required.");
    return end_state(*server_id, *user_id);
  }
  // A fresh Identify for a join that already has a voice session replaces it.
  if (state->voice_session) end_session(*state->voice_session, voice_close::kSessionNoLongerValid);

  VoiceSession session;
  session.id = random_token(16);
  session.lobby_id = *server_id;
  session.user_id = *user_id;
  session.session_id = *session_id;
  session.ssrc = forwarding_unit_.allocate_ssrc();
  session.offered_modes = voice_.settings.modes;
  session.max_dave_version = max_dave_version;
  session.version = voice_.connections.at(id).version;
  session.connection = id;
  const auto voice_session = session.id;
  forwarding_unit_.add_session(voice_session, session.ssrc, *user_id, *server_id);
  if (state->self_deaf) forwarding_unit_.set_deaf(voice_session, true);
  state->voice_session = voice_session;
  auto& connection = voice_.connections.at(id);
  connection.voice_session = voice_session;
  const auto ssrc = session.ssrc;
  const auto& stored = voice_.sessions.emplace(voice_session, std::move(session)).first->second;
  call_changed(*server_id);

  send(voice_session, voice_op::kReady, to_json([&](JsonWriter& writer) {
         writer.StartObject();
         writer.Key("ssrc");
         writer.Uint(ssrc);
         writer.Key("ip");
         writer.String("127.0.0.1");
         writer.Key("port");
         writer.Uint(udp_port_);
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
    send(voice_session, voice_op::kClientsConnect, to_json([&](JsonWriter& writer) {
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
    if (other.speaking) send(voice_session, voice_op::kSpeaking, speaking_json(other));
  }
  const auto connect = "{\"user_ids\":[\"" + *user_id + "\"]}";
  for (const auto& other_id : others)
    send(other_id, voice_op::kClientsConnect, connect);
}

std::string VoiceModule::speaking_json(const VoiceSession& session) {
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

void VoiceModule::resume(std::uint64_t id, const rapidjson::Value& d) {
  const auto server_id = string_member(d, "server_id");
  const auto session_id = string_member(d, "session_id");
  const auto token = string_member(d, "token");
  if (!server_id || !session_id || !token) {
    return close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  // seq_ack belongs to the buffered resume (v8); before it a Resume has no such field, and one sent is
  // ignored.
  const int version = voice_.connections.at(id).version;
  const bool buffered = version >= kVoiceBufferedResumeVersion;
  std::int64_t seq_ack = 0;
  if (buffered) {
    const auto seq_member = d.FindMember("seq_ack");
    if (seq_member == d.MemberEnd() || seq_member->value.IsNull()) {
      return close_connection(id, voice_close::kDecodeError, "Decode error.");
    }
    if (!seq_member->value.IsInt64()) return close_connection(id, voice_close::kBadRequest, "Bad request.");
    seq_ack = seq_member->value.GetInt64();
  }
  const VoiceState* state = nullptr;
  for (const auto* candidate : voice_.states_of_lobby(*server_id)) {
    if (candidate->session_id == *session_id) state = candidate;
  }
  if (state == nullptr || !state->voice_session || voice_.sessions.count(*state->voice_session) == 0) {
    return close_connection(id, voice_close::kSessionNoLongerValid, "Session no longer valid.");
  }
  if (state->token != *token) {
    return close_connection(id, voice_close::kAuthenticationFailed, "Authentication failed.");
  }
  const auto voice_session = *state->voice_session;
  auto& session = voice_.sessions.at(voice_session);
  // v8: every message after seq_ack must still be kept; else the session cannot be resumed and the call ends.
  // Before v8 nothing is re-sent: what was sent while the client was away is lost, as on the platform.
  const bool replayable =
      !buffered ||
      (seq_ack <= session.seq &&
       (seq_ack == session.seq || (!session.buffer.empty() && session.buffer.front().seq <= seq_ack + 1)));
  if (!replayable) {
    close_connection(id, voice_close::kSessionNoLongerValid, "Session no longer valid.");
    return end_state(state->lobby_id, state->user_id);
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
  // The session speaks its new connection's version from now on; a version without the buffered resume keeps
  // nothing to re-send.
  session.version = version;
  if (!buffered) session.buffer.clear();
  call_changed(session.lobby_id);
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

void VoiceModule::select_protocol(std::uint64_t id, const rapidjson::Value& d) {
  const auto protocol = string_member(d, "protocol");
  const auto data = d.FindMember("data");
  if (!protocol || data == d.MemberEnd() || !data->value.IsObject()) {
    return close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const auto& fields = data->value;
  const auto address = string_member(fields, "address");
  const auto mode_name = string_member(fields, "mode");
  const auto port = fields.FindMember("port");
  if (!address || !mode_name || port == fields.MemberEnd()) {
    return close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  if (*protocol != "udp" || address->empty() || !port->value.IsInt() || port->value.GetInt() < 1 ||
      port->value.GetInt() > 65535) {
    return close_connection(id, voice_close::kBadRequest, "Bad request.");
  }
  const auto voice_session = *voice_.connections.at(id).voice_session;
  auto& session = voice_.sessions.at(voice_session);
  const auto mode = media_wire::ParseTransportMode(*mode_name);
  const bool offered = std::find(session.offered_modes.begin(), session.offered_modes.end(), *mode_name) !=
                       session.offered_modes.end();
  // Deprecated and unknown modes parse to nothing: refused even when a test made the server offer them.
  if (!mode || !offered) {
    return close_connection(id, voice_close::kUnknownEncryptionMode, "Unknown encryption mode.");
  }
  if (!session.key_set) {
    if (RAND_bytes(session.key.data(), static_cast<int>(session.key.size())) != 1) {
      throw std::runtime_error("OpenSSL RAND_bytes failed");
    }
    session.key_set = true;
  }
  session.mode = *mode;
  call_changed(session.lobby_id);
  session.media = MediaEndpoint{*address, static_cast<std::uint16_t>(port->value.GetInt())};
  forwarding_unit_.set_media(voice_session, *session.media, *mode, session.key);
  const auto lobby_id = session.lobby_id;
  const int dave_version =
      dave_call(lobby_id).join(session.user_id, session.max_dave_version, steady_now_ms());
  send(voice_session, voice_op::kSessionDescription, to_json([&](JsonWriter& writer) {
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
  dave_flush(lobby_id);
}

void VoiceModule::speaking(std::uint64_t id, const rapidjson::Value& d) {
  const auto speaking = d.FindMember("speaking");
  if (speaking == d.MemberEnd() || speaking->value.IsNull()) {
    return close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  const auto voice_session = *voice_.connections.at(id).voice_session;
  auto& session = voice_.sessions.at(voice_session);
  const auto ssrc = d.FindMember("ssrc");
  // The bitmask: 1 microphone, 2 soundshare, 4 priority.
  if (!speaking->value.IsInt() || speaking->value.GetInt() < 0 || speaking->value.GetInt() > 7 ||
      (ssrc != d.MemberEnd() && !ssrc->value.IsNull() &&
       (!ssrc->value.IsUint() || ssrc->value.GetUint() != session.ssrc))) {
    return close_connection(id, voice_close::kBadRequest, "Bad request.");
  }
  if (session.speaking != speaking->value.GetInt()) call_changed(session.lobby_id);
  session.speaking = speaking->value.GetInt();
  send_to_others(session, voice_op::kSpeaking, speaking_json(session));
}

}  // namespace platformpp::emulator
