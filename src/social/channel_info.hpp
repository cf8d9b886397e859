#pragma once
// CHANNEL_INFO (the answer to Gateway op 43 Request Channel Info) as the SDK reads it: parsed apart from the
// Gateway plumbing that asks for it (voice_channel_statuses.hpp), so that the fuzz build's parser library
// takes it alone.

#include "json/json.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace platformpp::social {

/// CHANNEL_INFO's `d`: the guild and each listed channel's status (unset when null, empty or not a string).
/// Channels without a readable id are skipped; nullopt when `data` has no guild id.
struct ChannelInfo {
  uint64_t guildId = 0;
  std::map<uint64_t, std::optional<std::string>> statuses;
};
std::optional<ChannelInfo> ParseChannelInfo(const json::Value& data);

}  // namespace platformpp::social
