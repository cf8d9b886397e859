// Guild invites through the API (docs/http-api.md, "Invites"): Create Channel Invite (CREATE_INSTANT_INVITE;
// max_age 0..604800, default 86400; max_uses 0..100; temporary; unique; target_type; role_ids with
// MANAGE_ROLES; target_users_file with MANAGE_GUILD, JSON or multipart/form-data with payload_json), Get
// Channel Invites (MANAGE_CHANNELS; role partials of exactly id, name, position, color, colors, icon,
// unicode_emoji), Get Invite (with_counts), Delete Invite (MANAGE_CHANNELS on its channel or MANAGE_GUILD),
// Accept Invite (the lobbies' single-use invites too), and the target users: Get (CSV, header `user_id`),
// Update (a new file), and the job that processes a file on the fake clock. INVITE_CREATE and INVITE_DELETE
// to the bots with GUILD_INVITES and MANAGE_CHANNELS; audit entries 40, 41 and 42; GUILD_MEMBER_ADD on
// accept.
//
// Errors: 404 Unknown Channel (10003), Unknown Invite (10006: also an invite the caller may not see: a
// targeted one for someone not among its users, a lobby's for anyone but its member), Unknown Role (10011),
// 10124 (no target-users job) and 10129 (no target users); 403 Missing Access (50001) for a caller that is
// not a bot in the guild, or (Accept) not a user's OAuth2 token of a full account; 403 Missing Permissions
// (50013); 400 (50035) for the rest, the invalid lines of a target-users file among them.
#include <algorithm>
#include <utility>
#include <vector>

#include "core/form_encoding.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/multipart_form.hpp"
#include "core/random_token.hpp"
#include "core/user_json.hpp"
#include "guild/guild_fields.hpp"
#include "guild/guild_json.hpp"
#include "guild/guild_module.hpp"
#include "guild/permissions.hpp"
#include "guild/target_users_csv.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kUnknownInvite = 10006;
constexpr int kUnknownTargetUsersJob = 10124;
constexpr int kUnknownTargetUsers = 10129;
constexpr std::int64_t kMaxAgeDefault = 86400;
constexpr std::int64_t kMaxAgeMax = 604800;  // 7 days (the platform's docs)
constexpr std::int64_t kMaxUsesMax = 100;
constexpr std::size_t kRoleIdsMax = 250;
constexpr int kTargetStream = 1;
constexpr int kTargetEmbeddedApplication = 2;
constexpr std::uint64_t kApplicationEmbeddedFlag = std::uint64_t{1} << 17;
constexpr std::size_t kInviteCodeBytes = 6;  // 8 characters

HttpResponse unknown_invite() {
  return error_response(404, kUnknownInvite, "Unknown Invite");
}

bool contains(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// The request's body: JSON, or multipart/form-data with payload_json (JSON) and target_users_file.
std::optional<HttpResponse> read_invite_body(const HttpRequest& request, rapidjson::Document& body,
                                             std::optional<std::string>& file) {
  const auto content_type = request.header("Content-Type");
  const auto boundary = content_type ? multipart_boundary(*content_type) : std::nullopt;
  if (!boundary) return read_json_object(request, body);
  auto parts = parse_multipart_form(request.body, *boundary);
  if (!parts) return error_response(400, error_code::kInvalidFormBody, "Invalid multipart body");
  body.SetObject();
  for (auto& part : *parts) {
    if (part.name == "payload_json") {
      // parse_json: iterative, so that deeply nested input cannot exhaust the stack.
      if (!parse_json(part.body, body) || !body.IsObject())
        return error_response(400, error_code::kInvalidJson, "The request body contains invalid JSON.");
    } else if (part.name == "target_users_file") {
      file = std::move(part.body);
    }  // other parts: ignored, as the platform ignores parts it does not know
  }
  return std::nullopt;
}

// The role partial of invites: exactly these fields (the platform's docs).
void write_role_partial(JsonWriter& writer, const GuildRole& role) {
  writer.StartObject();
  writer.Key("id");
  write_string(writer, role.id);
  writer.Key("name");
  write_string(writer, role.name);
  writer.Key("position");
  writer.Int(role.position);
  writer.Key("color");
  writer.Int64(role.color);
  writer.Key("colors");
  writer.StartObject();
  writer.Key("primary_color");
  writer.Int64(role.color);
  writer.Key("secondary_color");
  role.secondary_color ? writer.Int64(*role.secondary_color) : writer.Null();
  writer.Key("tertiary_color");
  role.tertiary_color ? writer.Int64(*role.tertiary_color) : writer.Null();
  writer.EndObject();
  writer.Key("icon");
  write_optional_string(writer, role.icon);
  writer.Key("unicode_emoji");
  write_optional_string(writer, role.unicode_emoji);
  writer.EndObject();
}

std::string ids_json(const std::vector<std::string>& ids) {
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto& id : ids)
      write_string(writer, id);
    writer.EndArray();
  });
}

// The audit changes of an invite's creation (`created`) or deletion: the platform's keys for invites.
void add_invite_changes(AuditLogEntry& entry, const GuildInvite& invite, bool created) {
  const auto side = [&](auto value) {
    using T = decltype(value);
    return created ? std::pair<std::optional<T>, std::optional<T>>{std::nullopt, value}
                   : std::pair<std::optional<T>, std::optional<T>>{value, std::nullopt};
  };
  const auto text = [&](const char* key, const std::optional<std::string>& value) {
    if (!value) return;
    const auto [before, after] = side(*value);
    add_change(entry, audit_change(key, before, after));
  };
  const auto number = [&](const char* key, std::int64_t value) {
    const auto [before, after] = side(value);
    add_change(entry, audit_change(key, before, after));
  };
  text("code", invite.code);
  text("channel_id", invite.channel_id);
  text("inviter_id", invite.inviter_id);
  number("uses", invite.uses);
  number("max_uses", invite.max_uses);
  number("max_age", invite.max_age_s);
  {
    const std::optional<std::string> flag = invite.temporary ? "true" : "false";
    add_change(entry,
               audit_json_change("temporary", created ? std::nullopt : flag, created ? flag : std::nullopt));
  }
  if (!invite.role_ids.empty()) {
    const auto roles = ids_json(invite.role_ids);
    add_change(entry, audit_json_change("role_ids", created ? std::nullopt : std::optional(roles),
                                        created ? std::optional(roles) : std::nullopt));
  }
}

}  // namespace

void GuildModule::register_invite_routes() {
  api_router_.add("GET", "/channels/{channel_id}/invites", bind(&GuildModule::api_get_channel_invites));
  api_router_.add("POST", "/channels/{channel_id}/invites", bind(&GuildModule::api_create_channel_invite));
  // The longer literal routes before the shorter ones (each is its own length: order only for clarity).
  api_router_.add("GET", "/invites/{code}/target-users/job-status",
                  bind(&GuildModule::api_get_target_users_job));
  api_router_.add("GET", "/invites/{code}/target-users", bind(&GuildModule::api_get_target_users));
  api_router_.add("PUT", "/invites/{code}/target-users", bind(&GuildModule::api_update_target_users));
  api_router_.add("GET", "/invites/{code}", bind(&GuildModule::api_get_invite));
  api_router_.add("DELETE", "/invites/{code}", bind(&GuildModule::api_delete_invite));
  api_router_.add("POST", "/invites/{code}", bind(&GuildModule::api_accept_invite));
}

void GuildModule::tick() {
  invites_.settle_jobs(clock_.now_ms());
}

std::variant<GuildModule::InviteCaller, HttpResponse> GuildModule::invite_caller(
    const RouteContext& context, std::string_view channel_id) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto [guild, channel] = guilds_.find_channel(channel_id);
  if (guild == nullptr || channel == nullptr) return unknown_channel();
  // The guild routes are a bot's: a user's OAuth2 token has no scope for them.
  if (principal->grant != nullptr || !guild->has_member(principal->user->id)) return missing_access();
  InviteCaller caller;
  caller.guild = guild;
  caller.channel = channel;
  caller.user_id = principal->user->id;
  const auto now = clock_.now_ms();
  caller.permissions = channel_permissions(*guild, *channel, caller.user_id, now);
  caller.guild_permissions = base_permissions(*guild, caller.user_id, now);
  if (!has_permissions(caller.permissions, permission::kViewChannel)) return missing_access();
  return caller;
}

GuildModule::FoundInvite GuildModule::find_live_invite(std::string_view code) {
  const auto now = clock_.now_ms();
  invites_.settle_jobs(now);
  invites_.prune(now);
  FoundInvite found;
  const auto* invite = invites_.find(code);
  if (invite == nullptr) return found;
  const auto [guild, channel] = guilds_.find_channel(invite->channel_id);
  // An invite to a channel (or guild) that is gone leads nowhere.
  if (guild == nullptr || channel == nullptr || guild->id != invite->guild_id) return found;
  found.invite = invite;
  found.guild = guild;
  found.channel = channel;
  return found;
}

std::string GuildModule::invite_json(const GuildInvite& invite, const Guild& guild,
                                     const GuildChannel& channel, bool metadata, bool counts) const {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("type");
    writer.Int(0);  // GUILD
    writer.Key("code");
    write_string(writer, invite.code);
    writer.Key("guild");
    writer.StartObject();
    write_guild_summary(writer, guild);
    write_guild_features(writer, guild);
    for (const char* absent : {"splash", "description", "vanity_url_code"}) {
      writer.Key(absent);
      writer.Null();
    }
    for (const char* zero : {"verification_level", "nsfw_level", "premium_subscription_count"}) {
      writer.Key(zero);
      writer.Int(0);
    }
    writer.Key("nsfw");
    writer.Bool(false);
    writer.EndObject();
    writer.Key("guild_id");
    write_string(writer, guild.id);
    writer.Key("channel");
    writer.StartObject();
    writer.Key("id");
    write_string(writer, channel.id);
    writer.Key("name");
    write_string(writer, channel.name);
    writer.Key("type");
    writer.Int(channel.type);
    writer.EndObject();
    if (invite.inviter_id) {
      if (const auto* inviter = state_.find_user(*invite.inviter_id)) {
        writer.Key("inviter");
        write_raw(writer, user_json(*inviter), rapidjson::kObjectType);
      }
    }
    if (invite.target_type) {
      writer.Key("target_type");
      writer.Int(*invite.target_type);
    }
    if (invite.target_application_id) {
      if (const auto* app = state_.find_application(*invite.target_application_id)) {
        writer.Key("target_application");
        writer.StartObject();
        writer.Key("id");
        write_string(writer, app->id);
        writer.Key("name");
        write_string(writer, app->name);
        writer.Key("icon");
        writer.Null();
        writer.Key("description");
        write_string(writer, "");
        writer.Key("flags");
        writer.Uint64(app->flags_31_bits());
        writer.EndObject();
      }
    }
    writer.Key("expires_at");
    if (const auto expires = invite.expires_ms()) {
      write_string(writer, format_rfc3339_ms(*expires));
    } else {
      writer.Null();
    }
    writer.Key("flags");
    writer.Int(0);
    if (!invite.role_ids.empty()) {
      writer.Key("roles");
      writer.StartArray();
      for (const auto& role_id : invite.role_ids) {
        if (const auto* role = guild.find_role(role_id)) write_role_partial(writer, *role);
      }
      writer.EndArray();
    }
    if (counts) {
      std::size_t present = 0;
      for (const auto& [user_id, member] : guild.members) {
        if (!gateway_.sessions_of_user(user_id).empty()) ++present;
      }
      writer.Key("approximate_member_count");
      writer.Uint64(guild.members.size());
      writer.Key("approximate_presence_count");
      writer.Uint64(present);
    }
    if (metadata) {
      writer.Key("uses");
      writer.Int64(invite.uses);
      writer.Key("max_uses");
      writer.Int64(invite.max_uses);
      writer.Key("max_age");
      writer.Int64(invite.max_age_s);
      writer.Key("temporary");
      writer.Bool(invite.temporary);
      writer.Key("created_at");
      write_string(writer, format_rfc3339_ms(invite.created_ms));
    }
    writer.EndObject();
  });
}

void GuildModule::invite_dispatch(std::string_view type, const Guild& guild, const GuildChannel& channel,
                                  const std::string& d_json) {
  const auto now = clock_.now_ms();
  std::vector<std::string> targets;
  for (const auto& [session_id, session] : gateway_.sessions()) {
    // The platform's docs: invite events go only to bots with MANAGE_CHANNELS on the channel.
    if (!session.bot || !guild.has_member(session.user_id) || !guild_in_shard(session, guild.id) ||
        (session.intents & gateway_intent::kGuildInvites) == 0 ||
        !has_permissions(channel_permissions(guild, channel, session.user_id, now),
                         permission::kManageChannels)) {
      continue;
    }
    targets.push_back(session_id);
  }
  for (const auto& session_id : targets)
    gateway_.dispatch(session_id, type, d_json);
}

std::optional<HttpResponse> GuildModule::start_target_users_job(GuildInvite& invite, std::string_view file) {
  auto parsed = parse_target_users_csv(file);
  if (!parsed.invalid_lines.empty()) {
    // The platform's docs: invalid user ids are refused at once (400), each described.
    FieldErrors errors;
    for (auto& line : parsed.invalid_lines)
      errors.add({"target_users_file"}, {"TARGET_USERS_FILE_INVALID_USER_ID", std::move(line)});
    return invalid_form_body(errors);
  }
  const auto now = clock_.now_ms();
  TargetUsersJob job;
  job.created_ms = now;
  job.ready_ms = now + target_users_processing_ms(parsed.rows);
  job.total_users = static_cast<std::int64_t>(parsed.user_ids.size());
  job.error_message = std::move(parsed.failure);
  if (!job.error_message) job.user_ids = std::move(parsed.user_ids);
  invite.targeted = true;
  invite.job = std::move(job);
  return std::nullopt;
}

HttpResponse GuildModule::api_create_channel_invite(const RouteContext& context) {
  auto found = invite_caller(context, context.params.at("channel_id"));
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<InviteCaller>(found);
  if (!has_permissions(caller.permissions, permission::kCreateInstantInvite)) return missing_permissions();
  rapidjson::Document body;
  std::optional<std::string> file;
  if (auto error = read_invite_body(context.request, body, file)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  GuildInvite invite;
  invite.guild_id = caller.guild->id;
  invite.channel_id = caller.channel->id;
  invite.inviter_id = caller.user_id;
  invite.max_age_s = fields.integer("max_age", false, 0, kMaxAgeMax).value_or(kMaxAgeDefault);
  invite.max_uses = fields.integer("max_uses", false, 0, kMaxUsesMax).value_or(0);
  invite.temporary = fields.boolean("temporary", false).value_or(false);
  const bool unique = fields.boolean("unique", false).value_or(false);
  if (const auto type = fields.integer("target_type", false, kTargetStream, kTargetEmbeddedApplication)) {
    invite.target_type = static_cast<int>(*type);
    if (*type == kTargetStream) {
      // A stream invite shows a user's Go Live stream in the channel; the emulator has no streams, so no user
      // is streaming (the platform's docs: the user must be).
      if (fields.string("target_user_id", true)) {
        fields.add_issue("target_user_id",
                         {"TARGET_USER_NOT_STREAMING", "The user is not streaming in the channel"});
      }
    } else if (auto app_id = fields.string("target_application_id", true)) {
      const auto* app = state_.find_application(*app_id);
      if (app == nullptr || (app->flags() & kApplicationEmbeddedFlag) == 0) {
        fields.add_issue("target_application_id",
                         {"APPLICATION_NOT_EMBEDDED", "The application does not have the EMBEDDED flag"});
      }
      invite.target_application_id = std::move(app_id);
    }
  }
  if (const auto* roles = fields.value("role_ids", false)) {
    if (!roles->IsArray()) {
      fields.add_issue("role_ids", {"BASE_TYPE_ARRAY", "Must be an array"});
    } else if (roles->Size() > kRoleIdsMax) {
      fields.add_issue("role_ids", {"BASE_TYPE_MAX_LENGTH", "Must be 250 or fewer in length."});
    } else {
      for (const auto& id : roles->GetArray()) {
        if (!id.IsString()) {
          fields.add_issue("role_ids", {"BASE_TYPE_STRING", "Role ids are strings"});
          break;
        }
        const std::string role_id(id.GetString(), id.GetStringLength());
        if (!contains(invite.role_ids, role_id)) invite.role_ids.push_back(role_id);
      }
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (!invite.role_ids.empty()) {
    // The platform's docs: MANAGE_ROLES, and no role with permissions the caller lacks; the role hierarchy
    // (below the caller's highest, not a bot's managed role) as for any role the caller gives.
    if (!has_permissions(caller.guild_permissions, permission::kManageRoles)) return missing_permissions();
    for (const auto& role_id : invite.role_ids) {
      const auto* role = caller.guild->find_role(role_id);
      if (role == nullptr || role_id == caller.guild->id)
        return error_response(404, error_code::kUnknownRole, "Unknown Role");
      if (role->bot_id || !above_role(*caller.guild, caller.user_id, *role) ||
          (role->permissions & ~caller.guild_permissions) != 0) {
        return missing_permissions();
      }
    }
  }
  if (file) {
    // The platform's guide: a targeted invite needs MANAGE_GUILD.
    if (!has_permissions(caller.guild_permissions, permission::kManageGuild)) return missing_permissions();
    if (auto refused = start_target_users_job(invite, *file)) return std::move(*refused);
  }
  const auto now = clock_.now_ms();
  invites_.settle_jobs(now);
  invites_.prune(now);
  if (!unique && !file) {
    // Not `unique`: a live invite of the same inviter to the channel with the same settings is reused.
    for (const auto& [code, other] : invites_.all()) {
      if (other.channel_id == invite.channel_id && other.inviter_id == invite.inviter_id &&
          !other.for_user_id && !other.targeted && other.max_age_s == invite.max_age_s &&
          other.max_uses == invite.max_uses && other.temporary == invite.temporary &&
          other.target_type == invite.target_type &&
          other.target_application_id == invite.target_application_id && other.role_ids == invite.role_ids) {
        return HttpResponse::json(200, invite_json(other, *caller.guild, *caller.channel, true, false));
      }
    }
  }
  invite.code = random_token(kInviteCodeBytes);
  while (invites_.contains(invite.code))
    invite.code = random_token(kInviteCodeBytes);
  invite.created_ms = now;
  const auto& kept = invites_.add(std::move(invite));
  const auto& guild = *caller.guild;
  const auto& channel = *caller.channel;
  invite_dispatch("INVITE_CREATE", guild, channel, to_json([&](JsonWriter& writer) {
                    writer.StartObject();
                    writer.Key("channel_id");
                    write_string(writer, channel.id);
                    writer.Key("code");
                    write_string(writer, kept.code);
                    writer.Key("created_at");
                    write_string(writer, format_rfc3339_ms(kept.created_ms));
                    writer.Key("guild_id");
                    write_string(writer, guild.id);
                    if (const auto* inviter = state_.find_user(caller.user_id)) {
                      writer.Key("inviter");
                      write_raw(writer, user_json(*inviter), rapidjson::kObjectType);
                    }
                    writer.Key("max_age");
                    writer.Int64(kept.max_age_s);
                    writer.Key("max_uses");
                    writer.Int64(kept.max_uses);
                    if (kept.target_type) {
                      writer.Key("target_type");
                      writer.Int(*kept.target_type);
                    }
                    writer.Key("temporary");
                    writer.Bool(kept.temporary);
                    writer.Key("uses");
                    writer.Int(0);
                    writer.Key("expires_at");
                    if (const auto expires = kept.expires_ms()) {
                      write_string(writer, format_rfc3339_ms(*expires));
                    } else {
                      writer.Null();
                    }
                    if (!kept.role_ids.empty()) {
                      writer.Key("role_ids");
                      write_raw(writer, ids_json(kept.role_ids), rapidjson::kArrayType);
                    }
                    writer.EndObject();
                  }));
  AuditLogEntry entry;
  entry.action_type = audit_action::kInviteCreate;
  add_invite_changes(entry, kept, true);
  audit(guild, context.request, caller.user_id, std::move(entry));
  return HttpResponse::json(200, invite_json(kept, guild, channel, true, false));
}

HttpResponse GuildModule::api_get_channel_invites(const RouteContext& context) {
  auto found = invite_caller(context, context.params.at("channel_id"));
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<InviteCaller>(found);
  if (!has_permissions(caller.permissions, permission::kManageChannels)) return missing_permissions();
  const auto now = clock_.now_ms();
  invites_.settle_jobs(now);
  invites_.prune(now);
  std::vector<const GuildInvite*> listed;
  for (const auto& [code, invite] : invites_.all()) {
    if (invite.channel_id == caller.channel->id) listed.push_back(&invite);
  }
  // Oldest first (then by code): a stable order.
  std::sort(listed.begin(), listed.end(), [](const GuildInvite* a, const GuildInvite* b) {
    return a->created_ms != b->created_ms ? a->created_ms < b->created_ms : a->code < b->code;
  });
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto* invite : listed) {
                                write_raw(writer,
                                          invite_json(*invite, *caller.guild, *caller.channel, true, false),
                                          rapidjson::kObjectType);
                              }
                              writer.EndArray();
                            }));
}

HttpResponse GuildModule::api_get_invite(const RouteContext& context) {
  const auto found = find_live_invite(context.params.at("code"));
  if (found.invite == nullptr) return unknown_invite();
  const auto& invite = *found.invite;
  // Anyone may look an invite up (no token needed), except a restricted one: only its users see it, and those
  // who manage it (the inviter, a bot of the guild with MANAGE_GUILD).
  if (invite.for_user_id || invite.targeted) {
    const auto principal = authenticate(context.request);
    const std::string user_id = principal ? principal->user->id : std::string();
    const bool manager =
        principal && principal->grant == nullptr && found.guild->has_member(user_id) &&
        (invite.inviter_id == user_id ||
         has_permissions(base_permissions(*found.guild, user_id, clock_.now_ms()), permission::kManageGuild));
    const bool allowed =
        invite.for_user_id ? *invite.for_user_id == user_id : contains(invite.target_user_ids, user_id);
    if (!manager && !allowed) return unknown_invite();
  }
  bool counts = false;
  if (const auto query = FormFields::parse(query_of(context.request))) {
    // with_expiration is accepted and changes nothing: expires_at is always there, as the platform now does.
    counts = query->get("with_counts").value_or("") == "true";
  }
  return HttpResponse::json(200, invite_json(invite, *found.guild, *found.channel, false, counts));
}

HttpResponse GuildModule::api_delete_invite(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto found = find_live_invite(context.params.at("code"));
  if (found.invite == nullptr) return unknown_invite();
  const auto& guild = *found.guild;
  const auto& channel = *found.channel;
  const auto& user_id = principal->user->id;
  if (principal->grant != nullptr || !guild.has_member(user_id)) return missing_access();
  const auto now = clock_.now_ms();
  if (!has_permissions(channel_permissions(guild, channel, user_id, now), permission::kManageChannels) &&
      !has_permissions(base_permissions(guild, user_id, now), permission::kManageGuild)) {
    return missing_permissions();
  }
  const GuildInvite gone = *found.invite;
  const auto answer = invite_json(gone, guild, channel, false, false);
  invites_.erase(gone.code);
  invite_dispatch("INVITE_DELETE", guild, channel, to_json([&](JsonWriter& writer) {
                    writer.StartObject();
                    writer.Key("channel_id");
                    write_string(writer, channel.id);
                    writer.Key("guild_id");
                    write_string(writer, guild.id);
                    writer.Key("code");
                    write_string(writer, gone.code);
                    writer.EndObject();
                  }));
  AuditLogEntry entry;
  entry.action_type = audit_action::kInviteDelete;
  add_invite_changes(entry, gone, false);
  audit(guild, context.request, user_id, std::move(entry));
  return HttpResponse::json(200, answer);
}

HttpResponse GuildModule::api_accept_invite(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  // A user's own OAuth2 token of a full account: bots and provisional accounts join no guild by invite.
  if (principal->grant == nullptr || principal->user->provisional) return missing_access();
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  const auto found = find_live_invite(context.params.at("code"));
  if (found.invite == nullptr) return unknown_invite();
  auto& invite = *invites_.find_mutable(found.invite->code);
  const auto& user_id = principal->user->id;
  // A lobby's invite is its member's; a targeted one its users' (nobody's while its first file is processed).
  if (invite.for_user_id ? *invite.for_user_id != user_id
                         : invite.targeted && !contains(invite.target_user_ids, user_id)) {
    return unknown_invite();
  }
  ++invite.uses;
  const auto& guild = *found.guild;
  // The roles it gives that still exist; a member keeps the roles they have.
  std::vector<std::string> roles;
  for (const auto& role_id : invite.role_ids) {
    if (guild.find_role(role_id) != nullptr) roles.push_back(role_id);
  }
  if (const auto* existing = guild.find_member(user_id)) {
    GuildMember member = *existing;
    bool changed = false;
    for (const auto& role_id : roles) {
      if (!contains(member.roles, role_id)) {
        member.roles.push_back(role_id);
        changed = true;
      }
    }
    if (changed) {
      guilds_.set_member(guild.id, member);
      member_dispatch(guild, "GUILD_MEMBER_UPDATE", *guild.find_member(user_id));
    }
  } else {
    GuildMember member;
    member.user_id = user_id;
    member.joined_at_ms = clock_.now_ms();
    member.roles = std::move(roles);
    guilds_.set_member(guild.id, std::move(member));
    member_dispatch(guild, "GUILD_MEMBER_ADD", *guild.find_member(user_id));
    // A member who joins meets the guild's MEMBER_PROFILE rules.
    check_member_profile(guild.id, user_id);
  }
  return HttpResponse::json(200, invite_json(invite, guild, *found.channel, false, false));
}

namespace {

// What a caller may do with an invite's target users: see them (the inviter, MANAGE_GUILD or
// VIEW_AUDIT_LOG) or change them (the inviter or MANAGE_GUILD).
bool may_manage_targets(const GuildInvite& invite, const std::string& user_id, std::uint64_t permissions,
                        bool reading) {
  if (invite.inviter_id == user_id || has_permissions(permissions, permission::kManageGuild)) return true;
  return reading && has_permissions(permissions, permission::kViewAuditLog);
}

}  // namespace

HttpResponse GuildModule::api_get_target_users(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto found = find_live_invite(context.params.at("code"));
  if (found.invite == nullptr) return unknown_invite();
  const auto& user_id = principal->user->id;
  if (principal->grant != nullptr || !found.guild->has_member(user_id)) return missing_access();
  if (!may_manage_targets(*found.invite, user_id, base_permissions(*found.guild, user_id, clock_.now_ms()),
                          true))
    return missing_permissions();
  if (!found.invite->targeted) return error_response(404, kUnknownTargetUsers, "Unknown invite target users");
  HttpResponse response;
  response.status = 200;
  response.body = target_users_csv(found.invite->target_user_ids);
  response.set_header("Content-Type", "text/csv");
  return response;
}

HttpResponse GuildModule::api_update_target_users(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto found = find_live_invite(context.params.at("code"));
  if (found.invite == nullptr) return unknown_invite();
  const auto& user_id = principal->user->id;
  const auto& guild = *found.guild;
  if (principal->grant != nullptr || !guild.has_member(user_id)) return missing_access();
  if (!may_manage_targets(*found.invite, user_id, base_permissions(guild, user_id, clock_.now_ms()), false))
    return missing_permissions();
  rapidjson::Document body;
  std::optional<std::string> file;
  if (auto error = read_invite_body(context.request, body, file)) return std::move(*error);
  if (!file) {
    FieldErrors errors;
    errors.add({"target_users_file"}, required_field_issue());
    return invalid_form_body(errors);
  }
  // A new file replaces the job (one still processing is dropped) and, once processed, the users.
  if (auto refused = start_target_users_job(*invites_.find_mutable(found.invite->code), *file))
    return std::move(*refused);
  AuditLogEntry entry;
  entry.action_type = audit_action::kInviteUpdate;
  audit(guild, context.request, user_id, std::move(entry));
  return HttpResponse::empty(204);
}

HttpResponse GuildModule::api_get_target_users_job(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto found = find_live_invite(context.params.at("code"));
  if (found.invite == nullptr) return unknown_invite();
  const auto& user_id = principal->user->id;
  if (principal->grant != nullptr || !found.guild->has_member(user_id)) return missing_access();
  const auto now = clock_.now_ms();
  if (!may_manage_targets(*found.invite, user_id, base_permissions(*found.guild, user_id, now), true))
    return missing_permissions();
  if (!found.invite->job) {
    return error_response(404, kUnknownTargetUsersJob, "Unknown invite target users job");
  }
  const auto& job = *found.invite->job;
  std::int64_t processed = 0;
  if (job.status == target_users_job_status::kCompleted) {
    processed = job.total_users;
  } else if (job.status == target_users_job_status::kProcessing) {
    // Users are processed at an even pace over the processing time.
    const auto span = std::max<std::int64_t>(1, job.ready_ms - job.created_ms);
    processed = job.total_users * std::min(span, now - job.created_ms) / span;
  }
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("status");
                              writer.Int(job.status);
                              writer.Key("total_users");
                              writer.Int64(job.total_users);
                              writer.Key("processed_users");
                              writer.Int64(processed);
                              writer.Key("created_at");
                              write_string(writer, format_rfc3339_ms(job.created_ms));
                              writer.Key("completed_at");
                              if (job.completed_ms) {
                                write_string(writer, format_rfc3339_ms(*job.completed_ms));
                              } else {
                                writer.Null();
                              }
                              writer.Key("error_message");
                              write_optional_string(writer, job.error_message);
                              writer.EndObject();
                            }));
}

}  // namespace platformpp::emulator
