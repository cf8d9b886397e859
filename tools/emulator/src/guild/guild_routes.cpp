// The guilds' routes: GET /users/@me/guilds and GET /guilds/{id}/channels, and the admin routes under
// /_emulator/guilds that seed guilds, members, roles and channels (channel changes dispatch CHANNEL_*).
// Permissions: permissions.hpp.
#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/validation.hpp"
#include "guild/channel_fields.hpp"
#include "guild/guild_fields.hpp"
#include "guild/guild_json.hpp"
#include "guild/guild_module.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

namespace {

// @everyone of a new guild unless the admin says otherwise: VIEW_CHANNEL, SEND_MESSAGES,
// READ_MESSAGE_HISTORY (our choice; the admin can pass everyone_permissions).
constexpr std::uint64_t kDefaultEveryonePermissions =
    permission::kViewChannel | (std::uint64_t{1} << 11) | (std::uint64_t{1} << 16);

}  // namespace

void GuildModule::register_routes() {
  api_router_.add("GET", "/users/@me/guilds", bind(&GuildModule::api_get_current_user_guilds));
  api_router_.add("GET", "/guilds/{guild_id}/channels", bind(&GuildModule::api_get_guild_channels));
  api_router_.add("POST", "/guilds", bind(&GuildModule::api_create_guild));
  admin_router_.add("POST", "/guilds", bind(&GuildModule::admin_create_guild));
  admin_router_.add("POST", "/guilds/{guild_id}/members", bind(&GuildModule::admin_add_guild_member));
  admin_router_.add("POST", "/guilds/{guild_id}/roles", bind(&GuildModule::admin_create_role));
  admin_router_.add("POST", "/guilds/{guild_id}/channels", bind(&GuildModule::admin_create_channel));
  admin_router_.add("PATCH", "/guilds/{guild_id}/channels/{channel_id}",
                    bind(&GuildModule::admin_update_channel));
  admin_router_.add("DELETE", "/guilds/{guild_id}/channels/{channel_id}",
                    bind(&GuildModule::admin_delete_channel));
}

// ---- API
// ---------------------------------------------------------------------------------------------------

// Bearer tokens need scope `guilds` (or `sdk.social_layer`, which expands to it); bot tokens list the guilds
// their bot user is a member of.
HttpResponse GuildModule::api_get_current_user_guilds(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) {
    const auto& scopes = principal->grant->scopes;
    const bool allowed = std::any_of(scopes.begin(), scopes.end(), [](const std::string& scope) {
      return scope == "guilds" || scope == "sdk.social_layer";
    });
    if (!allowed) return missing_access();
  }
  const auto& user_id = principal->user->id;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto* guild : guilds_.guilds_of_user(user_id)) {
                                writer.StartObject();
                                write_guild_summary(writer, *guild);
                                writer.Key("owner");
                                writer.Bool(guild->owner_id == user_id);
                                writer.Key("permissions");
                                write_string(writer, bits_string(base_permissions(*guild, user_id)));
                                write_guild_features(writer, *guild);
                                writer.EndObject();
                              }
                              writer.EndArray();
                            }));
}

// Create Guild is restricted for applications from 15 July 2025 and gone from the documentation and the
// specification; every token the emulator issues is an application's, so it is refused for all of them: a
// bot's with the platform's 20001, an OAuth2 Bearer token (no scope reaches it) with 401. The emulator does
// not serve the endpoint before that date either: with its specification removed there is nothing to model.
HttpResponse GuildModule::api_create_guild(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal || principal->grant != nullptr) return status_error(401);
  return error_response(403, error_code::kBotsCannotUseEndpoint, "Bots cannot use this endpoint");
}

// Before the cut-over date every channel, with full metadata; from it channels the caller cannot view are
// omitted (HTTP has no early opt-in: the Identify capability does not apply here).
HttpResponse GuildModule::api_get_guild_channels(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* guild = guilds_.find_guild(context.params.at("guild_id"));
  if (guild == nullptr) return unknown_guild();
  const auto& user_id = principal->user->id;
  if (!guild->has_member(user_id)) return missing_access();
  const bool omit_hidden = clock_.now_ms() >= kChannelObfuscationDateMs;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto* channel : guild->sorted_channels()) {
                                if (omit_hidden && !can_view_channel(*guild, *channel, user_id)) continue;
                                write_raw(writer, channel_json(*channel, false), rapidjson::kObjectType);
                              }
                              writer.EndArray();
                            }));
}

// ---- admin ----------------------------------------------------------------------------------------------

// {name, owner_id, banner?, icon?, features?, everyone_permissions?}: the owner becomes a member; the
// @everyone role gets the guild's id.
HttpResponse GuildModule::admin_create_guild(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  Guild guild;
  if (auto name = read_name(fields, 2, 100)) guild.name = std::move(*name);
  const auto owner_id = fields.string("owner_id", true);
  guild.banner = fields.string("banner", false);
  guild.icon = fields.string("icon", false);
  if (const auto* features = fields.value("features", false)) {
    if (!features->IsArray() || !std::all_of(features->Begin(), features->End(),
                                             [](const rapidjson::Value& f) { return f.IsString(); })) {
      fields.add_issue("features", {"BASE_TYPE_ARRAY", "Must be an array of strings."});
    } else {
      for (const auto& feature : features->GetArray())
        guild.features.emplace_back(feature.GetString(), feature.GetStringLength());
    }
  }
  const auto everyone_permissions =
      read_permission_bits(fields, "everyone_permissions").value_or(kDefaultEveryonePermissions);
  if (!errors.empty()) return invalid_form_body(errors);
  if (state_.find_user(*owner_id) == nullptr) return unknown_user();
  guild.id = snowflakes_.next_string();
  guild.owner_id = *owner_id;
  GuildRole everyone;
  everyone.id = guild.id;
  everyone.name = "@everyone";
  everyone.permissions = everyone_permissions;
  guild.roles.push_back(std::move(everyone));
  guild.members.emplace(*owner_id, GuildMember{*owner_id, {}, clock_.now_ms()});
  const auto& stored = guilds_.add_guild(std::move(guild));
  return HttpResponse::json(200, admin_guild_json(stored));
}

// {user_id, roles?}: adds the member, or replaces an existing member's roles.
HttpResponse GuildModule::admin_add_guild_member(const RouteContext& context) {
  const auto* guild = guilds_.find_guild(context.params.at("guild_id"));
  if (guild == nullptr) return unknown_guild();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto user_id = fields.string("user_id", true);
  GuildMember member;
  if (const auto* roles = fields.value("roles", false)) {
    if (!roles->IsArray()) {
      fields.add_issue("roles", {"BASE_TYPE_ARRAY", "Must be an array of role ids."});
    } else {
      for (rapidjson::SizeType i = 0; i < roles->Size(); ++i) {
        const auto& role = (*roles)[i];
        if (!role.IsString() || guild->find_role({role.GetString(), role.GetStringLength()}) == nullptr ||
            std::string_view(role.GetString(), role.GetStringLength()) == guild->id) {
          errors.add({"roles", std::to_string(i)}, {"BASE_TYPE_INVALID", "Unknown role of this guild."});
          continue;
        }
        std::string role_id(role.GetString(), role.GetStringLength());
        if (std::find(member.roles.begin(), member.roles.end(), role_id) == member.roles.end())
          member.roles.push_back(std::move(role_id));
      }
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  const auto* user = state_.find_user(*user_id);
  if (user == nullptr) return unknown_user();
  member.user_id = *user_id;
  const auto existing = guild->members.find(*user_id);
  member.joined_at_ms = existing != guild->members.end() ? existing->second.joined_at_ms : clock_.now_ms();
  guilds_.set_member(guild->id, member);
  // A member who joins meets the guild's MEMBER_PROFILE rules.
  check_member_profile(guild->id, member.user_id);
  const auto* kept = guilds_.find_guild(guild->id)->find_member(member.user_id);
  return HttpResponse::json(200, guild_member_json(*kept, *user));
}

// {name, permissions}: permissions as a decimal string (or an integer).
HttpResponse GuildModule::admin_create_role(const RouteContext& context) {
  auto* guild = guilds_.find_guild_mutable(context.params.at("guild_id"));
  if (guild == nullptr) return unknown_guild();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  GuildRole role;
  if (auto name = read_name(fields, 1, 100)) role.name = std::move(*name);
  if (auto bits = read_permission_bits(fields, "permissions")) role.permissions = *bits;
  if (!errors.empty()) return invalid_form_body(errors);
  role.id = snowflakes_.next_string();
  // Seeded roles stack in the order they are made: each above the ones before (our choice for the admin API;
  // the API's Create Guild Role puts a new role just above @everyone).
  for (const auto& other : guild->roles)
    role.position = std::max(role.position, other.position + 1);
  guild->roles.push_back(role);
  return HttpResponse::json(200, role_json(role));
}

HttpResponse GuildModule::admin_create_channel(const RouteContext& context) {
  auto* guild = guilds_.find_guild_mutable(context.params.at("guild_id"));
  if (guild == nullptr) return unknown_guild();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  GuildChannel channel;
  channel.guild_id = guild->id;
  read_channel_fields(body, *guild, state_, channel, true, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  channel.id = snowflakes_.next_string();
  const auto& stored = guild->channels.emplace(channel.id, std::move(channel)).first->second;
  channel_dispatch("CHANNEL_CREATE", *guild, stored);
  return HttpResponse::json(200, channel_json(stored, false));
}

HttpResponse GuildModule::admin_update_channel(const RouteContext& context) {
  auto* guild = guilds_.find_guild_mutable(context.params.at("guild_id"));
  if (guild == nullptr) return unknown_guild();
  const auto it = guild->channels.find(context.params.at("channel_id"));
  if (it == guild->channels.end()) return unknown_channel();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  auto channel = it->second;
  read_channel_fields(body, *guild, state_, channel, false, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  it->second = std::move(channel);
  channel_dispatch("CHANNEL_UPDATE", *guild, it->second);
  return HttpResponse::json(200, channel_json(it->second, false));
}

// Answers the deleted channel; the channels of a deleted category lose their parent (CHANNEL_UPDATE each).
HttpResponse GuildModule::admin_delete_channel(const RouteContext& context) {
  auto* guild = guilds_.find_guild_mutable(context.params.at("guild_id"));
  if (guild == nullptr) return unknown_guild();
  const auto it = guild->channels.find(context.params.at("channel_id"));
  if (it == guild->channels.end()) return unknown_channel();
  // Whoever is connected to a voice channel is disconnected first (voice_routes.cpp).
  end_channel_voice(guild->id, it->first);
  const auto channel = std::move(it->second);
  guild->channels.erase(it);
  channel_dispatch("CHANNEL_DELETE", *guild, channel);
  for (auto& [id, child] : guild->channels) {
    if (child.parent_id != channel.id) continue;
    child.parent_id.reset();
    channel_dispatch("CHANNEL_UPDATE", *guild, child);
  }
  return HttpResponse::json(200, channel_json(channel, false));
}

}  // namespace platformpp::emulator
