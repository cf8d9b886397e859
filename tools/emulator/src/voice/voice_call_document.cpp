// The live-only "voice_call" documents (core/state_changes.hpp): one per lobby with a call in progress, for
// the web console. Who is in the call (muted, deafened, connected to the voice gateway, speaking, the
// transport mode) and whether its media is end-to-end encrypted (DAVE's protocol version, the MLS group's
// epoch, who holds a leaf). Never written to the state file: calls end with the process.
#include <set>
#include <utility>

#include "core/json.hpp"
#include "voice/voice_module.hpp"

namespace platformpp::emulator {

void VoiceModule::register_documents() {
  DocumentKind kind;
  kind.name = std::string(kVoiceCallDocument);
  kind.save = [this](const std::string& lobby_id) { return call_document(lobby_id); };
  kind.ids = [this] {
    std::set<std::string> ids;
    for (const auto& entry : voice_.states)
      ids.insert(entry.first.first);
    for (const auto& entry : voice_.dave_calls)
      ids.insert(entry.first);
    return std::vector<std::string>(ids.begin(), ids.end());
  };
  kind.persisted = false;
  changes_.register_kind(std::move(kind));
}

void VoiceModule::call_changed(const std::string& lobby_id) {
  changes_.touch(kVoiceCallDocument, lobby_id);
}

std::optional<std::string> VoiceModule::call_document(const std::string& lobby_id) const {
  const auto states = voice_.states_of_lobby(lobby_id);
  const auto dave = voice_.dave_calls.find(lobby_id);
  const auto* call = dave == voice_.dave_calls.end() ? nullptr : &dave->second;
  if (states.empty() && call == nullptr) return std::nullopt;
  const auto leaves = call != nullptr ? call->leaves() : std::map<std::string, std::uint32_t>{};
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("lobby_id");
    write_string(writer, lobby_id);
    writer.Key("members");
    writer.StartArray();
    for (const auto* state : states) {
      const VoiceSession* session = nullptr;
      if (state->voice_session) {
        const auto it = voice_.sessions.find(*state->voice_session);
        if (it != voice_.sessions.end()) session = &it->second;
      }
      writer.StartObject();
      writer.Key("user_id");
      write_string(writer, state->user_id);
      writer.Key("self_mute");
      writer.Bool(state->self_mute);
      writer.Key("self_deaf");
      writer.Bool(state->self_deaf);
      writer.Key("voice_connected");  // a live voice gateway connection
      writer.Bool(session != nullptr && session->connection.has_value());
      writer.Key("speaking");  // the microphone bit of its last Speaking
      writer.Bool(session != nullptr && (session->speaking.value_or(0) & 1) != 0);
      writer.Key("mode");
      if (session != nullptr && session->mode) {
        write_string(writer, media_wire::TransportModeName(*session->mode));
      } else {
        writer.Null();
      }
      writer.Key("in_e2ee_group");
      writer.Bool(leaves.count(state->user_id) > 0);
      writer.EndObject();
    }
    writer.EndArray();
    const int version = call != nullptr ? call->version() : 0;
    const bool established = call != nullptr && call->established();
    writer.Key("dave_protocol_version");
    writer.Int(version);
    writer.Key("established");
    writer.Bool(established);
    writer.Key("epoch");
    writer.Uint64(call != nullptr ? call->epoch() : 0);
    writer.Key("e2ee");  // the media is end-to-end encrypted: DAVE with an established group
    writer.Bool(version >= kDaveProtocolVersion && established);
    writer.EndObject();
  });
}

}  // namespace platformpp::emulator
