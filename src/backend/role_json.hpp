#pragma once
// A guild's roles on the wire: the role object the platform answers with (read leniently, as
// platformpp/guild_roles.hpp promises), the body of a role's create or modify (RoleChanges) and of a
// reorder, and the member counts answer.

#include "json/json.hpp"

#include <platformpp/guild_roles.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace platformpp::backend {

/// A role object; nullopt when `value` is not an object with a valid `id`.
std::optional<Role> ParseRoleValue(const json::Value& value);

/// The JSON object CreateRole and ModifyRole send: only the fields `changes` sets.
std::string RoleChangesBody(const RoleChanges& changes);

/// The JSON array ModifyRolePositions sends: [{"id": "...", "position": n}, ...].
std::string RolePositionsBody(const std::vector<std::pair<uint64_t, int32_t>>& positions);

/// The member counts answer (an object of role id to count); nullopt when it is not one.
std::optional<std::map<uint64_t, uint64_t>> ParseRoleMemberCounts(const json::Value& value);

}  // namespace platformpp::backend
