// Guild soundboard sounds without sockets: create (name 2..32, volume 0..1, the data URI's type and 512 KiB
// crossed by one, 8 a guild), list and get (`user` only for callers with an expressions permission), modify,
// delete; CREATE_GUILD_EXPRESSIONS after the 2026-02-23 split and MANAGE_GUILD_EXPRESSIONS before it, own
// sounds against others'; GUILD_SOUNDBOARD_SOUND_* (GUILD_EXPRESSIONS), audit 130, 131, 132; the default
// sounds; Send Soundboard Sound (connected, SPEAK, USE_SOUNDBOARD, USE_EXTERNAL_SOUNDS, not deafened or
// suppressed) and VOICE_CHANNEL_EFFECT_SEND; op 31 and GUILD_CREATE; sounds kept across a restart.
#include <doctest/doctest.h>

#include <string>

#include "state_mirror.hpp"
#include "voice_guild_fixture.hpp"

namespace soundboard_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::test::voice_bits;

namespace {

constexpr std::int64_t kSplitMs = 1771804800000;  // 2026-02-23T00:00:00Z
constexpr std::size_t kMaxBytes = std::size_t{512} * 1024;

// A data URI of `bytes` zero bytes as `media_type`.
std::string sound_uri(std::size_t bytes, const std::string& media_type = "audio/mpeg") {
  std::string data;
  data.reserve(bytes / 3 * 4 + 4);
  for (std::size_t i = 0; i < bytes / 3; ++i)
    data += "AAAA";
  if (bytes % 3 == 1) data += "AA==";
  if (bytes % 3 == 2) data += "AAA=";
  return "data:" + media_type + ";base64," + data;
}

std::string create_body(const std::string& name, const std::string& extra = {}) {
  return R"({"name":")" + name + R"(","sound":")" + sound_uri(100) + "\"" + extra + "}";
}

std::string sounds_path(const VoiceGuild& e) {
  return "/guilds/" + e.guild_id + "/soundboard-sounds";
}

}  // namespace

TEST_CASE("Create Guild Soundboard Sound: the fields crossed by one, 512 KiB, MP3 or Ogg, 8 a guild") {
  VoiceGuild e(kCreateGuildExpressions | kViewAuditLog);
  RecordingGatewayPeer peer, quiet;
  e.connect_bot(peer, kGuilds | kGuildExpressions);
  e.connect_bot(quiet, kGuilds);
  const auto path = sounds_path(e);
  check_error(e.bot("POST", path, create_body("a")), 400, 50035);
  check_error(e.bot("POST", path, create_body(std::string(33, 'a'))), 400, 50035);
  check_error(e.bot("POST", path, create_body("ok", R"(,"volume":1.01)")), 400, 50035);
  check_error(e.bot("POST", path, create_body("ok", R"(,"volume":-0.01)")), 400, 50035);
  check_error(e.bot("POST", path, create_body("ok", R"(,"emoji_id":"not a snowflake")")), 400, 50035);
  check_error(e.bot("POST", path, R"({"name":"ok","sound":")" + sound_uri(kMaxBytes + 1) + "\"}"), 400,
              50035);
  check_error(e.bot("POST", path, R"({"name":"ok","sound":")" + sound_uri(10, "audio/wav") + "\"}"), 400,
              50035);
  check_error(e.bot("POST", path, R"({"name":"ok","sound":"data:audio/mpeg;base64,%%%"})"), 400, 50035);
  check_error(e.bot("POST", path, R"({"name":"ok"})"), 400, 50035);
  CHECK(e.ok(e.bot("GET", path))["items"].Size() == 0);

  const auto first = e.ok(e.bot(
      "POST", path,
      R"({"name":"Yay","sound":")" + sound_uri(kMaxBytes) + R"(","volume":0,"emoji_name":"\ud83c\udf89"})",
      "new%20sound"));
  CHECK(str(first["name"]) == "Yay");
  CHECK(first["volume"].GetDouble() == 0.0);
  CHECK(str(first["guild_id"]) == e.guild_id);
  CHECK(first["emoji_id"].IsNull());
  CHECK(str(first["emoji_name"]) == "\xF0\x9F\x8E\x89");
  CHECK(first["available"].GetBool());
  CHECK(str(first["user"]["id"]) == e.bot_id);
  const auto event = peer.only("GUILD_SOUNDBOARD_SOUND_CREATE");
  CHECK(str(event["d"]["sound_id"]) == str(first["sound_id"]));
  CHECK(quiet.dispatches("GUILD_SOUNDBOARD_SOUND_CREATE").empty());  // no GUILD_EXPRESSIONS
  const auto two = e.ok(e.bot("POST", path, create_body(std::string(32, 'b'), R"(,"volume":1)")));
  CHECK(two["volume"].GetDouble() == 1.0);
  e.ok(e.bot("POST", path, R"({"name":"ogg","sound":")" + sound_uri(10, "audio/ogg") + "\"}"));
  for (int i = 3; i < 8; ++i)
    e.ok(e.bot("POST", path, create_body("s" + std::to_string(i))));
  check_error(e.bot("POST", path, create_body("ninth")), 400, 30045);
  CHECK(e.ok(e.bot("GET", path))["items"].Size() == 8);

  const auto log = e.ok(e.bot("GET", "/guilds/" + e.guild_id + "/audit-logs?action_type=130"));
  REQUIRE(log["audit_log_entries"].Size() == 8);
  const auto& created = log["audit_log_entries"][7];  // the oldest: Yay
  CHECK(str(created["target_id"]) == str(first["sound_id"]));
  CHECK(str(created["reason"]) == "new sound");
}

TEST_CASE("soundboard permissions: the 2026-02-23 split, own sounds and others', `user` shown or not") {
  SUBCASE("before the split MANAGE_GUILD_EXPRESSIONS creates; from it, it does not") {
    VoiceGuild before(kManageGuildExpressions, kSplitMs - 1000);
    CHECK(before.bot("POST", sounds_path(before), create_body("early")).status == 201);
    before.clock.advance(1000);
    check_error(before.bot("POST", sounds_path(before), create_body("late")), 403, 50013);
  }
  SUBCASE("neither permission: no create") {
    VoiceGuild e(0);
    check_error(e.bot("POST", sounds_path(e), create_body("nope")), 403, 50013);
  }
  SUBCASE("CREATE_GUILD_EXPRESSIONS manages its own sounds only; MANAGE_GUILD_EXPRESSIONS any") {
    VoiceGuild e(kCreateGuildExpressions);
    // A second bot with MANAGE_GUILD_EXPRESSIONS.
    const auto other = parse(e.call("POST", "/_emulator/apps", R"({"name":"Other"})").body);
    const auto other_token = str(other["bot_token"]);
    e.member(e.guild_id, str(other["bot_user_id"]),
             e.role(e.guild_id, "Manager", kManageGuildExpressions | kCreateGuildExpressions));
    auto as_other = [&](std::string method, const std::string& path, std::string body = {}) {
      return e.raw(std::move(method), "/api/v10" + path, std::move(body),
                   {{"Authorization", "Bot " + other_token}, {"Content-Type", "application/json"}});
    };
    const auto theirs = str(e.ok(as_other("POST", sounds_path(e), create_body("theirs")))["sound_id"]);
    const auto mine = str(e.ok(e.bot("POST", sounds_path(e), create_body("mine")))["sound_id"]);
    check_error(e.bot("PATCH", sounds_path(e) + "/" + theirs, R"({"name":"taken"})"), 403, 50013);
    check_error(e.bot("DELETE", sounds_path(e) + "/" + theirs), 403, 50013);
    CHECK(str(e.ok(e.bot("PATCH", sounds_path(e) + "/" + mine, R"({"name":"renamed"})"))["name"]) ==
          "renamed");
    CHECK(as_other("PATCH", sounds_path(e) + "/" + mine, R"({"volume":0.5})").status == 200);
    CHECK(as_other("DELETE", sounds_path(e) + "/" + mine).status == 204);
    CHECK(e.bot("DELETE", sounds_path(e) + "/" + theirs).status == 403);
    // The list shows `user` to a caller with an expressions permission...
    CHECK(e.ok(e.bot("GET", sounds_path(e)))["items"][0].HasMember("user"));
    // ...and not to a bot without one.
    const auto plain = parse(e.call("POST", "/_emulator/apps", R"({"name":"Plain"})").body);
    e.member(e.guild_id, str(plain["bot_user_id"]), "");
    const auto seen = e.raw("GET", "/api/v10" + sounds_path(e) + "/" + theirs, {},
                            {{"Authorization", "Bot " + str(plain["bot_token"])}});
    REQUIRE(seen.status == 200);
    CHECK_FALSE(parse(seen.body).HasMember("user"));
  }
}

TEST_CASE("Modify and Delete Guild Soundboard Sound: fields, events, audit 131 and 132, 10097") {
  VoiceGuild e(kCreateGuildExpressions | kViewAuditLog);
  RecordingGatewayPeer peer;
  e.connect_bot(peer, kGuilds | kGuildExpressions);
  const auto id = str(e.ok(e.bot("POST", sounds_path(e), create_body("Horn")))["sound_id"]);
  const auto path = sounds_path(e) + "/" + id;
  check_error(e.bot("PATCH", path, R"({"name":"x"})"), 400, 50035);
  check_error(e.bot("PATCH", path, R"({"volume":2})"), 400, 50035);
  const auto changed = e.ok(e.bot("PATCH", path, R"({"name":"Big horn","volume":0.25,"emoji_id":"1234"})"));
  CHECK(str(changed["name"]) == "Big horn");
  CHECK(changed["volume"].GetDouble() == 0.25);
  CHECK(str(changed["emoji_id"]) == "1234");
  CHECK(str(e.ok(e.bot("GET", path))["name"]) == "Big horn");
  CHECK(str(peer.only("GUILD_SOUNDBOARD_SOUND_UPDATE")["d"]["name"]) == "Big horn");
  CHECK(e.bot("DELETE", path).status == 204);
  const auto deleted_event = peer.only("GUILD_SOUNDBOARD_SOUND_DELETE");
  const auto deleted = deleted_event["d"].GetObject();
  CHECK(str(deleted["sound_id"]) == id);
  CHECK(str(deleted["guild_id"]) == e.guild_id);
  check_error(e.bot("GET", path), 404, 10097);
  check_error(e.bot("PATCH", path, R"({"name":"gone"})"), 404, 10097);
  check_error(e.bot("DELETE", path), 404, 10097);
  const auto log = e.ok(e.bot("GET", "/guilds/" + e.guild_id + "/audit-logs"));
  const auto& entries = log["audit_log_entries"];
  REQUIRE(entries.Size() == 3);
  CHECK(entries[0]["action_type"].GetInt() == 132);
  CHECK(entries[1]["action_type"].GetInt() == 131);
  bool renamed = false;
  for (const auto& change : entries[1]["changes"].GetArray())
    renamed = renamed || (str(change["key"]) == "name" && str(change["new_value"]) == "Big horn");
  CHECK(renamed);
  CHECK(entries[2]["action_type"].GetInt() == 130);
}

TEST_CASE("List Default Soundboard Sounds, op 31 and GUILD_CREATE with the guild's sounds") {
  VoiceGuild e(kCreateGuildExpressions);
  const auto defaults = e.ok(e.bot("GET", "/soundboard-default-sounds"));
  REQUIRE(defaults.Size() > 0);
  CHECK(str(defaults[0]["sound_id"]) == "1");
  CHECK(str(defaults[0]["name"]) == "quack");
  CHECK_FALSE(defaults[0].HasMember("guild_id"));
  CHECK(e.raw("GET", "/api/v10/soundboard-default-sounds").status == 401);
  const auto id = str(e.ok(e.bot("POST", sounds_path(e), create_body("Yay")))["sound_id"]);
  RecordingGatewayPeer peer;
  const auto connection = e.connect_bot(peer, kGuilds);
  CHECK(str(peer.only("GUILD_CREATE")["d"]["soundboard_sounds"][0]["sound_id"]) == id);
  e.service.gateway_received(connection, R"({"op":31,"d":{"guild_ids":[")" + e.guild_id + R"(","424242"]}})",
                             true);
  const auto answers = peer.dispatches("SOUNDBOARD_SOUNDS");
  REQUIRE(answers.size() == 2);
  CHECK(str(answers[0]["d"]["soundboard_sounds"][0]["sound_id"]) == id);
  CHECK(answers[1]["d"]["soundboard_sounds"].Size() == 0);
}

TEST_CASE(
    "Send Soundboard Sound: connected, SPEAK, USE_SOUNDBOARD, USE_EXTERNAL_SOUNDS; "
    "VOICE_CHANNEL_EFFECT_SEND") {
  const auto all = kConnect | kSpeak | kUseSoundboard | kCreateGuildExpressions | kUseExternalSounds;
  SUBCASE("the effect goes to those connected to the channel") {
    VoiceGuild e(all);
    RecordingGatewayPeer bot_peer, alice_peer, olivia_peer;
    const auto bot = e.connect_bot(bot_peer, kGuilds | kGuildVoiceStates);
    const auto alice = e.connect_user(alice_peer, e.alice);
    e.connect_user(olivia_peer, e.olivia);
    const auto id = str(e.ok(
        e.bot("POST", sounds_path(e), create_body("Yay", R"(,"volume":0.5,"emoji_name":"x")")))["sound_id"]);
    const auto send = "/channels/" + e.voice + "/send-soundboard-sound";
    check_error(e.bot("POST", send, R"({"sound_id":")" + id + "\"}"), 403, 50013);  // not connected
    e.op4(bot, e.voice);
    e.op4(alice, e.voice);
    check_error(e.bot("POST", send, R"({"sound_id":"424242"})"), 404, 10097);
    check_error(e.bot("POST", send, R"({})"), 400, 50035);
    CHECK(e.bot("POST", send, R"({"sound_id":")" + id + "\"}").status == 204);
    const auto effect_event = alice_peer.only("VOICE_CHANNEL_EFFECT_SEND");
    const auto effect = effect_event["d"].GetObject();
    CHECK(str(effect["channel_id"]) == e.voice);
    CHECK(str(effect["user_id"]) == e.bot_id);
    CHECK(str(effect["sound_id"]) == id);
    CHECK(effect["sound_volume"].GetDouble() == 0.5);
    CHECK(str(effect["emoji"]["name"]) == "x");
    CHECK(bot_peer.dispatches("VOICE_CHANNEL_EFFECT_SEND").size() == 1);
    CHECK(olivia_peer.dispatches("VOICE_CHANNEL_EFFECT_SEND").empty());  // not connected
    // A default sound; self mute is allowed, self deafen is not.
    e.op4(bot, e.voice, true);
    CHECK(e.bot("POST", send, R"({"sound_id":"1"})").status == 204);
    e.op4(bot, e.voice, true, true);
    check_error(e.bot("POST", send, R"({"sound_id":"1"})"), 403, 50013);
    // In a stage the audience is suppressed.
    e.op4(bot, e.stage);
    check_error(e.bot("POST", "/channels/" + e.stage + "/send-soundboard-sound", R"({"sound_id":"1"})"), 403,
                50013);
    check_error(e.bot("POST", "/channels/" + e.text + "/send-soundboard-sound", R"({"sound_id":"1"})"), 400,
                50024);
  }
  SUBCASE("without SPEAK or USE_SOUNDBOARD") {
    for (const auto missing : {kSpeak, kUseSoundboard}) {
      // @everyone has SPEAK: the channel denies it to the bot.
      VoiceGuild e(all & ~missing);
      const auto channel =
          e.channel(e.guild_id, R"({"name":"Quiet","type":2,"permission_overwrites":[{"id":")" + e.bot_id +
                                    R"(","type":1,"allow":"0","deny":")" +
                                    std::to_string(missing == kSpeak ? kSpeak : 0) + R"("}]})");
      RecordingGatewayPeer peer;
      e.op4(e.connect_bot(peer, kGuilds), channel);
      check_error(e.bot("POST", "/channels/" + channel + "/send-soundboard-sound", R"({"sound_id":"1"})"),
                  403, 50013);
    }
  }
  SUBCASE("another guild's sound needs USE_EXTERNAL_SOUNDS") {
    for (const bool external : {false, true}) {
      VoiceGuild e(all & ~(external ? 0 : kUseExternalSounds));
      const auto away = e.make_guild("Away");
      e.member(away, e.bot_id, e.role(away, "Bot", kCreateGuildExpressions));
      const auto sound =
          str(e.ok(e.bot("POST", "/guilds/" + away + "/soundboard-sounds", create_body("Far")))["sound_id"]);
      RecordingGatewayPeer peer;
      e.op4(e.connect_bot(peer, kGuilds), e.voice);
      const auto response = e.bot("POST", "/channels/" + e.voice + "/send-soundboard-sound",
                                  R"({"sound_id":")" + sound + R"(","source_guild_id":")" + away + "\"}");
      if (external) {
        CHECK(response.status == 204);
      } else {
        check_error(response, 403, 50013);
      }
      // Without source_guild_id the sound is looked for in the channel's guild.
      check_error(e.bot("POST", "/channels/" + e.voice + "/send-soundboard-sound",
                        R"({"sound_id":")" + sound + "\"}"),
                  404, 10097);
    }
  }
}

TEST_CASE("soundboard sounds are kept across a restart") {
  VoiceGuild e(kCreateGuildExpressions);
  StateMirror mirror(e.service.changes());
  const auto id =
      str(e.ok(e.bot("POST", sounds_path(e), create_body("Kept", R"(,"volume":0.75)")))["sound_id"]);
  const auto gone = str(e.ok(e.bot("POST", sounds_path(e), create_body("Gone")))["sound_id"]);
  mirror.check_complete();
  CHECK(mirror.count("guild_soundboard") == 1);
  CHECK(e.bot("DELETE", sounds_path(e) + "/" + gone).status == 204);
  mirror.check_complete();
  VoiceGuild restarted(0, VoiceGuild::kStart, false);
  check_round_trip(mirror.documents(), restarted.service.changes());
  restarted.bot_token = e.bot_token;
  restarted.guild_id = e.guild_id;
  const auto list = restarted.ok(restarted.bot("GET", sounds_path(e)));
  const auto items = list["items"].GetArray();
  REQUIRE(items.Size() == 1);
  CHECK(str(items[0]["sound_id"]) == id);
  CHECK(items[0]["volume"].GetDouble() == 0.75);
  CHECK(str(items[0]["user"]["id"]) == e.bot_id);
}

}  // namespace soundboard_routes_test
