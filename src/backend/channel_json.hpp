#pragma once
// A guild's channels and voice states on the wire (platformpp/guild_channels.hpp): the channel and voice
// state objects the platform answers with, read leniently, and the bodies of the channel, overwrite, position
// and voice status calls.

#include "json/json.hpp"

#include <platformpp/guild_channels.hpp>

#include <optional>
#include <string>
#include <vector>

namespace platformpp::backend {

/// A guild channel object; nullopt when `value` is not an object with an `id`.
std::optional<Channel> ParseChannelValue(const json::Value& value);

/// The JSON object CreateGuildChannel and ModifyChannel send: only the fields `changes` sets.
std::string ChannelChangesBody(const ChannelChanges& changes);

/// The JSON array ModifyGuildChannelPositions sends.
std::string ChannelPositionsBody(const std::vector<ChannelPosition>& positions);

/// The JSON object EditChannelPermissions sends: {type, allow, deny} (the id is in the path).
std::string OverwriteBody(const PermissionOverwrite& overwrite);

/// A voice state object; nullopt when `value` is not an object with a `user_id`.
std::optional<VoiceState> ParseVoiceStateValue(const json::Value& value);

/// The JSON object SetVoiceChannelStatus sends: {"status": text}, or null for an empty status (clears it).
std::string VoiceStatusBody(const std::string& status);

}  // namespace platformpp::backend
