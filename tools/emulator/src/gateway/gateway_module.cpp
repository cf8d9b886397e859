// The Gateway's connections and sessions (docs/gateway-protocol.md): Hello, heartbeats, Identify -> READY,
// Resume with replay, op 3 presence updates, the limits, and the dispatches. Socket-free: the server reports
// WebSocket events here and sends what the GatewayPeer is given.
#include "gateway/gateway_module.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "core/activity.hpp"
#include "core/fake_clock.hpp"
#include "core/form_encoding.hpp"
#include "core/json.hpp"
#include "core/random_token.hpp"
#include "core/user_json.hpp"
#include "gateway/gateway_protocol.hpp"

namespace platformpp::emulator {

namespace {

namespace op = gateway_protocol::op;
using gateway_protocol::simple_payload;

// Intent bits the platform defines (0-25); privileged: GUILD_MEMBERS (1), GUILD_PRESENCES (8),
// MESSAGE_CONTENT (15).
constexpr std::uint64_t kKnownIntents = (std::uint64_t{1} << 26) - 1;

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

GatewayModule::GatewayModule(ServiceContext& context) : FeatureModule(context) {
  register_routes();
}

// ---- connections -------------------------------------------------------------------------------------

std::uint64_t GatewayModule::opened(GatewayPeer& peer, std::string_view target) {
  const auto id = next_connection_++;
  auto& connection = connections_[id];
  connection.peer = &peer;
  connection.last_heartbeat_steady_ms = steady_now_ms();
  connection.heartbeat_interval_ms = settings_.heartbeat_interval_ms;
  check_expiry_by(connection.last_heartbeat_steady_ms + zombie_timeout_ms(connection) + 1);

  const auto question = target.find('?');
  const auto query = question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
  const auto fields = FormFields::parse(query);
  const auto version = fields ? fields->get("v") : std::nullopt;
  const auto encoding = fields ? fields->get("encoding") : std::nullopt;
  const auto compress = fields ? fields->get("compress") : std::nullopt;
  if (!version || *version != "10") {
    close_connection(id, gateway_close::kInvalidApiVersion, "Invalid API version");
    return id;
  }
  if (encoding && *encoding != "json") {
    close_connection(id, gateway_close::kDecodeError, "Unsupported encoding");
    return id;
  }
  if (compress && *compress != "zlib-stream") {
    close_connection(id, gateway_close::kDecodeError, "Unsupported compression");
    return id;
  }
  if (compress) {
    connection.compress = true;
    peer.enable_compression();
  }
  peer.send(simple_payload(
      op::kHello, "{\"heartbeat_interval\":" + std::to_string(settings_.heartbeat_interval_ms) + "}"));
  return id;
}

void GatewayModule::disconnected(std::uint64_t id, std::optional<int> close_code) {
  const auto it = connections_.find(id);
  if (it == connections_.end()) return;
  const auto session_id = it->second.session_id;
  connections_.erase(it);
  if (!session_id) return;
  const auto session = sessions_.find(*session_id);
  if (session == sessions_.end() || session->second.connection != id) return;
  if (close_code && (*close_code == 1000 || *close_code == 1001)) {
    end_session(*session_id);
    return;
  }
  session->second.connection.reset();
  session->second.detached_at_steady_ms = steady_now_ms();
  check_expiry_by(session->second.detached_at_steady_ms + settings_.resume_window_ms + 1);
  notify(session->second.user_id, session->second.app_id, GatewayListener::ConnectionChange::lost);
}

void GatewayModule::close_connection(std::uint64_t id, int code, std::string_view reason) {
  const auto it = connections_.find(id);
  if (it == connections_.end()) return;
  auto* peer = it->second.peer;
  const auto session_id = it->second.session_id;
  connections_.erase(it);
  peer->close(code, std::string(reason));
  if (!session_id) return;
  const auto session = sessions_.find(*session_id);
  if (session == sessions_.end() || session->second.connection != id) return;
  if (close_ends_session(code)) {
    end_session(*session_id);
    return;
  }
  session->second.connection.reset();
  session->second.detached_at_steady_ms = steady_now_ms();
  check_expiry_by(session->second.detached_at_steady_ms + settings_.resume_window_ms + 1);
  notify(session->second.user_id, session->second.app_id, GatewayListener::ConnectionChange::lost);
}

void GatewayModule::drop_connection(std::uint64_t id) {
  const auto it = connections_.find(id);
  if (it == connections_.end()) return;
  it->second.peer->drop();
  disconnected(id, std::nullopt);
}

void GatewayModule::detach(std::uint64_t id) {
  const auto it = connections_.find(id);
  if (it == connections_.end() || !it->second.session_id) return;
  const auto session = sessions_.find(*it->second.session_id);
  it->second.session_id.reset();
  ++owners_changed_;
  if (session == sessions_.end() || session->second.connection != id) return;
  session->second.connection.reset();
  session->second.detached_at_steady_ms = steady_now_ms();
  check_expiry_by(session->second.detached_at_steady_ms + settings_.resume_window_ms + 1);
  notify(session->second.user_id, session->second.app_id, GatewayListener::ConnectionChange::detached);
}

void GatewayModule::end_session(const std::string& session_id) {
  const auto session = sessions_.find(session_id);
  if (session == sessions_.end()) return;
  ++owners_changed_;
  const auto user_id = session->second.user_id;
  const auto app_id = session->second.app_id;
  if (session->second.connection) {
    const auto connection = connections_.find(*session->second.connection);
    if (connection != connections_.end()) connection->second.session_id.reset();
  }
  for (auto* listener : listeners_)
    listener->session_ending(session->second);  // e.g. its lobby calls end with it
  auto& of_user = sessions_by_user_[user_id];
  std::erase(of_user, &session->second);
  if (of_user.empty()) sessions_by_user_.erase(user_id);
  sessions_.erase(session);
  // The user's last session: a later one starts with a fresh presence (online, no activities).
  if (!user_online(user_id)) presences_.erase(user_id);
  notify(user_id, app_id, GatewayListener::ConnectionChange::ended);
}

void GatewayModule::end_all_sessions() {
  std::vector<std::uint64_t> connections;
  for (const auto& entry : connections_)
    connections.push_back(entry.first);
  std::sort(connections.begin(), connections.end());
  for (const auto id : connections)
    close_connection(id, gateway_close::kSessionTimedOut, "Session timed out");
  std::vector<std::string> sessions;
  for (const auto& entry : sessions_)
    sessions.push_back(entry.first);
  for (const auto& id : sessions)
    end_session(id);
}

std::int64_t GatewayModule::zombie_timeout_ms(const GatewayConnection& connection) const {
  return std::llround(static_cast<double>(connection.heartbeat_interval_ms) *
                      settings_.zombie_timeout_factor);
}

void GatewayModule::check_expiry_by(std::int64_t steady_ms) {
  next_expiry_check_ms_ = std::min(next_expiry_check_ms_, steady_ms);
}

// Deadlines only move later (a heartbeat) or are announced (check_expiry_by), so the scans run only from
// the earliest deadline seen on: with 1,000 connections a scan every tick was 2% of the emulator's CPU.
void GatewayModule::tick() {
  const auto now = steady_now_ms();
  if (now >= next_expiry_check_ms_) expire(now);
  for (auto* listener : listeners_)
    listener->tick();
}

void GatewayModule::expire(std::int64_t now) {
  next_expiry_check_ms_ = std::numeric_limits<std::int64_t>::max();
  std::vector<std::uint64_t> zombies;
  for (const auto& [id, connection] : connections_) {
    const auto deadline = connection.last_heartbeat_steady_ms + zombie_timeout_ms(connection);
    if (now > deadline) {
      zombies.push_back(id);
    } else {
      check_expiry_by(deadline + 1);
    }
  }
  std::sort(zombies.begin(), zombies.end());
  for (const auto id : zombies)
    close_connection(id, gateway_close::kSessionTimedOut, "Session timed out");
  std::vector<std::string> expired;
  for (const auto& [id, session] : sessions_) {
    if (session.connection) continue;
    const auto deadline = session.detached_at_steady_ms + settings_.resume_window_ms;
    if (now > deadline) {
      expired.push_back(id);
    } else {
      check_expiry_by(deadline + 1);
    }
  }
  for (const auto& id : expired)
    end_session(id);
}

// ---- client payloads -----------------------------------------------------------------------------------

void GatewayModule::received(std::uint64_t id, std::string_view message, bool text) {
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  auto& connection = it->second;

  // The event limit counts every client payload, well-formed or not.
  const auto now = clock_.now_ms();
  while (!connection.event_times_ms.empty() &&
         now - connection.event_times_ms.front() >= settings_.event_window_ms) {
    connection.event_times_ms.pop_front();
  }
  if (static_cast<std::int64_t>(connection.event_times_ms.size()) >= settings_.events_per_window) {
    return close_connection(id, gateway_close::kRateLimited, "You are being rate limited.");
  }
  connection.event_times_ms.push_back(now);

  if (!text || static_cast<std::int64_t>(message.size()) > settings_.max_payload_bytes) {
    return close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  rapidjson::Document payload;
  if (!parse_json(message, payload) || !payload.IsObject()) {
    return close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const auto op_member = payload.FindMember("op");
  if (op_member == payload.MemberEnd() || !op_member->value.IsInt()) {
    return close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const int opcode = op_member->value.GetInt();
  static const rapidjson::Value kNull;
  const auto d_member = payload.FindMember("d");
  const rapidjson::Value& d = d_member == payload.MemberEnd() ? kNull : d_member->value;

  switch (opcode) {
    case op::kHeartbeat:
      return heartbeat(id);
    case op::kIdentify:
      if (connection.identified) {
        return close_connection(id, gateway_close::kAlreadyAuthenticated, "Already authenticated.");
      }
      return identify(id, d);
    case op::kResume:
      if (connection.identified) {
        return close_connection(id, gateway_close::kAlreadyAuthenticated, "Already authenticated.");
      }
      return resume(id, d);
    case op::kPresenceUpdate:
    case op::kVoiceStateUpdate:
    case op::kRequestGuildMembers:
    case op::kRequestSoundboardSounds:
    case op::kRequestChannelInfo:
      if (!connection.identified) {
        return close_connection(id, gateway_close::kNotAuthenticated, "Not authenticated.");
      }
      if (opcode == op::kPresenceUpdate) return presence_update(id, d);
      // Each of these has its feature's handler (voice, guilds), registered when the service is built; a
      // Gateway without that feature does not know the opcode.
      if (const auto handler = op_handlers_.find(opcode); handler != op_handlers_.end())
        return handler->second(id, d);
      return close_connection(id, gateway_close::kUnknownOpcode, "Unknown opcode.");
    default:
      return close_connection(id, gateway_close::kUnknownOpcode, "Unknown opcode.");
  }
}

std::deque<std::int64_t>& GatewayModule::identify_starts(const std::string& app_id, std::int64_t now) {
  auto& starts = identify_times_[app_id];
  while (!starts.empty() && now - starts.front() >= settings_.identify_window_ms)
    starts.pop_front();
  return starts;
}

void GatewayModule::heartbeat(std::uint64_t id) {
  auto& connection = connections_.at(id);
  connection.last_heartbeat_steady_ms = steady_now_ms();
  ++connection.heartbeats_received;
  if (connection.stalled) return;
  ++connection.acks_sent;
  connection.peer->send(simple_payload(op::kHeartbeatAck, "null"));
}

void GatewayModule::identify(std::uint64_t id, const rapidjson::Value& d) {
  if (!d.IsObject()) {
    return close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const auto token_member = d.FindMember("token");
  if (token_member == d.MemberEnd() || !token_member->value.IsString()) {
    return close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const std::string_view token(token_member->value.GetString(), token_member->value.GetStringLength());
  const auto principal = authenticate_token(token);
  if (!principal) {
    return close_connection(id, gateway_close::kAuthenticationFailed, "Authentication failed.");
  }
  const bool bot = principal->grant == nullptr;
  const auto intents_member = d.FindMember("intents");
  if (intents_member == d.MemberEnd() || !intents_member->value.IsUint64() ||
      (intents_member->value.GetUint64() & ~kKnownIntents) != 0) {
    return close_connection(id, gateway_close::kInvalidIntents, "Invalid intent(s).");
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
    return close_connection(id, gateway_close::kDisallowedIntents, "Disallowed intent(s).");
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
    if (!valid) return close_connection(id, gateway_close::kInvalidShard, "Invalid shard.");
    if (bot) {
      shard_id = shard[0].GetInt64();
      shard_count = shard[1].GetInt64();
    }
  }
  std::uint64_t capabilities = 0;
  const auto capabilities_member = d.FindMember("capabilities");
  if (capabilities_member != d.MemberEnd() && !capabilities_member->value.IsNull()) {
    if (!capabilities_member->value.IsUint64()) {
      return close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
    }
    capabilities = capabilities_member->value.GetUint64();
  }
  std::optional<Presence> presence;
  const auto presence_member = d.FindMember("presence");
  if (presence_member != d.MemberEnd() && !presence_member->value.IsNull()) {
    presence = read_presence(presence_member->value, principal->application, principal->application->id,
                             clock_.now_ms());
    if (!presence) {
      return close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
    }
  }

  // The identify budget per application, by the fake clock.
  const auto now = clock_.now_ms();
  auto& starts = identify_starts(principal->application->id, now);
  if (static_cast<std::int64_t>(starts.size()) >= settings_.identify_budget) {
    return close_connection(id, gateway_close::kRateLimited, "Identify budget exhausted.");
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
  auto& connection = connections_.at(id);
  connection.session_id = session.id;
  connection.identified = true;
  ++owners_changed_;
  const auto session_id = session.id;
  const auto inserted = sessions_.emplace(session_id, std::move(session)).first;
  sessions_by_user_[inserted->second.user_id].push_back(&inserted->second);
  if (presence) presences_[principal->user->id] = *presence;

  const auto& user = *principal->user;
  const bool show_premium = premium_visible(*principal);
  const auto app_id = principal->application->id;
  ReadyContent content;
  for (auto* listener : listeners_)
    listener->fill_ready(sessions_.at(session_id), content);
  const auto raw = [](JsonWriter& writer, const char* key, const std::string& json, rapidjson::Type type) {
    writer.Key(key);
    write_raw(writer, json, type);
  };
  const auto ready = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("v");
    writer.Int(10);
    raw(writer, "user", user_json(user, show_premium), rapidjson::kObjectType);
    raw(writer, "guilds", content.guilds, rapidjson::kArrayType);
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
    writer.Uint64(principal->application->flags_31_bits());
    writer.Key("flags_new");
    write_string(writer, std::to_string(principal->application->flags()));
    writer.EndObject();
    raw(writer, "relationships", content.relationships, rapidjson::kArrayType);
    raw(writer, "game_relationships", content.game_relationships, rapidjson::kArrayType);
    raw(writer, "user_application_profiles", content.user_application_profiles, rapidjson::kArrayType);
    raw(writer, "presences", content.presences, rapidjson::kArrayType);
    raw(writer, "lobbies", content.lobbies, rapidjson::kArrayType);
    raw(writer, "private_channels", content.private_channels, rapidjson::kArrayType);
    writer.EndObject();
  });
  dispatch(session_id, "READY", ready);
  for (auto* listener : listeners_)
    listener->session_ready(sessions_.at(session_id));
  notify(user.id, app_id, GatewayListener::ConnectionChange::identified);
}

void GatewayModule::resume(std::uint64_t id, const rapidjson::Value& d) {
  if (!d.IsObject()) {
    return close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const auto token = d.FindMember("token");
  const auto session_member = d.FindMember("session_id");
  const auto seq_member = d.FindMember("seq");
  if (token == d.MemberEnd() || !token->value.IsString() || session_member == d.MemberEnd() ||
      !session_member->value.IsString() || seq_member == d.MemberEnd() ||
      !(seq_member->value.IsInt64() || seq_member->value.IsNull())) {
    return close_connection(id, gateway_close::kDecodeError, "Error while decoding payload.");
  }
  const auto principal =
      authenticate_token(std::string_view(token->value.GetString(), token->value.GetStringLength()));
  if (!principal) {
    return close_connection(id, gateway_close::kAuthenticationFailed, "Authentication failed.");
  }
  const std::string session_id(session_member->value.GetString(), session_member->value.GetStringLength());
  const std::int64_t seq = seq_member->value.IsNull() ? 0 : seq_member->value.GetInt64();
  auto& connection = connections_.at(id);
  const auto session_it = sessions_.find(session_id);
  if (session_it == sessions_.end() || session_it->second.user_id != principal->user->id) {
    connection.peer->send(simple_payload(op::kInvalidSession, "false"));
    return;
  }
  auto& session = session_it->second;
  if (seq > session.seq) {
    return close_connection(id, gateway_close::kInvalidSeq, "Invalid seq.");
  }
  // Everything after `seq` must still be buffered.
  const bool replayable =
      seq == session.seq || (!session.buffer.empty() && session.buffer.front().first <= seq + 1);
  if (!replayable) {
    end_session(session_id);
    connection.peer->send(simple_payload(op::kInvalidSession, "false"));
    return;
  }
  // A connection still attached (a zombie the client gave up on) is cut.
  if (session.connection && *session.connection != id) {
    const auto old = *session.connection;
    detach(old);
    const auto old_it = connections_.find(old);
    if (old_it != connections_.end()) {
      old_it->second.peer->drop();
      connections_.erase(old_it);
    }
  }
  session.connection = id;
  connection.session_id = session_id;
  connection.identified = true;
  ++owners_changed_;
  for (const auto& [s, body] : session.buffer) {
    if (s > seq) connection.peer->send_dispatch(body, dispatch_tail(s));
  }
  dispatch(session_id, "RESUMED", "null");  // no data, as discord-api-types has it
  notify(session.user_id, session.app_id, GatewayListener::ConnectionChange::resumed);
}

void GatewayModule::presence_update(std::uint64_t id, const rapidjson::Value& d) {
  const auto& connection = connections_.at(id);
  const auto session = connection.session_id ? sessions_.find(*connection.session_id) : sessions_.end();
  const std::string app_id = session == sessions_.end() ? std::string() : session->second.app_id;
  auto presence = read_presence(d, state_.find_application(app_id), app_id, clock_.now_ms());
  if (!presence) {
    return close_connection(id, gateway_close::kDecodeError, "Invalid presence.");
  }
  if (session == sessions_.end()) return;
  presences_[session->second.user_id] = std::move(*presence);
  for (auto* listener : listeners_)
    listener->presence_updated(session->second.user_id, session->first);
}

// ---- dispatches ------------------------------------------------------------------------------------------

std::string dispatch_tail(std::int64_t seq) {
  return ",\"s\":" + std::to_string(seq) + "}";
}

SharedDispatchBody GatewayModule::dispatch_body(std::string_view type, std::string_view d_json) {
  std::string text;
  text.reserve(d_json.size() + type.size() + 24);
  text.append("{\"op\":0,\"t\":\"").append(type).append("\",\"d\":").append(d_json);
  return std::make_shared<const DispatchBody>(std::move(text));
}

std::int64_t GatewayModule::dispatch(const std::string& session_id, std::string_view type,
                                     std::string_view d_json) {
  const auto it = sessions_.find(session_id);
  if (it == sessions_.end()) return 0;
  return dispatch(it->second, dispatch_body(type, d_json), type, d_json);
}

void GatewayModule::dispatch_shared(const std::vector<const GatewaySession*>& sessions, std::string_view type,
                                    std::string_view d_json) {
  const auto body = dispatch_body(type, d_json);
  for (const auto* session : sessions)
    dispatch(owned(*session), body, type, d_json);
}

// The sessions are this module's own (sessions_of_user hands them out const), and nothing a dispatch does
// begins or ends one (the peers never call back synchronously), so a list of them holds through dispatches.
GatewaySession& GatewayModule::owned(const GatewaySession& session) {
  return const_cast<GatewaySession&>(session);  // NOLINT(*-const-cast)
}

std::int64_t GatewayModule::dispatch(GatewaySession& session, const SharedDispatchBody& body,
                                     std::string_view type, std::string_view d_json) {
  if (const auto& observer = dispatch_observer(); observer && !injecting_dispatch_) observer(type, d_json);
  const auto seq = ++session.seq;
  if (session.connection) {
    const auto connection = connections_.find(*session.connection);
    if (connection != connections_.end()) connection->second.peer->send_dispatch(body, dispatch_tail(seq));
  }
  session.buffer.emplace_back(seq, body);
  while (static_cast<std::int64_t>(session.buffer.size()) > std::max<std::int64_t>(settings_.buffer_size, 0))
    session.buffer.pop_front();
  return seq;
}

std::vector<std::pair<std::string, std::int64_t>> GatewayModule::dispatch_to_user(std::string_view user_id,
                                                                                  std::string_view type,
                                                                                  std::string_view d_json) {
  const auto body = dispatch_body(type, d_json);
  const auto& sessions = sessions_of_user(user_id);
  std::vector<std::pair<std::string, std::int64_t>> sent;
  sent.reserve(sessions.size());
  for (const auto* session : sessions)
    sent.emplace_back(session->id, dispatch(owned(*session), body, type, d_json));
  return sent;
}

void GatewayModule::dispatch_each(
    std::string_view user_id, std::string_view type,
    const std::function<std::optional<std::string>(const GatewaySession&)>& d_json) {
  std::vector<std::pair<std::string, std::string>> targets;  // (session id, d)
  for (const auto* session : sessions_of_user(user_id)) {
    if (auto d = d_json(*session)) targets.emplace_back(session->id, std::move(*d));
  }
  for (const auto& [id, d] : targets)
    dispatch(id, type, d);
}

// A session that lost its connection but may still be resumed keeps its user online, so a brief drop does
// not flap the presence friends see.
bool GatewayModule::user_online(std::string_view user_id) const {
  return !sessions_of_user(user_id).empty();
}

const std::vector<const GatewaySession*>& GatewayModule::sessions_of_user(std::string_view user_id) const {
  static const std::vector<const GatewaySession*> none;
  const auto it = sessions_by_user_.find(user_id);
  return it == sessions_by_user_.end() ? none : it->second;
}

bool GatewayModule::user_connected(std::string_view user_id, std::string_view app_id) const {
  const auto& sessions = sessions_of_user(user_id);
  return std::any_of(sessions.begin(), sessions.end(), [&](const GatewaySession* session) {
    return session->app_id == app_id && !session->bot && session->connection.has_value();
  });
}

std::optional<Principal> GatewayModule::authenticate_token(std::string_view token) {
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

const Presence* GatewayModule::presence_of(std::string_view user_id) const {
  const auto it = presences_.find(std::string(user_id));
  return it == presences_.end() ? nullptr : &it->second;
}

const GatewaySession* GatewayModule::session_of(std::uint64_t connection) const {
  const auto it = connections_.find(connection);
  if (it == connections_.end() || !it->second.session_id) return nullptr;
  const auto session = sessions_.find(*it->second.session_id);
  return session == sessions_.end() ? nullptr : &session->second;
}

void GatewayModule::notify(const std::string& user_id_ref, const std::string& app_id_ref,
                           GatewayListener::ConnectionChange change) {
  // Copies: callers pass a session's fields, and listeners may dispatch to that session.
  // NOLINTBEGIN(performance-unnecessary-copy-initialization): the check cannot see the references may die
  const auto user_id = user_id_ref;
  const auto app_id = app_id_ref;
  // NOLINTEND(performance-unnecessary-copy-initialization)
  for (auto* listener : listeners_)
    listener->connection_changed(user_id, app_id, change);
}

}  // namespace platformpp::emulator
