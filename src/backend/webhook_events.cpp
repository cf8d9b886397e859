#include <platformpp/webhook_events.hpp>

#include <sodium.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <stdexcept>
#include <string>

#include "backend/request_signature.hpp"
#include "backend/webhook_event_body.hpp"
#include "json/json.hpp"
#include "lobby/lobby_json.hpp"
#include "premium/premium_json.hpp"

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

// Deepest nesting of arrays and objects in `text`, read lexically (strings skipped). Serializing and reading
// JSON recurse, so a body nested deeper than anything the platform sends is refused before either runs.
std::size_t NestingDepth(std::string_view text) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool inString = false;
  bool escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '[' || c == '{')
      deepest = std::max(deepest, ++depth);
    else if ((c == ']' || c == '}') && depth > 0)
      --depth;
  }
  return deepest;
}

// A non-zero snowflake, or nothing.
std::optional<uint64_t> Id(const json::Value& object, std::string_view name) {
  auto id = json::GetSnowflake(object, name);
  if (!id || *id == 0) return std::nullopt;
  return id;
}

uint64_t Flags(const json::Value& object) {
  const json::Value* flags = json::Member(object, "flags");
  return flags && flags->IsUint64() ? flags->GetUint64() : 0;
}

std::optional<WebhookUser> ParseUser(const json::Value* value) {
  if (!value || !value->IsObject()) return std::nullopt;
  auto id = Id(*value, "id");
  if (!id) return std::nullopt;
  WebhookUser user;
  user.id = *id;
  user.username = json::GetText(*value, "username");
  user.globalName = json::GetText(*value, "global_name");
  user.rawJson = json::Serialize(*value);
  return user;
}

std::optional<ApplicationAuthorized> ParseAuthorized(const json::Value& data) {
  auto user = ParseUser(json::Member(data, "user"));
  if (!user) return std::nullopt;
  ApplicationAuthorized event;
  event.user = std::move(*user);
  if (auto type = json::GetInt(data, "integration_type"); type && *type >= 0 && *type <= INT32_MAX)
    event.integrationType = static_cast<int32_t>(*type);
  if (const json::Value* scopes = json::Member(data, "scopes"); scopes && scopes->IsArray()) {
    for (const json::Value& scope : scopes->GetArray())
      if (scope.IsString()) event.scopes.emplace_back(scope.GetString(), scope.GetStringLength());
  }
  if (const json::Value* guild = json::Member(data, "guild"); guild && guild->IsObject())
    event.guildId = Id(*guild, "id");
  return event;
}

std::optional<EntitlementCreate> ParseEntitlementCreate(const json::Value& data) {
  auto entitlement = premium::ParseEntitlement(data);
  if (!entitlement) return std::nullopt;
  return EntitlementCreate{*entitlement, json::Serialize(data)};
}

std::optional<WebhookLobbyMessage> ParseLobbyMessage(const json::Value& data) {
  auto id = Id(data, "id");
  auto lobby = Id(data, "lobby_id");
  auto author = ParseUser(json::Member(data, "author"));
  auto metadata = lobby::ParseMetadata(json::Member(data, "metadata"));
  if (!id || !lobby || !author) return std::nullopt;
  WebhookLobbyMessage message;
  message.id = *id;
  message.lobbyId = *lobby;
  message.channelId = Id(data, "channel_id").value_or(0);
  message.type = json::GetInt32(data, "type").value_or(0);
  message.content = json::GetText(data, "content");
  message.author = std::move(*author);
  // Moderation wants the message even when its metadata is odd: only well-formed metadata is kept.
  if (metadata) message.metadata = std::move(*metadata);
  message.flags = Flags(data);
  message.applicationId = Id(data, "application_id");
  message.editedTimestamp = json::GetOptionalText(data, "edited_timestamp");
  message.rawJson = json::Serialize(data);
  return message;
}

// `channel_id`, else the `channel` object's id.
std::optional<uint64_t> ChannelId(const json::Value& data) {
  if (auto id = Id(data, "channel_id")) return id;
  if (const json::Value* channel = json::Member(data, "channel"); channel && channel->IsObject())
    return Id(*channel, "id");
  return std::nullopt;
}

std::optional<WebhookDirectMessage> ParseDirectMessage(const json::Value& data) {
  auto id = Id(data, "id");
  auto channel = ChannelId(data);
  auto author = ParseUser(json::Member(data, "author"));
  if (!id || !channel || !author) return std::nullopt;
  WebhookDirectMessage message;
  message.id = *id;
  message.channelId = *channel;
  message.type = json::GetInt32(data, "type").value_or(0);
  message.content = json::GetText(data, "content");
  message.author = std::move(*author);
  message.flags = Flags(data);
  message.applicationId = Id(data, "application_id");
  message.lobbyId = Id(data, "lobby_id");
  message.editedTimestamp = json::GetOptionalText(data, "edited_timestamp");
  message.rawJson = json::Serialize(data);
  return message;
}

// The typed event for `name`, or nothing when `data` lacks what that type needs.
std::optional<WebhookEventData> TypedEvent(std::string_view name, const json::Value& data) {
  if (name == "APPLICATION_AUTHORIZED") {
    if (auto event = ParseAuthorized(data)) return WebhookEventData(std::move(*event));
  } else if (name == "APPLICATION_DEAUTHORIZED") {
    if (auto user = ParseUser(json::Member(data, "user")))
      return WebhookEventData(ApplicationDeauthorized{std::move(*user)});
  } else if (name == "ENTITLEMENT_CREATE") {
    if (auto event = ParseEntitlementCreate(data)) return WebhookEventData(std::move(*event));
  } else if (name == "QUEST_USER_ENROLLMENT") {
    return WebhookEventData(QuestUserEnrollment{json::Serialize(data)});
  } else if (name == "LOBBY_MESSAGE_CREATE") {
    if (auto message = ParseLobbyMessage(data))
      return WebhookEventData(LobbyMessageCreate{std::move(*message)});
  } else if (name == "LOBBY_MESSAGE_UPDATE") {
    if (auto message = ParseLobbyMessage(data))
      return WebhookEventData(LobbyMessageUpdate{std::move(*message)});
  } else if (name == "LOBBY_MESSAGE_DELETE") {
    auto id = Id(data, "id");
    auto lobby = Id(data, "lobby_id");
    if (id && lobby) return WebhookEventData(LobbyMessageDelete{*id, *lobby});
  } else if (name == "GAME_DIRECT_MESSAGE_CREATE") {
    if (auto message = ParseDirectMessage(data))
      return WebhookEventData(GameDirectMessageCreate{std::move(*message)});
  } else if (name == "GAME_DIRECT_MESSAGE_UPDATE") {
    if (auto message = ParseDirectMessage(data))
      return WebhookEventData(GameDirectMessageUpdate{std::move(*message)});
  } else if (name == "GAME_DIRECT_MESSAGE_DELETE") {
    auto id = Id(data, "id");
    auto channel = ChannelId(data);
    if (id && channel) return WebhookEventData(GameDirectMessageDelete{*id, *channel, json::Serialize(data)});
  }
  return std::nullopt;
}

WebhookEventData TypedOrUnknown(std::string_view name, const json::Value* data) {
  if (data && data->IsObject()) {
    if (auto typed = TypedEvent(name, *data)) return std::move(*typed);
    return UnknownWebhookEvent{json::Serialize(*data)};
  }
  return UnknownWebhookEvent{};
}

std::string EventId(std::string_view type, std::string_view timestamp, std::string_view compactData) {
  std::string joined;
  joined.reserve(type.size() + timestamp.size() + compactData.size() + 2);
  joined.append(type).append("\n").append(timestamp).append("\n").append(compactData);
  std::array<unsigned char, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256(digest.data(), reinterpret_cast<const unsigned char*>(joined.data()), joined.size());
  std::array<char, 2 * crypto_hash_sha256_BYTES + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
  return std::string(hex.data(), std::size_t{2} * crypto_hash_sha256_BYTES);
}

}  // namespace

WebhookEventData ParseWebhookEventData(std::string_view eventType, std::string_view dataJson) {
  if (dataJson.empty() || NestingDepth(dataJson) > kMaxWebhookNesting) return UnknownWebhookEvent{};
  json::Document document;
  if (!json::Parse(dataJson, document)) return UnknownWebhookEvent{};
  return TypedOrUnknown(eventType, &document);
}

std::optional<WebhookEvent> ParseWebhookEventBody(std::string_view body, std::string& error) {
  if (NestingDepth(body) > kMaxWebhookNesting) return Malformed(error, "the body is nested too deeply");
  json::Document document;
  if (!json::Parse(body, document) || !document.IsObject())
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
    const json::Value* data = json::Member(inner, "data");
    // The id covers whatever `data` holds, so that two events differing only there stay two events.
    const std::string compact = data ? json::Serialize(*data) : std::string();
    if (data && data->IsObject()) event.dataJson = compact;
    event.eventId = EventId(event.eventType, event.timestamp, compact);
    event.data = TypedOrUnknown(event.eventType, data);
  }
  return event;
}

std::optional<std::string> CheckRequestSignature(std::string_view publicKeyHex, std::string_view signatureHex,
                                                 std::string_view timestampHeader, std::string_view body,
                                                 std::chrono::system_clock::time_point now,
                                                 std::chrono::seconds maxAge) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> key{};
  if (!FromHex(publicKeyHex, key)) return "the application's public key is not 64 hex digits";
  std::array<unsigned char, crypto_sign_BYTES> signature{};
  if (!FromHex(signatureHex, signature)) return "X-Signature-Ed25519 is not 128 hex digits";
  const auto seconds = UnixSeconds(timestampHeader);
  if (!seconds) return "X-Signature-Timestamp is not a number of seconds";

  // The signed message is the timestamp header's text followed by the body, byte for byte.
  std::string message;
  message.reserve(timestampHeader.size() + body.size());
  message.append(timestampHeader).append(body);
  if (crypto_sign_verify_detached(signature.data(), reinterpret_cast<const unsigned char*>(message.data()),
                                  message.size(), key.data()) != 0) {
    return "the signature does not match";
  }
  // Only now is the timestamp the platform's: a valid signature with an old one is a replay.
  // Compared in seconds: any int64 the header holds stays in range there.
  const int64_t nowSeconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  if (*seconds < nowSeconds - maxAge.count() || *seconds > nowSeconds + maxAge.count())
    return "the timestamp is too far from now";
  return std::nullopt;
}

WebhookVerification VerifyWebhookEvent(std::string_view publicKeyHex, std::string_view signatureHex,
                                       std::string_view timestampHeader, std::string_view body,
                                       std::chrono::system_clock::time_point now,
                                       std::chrono::seconds maxAge) {
  if (auto refused = CheckRequestSignature(publicKeyHex, signatureHex, timestampHeader, body, now, maxAge))
    return Refused(401, std::move(*refused));
  std::string error;
  auto event = ParseWebhookEventBody(body, error);
  if (!event) return Refused(400, std::move(error));
  WebhookVerification verdict;
  verdict.status = 204;
  verdict.event = std::move(*event);
  return verdict;
}

}  // namespace platformpp::backend
