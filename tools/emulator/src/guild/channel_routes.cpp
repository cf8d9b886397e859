// A guild's channels through the API, as a bot: Get Channel, Create Guild Channel, Modify Channel (the guild
// channel fields, slowmode included), Modify Guild Channel Positions, Delete Channel, and Edit/Delete Channel
// Permission (overwrites). Each with the permission the platform names (MANAGE_CHANNELS; MANAGE_ROLES for
// overwrites) counted in the channel, overwrites only of bits the bot has itself, CHANNEL_* dispatches and
// the audit entries (10-15). The admin routes that seed channels are in guild_routes.cpp.
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "core/json_body.hpp"
#include "guild/channel_fields.hpp"
#include "guild/guild_fields.hpp"
#include "guild/guild_json.hpp"
#include "guild/guild_module.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kTextChannelType = 0;
constexpr int kAnnouncementChannelType = 5;

// The overwrites' bits as the audit log writes them: a JSON array of overwrite objects.
std::string overwrites_json(const std::vector<PermissionOverwrite>& overwrites) {
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto& overwrite : overwrites) {
      writer.StartObject();
      writer.Key("id");
      write_string(writer, overwrite.id);
      writer.Key("type");
      writer.Int(overwrite.type);
      writer.Key("allow");
      write_string(writer, bits_string(overwrite.allow));
      writer.Key("deny");
      write_string(writer, bits_string(overwrite.deny));
      writer.EndObject();
    }
    writer.EndArray();
  });
}

// The audit entry of a channel's creation (no `before`), change, or deletion (no `after`).
AuditLogEntry channel_audit_entry(int action, const GuildChannel* before, const GuildChannel* after) {
  AuditLogEntry entry;
  entry.action_type = action;
  entry.target_id = (after != nullptr ? after : before)->id;
  const auto text = [](const GuildChannel* channel) {
    return channel != nullptr ? std::optional(channel->name) : std::nullopt;
  };
  const auto number = [](const GuildChannel* channel, auto member) {
    return channel != nullptr ? std::optional<std::int64_t>(channel->*member) : std::nullopt;
  };
  const auto optional_text = [](const GuildChannel* channel,
                                std::optional<std::string> GuildChannel::*member) {
    return channel != nullptr ? channel->*member : std::nullopt;
  };
  add_change(entry, audit_change("name", text(before), text(after)));
  add_change(entry,
             audit_change("type", number(before, &GuildChannel::type), number(after, &GuildChannel::type)));
  add_change(entry, audit_change("position", number(before, &GuildChannel::position),
                                 number(after, &GuildChannel::position)));
  add_change(entry, audit_change("parent_id", optional_text(before, &GuildChannel::parent_id),
                                 optional_text(after, &GuildChannel::parent_id)));
  add_change(entry, audit_change("topic", optional_text(before, &GuildChannel::topic),
                                 optional_text(after, &GuildChannel::topic)));
  add_change(entry, audit_change("rate_limit_per_user", number(before, &GuildChannel::rate_limit_per_user),
                                 number(after, &GuildChannel::rate_limit_per_user)));
  const auto nsfw = [](const GuildChannel* channel) {
    return channel != nullptr ? std::optional<std::string>(channel->nsfw ? "true" : "false") : std::nullopt;
  };
  add_change(entry, audit_json_change("nsfw", nsfw(before), nsfw(after)));
  // Overwrites have entries of their own on a change (13-15); a creation or deletion lists them.
  if (before == nullptr || after == nullptr) {
    const auto& overwrites = (after != nullptr ? after : before)->permission_overwrites;
    if (!overwrites.empty()) {
      const auto json = overwrites_json(overwrites);
      add_change(entry, audit_json_change("permission_overwrites",
                                          before != nullptr ? std::optional(json) : std::nullopt,
                                          after != nullptr ? std::optional(json) : std::nullopt));
    }
  }
  return entry;
}

// The audit entry of an overwrite's creation, change or deletion, with the platform's options: the
// overwritten entity's id and type ("0" role, "1" member), and the role's name.
AuditLogEntry overwrite_audit_entry(int action, const Guild& guild, const GuildChannel& channel,
                                    const PermissionOverwrite* before, const PermissionOverwrite* after) {
  const auto& overwrite = after != nullptr ? *after : *before;
  AuditLogEntry entry;
  entry.action_type = action;
  entry.target_id = channel.id;
  const auto bits = [](const PermissionOverwrite* o, std::uint64_t PermissionOverwrite::*member) {
    return o != nullptr ? std::optional("\"" + bits_string(o->*member) + "\"") : std::nullopt;
  };
  add_change(entry, audit_json_change("allow", bits(before, &PermissionOverwrite::allow),
                                      bits(after, &PermissionOverwrite::allow)));
  add_change(entry, audit_json_change("deny", bits(before, &PermissionOverwrite::deny),
                                      bits(after, &PermissionOverwrite::deny)));
  entry.options = {{"id", overwrite.id}, {"type", std::to_string(overwrite.type)}};
  if (overwrite.type == overwrite_type::kRole) {
    if (const auto* role = guild.find_role(overwrite.id)) entry.options.emplace_back("role_name", role->name);
  }
  return entry;
}

}  // namespace

void GuildModule::register_channel_routes() {
  api_router_.add("POST", "/guilds/{guild_id}/channels", bind(&GuildModule::api_create_channel));
  api_router_.add("PATCH", "/guilds/{guild_id}/channels", bind(&GuildModule::api_modify_channel_positions));
  api_router_.add("GET", "/channels/{channel_id}", bind(&GuildModule::api_get_channel));
  api_router_.add("PATCH", "/channels/{channel_id}", bind(&GuildModule::api_modify_channel));
  api_router_.add("DELETE", "/channels/{channel_id}", bind(&GuildModule::api_delete_channel));
  api_router_.add("PUT", "/channels/{channel_id}/permissions/{overwrite_id}",
                  bind(&GuildModule::api_edit_channel_permission));
  api_router_.add("DELETE", "/channels/{channel_id}/permissions/{overwrite_id}",
                  bind(&GuildModule::api_delete_channel_permission));
}

std::variant<GuildModule::ChannelCaller, HttpResponse> GuildModule::channel_caller(
    const RouteContext& context, std::uint64_t needs) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto [guild, channel] = guilds_.find_channel(context.params.at("channel_id"));
  if (guild == nullptr) return unknown_channel();
  if (principal->grant != nullptr || !guild->has_member(principal->user->id)) return missing_access();
  ChannelCaller caller{guild, channel, principal->user->id,
                       channel_permissions(*guild, *channel, principal->user->id, clock_.now_ms())};
  if ((caller.permissions & permission::kViewChannel) == 0) return missing_access();
  if ((caller.permissions & needs) != needs) return missing_permissions();
  return caller;
}

std::optional<HttpResponse> GuildModule::check_overwrite_bits(
    const Guild& guild, const GuildChannel* channel, std::optional<std::string> parent_id,
    const std::string& user_id, const std::vector<PermissionOverwrite>& overwrites,
    const std::vector<PermissionOverwrite>& before) const {
  const auto now = clock_.now_ms();
  const auto guild_wide = base_permissions(guild, user_id, now);
  if ((guild_wide & permission::kAdministrator) != 0) return std::nullopt;
  std::uint64_t granting = guild_wide;
  if (parent_id) {
    if (const auto it = guild.channels.find(*parent_id); it != guild.channels.end())
      granting = channel_permissions(guild, it->second, user_id, now);
  }
  // An overwrite of this channel that allows the user MANAGE_ROLES lifts the limit on the other bits.
  bool manages_here = false;
  if (channel != nullptr) {
    const auto* member = guild.find_member(user_id);
    for (const auto& overwrite : channel->permission_overwrites) {
      const bool applies =
          overwrite.type == overwrite_type::kMember
              ? overwrite.id == user_id
              : overwrite.id == guild.id ||
                    (member != nullptr && std::find(member->roles.begin(), member->roles.end(),
                                                    overwrite.id) != member->roles.end());
      manages_here = manages_here || (applies && (overwrite.allow & permission::kManageRoles) != 0);
    }
  }
  for (const auto& overwrite : overwrites) {
    const auto old = std::find_if(before.begin(), before.end(), [&](const PermissionOverwrite& o) {
      return o.id == overwrite.id && o.type == overwrite.type;
    });
    // Only the bits that change count: an overwrite kept as it was needs nothing.
    const auto allow_changed = old == before.end() ? overwrite.allow : overwrite.allow ^ old->allow;
    const auto deny_changed = old == before.end() ? overwrite.deny : overwrite.deny ^ old->deny;
    const auto changed = allow_changed | deny_changed;
    if ((changed & permission::kManageRoles) != 0) return missing_permissions();
    if (!manages_here && (changed & ~granting) != 0) return missing_permissions();
  }
  return std::nullopt;
}

HttpResponse GuildModule::api_get_channel(const RouteContext& context) {
  auto found = channel_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  return HttpResponse::json(200, channel_json(*std::get<ChannelCaller>(found).channel, false));
}

HttpResponse GuildModule::api_create_channel(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageChannels);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  GuildChannel channel;
  channel.guild_id = caller.guild->id;
  read_channel_fields(body, *caller.guild, state_, channel, true, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  if (!channel.permission_overwrites.empty()) {
    if (auto refused = check_overwrite_bits(*caller.guild, nullptr, channel.parent_id, caller.user_id,
                                            channel.permission_overwrites, {}))
      return std::move(*refused);
  }
  auto& guild = *guilds_.find_guild_mutable(caller.guild->id);
  channel.id = snowflakes_.next_string();
  const auto& stored = guild.channels.emplace(channel.id, std::move(channel)).first->second;
  channel_dispatch("CHANNEL_CREATE", guild, stored);
  audit(guild, context.request, caller.user_id,
        channel_audit_entry(audit_action::kChannelCreate, nullptr, &stored));
  return HttpResponse::json(201, channel_json(stored, false));
}

HttpResponse GuildModule::api_modify_channel(const RouteContext& context) {
  auto found = channel_caller(context, permission::kManageChannels);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<ChannelCaller>(found);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  // Overwrites need MANAGE_ROLES in the channel as well.
  if (body.HasMember("permission_overwrites") && (caller.permissions & permission::kManageRoles) == 0)
    return missing_permissions();
  FieldErrors errors;
  GuildChannel changed = *caller.channel;
  read_channel_fields(body, *caller.guild, state_, changed, false, errors);
  // Through the API a channel keeps its kind: only text and announcement channels turn into each other.
  if (changed.type != caller.channel->type) {
    const auto convertible = [](int type) {
      return type == kTextChannelType || type == kAnnouncementChannelType;
    };
    if (!convertible(changed.type) || !convertible(caller.channel->type)) {
      errors.add({"type"}, {"CHANNEL_TYPE_INVALID", "Only text and announcement channels convert."});
    } else if (changed.type == kAnnouncementChannelType &&
               std::find(caller.guild->features.begin(), caller.guild->features.end(), "NEWS") ==
                   caller.guild->features.end()) {
      errors.add({"type"}, {"GUILD_FEATURE_REQUIRED", "The guild needs the NEWS feature."});
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (auto refused =
          check_overwrite_bits(*caller.guild, caller.channel, changed.parent_id, caller.user_id,
                               changed.permission_overwrites, caller.channel->permission_overwrites)) {
    return std::move(*refused);
  }
  auto entry = channel_audit_entry(audit_action::kChannelUpdate, caller.channel, &changed);
  // The overwrites' own entries: created, changed and deleted ones.
  std::vector<AuditLogEntry> overwrite_entries;
  const auto& old_overwrites = caller.channel->permission_overwrites;
  for (const auto& overwrite : changed.permission_overwrites) {
    const auto old = std::find_if(old_overwrites.begin(), old_overwrites.end(),
                                  [&](const PermissionOverwrite& o) { return o.id == overwrite.id; });
    if (old == old_overwrites.end()) {
      overwrite_entries.push_back(overwrite_audit_entry(audit_action::kChannelOverwriteCreate, *caller.guild,
                                                        changed, nullptr, &overwrite));
    } else if (old->allow != overwrite.allow || old->deny != overwrite.deny) {
      overwrite_entries.push_back(overwrite_audit_entry(audit_action::kChannelOverwriteUpdate, *caller.guild,
                                                        changed, &*old, &overwrite));
    }
  }
  for (const auto& old : old_overwrites) {
    const auto kept = std::find_if(changed.permission_overwrites.begin(), changed.permission_overwrites.end(),
                                   [&](const PermissionOverwrite& o) { return o.id == old.id; });
    if (kept == changed.permission_overwrites.end()) {
      overwrite_entries.push_back(overwrite_audit_entry(audit_action::kChannelOverwriteDelete, *caller.guild,
                                                        changed, &old, nullptr));
    }
  }
  auto& guild = *guilds_.find_guild_mutable(caller.guild->id);
  auto& stored = guild.channels.at(changed.id);
  stored = std::move(changed);
  channel_dispatch("CHANNEL_UPDATE", guild, stored);
  if (!entry.changes.empty()) audit(guild, context.request, caller.user_id, std::move(entry));
  for (auto& overwrite_entry : overwrite_entries)
    audit(guild, context.request, caller.user_id, std::move(overwrite_entry));
  return HttpResponse::json(200, channel_json(stored, false));
}

// [{id, position?, parent_id?, lock_permissions?}]: the channels move; CHANNEL_UPDATE for each that changed.
HttpResponse GuildModule::api_modify_channel_positions(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageChannels);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  rapidjson::Document body;
  // parse_json: iterative, so that deeply nested input cannot exhaust the stack.
  if (!parse_json(context.request.body, body))
    return error_response(400, error_code::kInvalidJson, "The request body contains invalid JSON.");
  FieldErrors errors;
  if (!body.IsArray()) {
    errors.add({"_root"}, {"BASE_TYPE_ARRAY", "Must be an array"});
    return invalid_form_body(errors);
  }
  const auto& guild_before = *caller.guild;
  std::map<std::string, GuildChannel> moved;
  for (rapidjson::SizeType i = 0; i < body.Size(); ++i) {
    const auto index = std::to_string(i);
    const auto& item = body[i];
    if (!item.IsObject() || !item.HasMember("id") || !item["id"].IsString()) {
      errors.add({index, "id"}, required_field_issue());
      continue;
    }
    const std::string id(item["id"].GetString(), item["id"].GetStringLength());
    const auto it = guild_before.channels.find(id);
    if (it == guild_before.channels.end()) {
      errors.add({index, "id"}, {"CHANNEL_INVALID", "Not a channel of the guild"});
      continue;
    }
    GuildChannel channel = it->second;
    FieldErrors item_errors;
    BodyFields fields(item, item_errors);
    if (const auto position = fields.integer("position", false, 0, 1000000))
      channel.position = static_cast<int>(*position);
    if (item.HasMember("parent_id")) {
      const auto& parent = item["parent_id"];
      if (parent.IsNull()) {
        channel.parent_id.reset();
      } else if (!parent.IsString()) {
        fields.add_issue("parent_id", {"BASE_TYPE_STRING", "Must be a string."});
      } else {
        const std::string parent_id(parent.GetString(), parent.GetStringLength());
        const auto category = guild_before.channels.find(parent_id);
        if (category == guild_before.channels.end() || category->second.type != kCategoryChannelType ||
            channel.type == kCategoryChannelType) {
          fields.add_issue("parent_id", {"CHANNEL_PARENT_INVALID", "Must be a category of this guild."});
        } else {
          channel.parent_id = parent_id;
          // lock_permissions: the channel takes its new category's overwrites.
          if (fields.boolean("lock_permissions", false).value_or(false))
            channel.permission_overwrites = category->second.permission_overwrites;
        }
      }
    }
    if (!item_errors.empty()) return invalid_form_body(std::move(item_errors).nested_under(index));
    // The bot must manage each channel it moves.
    if ((channel_permissions(guild_before, it->second, caller.user_id, clock_.now_ms()) &
         permission::kManageChannels) == 0) {
      return missing_permissions();
    }
    moved.insert_or_assign(id, std::move(channel));
  }
  if (!errors.empty()) return invalid_form_body(errors);
  auto& guild = *guilds_.find_guild_mutable(guild_before.id);
  for (auto& [id, channel] : moved) {
    auto& stored = guild.channels.at(id);
    auto entry = channel_audit_entry(audit_action::kChannelUpdate, &stored, &channel);
    if (entry.changes.empty()) continue;
    stored = std::move(channel);
    channel_dispatch("CHANNEL_UPDATE", guild, stored);
    audit(guild, context.request, caller.user_id, std::move(entry));
  }
  return HttpResponse::empty(204);
}

// Answers the deleted channel; the channels of a deleted category lose their parent (CHANNEL_UPDATE each).
HttpResponse GuildModule::api_delete_channel(const RouteContext& context) {
  auto found = channel_caller(context, permission::kManageChannels);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<ChannelCaller>(found);
  const auto guild_id = caller.guild->id;
  const auto channel_id = caller.channel->id;
  const auto user_id = caller.user_id;
  // Whoever is connected to a voice channel is disconnected first (voice_routes.cpp).
  end_channel_voice(guild_id, channel_id);
  auto& guild = *guilds_.find_guild_mutable(guild_id);
  const auto it = guild.channels.find(channel_id);
  const auto channel = std::move(it->second);
  guild.channels.erase(it);
  channel_dispatch("CHANNEL_DELETE", guild, channel);
  for (auto& [id, child] : guild.channels) {
    if (child.parent_id != channel.id) continue;
    child.parent_id.reset();
    channel_dispatch("CHANNEL_UPDATE", guild, child);
  }
  audit(guild, context.request, caller.user_id,
        channel_audit_entry(audit_action::kChannelDelete, &channel, nullptr));
  return HttpResponse::json(200, channel_json(channel, false));
}

// {type, allow?, deny?}: adds or replaces the overwrite of a role (type 0) or member (type 1); 204.
HttpResponse GuildModule::api_edit_channel_permission(const RouteContext& context) {
  auto found = channel_caller(context, permission::kManageRoles);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<ChannelCaller>(found);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  PermissionOverwrite overwrite;
  overwrite.id = context.params.at("overwrite_id");
  const auto type = fields.integer("type", true, overwrite_type::kRole, overwrite_type::kMember);
  if (type) overwrite.type = static_cast<int>(*type);
  if (const auto allow = read_permission_bits(fields, "allow")) overwrite.allow = *allow;
  if (const auto deny = read_permission_bits(fields, "deny")) overwrite.deny = *deny;
  if (!errors.empty()) return invalid_form_body(errors);
  const bool known = overwrite.type == overwrite_type::kRole
                         ? caller.guild->find_role(overwrite.id) != nullptr
                         : caller.guild->has_member(overwrite.id);
  if (!known) {
    return overwrite.type == overwrite_type::kRole ? error_response(404, 10011, "Unknown Role")
                                                   : error_response(404, 10007, "Unknown Member");
  }
  const auto& old_overwrites = caller.channel->permission_overwrites;
  if (auto refused = check_overwrite_bits(*caller.guild, caller.channel, caller.channel->parent_id,
                                          caller.user_id, {overwrite}, old_overwrites))
    return std::move(*refused);
  auto& guild = *guilds_.find_guild_mutable(caller.guild->id);
  auto& channel = guild.channels.at(caller.channel->id);
  const auto old = std::find_if(channel.permission_overwrites.begin(), channel.permission_overwrites.end(),
                                [&](const PermissionOverwrite& o) { return o.id == overwrite.id; });
  std::optional<AuditLogEntry> entry;
  if (old == channel.permission_overwrites.end()) {
    entry = overwrite_audit_entry(audit_action::kChannelOverwriteCreate, guild, channel, nullptr, &overwrite);
    channel.permission_overwrites.push_back(overwrite);
  } else if (old->allow != overwrite.allow || old->deny != overwrite.deny || old->type != overwrite.type) {
    entry = overwrite_audit_entry(audit_action::kChannelOverwriteUpdate, guild, channel, &*old, &overwrite);
    *old = overwrite;
  }
  if (entry) {
    channel_dispatch("CHANNEL_UPDATE", guild, channel);
    audit(guild, context.request, caller.user_id, std::move(*entry));
  }
  return HttpResponse::empty(204);
}

HttpResponse GuildModule::api_delete_channel_permission(const RouteContext& context) {
  auto found = channel_caller(context, permission::kManageRoles);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<ChannelCaller>(found);
  const auto& overwrite_id = context.params.at("overwrite_id");
  const auto& old_overwrites = caller.channel->permission_overwrites;
  const auto old = std::find_if(old_overwrites.begin(), old_overwrites.end(),
                                [&](const PermissionOverwrite& o) { return o.id == overwrite_id; });
  if (old == old_overwrites.end()) return HttpResponse::empty(204);  // nothing to delete: nothing happens
  // Deleting drops the overwrite's bits: the same rule as setting them.
  PermissionOverwrite cleared = *old;
  cleared.allow = 0;
  cleared.deny = 0;
  if (auto refused = check_overwrite_bits(*caller.guild, caller.channel, caller.channel->parent_id,
                                          caller.user_id, {cleared}, old_overwrites))
    return std::move(*refused);
  auto entry = overwrite_audit_entry(audit_action::kChannelOverwriteDelete, *caller.guild, *caller.channel,
                                     &*old, nullptr);
  auto& guild = *guilds_.find_guild_mutable(caller.guild->id);
  auto& channel = guild.channels.at(caller.channel->id);
  std::erase_if(channel.permission_overwrites,
                [&](const PermissionOverwrite& o) { return o.id == overwrite_id; });
  channel_dispatch("CHANNEL_UPDATE", guild, channel);
  audit(guild, context.request, caller.user_id, std::move(entry));
  return HttpResponse::empty(204);
}

}  // namespace platformpp::emulator
