// Guilds, roles, members and channels: GET /users/@me/guilds and GET /guilds/{id}/channels, READY's
// `guilds`, CHANNEL_CREATE|UPDATE|DELETE with per-recipient obfuscation, op 8 Request Guild Members with its
// all-members limit, and the admin routes under /_emulator/guilds that seed them. Permissions:
// permissions.hpp.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>
#include <vector>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/validation.hpp"
#include "guild/permissions.hpp"
#include "service/emulator_service.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kUnknownGuild = 10004;
constexpr int kUnknownChannel = 10003;
constexpr int kRequestGuildMembersOpcode = 8;
constexpr int kCategoryChannel = 4;
// Channel types the admin API accepts: text, voice, category, announcement, stage, forum, media.
constexpr int kChannelTypes[] = {0, 2, 4, 5, 13, 15, 16};
// @everyone of a new guild unless the admin says otherwise: VIEW_CHANNEL, SEND_MESSAGES,
// READ_MESSAGE_HISTORY (our choice; the admin can pass everyone_permissions).
constexpr std::uint64_t kDefaultEveryonePermissions =
    permission::kViewChannel | (std::uint64_t{1} << 11) | (std::uint64_t{1} << 16);

std::string bits_string(std::uint64_t bits) {
  return std::to_string(bits);
}

void write_optional(JsonWriter& writer, const std::optional<std::string>& value) {
  if (value) {
    write_string(writer, *value);
  } else {
    writer.Null();
  }
}

void write_raw(JsonWriter& writer, const std::string& json, rapidjson::Type type) {
  writer.RawValue(json.c_str(), json.size(), type);
}

// Permission bits as the wire carries them (a decimal string); an integer is accepted from the admin too.
std::optional<std::uint64_t> read_bits(const rapidjson::Value& value) {
  if (value.IsUint64()) return value.GetUint64();
  if (!value.IsString() || value.GetStringLength() == 0) return std::nullopt;
  const char* begin = value.GetString();
  const char* end = begin + value.GetStringLength();
  std::uint64_t bits = 0;
  const auto [ptr, error] = std::from_chars(begin, end, bits);
  if (error != std::errc() || ptr != end) return std::nullopt;
  return bits;
}

FieldIssue bits_issue() {
  return {"BASE_TYPE_INVALID", "Must be permission bits: a decimal string."};
}

// The channel object: full, or obfuscated for someone who cannot view it (the platform's shape: name
// "___hidden___", CHANNEL_OBFUSCATED set, one overwrite denying VIEW_CHANNEL to @everyone; the topic goes).
std::string channel_json(const GuildChannel& channel, bool obfuscate) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, channel.id);
    writer.Key("type");
    writer.Int(channel.type);
    writer.Key("guild_id");
    write_string(writer, channel.guild_id);
    writer.Key("name");
    write_string(writer, obfuscate ? std::string_view("___hidden___") : std::string_view(channel.name));
    writer.Key("position");
    writer.Int(channel.position);
    writer.Key("parent_id");
    write_optional(writer, channel.parent_id);
    writer.Key("permission_overwrites");
    writer.StartArray();
    if (obfuscate) {
      writer.StartObject();
      writer.Key("id");
      write_string(writer, channel.guild_id);
      writer.Key("type");
      writer.Int(overwrite_type::kRole);
      writer.Key("allow");
      writer.String("0");
      writer.Key("deny");
      write_string(writer, bits_string(permission::kViewChannel));
      writer.EndObject();
    } else {
      for (const auto& overwrite : channel.permission_overwrites) {
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
    }
    writer.EndArray();
    writer.Key("flags");
    writer.Uint64(obfuscate ? (channel.flags | kChannelObfuscatedFlag) : channel.flags);
    if (channel.topic && !obfuscate) {
      writer.Key("topic");
      write_string(writer, *channel.topic);
    }
    // Forum (15) and media (16) channels: the members their channel type always has; the emulator has no
    // tags, default reactions or sort settings.
    constexpr int kForum = 15;
    constexpr int kMedia = 16;
    if (channel.type == kForum || channel.type == kMedia) {
      writer.Key("available_tags");
      writer.StartArray();
      writer.EndArray();
      writer.Key("default_reaction_emoji");
      writer.Null();
      writer.Key("default_sort_order");
      writer.Null();
      if (channel.type == kForum) {
        writer.Key("default_forum_layout");
        writer.Int(0);
      }
    }
    writer.EndObject();
  });
}

std::string role_json(const GuildRole& role) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, role.id);
    writer.Key("name");
    write_string(writer, role.name);
    writer.Key("permissions");
    write_string(writer, bits_string(role.permissions));
    writer.EndObject();
  });
}

// The members every view of a guild starts with (the admin's, GUILD_CREATE's).
void write_guild_identity(JsonWriter& writer, const Guild& guild) {
  writer.Key("id");
  write_string(writer, guild.id);
  writer.Key("name");
  write_string(writer, guild.name);
  writer.Key("icon");
  write_optional(writer, guild.icon);
  writer.Key("banner");
  write_optional(writer, guild.banner);
  writer.Key("owner_id");
  write_string(writer, guild.owner_id);
}

void write_guild_features(JsonWriter& writer, const Guild& guild) {
  writer.Key("features");
  writer.StartArray();
  for (const auto& feature : guild.features)
    write_string(writer, feature);
  writer.EndArray();
}

// A guild member as the API and GUILD_MEMBERS_CHUNK give it (the emulator has no voice mute, nicknames or
// boosts: those members are absent or false).
std::string guild_member_json(const GuildMember& member, const User& user) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("user");
    write_raw(writer, user_json(user), rapidjson::kObjectType);
    writer.Key("roles");
    writer.StartArray();
    for (const auto& role : member.roles)
      write_string(writer, role);
    writer.EndArray();
    writer.Key("joined_at");
    write_string(writer, format_rfc3339_ms(member.joined_at_ms));
    writer.Key("deaf");
    writer.Bool(false);
    writer.Key("mute");
    writer.Bool(false);
    writer.Key("flags");
    writer.Int(0);
    writer.EndObject();
  });
}

// The admin's view of a guild (everything it was seeded with).
std::string admin_guild_json(const Guild& guild) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    write_guild_identity(writer, guild);
    write_guild_features(writer, guild);
    writer.Key("roles");
    writer.StartArray();
    for (const auto& role : guild.roles)
      write_raw(writer, role_json(role), rapidjson::kObjectType);
    writer.EndArray();
    writer.EndObject();
  });
}

bool ascii_istarts_with(std::string_view text, std::string_view prefix) {
  if (prefix.size() > text.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  }
  return true;
}

// Reads a channel's fields from an admin body into `channel`. On create every field applies (name is
// required); on update only the fields present change. Records problems in `errors`.
void read_channel_fields(const rapidjson::Value& body, const Guild& guild, const EmulatorState& state,
                         GuildChannel& channel, bool creating, FieldErrors& errors) {
  BodyFields fields(body, errors);
  if (auto name = fields.string("name", creating)) {
    const auto length = utf8_length(*name);
    if (length < 1 || length > 100) {
      fields.add_issue("name", length_issue(1, 100));
    } else {
      channel.name = std::move(*name);
    }
  }
  if (auto type = fields.integer("type", false)) {
    if (std::find(std::begin(kChannelTypes), std::end(kChannelTypes), *type) == std::end(kChannelTypes)) {
      fields.add_issue("type", {"BASE_TYPE_CHOICES", "Value must be one of {0, 2, 4, 5, 13, 15, 16}."});
    } else if (!creating && channel.type == kCategoryChannel && *type != kCategoryChannel &&
               std::any_of(guild.channels.begin(), guild.channels.end(),
                           [&](const auto& entry) { return entry.second.parent_id == channel.id; })) {
      fields.add_issue("type", {"BASE_TYPE_INVALID", "A category with channels must stay a category."});
    } else {
      channel.type = static_cast<int>(*type);
    }
  }
  if (auto position = fields.integer("position", false, 0, 1000000))
    channel.position = static_cast<int>(*position);
  if (body.HasMember("parent_id")) {
    const auto& parent = body["parent_id"];
    if (parent.IsNull()) {
      channel.parent_id.reset();
    } else if (!parent.IsString()) {
      fields.add_issue("parent_id", {"BASE_TYPE_STRING", "Must be a string."});
    } else {
      const std::string parent_id(parent.GetString(), parent.GetStringLength());
      const auto it = guild.channels.find(parent_id);
      if (it == guild.channels.end() || it->second.type != kCategoryChannel || parent_id == channel.id) {
        fields.add_issue("parent_id", {"CHANNEL_PARENT_INVALID", "Must be a category of this guild."});
      } else {
        channel.parent_id = parent_id;
      }
    }
  }
  if (channel.parent_id && channel.type == kCategoryChannel) {
    fields.add_issue("parent_id", {"CHANNEL_PARENT_INVALID", "A category cannot have a parent."});
  }
  if (body.HasMember("topic")) {
    const auto& topic = body["topic"];
    if (topic.IsNull()) {
      channel.topic.reset();
    } else if (!topic.IsString() || utf8_length({topic.GetString(), topic.GetStringLength()}) > 1024) {
      fields.add_issue("topic", length_issue(0, 1024));
    } else {
      channel.topic = std::string(topic.GetString(), topic.GetStringLength());
    }
  }
  if (const auto* list = fields.value("permission_overwrites", false)) {
    if (!list->IsArray()) {
      fields.add_issue("permission_overwrites", {"BASE_TYPE_ARRAY", "Must be an array."});
      return;
    }
    std::vector<PermissionOverwrite> overwrites;
    for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
      const auto& entry = (*list)[i];
      const auto index = std::to_string(i);
      if (!entry.IsObject()) {
        errors.add({"permission_overwrites", index}, {"BASE_TYPE_OBJECT", "Must be an object."});
        continue;
      }
      PermissionOverwrite overwrite;
      const auto id = entry.FindMember("id");
      const auto type = entry.FindMember("type");
      if (id == entry.MemberEnd() || !id->value.IsString()) {
        errors.add({"permission_overwrites", index, "id"}, required_field_issue());
        continue;
      }
      overwrite.id.assign(id->value.GetString(), id->value.GetStringLength());
      if (type == entry.MemberEnd() || !type->value.IsInt() ||
          (type->value.GetInt() != overwrite_type::kRole &&
           type->value.GetInt() != overwrite_type::kMember)) {
        errors.add({"permission_overwrites", index, "type"},
                   {"BASE_TYPE_CHOICES", "Value must be one of {0, 1}."});
        continue;
      }
      overwrite.type = type->value.GetInt();
      if (overwrite.type == overwrite_type::kRole ? guild.find_role(overwrite.id) == nullptr
                                                  : state.find_user(overwrite.id) == nullptr) {
        errors.add(
            {"permission_overwrites", index, "id"},
            {"BASE_TYPE_INVALID",
             overwrite.type == overwrite_type::kRole ? "Unknown role of this guild." : "Unknown user."});
        continue;
      }
      for (const char* key : {"allow", "deny"}) {
        const auto member = entry.FindMember(key);
        if (member == entry.MemberEnd() || member->value.IsNull()) continue;
        const auto bits = read_bits(member->value);
        if (!bits) {
          errors.add({"permission_overwrites", index, key}, bits_issue());
        } else {
          (std::string_view(key) == "allow" ? overwrite.allow : overwrite.deny) = *bits;
        }
      }
      overwrites.push_back(std::move(overwrite));
    }
    channel.permission_overwrites = std::move(overwrites);
  }
}

}  // namespace

void EmulatorService::register_guild_routes() {
  auto bind = [this](HttpResponse (EmulatorService::*handler)(const RouteContext&)) {
    return [this, handler](const RouteContext& context) { return (this->*handler)(context); };
  };
  api_router_.add("GET", "/users/@me/guilds", bind(&EmulatorService::api_get_current_user_guilds));
  api_router_.add("GET", "/guilds/{guild_id}/channels", bind(&EmulatorService::api_get_guild_channels));
  admin_router_.add("POST", "/guilds", bind(&EmulatorService::admin_create_guild));
  admin_router_.add("POST", "/guilds/{guild_id}/members", bind(&EmulatorService::admin_add_guild_member));
  admin_router_.add("POST", "/guilds/{guild_id}/roles", bind(&EmulatorService::admin_create_role));
  admin_router_.add("POST", "/guilds/{guild_id}/channels", bind(&EmulatorService::admin_create_channel));
  admin_router_.add("PATCH", "/guilds/{guild_id}/channels/{channel_id}",
                    bind(&EmulatorService::admin_update_channel));
  admin_router_.add("DELETE", "/guilds/{guild_id}/channels/{channel_id}",
                    bind(&EmulatorService::admin_delete_channel));
}

// ---- API
// ---------------------------------------------------------------------------------------------------

// Bearer tokens need scope `guilds` (or `sdk.social_layer`, which expands to it); bot tokens list the guilds
// their bot user is a member of.
HttpResponse EmulatorService::api_get_current_user_guilds(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) {
    const auto& scopes = principal->grant->scopes;
    const bool allowed = std::any_of(scopes.begin(), scopes.end(), [](const std::string& scope) {
      return scope == "guilds" || scope == "sdk.social_layer";
    });
    if (!allowed) return error_response(403, error_code::kMissingAccess, "Missing Access");
  }
  const auto& user_id = principal->user->id;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto* guild : state_.guilds.guilds_of_user(user_id)) {
                                writer.StartObject();
                                writer.Key("id");
                                write_string(writer, guild->id);
                                writer.Key("name");
                                write_string(writer, guild->name);
                                writer.Key("icon");
                                write_optional(writer, guild->icon);
                                writer.Key("banner");
                                write_optional(writer, guild->banner);
                                writer.Key("owner");
                                writer.Bool(guild->owner_id == user_id);
                                writer.Key("permissions");
                                write_string(writer, bits_string(base_permissions(*guild, user_id)));
                                writer.Key("features");
                                writer.StartArray();
                                for (const auto& feature : guild->features)
                                  write_string(writer, feature);
                                writer.EndArray();
                                writer.EndObject();
                              }
                              writer.EndArray();
                            }));
}

// Before the cut-over date every channel, with full metadata; from it channels the caller cannot view are
// omitted (HTTP has no early opt-in: the Identify capability does not apply here).
HttpResponse EmulatorService::api_get_guild_channels(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* guild = state_.guilds.find_guild(context.params.at("guild_id"));
  if (guild == nullptr) return error_response(404, kUnknownGuild, "Unknown Guild");
  const auto& user_id = principal->user->id;
  if (!guild->has_member(user_id)) return error_response(403, error_code::kMissingAccess, "Missing Access");
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

// ---- Gateway
// -----------------------------------------------------------------------------------------------

bool EmulatorService::guild_obfuscates_for(const GatewaySession& session) {
  return (session.capabilities & kChannelObfuscationCapability) != 0 ||
         clock_.now_ms() >= kChannelObfuscationDateMs;
}

bool guild_in_shard(const GatewaySession& session, std::string_view guild_id) {
  if (!session.bot || session.shard_count <= 1) return true;
  std::uint64_t id = 0;
  std::from_chars(guild_id.data(), guild_id.data() + guild_id.size(), id);  // the emulator's own snowflakes
  return static_cast<std::int64_t>((id >> 22) % static_cast<std::uint64_t>(session.shard_count)) ==
         session.shard_id;
}

std::string EmulatorService::guild_create_json(const Guild& guild, const GatewaySession& session) const {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    write_guild_identity(writer, guild);
    // The settings a guild has whether or not anyone changed them, at the platform's defaults.
    for (const char* absent :
         {"splash", "discovery_splash", "afk_channel_id", "application_id", "system_channel_id",
          "rules_channel_id", "vanity_url_code", "description", "public_updates_channel_id",
          "safety_alerts_channel_id", "incidents_data", "hub_type"}) {
      writer.Key(absent);
      writer.Null();
    }
    for (const char* zero : {"verification_level", "default_message_notifications", "explicit_content_filter",
                             "mfa_level", "system_channel_flags", "premium_tier", "nsfw_level"}) {
      writer.Key(zero);
      writer.Int(0);
    }
    writer.Key("afk_timeout");
    writer.Int(300);
    writer.Key("preferred_locale");
    writer.String("en-US");
    writer.Key("premium_progress_bar_enabled");
    writer.Bool(false);
    write_guild_features(writer, guild);
    writer.Key("roles");
    writer.StartArray();
    int position = 0;
    for (const auto& role : guild.roles) {
      writer.StartObject();
      writer.Key("id");
      write_string(writer, role.id);
      writer.Key("name");
      write_string(writer, role.name);
      writer.Key("color");
      writer.Int(0);
      writer.Key("colors");
      writer.StartObject();
      writer.Key("primary_color");
      writer.Int(0);
      writer.Key("secondary_color");
      writer.Null();
      writer.Key("tertiary_color");
      writer.Null();
      writer.EndObject();
      writer.Key("hoist");
      writer.Bool(false);
      writer.Key("position");
      writer.Int(position++);
      writer.Key("permissions");
      write_string(writer, bits_string(role.permissions));
      writer.Key("managed");
      writer.Bool(false);
      writer.Key("mentionable");
      writer.Bool(false);
      writer.Key("flags");
      writer.Int(0);
      writer.EndObject();
    }
    writer.EndArray();
    for (const char* empty : {"emojis", "stickers", "voice_states", "threads", "presences", "stage_instances",
                              "guild_scheduled_events", "soundboard_sounds"}) {
      writer.Key(empty);
      writer.StartArray();
      writer.EndArray();
    }
    writer.Key("joined_at");
    const auto* own = guild.find_member(session.user_id);
    write_string(writer, format_rfc3339_ms(own != nullptr ? own->joined_at_ms : 0));
    writer.Key("large");
    writer.Bool(guild.members.size() > 250);  // Identify's default large_threshold
    writer.Key("unavailable");
    writer.Bool(false);
    writer.Key("member_count");
    writer.Uint64(guild.members.size());
    writer.Key("members");
    writer.StartArray();
    for (const auto& [user_id, member] : guild.members) {
      if ((session.intents & gateway_intent::kGuildMembers) == 0 && user_id != session.user_id) continue;
      if (const auto* user = state_.find_user(user_id)) {
        write_raw(writer, guild_member_json(member, *user), rapidjson::kObjectType);
      }
    }
    writer.EndArray();
    writer.Key("channels");
    writer.StartArray();
    for (const auto* channel : guild.sorted_channels())
      write_raw(writer, channel_json(*channel, false), rapidjson::kObjectType);
    writer.EndArray();
    writer.EndObject();
  });
}

std::string EmulatorService::guild_ready_json(const GatewaySession& session) {
  const bool obfuscating = guild_obfuscates_for(session);
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto* guild : state_.guilds.guilds_of_user(session.user_id)) {
      if (session.bot) {
        // A bot's READY: the unavailable-guild stubs of its shard (GUILD_CREATE follows with each guild).
        if (!guild_in_shard(session, guild->id)) continue;
        writer.StartObject();
        writer.Key("id");
        write_string(writer, guild->id);
        writer.Key("unavailable");
        writer.Bool(true);
        writer.EndObject();
        continue;
      }
      writer.StartObject();
      writer.Key("id");
      write_string(writer, guild->id);
      writer.Key("name");
      write_string(writer, guild->name);
      writer.Key("banner");
      write_optional(writer, guild->banner);
      writer.Key("channels");
      writer.StartArray();
      for (const auto* channel : guild->sorted_channels()) {
        const bool hidden = obfuscating && !can_view_channel(*guild, *channel, session.user_id);
        write_raw(writer, channel_json(*channel, hidden), rapidjson::kObjectType);
      }
      writer.EndArray();
      writer.EndObject();
    }
    writer.EndArray();
  });
}

void EmulatorService::guild_channel_dispatch(std::string_view type, const Guild& guild,
                                             const GuildChannel& channel) {
  std::vector<std::pair<std::string, std::string>> targets;  // (session id, d)
  for (const auto& [session_id, session] : gateway_sessions_) {
    if (!guild.has_member(session.user_id)) continue;
    // A bot gets guild events on the shard of the guild, with the GUILDS intent.
    if (session.bot &&
        (!guild_in_shard(session, guild.id) || (session.intents & gateway_intent::kGuilds) == 0))
      continue;
    const bool hidden = guild_obfuscates_for(session) && !can_view_channel(guild, channel, session.user_id);
    targets.emplace_back(session_id, channel_json(channel, hidden));
  }
  for (const auto& [session_id, d] : targets)
    gateway_dispatch(session_id, type, d);
}

// op 8 {guild_id, query?, limit?, nonce?}. A guild the user is not a member of is ignored (our choice).
// The all-members form (empty query, limit 0) is limited per guild per user; GUILD_MEMBERS intent is not
// required (our choice: the emulator approves privileged intents for bots anyway).
void EmulatorService::gateway_request_guild_members(std::uint64_t id, const rapidjson::Value& d) {
  const auto connection = gateway_connections_.find(id);
  if (connection == gateway_connections_.end() || !connection->second.session_id) return;
  const auto session_id = *connection->second.session_id;
  const auto session = gateway_sessions_.find(session_id);
  if (session == gateway_sessions_.end()) return;
  const auto user_id = session->second.user_id;

  auto decode_error = [&] {
    gateway_close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  };
  if (!d.IsObject()) return decode_error();
  const auto guild_member = d.FindMember("guild_id");
  if (guild_member == d.MemberEnd() || !guild_member->value.IsString()) return decode_error();
  const std::string guild_id(guild_member->value.GetString(), guild_member->value.GetStringLength());
  std::string query;
  if (const auto it = d.FindMember("query"); it != d.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsString()) return decode_error();
    query.assign(it->value.GetString(), it->value.GetStringLength());
  }
  std::uint64_t limit = 0;
  if (const auto it = d.FindMember("limit"); it != d.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsUint64()) return decode_error();
    limit = it->value.GetUint64();
  }
  std::optional<std::string> nonce;
  if (const auto it = d.FindMember("nonce"); it != d.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsString()) return decode_error();
    nonce.emplace(it->value.GetString(), it->value.GetStringLength());
  }

  const auto* guild = state_.guilds.find_guild(guild_id);
  if (guild == nullptr || !guild->has_member(user_id)) return;
  if (query.empty() && limit == 0) {
    const auto wait_ms = state_.guilds.take_all_members_request(user_id, guild_id, clock_.now_ms(),
                                                                kAllMembersRequestWindowMs);
    if (wait_ms) {
      gateway_dispatch(session_id, "RATE_LIMITED", to_json([&](JsonWriter& writer) {
                         writer.StartObject();
                         writer.Key("opcode");
                         writer.Int(kRequestGuildMembersOpcode);
                         writer.Key("retry_after");
                         writer.Double(static_cast<double>(*wait_ms) / 1000.0);
                         writer.Key("meta");
                         writer.StartObject();
                         writer.Key("guild_id");
                         write_string(writer, guild_id);
                         if (nonce) {
                           writer.Key("nonce");
                           write_string(writer, *nonce);
                         }
                         writer.EndObject();
                         writer.EndObject();
                       }));
      return;
    }
  }

  std::vector<const GuildMember*> members;
  for (const auto& [member_id, member] : guild->members) {
    const auto* user = state_.find_user(member_id);
    if (user == nullptr || !ascii_istarts_with(user->username, query)) continue;
    members.push_back(&member);
  }
  std::sort(members.begin(), members.end(), [](const GuildMember* a, const GuildMember* b) {
    if (a->user_id.size() != b->user_id.size()) return a->user_id.size() < b->user_id.size();
    return a->user_id < b->user_id;
  });
  if (limit != 0 && members.size() > limit) members.resize(limit);
  gateway_dispatch(session_id, "GUILD_MEMBERS_CHUNK", to_json([&](JsonWriter& writer) {
                     writer.StartObject();
                     writer.Key("guild_id");
                     write_string(writer, guild_id);
                     writer.Key("members");
                     writer.StartArray();
                     for (const auto* member : members) {
                       write_raw(writer, guild_member_json(*member, *state_.find_user(member->user_id)),
                                 rapidjson::kObjectType);
                     }
                     writer.EndArray();
                     writer.Key("chunk_index");
                     writer.Int(0);
                     writer.Key("chunk_count");
                     writer.Int(1);
                     if (nonce) {
                       writer.Key("nonce");
                       write_string(writer, *nonce);
                     }
                     writer.EndObject();
                   }));
}

// ---- admin ----------------------------------------------------------------------------------------------

// {name, owner_id, banner?, icon?, features?, everyone_permissions?}: the owner becomes a member; the
// @everyone role gets the guild's id.
HttpResponse EmulatorService::admin_create_guild(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  Guild guild;
  if (auto name = fields.string("name", true)) {
    const auto length = utf8_length(*name);
    if (length < 2 || length > 100) fields.add_issue("name", length_issue(2, 100));
    guild.name = std::move(*name);
  }
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
  auto everyone_permissions = kDefaultEveryonePermissions;
  if (const auto* bits = fields.value("everyone_permissions", false)) {
    if (auto parsed = read_bits(*bits)) {
      everyone_permissions = *parsed;
    } else {
      fields.add_issue("everyone_permissions", bits_issue());
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (state_.find_user(*owner_id) == nullptr)
    return error_response(404, error_code::kUnknownUser, "Unknown User");
  guild.id = snowflakes_.next_string();
  guild.owner_id = *owner_id;
  guild.roles.push_back({guild.id, "@everyone", everyone_permissions});
  guild.members.emplace(*owner_id, GuildMember{*owner_id, {}, clock_.now_ms()});
  const auto& stored = state_.guilds.add_guild(std::move(guild));
  return HttpResponse::json(200, admin_guild_json(stored));
}

// {user_id, roles?}: adds the member, or replaces an existing member's roles.
HttpResponse EmulatorService::admin_add_guild_member(const RouteContext& context) {
  auto* guild = state_.guilds.find_guild(context.params.at("guild_id"));
  if (guild == nullptr) return error_response(404, kUnknownGuild, "Unknown Guild");
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
  if (user == nullptr) return error_response(404, error_code::kUnknownUser, "Unknown User");
  member.user_id = *user_id;
  const auto existing = guild->members.find(*user_id);
  member.joined_at_ms = existing != guild->members.end() ? existing->second.joined_at_ms : clock_.now_ms();
  guild->members.insert_or_assign(*user_id, member);
  return HttpResponse::json(200, guild_member_json(member, *user));
}

// {name, permissions}: permissions as a decimal string (or an integer).
HttpResponse EmulatorService::admin_create_role(const RouteContext& context) {
  auto* guild = state_.guilds.find_guild(context.params.at("guild_id"));
  if (guild == nullptr) return error_response(404, kUnknownGuild, "Unknown Guild");
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  GuildRole role;
  if (auto name = fields.string("name", true)) {
    const auto length = utf8_length(*name);
    if (length < 1 || length > 100) fields.add_issue("name", length_issue(1, 100));
    role.name = std::move(*name);
  }
  if (const auto* bits = fields.value("permissions", false)) {
    if (auto parsed = read_bits(*bits)) {
      role.permissions = *parsed;
    } else {
      fields.add_issue("permissions", bits_issue());
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  role.id = snowflakes_.next_string();
  guild->roles.push_back(role);
  return HttpResponse::json(200, role_json(role));
}

HttpResponse EmulatorService::admin_create_channel(const RouteContext& context) {
  auto* guild = state_.guilds.find_guild(context.params.at("guild_id"));
  if (guild == nullptr) return error_response(404, kUnknownGuild, "Unknown Guild");
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  GuildChannel channel;
  channel.guild_id = guild->id;
  read_channel_fields(body, *guild, state_, channel, true, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  channel.id = snowflakes_.next_string();
  const auto& stored = guild->channels.emplace(channel.id, std::move(channel)).first->second;
  guild_channel_dispatch("CHANNEL_CREATE", *guild, stored);
  return HttpResponse::json(200, channel_json(stored, false));
}

HttpResponse EmulatorService::admin_update_channel(const RouteContext& context) {
  auto* guild = state_.guilds.find_guild(context.params.at("guild_id"));
  if (guild == nullptr) return error_response(404, kUnknownGuild, "Unknown Guild");
  const auto it = guild->channels.find(context.params.at("channel_id"));
  if (it == guild->channels.end()) return error_response(404, kUnknownChannel, "Unknown Channel");
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  auto channel = it->second;
  read_channel_fields(body, *guild, state_, channel, false, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  it->second = std::move(channel);
  guild_channel_dispatch("CHANNEL_UPDATE", *guild, it->second);
  return HttpResponse::json(200, channel_json(it->second, false));
}

// Answers the deleted channel; the channels of a deleted category lose their parent (CHANNEL_UPDATE each).
HttpResponse EmulatorService::admin_delete_channel(const RouteContext& context) {
  auto* guild = state_.guilds.find_guild(context.params.at("guild_id"));
  if (guild == nullptr) return error_response(404, kUnknownGuild, "Unknown Guild");
  const auto it = guild->channels.find(context.params.at("channel_id"));
  if (it == guild->channels.end()) return error_response(404, kUnknownChannel, "Unknown Channel");
  const auto channel = std::move(it->second);
  guild->channels.erase(it);
  guild_channel_dispatch("CHANNEL_DELETE", *guild, channel);
  for (auto& [id, child] : guild->channels) {
    if (child.parent_id != channel.id) continue;
    child.parent_id.reset();
    guild_channel_dispatch("CHANNEL_UPDATE", *guild, child);
  }
  return HttpResponse::json(200, channel_json(channel, false));
}

}  // namespace platformpp::emulator
