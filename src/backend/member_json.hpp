#pragma once
// A guild's members on the wire: the member object the platform answers with (read leniently, as
// platformpp/guild_members.hpp promises), the bodies of a member's and the current member's modify, and the
// prune answer and body.

#include "json/json.hpp"

#include <platformpp/guild_members.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace platformpp::backend {

/// A member object; nullopt when `value` is not an object.
std::optional<GuildMember> ParseGuildMemberValue(const json::Value& value);

/// The JSON object ModifyMember sends: only the fields `changes` sets.
std::string MemberChangesBody(const MemberChanges& changes);

/// The JSON object ModifyCurrentMember sends: only the fields `changes` sets.
std::string CurrentMemberChangesBody(const CurrentMemberChanges& changes);

/// The JSON object BeginPrune sends.
std::string PruneBody(const PruneArgs& args);

/// The prune answer's `pruned`: a count, or -1 when the platform answered null (computePruneCount false);
/// nullopt when the answer is not a prune answer.
std::optional<int64_t> ParsePruneCount(const json::Value& value);

}  // namespace platformpp::backend
