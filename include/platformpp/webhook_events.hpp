#pragma once
// platformpp::backend::VerifyWebhookEvent: what a game server does with each POST the platform sends to its
// application's webhook events URL, for servers with an HTTP stack of their own. The platform signs every
// request with the application's Ed25519 key: `X-Signature-Ed25519` (hex) over `X-Signature-Timestamp` (Unix
// seconds) followed by the raw body. A request that fails the check is answered 401 and nothing in it is
// believed; a PING is answered 204 (the platform's check that the URL is live); an event is parsed.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::backend {

/// One verified webhook request: `{version, application_id, type, event?: {type, timestamp, data?}}`.
struct WebhookEvent {
  enum class Type : int32_t { Ping = 0, Event = 1 };
  Type type = Type::Ping;
  uint64_t applicationId = 0;
  /// The event's name ("APPLICATION_AUTHORIZED", "APPLICATION_DEAUTHORIZED", "ENTITLEMENT_CREATE", ...);
  /// empty for a PING.
  std::string eventType;
  /// When the event happened (ISO 8601, as sent).
  std::string timestamp;
  /// The event's `data` object as JSON text; empty when the event has none.
  std::string dataJson;
};

struct WebhookVerification {
  /// What to answer the platform: 204 for a PING or an accepted event, 401 when the signature or timestamp is
  /// refused, 400 for a signed body that is not a webhook event.
  int status = 401;
  /// The event, when status is 204.
  std::optional<WebhookEvent> event;
  /// Why the request was refused (never the body, never the key).
  std::string error;
};

/// Checks the signature with the application's public key (64 hex digits, from the developer portal), refuses
/// a timestamp more than `maxAge` away from `now` either way (a replayed request), then parses the body.
WebhookVerification VerifyWebhookEvent(
    std::string_view publicKeyHex, std::string_view signatureHex, std::string_view timestampHeader,
    std::string_view body, std::chrono::system_clock::time_point now = std::chrono::system_clock::now(),
    std::chrono::seconds maxAge = std::chrono::minutes(5));

}  // namespace platformpp::backend
