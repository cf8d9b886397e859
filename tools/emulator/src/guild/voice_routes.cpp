// Guild voice channels: voice states set through the main Gateway's op 4 (VoiceModule hands over every op 4
// that names no lobby), VOICE_STATE_UPDATE to the guild and VOICE_SERVER_UPDATE to the joiner, the voice
// session's start time (VOICE_CHANNEL_START_TIME_UPDATE), Get Current User Voice State and Get User Voice
// State, and Set Voice Channel Status (VOICE_CHANNEL_STATUS_UPDATE, audit entries 192 and 193).
//
// Choices where the platform is silent (docs/http-api.md, "Voice channels"): an op 4 the platform would not
// act on (an unknown guild or channel, a channel that is not voice or stage, no CONNECT or VIEW_CHANNEL) is
// ignored: no dispatch, the connection stays. A channel's status clears when its last member leaves (no
// audit entry: nobody cleared it), and is kept across restarts while the channel has no one to empty it.
#include <algorithm>
#include <utility>
#include <variant>
#include <vector>

#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/random_token.hpp"
#include "core/validation.hpp"
#include "guild/guild_fields.hpp"
#include "guild/guild_json.hpp"
#include "guild/guild_module.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kUnknownVoiceState = 10065;
constexpr int kCannotExecuteOnChannelType = 50024;

HttpResponse unknown_voice_state() {
  return error_response(404, kUnknownVoiceState, "Unknown Voice State");
}

bool is_voice_type(int type) {
  return type == kGuildVoiceChannelType || type == kGuildStageChannelType;
}

}  // namespace

void GuildModule::register_voice_routes() {
  // The literal route before the one with {user_id}.
  api_router_.add("GET", "/guilds/{guild_id}/voice-states/@me", bind(&GuildModule::api_get_own_voice_state));
  api_router_.add("GET", "/guilds/{guild_id}/voice-states/{user_id}",
                  bind(&GuildModule::api_get_user_voice_state));
  api_router_.add("PUT", "/channels/{channel_id}/voice-status", bind(&GuildModule::api_set_voice_status));
}

// ---- voice states
// ------------------------------------------------------------------------------------------

std::string GuildModule::voice_state_json(const GuildVoiceState& state, bool connected,
                                          bool in_guild_create) const {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    if (!in_guild_create) {
      writer.Key("guild_id");
      write_string(writer, state.guild_id);
    }
    writer.Key("channel_id");
    if (connected) {
      write_string(writer, state.channel_id);
    } else {
      writer.Null();
    }
    writer.Key("user_id");
    write_string(writer, state.user_id);
    if (!in_guild_create) {
      const auto* guild = guilds_.find_guild(state.guild_id);
      const auto* member = guild != nullptr ? guild->find_member(state.user_id) : nullptr;
      const auto* user = state_.find_user(state.user_id);
      if (member != nullptr && user != nullptr) {
        writer.Key("member");
        write_raw(writer, guild_member_json(*member, *user), rapidjson::kObjectType);
      }
    }
    writer.Key("session_id");
    write_string(writer, state.session_id);
    // The emulator has no server mute or deafen: those stay false.
    writer.Key("deaf");
    writer.Bool(false);
    writer.Key("mute");
    writer.Bool(false);
    writer.Key("self_deaf");
    writer.Bool(state.self_deaf);
    writer.Key("self_mute");
    writer.Bool(state.self_mute);
    writer.Key("self_stream");
    writer.Bool(false);
    writer.Key("self_video");
    writer.Bool(false);
    writer.Key("suppress");
    writer.Bool(state.suppress);
    writer.Key("request_to_speak_timestamp");
    writer.Null();
    writer.EndObject();
  });
}

void GuildModule::guild_intent_dispatch(const Guild& guild, std::string_view type, const std::string& d_json,
                                        std::uint64_t intent, const std::vector<std::string>* users) {
  std::vector<std::string> targets;
  for (const auto& [session_id, session] : gateway_.sessions()) {
    if (!guild.has_member(session.user_id)) continue;
    if (users != nullptr && std::find(users->begin(), users->end(), session.user_id) == users->end())
      continue;
    if (session.bot && (!guild_in_shard(session, guild.id) || (session.intents & intent) == 0)) continue;
    targets.push_back(session_id);
  }
  for (const auto& session_id : targets)
    gateway_.dispatch(session_id, type, d_json);
}

// op 4 {guild_id, channel_id, self_mute, self_deaf}. Members of the wrong type close the connection with
// 4002 (as for lobby calls); self_mute and self_deaf default to false.
void GuildModule::guild_voice_state_update(std::uint64_t connection, const rapidjson::Value& d) {
  const auto guild_member = d.FindMember("guild_id");
  const auto channel_member = d.FindMember("channel_id");
  const auto mute = d.FindMember("self_mute");
  const auto deaf = d.FindMember("self_deaf");
  if (guild_member == d.MemberEnd() || !guild_member->value.IsString() || channel_member == d.MemberEnd() ||
      !(channel_member->value.IsString() || channel_member->value.IsNull()) ||
      (mute != d.MemberEnd() && !mute->value.IsBool()) || (deaf != d.MemberEnd() && !deaf->value.IsBool())) {
    return close_malformed(connection);
  }
  const auto* session = gateway_.session_of(connection);
  if (session == nullptr) return;
  const auto session_id = session->id;
  const auto user_id = session->user_id;
  const std::string guild_id(guild_member->value.GetString(), guild_member->value.GetStringLength());
  const auto* guild = guilds_.find_guild(guild_id);
  if (guild == nullptr || !guild->has_member(user_id)) return;
  if (channel_member->value.IsNull()) return leave_voice(guild_id, user_id);

  const std::string channel_id(channel_member->value.GetString(), channel_member->value.GetStringLength());
  const auto channel = guild->channels.find(channel_id);
  if (channel == guild->channels.end() || !is_voice_type(channel->second.type)) return;
  // Joining needs VIEW_CHANNEL and CONNECT in the channel (a timeout leaves neither).
  const auto allowed = channel_permissions(*guild, channel->second, user_id, clock_.now_ms());
  if ((allowed & (permission::kViewChannel | permission::kConnect)) !=
      (permission::kViewChannel | permission::kConnect))
    return;

  const bool self_mute = mute != d.MemberEnd() && mute->value.GetBool();
  const bool self_deaf = deaf != d.MemberEnd() && deaf->value.GetBool();
  const auto key = std::make_pair(guild_id, user_id);
  auto existing = voice_.states.find(key);
  if (existing != voice_.states.end() && existing->second.channel_id == channel_id &&
      existing->second.session_id == session_id) {
    // Only the self mute or deafen changes.
    if (existing->second.self_mute == self_mute && existing->second.self_deaf == self_deaf) return;
    existing->second.self_mute = self_mute;
    existing->second.self_deaf = self_deaf;
    voice_changed(guild_id);
    return guild_intent_dispatch(*guild, "VOICE_STATE_UPDATE",
                                 voice_state_json(existing->second, true, false),
                                 gateway_intent::kGuildVoiceStates);
  }
  // A join, or a move (from another channel, or from another Gateway session of the user).
  std::optional<std::string> left_channel;
  const bool new_connection = existing == voice_.states.end() || existing->second.session_id != session_id;
  if (existing != voice_.states.end()) {
    if (existing->second.channel_id != channel_id) left_channel = existing->second.channel_id;
    voice_.states.erase(existing);
  }
  GuildVoiceState state;
  state.guild_id = guild_id;
  state.channel_id = channel_id;
  state.user_id = user_id;
  state.session_id = session_id;
  state.self_mute = self_mute;
  state.self_deaf = self_deaf;
  state.suppress = channel->second.type == kGuildStageChannelType;  // a stage's audience
  state.token = random_token(16);
  const bool first = voice_.in_channel(channel_id).empty();
  const auto& stored = voice_.states.emplace(key, std::move(state)).first->second;
  voice_changed(guild_id);
  const auto token = stored.token;
  guild_intent_dispatch(*guild, "VOICE_STATE_UPDATE", voice_state_json(stored, true, false),
                        gateway_intent::kGuildVoiceStates);
  if (new_connection) {
    // The voice server to connect to: the emulator's voice gateway, as for lobby calls (guild channels carry
    // no media there: docs/http-api.md, "Voice channels").
    gateway_.dispatch(session_id, "VOICE_SERVER_UPDATE", to_json([&](JsonWriter& writer) {
                        writer.StartObject();
                        writer.Key("token");
                        write_string(writer, token);
                        writer.Key("guild_id");
                        write_string(writer, guild_id);
                        writer.Key("endpoint");
                        write_string(writer, endpoints_.cdn_host + "/voice");
                        writer.EndObject();
                      }));
  }
  if (first) voice_channel_joined(*guild, channel_id);
  if (left_channel) voice_channel_left(guild_id, *left_channel);
}

void GuildModule::leave_voice(const std::string& guild_id, const std::string& user_id) {
  const auto it = voice_.states.find({guild_id, user_id});
  if (it == voice_.states.end()) return;
  const auto state = std::move(it->second);
  voice_.states.erase(it);
  voice_changed(guild_id);
  if (const auto* guild = guilds_.find_guild(guild_id)) {
    guild_intent_dispatch(*guild, "VOICE_STATE_UPDATE", voice_state_json(state, false, false),
                          gateway_intent::kGuildVoiceStates);
  }
  voice_channel_left(guild_id, state.channel_id);
}

void GuildModule::voice_channel_joined(const Guild& guild, const std::string& channel_id) {
  const auto start_s = clock_.now_ms() / 1000;  // Unix seconds, as the platform writes it
  voice_.start_times_s.insert_or_assign(channel_id, start_s);
  guild_dispatch(guild, "VOICE_CHANNEL_START_TIME_UPDATE", to_json([&](JsonWriter& writer) {
                   writer.StartObject();
                   writer.Key("id");
                   write_string(writer, channel_id);
                   writer.Key("guild_id");
                   write_string(writer, guild.id);
                   writer.Key("voice_start_time");
                   writer.Int64(start_s);
                   writer.EndObject();
                 }));
}

void GuildModule::voice_channel_left(const std::string& guild_id, const std::string& channel_id) {
  if (!voice_.in_channel(channel_id).empty()) return;
  const auto* guild = guilds_.find_guild(guild_id);
  if (guild == nullptr) return;
  if (voice_.start_times_s.erase(channel_id) != 0) {
    guild_dispatch(*guild, "VOICE_CHANNEL_START_TIME_UPDATE", to_json([&](JsonWriter& writer) {
      writer.StartObject();
      writer.Key("id");
      write_string(writer, channel_id);
      writer.Key("guild_id");
      write_string(writer, guild_id);
      writer.Key("voice_start_time");
      writer.Null();
      writer.EndObject();
    }));
  }
  // The status belongs to the voice session: it clears once the channel is empty.
  const auto channel = guild->channels.find(channel_id);
  if (channel == guild->channels.end() || !channel->second.voice_status) return;
  auto& changed = *guilds_.find_guild_mutable(guild_id);
  auto& cleared = changed.channels.at(channel_id);
  cleared.voice_status.reset();
  dispatch_voice_status(changed, cleared);
}

void GuildModule::session_ending(const GatewaySession& session) {
  std::vector<std::pair<std::string, std::string>> ended;
  for (const auto& [key, state] : voice_.states) {
    if (state.session_id == session.id) ended.push_back(key);
  }
  for (const auto& [guild_id, user_id] : ended)
    leave_voice(guild_id, user_id);
}

void GuildModule::end_channel_voice(const std::string& guild_id, const std::string& channel_id) {
  std::vector<std::string> users;
  for (const auto* state : voice_.in_channel(channel_id))
    users.push_back(state->user_id);
  for (const auto& user_id : users)
    leave_voice(guild_id, user_id);
}

HttpResponse GuildModule::api_get_own_voice_state(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto* state = voice_.find(caller.guild->id, caller.user_id);
  if (state == nullptr) return unknown_voice_state();
  return HttpResponse::json(200, voice_state_json(*state, true, false));
}

// Another user's voice state: the caller needs CONNECT in the channel that user is connected to.
HttpResponse GuildModule::api_get_user_voice_state(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto* state = voice_.find(caller.guild->id, context.params.at("user_id"));
  if (state == nullptr) return unknown_voice_state();
  const auto channel = caller.guild->channels.find(state->channel_id);
  if (channel == caller.guild->channels.end() ||
      (channel_permissions(*caller.guild, channel->second, caller.user_id, clock_.now_ms()) &
       permission::kConnect) == 0)
    return missing_permissions();
  return HttpResponse::json(200, voice_state_json(*state, true, false));
}

// ---- voice channel status
// ----------------------------------------------------------------------------------

std::variant<GuildModule::VoiceChannelCaller, HttpResponse> GuildModule::voice_channel_caller(
    const RouteContext& context, bool stage_too) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto [guild, channel] = guilds_.find_channel(context.params.at("channel_id"));
  if (guild == nullptr || channel == nullptr) return unknown_channel();
  // Like the guild routes, these are a bot's: a user's OAuth2 token has no scope for them.
  if (principal->grant != nullptr || !guild->has_member(principal->user->id)) return missing_access();
  const auto permissions = channel_permissions(*guild, *channel, principal->user->id, clock_.now_ms());
  if ((permissions & permission::kViewChannel) == 0) return missing_access();
  if (channel->type != kGuildVoiceChannelType && !(stage_too && channel->type == kGuildStageChannelType)) {
    return error_response(400, kCannotExecuteOnChannelType, "Cannot execute action on this channel type");
  }
  return VoiceChannelCaller{guild, channel, principal->user->id, permissions};
}

void GuildModule::dispatch_voice_status(const Guild& guild, const GuildChannel& channel) {
  guild_dispatch(guild, "VOICE_CHANNEL_STATUS_UPDATE", to_json([&](JsonWriter& writer) {
                   writer.StartObject();
                   writer.Key("id");
                   write_string(writer, channel.id);
                   writer.Key("guild_id");
                   write_string(writer, guild.id);
                   writer.Key("status");
                   write_optional_string(writer, channel.voice_status);
                   writer.EndObject();
                 }));
}

// PUT {status: string|null}: SET_VOICE_CHANNEL_STATUS, and MANAGE_CHANNELS unless the caller is connected to
// the channel; at most 500 characters. An empty string, null or no status clears it. 204; a status equal to
// the current one changes nothing (no event, no audit entry).
HttpResponse GuildModule::api_set_voice_status(const RouteContext& context) {
  auto found = voice_channel_caller(context, false);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<VoiceChannelCaller>(found);
  auto needs = permission::kSetVoiceChannelStatus;
  const auto* own = voice_.find(caller.guild->id, caller.user_id);
  if (own == nullptr || own->channel_id != caller.channel->id) needs |= permission::kManageChannels;
  if ((caller.permissions & needs) != needs) return missing_permissions();
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto status = fields.string("status", false);
  if (status && utf8_length(*status) > kVoiceChannelStatusMaxCharacters) {
    fields.add_issue("status", {"BASE_TYPE_MAX_LENGTH", "Must be 500 or fewer in length."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (status && status->empty()) status.reset();
  if (status == caller.channel->voice_status) return HttpResponse::empty(204);

  auto& guild = *guilds_.find_guild_mutable(caller.guild->id);
  auto& channel = guild.channels.at(caller.channel->id);
  channel.voice_status = status;
  dispatch_voice_status(guild, channel);
  AuditLogEntry entry;
  entry.target_id = channel.id;
  entry.action_type =
      status ? audit_action::kVoiceChannelStatusCreate : audit_action::kVoiceChannelStatusDelete;
  entry.options.emplace_back("channel_id", channel.id);
  if (status) entry.options.emplace_back("status", *status);
  audit(guild, context.request, caller.user_id, std::move(entry));
  return HttpResponse::empty(204);
}

}  // namespace platformpp::emulator
