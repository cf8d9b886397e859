// GuildState's changes and its documents (core/state_changes.hpp): a guild's document holds its settings,
// roles and channels; each member is a document of its own ("<guild>:<user>"), so that a member joining a
// big guild rewrites one small document. Every document carries "v", its format version.
#include "guild/guild_state.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/document_json.hpp"
#include "core/snowflake.hpp"
#include "core/state_changes.hpp"
#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

using document::check_format;
using document::document_json;

// Permission bits as a decimal string, as the wire carries them (every bit of 64 fits).
void write_bits(JsonWriter& writer, std::string_view name, std::uint64_t bits) {
  document::write_member(writer, name, std::to_string(bits));
}

std::uint64_t read_bits(const rapidjson::Value& object, const char* name) {
  const auto bits = decimal_bits(document::string(object, name));
  if (!bits) throw std::invalid_argument(std::string("\"") + name + "\" is not permission bits");
  return *bits;
}

void write_channel(JsonWriter& writer, const GuildChannel& channel) {
  writer.StartObject();
  document::write_member(writer, "id", channel.id);
  document::write_member(writer, "type", channel.type);
  document::write_member(writer, "name", channel.name);
  document::write_member(writer, "position", channel.position);
  document::write_member(writer, "parent_id", channel.parent_id);
  if (!channel.permission_overwrites.empty()) {
    writer.Key("permission_overwrites");
    writer.StartArray();
    for (const auto& overwrite : channel.permission_overwrites) {
      writer.StartObject();
      document::write_member(writer, "id", overwrite.id);
      document::write_member(writer, "type", overwrite.type);
      write_bits(writer, "allow", overwrite.allow);
      write_bits(writer, "deny", overwrite.deny);
      writer.EndObject();
    }
    writer.EndArray();
  }
  if (channel.flags != 0) write_bits(writer, "flags", channel.flags);
  document::write_member(writer, "topic", channel.topic);
  if (channel.rate_limit_per_user != 0)
    document::write_member(writer, "rate_limit_per_user", channel.rate_limit_per_user);
  if (channel.nsfw) document::write_member(writer, "nsfw", true);
  document::write_member(writer, "voice_status", channel.voice_status);
  writer.EndObject();
}

GuildChannel read_channel(const std::string& guild_id, const rapidjson::Value& value) {
  GuildChannel channel;
  channel.id = document::string(value, "id");
  channel.guild_id = guild_id;
  channel.type = static_cast<int>(document::integer(value, "type"));
  channel.name = document::string(value, "name");
  channel.position = static_cast<int>(document::integer(value, "position"));
  channel.parent_id = document::optional_string(value, "parent_id");
  if (value.HasMember("permission_overwrites")) {
    for (const auto& entry : document::array(value, "permission_overwrites").GetArray()) {
      channel.permission_overwrites.push_back(PermissionOverwrite{
          document::string(entry, "id"), static_cast<int>(document::integer(entry, "type")),
          read_bits(entry, "allow"), read_bits(entry, "deny")});
    }
  }
  if (value.HasMember("flags")) channel.flags = read_bits(value, "flags");
  channel.topic = document::optional_string(value, "topic");
  channel.rate_limit_per_user = static_cast<int>(document::integer_or(value, "rate_limit_per_user", 0));
  channel.nsfw = document::boolean_or(value, "nsfw", false);
  channel.voice_status = document::optional_string(value, "voice_status");  // absent in older files
  return channel;
}

std::string guild_json(const Guild& guild) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "name", guild.name);
    document::write_member(writer, "icon", guild.icon);
    document::write_member(writer, "banner", guild.banner);
    document::write_member(writer, "owner_id", guild.owner_id);
    if (!guild.features.empty()) document::write_member(writer, "features", guild.features);
    writer.Key("roles");
    writer.StartArray();
    for (const auto& role : guild.roles) {
      writer.StartObject();
      document::write_member(writer, "id", role.id);
      document::write_member(writer, "name", role.name);
      write_bits(writer, "permissions", role.permissions);
      document::write_member(writer, "position", role.position);
      if (role.color != 0) document::write_member(writer, "color", role.color);
      document::write_member(writer, "secondary_color", role.secondary_color);
      document::write_member(writer, "tertiary_color", role.tertiary_color);
      if (role.hoist) document::write_member(writer, "hoist", true);
      if (role.mentionable) document::write_member(writer, "mentionable", true);
      document::write_member(writer, "icon", role.icon);
      document::write_member(writer, "unicode_emoji", role.unicode_emoji);
      if (role.flags != 0) write_bits(writer, "flags", role.flags);
      document::write_member(writer, "bot_id", role.bot_id);
      writer.EndObject();
    }
    writer.EndArray();
    writer.Key("channels");
    writer.StartArray();
    for (const auto& entry : guild.channels)
      write_channel(writer, entry.second);
    writer.EndArray();
  });
}

Guild read_guild(const std::string& id, const rapidjson::Value& body) {
  Guild guild;
  guild.id = id;
  guild.name = document::string(body, "name");
  guild.icon = document::optional_string(body, "icon");
  guild.banner = document::optional_string(body, "banner");
  guild.owner_id = document::string(body, "owner_id");
  guild.features = document::strings(body, "features");
  for (const auto& value : document::array(body, "roles").GetArray()) {
    GuildRole role;
    role.id = document::string(value, "id");
    role.name = document::string(value, "name");
    role.permissions = read_bits(value, "permissions");
    // State files from before roles had positions: creation order was the position.
    role.position = static_cast<int>(
        document::integer_or(value, "position", static_cast<std::int64_t>(guild.roles.size())));
    role.color = document::integer_or(value, "color", 0);
    role.secondary_color = document::optional_integer(value, "secondary_color");
    role.tertiary_color = document::optional_integer(value, "tertiary_color");
    role.hoist = document::boolean_or(value, "hoist", false);
    role.mentionable = document::boolean_or(value, "mentionable", false);
    role.icon = document::optional_string(value, "icon");
    role.unicode_emoji = document::optional_string(value, "unicode_emoji");
    if (value.HasMember("flags")) role.flags = read_bits(value, "flags");
    role.bot_id = document::optional_string(value, "bot_id");
    guild.roles.push_back(std::move(role));
  }
  if (guild.roles.empty() || guild.roles.front().id != id) {
    throw std::invalid_argument("the first role is not @everyone (the guild's id)");
  }
  for (const auto& value : document::array(body, "channels").GetArray()) {
    auto channel = read_channel(id, value);
    auto channel_id = channel.id;
    guild.channels.insert_or_assign(std::move(channel_id), std::move(channel));
  }
  return guild;
}

std::string member_json(const std::string& guild_id, const GuildMember& member) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "guild_id", guild_id);
    document::write_member(writer, "user_id", member.user_id);
    if (!member.roles.empty()) document::write_member(writer, "roles", member.roles);
    document::write_member(writer, "joined_at_ms", member.joined_at_ms);
    document::write_member(writer, "nick", member.nick);
    document::write_member(writer, "timeout_until_ms", member.timeout_until_ms);
    if (member.flags != 0) write_bits(writer, "flags", member.flags);
    document::write_member(writer, "avatar", member.avatar);
    document::write_member(writer, "banner", member.banner);
    document::write_member(writer, "bio", member.bio);
  });
}

std::string audit_log_json(const std::vector<AuditLogEntry>& entries) {
  return document_json([&](JsonWriter& writer) {
    writer.Key("entries");
    writer.StartArray();
    for (const auto& entry : entries) {
      writer.StartObject();
      document::write_member(writer, "id", entry.id);
      document::write_member(writer, "user_id", entry.user_id);
      document::write_member(writer, "target_id", entry.target_id);
      document::write_member(writer, "action_type", entry.action_type);
      if (!entry.changes.empty()) {
        writer.Key("changes");  // old and new values are JSON texts, kept as strings
        writer.StartArray();
        for (const auto& change : entry.changes) {
          writer.StartObject();
          document::write_member(writer, "key", change.key);
          document::write_member(writer, "old_value", change.old_value);
          document::write_member(writer, "new_value", change.new_value);
          writer.EndObject();
        }
        writer.EndArray();
      }
      if (!entry.options.empty()) {
        writer.Key("options");
        writer.StartArray();
        for (const auto& [name, value] : entry.options) {
          writer.StartArray();
          write_string(writer, name);
          write_string(writer, value);
          writer.EndArray();
        }
        writer.EndArray();
      }
      document::write_member(writer, "reason", entry.reason);
      writer.EndObject();
    }
    writer.EndArray();
  });
}

std::vector<AuditLogEntry> read_audit_log(const rapidjson::Value& body) {
  std::vector<AuditLogEntry> entries;
  for (const auto& value : document::array(body, "entries").GetArray()) {
    AuditLogEntry entry;
    entry.id = document::string(value, "id");
    entry.user_id = document::optional_string(value, "user_id");
    entry.target_id = document::optional_string(value, "target_id");
    entry.action_type = static_cast<int>(document::integer(value, "action_type"));
    if (value.HasMember("changes")) {
      for (const auto& change : document::array(value, "changes").GetArray()) {
        entry.changes.push_back(AuditLogChange{document::string(change, "key"),
                                               document::optional_string(change, "old_value"),
                                               document::optional_string(change, "new_value")});
      }
    }
    if (value.HasMember("options")) {
      for (const auto& option : document::array(value, "options").GetArray()) {
        if (!option.IsArray() || option.Size() != 2) throw std::invalid_argument("an option is not a pair");
        entry.options.emplace_back(document::string_value(option[0], "an option's name"),
                                   document::string_value(option[1], "an option's value"));
      }
    }
    entry.reason = document::optional_string(value, "reason");
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::string automod_rule_document(const AutoModRule& rule) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "guild_id", rule.guild_id);
    document::write_member(writer, "rule_id", rule.id);
    document::write_member(writer, "name", rule.name);
    document::write_member(writer, "creator_id", rule.creator_id);
    document::write_member(writer, "event_type", rule.event_type);
    document::write_member(writer, "trigger_type", rule.trigger_type);
    document::write_member(writer, "keyword_filter", rule.keyword_filter);
    document::write_member(writer, "regex_patterns", rule.regex_patterns);
    std::vector<std::string> presets;
    for (const auto preset : rule.presets)
      presets.push_back(std::to_string(preset));
    document::write_member(writer, "presets", presets);
    document::write_member(writer, "allow_list", rule.allow_list);
    document::write_member(writer, "mention_total_limit", rule.mention_total_limit);
    document::write_member(writer, "mention_raid_protection_enabled", rule.mention_raid_protection_enabled);
    writer.Key("actions");
    writer.StartArray();
    for (const auto& action : rule.actions) {
      writer.StartObject();
      document::write_member(writer, "type", action.type);
      document::write_member(writer, "channel_id", action.channel_id);
      document::write_member(writer, "duration_seconds", action.duration_seconds);
      document::write_member(writer, "custom_message", action.custom_message);
      writer.EndObject();
    }
    writer.EndArray();
    document::write_member(writer, "enabled", rule.enabled);
    document::write_member(writer, "exempt_roles", rule.exempt_roles);
    document::write_member(writer, "exempt_channels", rule.exempt_channels);
  });
}

AutoModRule read_automod_rule_document(const rapidjson::Value& body) {
  AutoModRule rule;
  rule.guild_id = document::string(body, "guild_id");
  rule.id = document::string(body, "rule_id");
  rule.name = document::string(body, "name");
  rule.creator_id = document::string(body, "creator_id");
  rule.event_type = static_cast<int>(document::integer(body, "event_type"));
  rule.trigger_type = static_cast<int>(document::integer(body, "trigger_type"));
  rule.keyword_filter = document::strings(body, "keyword_filter");
  rule.regex_patterns = document::strings(body, "regex_patterns");
  for (const auto& preset : document::strings(body, "presets"))
    rule.presets.push_back(std::stoi(preset));
  rule.allow_list = document::strings(body, "allow_list");
  rule.mention_total_limit = document::optional_integer(body, "mention_total_limit");
  rule.mention_raid_protection_enabled = document::boolean_or(body, "mention_raid_protection_enabled", false);
  for (const auto& value : document::array(body, "actions").GetArray()) {
    AutoModAction action;
    action.type = static_cast<int>(document::integer(value, "type"));
    action.channel_id = document::optional_string(value, "channel_id");
    action.duration_seconds = document::optional_integer(value, "duration_seconds");
    action.custom_message = document::optional_string(value, "custom_message");
    rule.actions.push_back(std::move(action));
  }
  rule.enabled = document::boolean(body, "enabled");
  rule.exempt_roles = document::strings(body, "exempt_roles");
  rule.exempt_channels = document::strings(body, "exempt_channels");
  return rule;
}

}  // namespace

const AutoModRule& GuildState::set_automod_rule(AutoModRule rule) {
  touch(document_kind::kAutoModRule, rule.guild_id + ":" + rule.id);
  auto& rules = automod_rules_[rule.guild_id];
  const auto it =
      std::find_if(rules.begin(), rules.end(), [&](const AutoModRule& r) { return r.id == rule.id; });
  if (it != rules.end()) {
    *it = std::move(rule);
    return *it;
  }
  rules.push_back(std::move(rule));
  return rules.back();
}

bool GuildState::remove_automod_rule(std::string_view guild_id, std::string_view rule_id) {
  const auto it = automod_rules_.find(guild_id);
  if (it == automod_rules_.end()) return false;
  const auto removed = std::erase_if(it->second, [&](const AutoModRule& r) { return r.id == rule_id; });
  if (removed == 0) return false;
  touch(document_kind::kAutoModRule, std::string(guild_id) + ":" + std::string(rule_id));
  return true;
}

void GuildState::append_audit_entry(std::string_view guild_id, AuditLogEntry entry, std::int64_t now_ms) {
  auto it = audit_logs_.find(guild_id);
  if (it == audit_logs_.end())
    it = audit_logs_.emplace(std::string(guild_id), std::vector<AuditLogEntry>{}).first;
  auto& entries = it->second;
  const auto expired = std::find_if(entries.begin(), entries.end(), [&](const AuditLogEntry& kept) {
    return decode_snowflake(std::stoull(kept.id)).timestamp_ms + kAuditLogRetentionMs > now_ms;
  });
  entries.erase(entries.begin(), expired);
  entries.push_back(std::move(entry));
  touch(document_kind::kGuildAuditLog, guild_id);
}

void GuildState::touch(std::string_view kind, std::string_view id) {
  if (changes_ != nullptr) changes_->touch(kind, id);
}

std::string GuildState::member_id(std::string_view guild_id, std::string_view user_id) {
  return std::string(guild_id) + ":" + std::string(user_id);
}

const Guild& GuildState::add_guild(Guild guild) {
  touch(document_kind::kGuild, guild.id);
  if (const auto old = guilds_.find(guild.id); old != guilds_.end()) {
    for (const auto& entry : old->second.members)
      touch(document_kind::kGuildMember, member_id(guild.id, entry.first));  // replaced: gone unless kept
  }
  for (const auto& entry : guild.members)
    touch(document_kind::kGuildMember, member_id(guild.id, entry.first));
  auto id = guild.id;
  return guilds_.insert_or_assign(std::move(id), std::move(guild)).first->second;
}

Guild* GuildState::find_guild_mutable(std::string_view id) {
  const auto it = guilds_.find(id);
  if (it == guilds_.end()) return nullptr;
  touch(document_kind::kGuild, id);  // the caller changes it
  return &it->second;
}

bool GuildState::set_member(std::string_view guild_id, GuildMember member) {
  const auto it = guilds_.find(guild_id);
  if (it == guilds_.end()) return false;
  touch(document_kind::kGuildMember, member_id(guild_id, member.user_id));
  auto user_id = member.user_id;
  it->second.members.insert_or_assign(std::move(user_id), std::move(member));
  return true;
}

bool GuildState::remove_member(std::string_view guild_id, std::string_view user_id) {
  const auto it = guilds_.find(guild_id);
  if (it == guilds_.end()) return false;
  const auto member = it->second.members.find(user_id);
  if (member == it->second.members.end()) return false;
  touch(document_kind::kGuildMember, member_id(guild_id, user_id));  // gone: the document goes
  it->second.members.erase(member);
  return true;
}

void GuildState::register_documents(StateChanges& changes) {
  changes_ = &changes;
  // Guilds before their members: loading reads kinds in registration order.
  changes.register_kind(DocumentKind{std::string(document_kind::kGuild),
                                     [this](const std::string& id) -> std::optional<std::string> {
                                       const auto* guild = find_guild(id);
                                       return guild == nullptr ? std::nullopt
                                                               : std::optional(guild_json(*guild));
                                     },
                                     [this](const std::string& id, const rapidjson::Value& body) {
                                       check_format(body);
                                       auto guild = read_guild(id, body);
                                       // Its members are documents of their own, read after every guild.
                                       if (const auto old = guilds_.find(id); old != guilds_.end())
                                         guild.members = std::move(old->second.members);
                                       guilds_.insert_or_assign(id, std::move(guild));
                                     },
                                     [this] {
                                       std::vector<std::string> ids;
                                       ids.reserve(guilds_.size());
                                       for (const auto& entry : guilds_)
                                         ids.push_back(entry.first);
                                       return ids;
                                     },
                                     [this] { guilds_.clear(); }});
  changes.register_kind(DocumentKind{
      std::string(document_kind::kGuildMember),
      [this](const std::string& id) -> std::optional<std::string> {
        const auto colon = id.find(':');
        if (colon == std::string::npos) return std::nullopt;
        const auto* guild = find_guild(std::string_view(id).substr(0, colon));
        const auto* member =
            guild == nullptr ? nullptr : guild->find_member(std::string_view(id).substr(colon + 1));
        return member == nullptr ? std::nullopt : std::optional(member_json(guild->id, *member));
      },
      [this](const std::string&, const rapidjson::Value& body) {
        check_format(body);
        const auto guild_id = document::string(body, "guild_id");
        const auto it = guilds_.find(guild_id);
        if (it == guilds_.end()) throw std::invalid_argument("a member of unknown guild " + guild_id);
        GuildMember member{document::string(body, "user_id"), document::strings(body, "roles"),
                           document::integer(body, "joined_at_ms")};
        member.nick = document::optional_string(body, "nick");
        member.timeout_until_ms = document::optional_integer(body, "timeout_until_ms");
        if (body.HasMember("flags")) member.flags = read_bits(body, "flags");
        member.avatar = document::optional_string(body, "avatar");
        member.banner = document::optional_string(body, "banner");
        member.bio = document::optional_string(body, "bio");
        auto user_id = member.user_id;
        it->second.members.insert_or_assign(std::move(user_id), std::move(member));
      },
      [this] {
        std::vector<std::string> ids;
        for (const auto& [guild_id, guild] : guilds_) {
          for (const auto& entry : guild.members)
            ids.push_back(member_id(guild_id, entry.first));
        }
        return ids;
      },
      [] {}});  // the guilds' clear forgets their members
  changes.register_kind(DocumentKind{
      std::string(document_kind::kGuildAuditLog),
      [this](const std::string& id) -> std::optional<std::string> {
        const auto it = audit_logs_.find(id);
        return it == audit_logs_.end() || it->second.empty() ? std::nullopt
                                                             : std::optional(audit_log_json(it->second));
      },
      [this](const std::string& id, const rapidjson::Value& body) {
        check_format(body);
        audit_logs_.insert_or_assign(id, read_audit_log(body));
      },
      [this] { return document::keys_of(audit_logs_); }, [this] { audit_logs_.clear(); }});
  changes.register_kind(DocumentKind{
      std::string(document_kind::kAutoModRule),
      [this](const std::string& id) -> std::optional<std::string> {
        const auto parts = document::split_id(id, 2);
        for (const auto& rule : automod_rules(parts[0])) {
          if (rule.id == parts[1]) return automod_rule_document(rule);
        }
        return std::nullopt;
      },
      [this](const std::string&, const rapidjson::Value& body) {
        check_format(body);
        auto rule = read_automod_rule_document(body);
        auto& rules = automod_rules_[rule.guild_id];
        std::erase_if(rules, [&](const AutoModRule& r) { return r.id == rule.id; });
        // Creation order is id order.
        const auto at = std::find_if(rules.begin(), rules.end(),
                                     [&](const AutoModRule& r) { return snowflake_less(rule.id, r.id); });
        rules.insert(at, std::move(rule));
      },
      [this] {
        std::vector<std::string> ids;
        for (const auto& [guild_id, rules] : automod_rules_) {
          for (const auto& rule : rules)
            ids.push_back(guild_id + ":" + rule.id);
        }
        return ids;
      },
      [this] { automod_rules_.clear(); }});
}

}  // namespace platformpp::emulator
