#include "messaging/message_json.hpp"

#include "core/utf8.hpp"
#include "json/timestamp.hpp"
#include "social/social_json.hpp"

#include <utility>

namespace platformpp::messaging {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void WriteString(Writer& w, std::string_view text) {
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

// `{key: "value"}` pairs; values that are not strings are skipped (the platform only sends strings).
Metadata ParseMetadata(const json::Value* value) {
  Metadata metadata;
  if (!value || !value->IsObject()) return metadata;
  for (const auto& member : value->GetObject()) {
    if (!member.value.IsString()) continue;
    metadata.emplace(std::string(member.name.GetString(), member.name.GetStringLength()),
                     std::string(member.value.GetString(), member.value.GetStringLength()));
  }
  return metadata;
}

}  // namespace

std::optional<ParsedMessage> ParseMessage(const json::Value& value, uint64_t selfId) {
  if (!value.IsObject()) return std::nullopt;
  auto id = json::GetSnowflake(value, "id");
  auto channelId = json::GetSnowflake(value, "channel_id");
  const json::Value* author = json::Member(value, "author");
  // 0 is no snowflake: a message keyed by it would collide with "none" everywhere (the fuzzer found it).
  if (!id || !channelId || *id == 0 || *channelId == 0 || !author || !author->IsObject()) return std::nullopt;
  auto authorId = json::GetSnowflake(*author, "id");
  if (!authorId || *authorId == 0) return std::nullopt;

  ParsedMessage parsed;
  MessageHandle::Data& data = parsed.data;
  data.id = *id;
  data.channelId = *channelId;
  data.authorId = *authorId;
  if (auto user = social::ParseUser(*author)) {
    UserHandle::Data userData;
    userData.id = user->id;
    userData.username = user->username;
    userData.globalName = user->globalName;
    userData.avatar = user->avatar;
    userData.primaryGuildTag = user->primaryGuildTag;
    userData.provisional = user->provisional;
    userData.premiumType = user->premiumType;
    data.author = UserHandle(std::move(userData));
  }
  if (const json::Value* content = json::Member(value, "content")) {
    if (!content->IsString()) return std::nullopt;
    data.content.assign(content->GetString(), content->GetStringLength());
  }
  if (const json::Value* timestamp = json::Member(value, "timestamp"); timestamp && !timestamp->IsNull()) {
    if (!timestamp->IsString()) return std::nullopt;
    auto ms = json::ParseTimestampMs(std::string_view(timestamp->GetString(), timestamp->GetStringLength()));
    if (!ms) return std::nullopt;
    data.sentTimestamp = *ms;
  }
  if (auto edited = json::GetString(value, "edited_timestamp")) {
    data.editedTimestamp = json::ParseTimestampMs(*edited).value_or(0);
  }
  data.lobbyId = json::GetSnowflake(value, "lobby_id");
  data.applicationId = json::GetSnowflake(value, "application_id");
  data.metadata = ParseMetadata(json::Member(value, "metadata"));
  data.moderationMetadata = ParseMetadata(json::Member(value, "moderation_metadata"));
  if (const json::Value* member = json::Member(value, "lobby_member"); member && member->IsObject()) {
    if (auto name = json::GetString(*member, "additional_name"); name && !name->empty())
      data.additionalName = std::string(*name);
  }
  if (auto flags = json::GetInt(value, "flags"); flags && *flags > 0)
    parsed.flags = static_cast<uint64_t>(*flags);
  if (!data.lobbyId) {
    // A DM: the other participant.
    if (auto recipient = json::GetSnowflake(value, "recipient_id")) {
      data.recipientId = *recipient;
    } else if (selfId != 0 && *authorId != selfId) {
      data.recipientId = selfId;
    }
  }
  return parsed;
}

std::vector<FieldError> CheckContent(std::string_view content) {
  auto count = core::CountCodePoints(content);
  if (!count) return {FieldError{"content", "BASE_TYPE_BAD_UTF8", "content: must be valid UTF-8"}};
  if (*count < 1 || *count > kMaxContentCodePoints) {
    return {FieldError{"content", "BASE_TYPE_BAD_LENGTH",
                       "content: must be 1 to " + std::to_string(kMaxContentCodePoints) +
                           " characters long, not " + std::to_string(*count)}};
  }
  return {};
}

std::vector<FieldError> CheckMetadata(const Metadata& metadata) {
  std::size_t total = 0;
  for (const auto& [key, value] : metadata) {
    auto k = core::CountCodePoints(key);
    auto v = core::CountCodePoints(value);
    if (!k || !v) return {FieldError{"metadata", "BASE_TYPE_BAD_UTF8", "metadata: must be valid UTF-8"}};
    total += *k + *v;
  }
  if (total > kMaxMetadataCodePoints) {
    return {FieldError{"metadata", "BASE_TYPE_MAX_LENGTH",
                       "metadata: keys and values must be at most " + std::to_string(kMaxMetadataCodePoints) +
                           " characters in total, not " + std::to_string(total)}};
  }
  return {};
}

std::vector<FieldError> CheckHistoryLimit(int32_t limit) {
  if (limit < kMinHistoryLimit || limit > kMaxHistoryLimit) {
    return {FieldError{"limit", limit < kMinHistoryLimit ? "NUMBER_TYPE_MIN" : "NUMBER_TYPE_MAX",
                       "limit: must be " + std::to_string(kMinHistoryLimit) + " to " +
                           std::to_string(kMaxHistoryLimit) + ", not " + std::to_string(limit)}};
  }
  return {};
}

std::string MessageBody(std::string_view content, const Metadata& metadata, std::string_view nonce) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("content");
  WriteString(w, content);
  if (!metadata.empty()) {
    w.Key("metadata");
    w.StartObject();
    for (const auto& [key, value] : metadata) {
      w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
      WriteString(w, value);
    }
    w.EndObject();
  }
  w.Key("nonce");
  WriteString(w, nonce);
  w.Key("enforce_nonce");
  w.Bool(true);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string EditBody(std::string_view content) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("content");
  WriteString(w, content);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace platformpp::messaging
