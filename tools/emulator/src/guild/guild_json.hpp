// Guild objects as the API, the Gateway and the admin API show them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/emulator_state.hpp"
#include "core/json.hpp"
#include "guild/guild_state.hpp"

namespace platformpp::emulator {

// Permission bits as the wire carries them: a decimal string.
std::string bits_string(std::uint64_t bits);
// The channel object: full, or obfuscated for someone who cannot view it (the platform's shape: name
// "___hidden___", CHANNEL_OBFUSCATED set, one overwrite denying VIEW_CHANNEL to @everyone; the topic goes).
std::string channel_json(const GuildChannel& channel, bool obfuscate);
std::string role_json(const GuildRole& role);
// The members every view of a guild starts with: id, name, icon, banner.
void write_guild_summary(JsonWriter& writer, const Guild& guild);
// The summary and owner_id: how the admin's view and GUILD_CREATE start.
void write_guild_identity(JsonWriter& writer, const Guild& guild);
void write_guild_features(JsonWriter& writer, const Guild& guild);
// A guild member as the API and GUILD_MEMBERS_CHUNK give it (the emulator has no voice mute, nicknames or
// boosts: those members are absent or false).
std::string guild_member_json(const GuildMember& member, const User& user);
// The admin's view of a guild (everything it was seeded with).
std::string admin_guild_json(const Guild& guild);

}  // namespace platformpp::emulator
