#pragma once
// The social wire objects of docs/social-protocol.md (user, relationship, presence, guild, channel,
// user application profile) decoded from JSON. Every function tolerates any JSON value: what is malformed
// comes back empty (the caller skips it and logs), never half-filled.

#include "json/json.hpp"

#include <platformpp/social.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::social {

/// What the SDK keeps of a user object.
struct UserRecord {
  uint64_t id = 0;
  std::string username, globalName, avatar, primaryGuildTag;
  bool provisional = false;
  int32_t premiumType = 0;

  bool operator==(const UserRecord&) const = default;
};

/// A complete user object: needs `id` and `username`. Optional fields that are malformed are left empty; a
/// guild tag outside 1 to 4 characters is dropped (the platform's limit).
std::optional<UserRecord> ParseUser(const json::Value& value);
/// The partial user of a presence (`{id, username?, global_name?, avatar?}`): copies the fields present
/// onto `record` (whose id the caller checked).
void MergePartialUser(const json::Value& value, UserRecord& record);

/// Wire relationship type -> RelationshipType; empty for values outside 0..6.
std::optional<RelationshipType> RelationshipTypeFromWire(int64_t type);
/// Wire status ("online", ...) as the player sees it: `self` keeps "invisible" (the player's own status),
/// others see invisible and unknown statuses as Offline.
StatusType StatusFromWire(std::string_view status, bool self);

/// `{id, name, banner}` of READY's guilds and GET /users/@me/guilds.
std::optional<GuildMinimal> ParseGuild(const json::Value& value);
/// A guild channel; needs `id` and an integer `type`.
std::optional<GuildChannel> ParseChannel(const json::Value& value);
/// The desktop client's order: channels outside any category first, then each category followed by its
/// channels; within a group text-like channels before voice and stage channels, then by position, then id.
/// A channel whose category is not in the list counts as outside any category.
void SortChannels(std::vector<GuildChannel>& channels);

std::optional<UserApplicationProfileHandle::Data> ParseApplicationProfile(const json::Value& value);

/// Case-insensitive (ASCII) ordering of display names, as the desktop client lists friends.
int CompareNamesCaseInsensitive(std::string_view a, std::string_view b);
/// True when `text` starts with `prefix`, ignoring ASCII case.
bool StartsWithCaseInsensitive(std::string_view text, std::string_view prefix);

}  // namespace platformpp::social
