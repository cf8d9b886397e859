#pragma once
// A guild's channels and voice states as the backend reads and changes them with the bot token
// (BackendClient's channel and voice calls): Channel, the guild channel object the platform answers with (the
// bot's view; the game client's platformpp::GuildChannel is the player's), read leniently (unknown fields
// kept in `rawJson`); ChannelChanges, what creating or modifying a channel sends, checked against the
// platform's limits by CheckChannelChanges before anything leaves the process; PermissionOverwrite;
// VoiceState.

#include <platformpp/client_result.hpp>
#include <platformpp/guild_members.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// Guild channel types (`type`), as the platform numbers them.
namespace channel_types {
/// A text channel.
inline constexpr int32_t Text = 0;
/// A voice channel.
inline constexpr int32_t Voice = 2;
/// A category, the parent of other channels.
inline constexpr int32_t Category = 4;
/// An announcement channel (the guild needs the NEWS feature).
inline constexpr int32_t Announcement = 5;
/// A stage channel.
inline constexpr int32_t Stage = 13;
/// A forum channel.
inline constexpr int32_t Forum = 15;
/// A media channel.
inline constexpr int32_t Media = 16;
}  // namespace channel_types

/// The limits CheckChannelChanges and SetVoiceChannelStatus apply, as the platform sets them.
namespace channel_limits {
/// A channel's name is 1 to 100 characters (code points).
inline constexpr std::size_t MaxNameLength = 100;
/// A channel's topic is at most 1024 characters (code points).
inline constexpr std::size_t MaxTopicLength = 1024;
/// Slowmode (`rate_limit_per_user`) is 0 to 21600 seconds (6 hours).
inline constexpr int32_t MaxRateLimitPerUser = 21600;
/// A voice channel's status is at most 500 characters (code points).
inline constexpr std::size_t MaxVoiceStatusLength = 500;
}  // namespace channel_limits

/// What an overwrite targets (`type`).
enum class OverwriteType : int32_t {
  /// A role (the guild's id is \@everyone).
  Role = 0,
  /// A member.
  Member = 1,
};

/// A channel's permission overwrite: bits allowed and denied for a role or a member in the channel.
struct PermissionOverwrite {
  /// The role's or the member's id.
  uint64_t id = 0;
  /// Whether `id` is a role or a member.
  OverwriteType type = OverwriteType::Role;
  /// Permission bits allowed.
  uint64_t allow = 0;
  /// Permission bits denied.
  uint64_t deny = 0;
};

/// A guild channel as the platform answers it to the bot (GET /channels/{channel} and the channel routes).
struct Channel {
  /// The channel's id.
  uint64_t id = 0;
  /// channel_types value.
  int32_t type = 0;
  /// The guild's id.
  uint64_t guildId = 0;
  /// The channel's name.
  std::string name;
  /// Its sorting position.
  int32_t position = 0;
  /// Its category's id; unset when it has none.
  std::optional<uint64_t> parentId;
  /// Its topic; empty when none.
  std::string topic;
  /// Slowmode in seconds (0: none).
  int32_t rateLimitPerUser = 0;
  /// Age-restricted.
  bool nsfw = false;
  /// Its permission overwrites.
  std::vector<PermissionOverwrite> permissionOverwrites;
  /// Channel flags bits (`flags`).
  uint64_t flags = 0;
  /// The whole channel object as JSON text.
  std::string rawJson;
};

/// What CreateGuildChannel and ModifyChannel send. Unset fields are not sent (the platform's defaults on
/// create, kept on modify); CreateGuildChannel needs `name`.
struct ChannelChanges {
  /// The name, 1 to 100 characters.
  std::optional<std::string> name;
  /// channel_types value; a channel keeps its kind except text and announcement, which turn into each other.
  std::optional<int32_t> type;
  /// The topic, at most 1024 characters; empty removes it (sent as null).
  std::optional<std::string> topic;
  /// The sorting position, at least 0.
  std::optional<int32_t> position;
  /// The category's id; 0 takes the channel out of its category (sent as null).
  std::optional<uint64_t> parentId;
  /// Slowmode, 0 to 21600 seconds (not on a category).
  std::optional<int32_t> rateLimitPerUser;
  /// Age-restricted.
  std::optional<bool> nsfw;
  /// Every overwrite of the channel (MANAGE_ROLES); ids must not be 0.
  std::optional<std::vector<PermissionOverwrite>> permissionOverwrites;
};

/// One channel's move for ModifyGuildChannelPositions.
struct ChannelPosition {
  /// The channel's id.
  uint64_t id = 0;
  /// Its new position, at least 0; unset keeps it.
  std::optional<int32_t> position;
  /// Its new category; 0 takes it out of its category (sent as null); unset keeps it.
  std::optional<uint64_t> parentId;
  /// With a new parent: take the category's overwrites.
  std::optional<bool> lockPermissions;
};

/// A user's voice state in a guild (GET /guilds/{guild}/voice-states/...).
struct VoiceState {
  /// The guild's id; 0 when the answer leaves it out.
  uint64_t guildId = 0;
  /// The voice channel the user is in; unset when none.
  std::optional<uint64_t> channelId;
  /// The user's id.
  uint64_t userId = 0;
  /// The user's guild member, when the answer carries it.
  std::optional<GuildMember> member;
  /// The voice session's id.
  std::string sessionId;
  /// Deafened by the server.
  bool deaf = false;
  /// Muted by the server.
  bool mute = false;
  /// Deafened by the user.
  bool selfDeaf = false;
  /// Muted by the user.
  bool selfMute = false;
  /// Streaming.
  bool selfStream = false;
  /// Camera on.
  bool selfVideo = false;
  /// Suppressed (a stage's audience).
  bool suppress = false;
  /// When the user asked to speak (ISO 8601); empty when not.
  std::string requestToSpeakTimestamp;
  /// The whole voice state object as JSON text.
  std::string rawJson;
};

/// Reads a guild channel object; nullopt when `json` is not an object with an `id`. A field of the wrong type
/// is left at its default (an overwrite without a readable id is skipped). Never throws.
std::optional<Channel> ParseChannel(std::string_view json);

/// Reads a voice state object; nullopt when `json` is not an object with a `user_id`. Never throws.
std::optional<VoiceState> ParseVoiceState(std::string_view json);

/// Every rule `changes` breaks, at its wire path ("name", "topic", "rate_limit_per_user",
/// "permission_overwrites.0.id"); empty when it may be sent. `creating`: `name` is required.
std::vector<FieldError> CheckChannelChanges(const ChannelChanges& changes, bool creating);

/// The rule a voice channel status breaks (more than 500 characters, or not UTF-8), at path "status"; empty
/// when it may be sent. An empty status clears it.
std::vector<FieldError> CheckVoiceChannelStatus(std::string_view status);

}  // namespace platformpp::backend
