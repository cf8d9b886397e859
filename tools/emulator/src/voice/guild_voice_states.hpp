// The main Gateway's op 4 for guild voice channels. VoiceModule owns op 4 and keeps lobby calls; a payload
// without a `lobby_id` is a guild's (it names a guild_id and a guild channel or null) and goes to the guild
// side (GuildModule, guild/voice_routes.cpp) through this interface.
#pragma once

#include <cstdint>

#include "core/json.hpp"

namespace platformpp::emulator {

class GuildVoiceStates {
 public:
  virtual ~GuildVoiceStates() = default;
  // op 4 {guild_id, channel_id, self_mute, self_deaf} received on the Gateway connection `connection`.
  virtual void guild_voice_state_update(std::uint64_t connection, const rapidjson::Value& d) = 0;
};

}  // namespace platformpp::emulator
