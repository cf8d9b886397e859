// EmulatorAdmin: relationships, profiles and the Gateway sessions (drop, stall, close, reconnect,
// invalidate, heartbeats, limits, injected dispatches).
#include <platformpp/testkit/emulator.hpp>

#include "admin_json.hpp"
#include "json/json.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace platformpp::testkit {

using detail::ConnectionCount;
using detail::Expect;
using detail::JsonObject;
using detail::ParseOrThrow;
using detail::RequireSnowflake;
using detail::RequireString;

namespace {

// `body` (which may hold other members already) plus the target's members.
std::string GatewayTargetBody(const EmulatorAdmin::GatewayTarget& target, JsonObject& body) {
  if (!target.sessionId.empty()) body.Add("session_id", target.sessionId);
  if (target.userId != 0) body.Add("user_id", std::to_string(target.userId));
  return body.Done();
}

std::string GatewayTargetBody(const EmulatorAdmin::GatewayTarget& target) {
  JsonObject body;
  return GatewayTargetBody(target, body);
}

}  // namespace

void EmulatorAdmin::MakeFriends(uint64_t userId, uint64_t otherUserId) {
  Expect(Request("POST", "/friendships",
                 JsonObject()
                     .Add("user_id", std::to_string(userId))
                     .Add("other_user_id", std::to_string(otherUserId))
                     .Done()),
         200, "make friends");
}

std::string EmulatorAdmin::SetPresence(uint64_t userId, const std::string& status,
                                       const std::string& activitiesJson) {
  const auto response =
      Request("POST", "/users/" + std::to_string(userId) + "/presence",
              JsonObject().Add("status", status).AddRaw("activities", activitiesJson).Done());
  Expect(response, 200, "set presence");
  return response.body;
}

std::string EmulatorAdmin::SetUserProfile(uint64_t userId, const UserProfile& profile) {
  JsonObject body;
  const auto field = [&](const char* key, const std::optional<std::string>& value, bool clear) {
    if (clear) {
      body.AddRaw(key, "null");
    } else if (value) {
      body.Add(key, *value);
    }
  };
  field("global_name", profile.globalName, profile.clearGlobalName);
  field("avatar", profile.avatar, profile.clearAvatar);
  field("tag", profile.tag, profile.clearTag);
  field("identity_guild_id", profile.guildId, false);
  field("badge", profile.badge, false);
  if (profile.premiumType) body.Add("premium_type", static_cast<int64_t>(*profile.premiumType));
  const auto response = Request("POST", "/users/" + std::to_string(userId) + "/profile", body.Done());
  Expect(response, 200, "set user profile");
  return response.body;
}

void EmulatorAdmin::FlagSpammer(uint64_t userId, bool spammer) {
  Expect(Request("POST", "/users/" + std::to_string(userId) + "/spammer",
                 JsonObject().Add("spammer", spammer).Done()),
         200, "flag spammer");
}

void EmulatorAdmin::ApprovePremium(uint64_t appId, bool approved) {
  Expect(Request("POST", "/apps/" + std::to_string(appId) + "/premium",
                 JsonObject().Add("approved", approved).Done()),
         200, "approve premium");
}

void EmulatorAdmin::SetGameClaimed(uint64_t appId, bool claimed) {
  Expect(Request("PUT", "/applications/" + std::to_string(appId) + "/claimed",
                 JsonObject().Add("claimed", claimed).Done()),
         204, "set game claimed");
}

int EmulatorAdmin::RaiseActivityJoin(const std::string& secret, std::optional<uint64_t> appId) {
  JsonObject body;
  body.Add("secret", secret);
  if (appId) body.Add("application_id", std::to_string(*appId));
  auto document = Expect(Request("POST", "/ipc/activity-join", body.Done()), 200, "raise activity join");
  return static_cast<int>(json::GetInt(document, "delivered").value_or(0));
}

std::vector<EmulatorAdmin::GatewaySession> EmulatorAdmin::GatewaySessions() {
  auto document = Expect(Request("GET", "/gateway/sessions"), 200, "gateway sessions");
  std::vector<GatewaySession> sessions;
  if (const json::Value* list = json::Member(document, "sessions"); list && list->IsArray()) {
    for (const auto& entry : list->GetArray()) {
      if (!entry.IsObject()) continue;
      GatewaySession session;
      session.sessionId = std::string(json::GetString(entry, "session_id").value_or(""));
      session.userId = json::GetSnowflake(entry, "user_id").value_or(0);
      session.applicationId = json::GetSnowflake(entry, "application_id").value_or(0);
      session.connected = json::GetBool(entry, "connected").value_or(false);
      session.resumable = json::GetBool(entry, "resumable").value_or(false);
      session.seq = json::GetInt(entry, "seq").value_or(0);
      session.capabilities = static_cast<uint64_t>(json::GetInt(entry, "capabilities").value_or(0));
      session.compress = json::GetBool(entry, "compress").value_or(false);
      session.stalled = json::GetBool(entry, "stalled").value_or(false);
      session.heartbeatsReceived = json::GetInt(entry, "heartbeats_received").value_or(0);
      session.acksSent = json::GetInt(entry, "acks_sent").value_or(0);
      sessions.push_back(std::move(session));
    }
  }
  return sessions;
}

int EmulatorAdmin::DropGateway(const GatewayTarget& target) {
  return ConnectionCount(
      Expect(Request("POST", "/gateway/drop", GatewayTargetBody(target)), 200, "drop gateway"));
}

int EmulatorAdmin::StallGateway(const GatewayTarget& target, bool stalled) {
  JsonObject body;
  body.Add("stalled", stalled);
  return ConnectionCount(
      Expect(Request("POST", "/gateway/stall", GatewayTargetBody(target, body)), 200, "stall gateway"));
}

int EmulatorAdmin::CloseGateway(const GatewayTarget& target, int code, const std::string& reason) {
  JsonObject body;
  body.Add("code", static_cast<int64_t>(code));
  if (!reason.empty()) body.Add("reason", reason);
  return ConnectionCount(
      Expect(Request("POST", "/gateway/close", GatewayTargetBody(target, body)), 200, "close gateway"));
}

int EmulatorAdmin::ReconnectGateway(const GatewayTarget& target) {
  return ConnectionCount(
      Expect(Request("POST", "/gateway/reconnect", GatewayTargetBody(target)), 200, "reconnect gateway"));
}

int EmulatorAdmin::InvalidateGateway(const GatewayTarget& target, bool resumable) {
  JsonObject body;
  body.Add("resumable", resumable);
  return ConnectionCount(Expect(Request("POST", "/gateway/invalidate", GatewayTargetBody(target, body)), 200,
                                "invalidate gateway"));
}

int EmulatorAdmin::RequestHeartbeat(const GatewayTarget& target) {
  return ConnectionCount(
      Expect(Request("POST", "/gateway/heartbeat", GatewayTargetBody(target)), 200, "request heartbeat"));
}

void EmulatorAdmin::SetHeartbeatInterval(std::chrono::milliseconds interval) {
  Expect(Request("POST", "/gateway/heartbeat-interval",
                 JsonObject().Add("ms", static_cast<int64_t>(interval.count())).Done()),
         200, "set heartbeat interval");
}

void EmulatorAdmin::SetGatewayLimits(const GatewayLimits& limits) {
  JsonObject body;
  if (limits.heartbeatIntervalMs) body.Add("heartbeat_interval_ms", *limits.heartbeatIntervalMs);
  if (limits.zombieTimeoutFactor) body.Add("zombie_timeout_factor", *limits.zombieTimeoutFactor);
  if (limits.eventsPerWindow) body.Add("events_per_window", *limits.eventsPerWindow);
  if (limits.eventWindowMs) body.Add("event_window_ms", *limits.eventWindowMs);
  if (limits.identifyBudget) body.Add("identify_budget", *limits.identifyBudget);
  if (limits.identifyWindowMs) body.Add("identify_window_ms", *limits.identifyWindowMs);
  if (limits.resumeWindowMs) body.Add("resume_window_ms", *limits.resumeWindowMs);
  if (limits.bufferSize) body.Add("buffer_size", *limits.bufferSize);
  if (limits.maxPayloadBytes) body.Add("max_payload_bytes", *limits.maxPayloadBytes);
  if (limits.reset) body.Add("reset", true);
  Expect(Request("POST", "/gateway/limits", body.Done()), 200, "set gateway limits");
}

std::vector<int64_t> EmulatorAdmin::InjectDispatch(uint64_t userId, const std::string& t,
                                                   const std::string& dJson) {
  auto document = Expect(Request("POST", "/gateway/dispatch",
                                 JsonObject()
                                     .Add("user_id", std::to_string(userId))
                                     .Add("t", t)
                                     .AddRaw("d", dJson.empty() ? std::string("null") : dJson)
                                     .Done()),
                         200, "inject dispatch");
  std::vector<int64_t> seqs;
  if (const json::Value* list = json::Member(document, "sessions"); list && list->IsArray()) {
    for (const auto& entry : list->GetArray()) {
      if (entry.IsObject()) seqs.push_back(json::GetInt(entry, "s").value_or(0));
    }
  }
  return seqs;
}

}  // namespace platformpp::testkit
