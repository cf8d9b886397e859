// EmulatorAdmin: voice sessions and calls (DAVE actions, drops, moves), and guilds with their roles and
// channels.
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

std::vector<EmulatorAdmin::VoiceSession> EmulatorAdmin::VoiceSessions() {
  // The answer is a bare array (docs/voice-protocol.md), which Expect (objects only) refuses.
  const auto response = Request("GET", "/voice/sessions");
  if (response.status != 200) {
    throw std::runtime_error("voice sessions: HTTP " + std::to_string(response.status) + ": " +
                             response.body);
  }
  json::Document document;
  std::string error;
  if (!json::Parse(response.body, document, &error) || !document.IsArray()) {
    throw std::runtime_error("voice sessions: invalid JSON (" + error + "): " + response.body.substr(0, 200));
  }
  std::vector<VoiceSession> sessions;
  for (const auto& entry : document.GetArray()) {
    if (!entry.IsObject()) continue;
    VoiceSession session;
    session.userId = json::GetSnowflake(entry, "user_id").value_or(0);
    session.lobbyId = json::GetSnowflake(entry, "lobby_id").value_or(0);
    session.sessionId = std::string(json::GetString(entry, "session_id").value_or(""));
    session.ssrc = static_cast<uint32_t>(json::GetInt(entry, "ssrc").value_or(0));
    session.mode = std::string(json::GetString(entry, "mode").value_or(""));
    session.connected = json::GetBool(entry, "connected").value_or(false);
    session.mediaAddress = std::string(json::GetString(entry, "media_address").value_or(""));
    session.packetsReceived = static_cast<uint64_t>(json::GetInt(entry, "packets_received").value_or(0));
    session.packetsForwarded = static_cast<uint64_t>(json::GetInt(entry, "packets_forwarded").value_or(0));
    session.packetsRejected = static_cast<uint64_t>(json::GetInt(entry, "packets_rejected").value_or(0));
    session.payloadsE2ee = static_cast<uint64_t>(json::GetInt(entry, "payloads_e2ee").value_or(0));
    session.payloadsClear = static_cast<uint64_t>(json::GetInt(entry, "payloads_clear").value_or(0));
    sessions.push_back(std::move(session));
  }
  return sessions;
}

std::vector<EmulatorAdmin::VoiceCall> EmulatorAdmin::VoiceCalls() {
  const auto response = Request("GET", "/voice/calls");
  json::Document document;
  std::string error;
  if (response.status != 200 || !json::Parse(response.body, document, &error) || !document.IsArray()) {
    throw std::runtime_error("voice calls: HTTP " + std::to_string(response.status) + ": " +
                             response.body.substr(0, 200));
  }
  std::vector<VoiceCall> calls;
  for (const auto& entry : document.GetArray()) {
    if (!entry.IsObject()) continue;
    VoiceCall call;
    call.lobbyId = json::GetSnowflake(entry, "lobby_id").value_or(0);
    call.daveProtocolVersion = static_cast<int>(json::GetInt(entry, "dave_protocol_version").value_or(0));
    call.established = json::GetBool(entry, "established").value_or(false);
    call.epoch = static_cast<uint64_t>(json::GetInt(entry, "epoch").value_or(0));
    call.pendingTransitions = static_cast<uint64_t>(json::GetInt(entry, "pending_transitions").value_or(0));
    const auto leaves = entry.FindMember("leaves");
    if (leaves != entry.MemberEnd() && leaves->value.IsObject()) {
      for (const auto& leaf : leaves->value.GetObject()) {
        if (leaf.value.IsUint()) call.leaves[std::stoull(leaf.name.GetString())] = leaf.value.GetUint();
      }
    }
    const auto counters = entry.FindMember("counters");
    if (counters != entry.MemberEnd() && counters->value.IsObject()) {
      const auto& c = counters->value;
      const auto count = [&](const char* name) {
        return static_cast<uint64_t>(json::GetInt(c, name).value_or(0));
      };
      call.commitsAccepted = count("commits_accepted");
      call.commitsRefused = count("commits_refused");
      call.welcomesSent = count("welcomes_sent");
      call.invalidReports = count("invalid_reports");
      call.transitionsExecuted = count("transitions_executed");
      call.transitionsTimedOut = count("transitions_timed_out");
      call.newGroupWaitsExpired = count("new_group_waits_expired");
    }
    calls.push_back(std::move(call));
  }
  return calls;
}

bool EmulatorAdmin::DaveAction(uint64_t lobbyId, const std::string& action) {
  JsonObject body;
  body.Add("lobby_id", std::to_string(lobbyId));
  body.Add("action", action);
  const auto document = Expect(Request("POST", "/voice/dave", body.Done()), 200, "DAVE " + action);
  return json::GetBool(document, "changed").value_or(false);
}

void EmulatorAdmin::SetVoiceSettings(const VoiceSettings& settings) {
  JsonObject body;
  if (settings.modes) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    writer.StartArray();
    for (const auto& mode : *settings.modes)
      writer.String(mode.c_str(), static_cast<rapidjson::SizeType>(mode.size()));
    writer.EndArray();
    body.AddRaw("modes", std::string(buffer.GetString(), buffer.GetSize()));
  }
  if (settings.heartbeatIntervalMs) body.Add("heartbeat_interval_ms", *settings.heartbeatIntervalMs);
  if (settings.resumeWindowMs) body.Add("resume_window_ms", *settings.resumeWindowMs);
  if (settings.e2ee) body.Add("e2ee", *settings.e2ee);
  if (settings.daveTransitionTimeoutMs)
    body.Add("dave_transition_timeout_ms", *settings.daveTransitionTimeoutMs);
  if (settings.bufferSize) body.Add("buffer_size", *settings.bufferSize);
  if (settings.reset) body.Add("reset", true);
  Expect(Request("POST", "/voice/settings", body.Done()), 200, "set voice settings");
}

int EmulatorAdmin::DropVoice(uint64_t userId) {
  JsonObject body;
  if (userId != 0) body.Add("user_id", std::to_string(userId));
  return ConnectionCount(Expect(Request("POST", "/voice/drop", body.Done()), 200, "drop voice"));
}

int EmulatorAdmin::CloseVoice(uint64_t userId, int code, const std::string& reason) {
  JsonObject body;
  if (userId != 0) body.Add("user_id", std::to_string(userId));
  body.Add("code", static_cast<int64_t>(code));
  if (!reason.empty()) body.Add("reason", reason);
  return ConnectionCount(Expect(Request("POST", "/voice/close", body.Done()), 200, "close voice"));
}

int EmulatorAdmin::MoveVoice(uint64_t userId) {
  JsonObject body;
  if (userId != 0) body.Add("user_id", std::to_string(userId));
  const auto answer = Expect(Request("POST", "/voice/move", body.Done()), 200, "move voice");
  return static_cast<int>(json::GetInt(answer, "moved").value_or(-1));
}

namespace {

std::string ChannelBody(const EmulatorAdmin::ChannelSpec& channel) {
  JsonObject body;
  if (channel.name) body.Add("name", *channel.name);
  if (channel.type) body.Add("type", static_cast<int64_t>(*channel.type));
  if (channel.position) body.Add("position", static_cast<int64_t>(*channel.position));
  if (channel.parentId) {
    body.AddRaw("parent_id", *channel.parentId == 0 ? std::string("null")
                                                    : "\"" + std::to_string(*channel.parentId) + "\"");
  }
  if (channel.topic) body.Add("topic", *channel.topic);
  if (channel.permissionOverwrites) {
    std::string list = "[";
    for (const auto& overwrite : *channel.permissionOverwrites) {
      if (list.size() > 1) list += ",";
      list += JsonObject()
                  .Add("id", std::to_string(overwrite.id))
                  .Add("type", static_cast<int64_t>(overwrite.type))
                  .Add("allow", std::to_string(overwrite.allow))
                  .Add("deny", std::to_string(overwrite.deny))
                  .Done();
    }
    body.AddRaw("permission_overwrites", list + "]");
  }
  return body.Done();
}

}  // namespace

uint64_t EmulatorAdmin::CreateGuild(const std::string& name, uint64_t ownerId, const std::string& banner) {
  JsonObject body;
  body.Add("name", name).Add("owner_id", std::to_string(ownerId));
  if (!banner.empty()) body.Add("banner", banner);
  return RequireSnowflake(Expect(Request("POST", "/guilds", body.Done()), 200, "create guild"), "id",
                          "create guild");
}

void EmulatorAdmin::AddGuildMember(uint64_t guildId, uint64_t userId, const std::vector<uint64_t>& roleIds) {
  std::string roles = "[";
  for (const auto role : roleIds) {
    if (roles.size() > 1) roles += ",";
    roles += "\"" + std::to_string(role) + "\"";
  }
  Expect(Request("POST", "/guilds/" + std::to_string(guildId) + "/members",
                 JsonObject().Add("user_id", std::to_string(userId)).AddRaw("roles", roles + "]").Done()),
         200, "add guild member");
}

uint64_t EmulatorAdmin::CreateRole(uint64_t guildId, const std::string& name, uint64_t permissions) {
  return RequireSnowflake(
      Expect(Request("POST", "/guilds/" + std::to_string(guildId) + "/roles",
                     JsonObject().Add("name", name).Add("permissions", std::to_string(permissions)).Done()),
             200, "create role"),
      "id", "create role");
}

uint64_t EmulatorAdmin::CreateChannel(uint64_t guildId, const ChannelSpec& channel) {
  return RequireSnowflake(
      Expect(Request("POST", "/guilds/" + std::to_string(guildId) + "/channels", ChannelBody(channel)), 200,
             "create channel"),
      "id", "create channel");
}

void EmulatorAdmin::UpdateChannel(uint64_t guildId, uint64_t channelId, const ChannelSpec& changes) {
  Expect(Request("PATCH", "/guilds/" + std::to_string(guildId) + "/channels/" + std::to_string(channelId),
                 ChannelBody(changes)),
         200, "update channel");
}

void EmulatorAdmin::DeleteChannel(uint64_t guildId, uint64_t channelId) {
  Expect(Request("DELETE", "/guilds/" + std::to_string(guildId) + "/channels/" + std::to_string(channelId)),
         200, "delete channel");
}

}  // namespace platformpp::testkit
