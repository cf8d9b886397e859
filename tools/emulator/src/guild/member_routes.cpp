// A guild's members through the API, as a bot manages them: get one, list (the GUILD_MEMBERS privileged
// intent), modify (nick, roles, a timeout, flags), the current member (nick, avatar, banner, bio), add and
// remove a role, and kick; each with the permission the platform names and its hierarchy (a bot acts only on
// members whose highest role is below its own, and assigns only roles below its own); GUILD_MEMBER_UPDATE and
// GUILD_MEMBER_REMOVE to the sessions with the GUILD_MEMBERS intent (users' sessions of the guild too).
//
// Errors: 404 Unknown Member (10007) and Unknown Role (10011); 403 (50013) for a missing permission, the
// hierarchy, a managed role, or a timeout of the owner or an administrator; 403 (50001) for the member list
// without the application's GUILD_MEMBERS intent; 400 (50035) for the rest.
#include <algorithm>
#include <charconv>
#include <utility>
#include <vector>

#include "core/form_encoding.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/user_json.hpp"
#include "core/validation.hpp"
#include "guild/guild_fields.hpp"
#include "guild/guild_json.hpp"
#include "guild/guild_module.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kUnknownMember = 10007;
constexpr std::size_t kNickMax = 32;
constexpr std::size_t kBioMax = 190;
constexpr std::int64_t kTimeoutMaxMs = 28LL * 24 * 60 * 60 * 1000;  // the platform's 28 days
constexpr std::int64_t kMemberListLimitMax = 1000;
// Guild member flag BYPASSES_VERIFICATION: the one flag others set on a member.
constexpr std::uint64_t kBypassesVerification = std::uint64_t{1} << 2;

HttpResponse unknown_member() {
  return error_response(404, kUnknownMember, "Unknown Member");
}

// Whether `actor` outranks `target` (the owner outranks everyone; nobody outranks the owner).
bool outranks(const Guild& guild, std::string_view actor, std::string_view target) {
  if (target == guild.owner_id) return false;
  return highest_role_position(guild, actor) > highest_role_position(guild, target);
}

// The platform's role partials of a MEMBER_ROLE_UPDATE change: [{id, name}].
std::string role_partials_json(const Guild& guild, const std::vector<std::string>& ids) {
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto& id : ids) {
      writer.StartObject();
      writer.Key("id");
      write_string(writer, id);
      writer.Key("name");
      const auto* role = guild.find_role(id);
      write_string(writer, role != nullptr ? role->name : std::string());
      writer.EndObject();
    }
    writer.EndArray();
  });
}

// The audit entries of a member's change: MEMBER_UPDATE with the profile fields that differ, and
// MEMBER_ROLE_UPDATE with the roles added ($add) and removed ($remove). None when nothing differs.
std::vector<AuditLogEntry> member_audit_entries(const Guild& guild, const GuildMember& before,
                                                const GuildMember& after) {
  std::vector<AuditLogEntry> entries;
  AuditLogEntry update;
  update.action_type = audit_action::kMemberUpdate;
  update.target_id = after.user_id;
  add_change(update, audit_change("nick", before.nick, after.nick));
  const auto timestamp = [](std::optional<std::int64_t> ms) {
    return ms ? std::optional(format_rfc3339_ms(*ms)) : std::nullopt;
  };
  add_change(update, audit_change("communication_disabled_until", timestamp(before.timeout_until_ms),
                                  timestamp(after.timeout_until_ms)));
  add_change(update, audit_change("flags", std::optional(static_cast<std::int64_t>(before.flags)),
                                  std::optional(static_cast<std::int64_t>(after.flags))));
  add_change(update, audit_change("avatar_hash", before.avatar, after.avatar));
  add_change(update, audit_change("banner_hash", before.banner, after.banner));
  add_change(update, audit_change("bio", before.bio, after.bio));
  if (!update.changes.empty()) entries.push_back(std::move(update));
  std::vector<std::string> added;
  std::vector<std::string> removed;
  for (const auto& id : after.roles) {
    if (std::find(before.roles.begin(), before.roles.end(), id) == before.roles.end()) added.push_back(id);
  }
  for (const auto& id : before.roles) {
    if (std::find(after.roles.begin(), after.roles.end(), id) == after.roles.end()) removed.push_back(id);
  }
  if (!added.empty() || !removed.empty()) {
    AuditLogEntry roles;
    roles.action_type = audit_action::kMemberRoleUpdate;
    roles.target_id = after.user_id;
    if (!added.empty()) roles.changes.push_back({"$add", std::nullopt, role_partials_json(guild, added)});
    if (!removed.empty())
      roles.changes.push_back({"$remove", std::nullopt, role_partials_json(guild, removed)});
    entries.push_back(std::move(roles));
  }
  return entries;
}

}  // namespace

void GuildModule::register_member_routes() {
  // The literal @me before {user_id}.
  api_router_.add("PATCH", "/guilds/{guild_id}/members/@me", bind(&GuildModule::api_modify_current_member));
  api_router_.add("GET", "/guilds/{guild_id}/members", bind(&GuildModule::api_list_members));
  api_router_.add("GET", "/guilds/{guild_id}/members/{user_id}", bind(&GuildModule::api_get_member));
  api_router_.add("PATCH", "/guilds/{guild_id}/members/{user_id}", bind(&GuildModule::api_modify_member));
  api_router_.add("DELETE", "/guilds/{guild_id}/members/{user_id}", bind(&GuildModule::api_remove_member));
  api_router_.add("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
                  bind(&GuildModule::api_add_member_role));
  api_router_.add("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
                  bind(&GuildModule::api_remove_member_role));
  api_router_.add("GET", "/guilds/{guild_id}/prune", bind(&GuildModule::api_prune_count));
  api_router_.add("POST", "/guilds/{guild_id}/prune", bind(&GuildModule::api_begin_prune));
}

std::string GuildModule::member_json_of(const GuildMember& member) const {
  const auto* user = state_.find_user(member.user_id);
  return user != nullptr ? guild_member_json(member, *user) : "{}";
}

void GuildModule::member_dispatch(const Guild& guild, std::string_view type, const GuildMember& member) {
  const auto* user = state_.find_user(member.user_id);
  if (user == nullptr) return;
  std::string d;
  if (type == "GUILD_MEMBER_REMOVE") {
    d = to_json([&](JsonWriter& writer) {
      writer.StartObject();
      writer.Key("guild_id");
      write_string(writer, guild.id);
      writer.Key("user");
      write_raw(writer, user_json(*user), rapidjson::kObjectType);
      writer.EndObject();
    });
  } else {
    rapidjson::Document object;
    const auto json = guild_member_json(member, *user);
    parse_stored_json(json, object);
    object.AddMember("guild_id", rapidjson::Value(guild.id.c_str(), object.GetAllocator()),
                     object.GetAllocator());
    d = json_text(object);
  }
  std::vector<std::string> targets;
  for (const auto& [session_id, session] : gateway_.sessions()) {
    // The member removed still hears of it; the others must be in the guild.
    if (!guild.has_member(session.user_id) && session.user_id != member.user_id) continue;
    if (session.bot &&
        (!guild_in_shard(session, guild.id) || (session.intents & gateway_intent::kGuildMembers) == 0)) {
      continue;  // GUILD_MEMBERS is the privileged intent of these events
    }
    targets.push_back(session_id);
  }
  for (const auto& session_id : targets)
    gateway_.dispatch(session_id, type, d);
}

HttpResponse GuildModule::api_get_member(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto* member = std::get<GuildCaller>(found).guild->find_member(context.params.at("user_id"));
  if (member == nullptr) return unknown_member();
  return HttpResponse::json(200, member_json_of(*member));
}

HttpResponse GuildModule::api_list_members(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& guild = *std::get<GuildCaller>(found).guild;
  const auto principal = authenticate(context.request);
  // The platform's docs: this route needs the GUILD_MEMBERS privileged intent (the application's switch).
  if (principal->application == nullptr || !principal->application->intent_guild_members)
    return missing_access();
  const auto query = FormFields::parse(query_of(context.request));
  FieldErrors errors;
  std::int64_t limit = 1;
  std::uint64_t after = 0;
  if (query) {
    if (const auto text = query->get("limit")) {
      const char* end = text->data() + text->size();
      if (std::from_chars(text->data(), end, limit).ptr != end || limit < 1 || limit > kMemberListLimitMax) {
        errors.add({"limit"}, {"NUMBER_TYPE_MAX", "int value should be between 1 and 1000."});
      }
    }
    if (const auto text = query->get("after")) {
      const char* end = text->data() + text->size();
      if (std::from_chars(text->data(), end, after).ptr != end) {
        errors.add({"after"}, {"NUMBER_TYPE_COERCE", "Value is not snowflake."});
      }
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  std::vector<std::pair<std::uint64_t, const GuildMember*>> members;
  for (const auto& [user_id, member] : guild.members) {
    std::uint64_t id = 0;
    std::from_chars(user_id.data(), user_id.data() + user_id.size(), id);
    if (id > after) members.emplace_back(id, &member);
  }
  std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (members.size() > static_cast<std::size_t>(limit)) members.resize(static_cast<std::size_t>(limit));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto& [id, member] : members)
                                write_raw(writer, member_json_of(*member), rapidjson::kObjectType);
                              writer.EndArray();
                            }));
}

std::optional<HttpResponse> GuildModule::assign_roles(const GuildCaller& caller, const GuildMember& before,
                                                      const std::vector<std::string>& roles) {
  const auto& guild = *caller.guild;
  if (!has_permissions(caller.permissions, permission::kManageRoles)) return missing_permissions();
  // Every role added or removed must be below the caller's highest, and not a bot's managed role.
  std::vector<std::string> touched;
  for (const auto& id : roles) {
    if (std::find(before.roles.begin(), before.roles.end(), id) == before.roles.end()) touched.push_back(id);
  }
  for (const auto& id : before.roles) {
    if (std::find(roles.begin(), roles.end(), id) == roles.end()) touched.push_back(id);
  }
  for (const auto& id : touched) {
    const auto* role = guild.find_role(id);
    if (role == nullptr || id == guild.id)
      return error_response(404, error_code::kUnknownRole, "Unknown Role");
    if (role->bot_id || !above_role(guild, caller.user_id, *role)) return missing_permissions();
  }
  return std::nullopt;
}

HttpResponse GuildModule::api_modify_member(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto& guild = *caller.guild;
  const auto* existing = guild.find_member(context.params.at("user_id"));
  if (existing == nullptr) return unknown_member();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  GuildMember member = *existing;
  const bool self = member.user_id == caller.user_id;
  if (body.HasMember("nick")) {
    // Another's nick: MANAGE_NICKNAMES and the hierarchy; one's own: CHANGE_NICKNAME.
    if (self ? !has_permissions(caller.permissions, permission::kChangeNickname)
             : !has_permissions(caller.permissions, permission::kManageNicknames) ||
                   !outranks(guild, caller.user_id, member.user_id)) {
      return missing_permissions();
    }
    if (body["nick"].IsNull()) {
      member.nick.reset();
    } else if (auto nick = fields.string("nick", false)) {
      if (utf8_length(*nick) > kNickMax) fields.add_issue("nick", length_issue(0, kNickMax));
      member.nick = nick->empty() ? std::nullopt : std::optional(std::move(*nick));
    }
  }
  if (const auto* roles = fields.value("roles", false)) {
    std::vector<std::string> ids;
    if (!roles->IsArray()) {
      fields.add_issue("roles", {"BASE_TYPE_ARRAY", "Must be an array"});
    } else {
      for (const auto& id : roles->GetArray()) {
        if (id.IsString()) ids.emplace_back(id.GetString(), id.GetStringLength());
      }
      if (ids.size() != roles->Size())
        fields.add_issue("roles", {"BASE_TYPE_STRING", "Role ids are strings"});
    }
    if (!errors.empty()) return invalid_form_body(errors);
    if (auto refused = assign_roles(caller, member, ids)) return std::move(*refused);
    member.roles = std::move(ids);
  }
  if (body.HasMember("communication_disabled_until")) {
    if (!has_permissions(caller.permissions, permission::kModerateMembers) ||
        !outranks(guild, caller.user_id, member.user_id)) {
      return missing_permissions();
    }
    // The owner and administrators cannot be timed out (the platform's docs: a 403).
    if ((base_permissions(guild, member.user_id) & permission::kAdministrator) != 0)
      return missing_permissions();
    const auto& value = body["communication_disabled_until"];
    if (value.IsNull()) {
      member.timeout_until_ms.reset();
    } else {
      const auto until = value.IsString() ? parse_rfc3339(value.GetString()) : std::nullopt;
      if (!until) {
        fields.add_issue("communication_disabled_until",
                         {"DATE_TIME_TYPE_PARSE", "Could not parse the timestamp."});
      } else if (*until - clock_.now_ms() > kTimeoutMaxMs) {
        fields.add_issue("communication_disabled_until",
                         {"COMMUNICATION_DISABLED_TIMESTAMP_TOO_LARGE", "A timeout lasts at most 28 days."});
      } else {
        member.timeout_until_ms = *until;
      }
    }
  }
  if (const auto flags = fields.integer("flags", false, 0, std::numeric_limits<std::int32_t>::max())) {
    // The updated rule: MANAGE_GUILD, or MANAGE_ROLES, or MODERATE_MEMBERS with KICK_MEMBERS and BAN_MEMBERS.
    const bool allowed =
        has_permissions(caller.permissions, permission::kManageGuild) ||
        has_permissions(caller.permissions, permission::kManageRoles) ||
        has_permissions(caller.permissions,
                        permission::kModerateMembers | permission::kKickMembers | permission::kBanMembers);
    if (!allowed) return missing_permissions();
    const auto requested = static_cast<std::uint64_t>(*flags);
    member.flags = (member.flags & ~kBypassesVerification) | (requested & kBypassesVerification);
  }
  if (!errors.empty()) return invalid_form_body(errors);
  auto entries = member_audit_entries(guild, *existing, member);
  guilds_.set_member(guild.id, member);
  const auto* kept = guilds_.find_guild(guild.id)->find_member(member.user_id);
  member_dispatch(guild, "GUILD_MEMBER_UPDATE", *kept);
  for (auto& entry : entries)
    audit(guild, context.request, caller.user_id, std::move(entry));
  // AutoMod reads the changed profile (it may quarantine the member, or lift a quarantine).
  check_member_profile(guild.id, member.user_id);
  return HttpResponse::json(200, member_json_of(*guilds_.find_guild(guild.id)->find_member(member.user_id)));
}

HttpResponse GuildModule::api_modify_current_member(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto& guild = *caller.guild;
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  GuildMember member = *guild.find_member(caller.user_id);
  if (body.HasMember("nick")) {
    if (!has_permissions(caller.permissions, permission::kChangeNickname)) return missing_permissions();
    if (body["nick"].IsNull()) {
      member.nick.reset();
    } else if (auto nick = fields.string("nick", false)) {
      if (utf8_length(*nick) > kNickMax) fields.add_issue("nick", length_issue(0, kNickMax));
      member.nick = nick->empty() ? std::nullopt : std::optional(std::move(*nick));
    }
  }
  // A bot's guild profile (the seed: banner, avatar and bio for bots).
  for (const char* image : {"avatar", "banner"}) {
    if (!body.HasMember(image)) continue;
    auto& target = std::string_view(image) == "avatar" ? member.avatar : member.banner;
    const auto& value = body[image];
    if (value.IsNull()) {
      target.reset();
    } else if (!value.IsString() || std::string_view(value.GetString()).substr(0, 11) != "data:image/") {
      fields.add_issue(image, {"IMAGE_INVALID", "Invalid image data"});
    } else {
      target = image_hash({value.GetString(), value.GetStringLength()});
    }
  }
  if (body.HasMember("bio")) {
    if (body["bio"].IsNull()) {
      member.bio.reset();
    } else if (auto bio = fields.string("bio", false)) {
      if (utf8_length(*bio) > kBioMax) fields.add_issue("bio", length_issue(0, kBioMax));
      member.bio = std::move(*bio);
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  auto entries = member_audit_entries(guild, *guild.find_member(caller.user_id), member);
  guilds_.set_member(guild.id, member);
  const auto* kept = guilds_.find_guild(guild.id)->find_member(member.user_id);
  member_dispatch(guild, "GUILD_MEMBER_UPDATE", *kept);
  for (auto& entry : entries)
    audit(guild, context.request, caller.user_id, std::move(entry));
  // AutoMod reads the changed profile (it may quarantine the member, or lift a quarantine).
  check_member_profile(guild.id, member.user_id);
  return HttpResponse::json(200, member_json_of(*guilds_.find_guild(guild.id)->find_member(member.user_id)));
}

HttpResponse GuildModule::change_member_role(const RouteContext& context, bool add) {
  auto found = guild_caller(context, permission::kManageRoles);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto& guild = *caller.guild;
  const auto* existing = guild.find_member(context.params.at("user_id"));
  if (existing == nullptr) return unknown_member();
  const auto& role_id = context.params.at("role_id");
  GuildMember member = *existing;
  const bool has_role = std::find(member.roles.begin(), member.roles.end(), role_id) != member.roles.end();
  std::vector<std::string> roles = member.roles;
  if (add && !has_role) roles.push_back(role_id);
  if (!add) std::erase(roles, role_id);
  if (guild.find_role(role_id) == nullptr || role_id == guild.id) {
    return error_response(404, error_code::kUnknownRole, "Unknown Role");
  }
  if (auto refused = assign_roles(caller, member, roles)) return std::move(*refused);
  if (roles == member.roles) return HttpResponse::empty(204);  // nothing changes: no event
  const GuildMember before = member;
  member.roles = std::move(roles);
  auto entries = member_audit_entries(guild, before, member);
  guilds_.set_member(guild.id, member);
  member_dispatch(guild, "GUILD_MEMBER_UPDATE", *guilds_.find_guild(guild.id)->find_member(member.user_id));
  for (auto& entry : entries)
    audit(guild, context.request, caller.user_id, std::move(entry));
  return HttpResponse::empty(204);
}

HttpResponse GuildModule::api_add_member_role(const RouteContext& context) {
  return change_member_role(context, true);
}

HttpResponse GuildModule::api_remove_member_role(const RouteContext& context) {
  return change_member_role(context, false);
}

HttpResponse GuildModule::api_remove_member(const RouteContext& context) {
  auto found = guild_caller(context, permission::kKickMembers);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto& guild = *caller.guild;
  const auto* existing = guild.find_member(context.params.at("user_id"));
  if (existing == nullptr) return unknown_member();
  if (!outranks(guild, caller.user_id, existing->user_id)) return missing_permissions();
  const GuildMember gone = *existing;
  leave_voice(guild.id, gone.user_id);  // a member who leaves the guild leaves its voice channel
  guilds_.remove_member(guild.id, gone.user_id);
  const auto& after = *guilds_.find_guild(guild.id);
  member_dispatch(after, "GUILD_MEMBER_REMOVE", gone);
  AuditLogEntry entry;
  entry.action_type = audit_action::kMemberKick;
  entry.target_id = gone.user_id;
  audit(after, context.request, caller.user_id, std::move(entry));
  return HttpResponse::empty(204);
}

// Prune: members inactive for `days` (1..30) with no roles, or only roles of `include_roles`. The platform
// counts a member's last activity; the emulator keeps no activity history, so a member is inactive when none
// of their Gateway sessions is live and they joined more than `days` ago. Never the owner or the caller.
std::vector<std::string> GuildModule::prunable(const Guild& guild, const std::string& caller,
                                               std::int64_t days,
                                               const std::vector<std::string>& include_roles) const {
  std::vector<std::string> members;
  const auto cutoff = clock_.now_ms() - days * 24 * 60 * 60 * 1000;
  for (const auto& [user_id, member] : guild.members) {
    if (user_id == guild.owner_id || user_id == caller || member.joined_at_ms > cutoff) continue;
    if (!gateway_.sessions_of_user(user_id).empty()) continue;
    const bool only_included =
        std::all_of(member.roles.begin(), member.roles.end(), [&](const std::string& id) {
          return std::find(include_roles.begin(), include_roles.end(), id) != include_roles.end();
        });
    if (only_included) members.push_back(user_id);
  }
  return members;
}

namespace {

constexpr std::int64_t kPruneDaysDefault = 7;
constexpr std::int64_t kPruneDaysMax = 30;

// `days` 1..30 (an issue otherwise).
std::int64_t prune_days(std::optional<std::int64_t> days, FieldErrors& errors) {
  if (!days) return kPruneDaysDefault;
  if (*days < 1 || *days > kPruneDaysMax) {
    errors.add({"days"}, {"NUMBER_TYPE_MAX", "int value should be between 1 and 30."});
  }
  return *days;
}

}  // namespace

HttpResponse GuildModule::api_prune_count(const RouteContext& context) {
  // The seed: MANAGE_GUILD in addition to KICK_MEMBERS.
  auto found = guild_caller(context, permission::kManageGuild | permission::kKickMembers);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto query = FormFields::parse(query_of(context.request));
  FieldErrors errors;
  std::optional<std::int64_t> days;
  std::vector<std::string> include_roles;
  if (query) {
    if (const auto text = query->get("days")) {
      std::int64_t value = 0;
      const char* end = text->data() + text->size();
      if (std::from_chars(text->data(), end, value).ptr != end) {
        errors.add({"days"}, {"NUMBER_TYPE_COERCE", "Value is not int."});
      } else {
        days = value;
      }
    }
    if (const auto roles = query->get("include_roles")) {
      std::string_view rest = *roles;
      while (!rest.empty()) {
        const auto comma = rest.find(',');
        include_roles.emplace_back(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
    }
  }
  const auto n = prune_days(days, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  const auto count = prunable(*caller.guild, caller.user_id, n, include_roles).size();
  return HttpResponse::json(200, R"({"pruned":)" + std::to_string(count) + "}");
}

HttpResponse GuildModule::api_begin_prune(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageGuild | permission::kKickMembers);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto n = prune_days(fields.integer("days", false), errors);
  const bool compute = fields.boolean("compute_prune_count", false).value_or(true);
  std::vector<std::string> include_roles;
  if (const auto* roles = fields.value("include_roles", false)) {
    if (!roles->IsArray()) {
      fields.add_issue("include_roles", {"BASE_TYPE_ARRAY", "Must be an array"});
    } else {
      for (const auto& id : roles->GetArray()) {
        if (id.IsString()) include_roles.emplace_back(id.GetString(), id.GetStringLength());
      }
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  const auto guild_id = caller.guild->id;
  const auto pruned = prunable(*caller.guild, caller.user_id, n, include_roles);
  for (const auto& user_id : pruned) {
    const GuildMember gone = *guilds_.find_guild(guild_id)->find_member(user_id);
    leave_voice(guild_id, user_id);
    guilds_.remove_member(guild_id, user_id);
    member_dispatch(*guilds_.find_guild(guild_id), "GUILD_MEMBER_REMOVE", gone);
  }
  AuditLogEntry entry;
  entry.action_type = audit_action::kMemberPrune;
  entry.options = {{"delete_member_days", std::to_string(n)},
                   {"members_removed", std::to_string(pruned.size())}};
  audit(*guilds_.find_guild(guild_id), context.request, caller.user_id, std::move(entry));
  return HttpResponse::json(200, compute ? R"({"pruned":)" + std::to_string(pruned.size()) + "}"
                                         : std::string(R"({"pruned":null})"));
}

}  // namespace platformpp::emulator
