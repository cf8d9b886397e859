#include "lobby/lobby_json.hpp"

#include <algorithm>

#include <limits>

namespace platformpp::lobby {
namespace {

json::Value String(std::string_view text, json::Document::AllocatorType& allocator) {
  return json::Value(text.data(), static_cast<rapidjson::SizeType>(text.size()), allocator);
}

}  // namespace

MemberRecord* LobbyRecord::FindMember(uint64_t memberId) {
  for (auto& member : members)
    if (member.id == memberId) return &member;
  return nullptr;
}

const MemberRecord* LobbyRecord::FindMember(uint64_t memberId) const {
  for (const auto& member : members)
    if (member.id == memberId) return &member;
  return nullptr;
}

std::optional<platformpp::Metadata> ParseMetadata(const json::Value* value) {
  platformpp::Metadata metadata;
  if (!value || value->IsNull()) return metadata;
  if (!value->IsObject()) return std::nullopt;
  for (const auto& entry : value->GetObject()) {
    if (!entry.value.IsString()) return std::nullopt;
    metadata.insert_or_assign(std::string(entry.name.GetString(), entry.name.GetStringLength()),
                              std::string(entry.value.GetString(), entry.value.GetStringLength()));
  }
  return metadata;
}

std::optional<MemberRecord> ParseMember(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto id = json::GetSnowflake(value, "id");
  if (!id || *id == 0) return std::nullopt;
  MemberRecord member;
  member.id = *id;
  auto metadata = ParseMetadata(json::Member(value, "metadata"));
  if (!metadata) return std::nullopt;
  member.metadata = std::move(*metadata);
  if (const json::Value* flags = json::Member(value, "flags"); flags && !flags->IsNull()) {
    if (!flags->IsInt64() || flags->GetInt64() < 0 ||
        flags->GetInt64() > std::numeric_limits<uint32_t>::max())
      return std::nullopt;
    member.flags = static_cast<uint32_t>(flags->GetInt64());
  }
  member.connected = json::GetBool(value, "connected").value_or(false);
  if (auto name = json::GetString(value, "additional_name")) member.additionalName = std::string(*name);
  if (const json::Value* user = json::Member(value, "user"); user && !user->IsNull()) {
    member.user = social::ParseUser(*user);
    if (!member.user || member.user->id != member.id) return std::nullopt;
  }
  return member;
}

std::optional<LobbyRecord> ParseLobby(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto id = json::GetSnowflake(value, "id");
  if (!id || *id == 0) return std::nullopt;
  LobbyRecord lobby;
  lobby.id = *id;
  lobby.applicationId = json::GetSnowflake(value, "application_id").value_or(0);
  auto metadata = ParseMetadata(json::Member(value, "metadata"));
  if (!metadata) return std::nullopt;
  lobby.metadata = std::move(*metadata);
  if (const json::Value* members = json::Member(value, "members"); members && !members->IsNull()) {
    if (!members->IsArray()) return std::nullopt;
    for (const json::Value& item : members->GetArray()) {
      auto member = ParseMember(item);
      if (!member || lobby.FindMember(member->id)) return std::nullopt;
      lobby.members.push_back(std::move(*member));
    }
  }
  if (const json::Value* channel = json::Member(value, "linked_channel"); channel && !channel->IsNull()) {
    auto channelId = channel->IsObject() ? json::GetSnowflake(*channel, "id") : std::nullopt;
    if (!channelId || *channelId == 0) return std::nullopt;
    LinkedChannelRecord linked;
    linked.id = *channelId;
    if (auto name = json::GetString(*channel, "name")) linked.name = std::string(*name);
    linked.guildId = json::GetSnowflake(*channel, "guild_id").value_or(0);
    lobby.linkedChannel = std::move(linked);
  }
  if (const json::Value* flags = json::Member(value, "flags"); flags && !flags->IsNull()) {
    if (!flags->IsInt64() || flags->GetInt64() < 0 ||
        flags->GetInt64() > std::numeric_limits<uint32_t>::max())
      return std::nullopt;
    lobby.flags = static_cast<uint32_t>(flags->GetInt64());
  }
  if (const json::Value* states = json::Member(value, "voice_states"); states && !states->IsNull()) {
    if (!states->IsArray()) return std::nullopt;
    std::vector<VoiceStateRecord> list;
    for (const json::Value& item : states->GetArray()) {
      auto state = ParseVoiceState(item);
      if (!state) return std::nullopt;
      const bool duplicate = std::any_of(list.begin(), list.end(), [&](const VoiceStateRecord& known) {
        return known.userId == state->userId;
      });
      if (duplicate) return std::nullopt;
      list.push_back(std::move(*state));
    }
    lobby.voiceStates = std::move(list);
  }
  return lobby;
}

namespace {
// An optional boolean member: absent or null is false; anything else but a boolean is malformed.
std::optional<bool> OptionalBool(const json::Value& object, const char* name) {
  const json::Value* value = json::Member(object, name);
  if (!value || value->IsNull()) return false;
  if (!value->IsBool()) return std::nullopt;
  return value->GetBool();
}
}  // namespace

std::optional<VoiceStateRecord> ParseVoiceState(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto userId = json::GetSnowflake(value, "user_id");
  auto selfMute = OptionalBool(value, "self_mute");
  auto selfDeaf = OptionalBool(value, "self_deaf");
  if (!userId || *userId == 0 || !selfMute || !selfDeaf) return std::nullopt;
  VoiceStateRecord state;
  state.userId = *userId;
  if (auto session = json::GetString(value, "session_id")) state.sessionId = std::string(*session);
  state.selfMute = *selfMute;
  state.selfDeaf = *selfDeaf;
  return state;
}

std::optional<VoiceStateEvent> ParseVoiceStateEvent(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto lobbyId = json::GetSnowflake(value, "lobby_id");
  auto state = ParseVoiceState(value);
  if (!lobbyId || *lobbyId == 0 || !state) return std::nullopt;
  const json::Value* channel = json::Member(value, "channel_id");
  VoiceStateEvent event;
  event.lobbyId = *lobbyId;
  if (channel && !channel->IsNull()) {
    auto channelId = json::GetSnowflake(value, "channel_id");
    if (!channelId || *channelId != *lobbyId) return std::nullopt;  // a lobby call's channel is the lobby
    event.inCall = true;
  }
  event.state = std::move(*state);
  return event;
}

std::optional<MemberEvent> ParseMemberEvent(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto lobbyId = json::GetSnowflake(value, "lobby_id");
  const json::Value* member = json::Member(value, "member");
  if (!lobbyId || *lobbyId == 0 || !member) return std::nullopt;
  auto parsed = ParseMember(*member);
  if (!parsed) return std::nullopt;
  MemberEvent event;
  event.lobbyId = *lobbyId;
  event.applicationId = json::GetSnowflake(value, "application_id").value_or(0);
  event.member = std::move(*parsed);
  return event;
}

void AddMetadata(json::Value& object, const char* name, const platformpp::Metadata& metadata,
                 json::Document::AllocatorType& allocator) {
  json::Value map(rapidjson::kObjectType);
  for (const auto& [key, value] : metadata)
    map.AddMember(String(key, allocator), String(value, allocator), allocator);
  object.AddMember(json::Value(name, allocator), map, allocator);
}

}  // namespace platformpp::lobby
