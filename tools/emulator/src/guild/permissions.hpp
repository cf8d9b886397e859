// Permission computation as the platform documents it: base permissions from @everyone and the member's
// roles (the owner and ADMINISTRATOR get everything), then a channel's own overwrites in order: @everyone,
// the member's roles (their allows and denies combined), the member. Overwrites are per channel: a
// category's overwrites do not reach the channels in it.
#pragma once

#include <cstdint>
#include <string_view>

#include "guild/guild_state.hpp"

namespace platformpp::emulator {

namespace permission {
inline constexpr std::uint64_t kAdministrator = std::uint64_t{1} << 3;
inline constexpr std::uint64_t kViewChannel = std::uint64_t{1} << 10;
// Every permission bit up to BYPASS_SLOWMODE (1 << 52), the highest the platform names: what the owner and
// administrators have. Stays exact as a double, so JavaScript clients read it unchanged.
inline constexpr std::uint64_t kAll = (std::uint64_t{1} << 53) - 1;
}  // namespace permission

// Channel flag CHANNEL_OBFUSCATED, set on a channel dispatched to someone who cannot view it.
inline constexpr std::uint64_t kChannelObfuscatedFlag = std::uint64_t{1} << 17;

// The user's guild-wide permissions; 0 when the user is not a member.
std::uint64_t base_permissions(const Guild& guild, std::string_view user_id);
// The user's permissions in the channel (base permissions plus the channel's overwrites).
std::uint64_t channel_permissions(const Guild& guild, const GuildChannel& channel, std::string_view user_id);
inline bool can_view_channel(const Guild& guild, const GuildChannel& channel, std::string_view user_id) {
  return (channel_permissions(guild, channel, user_id) & permission::kViewChannel) != 0;
}

}  // namespace platformpp::emulator
