// Channels and voice states on the wire (channel_json.hpp) and the channel checks. The readers are lenient as
// the other answer readers are: a wrong-typed field keeps its default rather than losing the object.
#include "backend/channel_json.hpp"

#include "backend/member_json.hpp"
#include "core/utf8.hpp"

#include <exception>
#include <string_view>

namespace platformpp::backend {
namespace {

using Allocator = json::Document::AllocatorType;

// An id as the wire carries it (a decimal string); 0 sends null (the field is cleared).
json::Value IdOrNull(uint64_t id, Allocator& a) {
  if (id == 0) return json::Value(rapidjson::kNullType);
  return json::StringValue(std::to_string(id), a);
}

// An overwrite in a channel body (`withId`) carries its bits as integers, as the platform's OpenAPI document
// types them there; Edit Channel Permissions' body carries them as strings, as its reference page does. The
// platform reads either.
json::Value OverwriteValue(const PermissionOverwrite& overwrite, bool withId, Allocator& a) {
  json::Value value(rapidjson::kObjectType);
  if (withId) value.AddMember("id", json::StringValue(std::to_string(overwrite.id), a), a);
  value.AddMember("type", static_cast<int32_t>(overwrite.type), a);
  if (withId) {
    value.AddMember("allow", json::Value(overwrite.allow), a);
    value.AddMember("deny", json::Value(overwrite.deny), a);
  } else {
    value.AddMember("allow", json::StringValue(std::to_string(overwrite.allow), a), a);
    value.AddMember("deny", json::StringValue(std::to_string(overwrite.deny), a), a);
  }
  return value;
}

void CheckLength(const std::string& text, const char* path, std::size_t min, std::size_t max,
                 std::vector<FieldError>& errors) {
  auto length = core::CountCodePoints(text);
  if (!length) {
    errors.push_back(FieldError{path, "BASE_TYPE_INVALID", std::string(path) + ": must be valid UTF-8"});
  } else if (*length < min || *length > max) {
    errors.push_back(FieldError{path, "BASE_TYPE_BAD_LENGTH",
                                std::string(path) + ": must be " + std::to_string(min) + " to " +
                                    std::to_string(max) + " characters"});
  }
}

bool KnownType(int32_t type) {
  for (int32_t known :
       {channel_types::Text, channel_types::Voice, channel_types::Category, channel_types::Announcement,
        channel_types::Stage, channel_types::Forum, channel_types::Media})
    if (type == known) return true;
  return false;
}

template <class Parse>
auto ParseText(std::string_view text, Parse parse) -> decltype(parse(std::declval<const json::Value&>())) {
  try {
    json::Document document;
    if (!json::Parse(text, document)) return std::nullopt;
    return parse(document);
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document: not an object this process can hold
  }
}

}  // namespace

std::optional<Channel> ParseChannelValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto id = json::GetSnowflake(value, "id");
  if (!id) return std::nullopt;
  Channel channel;
  channel.id = *id;
  channel.type = json::GetInt32(value, "type").value_or(0);
  channel.guildId = json::GetSnowflake(value, "guild_id").value_or(0);
  channel.name = json::GetText(value, "name");
  channel.position = json::GetInt32(value, "position").value_or(0);
  channel.parentId = json::GetSnowflake(value, "parent_id");
  channel.topic = json::GetText(value, "topic");
  channel.rateLimitPerUser = json::GetInt32(value, "rate_limit_per_user").value_or(0);
  channel.nsfw = json::GetBool(value, "nsfw").value_or(false);
  if (const json::Value* overwrites = json::Member(value, "permission_overwrites");
      overwrites != nullptr && overwrites->IsArray()) {
    for (const json::Value& item : overwrites->GetArray()) {
      if (!item.IsObject()) continue;
      auto overwriteId = json::GetSnowflake(item, "id");
      if (!overwriteId) continue;  // an overwrite the SDK cannot name is skipped, not the channel
      PermissionOverwrite overwrite;
      overwrite.id = *overwriteId;
      overwrite.type =
          json::GetInt32(item, "type").value_or(0) == 1 ? OverwriteType::Member : OverwriteType::Role;
      overwrite.allow = json::GetSnowflake(item, "allow").value_or(0);
      overwrite.deny = json::GetSnowflake(item, "deny").value_or(0);
      channel.permissionOverwrites.push_back(overwrite);
    }
  }
  auto flags = json::GetInt(value, "flags");
  if (flags && *flags >= 0) channel.flags = static_cast<uint64_t>(*flags);
  channel.rawJson = json::Serialize(value);
  return channel;
}

std::optional<Channel> ParseChannel(std::string_view json) {
  return ParseText(json, ParseChannelValue);
}

std::vector<FieldError> CheckChannelChanges(const ChannelChanges& changes, bool creating) {
  std::vector<FieldError> errors;
  if (changes.name) {
    CheckLength(*changes.name, "name", 1, channel_limits::MaxNameLength, errors);
  } else if (creating) {
    errors.push_back(FieldError{"name", "BASE_TYPE_REQUIRED", "name: required"});
  }
  if (changes.type && !KnownType(*changes.type)) {
    errors.push_back(FieldError{"type", "BASE_TYPE_CHOICES", "type: must be 0, 2, 4, 5, 13, 15 or 16"});
  }
  // An empty topic is sent as null (it clears the topic): only the upper bound applies.
  if (changes.topic) CheckLength(*changes.topic, "topic", 0, channel_limits::MaxTopicLength, errors);
  if (changes.position && *changes.position < 0) {
    errors.push_back(FieldError{"position", "NUMBER_TYPE_MIN", "position: must be at least 0"});
  }
  if (changes.rateLimitPerUser &&
      (*changes.rateLimitPerUser < 0 || *changes.rateLimitPerUser > channel_limits::MaxRateLimitPerUser)) {
    errors.push_back(FieldError{"rate_limit_per_user", "NUMBER_TYPE_OUT_OF_RANGE",
                                "rate_limit_per_user: must be 0 to 21600"});
  }
  if (changes.permissionOverwrites) {
    for (std::size_t i = 0; i < changes.permissionOverwrites->size(); ++i) {
      if ((*changes.permissionOverwrites)[i].id == 0) {
        const std::string path = "permission_overwrites." + std::to_string(i) + ".id";
        errors.push_back(FieldError{path, "BASE_TYPE_REQUIRED", path + ": must not be 0"});
      }
    }
  }
  return errors;
}

std::vector<FieldError> CheckVoiceChannelStatus(std::string_view status) {
  std::vector<FieldError> errors;
  CheckLength(std::string(status), "status", 0, channel_limits::MaxVoiceStatusLength, errors);
  return errors;
}

std::string ChannelChangesBody(const ChannelChanges& changes) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  if (changes.name) body.AddMember("name", json::StringValue(*changes.name, a), a);
  if (changes.type) body.AddMember("type", *changes.type, a);
  if (changes.topic) {
    body.AddMember(
        "topic",
        changes.topic->empty() ? json::Value(rapidjson::kNullType) : json::StringValue(*changes.topic, a), a);
  }
  if (changes.position) body.AddMember("position", *changes.position, a);
  if (changes.parentId) body.AddMember("parent_id", IdOrNull(*changes.parentId, a), a);
  if (changes.rateLimitPerUser) body.AddMember("rate_limit_per_user", *changes.rateLimitPerUser, a);
  if (changes.nsfw) body.AddMember("nsfw", *changes.nsfw, a);
  if (changes.permissionOverwrites) {
    json::Value overwrites(rapidjson::kArrayType);
    for (const auto& overwrite : *changes.permissionOverwrites)
      overwrites.PushBack(OverwriteValue(overwrite, true, a), a);
    body.AddMember("permission_overwrites", overwrites, a);
  }
  return json::Serialize(body);
}

std::string ChannelPositionsBody(const std::vector<ChannelPosition>& positions) {
  json::Document body(rapidjson::kArrayType);
  auto& a = body.GetAllocator();
  for (const auto& move : positions) {
    json::Value item(rapidjson::kObjectType);
    item.AddMember("id", json::StringValue(std::to_string(move.id), a), a);
    if (move.position) item.AddMember("position", *move.position, a);
    if (move.parentId) item.AddMember("parent_id", IdOrNull(*move.parentId, a), a);
    if (move.lockPermissions) item.AddMember("lock_permissions", *move.lockPermissions, a);
    body.PushBack(item, a);
  }
  return json::Serialize(body);
}

std::string OverwriteBody(const PermissionOverwrite& overwrite) {
  json::Document holder;
  return json::Serialize(OverwriteValue(overwrite, false, holder.GetAllocator()));
}

std::optional<VoiceState> ParseVoiceStateValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto userId = json::GetSnowflake(value, "user_id");
  if (!userId) return std::nullopt;
  VoiceState state;
  state.userId = *userId;
  state.guildId = json::GetSnowflake(value, "guild_id").value_or(0);
  state.channelId = json::GetSnowflake(value, "channel_id");
  if (const json::Value* member = json::Member(value, "member"))
    state.member = ParseGuildMemberValue(*member);
  state.sessionId = json::GetText(value, "session_id");
  state.deaf = json::GetBool(value, "deaf").value_or(false);
  state.mute = json::GetBool(value, "mute").value_or(false);
  state.selfDeaf = json::GetBool(value, "self_deaf").value_or(false);
  state.selfMute = json::GetBool(value, "self_mute").value_or(false);
  state.selfStream = json::GetBool(value, "self_stream").value_or(false);
  state.selfVideo = json::GetBool(value, "self_video").value_or(false);
  state.suppress = json::GetBool(value, "suppress").value_or(false);
  state.requestToSpeakTimestamp = json::GetText(value, "request_to_speak_timestamp");
  state.rawJson = json::Serialize(value);
  return state;
}

std::optional<VoiceState> ParseVoiceState(std::string_view json) {
  return ParseText(json, ParseVoiceStateValue);
}

std::string VoiceStatusBody(const std::string& status) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("status", status.empty() ? json::Value(rapidjson::kNullType) : json::StringValue(status, a),
                 a);
  return json::Serialize(body);
}

}  // namespace platformpp::backend
