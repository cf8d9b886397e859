#include "guild/permissions.hpp"

#include <algorithm>
#include <limits>

namespace platformpp::emulator {

namespace {

void apply(std::uint64_t& permissions, std::uint64_t allow, std::uint64_t deny) {
  permissions &= ~deny;
  permissions |= allow;
}

// What a timed-out member keeps.
constexpr std::uint64_t kTimedOutKeeps = permission::kViewChannel | permission::kReadMessageHistory;

}  // namespace

bool timed_out(const Guild& guild, std::string_view user_id, std::int64_t now_ms) {
  const auto* member = guild.find_member(user_id);
  return member != nullptr && member->timeout_until_ms && *member->timeout_until_ms > now_ms;
}

bool quarantined(const Guild& guild, std::string_view user_id) {
  const auto* member = guild.find_member(user_id);
  return member != nullptr && (member->flags & kAutomodQuarantinedFlag) != 0;
}

std::uint64_t base_permissions(const Guild& guild, std::string_view user_id,
                               std::optional<std::int64_t> now_ms) {
  if (user_id == guild.owner_id) return permission::kAll;
  const auto* member = guild.find_member(user_id);
  if (member == nullptr) return 0;
  std::uint64_t permissions = 0;
  if (const auto* everyone = guild.find_role(guild.id)) permissions = everyone->permissions;
  for (const auto& role_id : member->roles) {
    if (const auto* role = guild.find_role(role_id)) permissions |= role->permissions;
  }
  if ((permissions & permission::kAdministrator) != 0) return permission::kAll;
  if (now_ms && (timed_out(guild, user_id, *now_ms) || quarantined(guild, user_id)))
    permissions &= kTimedOutKeeps;
  return permissions;
}

std::uint64_t channel_permissions(const Guild& guild, const GuildChannel& channel, std::string_view user_id,
                                  std::optional<std::int64_t> now_ms) {
  auto permissions = base_permissions(guild, user_id);
  // The owner and administrators: no overwrite applies.
  if ((permissions & permission::kAdministrator) != 0) return permission::kAll;
  const auto* member = guild.find_member(user_id);
  if (member == nullptr) return 0;
  const auto& overwrites = channel.permission_overwrites;
  const auto everyone = std::find_if(overwrites.begin(), overwrites.end(), [&](const auto& overwrite) {
    return overwrite.type == overwrite_type::kRole && overwrite.id == guild.id;
  });
  if (everyone != overwrites.end()) apply(permissions, everyone->allow, everyone->deny);
  // The member's role overwrites act as one: an allow from one role beats a deny from another.
  std::uint64_t allow = 0;
  std::uint64_t deny = 0;
  for (const auto& overwrite : overwrites) {
    if (overwrite.type != overwrite_type::kRole || overwrite.id == guild.id) continue;
    if (std::find(member->roles.begin(), member->roles.end(), overwrite.id) == member->roles.end()) continue;
    allow |= overwrite.allow;
    deny |= overwrite.deny;
  }
  apply(permissions, allow, deny);
  const auto own = std::find_if(overwrites.begin(), overwrites.end(), [&](const auto& overwrite) {
    return overwrite.type == overwrite_type::kMember && overwrite.id == user_id;
  });
  if (own != overwrites.end()) apply(permissions, own->allow, own->deny);
  if (now_ms && (timed_out(guild, user_id, *now_ms) || quarantined(guild, user_id)))
    permissions &= kTimedOutKeeps;
  return permissions;
}

int highest_role_position(const Guild& guild, std::string_view user_id) {
  if (user_id == guild.owner_id) return std::numeric_limits<int>::max();
  const auto* member = guild.find_member(user_id);
  if (member == nullptr) return -1;
  int highest = 0;
  for (const auto& role_id : member->roles) {
    if (const auto* role = guild.find_role(role_id)) highest = std::max(highest, role->position);
  }
  return highest;
}

bool role_below(const GuildRole& role, const GuildRole& other) {
  if (role.position != other.position) return role.position < other.position;
  if (role.id.size() != other.id.size())
    return role.id.size() < other.id.size();  // snowflakes: numeric order
  return role.id < other.id;
}

bool above_role(const Guild& guild, std::string_view user_id, const GuildRole& role) {
  if (user_id == guild.owner_id) return true;
  const auto* member = guild.find_member(user_id);
  if (member == nullptr) return false;
  // Strictly above: the member's highest role sorts after `role` (ties by id, as the platform sorts them).
  return std::any_of(member->roles.begin(), member->roles.end(), [&](const std::string& id) {
    const auto* own = guild.find_role(id);
    return own != nullptr && role_below(role, *own);
  });
}

}  // namespace platformpp::emulator
