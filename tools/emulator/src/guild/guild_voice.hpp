// Guild voice channels as the emulator models them: who is connected to which voice or stage channel (one
// voice state per user per guild, set through the main Gateway's op 4 and ended with the Gateway session),
// and when each channel's voice session started. Live only: none of it outlives the process or the sessions
// (the channel's status, which does, is on GuildChannel). The rules live in guild/voice_routes.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace platformpp::emulator {

// Voice channel types: GUILD_VOICE and GUILD_STAGE_VOICE.
inline constexpr int kGuildVoiceChannelType = 2;
inline constexpr int kGuildStageChannelType = 13;
// Set Voice Channel Status: at most this many characters (the seed's limit).
inline constexpr std::size_t kVoiceChannelStatusMaxCharacters = 500;

// A user connected to a guild's voice or stage channel.
struct GuildVoiceState {
  std::string guild_id;
  std::string channel_id;
  std::string user_id;
  std::string session_id;  // the Gateway session that joined
  bool self_mute = false;
  bool self_deaf = false;
  bool suppress = false;  // in a stage channel, everyone joins as audience
  std::string token{};    // VOICE_SERVER_UPDATE's token (a secret)
};

struct GuildVoiceRegistry {
  std::map<std::pair<std::string, std::string>, GuildVoiceState> states;  // by (guild id, user id)
  // A channel's voice session start (Unix seconds, fake clock), by channel id, while anyone is connected.
  std::map<std::string, std::int64_t, std::less<>> start_times_s;

  [[nodiscard]] const GuildVoiceState* find(std::string_view guild_id, std::string_view user_id) const {
    const auto it = states.find({std::string(guild_id), std::string(user_id)});
    return it == states.end() ? nullptr : &it->second;
  }
  // The voice states connected to the channel, by user id.
  [[nodiscard]] std::vector<const GuildVoiceState*> in_channel(std::string_view channel_id) const {
    std::vector<const GuildVoiceState*> found;
    for (const auto& [key, state] : states) {
      if (state.channel_id == channel_id) found.push_back(&state);
    }
    return found;
  }
  // The guild's voice states, by user id.
  [[nodiscard]] std::vector<const GuildVoiceState*> in_guild(std::string_view guild_id) const {
    std::vector<const GuildVoiceState*> found;
    for (const auto& [key, state] : states) {
      if (state.guild_id == guild_id) found.push_back(&state);
    }
    return found;
  }
  [[nodiscard]] std::optional<std::int64_t> start_time_s(std::string_view channel_id) const {
    const auto it = start_times_s.find(channel_id);
    return it == start_times_s.end() ? std::nullopt : std::optional(it->second);
  }
};

}  // namespace platformpp::emulator
