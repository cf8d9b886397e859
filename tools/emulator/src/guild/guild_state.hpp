// Guilds as the emulator models them for the social features: roles with permission bits, members with
// roles, channels with permission overwrites, seeded through the admin API (guild_routes.cpp). Plain data;
// permission rules live in permissions.hpp. Kept as documents (core/state_changes.hpp, guild_state.cpp): a
// guild with its roles and channels, and each member apart.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "guild/audit_log.hpp"
#include "guild/automod.hpp"

namespace platformpp::emulator {

class StateChanges;

// The document kinds of GuildState (core/state_changes.hpp), and how composite ids are written.
namespace document_kind {
inline constexpr std::string_view kGuild = "guild";  // settings, roles and channels; id: the guild's
inline constexpr std::string_view kGuildMember = "guild_member";       // id: "<guild>:<user>"
inline constexpr std::string_view kGuildAuditLog = "guild_audit_log";  // id: the guild's
inline constexpr std::string_view kAutoModRule = "automod_rule";       // id: "<guild>:<rule>"
}  // namespace document_kind

// From 2026-11-16T00:00:00Z (fake clock) GET /guilds/{id}/channels omits channels the caller cannot view
// (the platform's date), and the Gateway dispatches them obfuscated to every session (our choice: the
// platform gives no date for the Gateway).
inline constexpr std::int64_t kChannelObfuscationDateMs = 1794787200000;
// Identify capability bit that opts a session in to channel obfuscation before that date.
inline constexpr std::uint64_t kChannelObfuscationCapability = std::uint64_t{1} << 15;
// Request Guild Members for all members: one per guild per user (bot) per this window of the fake clock.
inline constexpr std::int64_t kAllMembersRequestWindowMs = 30000;

// PermissionOverwrite::type on the wire.
namespace overwrite_type {
inline constexpr int kRole = 0;
inline constexpr int kMember = 1;
}  // namespace overwrite_type

struct PermissionOverwrite {
  std::string id;  // a role id (the guild's id for @everyone) or a user id
  int type = overwrite_type::kRole;
  std::uint64_t allow = 0;
  std::uint64_t deny = 0;
};

struct GuildRole {
  std::string id;  // the guild's id for @everyone
  std::string name;
  std::uint64_t permissions = 0;
  int position = 0;  // @everyone is 0; ties sort by id
  // `colors`: the primary color is also the deprecated `color`; the other two need ENHANCED_ROLE_COLORS.
  std::int64_t color = 0;
  std::optional<std::int64_t> secondary_color;
  std::optional<std::int64_t> tertiary_color;
  bool hoist = false;
  bool mentionable = false;
  std::optional<std::string> icon;  // a hash (ROLE_ICONS)
  std::optional<std::string> unicode_emoji;
  std::uint64_t flags = 0;
  // A bot's own role, made when it is installed: managed, tags.bot_id; nobody edits or assigns it.
  std::optional<std::string> bot_id;
};

struct GuildMember {
  std::string user_id;
  std::vector<std::string> roles;  // role ids, without @everyone (everyone has it)
  std::int64_t joined_at_ms = 0;   // fake clock
  std::optional<std::string> nick{};
  // A timeout (communication_disabled_until), fake clock: until then the member keeps VIEW_CHANNEL and
  // READ_MESSAGE_HISTORY only (permissions.hpp).
  std::optional<std::int64_t> timeout_until_ms{};
  std::uint64_t flags = 0;  // guild member flags (BYPASSES_VERIFICATION is the one others set)
  // The member's guild profile, which a bot sets for itself (Modify Current Member).
  std::optional<std::string> avatar{};
  std::optional<std::string> banner{};
  std::optional<std::string> bio{};
};

struct GuildChannel {
  std::string id;
  std::string guild_id;
  int type = 0;  // 0 text, 2 voice, 4 category, ...
  std::string name;
  int position = 0;
  std::optional<std::string> parent_id;  // a category of the same guild
  std::vector<PermissionOverwrite> permission_overwrites;
  std::uint64_t flags = 0;
  std::optional<std::string> topic;  // sensitive: never in an obfuscated channel
  // Slowmode: seconds between a member's messages (bots and BYPASS_SLOWMODE exempt); 0 is off.
  int rate_limit_per_user = 0;
  bool nsfw = false;

  // A voice channel's status (Set Voice Channel Status): kept, never in the channel object (the seed).
  std::optional<std::string> voice_status{};
};

struct Guild {
  std::string id;
  std::string name;
  std::optional<std::string> icon;
  std::optional<std::string> banner;
  std::string owner_id;
  std::vector<std::string> features;
  std::vector<GuildRole> roles;                               // creation order; [0] is @everyone
  std::map<std::string, GuildMember, std::less<>> members;    // by user id (the owner is one)
  std::map<std::string, GuildChannel, std::less<>> channels;  // by id

  [[nodiscard]] const GuildRole* find_role(std::string_view role_id) const {
    const auto it = std::find_if(roles.begin(), roles.end(), [&](const auto& r) { return r.id == role_id; });
    return it == roles.end() ? nullptr : &*it;
  }
  [[nodiscard]] const GuildMember* find_member(std::string_view user_id) const {
    const auto it = members.find(user_id);
    return it == members.end() ? nullptr : &it->second;
  }
  [[nodiscard]] bool has_member(std::string_view user_id) const { return find_member(user_id) != nullptr; }
  // Channels by position, then id (the order the platform's client shows).
  [[nodiscard]] std::vector<const GuildChannel*> sorted_channels() const {
    std::vector<const GuildChannel*> sorted;
    for (const auto& [id, channel] : channels)
      sorted.push_back(&channel);
    std::sort(sorted.begin(), sorted.end(), [](const GuildChannel* a, const GuildChannel* b) {
      if (a->position != b->position) return a->position < b->position;
      if (a->id.size() != b->id.size()) return a->id.size() < b->id.size();  // snowflakes: numeric order
      return a->id < b->id;
    });
    return sorted;
  }
};

class GuildState {
 public:
  // Registers its document kinds and from then on names every document it changes. The all-members requests
  // are a rate window: not kept (docs/emulator-state.md).
  void register_documents(StateChanges& changes);

  // Adds (or replaces) the guild with its members.
  const Guild& add_guild(Guild guild);
  [[nodiscard]] const Guild* find_guild(std::string_view id) const {
    const auto it = guilds_.find(id);
    return it == guilds_.end() ? nullptr : &it->second;
  }
  // The guild channel with this id, and its guild; both null if there is none.
  [[nodiscard]] std::pair<const Guild*, const GuildChannel*> find_channel(std::string_view channel_id) const {
    for (const auto& [id, guild] : guilds_) {
      const auto it = guild.channels.find(channel_id);
      if (it != guild.channels.end()) return {&guild, &it->second};
    }
    return {nullptr, nullptr};
  }
  // For changing the guild's settings, roles or channels (named as changed); members change through
  // set_member().
  [[nodiscard]] Guild* find_guild_mutable(std::string_view id);
  // Adds the member to the guild, or replaces them; false if there is no such guild.
  bool set_member(std::string_view guild_id, GuildMember member);
  // Removes the member; false if they were not one.
  bool remove_member(std::string_view guild_id, std::string_view user_id);
  // The guilds `user_id` is a member of, by id.
  [[nodiscard]] std::vector<const Guild*> guilds_of_user(std::string_view user_id) const {
    std::vector<const Guild*> result;
    for (const auto& [id, guild] : guilds_) {
      if (guild.has_member(user_id)) result.push_back(&guild);
    }
    std::sort(result.begin(), result.end(), [](const Guild* a, const Guild* b) {
      if (a->id.size() != b->id.size()) return a->id.size() < b->id.size();
      return a->id < b->id;
    });
    return result;
  }

  // The guild's audit log, oldest first (empty for an unknown guild).
  [[nodiscard]] const std::vector<AuditLogEntry>& audit_log(std::string_view guild_id) const {
    static const std::vector<AuditLogEntry> none;
    const auto it = audit_logs_.find(guild_id);
    return it == audit_logs_.end() ? none : it->second;
  }
  // Appends the entry (its id a snowflake of now) and forgets the entries older than kAuditLogRetentionMs at
  // `now_ms`.
  void append_audit_entry(std::string_view guild_id, AuditLogEntry entry, std::int64_t now_ms);

  // AutoMod rules of the guild, in creation order (empty for an unknown guild).
  [[nodiscard]] const std::vector<AutoModRule>& automod_rules(std::string_view guild_id) const {
    static const std::vector<AutoModRule> none;
    const auto it = automod_rules_.find(guild_id);
    return it == automod_rules_.end() ? none : it->second;
  }
  // Adds the rule, or replaces the one with its id.
  const AutoModRule& set_automod_rule(AutoModRule rule);
  // Removes the rule; false if there was none.
  bool remove_automod_rule(std::string_view guild_id, std::string_view rule_id);

  // Request Guild Members for all members (empty query, limit 0): one per guild per requesting user (a bot)
  // per `window_ms` of the fake clock. Records the request and returns nullopt when allowed, else the ms
  // until the next one is (the refused request does not move the window).
  std::optional<std::int64_t> take_all_members_request(const std::string& user_id,
                                                       const std::string& guild_id, std::int64_t now_ms,
                                                       std::int64_t window_ms) {
    auto key = std::make_pair(user_id, guild_id);
    const auto it = all_members_requests_.find(key);
    if (it != all_members_requests_.end() && now_ms - it->second < window_ms) {
      return it->second + window_ms - now_ms;
    }
    all_members_requests_[std::move(key)] = now_ms;
    return std::nullopt;
  }

 private:
  void touch(std::string_view kind, std::string_view id);
  static std::string member_id(std::string_view guild_id, std::string_view user_id);

  StateChanges* changes_ = nullptr;
  std::map<std::string, Guild, std::less<>> guilds_;
  std::map<std::string, std::vector<AuditLogEntry>, std::less<>> audit_logs_;   // by guild id
  std::map<std::string, std::vector<AutoModRule>, std::less<>> automod_rules_;  // by guild id
  // (user id, guild id) -> fake-clock ms of the last allowed all-members request.
  std::map<std::pair<std::string, std::string>, std::int64_t> all_members_requests_;
};

}  // namespace platformpp::emulator
