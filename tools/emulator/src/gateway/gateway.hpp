// The Gateway (realtime WebSocket, docs/gateway-protocol.md) seen from the socket-free side: the server
// implements GatewayPeer (one accepted WebSocket) and GatewayModule keeps a GatewayConnection per peer and
// a GatewaySession per identified session (which outlives its connection for a while, so it can be resumed).
// Everything runs on the emulator's single I/O thread.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace platformpp::emulator {

// A dispatch's text before its sequence number (`{"op":0,"t":"...","d":...`), shared by every session it goes
// to: each session's payload is this text and its own `,"s":N}`. A lobby message to ten members is built,
// compressed and buffered for resume once, not ten times.
struct DispatchBody {
  explicit DispatchBody(std::string body_text) : text(std::move(body_text)) {}
  std::string text;
  // The text deflated on its own (gateway/gateway_deflater.hpp), made by the first compressing peer it is
  // sent to; every peer's stream can carry those bytes. Empty for a text the deflater stores (under 2 KiB):
  // that goes out as `text` in a stored block.
  mutable std::string deflated;
};
using SharedDispatchBody = std::shared_ptr<const DispatchBody>;

// `,"s":N}`: what completes a dispatch body for one session.
std::string dispatch_tail(std::int64_t seq);

class GatewayPeer {
 public:
  virtual ~GatewayPeer() = default;
  // From now on every message is deflated into the connection's zlib stream (zlib header first, each
  // message ending with a sync flush: 00 00 ff ff) and sent as a binary frame. Call before the first send.
  virtual void enable_compression() = 0;
  // Queues one JSON message. Never calls back into the module synchronously.
  virtual void send(std::string json) = 0;
  // Queues one dispatch: `body->text` followed by `tail`.
  virtual void send_dispatch(const SharedDispatchBody& body, std::string_view tail) {
    send(body->text + std::string(tail));
  }
  // Writes what is queued, then a close frame with `code` and `reason`; later sends are dropped.
  virtual void close(int code, std::string reason) = 0;
  // Cuts the TCP connection at once: no close frame (a network failure as the client sees it).
  virtual void drop() = 0;
};

// Identify's intent bits the emulator acts on (the three privileged ones need the application's switch).
namespace gateway_intent {
inline constexpr std::uint64_t kGuilds = 1U << 0;
inline constexpr std::uint64_t kGuildMembers = 1U << 1;
inline constexpr std::uint64_t kGuildModeration = 1U << 2;
inline constexpr std::uint64_t kGuildPresences = 1U << 8;
inline constexpr std::uint64_t kGuildMessages = 1U << 9;
inline constexpr std::uint64_t kDirectMessages = 1U << 12;
inline constexpr std::uint64_t kMessageContent = 1U << 15;
inline constexpr std::uint64_t kAutoModerationConfiguration = 1U << 20;
inline constexpr std::uint64_t kAutoModerationExecution = 1U << 21;
inline constexpr std::uint64_t kPrivileged = kGuildMembers | kGuildPresences | kMessageContent;
// Soundboard sound events (GUILD_EXPRESSIONS) and voice states and effects (GUILD_VOICE_STATES).
inline constexpr std::uint64_t kGuildExpressions = 1U << 3;
inline constexpr std::uint64_t kGuildVoiceStates = 1U << 7;
}  // namespace gateway_intent
namespace gateway_intent {
inline constexpr std::uint64_t kGuildInvites = 1U << 6;  // INVITE_CREATE, INVITE_DELETE
}  // namespace gateway_intent

namespace gateway_close {
inline constexpr int kUnknownError = 4000;
inline constexpr int kUnknownOpcode = 4001;
inline constexpr int kDecodeError = 4002;
inline constexpr int kNotAuthenticated = 4003;
inline constexpr int kAuthenticationFailed = 4004;
inline constexpr int kAlreadyAuthenticated = 4005;
inline constexpr int kInvalidSeq = 4007;
inline constexpr int kRateLimited = 4008;
inline constexpr int kSessionTimedOut = 4009;
inline constexpr int kInvalidShard = 4010;
inline constexpr int kInvalidApiVersion = 4012;
inline constexpr int kInvalidIntents = 4013;
inline constexpr int kDisallowedIntents = 4014;
}  // namespace gateway_close

// Tunables, all settable through POST /_emulator/gateway/limits (heartbeat_interval_ms also through
// /_emulator/gateway/heartbeat-interval). Defaults are the platform's.
struct GatewaySettings {
  std::int64_t heartbeat_interval_ms = 45000;  // sent in Hello to new connections
  // No heartbeat for interval * factor (real time, since Hello or the last heartbeat) closes with 4009.
  double zombie_timeout_factor = 1.5;
  std::int64_t events_per_window = 120;  // client payloads per connection per window, else 4008
  std::int64_t event_window_ms = 60000;  // fake clock
  std::int64_t identify_budget = 1000;   // Identifies per application per window, else 4008
  std::int64_t identify_window_ms = 24LL * 60 * 60 * 1000;  // fake clock
  std::int64_t resume_window_ms = 60000;  // real time a disconnected session stays resumable
  std::int64_t buffer_size = 1000;        // dispatches kept per session for replay
  std::int64_t max_payload_bytes = 4096;  // larger client payloads close with 4002
};

struct GatewaySession {
  std::string id;
  std::string user_id;
  std::string app_id;
  bool bot = false;
  std::uint64_t intents = 0;
  std::int64_t shard_id = 0;     // a bot's Identify `shard`: it gets the events of guilds with
  std::int64_t shard_count = 1;  // (guild_id >> 22) % shard_count == shard_id
  std::uint64_t capabilities = 0;
  bool premium_scope = false;  // its token has identify.premium (premium_type shows if the app is approved)
  std::int64_t seq = 0;        // the last dispatch's s
  std::deque<std::pair<std::int64_t, SharedDispatchBody>> buffer;  // (s, its body), oldest first
  std::optional<std::uint64_t> connection;                         // the live connection, if any
  std::int64_t detached_at_steady_ms = 0;                          // when it lost its connection
};

struct GatewayConnection {
  GatewayPeer* peer = nullptr;
  bool compress = false;
  std::optional<std::string> session_id;   // set by Identify or Resume
  bool identified = false;                 // Identify/Resume succeeded (a second one is 4005)
  bool stalled = false;                    // admin: no heartbeat ACKs
  std::int64_t heartbeat_interval_ms = 0;  // as sent in its Hello
  std::int64_t last_heartbeat_steady_ms = 0;
  std::deque<std::int64_t> event_times_ms;  // fake clock, for the per-connection event limit
  std::uint64_t heartbeats_received = 0;
  std::uint64_t acks_sent = 0;
};

// A user's presence as set by op 3 (or Identify's presence); activities as JSON text (an array).
struct Presence {
  std::string status = "online";
  std::string activities = "[]";
  std::optional<std::int64_t> since;
  bool afk = false;
};

}  // namespace platformpp::emulator
