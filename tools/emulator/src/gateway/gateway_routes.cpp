// The Gateway's session protocol (protocols.md section 3): Hello, heartbeats, Identify -> READY, Resume with
// replay, presence updates fanned out to friends, the limits, and the admin routes under /_emulator/gateway
// (plus POST /_emulator/friendships) that inject faults and dispatches. Socket-free: the server reports
// WebSocket events here and sends what the GatewayPeer is given.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <variant>
#include <vector>

#include "core/activity.hpp"
#include "core/api_error.hpp"
#include "core/form_encoding.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/random_token.hpp"
#include "service/emulator_service.hpp"

namespace platformpp::emulator {

namespace {

namespace op {
inline constexpr int kDispatch = 0;
inline constexpr int kHeartbeat = 1;
inline constexpr int kIdentify = 2;
inline constexpr int kPresenceUpdate = 3;
inline constexpr int kVoiceStateUpdate = 4;
inline constexpr int kResume = 6;
inline constexpr int kReconnect = 7;
inline constexpr int kRequestGuildMembers = 8;
inline constexpr int kInvalidSession = 9;
inline constexpr int kHello = 10;
inline constexpr int kHeartbeatAck = 11;
inline constexpr int kRequestSoundboardSounds = 31;
inline constexpr int kRequestChannelInfo = 43;
}  // namespace op

constexpr int kRelationshipFriend = 1;
// Intent bits the platform defines (0-25); privileged: GUILD_MEMBERS (1), GUILD_PRESENCES (8),
// MESSAGE_CONTENT (15).
constexpr std::uint64_t kKnownIntents = (std::uint64_t{1} << 26) - 1;

std::int64_t steady_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string simple_payload(int opcode, std::string_view d_json) {
  return "{\"op\":" + std::to_string(opcode) + ",\"d\":" + std::string(d_json) + ",\"s\":null,\"t\":null}";
}

std::string json_text(const rapidjson::Value& value) {
  return to_json([&](JsonWriter& writer) { value.Accept(writer); });
}

bool close_ends_session(int code) {
  return code == 1000 || code == 1001 || code == gateway_close::kAuthenticationFailed ||
         code == gateway_close::kInvalidSeq || code == gateway_close::kSessionTimedOut ||
         (code >= 4010 && code <= 4014);
}

// Validates op 3's (and Identify presence's) d: {since, activities, status, afk}. Activities must be objects
// whose name, if any, is a string; those of a type other than 0, 2, 3 or 5 are dropped (never fanned out),
// and the server stamps the rest (stamp_activity: the session's application, id, created_at).
std::optional<Presence> read_presence(const rapidjson::Value& d, const Application* app,
                                      const std::string& app_id, std::int64_t now_ms) {
  if (!d.IsObject()) return std::nullopt;
  Presence presence;
  const auto status = d.FindMember("status");
  if (status == d.MemberEnd() || !status->value.IsString()) return std::nullopt;
  presence.status.assign(status->value.GetString(), status->value.GetStringLength());
  if (presence.status != "online" && presence.status != "idle" && presence.status != "dnd" &&
      presence.status != "invisible" && presence.status != "offline") {
    return std::nullopt;
  }
  const auto since = d.FindMember("since");
  if (since != d.MemberEnd() && !since->value.IsNull()) {
    if (!since->value.IsInt64()) return std::nullopt;
    presence.since = since->value.GetInt64();
  }
  const auto afk = d.FindMember("afk");
  if (afk != d.MemberEnd() && !afk->value.IsNull()) {
    if (!afk->value.IsBool()) return std::nullopt;
    presence.afk = afk->value.GetBool();
  }
  const auto activities = d.FindMember("activities");
  if (activities != d.MemberEnd() && !activities->value.IsNull()) {
    if (!activities->value.IsArray()) return std::nullopt;
    rapidjson::Document kept(rapidjson::kArrayType);
    auto& allocator = kept.GetAllocator();
    for (const auto& activity : activities->value.GetArray()) {
      if (!activity.IsObject()) return std::nullopt;
      const auto name = activity.FindMember("name");
      if (name != activity.MemberEnd() && !name->value.IsString()) return std::nullopt;
      const auto type = activity.FindMember("type");
      if (type == activity.MemberEnd() || !type->value.IsInt() ||
          !activity_type_allowed(type->value.GetInt()))
        continue;
      rapidjson::Value copy(activity, allocator);
      stamp_activity(copy, allocator, app, app_id, kept.Size(), now_ms);
      kept.PushBack(copy, allocator);
    }
    presence.activities = json_text(kept);
  }
  return presence;
}

}  // namespace

// ---- connections -------------------------------------------------------------------------------------

std::uint64_t EmulatorService::gateway_opened(GatewayPeer& peer, std::string_view target) {
  const auto id = next_gateway_connection_++;
  auto& connection = gateway_connections_[id];
  connection.peer = &peer;
  connection.last_heartbeat_steady_ms = steady_now_ms();
  connection.heartbeat_interval_ms = gateway_settings_.heartbeat_interval_ms;

  const auto question = target.find('?');
  const auto query = question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
  const auto fields = FormFields::parse(query);
  const auto version = fields ? fields->get("v") : std::nullopt;
  const auto encoding = fields ? fields->get("encoding") : std::nullopt;
  const auto compress = fields ? fields->get("compress") : std::nullopt;
  if (!version || *version != "10") {
    gateway_close_connection(id, gateway_close::kInvalidApiVersion, "Invalid API version");
    return id;
  }
  if (encoding && *encoding != "json") {
    gateway_close_connection(id, gateway_close::kDecodeError, "Unsupported encoding");
    return id;
  }
  if (compress && *compress != "zlib-stream") {
    gateway_close_connection(id, gateway_close::kDecodeError, "Unsupported compression");
    return id;
  }
  if (compress) {
    connection.compress = true;
    peer.enable_compression();
  }
  peer.send(simple_payload(op::kHello, "{\"heartbeat_interval\":" +
                                           std::to_string(gateway_settings_.heartbeat_interval_ms) + "}"));
  return id;
}

void EmulatorService::gateway_disconnected(std::uint64_t id, std::optional<int> close_code) {
  const auto it = gateway_connections_.find(id);
  if (it == gateway_connections_.end()) return;
  const auto session_id = it->second.session_id;
  gateway_connections_.erase(it);
  if (!session_id) return;
  const auto session = gateway_sessions_.find(*session_id);
  if (session == gateway_sessions_.end() || session->second.connection != id) return;
  if (close_code && (*close_code == 1000 || *close_code == 1001)) {
    gateway_end_session(*session_id);
    return;
  }
  session->second.connection.reset();
  session->second.detached_at_steady_ms = steady_now_ms();
  gateway_presence_changed(session->second.user_id);
  lobby_connection_changed(session->second.user_id, session->second.app_id);
}

void EmulatorService::gateway_close_connection(std::uint64_t id, int code, std::string_view reason) {
  const auto it = gateway_connections_.find(id);
  if (it == gateway_connections_.end()) return;
  auto* peer = it->second.peer;
  const auto session_id = it->second.session_id;
  gateway_connections_.erase(it);
  peer->close(code, std::string(reason));
  if (!session_id) return;
  const auto session = gateway_sessions_.find(*session_id);
  if (session == gateway_sessions_.end() || session->second.connection != id) return;
  if (close_ends_session(code)) {
    gateway_end_session(*session_id);
    return;
  }
  session->second.connection.reset();
  session->second.detached_at_steady_ms = steady_now_ms();
  gateway_presence_changed(session->second.user_id);
  lobby_connection_changed(session->second.user_id, session->second.app_id);
}

void EmulatorService::gateway_drop_connection(std::uint64_t id) {
  const auto it = gateway_connections_.find(id);
  if (it == gateway_connections_.end()) return;
  it->second.peer->drop();
  gateway_disconnected(id, std::nullopt);
}

void EmulatorService::gateway_detach(std::uint64_t id) {
  const auto it = gateway_connections_.find(id);
  if (it == gateway_connections_.end() || !it->second.session_id) return;
  const auto session = gateway_sessions_.find(*it->second.session_id);
  it->second.session_id.reset();
  if (session == gateway_sessions_.end() || session->second.connection != id) return;
  session->second.connection.reset();
  session->second.detached_at_steady_ms = steady_now_ms();
  lobby_connection_changed(session->second.user_id, session->second.app_id);
}

void EmulatorService::gateway_end_session(const std::string& session_id) {
  const auto session = gateway_sessions_.find(session_id);
  if (session == gateway_sessions_.end()) return;
  const auto user_id = session->second.user_id;
  const auto app_id = session->second.app_id;
  if (session->second.connection) {
    const auto connection = gateway_connections_.find(*session->second.connection);
    if (connection != gateway_connections_.end()) connection->second.session_id.reset();
  }
  voice_end_gateway_session(session_id);  // its lobby calls end with it
  gateway_sessions_.erase(session);
  // The user's last session: a later one starts with a fresh presence (online, no activities).
  if (!gateway_user_online(user_id)) presences_.erase(user_id);
  gateway_presence_changed(user_id);
  lobby_connection_changed(user_id, app_id);
}

void EmulatorService::gateway_tick() {
  const auto now = steady_now_ms();
  std::vector<std::uint64_t> zombies;
  for (const auto& [id, connection] : gateway_connections_) {
    const auto timeout = std::llround(static_cast<double>(connection.heartbeat_interval_ms) *
                                      gateway_settings_.zombie_timeout_factor);
    if (now - connection.last_heartbeat_steady_ms > timeout) zombies.push_back(id);
  }
  for (const auto id : zombies)
    gateway_close_connection(id, gateway_close::kSessionTimedOut, "Session timed out");
  std::vector<std::string> expired;
  for (const auto& [id, session] : gateway_sessions_) {
    if (!session.connection && now - session.detached_at_steady_ms > gateway_settings_.resume_window_ms)
      expired.push_back(id);
  }
  for (const auto& id : expired)
    gateway_end_session(id);
  lobby_sweep_idle();
  voice_tick();
}

// ---- client payloads -----------------------------------------------------------------------------------

void EmulatorService::gateway_received(std::uint64_t id, std::string_view message, bool text) {
  auto it = gateway_connections_.find(id);
  if (it == gateway_connections_.end()) return;
  auto& connection = it->second;

  // The event limit counts every client payload, well-formed or not.
  const auto now = clock_.now_ms();
  while (!connection.event_times_ms.empty() &&
         now - connection.event_times_ms.front() >= gateway_settings_.event_window_ms) {
    connection.event_times_ms.pop_front();
  }
  if (static_cast<std::int64_t>(connection.event_times_ms.size()) >= gateway_settings_.events_per_window) {
    return gateway_close_connection(id, gateway_close::kRateLimited, "You are being rate limited.");
  }
  connection.event_times_ms.push_back(now);

  if (!text || static_cast<std::int64_t>(message.size()) > gateway_settings_.max_payload_bytes) {
    return gateway_close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  rapidjson::Document payload;
  if (!parse_json(message, payload) || !payload.IsObject()) {
    return gateway_close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const auto op_member = payload.FindMember("op");
  if (op_member == payload.MemberEnd() || !op_member->value.IsInt()) {
    return gateway_close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const int opcode = op_member->value.GetInt();
  static const rapidjson::Value kNull;
  const auto d_member = payload.FindMember("d");
  const rapidjson::Value& d = d_member == payload.MemberEnd() ? kNull : d_member->value;

  switch (opcode) {
    case op::kHeartbeat:
      return gateway_heartbeat(id);
    case op::kIdentify:
      if (connection.identified) {
        return gateway_close_connection(id, gateway_close::kAlreadyAuthenticated, "Already authenticated.");
      }
      return gateway_identify(id, d);
    case op::kResume:
      if (connection.identified) {
        return gateway_close_connection(id, gateway_close::kAlreadyAuthenticated, "Already authenticated.");
      }
      return gateway_resume(id, d);
    case op::kPresenceUpdate:
    case op::kVoiceStateUpdate:
    case op::kRequestGuildMembers:
    case op::kRequestSoundboardSounds:
    case op::kRequestChannelInfo:
      if (!connection.identified) {
        return gateway_close_connection(id, gateway_close::kNotAuthenticated, "Not authenticated.");
      }
      if (opcode == op::kPresenceUpdate) return gateway_presence_update(id, d);
      if (opcode == op::kRequestGuildMembers) return gateway_request_guild_members(id, d);
      if (opcode == op::kVoiceStateUpdate) return gateway_voice_state_update(id, d);
      return;  // accepted; not modelled yet
    default:
      return gateway_close_connection(id, gateway_close::kUnknownOpcode, "Unknown opcode.");
  }
}

std::deque<std::int64_t>& EmulatorService::identify_starts(const std::string& app_id, std::int64_t now) {
  auto& starts = identify_times_[app_id];
  while (!starts.empty() && now - starts.front() >= gateway_settings_.identify_window_ms)
    starts.pop_front();
  return starts;
}

void EmulatorService::gateway_heartbeat(std::uint64_t id) {
  auto& connection = gateway_connections_.at(id);
  connection.last_heartbeat_steady_ms = steady_now_ms();
  ++connection.heartbeats_received;
  if (connection.stalled) return;
  ++connection.acks_sent;
  connection.peer->send(simple_payload(op::kHeartbeatAck, "null"));
}

void EmulatorService::gateway_identify(std::uint64_t id, const rapidjson::Value& d) {
  if (!d.IsObject()) {
    return gateway_close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const auto token_member = d.FindMember("token");
  if (token_member == d.MemberEnd() || !token_member->value.IsString()) {
    return gateway_close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const std::string_view token(token_member->value.GetString(), token_member->value.GetStringLength());
  const auto principal = gateway_authenticate(token);
  if (!principal) {
    return gateway_close_connection(id, gateway_close::kAuthenticationFailed, "Authentication failed.");
  }
  const bool bot = principal->grant == nullptr;
  const auto intents_member = d.FindMember("intents");
  if (intents_member == d.MemberEnd() || !intents_member->value.IsUint64() ||
      (intents_member->value.GetUint64() & ~kKnownIntents) != 0) {
    return gateway_close_connection(id, gateway_close::kInvalidIntents, "Invalid intent(s).");
  }
  const auto intents = intents_member->value.GetUint64();
  // A bot may ask for the privileged intents its application has enabled (all, unless the admin API turned
  // some off); user tokens get none.
  const auto& app = *principal->application;
  const std::uint64_t enabled = !bot ? 0
                                     : (app.intent_guild_members ? gateway_intent::kGuildMembers : 0) |
                                           (app.intent_presences ? gateway_intent::kGuildPresences : 0) |
                                           (app.intent_message_content ? gateway_intent::kMessageContent : 0);
  if ((intents & gateway_intent::kPrivileged & ~enabled) != 0) {
    return gateway_close_connection(id, gateway_close::kDisallowedIntents, "Disallowed intent(s).");
  }
  // `shard: [shard_id, num_shards]` (bots): 0 <= shard_id < num_shards, else 4010 Invalid shard. GET
  // /gateway/bot recommends 1; a bot that shards anyway gets, on each shard, the guilds with
  // (guild_id >> 22) % num_shards == shard_id, as on the platform.
  std::int64_t shard_id = 0;
  std::int64_t shard_count = 1;
  const auto shard_member = d.FindMember("shard");
  if (shard_member != d.MemberEnd() && !shard_member->value.IsNull()) {
    const auto& shard = shard_member->value;
    const bool valid = shard.IsArray() && shard.Size() == 2 && shard[0].IsInt64() && shard[1].IsInt64() &&
                       shard[1].GetInt64() >= 1 && shard[0].GetInt64() >= 0 &&
                       shard[0].GetInt64() < shard[1].GetInt64();
    if (!valid) return gateway_close_connection(id, gateway_close::kInvalidShard, "Invalid shard.");
    if (bot) {
      shard_id = shard[0].GetInt64();
      shard_count = shard[1].GetInt64();
    }
  }
  std::uint64_t capabilities = 0;
  const auto capabilities_member = d.FindMember("capabilities");
  if (capabilities_member != d.MemberEnd() && !capabilities_member->value.IsNull()) {
    if (!capabilities_member->value.IsUint64()) {
      return gateway_close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
    }
    capabilities = capabilities_member->value.GetUint64();
  }
  std::optional<Presence> presence;
  const auto presence_member = d.FindMember("presence");
  if (presence_member != d.MemberEnd() && !presence_member->value.IsNull()) {
    presence = read_presence(presence_member->value, principal->application, principal->application->id,
                             clock_.now_ms());
    if (!presence) {
      return gateway_close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
    }
  }

  // The identify budget per application, by the fake clock.
  const auto now = clock_.now_ms();
  auto& starts = identify_starts(principal->application->id, now);
  if (static_cast<std::int64_t>(starts.size()) >= gateway_settings_.identify_budget) {
    return gateway_close_connection(id, gateway_close::kRateLimited, "Identify budget exhausted.");
  }
  starts.push_back(now);

  GatewaySession session;
  session.id = random_token(16);
  session.user_id = principal->user->id;
  session.app_id = principal->application->id;
  session.bot = bot;
  session.intents = intents;
  session.shard_id = shard_id;
  session.shard_count = shard_count;
  session.capabilities = capabilities;
  session.premium_scope = principal->grant != nullptr &&
                          std::find(principal->grant->scopes.begin(), principal->grant->scopes.end(),
                                    "identify.premium") != principal->grant->scopes.end();
  session.connection = id;
  auto& connection = gateway_connections_.at(id);
  connection.session_id = session.id;
  connection.identified = true;
  const auto session_id = session.id;
  gateway_sessions_.emplace(session_id, std::move(session));
  if (presence) presences_[principal->user->id] = *presence;

  const auto& user = *principal->user;
  const bool show_premium = premium_visible(*principal);
  const auto app_id = principal->application->id;
  const auto ready = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("v");
    writer.Int(10);
    writer.Key("user");
    const auto user_text = user_json(user, show_premium);
    writer.RawValue(user_text.c_str(), user_text.size(), rapidjson::kObjectType);
    writer.Key("guilds");
    const auto guilds = guild_ready_json(gateway_sessions_.at(session_id));
    writer.RawValue(guilds.c_str(), guilds.size(), rapidjson::kArrayType);
    if (bot && shard_member != d.MemberEnd() && !shard_member->value.IsNull()) {
      writer.Key("shard");
      writer.StartArray();
      writer.Int64(shard_id);
      writer.Int64(shard_count);
      writer.EndArray();
    }
    writer.Key("session_id");
    write_string(writer, session_id);
    writer.Key("resume_gateway_url");
    write_string(writer, endpoints_.gateway_url);
    writer.Key(
        "application");  // {id, flags, flags_new}, as discord-api-types' GatewayReadyDispatchData has it
    writer.StartObject();
    writer.Key("id");
    write_string(writer, principal->application->id);
    writer.Key("flags");
    writer.Int(0);
    writer.Key("flags_new");
    writer.String("0");
    writer.EndObject();
    writer.Key("relationships");
    writer.StartArray();
    for (const auto& [other_id, type] : state_.relationships_of(user.id)) {
      const auto json = relationship_json(user.id, other_id, show_premium);
      if (json) writer.RawValue(json->c_str(), json->size(), rapidjson::kObjectType);
    }
    writer.EndArray();
    writer.Key("game_relationships");
    writer.StartArray();
    for (const auto& [other_id, relationship] : state_.game_relationships_of(app_id, user.id)) {
      const auto json = game_relationship_json(app_id, user.id, other_id, show_premium);
      if (json) writer.RawValue(json->c_str(), json->size(), rapidjson::kObjectType);
    }
    writer.EndArray();
    writer.Key("user_application_profiles");
    const auto profiles = user_application_profiles_json(user.id, app_id);
    writer.RawValue(profiles.c_str(), profiles.size(), rapidjson::kArrayType);
    writer.Key("presences");
    writer.StartArray();
    for (const auto& [other_id, type] : state_.relationships_of(user.id)) {
      if (type != kRelationshipFriend) continue;
      const auto json = presence_update_json(other_id);
      if (json) writer.RawValue(json->c_str(), json->size(), rapidjson::kObjectType);
    }
    writer.EndArray();
    writer.Key("lobbies");
    const auto lobbies = lobby_ready_json(gateway_sessions_.at(session_id));
    writer.RawValue(lobbies.c_str(), lobbies.size(), rapidjson::kArrayType);
    writer.EndObject();
  });
  gateway_dispatch(session_id, "READY", ready);
  // A bot's READY lists its guilds as unavailable; each then arrives whole in a GUILD_CREATE.
  if (bot && (intents & gateway_intent::kGuilds) != 0) {
    const auto& session_now = gateway_sessions_.at(session_id);
    for (const auto* guild : state_.guilds.guilds_of_user(user.id)) {
      if (guild_in_shard(session_now, guild->id))
        gateway_dispatch(session_id, "GUILD_CREATE", guild_create_json(*guild, session_now));
    }
  }
  gateway_presence_changed(user.id);
  lobby_connection_changed(user.id, app_id);
}

void EmulatorService::gateway_resume(std::uint64_t id, const rapidjson::Value& d) {
  if (!d.IsObject()) {
    return gateway_close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const auto token = d.FindMember("token");
  const auto session_member = d.FindMember("session_id");
  const auto seq_member = d.FindMember("seq");
  if (token == d.MemberEnd() || !token->value.IsString() || session_member == d.MemberEnd() ||
      !session_member->value.IsString() || seq_member == d.MemberEnd() ||
      !(seq_member->value.IsInt64() || seq_member->value.IsNull())) {
    return gateway_close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const auto principal =
      gateway_authenticate(std::string_view(token->value.GetString(), token->value.GetStringLength()));
  if (!principal) {
    return gateway_close_connection(id, gateway_close::kAuthenticationFailed, "Authentication failed.");
  }
  const std::string session_id(session_member->value.GetString(), session_member->value.GetStringLength());
  const std::int64_t seq = seq_member->value.IsNull() ? 0 : seq_member->value.GetInt64();
  auto& connection = gateway_connections_.at(id);
  const auto session_it = gateway_sessions_.find(session_id);
  if (session_it == gateway_sessions_.end() || session_it->second.user_id != principal->user->id) {
    connection.peer->send(simple_payload(op::kInvalidSession, "false"));
    return;
  }
  auto& session = session_it->second;
  if (seq > session.seq) {
    return gateway_close_connection(id, gateway_close::kInvalidSeq, "Invalid seq.");
  }
  // Everything after `seq` must still be buffered.
  const bool replayable =
      seq == session.seq || (!session.buffer.empty() && session.buffer.front().first <= seq + 1);
  if (!replayable) {
    gateway_end_session(session_id);
    connection.peer->send(simple_payload(op::kInvalidSession, "false"));
    return;
  }
  // A connection still attached (a zombie the client gave up on) is cut.
  if (session.connection && *session.connection != id) {
    const auto old = *session.connection;
    gateway_detach(old);
    const auto old_it = gateway_connections_.find(old);
    if (old_it != gateway_connections_.end()) {
      old_it->second.peer->drop();
      gateway_connections_.erase(old_it);
    }
  }
  session.connection = id;
  connection.session_id = session_id;
  connection.identified = true;
  for (const auto& [s, payload] : session.buffer) {
    if (s > seq) connection.peer->send(payload);
  }
  gateway_dispatch(session_id, "RESUMED", "null");  // no data, as discord-api-types has it
  gateway_presence_changed(session.user_id);
  lobby_connection_changed(session.user_id, session.app_id);
}

void EmulatorService::gateway_presence_update(std::uint64_t id, const rapidjson::Value& d) {
  const auto& connection = gateway_connections_.at(id);
  const auto session =
      connection.session_id ? gateway_sessions_.find(*connection.session_id) : gateway_sessions_.end();
  const std::string app_id = session == gateway_sessions_.end() ? std::string() : session->second.app_id;
  auto presence = read_presence(d, state_.find_application(app_id), app_id, clock_.now_ms());
  if (!presence) {
    return gateway_close_connection(id, gateway_close::kDecodeError, "Invalid presence.");
  }
  if (session == gateway_sessions_.end()) return;
  presences_[session->second.user_id] = std::move(*presence);
  gateway_presence_changed(session->second.user_id, true, session->first);
}

// ---- dispatches ------------------------------------------------------------------------------------------

std::int64_t EmulatorService::gateway_dispatch(const std::string& session_id, std::string_view type,
                                               std::string_view d_json) {
  const auto it = gateway_sessions_.find(session_id);
  if (it == gateway_sessions_.end()) return 0;
  auto& session = it->second;
  if (const auto& observer = dispatch_observer_(); observer && !injecting_dispatch_) observer(type, d_json);
  const auto seq = ++session.seq;
  std::string payload = "{\"op\":0,\"d\":" + std::string(d_json) + ",\"s\":" + std::to_string(seq) +
                        ",\"t\":\"" + std::string(type) + "\"}";
  if (session.connection) {
    const auto connection = gateway_connections_.find(*session.connection);
    if (connection != gateway_connections_.end()) connection->second.peer->send(payload);
  }
  session.buffer.emplace_back(seq, std::move(payload));
  while (static_cast<std::int64_t>(session.buffer.size()) >
         std::max<std::int64_t>(gateway_settings_.buffer_size, 0))
    session.buffer.pop_front();
  return seq;
}

std::vector<std::pair<std::string, std::int64_t>> EmulatorService::gateway_dispatch_to_user(
    std::string_view user_id, std::string_view type, std::string_view d_json) {
  std::vector<std::string> targets;
  for (const auto& [id, session] : gateway_sessions_) {
    if (session.user_id == user_id) targets.push_back(id);
  }
  std::vector<std::pair<std::string, std::int64_t>> sent;
  for (const auto& id : targets)
    sent.emplace_back(id, gateway_dispatch(id, type, d_json));
  return sent;
}

void EmulatorService::gateway_dispatch_each(
    std::string_view user_id, std::string_view type,
    const std::function<std::optional<std::string>(const GatewaySession&)>& d_json) {
  std::vector<std::pair<std::string, std::string>> targets;  // (session id, d)
  for (const auto& [id, session] : gateway_sessions_) {
    if (session.user_id != user_id) continue;
    if (auto d = d_json(session)) targets.emplace_back(id, std::move(*d));
  }
  for (const auto& [id, d] : targets)
    gateway_dispatch(id, type, d);
}

// A session that lost its connection but may still be resumed keeps its user online, so a brief drop does
// not flap the presence friends see.
bool EmulatorService::gateway_user_online(std::string_view user_id) const {
  return std::any_of(gateway_sessions_.begin(), gateway_sessions_.end(),
                     [&](const auto& entry) { return entry.second.user_id == user_id; });
}

std::optional<std::string> EmulatorService::presence_update_json(std::string_view user_id) const {
  const bool on_gateway = gateway_user_online(user_id);
  std::vector<std::string> activities;
  std::string status = "offline";
  if (on_gateway) {
    const auto it = presences_.find(std::string(user_id));
    if (it == presences_.end()) {
      status = "online";
    } else {
      status = it->second.status == "invisible" ? "offline" : it->second.status;
      if (status != "offline") activities.push_back(it->second.activities);
    }
  }
  // The desktop client's activity (IPC SET_ACTIVITY) keeps its user online even without a Gateway session.
  bool on_desktop = false;
  for (const auto& [connection_id, owner] : ipc_activity_users_) {
    if (owner != user_id) continue;
    const auto connection = ipc_connections_.find(connection_id);
    if (connection == ipc_connections_.end() || !connection->second.activity) continue;
    on_desktop = true;
    if (status != "offline" || !on_gateway) activities.push_back("[" + *connection->second.activity + "]");
  }
  if (on_desktop && !on_gateway) status = "online";
  if (status == "offline") return std::nullopt;
  const auto* user = state_.find_user(user_id);
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("user");
    writer.StartObject();
    writer.Key("id");
    write_string(writer, user_id);
    if (user != nullptr) {
      writer.Key("username");
      write_string(writer, user->username);
      writer.Key("global_name");
      if (user->global_name) {
        write_string(writer, *user->global_name);
      } else {
        writer.Null();
      }
      writer.Key("avatar");
      if (user->avatar) {
        write_string(writer, *user->avatar);
      } else {
        writer.Null();
      }
    }
    writer.EndObject();
    writer.Key("status");
    write_string(writer, status);
    writer.Key("activities");
    const auto shown = public_activities_json(activities);
    writer.RawValue(shown.c_str(), shown.size(), rapidjson::kArrayType);
    writer.Key("client_status");
    writer.StartObject();
    writer.Key("desktop");
    write_string(writer, status);
    writer.EndObject();
    writer.EndObject();
  });
}

void EmulatorService::gateway_presence_changed(const std::string& user_id, bool force,
                                               const std::string& origin_session) {
  auto json = presence_update_json(user_id);
  std::string text;
  if (json) {
    text = std::move(*json);
  } else {
    text = "{\"user\":{\"id\":\"" + user_id +
           "\"},\"status\":\"offline\",\"activities\":[],\"client_status\":{}}";
  }
  auto& last = last_presence_sent_[user_id];
  if (!force && last == text) return;
  if (last.empty() && !json && !force) {
    last = text;  // offline and never announced: nothing changed for friends
    return;
  }
  last = text;
  for (const auto& [other_id, type] : state_.relationships_of(user_id)) {
    if (type == kRelationshipFriend) gateway_dispatch_to_user(other_id, "PRESENCE_UPDATE", text);
  }
  if (!force) return;
  // The user's other sessions learn what their friends now see.
  std::vector<std::string> own;
  for (const auto& [id, session] : gateway_sessions_) {
    if (session.user_id == user_id && id != origin_session) own.push_back(id);
  }
  for (const auto& id : own)
    gateway_dispatch(id, "PRESENCE_UPDATE", text);
}

std::optional<Principal> EmulatorService::gateway_authenticate(std::string_view token) {
  Principal principal;
  if (token.starts_with("Bearer ")) {
    principal.grant = state_.find_grant_by_access_token(token.substr(7));
    if (principal.grant == nullptr || clock_.now_ms() >= principal.grant->expires_at_ms) return std::nullopt;
    principal.user = state_.find_user(principal.grant->user_id);
    principal.application = state_.find_application(principal.grant->app_id);
  } else {
    // Bots send the raw bot token, as on the platform; "Bot <token>" is accepted too.
    if (token.starts_with("Bot ")) token.remove_prefix(4);
    principal.application = state_.find_application_by_bot_token(token);
    if (principal.application == nullptr) return std::nullopt;
    principal.user = state_.find_user(principal.application->bot_user_id);
  }
  if (principal.user == nullptr || principal.application == nullptr || principal.user->ban)
    return std::nullopt;
  return principal;
}

// ---- admin routes ----------------------------------------------------------------------------------------

void EmulatorService::register_gateway_routes() {
  auto bind = [this](HttpResponse (EmulatorService::*handler)(const RouteContext&)) {
    return [this, handler](const RouteContext& context) { return (this->*handler)(context); };
  };
  admin_router_.add("POST", "/friendships", bind(&EmulatorService::admin_make_friends));
  admin_router_.add("GET", "/gateway/sessions", bind(&EmulatorService::admin_gateway_sessions));
  admin_router_.add("POST", "/gateway/drop", bind(&EmulatorService::admin_gateway_drop));
  admin_router_.add("POST", "/gateway/stall", bind(&EmulatorService::admin_gateway_stall));
  admin_router_.add("POST", "/gateway/close", bind(&EmulatorService::admin_gateway_close));
  admin_router_.add("POST", "/gateway/reconnect", bind(&EmulatorService::admin_gateway_reconnect));
  admin_router_.add("POST", "/gateway/invalidate", bind(&EmulatorService::admin_gateway_invalidate));
  admin_router_.add("POST", "/gateway/heartbeat", bind(&EmulatorService::admin_gateway_heartbeat));
  admin_router_.add("POST", "/gateway/heartbeat-interval",
                    bind(&EmulatorService::admin_gateway_heartbeat_interval));
  admin_router_.add("POST", "/gateway/dispatch", bind(&EmulatorService::admin_gateway_dispatch));
  admin_router_.add("GET", "/gateway/limits", bind(&EmulatorService::admin_gateway_limits));
  admin_router_.add("POST", "/gateway/limits", bind(&EmulatorService::admin_gateway_set_limits));
}

namespace {

std::string connections_answer(const std::vector<std::uint64_t>& ids) {
  return "{\"connections\":" + std::to_string(ids.size()) + "}";
}

}  // namespace

// Live connections named by {session_id?, user_id?} (all live connections when neither is given); a
// response when the body is bad.
std::variant<std::vector<std::uint64_t>, HttpResponse> EmulatorService::gateway_select(
    const RouteContext& context, rapidjson::Document& body) {
  if (context.request.body.empty()) {
    body.SetObject();
  } else if (auto error = read_json_object(context.request, body)) {
    return std::move(*error);
  }
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto session_id = fields.string("session_id", false);
  const auto user_id = fields.string("user_id", false);
  if (!errors.empty()) return invalid_form_body(errors);
  std::vector<std::uint64_t> ids;
  for (const auto& [id, connection] : gateway_connections_) {
    if (session_id || user_id) {
      if (!connection.session_id) continue;
      const auto session = gateway_sessions_.find(*connection.session_id);
      if (session == gateway_sessions_.end()) continue;
      if (session_id && session->first != *session_id) continue;
      if (user_id && session->second.user_id != *user_id) continue;
    }
    ids.push_back(id);
  }
  return ids;
}

HttpResponse EmulatorService::admin_make_friends(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto user_id = fields.string("user_id", true);
  const auto other_id = fields.string("other_user_id", true);
  if (user_id && other_id && *user_id == *other_id) {
    fields.add_issue("other_user_id", {"BASE_TYPE_INVALID", "A user cannot befriend themself."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (state_.find_user(*user_id) == nullptr || state_.find_user(*other_id) == nullptr) {
    return error_response(404, error_code::kUnknownUser, "Unknown User");
  }
  const auto now = clock_.now_ms();
  state_.set_relationship(*user_id, *other_id, kRelationshipFriend, now);
  state_.set_relationship(*other_id, *user_id, kRelationshipFriend, now);
  dispatch_relationship(*user_id, *other_id, "RELATIONSHIP_ADD");
  dispatch_relationship(*other_id, *user_id, "RELATIONSHIP_ADD");
  exchange_presences(*user_id, *other_id);
  return HttpResponse::json(
      200, "{\"user_id\":\"" + *user_id + "\",\"other_user_id\":\"" + *other_id + "\",\"type\":1}");
}

HttpResponse EmulatorService::admin_gateway_sessions(const RouteContext&) {
  const auto now = steady_now_ms();
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("sessions");
                              writer.StartArray();
                              for (const auto& [id, session] : gateway_sessions_) {
                                const GatewayConnection* connection = nullptr;
                                if (session.connection) {
                                  const auto it = gateway_connections_.find(*session.connection);
                                  if (it != gateway_connections_.end()) connection = &it->second;
                                }
                                writer.StartObject();
                                writer.Key("session_id");
                                write_string(writer, id);
                                writer.Key("user_id");
                                write_string(writer, session.user_id);
                                writer.Key("application_id");
                                write_string(writer, session.app_id);
                                writer.Key("connected");
                                writer.Bool(connection != nullptr);
                                writer.Key("seq");
                                writer.Int64(session.seq);
                                writer.Key("resumable");
                                writer.Bool(connection != nullptr || now - session.detached_at_steady_ms <=
                                                                         gateway_settings_.resume_window_ms);
                                writer.Key("buffered");
                                writer.Uint64(session.buffer.size());
                                writer.Key("intents");
                                writer.Uint64(session.intents);
                                writer.Key("compress");
                                writer.Bool(connection != nullptr && connection->compress);
                                writer.Key("stalled");
                                writer.Bool(connection != nullptr && connection->stalled);
                                writer.Key("heartbeats_received");
                                writer.Uint64(connection != nullptr ? connection->heartbeats_received : 0);
                                writer.Key("acks_sent");
                                writer.Uint64(connection != nullptr ? connection->acks_sent : 0);
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.Key("connections");
                              writer.Uint64(gateway_connections_.size());
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::admin_gateway_drop(const RouteContext& context) {
  rapidjson::Document body;
  auto selected = gateway_select(context, body);
  if (auto* error = std::get_if<HttpResponse>(&selected)) return std::move(*error);
  const auto ids = std::get<std::vector<std::uint64_t>>(selected);
  for (const auto id : ids)
    gateway_drop_connection(id);
  return HttpResponse::json(200, connections_answer(ids));
}

HttpResponse EmulatorService::admin_gateway_stall(const RouteContext& context) {
  rapidjson::Document body;
  auto selected = gateway_select(context, body);
  if (auto* error = std::get_if<HttpResponse>(&selected)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto stalled = fields.boolean("stalled", false).value_or(true);
  if (!errors.empty()) return invalid_form_body(errors);
  const auto ids = std::get<std::vector<std::uint64_t>>(selected);
  for (const auto id : ids)
    gateway_connections_.at(id).stalled = stalled;
  return HttpResponse::json(200, connections_answer(ids));
}

HttpResponse EmulatorService::admin_gateway_close(const RouteContext& context) {
  rapidjson::Document body;
  auto selected = gateway_select(context, body);
  if (auto* error = std::get_if<HttpResponse>(&selected)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto code = fields.integer("code", true, 1000, 4999);
  const auto reason = fields.string("reason", false);
  if (reason && reason->size() > 123) {
    fields.add_issue("reason", {"BASE_TYPE_MAX_LENGTH", "Must be 123 bytes or fewer in length."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  const auto ids = std::get<std::vector<std::uint64_t>>(selected);
  for (const auto id : ids)
    gateway_close_connection(id, static_cast<int>(*code), reason.value_or(""));
  return HttpResponse::json(200, connections_answer(ids));
}

HttpResponse EmulatorService::admin_gateway_reconnect(const RouteContext& context) {
  rapidjson::Document body;
  auto selected = gateway_select(context, body);
  if (auto* error = std::get_if<HttpResponse>(&selected)) return std::move(*error);
  const auto ids = std::get<std::vector<std::uint64_t>>(selected);
  for (const auto id : ids) {
    gateway_connections_.at(id).peer->send(simple_payload(op::kReconnect, "null"));
    gateway_detach(id);  // later dispatches wait in the buffer for the resume
  }
  return HttpResponse::json(200, connections_answer(ids));
}

HttpResponse EmulatorService::admin_gateway_invalidate(const RouteContext& context) {
  rapidjson::Document body;
  auto selected = gateway_select(context, body);
  if (auto* error = std::get_if<HttpResponse>(&selected)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto resumable = fields.boolean("resumable", false).value_or(false);
  if (!errors.empty()) return invalid_form_body(errors);
  const auto ids = std::get<std::vector<std::uint64_t>>(selected);
  for (const auto id : ids) {
    auto& connection = gateway_connections_.at(id);
    connection.peer->send(simple_payload(op::kInvalidSession, resumable ? "true" : "false"));
    if (resumable) {
      gateway_detach(id);
    } else if (connection.session_id) {
      const auto session_id = *connection.session_id;
      gateway_end_session(session_id);
    }
    // The connection may identify (or resume) again.
    connection.identified = false;
  }
  return HttpResponse::json(200, connections_answer(ids));
}

HttpResponse EmulatorService::admin_gateway_heartbeat(const RouteContext& context) {
  rapidjson::Document body;
  auto selected = gateway_select(context, body);
  if (auto* error = std::get_if<HttpResponse>(&selected)) return std::move(*error);
  const auto ids = std::get<std::vector<std::uint64_t>>(selected);
  for (const auto id : ids)
    gateway_connections_.at(id).peer->send(simple_payload(op::kHeartbeat, "null"));
  return HttpResponse::json(200, connections_answer(ids));
}

HttpResponse EmulatorService::admin_gateway_heartbeat_interval(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto ms = fields.integer("ms", true, 10, 3600000);
  if (!errors.empty()) return invalid_form_body(errors);
  gateway_settings_.heartbeat_interval_ms = *ms;
  return HttpResponse::json(200, "{\"heartbeat_interval\":" + std::to_string(*ms) + "}");
}

HttpResponse EmulatorService::admin_gateway_dispatch(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto user_id = fields.string("user_id", true);
  const auto type = fields.string("t", true);
  const auto* d = fields.value("d", false);
  if (type && (type->empty() || type->size() > 64 || !std::all_of(type->begin(), type->end(), [](char c) {
                 return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
               }))) {
    fields.add_issue("t", {"BASE_TYPE_INVALID", "1 to 64 of [A-Z0-9_]."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (state_.find_user(*user_id) == nullptr)
    return error_response(404, error_code::kUnknownUser, "Unknown User");
  injecting_dispatch_ = true;
  const auto sent = gateway_dispatch_to_user(*user_id, *type, d == nullptr ? "null" : json_text(*d));
  injecting_dispatch_ = false;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("sessions");
                              writer.StartArray();
                              for (const auto& [session_id, seq] : sent) {
                                writer.StartObject();
                                writer.Key("session_id");
                                write_string(writer, session_id);
                                writer.Key("s");
                                writer.Int64(seq);
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

std::string EmulatorService::gateway_limits_json() const {
  const auto& s = gateway_settings_;
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("heartbeat_interval_ms");
    writer.Int64(s.heartbeat_interval_ms);
    writer.Key("zombie_timeout_factor");
    writer.Double(s.zombie_timeout_factor);
    writer.Key("events_per_window");
    writer.Int64(s.events_per_window);
    writer.Key("event_window_ms");
    writer.Int64(s.event_window_ms);
    writer.Key("identify_budget");
    writer.Int64(s.identify_budget);
    writer.Key("identify_window_ms");
    writer.Int64(s.identify_window_ms);
    writer.Key("resume_window_ms");
    writer.Int64(s.resume_window_ms);
    writer.Key("buffer_size");
    writer.Int64(s.buffer_size);
    writer.Key("max_payload_bytes");
    writer.Int64(s.max_payload_bytes);
    writer.EndObject();
  });
}

HttpResponse EmulatorService::admin_gateway_limits(const RouteContext&) {
  return HttpResponse::json(200, gateway_limits_json());
}

HttpResponse EmulatorService::admin_gateway_set_limits(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto next = gateway_settings_;
  if (auto v = fields.integer("heartbeat_interval_ms", false, 10, 3600000)) next.heartbeat_interval_ms = *v;
  if (auto v = fields.number("zombie_timeout_factor", false, 1.0)) next.zombie_timeout_factor = *v;
  if (auto v = fields.integer("events_per_window", false, 0)) next.events_per_window = *v;
  if (auto v = fields.integer("event_window_ms", false, 1)) next.event_window_ms = *v;
  if (auto v = fields.integer("identify_budget", false, 0)) next.identify_budget = *v;
  if (auto v = fields.integer("identify_window_ms", false, 1)) next.identify_window_ms = *v;
  if (auto v = fields.integer("resume_window_ms", false, 0)) next.resume_window_ms = *v;
  if (auto v = fields.integer("buffer_size", false, 0, 1000000)) next.buffer_size = *v;
  if (auto v = fields.integer("max_payload_bytes", false, 2, 65536)) next.max_payload_bytes = *v;
  const bool reset = fields.boolean("reset", false).value_or(false);
  if (!errors.empty()) return invalid_form_body(errors);
  gateway_settings_ = reset ? GatewaySettings{} : next;
  if (reset) identify_times_.clear();
  return HttpResponse::json(200, gateway_limits_json());
}

}  // namespace platformpp::emulator
