#pragma once
// The lobby wire objects of docs/social-protocol.md ("Lobbies and messages"): lobby, lobby member and the
// member dispatches' `{lobby_id, application_id, member}`, decoded from JSON; and the request bodies the SDK
// and the backend send. Decoding tolerates any JSON value: what is malformed comes back empty, never
// half-filled.

#include "json/json.hpp"
#include "social/social_json.hpp"

#include <platformpp/lobby.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace platformpp::lobby {

/// What the SDK keeps of a lobby member.
struct MemberRecord {
  uint64_t id = 0;
  platformpp::Metadata metadata;
  uint32_t flags = 0;
  bool connected = false;
  std::string additionalName;
  /// The member's `user` (Gateway payloads carry it; HTTP answers do not).
  std::optional<social::UserRecord> user;

  /// What a member callback reports a change of (the user object is the social store's business).
  bool SameState(const MemberRecord& other) const {
    return metadata == other.metadata && flags == other.flags && connected == other.connected &&
           additionalName == other.additionalName;
  }
};

struct LinkedChannelRecord {
  uint64_t id = 0;
  std::string name;
  uint64_t guildId = 0;
  bool operator==(const LinkedChannelRecord&) const = default;
};

/// One participant of a lobby's call (docs/voice-protocol.md: `voice_states`, LOBBY_VOICE_STATE_UPDATE).
struct VoiceStateRecord {
  uint64_t userId = 0;
  std::string sessionId;
  bool selfMute = false;
  bool selfDeaf = false;
  bool operator==(const VoiceStateRecord&) const = default;
};

/// What the SDK keeps of a lobby; members in the order the platform listed them, then in order of arrival.
struct LobbyRecord {
  uint64_t id = 0;
  uint64_t applicationId = 0;
  platformpp::Metadata metadata;
  std::vector<MemberRecord> members;
  std::optional<LinkedChannelRecord> linkedChannel;
  uint32_t flags = 0;
  /// Who is in the lobby's call; nullopt when the payload did not say (an HTTP answer), so that the store
  /// keeps what it knew.
  std::optional<std::vector<VoiceStateRecord>> voiceStates;

  /// The lobby's own fields (members aside) are equal.
  bool SameState(const LobbyRecord& other) const {
    return metadata == other.metadata && linkedChannel == other.linkedChannel && flags == other.flags;
  }
  MemberRecord* FindMember(uint64_t memberId);
  const MemberRecord* FindMember(uint64_t memberId) const;
};

/// `{..}` of strings, or null / absent (empty). Empty when present and not such an object.
std::optional<platformpp::Metadata> ParseMetadata(const json::Value* value);
/// A lobby member; needs a non-zero `id`. `flags` defaults to 0, `connected` to false.
std::optional<MemberRecord> ParseMember(const json::Value& value);
/// A lobby; needs a non-zero `id` and well-formed members (a malformed member makes the lobby malformed).
std::optional<LobbyRecord> ParseLobby(const json::Value& value);

/// `{lobby_id, application_id, member}` of LOBBY_MEMBER_* dispatches.
struct MemberEvent {
  uint64_t lobbyId = 0;
  uint64_t applicationId = 0;  ///< 0 when absent
  MemberRecord member;
};
std::optional<MemberEvent> ParseMemberEvent(const json::Value& value);

/// One entry of `voice_states`: needs a non-zero `user_id`; booleans default to false.
std::optional<VoiceStateRecord> ParseVoiceState(const json::Value& value);

/// LOBBY_VOICE_STATE_UPDATE: `{lobby_id, user_id, session_id, channel_id | null, self_mute, self_deaf}`.
struct VoiceStateEvent {
  uint64_t lobbyId = 0;
  bool inCall = false;  ///< channel_id is the lobby; false when it is null (the user left the call)
  VoiceStateRecord state;
};
std::optional<VoiceStateEvent> ParseVoiceStateEvent(const json::Value& value);

/// Adds `metadata` as a JSON object member `name` of `object`.
void AddMetadata(json::Value& object, const char* name, const platformpp::Metadata& metadata,
                 json::Document::AllocatorType& allocator);

}  // namespace platformpp::lobby
