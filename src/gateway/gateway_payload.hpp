#pragma once
// Gateway payloads (docs/gateway-protocol.md, "Payloads"), free of sockets: the envelope `{op, d, s, t}` of
// what the server sends, and the client payloads (heartbeat, identify, resume) the SDK sends. Parsing is the
// hot path of the Gateway (every dispatch goes through it): one SAX pass over the frame, no DOM; `d` stays a
// view of the frame's own text for whoever consumes the dispatch.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"

namespace platformpp::gateway {

enum class Opcode : int32_t {
  Dispatch = 0,
  Heartbeat = 1,
  Identify = 2,
  PresenceUpdate = 3,
  VoiceStateUpdate = 4,
  Resume = 6,
  Reconnect = 7,
  RequestGuildMembers = 8,
  InvalidSession = 9,
  Hello = 10,
  HeartbeatAck = 11,
};

/// The platform closes with 4002 when a client payload is bigger.
constexpr std::size_t kMaxClientPayloadBytes = 4096;

/// One server payload. `d` views the parsed text (valid while that text is); it is "null" when absent.
struct Envelope {
  int32_t op = -1;
  std::optional<int64_t> s;
  std::string t;  ///< empty when null or absent
  std::string_view d = "null";
};

/// Parses one complete Gateway message. Fails (with `error` set) on invalid JSON, a non-object, a missing or
/// non-integer `op`, an `s` that is not an integer or null, a `t` that is not a string or null.
std::optional<Envelope> ParseEnvelope(std::string_view text, std::string* error = nullptr);

/// `{"op":op,"d":dJson}`; empty (with `error` set) when `dJson` is not one JSON value or the payload would be
/// over kMaxClientPayloadBytes.
std::optional<std::string> BuildPayload(Opcode op, std::string_view dJson, std::string* error = nullptr);

/// `{"op":1,"d":<seq or null>}`.
std::string BuildHeartbeat(std::optional<int64_t> seq);

/// Intents a social client identifies with: GUILDS (0), GUILD_VOICE_STATES (7), GUILD_MESSAGES (9),
/// DIRECT_MESSAGES (12). None is privileged (GUILD_MEMBERS 1, GUILD_PRESENCES 8 and MESSAGE_CONTENT 15 are):
/// the platform sends a social client its friends' presences, relationships and lobbies without them.
constexpr int64_t kSocialIntents = (1 << 0) | (1 << 7) | (1 << 9) | (1 << 12);
/// Identify capability bit 15: opt in to channel obfuscation before the platform applies it to everyone; the
/// platform calls it temporary and for testing, so it is sent only when ClientOptions asks for it.
constexpr int64_t kCapabilityChannelObfuscation = 1 << 15;

struct IdentifyParams {
  std::string token;  ///< as sent: "Bearer <token>" for Bearer tokens
  std::string os;     ///< properties.os; empty: the build's operating system
  int64_t intents = kSocialIntents;
  int64_t capabilities = 0;
  /// Sent as `compress: false` when the transport is compressed (zlib-stream), so payloads are not too.
  bool transportCompression = true;
};

/// Op 2. Empty (with `error`) when over the size limit (a very long token).
std::optional<std::string> BuildIdentify(const IdentifyParams& params, std::string* error = nullptr);
/// Op 6 `{token, session_id, seq}`.
std::optional<std::string> BuildResume(std::string_view token, std::string_view sessionId,
                                       std::optional<int64_t> seq, std::string* error = nullptr);

/// Hello's `d.heartbeat_interval` in milliseconds; empty when absent, not a number or not positive.
std::optional<int64_t> ParseHelloInterval(std::string_view dJson);

struct ReadyInfo {
  std::string sessionId;
  std::string resumeGatewayUrl;  ///< may be empty: then resume on the original URL
  std::string userJson;          ///< `d.user` as JSON text ("null" when absent)
  std::optional<uint64_t> userId;
};

/// READY's `d`. Fails when not an object or `session_id` is missing.
std::optional<ReadyInfo> ParseReady(std::string_view dJson, std::string* error = nullptr);
/// The same from `d` already parsed (the dispatch's one document).
std::optional<ReadyInfo> ParseReady(const json::Value& d, std::string* error = nullptr);

/// Op 9's `d`: true when the session may be resumed.
bool ParseInvalidSessionResumable(std::string_view dJson);

/// The `url` of GET /gateway's body, or empty.
std::optional<std::string> ParseGatewayUrl(std::string_view body);

/// `<url>/?v=10&encoding=json[&compress=zlib-stream]`; keeps an existing path and replaces any query.
std::string GatewayConnectUrl(std::string_view url, bool compress);

}  // namespace platformpp::gateway
