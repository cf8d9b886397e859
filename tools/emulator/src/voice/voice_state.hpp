// Lobby calls of the emulated platform: who is in which call (voice states, set through the main Gateway's
// op 4), their voice gateway sessions (which outlive a dropped connection for the resume window) and the
// connections to the voice gateway. Plain data; the rules live in VoiceModule (voice_module.hpp).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "media_wire/transport_cipher.hpp"
#include "voice/dave_call.hpp"
#include "voice/forwarding_unit.hpp"
#include "voice/voice_gateway.hpp"

namespace platformpp::emulator {

// A user in a lobby's call (docs/voice-protocol.md, "Joining a lobby call").
struct VoiceState {
  std::string lobby_id;
  std::string user_id;
  std::string session_id;  // the user's main Gateway session that joined
  bool self_mute = false;
  bool self_deaf = false;
  std::string token;                         // the voice server token of this join (a secret)
  std::optional<std::string> voice_session;  // the voice gateway session identified with it, if any
};

// One identified voice gateway session. Keyed by a random id, which is also the forwarding unit's key.
struct VoiceSession {
  std::string id;
  std::string lobby_id;
  std::string user_id;
  std::string session_id;  // the main Gateway session (Identify's/Resume's session_id)
  std::uint32_t ssrc = 0;
  std::optional<media_wire::TransportMode> mode;  // set by Select Protocol
  std::optional<MediaEndpoint> media;
  media_wire::TransportKey key{};  // generated at the first Select Protocol
  bool key_set = false;
  std::vector<std::string> offered_modes;  // as its Ready said
  int max_dave_version = 0;                // its Identify's max_dave_protocol_version
  std::optional<int> speaking;             // the last Speaking bitmask, replayed to later sessions
  int version = kVoiceGatewayVersion;      // the voice gateway version of its connection (Identify, Resume)
  std::int64_t seq = 0;                    // the last server message's seq (binary frames carry it always)
  // (seq, text or binary frame, is it binary), oldest first; kept from kVoiceBufferedResumeVersion on.
  struct Sent {
    std::int64_t seq = 0;
    std::string frame;
    bool binary = false;
  };
  std::deque<Sent> buffer;
  std::optional<std::uint64_t> connection;  // the live connection, if any
  std::int64_t detached_at_steady_ms = 0;   // when it lost its connection
};

struct VoiceConnection {
  VoiceGatewayPeer* peer = nullptr;
  int version = 0;
  std::optional<std::string> voice_session;  // set by Identify or Resume
  std::int64_t heartbeat_interval_ms = 0;    // as sent in its Hello
  std::int64_t last_heartbeat_steady_ms = 0;
};

struct VoiceRegistry {
  VoiceSettings settings;
  std::map<std::pair<std::string, std::string>, VoiceState> states;  // by (lobby id, user id)
  std::map<std::string, VoiceSession> sessions;                      // by voice session id
  std::map<std::uint64_t, VoiceConnection> connections;
  std::uint64_t next_connection = 1;
  std::map<std::string, DaveCall> dave_calls;     // by lobby id, while its call has members
  std::optional<DaveExternalSender> dave_sender;  // made at the first DAVE call

  [[nodiscard]] VoiceState* find_state(const std::string& lobby_id, const std::string& user_id);
  // The voice states of a lobby's call, by user id.
  [[nodiscard]] std::vector<const VoiceState*> states_of_lobby(const std::string& lobby_id) const;
  // The voice sessions of a lobby's call.
  [[nodiscard]] std::vector<std::string> sessions_of_lobby(const std::string& lobby_id) const;
};

}  // namespace platformpp::emulator
