// DAVE on the voice gateway (docs/dave.md): the client's opcodes 23, 26, 28 and 31 handed to the lobby's
// DaveCall, what it answers sent through the voice sessions (sequenced, buffered for resume), and the admin
// routes GET /_emulator/voice/calls and POST /_emulator/voice/dave.
#include <algorithm>

#include "core/api_error.hpp"
#include "core/fake_clock.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "voice/voice_module.hpp"

namespace platformpp::emulator {

bool VoiceModule::e2ee_required() {
  const auto& mode = voice_.settings.e2ee;
  if (mode == "required") return true;
  if (mode == "optional") return false;
  return clock_.now_ms() >= kE2eeRequiredFromMs;
}

DaveCall& VoiceModule::dave_call(const std::string& lobby_id) {
  if (!voice_.dave_sender) voice_.dave_sender = DaveExternalSender::generate();
  const auto it = voice_.dave_calls.find(lobby_id);
  if (it != voice_.dave_calls.end()) return it->second;
  return voice_.dave_calls
      .emplace(
          std::piecewise_construct, std::forward_as_tuple(lobby_id),
          std::forward_as_tuple(*voice_.dave_sender, lobby_id, voice_.settings.dave_transition_timeout_ms,
                                voice_.settings.dave_new_group_wait_ms))
      .first->second;
}

std::int64_t VoiceModule::send_binary(const std::string& voice_session, int opcode,
                                      std::string_view payload) {
  return send_sequenced(voice_session, [&](std::int64_t seq) {
    std::string frame;
    frame.reserve(3 + payload.size());
    // The binary header carries the low 16 bits of the session's seq.
    frame.push_back(static_cast<char>((seq >> 8) & 0xFF));
    frame.push_back(static_cast<char>(seq & 0xFF));
    frame.push_back(static_cast<char>(opcode));
    frame.append(payload);
    return VoiceSession::Sent{seq, std::move(frame), true};
  });
}

void VoiceModule::dave_flush(const std::string& lobby_id) {
  const auto call = voice_.dave_calls.find(lobby_id);
  if (call == voice_.dave_calls.end()) return;
  auto outgoing = call->second.take_outgoing();
  // What DAVE says follows from a change of the call (a member, a commit, a transition, a protocol change).
  if (!outgoing.empty() || call->second.empty()) call_changed(lobby_id);
  for (auto& message : outgoing) {
    const auto* state = voice_.find_state(lobby_id, message.user_id);
    if (state == nullptr || !state->voice_session) continue;
    if (message.binary) {
      send_binary(*state->voice_session, message.opcode, message.payload);
    } else {
      send(*state->voice_session, message.opcode, message.payload);
    }
  }
  if (call->second.empty()) voice_.dave_calls.erase(call);
}

void VoiceModule::dave_leave(const VoiceSession& session) {
  const auto call = voice_.dave_calls.find(session.lobby_id);
  if (call == voice_.dave_calls.end()) return;
  call->second.leave(session.user_id, steady_now_ms());
  dave_flush(session.lobby_id);
}

void VoiceModule::dave_binary(std::uint64_t id, std::string_view message) {
  const auto& connection = voice_.connections.at(id);
  if (!connection.voice_session) {
    return close_connection(id, voice_close::kNotAuthenticated, "Not authenticated.");
  }
  const auto opcode = static_cast<std::uint8_t>(message.front());
  if (opcode != dave_op::kKeyPackage && opcode != dave_op::kCommitWelcome) {
    return close_connection(id, voice_close::kUnknownOpcode, "Unknown opcode.");
  }
  const auto& session = voice_.sessions.at(*connection.voice_session);
  const auto lobby_id = session.lobby_id;
  const auto call = voice_.dave_calls.find(lobby_id);
  if (call == voice_.dave_calls.end()) return;  // not in a DAVE call (yet): nothing to act on
  const auto payload = message.substr(1);
  if (opcode == dave_op::kKeyPackage) {
    if (const auto refusal = call->second.key_package(session.user_id, payload, steady_now_ms())) {
      dave_flush(lobby_id);
      return close_connection(id, voice_close::kBadRequest, "Bad request.");
    }
  } else {
    call->second.commit_welcome(session.user_id, payload, steady_now_ms());
  }
  dave_flush(lobby_id);
}

void VoiceModule::dave_transition(std::uint64_t id, int opcode, const rapidjson::Value& d) {
  const auto transition = d.FindMember("transition_id");
  if (transition == d.MemberEnd() || transition->value.IsNull()) {
    return close_connection(id, voice_close::kDecodeError, "Decode error.");
  }
  if (!transition->value.IsUint() || transition->value.GetUint() > 0xFFFF) {
    return close_connection(id, voice_close::kBadRequest, "Bad request.");
  }
  const auto transition_id = static_cast<std::uint16_t>(transition->value.GetUint());
  const auto& session = voice_.sessions.at(*voice_.connections.at(id).voice_session);
  const auto lobby_id = session.lobby_id;
  const auto call = voice_.dave_calls.find(lobby_id);
  if (call == voice_.dave_calls.end()) return;
  if (opcode == dave_op::kReadyForTransition) {
    call->second.ready_for_transition(session.user_id, transition_id);
  } else {
    call->second.invalid_commit_welcome(session.user_id, transition_id, steady_now_ms());
  }
  dave_flush(lobby_id);
}

// ---- admin -----------------------------------------------------------------------------------------------

HttpResponse VoiceModule::admin_calls(const RouteContext&) {
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto& [lobby_id, call] : voice_.dave_calls) {
                                writer.StartObject();
                                writer.Key("lobby_id");
                                write_string(writer, lobby_id);
                                writer.Key("dave_protocol_version");
                                writer.Int(call.version());
                                writer.Key("established");
                                writer.Bool(call.established());
                                writer.Key("epoch");
                                writer.Uint64(call.epoch());
                                writer.Key("leaves");
                                writer.StartObject();
                                for (const auto& [user_id, leaf] : call.leaves()) {
                                  writer.Key(user_id.c_str(),
                                             static_cast<rapidjson::SizeType>(user_id.size()));
                                  writer.Uint(leaf);
                                }
                                writer.EndObject();
                                writer.Key("pending_transitions");
                                writer.Uint64(call.pending_transitions());
                                const auto& c = call.counters();
                                writer.Key("counters");
                                writer.StartObject();
                                writer.Key("key_packages");
                                writer.Uint64(c.key_packages);
                                writer.Key("proposals_sent");
                                writer.Uint64(c.proposals_sent);
                                writer.Key("commits_accepted");
                                writer.Uint64(c.commits_accepted);
                                writer.Key("commits_refused");
                                writer.Uint64(c.commits_refused);
                                writer.Key("welcomes_sent");
                                writer.Uint64(c.welcomes_sent);
                                writer.Key("transitions_executed");
                                writer.Uint64(c.transitions_executed);
                                writer.Key("transitions_timed_out");
                                writer.Uint64(c.transitions_timed_out);
                                writer.Key("invalid_reports");
                                writer.Uint64(c.invalid_reports);
                                writer.Key("new_group_waits_expired");
                                writer.Uint64(c.new_group_waits_expired);
                                writer.EndObject();
                                writer.EndObject();
                              }
                              writer.EndArray();
                            }));
}

// {"lobby_id", "action": "downgrade" | "upgrade" | "new_group"}: a protocol change of one call, as the
// platform makes when a member without DAVE joins, when it is gone, or when it recreates the group.
HttpResponse VoiceModule::admin_dave(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto lobby_id = fields.string("lobby_id", true);
  const auto action = fields.string("action", true);
  if (action && *action != "downgrade" && *action != "upgrade" && *action != "new_group") {
    fields.add_issue("action", {"BASE_TYPE_CHOICES", "One of downgrade, upgrade, new_group."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  const auto call = voice_.dave_calls.find(std::string(*lobby_id));
  if (call == voice_.dave_calls.end()) return unknown_lobby();
  if (*action == "downgrade" && e2ee_required()) {
    return error_response(400, error_code::kGeneral, "End-to-end encryption is required");
  }
  bool changed = false;
  if (*action == "downgrade") {
    changed = call->second.force_downgrade(steady_now_ms());
  } else if (*action == "upgrade") {
    changed = call->second.allow_upgrade(steady_now_ms());
  } else {
    changed = call->second.new_group();
  }
  if (changed) call_changed(std::string(*lobby_id));
  dave_flush(std::string(*lobby_id));
  return HttpResponse::json(200, std::string("{\"changed\":") + (changed ? "true" : "false") + "}");
}

}  // namespace platformpp::emulator
