// Permission computation as the platform documents it: base permissions from @everyone and the member's
// roles (the owner and ADMINISTRATOR get everything), then a channel's own overwrites in order: @everyone,
// the member's roles (their allows and denies combined), the member. Overwrites are per channel: a
// category's overwrites do not reach the channels in it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "guild/guild_state.hpp"

namespace platformpp::emulator {

namespace permission {
// The platform's permission bits (the names the seed and the platform's docs use).
inline constexpr std::uint64_t kCreateInstantInvite = std::uint64_t{1} << 0;
inline constexpr std::uint64_t kKickMembers = std::uint64_t{1} << 1;
inline constexpr std::uint64_t kBanMembers = std::uint64_t{1} << 2;
inline constexpr std::uint64_t kAdministrator = std::uint64_t{1} << 3;
inline constexpr std::uint64_t kManageChannels = std::uint64_t{1} << 4;
inline constexpr std::uint64_t kManageGuild = std::uint64_t{1} << 5;
inline constexpr std::uint64_t kViewAuditLog = std::uint64_t{1} << 7;
inline constexpr std::uint64_t kViewChannel = std::uint64_t{1} << 10;
inline constexpr std::uint64_t kSendMessages = std::uint64_t{1} << 11;
inline constexpr std::uint64_t kSendTtsMessages = std::uint64_t{1} << 12;
inline constexpr std::uint64_t kManageMessages = std::uint64_t{1} << 13;
inline constexpr std::uint64_t kAttachFiles = std::uint64_t{1} << 15;
inline constexpr std::uint64_t kReadMessageHistory = std::uint64_t{1} << 16;
inline constexpr std::uint64_t kConnect = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kChangeNickname = std::uint64_t{1} << 26;
inline constexpr std::uint64_t kManageNicknames = std::uint64_t{1} << 27;
inline constexpr std::uint64_t kManageRoles = std::uint64_t{1} << 28;
inline constexpr std::uint64_t kManageGuildExpressions = std::uint64_t{1} << 30;
inline constexpr std::uint64_t kManageEvents = std::uint64_t{1} << 33;
inline constexpr std::uint64_t kManageThreads = std::uint64_t{1} << 34;
inline constexpr std::uint64_t kModerateMembers = std::uint64_t{1} << 40;
inline constexpr std::uint64_t kCreateGuildExpressions = std::uint64_t{1} << 43;
inline constexpr std::uint64_t kCreateEvents = std::uint64_t{1} << 44;
inline constexpr std::uint64_t kSetVoiceChannelStatus = std::uint64_t{1} << 48;
inline constexpr std::uint64_t kUseExternalApps = std::uint64_t{1} << 50;
inline constexpr std::uint64_t kPinMessages = std::uint64_t{1} << 51;
inline constexpr std::uint64_t kBypassSlowmode = std::uint64_t{1} << 52;
// Every permission bit up to BYPASS_SLOWMODE (1 << 52), the highest the platform names: what the owner and
// administrators have. Stays exact as a double, so JavaScript clients read it unchanged.
inline constexpr std::uint64_t kAll = (std::uint64_t{1} << 53) - 1;
// Voice channels and the soundboard (guild voice states, the voice channel status, soundboard sounds).
inline constexpr std::uint64_t kSpeak = std::uint64_t{1} << 21;
inline constexpr std::uint64_t kMuteMembers = std::uint64_t{1} << 22;
inline constexpr std::uint64_t kDeafenMembers = std::uint64_t{1} << 23;
inline constexpr std::uint64_t kMoveMembers = std::uint64_t{1} << 24;
inline constexpr std::uint64_t kUseSoundboard = std::uint64_t{1} << 42;
inline constexpr std::uint64_t kUseExternalSounds = std::uint64_t{1} << 45;
}  // namespace permission

// 2026-02-23T00:00:00Z (the fake clock): the permission split. From then PIN_MESSAGES, BYPASS_SLOWMODE,
// CREATE_GUILD_EXPRESSIONS and CREATE_EVENTS are required for their actions; before it the older permissions
// (MANAGE_MESSAGES, MANAGE_CHANNELS, MANAGE_GUILD_EXPRESSIONS, MANAGE_EVENTS) still allowed them.
inline constexpr std::int64_t kPermissionSplitMs = 1771804800000;

// Channel flag CHANNEL_OBFUSCATED, set on a channel dispatched to someone who cannot view it.
inline constexpr std::uint64_t kChannelObfuscatedFlag = std::uint64_t{1} << 17;

// The user's guild-wide permissions; 0 when the user is not a member. With `now_ms` (the fake clock), a
// member timed out until after it (or quarantined by AutoMod) keeps VIEW_CHANNEL and READ_MESSAGE_HISTORY
// only (the owner and administrators are exempt), as the platform documents.
std::uint64_t base_permissions(const Guild& guild, std::string_view user_id,
                               std::optional<std::int64_t> now_ms = std::nullopt);
// The user's permissions in the channel (base permissions plus the channel's overwrites; a timeout as above).
std::uint64_t channel_permissions(const Guild& guild, const GuildChannel& channel, std::string_view user_id,
                                  std::optional<std::int64_t> now_ms = std::nullopt);
// Whether the member is timed out at `now_ms`.
bool timed_out(const Guild& guild, std::string_view user_id, std::int64_t now_ms);
// Guild member flag AUTOMOD_QUARANTINED_USERNAME: an AutoMod MEMBER_PROFILE rule with
// BLOCK_MEMBER_INTERACTION quarantined the member, who then keeps what a timed-out member keeps (with
// `now_ms` given to the functions above) and uses no interactions.
inline constexpr std::uint64_t kAutomodQuarantinedFlag = std::uint64_t{1} << 7;
// Whether AutoMod quarantined the member.
bool quarantined(const Guild& guild, std::string_view user_id);
// The position of the user's highest role (0: @everyone only); the owner is above every role.
int highest_role_position(const Guild& guild, std::string_view user_id);
// Whether `role` sorts below `other` (by position, then by id as the platform sorts ties).
bool role_below(const GuildRole& role, const GuildRole& other);
// Whether the user may act on the role under the platform's hierarchy: the owner always; others only on
// roles below their own highest role.
bool above_role(const Guild& guild, std::string_view user_id, const GuildRole& role);
// Whether `permissions` holds every bit of `bits`.
inline bool has_permissions(std::uint64_t permissions, std::uint64_t bits) {
  return (permissions & bits) == bits;
}
inline bool can_view_channel(const Guild& guild, const GuildChannel& channel, std::string_view user_id) {
  return (channel_permissions(guild, channel, user_id) & permission::kViewChannel) != 0;
}

}  // namespace platformpp::emulator
