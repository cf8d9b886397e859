// Guilds on the Gateway: READY's `guilds` (a bot's as unavailable stubs, then a GUILD_CREATE each), channel
// changes dispatched with per-recipient obfuscation, op 8 Request Guild Members with its all-members limit,
// and the requests the platform answers with guild data: op 31 (soundboard sounds) and op 43 (channel info).
// The routes are in guild_routes.cpp.
#include "guild/guild_module.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "guild/guild_json.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kRequestGuildMembersOpcode = 8;
constexpr int kRequestSoundboardSoundsOpcode = 31;
constexpr int kRequestChannelInfoOpcode = 43;
// Request Guild Members: a prefix query or a list of ids returns at most this many members.
constexpr std::uint64_t kMaxMembersPerRequest = 100;
// A longer nonce is ignored: the chunks carry none.
constexpr std::size_t kMaxMembersChunkNonceBytes = 32;

bool ascii_istarts_with(std::string_view text, std::string_view prefix) {
  if (prefix.size() > text.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  }
  return true;
}

}  // namespace

GuildModule::GuildModule(ServiceContext& context, GatewayModule& gateway)
    : FeatureModule(context), gateway_(gateway) {
  guilds_.register_documents(changes_);
  invites_.register_documents(changes_);
  register_routes();
  register_role_routes();
  register_member_routes();
  register_audit_log_routes();
  register_channel_routes();
  register_automod_routes();
  register_voice_routes();
  register_soundboard_routes();
  soundboard_.register_documents(changes_);
  register_invite_routes();
  register_voice_document();
  gateway_.set_op_handler(
      kRequestGuildMembersOpcode,
      [this](std::uint64_t connection, const rapidjson::Value& d) { request_guild_members(connection, d); });
  gateway_.set_op_handler(kRequestSoundboardSoundsOpcode,
                          [this](std::uint64_t connection, const rapidjson::Value& d) {
                            request_soundboard_sounds(connection, d);
                          });
  gateway_.set_op_handler(
      kRequestChannelInfoOpcode,
      [this](std::uint64_t connection, const rapidjson::Value& d) { request_channel_info(connection, d); });
}

// ---- GatewayListener
// ---------------------------------------------------------------------------------------

void GuildModule::fill_ready(const GatewaySession& session, ReadyContent& ready) {
  ready.guilds = guild_ready_json(session);
}

// A bot's READY lists its guilds as unavailable; each then arrives whole in a GUILD_CREATE.
void GuildModule::session_ready(const GatewaySession& session) {
  if (!session.bot || (session.intents & gateway_intent::kGuilds) == 0) return;
  const auto session_id = session.id;
  for (const auto* guild : guilds_.guilds_of_user(session.user_id)) {
    if (guild_in_shard(session, guild->id))
      gateway_.dispatch(session_id, "GUILD_CREATE", guild_create_json(*guild, session));
  }
}

// ---- Gateway
// -----------------------------------------------------------------------------------------------

bool GuildModule::obfuscates_for(const GatewaySession& session) {
  if ((session.capabilities & kChannelObfuscationCapability) != 0 ||
      clock_.now_ms() >= kChannelObfuscationDateMs)
    return true;
  const auto* app = state_.find_application(session.app_id);
  return app != nullptr && app->private_channel_obfuscation;
}

bool guild_in_shard(const GatewaySession& session, std::string_view guild_id) {
  if (!session.bot || session.shard_count <= 1) return true;
  std::uint64_t id = 0;
  std::from_chars(guild_id.data(), guild_id.data() + guild_id.size(), id);  // the emulator's own snowflakes
  return static_cast<std::int64_t>((id >> 22) % static_cast<std::uint64_t>(session.shard_count)) ==
         session.shard_id;
}

std::string GuildModule::guild_create_json(const Guild& guild, const GatewaySession& session) const {
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
    for (const auto& role : guild.roles)
      write_raw(writer, role_json(role), rapidjson::kObjectType);
    writer.EndArray();
    for (const char* empty :
         {"emojis", "stickers", "threads", "presences", "stage_instances", "guild_scheduled_events"}) {
      writer.Key(empty);
      writer.StartArray();
      writer.EndArray();
    }
    writer.Key("voice_states");
    writer.StartArray();
    for (const auto* state : voice_.in_guild(guild.id))
      write_raw(writer, voice_state_json(*state, true, true), rapidjson::kObjectType);
    writer.EndArray();
    writer.Key("soundboard_sounds");
    write_raw(writer, soundboard_sounds_json(guild.id), rapidjson::kArrayType);
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

std::string GuildModule::guild_ready_json(const GatewaySession& session) {
  const bool obfuscating = obfuscates_for(session);
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto* guild : guilds_.guilds_of_user(session.user_id)) {
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
      write_optional_string(writer, guild->banner);
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

void GuildModule::channel_dispatch(std::string_view type, const Guild& guild, const GuildChannel& channel) {
  std::vector<std::pair<std::string, std::string>> targets;  // (session id, d)
  for (const auto& [session_id, session] : gateway_.sessions()) {
    if (!guild.has_member(session.user_id)) continue;
    // A bot gets guild events on the shard of the guild, with the GUILDS intent.
    if (session.bot &&
        (!guild_in_shard(session, guild.id) || (session.intents & gateway_intent::kGuilds) == 0))
      continue;
    const bool hidden = obfuscates_for(session) && !can_view_channel(guild, channel, session.user_id);
    targets.emplace_back(session_id, channel_json(channel, hidden));
  }
  for (const auto& [session_id, d] : targets)
    gateway_.dispatch(session_id, type, d);
}

void GuildModule::close_malformed(std::uint64_t id) {
  gateway_.close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
}

std::optional<std::string> GuildModule::guild_of_request(std::uint64_t id, const rapidjson::Value& d) {
  const auto guild = d.IsObject() ? d.FindMember("guild_id") : rapidjson::Value::ConstMemberIterator();
  if (!d.IsObject() || guild == d.MemberEnd() || !guild->value.IsString()) {
    close_malformed(id);
    return std::nullopt;
  }
  return std::string(guild->value.GetString(), guild->value.GetStringLength());
}

// op 8 {guild_id, query?, limit?, user_ids?, presences?, nonce?}: one of query and user_ids (neither: a
// decode error). A query returns at most 100 members unless it is the all-members form (empty query, limit
// 0), which is limited per guild per user; user_ids (one id or an array) return at most 100 and name the rest
// not_found. A nonce over 32 bytes is ignored, as the platform documents. A guild the user is not a member of
// gets an empty chunk (our choice: an answer that says nothing of the guild, rather than silence).
// A bot asking for the entire list (an empty query, whatever the limit) needs the GUILD_MEMBERS intent, as
// the platform documents: without it the request is not answered (clients waiting for chunks time out, as
// they do on the platform) and does not count against the all-members limit. Users' sessions carry no
// intents.
void GuildModule::request_guild_members(std::uint64_t id, const rapidjson::Value& d) {
  const auto* session = gateway_.session_of(id);
  if (session == nullptr) return;
  const auto session_id = session->id;
  const auto user_id = session->user_id;

  auto decode_error = [&] { close_malformed(id); };
  const auto requested = guild_of_request(id, d);
  if (!requested) return;
  const std::string& guild_id = *requested;
  std::optional<std::string> query;
  if (const auto it = d.FindMember("query"); it != d.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsString()) return decode_error();
    query.emplace(it->value.GetString(), it->value.GetStringLength());
  }
  std::optional<std::vector<std::string>> user_ids;
  if (const auto it = d.FindMember("user_ids"); it != d.MemberEnd() && !it->value.IsNull()) {
    user_ids.emplace();
    if (it->value.IsString()) {
      user_ids->emplace_back(it->value.GetString(), it->value.GetStringLength());
    } else if (it->value.IsArray()) {
      for (const auto& entry : it->value.GetArray()) {
        if (!entry.IsString()) return decode_error();
        user_ids->emplace_back(entry.GetString(), entry.GetStringLength());
      }
    } else {
      return decode_error();
    }
  }
  if (!query && !user_ids) return decode_error();
  std::uint64_t limit = 0;
  if (const auto it = d.FindMember("limit"); it != d.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsUint64()) return decode_error();
    limit = it->value.GetUint64();
  }
  if (const auto it = d.FindMember("presences");
      it != d.MemberEnd() && !it->value.IsNull() && !it->value.IsBool())
    return decode_error();
  std::optional<std::string> nonce;
  if (const auto it = d.FindMember("nonce"); it != d.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsString()) return decode_error();
    if (it->value.GetStringLength() <= kMaxMembersChunkNonceBytes)
      nonce.emplace(it->value.GetString(), it->value.GetStringLength());
  }

  if (session->bot && (session->intents & gateway_intent::kGuildMembers) == 0 && !user_ids && query->empty())
    return;
  const auto* guild = guilds_.find_guild(guild_id);
  const bool visible = guild != nullptr && guild->has_member(user_id);
  if (visible && !user_ids && query->empty() && limit == 0) {
    const auto wait_ms =
        guilds_.take_all_members_request(user_id, guild_id, clock_.now_ms(), kAllMembersRequestWindowMs);
    if (wait_ms) {
      gateway_.dispatch(session_id, "RATE_LIMITED", to_json([&](JsonWriter& writer) {
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
  std::vector<std::string> not_found;
  if (user_ids) {
    for (const auto& wanted : *user_ids) {
      if (members.size() + not_found.size() >= kMaxMembersPerRequest) break;
      const auto* member = visible ? guild->find_member(wanted) : nullptr;
      if (member != nullptr && state_.find_user(wanted) != nullptr) {
        members.push_back(member);
      } else {
        not_found.push_back(wanted);
      }
    }
  } else if (visible) {
    for (const auto& [member_id, member] : guild->members) {
      const auto* user = state_.find_user(member_id);
      if (user == nullptr || !ascii_istarts_with(user->username, *query)) continue;
      members.push_back(&member);
    }
    std::sort(members.begin(), members.end(), [](const GuildMember* a, const GuildMember* b) {
      if (a->user_id.size() != b->user_id.size()) return a->user_id.size() < b->user_id.size();
      return a->user_id < b->user_id;
    });
    // A prefix returns at most 100; only the all-members form (empty query, limit 0) returns everyone.
    const std::uint64_t cap =
        query->empty() && limit == 0
            ? 0
            : std::min<std::uint64_t>(limit == 0 ? kMaxMembersPerRequest : limit, kMaxMembersPerRequest);
    if (cap != 0 && members.size() > cap) members.resize(cap);
  }
  gateway_.dispatch(session_id, "GUILD_MEMBERS_CHUNK", to_json([&](JsonWriter& writer) {
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
                      if (user_ids) {
                        writer.Key("not_found");
                        writer.StartArray();
                        for (const auto& missing : not_found)
                          write_string(writer, missing);
                        writer.EndArray();
                      }
                      if (nonce) {
                        writer.Key("nonce");
                        write_string(writer, *nonce);
                      }
                      writer.EndObject();
                    }));
}

// op 31 {guild_ids: [...]}: a SOUNDBOARD_SOUNDS {guild_id, soundboard_sounds} for each guild, in the order
// asked, with the guild's sounds (soundboard_routes.cpp); a guild the user is not in gets an empty list (our
// choice, as for op 8).
void GuildModule::request_soundboard_sounds(std::uint64_t id, const rapidjson::Value& d) {
  const auto* session = gateway_.session_of(id);
  if (session == nullptr) return;
  const auto session_id = session->id;
  const auto guild_ids = d.IsObject() ? d.FindMember("guild_ids") : rapidjson::Value::ConstMemberIterator();
  const bool valid = d.IsObject() && guild_ids != d.MemberEnd() && guild_ids->value.IsArray() &&
                     std::all_of(guild_ids->value.Begin(), guild_ids->value.End(),
                                 [](const rapidjson::Value& entry) { return entry.IsString(); });
  if (!valid) return close_malformed(id);
  std::vector<std::string> requested;
  for (const auto& entry : guild_ids->value.GetArray())
    requested.emplace_back(entry.GetString(), entry.GetStringLength());
  const auto user_id = session->user_id;
  for (const auto& guild_id : requested) {
    const auto* guild = guilds_.find_guild(guild_id);
    const bool member = guild != nullptr && guild->has_member(user_id);
    gateway_.dispatch(session_id, "SOUNDBOARD_SOUNDS", to_json([&](JsonWriter& writer) {
                        writer.StartObject();
                        writer.Key("soundboard_sounds");
                        if (member) {
                          write_raw(writer, soundboard_sounds_json(guild_id), rapidjson::kArrayType);
                        } else {
                          writer.StartArray();
                          writer.EndArray();
                        }
                        writer.Key("guild_id");
                        write_string(writer, guild_id);
                        writer.EndObject();
                      }));
  }
}

// op 43 {guild_id, fields: [...]}: one CHANNEL_INFO {guild_id, channels: [{id, <each field asked for>}]} for
// the guild's voice and stage channels the user can view. `status` and `voice_start_time` are the fields the
// platform offers (others are skipped): the channel's status (null when none is set) and its voice session's
// start in Unix seconds (null while nobody is connected; voice_routes.cpp). A guild the user is not in: no
// channels.
void GuildModule::request_channel_info(std::uint64_t id, const rapidjson::Value& d) {
  const auto* session = gateway_.session_of(id);
  if (session == nullptr) return;
  const auto session_id = session->id;
  const auto user_id = session->user_id;
  const auto requested = guild_of_request(id, d);
  if (!requested) return;
  const std::string& guild_id = *requested;
  const auto fields_member = d.FindMember("fields");
  if (fields_member == d.MemberEnd() || !fields_member->value.IsArray()) return close_malformed(id);
  bool status = false;
  bool start_time = false;
  for (const auto& field : fields_member->value.GetArray()) {
    if (!field.IsString()) return close_malformed(id);
    const std::string_view name(field.GetString(), field.GetStringLength());
    status = status || name == "status";
    start_time = start_time || name == "voice_start_time";
  }
  const auto* guild = guilds_.find_guild(guild_id);
  std::vector<const GuildChannel*> channels;
  if (guild != nullptr && guild->has_member(user_id)) {
    for (const auto* channel : guild->sorted_channels()) {
      const bool voice = channel->type == kGuildVoiceChannelType || channel->type == kGuildStageChannelType;
      if (voice && can_view_channel(*guild, *channel, user_id)) channels.push_back(channel);
    }
  }
  gateway_.dispatch(session_id, "CHANNEL_INFO", to_json([&](JsonWriter& writer) {
                      writer.StartObject();
                      writer.Key("guild_id");
                      write_string(writer, guild_id);
                      writer.Key("channels");
                      writer.StartArray();
                      for (const auto* channel : channels) {
                        writer.StartObject();
                        writer.Key("id");
                        write_string(writer, channel->id);
                        if (status) {
                          writer.Key("status");
                          write_optional_string(writer, channel->voice_status);
                        }
                        if (start_time) {
                          writer.Key("voice_start_time");
                          if (const auto start_s = voice_.start_time_s(channel->id)) {
                            writer.Int64(*start_s);
                          } else {
                            writer.Null();
                          }
                        }
                        writer.EndObject();
                      }
                      writer.EndArray();
                      writer.EndObject();
                    }));
}

}  // namespace platformpp::emulator
