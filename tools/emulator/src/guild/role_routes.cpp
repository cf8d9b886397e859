// A guild's roles through the API, as a bot manages them: list, get, member counts, create, modify,
// reorder and delete, with MANAGE_ROLES and the platform's hierarchy (a bot acts only on roles below its
// highest one, and grants only permissions it has); `color` (deprecated, still working) and `colors` (a
// gradient with ENHANCED_ROLE_COLORS, the holographic preset with a tertiary color); GUILD_ROLE_CREATE,
// GUILD_ROLE_UPDATE and GUILD_ROLE_DELETE to the guild's sessions.
//
// Errors: 404 Unknown Guild (10004) and Unknown Role (10011); 403 Missing Access (50001) for a caller that is
// not a bot in the guild; 403 Missing Permissions (50013) without MANAGE_ROLES, for a role at or above the
// caller's highest, or for permissions the caller lacks; 400 Invalid Role (50028) for @everyone's deletion or
// a managed role's; 400 (30005) past 250 roles; 400 (50035) for the rest.
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "core/json_body.hpp"
#include "guild/guild_fields.hpp"
#include "guild/guild_json.hpp"
#include "guild/guild_module.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kMaximumRoles = 30005;
constexpr int kInvalidRole = 50028;
constexpr std::size_t kRolesMax = 250;
constexpr std::int64_t kColorMax = 0xFFFFFF;
// The platform's docs: a tertiary color makes the role holographic, with these three values.
constexpr std::int64_t kHolographicPrimary = 11127295;
constexpr std::int64_t kHolographicSecondary = 16759788;
constexpr std::int64_t kHolographicTertiary = 16761760;

HttpResponse unknown_role() {
  return error_response(404, error_code::kUnknownRole, "Unknown Role");
}

bool has_feature(const Guild& guild, std::string_view feature) {
  return std::find(guild.features.begin(), guild.features.end(), feature) != guild.features.end();
}

FieldIssue feature_issue(const char* feature) {
  return {"GUILD_FEATURE_REQUIRED", std::string("Needs the guild feature ") + feature};
}

std::vector<const GuildRole*> sorted_roles(const Guild& guild) {
  std::vector<const GuildRole*> roles;
  roles.reserve(guild.roles.size());
  for (const auto& role : guild.roles)
    roles.push_back(&role);
  std::sort(roles.begin(), roles.end(),
            [](const GuildRole* a, const GuildRole* b) { return role_below(*a, *b); });
  return roles;
}

// The audit entry of a role's creation (no `before`), change, or deletion (no `after`): the fields that
// differ, as the platform's change keys (the icon's is icon_hash).
AuditLogEntry role_audit_entry(int action, const GuildRole* before, const GuildRole* after) {
  AuditLogEntry entry;
  entry.action_type = action;
  entry.target_id = (after != nullptr ? after : before)->id;
  const auto text = [](const GuildRole* role, auto member) {
    return role != nullptr ? std::optional((role->*member)) : std::nullopt;
  };
  const auto number = [](const GuildRole* role, auto member) {
    return role != nullptr ? std::optional<std::int64_t>(role->*member) : std::nullopt;
  };
  const auto bits = [](const GuildRole* role) {
    return role != nullptr ? std::optional("\"" + std::to_string(role->permissions) + "\"") : std::nullopt;
  };
  const auto flag = [](const GuildRole* role, bool GuildRole::*member) {
    return role != nullptr ? std::optional<std::string>(role->*member ? "true" : "false") : std::nullopt;
  };
  add_change(entry, audit_change("name", text(before, &GuildRole::name), text(after, &GuildRole::name)));
  add_change(entry, audit_json_change("permissions", bits(before), bits(after)));
  add_change(entry,
             audit_change("color", number(before, &GuildRole::color), number(after, &GuildRole::color)));
  add_change(entry,
             audit_json_change("hoist", flag(before, &GuildRole::hoist), flag(after, &GuildRole::hoist)));
  add_change(entry, audit_json_change("mentionable", flag(before, &GuildRole::mentionable),
                                      flag(after, &GuildRole::mentionable)));
  const auto optional_text = [](const GuildRole* role, std::optional<std::string> GuildRole::*member) {
    return role != nullptr ? role->*member : std::nullopt;
  };
  add_change(entry, audit_change("icon_hash", optional_text(before, &GuildRole::icon),
                                 optional_text(after, &GuildRole::icon)));
  add_change(entry, audit_change("unicode_emoji", optional_text(before, &GuildRole::unicode_emoji),
                                 optional_text(after, &GuildRole::unicode_emoji)));
  return entry;
}

}  // namespace

void GuildModule::register_role_routes() {
  // The literal route before the one with {role_id}.
  api_router_.add("GET", "/guilds/{guild_id}/roles/member-counts",
                  bind(&GuildModule::api_role_member_counts));
  api_router_.add("GET", "/guilds/{guild_id}/roles", bind(&GuildModule::api_list_roles));
  api_router_.add("GET", "/guilds/{guild_id}/roles/{role_id}", bind(&GuildModule::api_get_role));
  api_router_.add("POST", "/guilds/{guild_id}/roles", bind(&GuildModule::api_create_role));
  api_router_.add("PATCH", "/guilds/{guild_id}/roles", bind(&GuildModule::api_modify_role_positions));
  api_router_.add("PATCH", "/guilds/{guild_id}/roles/{role_id}", bind(&GuildModule::api_modify_role));
  api_router_.add("DELETE", "/guilds/{guild_id}/roles/{role_id}", bind(&GuildModule::api_delete_role));
}

std::variant<GuildModule::GuildCaller, HttpResponse> GuildModule::guild_caller(const RouteContext& context,
                                                                               std::uint64_t needs) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const Guild* guild = guilds_.find_guild(context.params.at("guild_id"));
  if (guild == nullptr) return unknown_guild();
  // The guild routes are a bot's: a user's OAuth2 token has no scope for them.
  if (principal->grant != nullptr || !guild->has_member(principal->user->id)) return missing_access();
  GuildCaller caller{guild, principal->user->id,
                     base_permissions(*guild, principal->user->id, clock_.now_ms())};
  if ((caller.permissions & needs) != needs) return missing_permissions();
  return caller;
}

void GuildModule::guild_dispatch(const Guild& guild, std::string_view type, const std::string& d_json) {
  std::vector<std::string> targets;
  for (const auto& [session_id, session] : gateway_.sessions()) {
    if (!guild.has_member(session.user_id)) continue;
    // A bot gets guild events on the shard of the guild, with the GUILDS intent.
    if (session.bot &&
        (!guild_in_shard(session, guild.id) || (session.intents & gateway_intent::kGuilds) == 0)) {
      continue;
    }
    targets.push_back(session_id);
  }
  for (const auto& session_id : targets)
    gateway_.dispatch(session_id, type, d_json);
}

void GuildModule::role_dispatch(const Guild& guild, std::string_view type, const GuildRole& role) {
  guild_dispatch(guild, type, to_json([&](JsonWriter& writer) {
                   writer.StartObject();
                   writer.Key("guild_id");
                   write_string(writer, guild.id);
                   writer.Key("role");
                   write_raw(writer, role_json(role), rapidjson::kObjectType);
                   writer.EndObject();
                 }));
}

HttpResponse GuildModule::api_list_roles(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& guild = *std::get<GuildCaller>(found).guild;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto* role : sorted_roles(guild))
                                write_raw(writer, role_json(*role), rapidjson::kObjectType);
                              writer.EndArray();
                            }));
}

HttpResponse GuildModule::api_get_role(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto* role = std::get<GuildCaller>(found).guild->find_role(context.params.at("role_id"));
  if (role == nullptr) return unknown_role();
  return HttpResponse::json(200, role_json(*role));
}

HttpResponse GuildModule::api_role_member_counts(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& guild = *std::get<GuildCaller>(found).guild;
  std::map<std::string, std::size_t> counts;
  for (const auto& role : guild.roles) {
    if (role.id != guild.id) counts[role.id] = 0;  // @everyone is not counted (the platform's docs)
  }
  for (const auto& [user_id, member] : guild.members) {
    for (const auto& role_id : member.roles) {
      if (const auto it = counts.find(role_id); it != counts.end()) ++it->second;
    }
  }
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              for (const auto& [role_id, count] : counts) {
                                writer.Key(role_id.c_str(), static_cast<rapidjson::SizeType>(role_id.size()));
                                writer.Uint64(count);
                              }
                              writer.EndObject();
                            }));
}

std::optional<HttpResponse> GuildModule::read_role_fields(const rapidjson::Value& body,
                                                          const GuildCaller& caller, GuildRole& role,
                                                          FieldErrors& errors) {
  BodyFields fields(body, errors);
  const bool everyone = role.id == caller.guild->id;
  if (auto name = read_name(fields, 1, 100, false)) {
    if (everyone) {
      fields.add_issue("name", {"ROLE_NAME_IMMUTABLE", "@everyone cannot be renamed"});
    } else {
      role.name = std::move(*name);
    }
  }
  if (auto bits = read_permission_bits(fields, "permissions")) {
    // A caller grants only what it has (administrators and the owner have everything).
    const auto added = *bits & ~role.permissions;
    if ((added & ~caller.permissions) != 0) return missing_permissions();
    role.permissions = *bits;
  }
  if (const auto color = fields.integer("color", false, 0, kColorMax)) role.color = *color;
  if (const auto* colors = fields.value("colors", false)) {
    if (!colors->IsObject()) {
      fields.add_issue("colors", {"MODEL_TYPE_CONVERT", "Must be an object"});
    } else {
      FieldErrors color_errors;
      BodyFields parts(*colors, color_errors);
      const auto primary = parts.integer("primary_color", false, 0, kColorMax);
      const auto secondary = parts.integer("secondary_color", false, 0, kColorMax);
      const auto tertiary = parts.integer("tertiary_color", false, 0, kColorMax);
      if ((secondary || tertiary) && !has_feature(*caller.guild, "ENHANCED_ROLE_COLORS")) {
        parts.add_issue(secondary ? "secondary_color" : "tertiary_color",
                        feature_issue("ENHANCED_ROLE_COLORS"));
      }
      if (tertiary && !secondary) parts.add_issue("secondary_color", required_field_issue());
      if (!color_errors.empty()) {
        // Field errors of `colors` stand under it.
        return invalid_form_body(std::move(color_errors).nested_under("colors"));
      }
      if (tertiary) {
        role.color = kHolographicPrimary;
        role.secondary_color = kHolographicSecondary;
        role.tertiary_color = kHolographicTertiary;
      } else {
        if (primary) role.color = *primary;
        role.secondary_color = secondary;
        role.tertiary_color.reset();
      }
    }
  }
  if (const auto hoist = fields.boolean("hoist", false)) role.hoist = *hoist;
  if (const auto mentionable = fields.boolean("mentionable", false)) role.mentionable = *mentionable;
  for (const char* icon_field : {"icon", "unicode_emoji"}) {
    if (!body.HasMember(icon_field)) continue;
    const auto& value = body[icon_field];
    if (!has_feature(*caller.guild, "ROLE_ICONS")) {
      fields.add_issue(icon_field, feature_issue("ROLE_ICONS"));
      continue;
    }
    auto& target = std::string_view(icon_field) == "icon" ? role.icon : role.unicode_emoji;
    if (value.IsNull()) {
      target.reset();
    } else if (!value.IsString()) {
      fields.add_issue(icon_field, {"BASE_TYPE_STRING", "Must be a string."});
    } else if (std::string_view(icon_field) == "icon") {
      // Image data (a data: URI); the platform keeps a hash of the image.
      if (std::string_view(value.GetString()).substr(0, 11) != "data:image/") {
        fields.add_issue("icon", {"IMAGE_INVALID", "Invalid image data"});
      } else {
        target = image_hash({value.GetString(), value.GetStringLength()});
      }
    } else {
      target = std::string(value.GetString(), value.GetStringLength());
    }
  }
  return std::nullopt;
}

HttpResponse GuildModule::api_create_role(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageRoles);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  auto& guild = *guilds_.find_guild_mutable(caller.guild->id);
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  GuildRole role;
  role.name = "new role";
  const auto* everyone = guild.find_role(guild.id);
  role.permissions = everyone != nullptr ? everyone->permissions : 0;  // the default: @everyone's
  FieldErrors errors;
  if (auto refused = read_role_fields(body, caller, role, errors)) return std::move(*refused);
  if (!errors.empty()) return invalid_form_body(errors);
  if (guild.roles.size() >= kRolesMax) {
    return error_response(400, kMaximumRoles, "Maximum number of guild roles reached (250)");
  }
  // A new role sorts just above @everyone; the others move up one.
  for (auto& other : guild.roles) {
    if (other.id != guild.id) ++other.position;
  }
  role.position = 1;
  role.id = snowflakes_.next_string();
  guild.roles.push_back(role);
  role_dispatch(guild, "GUILD_ROLE_CREATE", guild.roles.back());
  audit(guild, context.request, caller.user_id,
        role_audit_entry(audit_action::kRoleCreate, nullptr, &guild.roles.back()));
  return HttpResponse::json(200, role_json(guild.roles.back()));
}

HttpResponse GuildModule::api_modify_role(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageRoles);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  auto& guild = *guilds_.find_guild_mutable(caller.guild->id);
  const auto it = std::find_if(guild.roles.begin(), guild.roles.end(),
                               [&](const GuildRole& r) { return r.id == context.params.at("role_id"); });
  if (it == guild.roles.end()) return unknown_role();
  // @everyone is below everyone; any other role must be below the caller's highest.
  if (it->id != guild.id && !above_role(guild, caller.user_id, *it)) return missing_permissions();
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  GuildRole changed = *it;
  FieldErrors errors;
  if (auto refused = read_role_fields(body, caller, changed, errors)) return std::move(*refused);
  if (!errors.empty()) return invalid_form_body(errors);
  auto entry = role_audit_entry(audit_action::kRoleUpdate, &*it, &changed);
  *it = std::move(changed);
  role_dispatch(guild, "GUILD_ROLE_UPDATE", *it);
  if (!entry.changes.empty()) audit(guild, context.request, caller.user_id, std::move(entry));
  return HttpResponse::json(200, role_json(*it));
}

HttpResponse GuildModule::api_modify_role_positions(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageRoles);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  auto& guild = *guilds_.find_guild_mutable(caller.guild->id);
  rapidjson::Document body;
  // parse_json: iterative, so that deeply nested input cannot exhaust the stack.
  if (!parse_json(context.request.body, body))
    return error_response(400, error_code::kInvalidJson, "The request body contains invalid JSON.");
  FieldErrors errors;
  if (!body.IsArray()) {
    errors.add({"_root"}, {"BASE_TYPE_ARRAY", "Must be an array"});
    return invalid_form_body(errors);
  }
  const int caller_highest = highest_role_position(guild, caller.user_id);
  std::map<std::string, int> moves;
  for (rapidjson::SizeType i = 0; i < body.Size(); ++i) {
    const auto index = std::to_string(i);
    const auto& entry = body[i];
    if (!entry.IsObject() || !entry.HasMember("id") || !entry["id"].IsString()) {
      errors.add({index, "id"}, required_field_issue());
      continue;
    }
    const std::string id = entry["id"].GetString();
    const auto* role = guild.find_role(id);
    if (role == nullptr || id == guild.id) {
      errors.add({index, "id"}, {"ROLE_INVALID", "Not a role of the guild that can move"});
      continue;
    }
    if (!entry.HasMember("position") || entry["position"].IsNull()) continue;
    if (!entry["position"].IsInt() || entry["position"].GetInt() < 1) {
      errors.add({index, "position"}, {"NUMBER_TYPE_MIN", "int value should be greater than or equal to 1."});
      continue;
    }
    const int position = entry["position"].GetInt();
    // The hierarchy: only roles below the caller's highest, only to places below it.
    if (!above_role(guild, caller.user_id, *role) || position >= caller_highest) return missing_permissions();
    moves[id] = position;
  }
  if (!errors.empty()) return invalid_form_body(errors);
  // The moved roles take their places; the others keep their order around them; positions become 1..n again.
  std::vector<GuildRole*> order;
  for (auto& role : guild.roles) {
    if (role.id != guild.id && !moves.contains(role.id)) order.push_back(&role);
  }
  std::sort(order.begin(), order.end(),
            [](const GuildRole* a, const GuildRole* b) { return role_below(*a, *b); });
  std::vector<std::pair<int, GuildRole*>> moved;
  for (auto& role : guild.roles) {
    if (const auto it = moves.find(role.id); it != moves.end()) moved.emplace_back(it->second, &role);
  }
  std::sort(moved.begin(), moved.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : role_below(*a.second, *b.second);
  });
  for (const auto& [position, role] : moved) {
    const auto at = std::min<std::size_t>(static_cast<std::size_t>(position - 1), order.size());
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(at), role);
  }
  std::vector<const GuildRole*> changed;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int position = static_cast<int>(i) + 1;
    if (order[i]->position != position) {
      AuditLogEntry entry;
      entry.action_type = audit_action::kRoleUpdate;
      entry.target_id = order[i]->id;
      add_change(entry, audit_change("position", std::optional<std::int64_t>(order[i]->position),
                                     std::optional<std::int64_t>(position)));
      order[i]->position = position;
      changed.push_back(order[i]);
      // Only the roles the caller moved leave an entry; the others shifted with them.
      if (moves.contains(order[i]->id)) audit(guild, context.request, caller.user_id, std::move(entry));
    }
  }
  for (const auto* role : changed)
    role_dispatch(guild, "GUILD_ROLE_UPDATE", *role);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto* role : sorted_roles(guild))
                                write_raw(writer, role_json(*role), rapidjson::kObjectType);
                              writer.EndArray();
                            }));
}

HttpResponse GuildModule::api_delete_role(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageRoles);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  auto& guild = *guilds_.find_guild_mutable(caller.guild->id);
  const auto& role_id = context.params.at("role_id");
  const auto* role = guild.find_role(role_id);
  if (role == nullptr) return unknown_role();
  if (role->id == guild.id || role->bot_id) return error_response(400, kInvalidRole, "Invalid Role");
  if (!above_role(guild, caller.user_id, *role)) return missing_permissions();
  auto entry = role_audit_entry(audit_action::kRoleDelete, role, nullptr);
  const int position = role->position;
  std::erase_if(guild.roles, [&](const GuildRole& r) { return r.id == role_id; });
  for (auto& other : guild.roles) {
    if (other.position > position) --other.position;
  }
  // Its members lose it, and the channels its overwrites.
  for (const auto& [user_id, member] : guild.members) {
    if (std::find(member.roles.begin(), member.roles.end(), role_id) == member.roles.end()) continue;
    GuildMember without = member;
    std::erase(without.roles, role_id);
    guilds_.set_member(guild.id, std::move(without));
  }
  for (auto& [channel_id, channel] : guild.channels) {
    std::erase_if(channel.permission_overwrites, [&](const PermissionOverwrite& overwrite) {
      return overwrite.type == overwrite_type::kRole && overwrite.id == role_id;
    });
  }
  guild_dispatch(guild, "GUILD_ROLE_DELETE", to_json([&](JsonWriter& writer) {
                   writer.StartObject();
                   writer.Key("guild_id");
                   write_string(writer, guild.id);
                   writer.Key("role_id");
                   write_string(writer, role_id);
                   writer.EndObject();
                 }));
  audit(guild, context.request, caller.user_id, std::move(entry));
  return HttpResponse::empty(204);
}

}  // namespace platformpp::emulator
