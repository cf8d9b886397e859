// What the channel routes (the admin's in guild_routes.cpp, the API's in channel_routes.cpp) read from a
// request body into a guild channel.
#pragma once

#include <rapidjson/document.h>

#include "core/api_error.hpp"
#include "core/emulator_state.hpp"
#include "guild/guild_state.hpp"

namespace platformpp::emulator {

inline constexpr int kCategoryChannelType = 4;
// Slowmode: rate_limit_per_user is 0 to 21600 seconds.
inline constexpr std::int64_t kMaxRateLimitPerUserSeconds = 21600;

// Reads a channel's fields from a body into `channel`: name (1-100), type (text, voice, category,
// announcement, stage, forum, media), position, parent_id (a category of the guild), topic (0-1024),
// permission_overwrites, rate_limit_per_user (0-21600, not on a category) and nsfw. On create every field
// applies (name is required); on update only the fields present change. Records problems in `errors`.
void read_channel_fields(const rapidjson::Value& body, const Guild& guild, const EmulatorState& state,
                         GuildChannel& channel, bool creating, FieldErrors& errors);

}  // namespace platformpp::emulator
