#include <platformpp/webhook_events.hpp>

#include <sodium.h>

#include <array>
#include <charconv>
#include <stdexcept>
#include <string>

#include "backend/webhook_event_body.hpp"
#include "json/json.hpp"

namespace platformpp::backend {
namespace {

WebhookVerification Refused(int status, std::string why) {
  WebhookVerification verdict;
  verdict.status = status;
  verdict.error = std::move(why);
  return verdict;
}

// Exactly `out.size()` bytes of hex, both cases; false otherwise.
template <std::size_t N>
bool FromHex(std::string_view hex, std::array<unsigned char, N>& out) {
  if (hex.size() != 2 * N) return false;
  std::size_t written = 0;
  return sodium_hex2bin(out.data(), out.size(), hex.data(), hex.size(), nullptr, &written, nullptr) == 0 &&
         written == N;
}

std::optional<int64_t> UnixSeconds(std::string_view text) {
  int64_t value = 0;
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

std::optional<WebhookEvent> Malformed(std::string& error, const char* why) {
  error = why;
  return std::nullopt;
}

}  // namespace

std::optional<WebhookEvent> ParseWebhookEventBody(std::string_view body, std::string& error) {
  json::Document document;
  document.Parse(body.data(), body.size());
  if (document.HasParseError() || !document.IsObject())
    return Malformed(error, "the body is not a JSON object");
  const auto type = json::GetInt(document, "type");
  const auto applicationId = json::GetSnowflake(document, "application_id");
  if (!type || (*type != 0 && *type != 1) || !applicationId) {
    return Malformed(error, "the body has no valid `type` and `application_id`");
  }
  WebhookEvent event;
  event.type = static_cast<WebhookEvent::Type>(*type);
  event.applicationId = *applicationId;
  if (event.type == WebhookEvent::Type::Event) {
    const auto eventMember = document.FindMember("event");
    if (eventMember == document.MemberEnd() || !eventMember->value.IsObject())
      return Malformed(error, "an event without its `event` object");
    const json::Value& inner = eventMember->value;
    const auto name = json::GetString(inner, "type");
    if (!name || name->empty()) return Malformed(error, "an event without its `type`");
    event.eventType = std::string(*name);
    event.timestamp = std::string(json::GetString(inner, "timestamp").value_or(""));
    if (const auto data = inner.FindMember("data"); data != inner.MemberEnd() && data->value.IsObject())
      event.dataJson = json::Serialize(data->value);
  }
  return event;
}

WebhookVerification VerifyWebhookEvent(std::string_view publicKeyHex, std::string_view signatureHex,
                                       std::string_view timestampHeader, std::string_view body,
                                       std::chrono::system_clock::time_point now,
                                       std::chrono::seconds maxAge) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> key{};
  if (!FromHex(publicKeyHex, key)) return Refused(401, "the application's public key is not 64 hex digits");
  std::array<unsigned char, crypto_sign_BYTES> signature{};
  if (!FromHex(signatureHex, signature)) return Refused(401, "X-Signature-Ed25519 is not 128 hex digits");
  const auto seconds = UnixSeconds(timestampHeader);
  if (!seconds) return Refused(401, "X-Signature-Timestamp is not a number of seconds");

  // The signed message is the timestamp header's text followed by the body, byte for byte.
  std::string message;
  message.reserve(timestampHeader.size() + body.size());
  message.append(timestampHeader).append(body);
  if (crypto_sign_verify_detached(signature.data(), reinterpret_cast<const unsigned char*>(message.data()),
                                  message.size(), key.data()) != 0) {
    return Refused(401, "the signature does not match");
  }
  // Only now is the timestamp the platform's: a valid signature with an old one is a replay.
  // Compared in seconds: any int64 the header holds stays in range there.
  const int64_t nowSeconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  if (*seconds < nowSeconds - maxAge.count() || *seconds > nowSeconds + maxAge.count())
    return Refused(401, "the timestamp is too far from now");

  std::string error;
  auto event = ParseWebhookEventBody(body, error);
  if (!event) return Refused(400, std::move(error));
  WebhookVerification verdict;
  verdict.status = 204;
  verdict.event = std::move(*event);
  return verdict;
}

}  // namespace platformpp::backend
