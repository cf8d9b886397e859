#pragma once
// Voice gateway v8 payloads (docs/voice-protocol.md, "Voice gateway opcodes" and
// "Voice gateway (v8; v4 to v7 without the buffered resume)"), free of sockets: every server message, text
// `{"op", "d", "seq"}` or binary `u16 BE seq | u8 op | payload`, parsed into a typed struct, and the client
// messages built. Nothing here throws or crashes on any input: a message that cannot be read comes back as
// VoiceMalformed (with its `seq` when the envelope was readable, so that it is still acknowledged).

#include "media_wire/transport_cipher.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace platformpp::voice {

enum class VoiceOpcode : int32_t {
  Identify = 0,
  SelectProtocol = 1,
  Ready = 2,
  Heartbeat = 3,
  SessionDescription = 4,
  Speaking = 5,
  HeartbeatAck = 6,
  Resume = 7,
  Hello = 8,
  Resumed = 9,
  ClientsConnect = 11,
  ClientDisconnect = 13,
  DavePrepareTransition = 21,
  DaveExecuteTransition = 22,
  DaveReadyForTransition = 23,
  DavePrepareEpoch = 24,
  DaveInvalidCommitWelcome = 31,
};

/// The highest DAVE protocol version this client speaks (Identify's max_dave_protocol_version).
inline constexpr int32_t kMaxDaveProtocolVersion = 1;

/// Speaking bits (op 5).
inline constexpr uint32_t kSpeakingMicrophone = 1;
inline constexpr uint32_t kSpeakingSoundshare = 2;
inline constexpr uint32_t kSpeakingPriority = 4;

/// Heartbeat intervals outside 1 ms .. 1 h are refused as malformed (they would stall or flood heartbeats).
inline constexpr int64_t kMaxVoiceHeartbeatIntervalMs = 3'600'000;

/// Op 8.
struct VoiceHello {
  int64_t heartbeatIntervalMs = 0;
};

/// Op 2. `modes` keeps every offered name, deprecated and unknown ones included
/// (media_wire::ChooseTransportMode picks).
struct VoiceReady {
  uint32_t ssrc = 0;
  std::string ip;
  uint16_t port = 0;
  std::vector<std::string> modes;
  std::optional<int64_t> heartbeatIntervalMs;
};

/// Op 4. Refused as malformed unless `secret_key` is exactly 32 integers in 0..255 and `mode` is a string.
struct VoiceSessionDescription {
  std::string mode;                                     ///< as sent
  std::optional<media_wire::TransportMode> parsedMode;  ///< nullopt: not a supported mode
  media_wire::TransportKey secretKey{};
  int32_t daveProtocolVersion = 0;
};

/// Op 5 from the server: another participant's speaking state and SSRC.
struct VoiceSpeaking {
  uint64_t userId = 0;
  uint32_t ssrc = 0;
  uint32_t speaking = 0;
};

/// Op 6. `t` echoes our heartbeat's nonce (nullopt when the server sent none).
struct VoiceHeartbeatAck {
  std::optional<uint64_t> t;
};

/// Op 9.
struct VoiceResumed {};

/// Op 11.
struct VoiceClientsConnect {
  std::vector<uint64_t> userIds;
};

/// Op 13.
struct VoiceClientDisconnect {
  uint64_t userId = 0;
};

/// Op 21: a transition to `protocolVersion` (0 = downgrade); transition 0 executes at once.
struct VoiceDavePrepareTransition {
  uint16_t transitionId = 0;
  int32_t protocolVersion = 0;
};

/// Op 22.
struct VoiceDaveExecuteTransition {
  uint16_t transitionId = 0;
};

/// Op 24: the epoch to come (1 = a new group) of `protocolVersion`.
struct VoiceDavePrepareEpoch {
  uint64_t epoch = 0;
  int32_t protocolVersion = 0;
};

/// A binary server frame (DAVE MLS messages, ops 25-30): its opcode and payload (copied).
struct VoiceBinary {
  uint8_t op = 0;
  std::vector<uint8_t> payload;
};

/// A text message with an opcode this layer does not handle (anything new):
/// `dJson` is `d` as JSON text ("null" when absent).
struct VoiceUnknown {
  std::string dJson = "null";
};

/// Unreadable: not JSON, no integer `op`, a bad `seq`, or a known op whose `d` is wrong.
struct VoiceMalformed {
  std::string error;
};

using VoicePayload =
    std::variant<VoiceMalformed, VoiceHello, VoiceReady, VoiceSessionDescription, VoiceSpeaking,
                 VoiceHeartbeatAck, VoiceResumed, VoiceClientsConnect, VoiceClientDisconnect,
                 VoiceDavePrepareTransition, VoiceDaveExecuteTransition, VoiceDavePrepareEpoch, VoiceBinary,
                 VoiceUnknown>;

struct VoiceServerMessage {
  int32_t op = -1;             ///< -1 when unreadable
  std::optional<int64_t> seq;  ///< top-level `seq` (text), or the header's u16 (binary); never negative
  VoicePayload payload;

  bool Malformed() const noexcept { return std::holds_alternative<VoiceMalformed>(payload); }
  template <class T>
  const T* As() const noexcept {
    return std::get_if<T>(&payload);
  }
};

/// One text frame from the voice gateway.
VoiceServerMessage ParseVoiceServerText(std::string_view text);
/// One binary frame: `u16 BE seq | u8 opcode | payload`; fewer than 3 bytes is malformed.
VoiceServerMessage ParseVoiceServerBinary(std::span<const uint8_t> frame);

/// The `seq` to acknowledge: the highest seen (-1 before any). Binary frames carry only the low 16 bits; they
/// are placed next to the highest text seq, so both kinds share one counter as the server numbers them.
class VoiceSeqTracker {
 public:
  /// Records `seq`; returns false when it is not newer than the highest seen (a duplicate after a replay).
  bool Accept(int64_t seq) noexcept {
    if (seq <= last_) return false;
    last_ = seq;
    return true;
  }
  bool AcceptBinary(uint16_t seq16) noexcept { return Accept(ExtendBinary(seq16)); }
  /// The full seq a binary frame's 16 bits most likely stand for.
  int64_t ExtendBinary(uint16_t seq16) const noexcept {
    if (last_ < 0) return seq16;
    int64_t candidate = (last_ & ~int64_t{0xFFFF}) | seq16;
    if (candidate + 0x8000 < last_) candidate += 0x10000;
    return candidate;
  }
  int64_t Last() const noexcept { return last_; }

 private:
  int64_t last_ = -1;
};

/// Op 0 `{server_id, user_id, session_id, token, max_dave_protocol_version}` (ids as strings).
std::string BuildVoiceIdentify(uint64_t serverId, uint64_t userId, std::string_view sessionId,
                               std::string_view token,
                               int32_t maxDaveProtocolVersion = kMaxDaveProtocolVersion);
/// Op 23 `{transition_id}` / op 31 `{transition_id}`.
std::string BuildVoiceDaveReadyForTransition(uint16_t transitionId);
std::string BuildVoiceDaveInvalidCommitWelcome(uint16_t transitionId);
/// A binary client frame: `u8 opcode | payload`.
std::vector<uint8_t> BuildVoiceBinary(uint8_t op, std::span<const uint8_t> payload);
/// Op 1 `{protocol: "udp", data: {address, port, mode}}`; the mode comes from
/// media_wire::ChooseTransportMode.
std::string BuildVoiceSelectProtocol(std::string_view address, uint16_t port, media_wire::TransportMode mode);
/// Op 3 `{t, seq_ack}`; `seqAck` -1 before any server message.
std::string BuildVoiceHeartbeat(uint64_t t, int64_t seqAck);
/// Op 7 `{server_id, session_id, token, seq_ack}`.
std::string BuildVoiceResume(uint64_t serverId, std::string_view sessionId, std::string_view token,
                             int64_t seqAck);
/// Op 5 `{speaking, delay: 0, ssrc}`.
std::string BuildVoiceSpeaking(uint32_t speaking, uint32_t ssrc);

/// `wss://<endpoint>/?v=8` (`ws://` when `plain`) for an endpoint `host:port[/path]` as
/// LOBBY_VOICE_SERVER_UPDATE gives it; a scheme already on the endpoint is replaced, a trailing '/' not
/// doubled.
std::string VoiceGatewayUrl(std::string_view endpoint, bool plain);

}  // namespace platformpp::voice
