// Guild voice channels without sockets: op 4 joins, moves and leaves (CONNECT needed, else ignored), the
// VOICE_STATE_UPDATE (GUILD_VOICE_STATES intent) and VOICE_SERVER_UPDATE dispatches, the voice session's
// start time, voice states ending with the Gateway session and in GUILD_CREATE, Get Current User Voice State
// and Get User Voice State (10065, CONNECT), Set Voice Channel Status (500 characters,
// SET_VOICE_CHANNEL_STATUS, MANAGE_CHANNELS when not connected, voice channels only, audit 192 and 193,
// cleared when the channel empties), op 43's answer, and the status kept across a restart.
#include <doctest/doctest.h>

#include <string>

#include "state_mirror.hpp"
#include "voice_guild_fixture.hpp"

namespace voice_channel_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::test::voice_bits;

namespace {

constexpr std::uint64_t kVoiceBot = kConnect | kSpeak | kSetVoiceChannelStatus | kViewAuditLog;

std::string repeat(const std::string& piece, std::size_t times) {
  std::string result;
  for (std::size_t i = 0; i < times; ++i)
    result += piece;
  return result;
}

// op 43's channel entry for `channel_id`.
rapidjson::Document channel_info(VoiceGuild& e, std::uint64_t connection, RecordingGatewayPeer& peer,
                                 const std::string& channel_id) {
  e.service.gateway_received(
      connection,
      R"({"op":43,"d":{"guild_id":")" + e.guild_id + R"(","fields":["status","voice_start_time"]}})", true);
  const auto infos = peer.dispatches("CHANNEL_INFO");
  REQUIRE_FALSE(infos.empty());
  for (const auto& entry : infos.back()["d"]["channels"].GetArray()) {
    if (str(entry["id"]) == channel_id) {
      rapidjson::Document copy;
      copy.CopyFrom(entry, copy.GetAllocator());
      return copy;
    }
  }
  FAIL("no CHANNEL_INFO entry for " << channel_id);
  return {};
}

}  // namespace

TEST_CASE(
    "guild voice: op 4 joins, mutes, moves and leaves; VOICE_STATE_UPDATE, VOICE_SERVER_UPDATE, start time") {
  VoiceGuild e(kVoiceBot);
  RecordingGatewayPeer bot_peer, quiet_peer, alice_peer;
  const auto bot = e.connect_bot(bot_peer, kGuilds | kGuildVoiceStates);
  e.connect_bot(quiet_peer, kGuilds);  // a shard without GUILD_VOICE_STATES
  const auto alice = e.connect_user(alice_peer, e.alice);

  e.op4(bot, e.voice);
  const auto joined_event = bot_peer.only("VOICE_STATE_UPDATE");
  const auto joined = joined_event["d"].GetObject();
  CHECK(str(joined["guild_id"]) == e.guild_id);
  CHECK(str(joined["channel_id"]) == e.voice);
  CHECK(str(joined["user_id"]) == e.bot_id);
  CHECK(str(joined["member"]["user"]["id"]) == e.bot_id);
  CHECK_FALSE(joined["self_mute"].GetBool());
  CHECK_FALSE(joined["suppress"].GetBool());
  CHECK(joined["request_to_speak_timestamp"].IsNull());
  const auto server_event = bot_peer.only("VOICE_SERVER_UPDATE");
  const auto server = server_event["d"].GetObject();
  CHECK(str(server["guild_id"]) == e.guild_id);
  CHECK(str(server["endpoint"]) == "127.0.0.1:1234/voice");
  CHECK_FALSE(str(server["token"]).empty());
  CHECK(alice_peer.dispatches("VOICE_STATE_UPDATE").size() == 1);
  CHECK(quiet_peer.dispatches("VOICE_STATE_UPDATE").empty());   // no GUILD_VOICE_STATES
  CHECK(alice_peer.dispatches("VOICE_SERVER_UPDATE").empty());  // only to the joiner
  // The first member starts the channel's voice session (Unix seconds), to every guild session.
  const auto started_event = quiet_peer.only("VOICE_CHANNEL_START_TIME_UPDATE");
  const auto started = started_event["d"].GetObject();
  CHECK(str(started["id"]) == e.voice);
  CHECK(started["voice_start_time"].GetInt64() == VoiceGuild::kStart / 1000);
  CHECK(channel_info(e, alice, alice_peer, e.voice)["voice_start_time"].GetInt64() ==
        VoiceGuild::kStart / 1000);
  CHECK(channel_info(e, alice, alice_peer, e.stage)["voice_start_time"].IsNull());

  // A second member: no new start time. Self mute: one more VOICE_STATE_UPDATE, no new server.
  e.clock.advance(5000);
  e.op4(alice, e.voice);
  e.op4(alice, e.voice, true);
  CHECK(bot_peer.dispatches("VOICE_CHANNEL_START_TIME_UPDATE").size() == 1);
  CHECK(alice_peer.dispatches("VOICE_SERVER_UPDATE").size() == 1);
  const auto muted_event = bot_peer.nth("VOICE_STATE_UPDATE", 2);
  const auto muted = muted_event["d"].GetObject();
  CHECK(str(muted["user_id"]) == e.alice);
  CHECK(muted["self_mute"].GetBool());
  e.op4(alice, e.voice, true);  // the same state again: nothing
  CHECK(bot_peer.dispatches("VOICE_STATE_UPDATE").size() == 3);

  // Alice moves to the stage (an audience member: suppressed), the bot leaves: the voice channel empties.
  e.op4(alice, e.stage);
  const auto moved_event = bot_peer.nth("VOICE_STATE_UPDATE", 3);
  const auto moved = moved_event["d"].GetObject();
  CHECK(str(moved["channel_id"]) == e.stage);
  CHECK(moved["suppress"].GetBool());
  CHECK(alice_peer.dispatches("VOICE_SERVER_UPDATE").size() == 1);  // a move keeps the voice server
  e.op4(bot, "null");
  const auto left_event = alice_peer.nth("VOICE_STATE_UPDATE", 4);
  const auto left = left_event["d"].GetObject();
  CHECK(str(left["user_id"]) == e.bot_id);
  CHECK(left["channel_id"].IsNull());
  const auto ended = alice_peer.dispatches("VOICE_CHANNEL_START_TIME_UPDATE");
  REQUIRE(ended.size() == 3);  // voice started, stage started, voice ended
  CHECK(str(ended[2]["d"]["id"]) == e.voice);
  CHECK(ended[2]["d"]["voice_start_time"].IsNull());
  CHECK(channel_info(e, alice, alice_peer, e.voice)["voice_start_time"].IsNull());
  CHECK(channel_info(e, alice, alice_peer, e.stage)["voice_start_time"].GetInt64() ==
        (VoiceGuild::kStart + 5000) / 1000);

  // A new bot session's GUILD_CREATE lists the voice states (without guild_id).
  RecordingGatewayPeer later;
  e.connect_bot(later, kGuilds);
  const auto guild = later.only("GUILD_CREATE");
  REQUIRE(guild["d"]["voice_states"].Size() == 1);
  CHECK(str(guild["d"]["voice_states"][0]["user_id"]) == e.alice);
  CHECK(str(guild["d"]["voice_states"][0]["channel_id"]) == e.stage);
  CHECK_FALSE(guild["d"]["voice_states"][0].HasMember("guild_id"));
}

TEST_CASE(
    "guild voice: op 4 without CONNECT, to a text channel or an unknown guild is ignored; bad types 4002") {
  VoiceGuild e(kVoiceBot);
  RecordingGatewayPeer bot_peer;
  const auto bot = e.connect_bot(bot_peer, kGuilds | kGuildVoiceStates);
  e.op4(bot, e.locked);  // the channel denies the bot CONNECT
  e.op4(bot, e.text);
  e.op4(bot, e.voice, false, false, "424242");
  CHECK(bot_peer.dispatches("VOICE_STATE_UPDATE").empty());
  CHECK(bot_peer.dispatches("VOICE_SERVER_UPDATE").empty());
  check_error(e.bot("GET", "/guilds/" + e.guild_id + "/voice-states/@me"), 404, 10065);
  CHECK_FALSE(bot_peer.closed);
  // Alice (CONNECT from @everyone) may join the locked channel.
  RecordingGatewayPeer alice_peer;
  const auto alice = e.connect_user(alice_peer, e.alice);
  e.op4(alice, e.locked);
  CHECK(alice_peer.dispatches("VOICE_STATE_UPDATE").size() == 1);
  e.service.gateway_received(bot, R"({"op":4,"d":{"guild_id":")" + e.guild_id + R"(","channel_id":5}})",
                             true);
  CHECK(bot_peer.close_code == 4002);
}

TEST_CASE("guild voice: states end with the Gateway session and with the channel") {
  VoiceGuild e(kVoiceBot);
  RecordingGatewayPeer bot_peer, alice_peer;
  e.connect_bot(bot_peer, kGuilds | kGuildVoiceStates);
  const auto alice = e.connect_user(alice_peer, e.alice);
  e.op4(alice, e.voice);
  CHECK(str(e.ok(e.bot("GET", "/guilds/" + e.guild_id + "/voice-states/" + e.alice))["channel_id"]) ==
        e.voice);
  e.service.gateway_disconnected(alice, 1000);  // a clean close ends the session
  const auto left_event = bot_peer.nth("VOICE_STATE_UPDATE", 1);
  const auto left = left_event["d"].GetObject();
  CHECK(left["channel_id"].IsNull());
  check_error(e.bot("GET", "/guilds/" + e.guild_id + "/voice-states/" + e.alice), 404, 10065);
  CHECK(bot_peer.dispatches("VOICE_CHANNEL_START_TIME_UPDATE").size() == 2);

  // Deleting the channel disconnects whoever is in it.
  RecordingGatewayPeer again;
  const auto back = e.connect_user(again, e.alice);
  e.op4(back, e.voice);
  e.call("DELETE", "/_emulator/guilds/" + e.guild_id + "/channels/" + e.voice);
  check_error(e.bot("GET", "/guilds/" + e.guild_id + "/voice-states/" + e.alice), 404, 10065);
}

TEST_CASE("Get Current User Voice State and Get User Voice State: 10065, the object, CONNECT for another's") {
  VoiceGuild e(kVoiceBot);
  RecordingGatewayPeer bot_peer, alice_peer;
  const auto bot = e.connect_bot(bot_peer, kGuilds);
  const auto alice = e.connect_user(alice_peer, e.alice);
  check_error(e.bot("GET", "/guilds/" + e.guild_id + "/voice-states/@me"), 404, 10065);
  check_error(e.bot("GET", "/guilds/" + e.guild_id + "/voice-states/424242"), 404, 10065);
  e.op4(bot, e.voice, false, true);
  const auto own = e.ok(e.bot("GET", "/guilds/" + e.guild_id + "/voice-states/@me"));
  CHECK(str(own["channel_id"]) == e.voice);
  CHECK(str(own["guild_id"]) == e.guild_id);
  CHECK(own["self_deaf"].GetBool());
  CHECK(str(own["session_id"]) == str(bot_peer.only("READY")["d"]["session_id"]));
  // Alice in the channel the bot may not connect to: 50013; in one it may: her state.
  e.op4(alice, e.locked);
  check_error(e.bot("GET", "/guilds/" + e.guild_id + "/voice-states/" + e.alice), 403, 50013);
  e.op4(alice, e.voice);
  CHECK(str(e.ok(e.bot("GET", "/guilds/" + e.guild_id + "/voice-states/" + e.alice))["user_id"]) == e.alice);
  check_error(e.bot("GET", "/guilds/424242/voice-states/@me"), 404, 10004);
}

TEST_CASE("Set Voice Channel Status: 500 characters, VOICE_CHANNEL_STATUS_UPDATE, audit 192 and 193, op 43") {
  VoiceGuild e(kVoiceBot);
  RecordingGatewayPeer bot_peer;
  const auto bot = e.connect_bot(bot_peer, kGuilds);
  e.op4(bot, e.voice);
  const auto path = "/channels/" + e.voice + "/voice-status";
  // 500 characters (two bytes each) are accepted, 501 refused.
  check_error(e.bot("PUT", path, R"({"status":")" + repeat("\xC3\xA9", 501) + R"("})"), 400, 50035);
  CHECK(e.bot("PUT", path, R"({"status":")" + repeat("\xC3\xA9", 500) + R"("})").status == 204);
  CHECK(e.bot("PUT", path, R"({"status":"Racing night"})", "weekly%20event").status == 204);
  const auto updates = bot_peer.dispatches("VOICE_CHANNEL_STATUS_UPDATE");
  REQUIRE(updates.size() == 2);
  CHECK(str(updates[1]["d"]["id"]) == e.voice);
  CHECK(str(updates[1]["d"]["guild_id"]) == e.guild_id);
  CHECK(str(updates[1]["d"]["status"]) == "Racing night");
  CHECK(str(channel_info(e, bot, bot_peer, e.voice)["status"]) == "Racing night");
  // Not in the channel object (the seed: ephemeral, read with op 43).
  const auto channels = e.ok(e.bot("GET", "/guilds/" + e.guild_id + "/channels"));
  for (const auto& channel : channels.GetArray())
    CHECK_FALSE(channel.HasMember("status"));
  // The same status again changes nothing.
  CHECK(e.bot("PUT", path, R"({"status":"Racing night"})").status == 204);
  CHECK(bot_peer.dispatches("VOICE_CHANNEL_STATUS_UPDATE").size() == 2);
  CHECK(e.bot("PUT", path, R"({"status":null})").status == 204);
  CHECK(bot_peer.dispatches("VOICE_CHANNEL_STATUS_UPDATE").back()["d"]["status"].IsNull());
  CHECK(channel_info(e, bot, bot_peer, e.voice)["status"].IsNull());

  const auto log = e.ok(e.bot("GET", "/guilds/" + e.guild_id + "/audit-logs"));
  const auto& entries = log["audit_log_entries"];
  REQUIRE(entries.Size() == 3);  // newest first
  CHECK(entries[0]["action_type"].GetInt() == 193);
  CHECK(str(entries[0]["options"]["channel_id"]) == e.voice);
  CHECK_FALSE(entries[0]["options"].HasMember("status"));
  CHECK(entries[1]["action_type"].GetInt() == 192);
  CHECK(str(entries[1]["options"]["status"]) == "Racing night");
  CHECK(str(entries[1]["options"]["channel_id"]) == e.voice);
  CHECK(str(entries[1]["reason"]) == "weekly event");
  CHECK(str(entries[1]["user_id"]) == e.bot_id);

  check_error(e.bot("PUT", path, R"({"status":5})"), 400, 50035);
  check_error(e.bot("PUT", "/channels/" + e.text + "/voice-status", R"({"status":"x"})"), 400, 50024);
  check_error(e.bot("PUT", "/channels/" + e.stage + "/voice-status", R"({"status":"x"})"), 400, 50024);
  check_error(e.bot("PUT", "/channels/424242/voice-status", R"({"status":"x"})"), 404, 10003);
}

TEST_CASE("Set Voice Channel Status: SET_VOICE_CHANNEL_STATUS, and MANAGE_CHANNELS when not connected") {
  SUBCASE("connected without SET_VOICE_CHANNEL_STATUS") {
    VoiceGuild e(kConnect);
    RecordingGatewayPeer bot_peer;
    e.op4(e.connect_bot(bot_peer, kGuilds), e.voice);
    check_error(e.bot("PUT", "/channels/" + e.voice + "/voice-status", R"({"status":"x"})"), 403, 50013);
  }
  SUBCASE("not connected: MANAGE_CHANNELS missing, then present") {
    VoiceGuild without(kSetVoiceChannelStatus);
    check_error(without.bot("PUT", "/channels/" + without.voice + "/voice-status", R"({"status":"x"})"), 403,
                50013);
    VoiceGuild with(kSetVoiceChannelStatus | kManageChannels);
    CHECK(with.bot("PUT", "/channels/" + with.voice + "/voice-status", R"({"status":"x"})").status == 204);
  }
  SUBCASE("connected to another channel counts as not connected") {
    VoiceGuild e(kSetVoiceChannelStatus | kConnect);
    RecordingGatewayPeer bot_peer;
    e.op4(e.connect_bot(bot_peer, kGuilds), e.stage);
    check_error(e.bot("PUT", "/channels/" + e.voice + "/voice-status", R"({"status":"x"})"), 403, 50013);
  }
}

TEST_CASE("voice channel status: cleared when the channel empties; kept across a restart") {
  VoiceGuild e(kVoiceBot | kManageChannels);
  StateMirror mirror(e.service.changes());
  RecordingGatewayPeer bot_peer, alice_peer;
  e.connect_bot(bot_peer, kGuilds);
  const auto alice = e.connect_user(alice_peer, e.alice);
  e.op4(alice, e.voice);
  CHECK(e.bot("PUT", "/channels/" + e.voice + "/voice-status", R"({"status":"Practice"})").status == 204);
  e.op4(alice, "null");
  const auto cleared = bot_peer.dispatches("VOICE_CHANNEL_STATUS_UPDATE");
  REQUIRE(cleared.size() == 2);
  CHECK(cleared[1]["d"]["status"].IsNull());
  // Nobody cleared it: no audit entry.
  CHECK(e.ok(e.bot("GET", "/guilds/" + e.guild_id + "/audit-logs"))["audit_log_entries"].Size() == 1);

  // Set on the empty channel (with MANAGE_CHANNELS), it stays, and survives a restart.
  CHECK(e.bot("PUT", "/channels/" + e.voice + "/voice-status", R"({"status":"Tonight"})").status == 204);
  mirror.check_complete();
  VoiceGuild restarted(0, VoiceGuild::kStart, false);
  check_round_trip(mirror.documents(), restarted.service.changes());
  RecordingGatewayPeer fresh;
  restarted.bot_token = e.bot_token;
  restarted.guild_id = e.guild_id;
  const auto again = restarted.connect_bot(fresh, kGuilds);
  CHECK(str(channel_info(restarted, again, fresh, e.voice)["status"]) == "Tonight");
  CHECK(channel_info(restarted, again, fresh, e.voice)["voice_start_time"].IsNull());
}

}  // namespace voice_channel_routes_test
