#include "messaging/message_json.hpp"

#include "core/utf8.hpp"
#include "social/social_json.hpp"

#include <cctype>
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

// Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// `count` digits at `pos` as a number; false when any is not a digit.
bool Digits(std::string_view text, std::size_t pos, std::size_t count, int64_t& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

}  // namespace

std::optional<uint64_t> ParseTimestampMs(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS[.fff...](Z|+hh:mm|-hh:mm)
  int64_t year, month, day, hour, minute, second;
  if (text.size() < 20 || !Digits(text, 0, 4, year) || text[4] != '-' || !Digits(text, 5, 2, month) ||
      text[7] != '-' || !Digits(text, 8, 2, day) || (text[10] != 'T' && text[10] != ' ') ||
      !Digits(text, 11, 2, hour) || text[13] != ':' || !Digits(text, 14, 2, minute) || text[16] != ':' ||
      !Digits(text, 17, 2, second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return std::nullopt;
  std::size_t pos = 19;
  int64_t millis = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    std::size_t digits = 0;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
      if (digits < 3) millis = millis * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return std::nullopt;
    for (std::size_t i = digits; i < 3; ++i)
      millis *= 10;
  }
  int64_t offsetMinutes = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int64_t oh, om;
    if (!Digits(text, pos + 1, 2, oh) || pos + 3 >= text.size() || text[pos + 3] != ':' ||
        !Digits(text, pos + 4, 2, om)) {
      return std::nullopt;
    }
    offsetMinutes = (text[pos] == '+' ? 1 : -1) * (oh * 60 + om);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  int64_t seconds = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 86400 +
                    hour * 3600 + minute * 60 + second - offsetMinutes * 60;
  if (seconds < 0) return std::nullopt;
  return static_cast<uint64_t>(seconds) * 1000 + static_cast<uint64_t>(millis);
}

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
    auto ms = ParseTimestampMs(std::string_view(timestamp->GetString(), timestamp->GetStringLength()));
    if (!ms) return std::nullopt;
    data.sentTimestamp = *ms;
  }
  if (auto edited = json::GetString(value, "edited_timestamp")) {
    data.editedTimestamp = ParseTimestampMs(*edited).value_or(0);
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
    const json::Value* activity = json::Member(value, "activity");
    parsed.invite = activity && activity->IsObject();
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
