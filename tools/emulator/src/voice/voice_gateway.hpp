// The voice gateway (v4 to v8, docs/voice-protocol.md "Voice gateway") seen from the socket-free side: the
// server implements VoiceGatewayPeer (one accepted WebSocket on /voice) and VoiceModule keeps the voice
// states, sessions and connections (voice_state.hpp). Everything runs on the emulator's single I/O thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::emulator {

class VoiceGatewayPeer {
 public:
  virtual ~VoiceGatewayPeer() = default;
  // Queues one JSON message (a text frame). Never calls back into the module synchronously.
  virtual void send_text(std::string json) = 0;
  // Queues one binary frame (DAVE: `u16 BE seq | u8 opcode | payload`).
  virtual void send_binary(std::string bytes) = 0;
  // Writes what is queued, then a close frame with `code` and `reason`; later sends are dropped.
  virtual void close(int code, std::string reason) = 0;
  // Cuts the TCP connection at once: no close frame (a network failure as the client sees it).
  virtual void drop() = 0;
};

namespace voice_close {
inline constexpr int kUnknownOpcode = 4001;
inline constexpr int kDecodeError = 4002;
inline constexpr int kNotAuthenticated = 4003;
inline constexpr int kAuthenticationFailed = 4004;
inline constexpr int kAlreadyAuthenticated = 4005;
inline constexpr int kSessionNoLongerValid = 4006;
inline constexpr int kSessionTimeout = 4009;
inline constexpr int kServerNotFound = 4011;
inline constexpr int kUnknownProtocol = 4012;
inline constexpr int kDisconnected = 4014;
inline constexpr int kVoiceServerCrashed = 4015;
inline constexpr int kUnknownEncryptionMode = 4016;
inline constexpr int kE2eeRequired = 4017;
inline constexpr int kBadRequest = 4020;
}  // namespace voice_close

namespace voice_op {
inline constexpr int kIdentify = 0;
inline constexpr int kSelectProtocol = 1;
inline constexpr int kReady = 2;
inline constexpr int kHeartbeat = 3;
inline constexpr int kSessionDescription = 4;
inline constexpr int kSpeaking = 5;
inline constexpr int kHeartbeatAck = 6;
inline constexpr int kResume = 7;
inline constexpr int kHello = 8;
inline constexpr int kResumed = 9;
inline constexpr int kClientsConnect = 11;
inline constexpr int kClientDisconnect = 13;
}  // namespace voice_op

inline constexpr int kVoiceGatewayVersion = 8;     // the newest (the platform's recommended one)
inline constexpr int kVoiceGatewayMinVersion = 4;  // below: discontinued on 18 November 2024, refused
// From this version on, server messages carry `seq`, heartbeats are `{t, seq_ack}` and a resume re-sends what
// the client missed (the buffered resume); below it a heartbeat is a bare nonce and a resume replays nothing.
inline constexpr int kVoiceBufferedResumeVersion = 8;

// Tunables, settable through POST /_emulator/voice/settings. Defaults are the platform's.
struct VoiceSettings {
  std::vector<std::string> modes = {"aead_aes256_gcm_rtpsize", "aead_xchacha20_poly1305_rtpsize"};
  std::int64_t heartbeat_interval_ms = 13750;  // sent in Hello and Ready
  std::int64_t resume_window_ms = 60000;       // real time a dropped voice session stays resumable
  std::int64_t buffer_size = 100;              // server messages kept per voice session for resume
  // End-to-end encryption (DAVE): "by_date" requires it from 1 March 2026 on the fake clock, as the
  // platform does; "required" and "optional" override the date. Without the requirement a client that
  // offers no DAVE joins, and the call downgrades to transport encryption only.
  std::string e2ee = "by_date";
  std::int64_t dave_transition_timeout_ms = 3000;  // a transition executes without every member ready
  // A new group's Adds wait this long for the key packages of DAVE members who have not sent theirs, so that
  // the group forms in one commit.
  std::int64_t dave_new_group_wait_ms = 1000;
};

// 2026-03-01T00:00:00Z: from then on the platform supports end-to-end encrypted calls only.
inline constexpr std::int64_t kE2eeRequiredFromMs = 1772323200000;

// The `v` of an upgrade target ("/voice/?v=8"): nullopt when missing, not a number, or outside 4..8 (the
// upgrade is refused with HTTP 400). Every version from 4 to 8 is served, each with the fields it has.
std::optional<int> voice_gateway_version(std::string_view target);

// Whether `path` (no query) is the voice gateway's: "/voice" or "/voice/".
bool is_voice_gateway_path(std::string_view path);

}  // namespace platformpp::emulator
