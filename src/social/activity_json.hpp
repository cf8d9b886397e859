#pragma once
// The activity wire shape of docs/social-protocol.md ("activity (wire)"), both ways: read here for friends'
// presences (READY, PRESENCE_UPDATE), written by presence for the player's own (op 3, SET_ACTIVITY).

#include "json/json.hpp"

#include <platformpp/activity.hpp>

#include <optional>
#include <string>

namespace platformpp::social {

/// Reads an activity; lenient about absent or mistyped optional members (they stay unset). Empty when
/// `value` is not an object or `type` is not a known ActivityTypes value.
std::optional<Activity> ActivityFromJson(const json::Value& value);

/// Writes `activity` as one JSON object. Unset optionals and zero timestamps are left out; button labels go
/// to `buttons` and their URLs to `metadata.button_urls`.
void WriteActivityJson(const Activity& activity, rapidjson::Writer<rapidjson::StringBuffer>& writer);

/// WriteActivityJson into a string.
std::string ActivityToJson(const Activity& activity);

/// Whether a message object (MESSAGE_CREATE's or MESSAGE_UPDATE's `d`) is an activity invite rather than a
/// chat message: a DM (no `lobby_id`, no `guild_id`) that carries an `activity` object. The one rule by which
/// messaging leaves a message out and presence reads it as an invite (whether the invite is valid, of this
/// game, of a known type, is presence's to judge).
bool IsActivityInvite(const json::Value& message);

/// The wire names of StatusType ("online", "idle", "dnd", "invisible", "offline"); Unknown/Blocked/Streaming
/// map to "online". StatusFromWire maps anything unknown to StatusType::Unknown.
const char* StatusToWire(StatusType status) noexcept;
StatusType StatusFromWire(std::string_view status) noexcept;

}  // namespace platformpp::social
