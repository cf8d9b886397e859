// Guilds without sockets: GET /users/@me/guilds, GET /guilds/{id}/channels around the 16 November 2026
// cut-over, READY `guilds`, CHANNEL_* dispatches with obfuscation (capability bit 15, the date), op 8
// Request Guild Members and its all-members limit, and the admin routes that seed guilds.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "guild/permissions.hpp"
#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace guild_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

using FakePeer = RecordingGatewayPeer;

constexpr std::int64_t kLastSecondBefore = 1794787199000;  // 2026-11-15T23:59:59Z
constexpr std::uint64_t kBit15 = std::uint64_t{1} << 15;

// Owner Olivia, member Alice, outsider Mallory and the app's bot (a member) in guild "Home", which has
// #general (everyone), #secret (@everyone denied VIEW_CHANNEL, with a topic), a hidden category "staff"
// and #staff-chat in it (no overwrites of its own); and a second guild "Away" with Alice and the bot.
struct Fixture : ServiceBench {
  std::string olivia, alice, mallory;
  std::string app_id, bot_token, bot_id;
  std::string away_id;
  std::string general_id, secret_id, staff_id, staff_chat_id;

  Fixture() : ServiceBench(kLastSecondBefore, Pace::live) {
    olivia = user("olivia");
    alice = user("alice");
    mallory = user("mallory");
    const auto game = app("Game");
    app_id = game.id;
    bot_token = game.bot_token;
    bot_id = game.bot_id;
    guild(olivia, "Home", R"(,"banner":"b4nn3r")");
    away_id = guild(olivia, "Away");
    for (const auto& guild : {guild_id, away_id}) {
      for (const auto& id : {alice, bot_id})
        member(id, {}, guild);
    }
    general_id = channel(R"({"name":"general","type":0,"position":0})");
    secret_id = channel(R"({"name":"secret","type":0,"position":1,"topic":"plans",)"
                        R"("permission_overwrites":[{"id":")" +
                        guild_id + R"(","type":0,"allow":"0","deny":"1024"}]})");
    staff_id = channel(R"({"name":"staff","type":4,"position":2,"permission_overwrites":[{"id":")" +
                       guild_id + R"(","type":0,"deny":"1024"}]})");
    staff_chat_id =
        channel(R"({"name":"staff-chat","type":0,"position":3,"parent_id":")" + staff_id + R"("})");
  }

  // Alice's, Olivia's or Mallory's access token of Game with these scopes.
  std::string user_token(const std::string& user_id, const std::string& scopes) {
    return token(user_id, app_id, scopes);
  }

  // The channel names GET /guilds/{id}/channels lists for `authorization`.
  std::vector<std::string> channel_names(const std::string& authorization, const std::string& guild = {}) {
    const auto response =
        raw("GET", "/api/v10/guilds/" + (guild.empty() ? guild_id : guild) + "/channels", {}, authorization);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    std::vector<std::string> names;
    const auto list = parse(response.body);
    for (const auto& channel : list.GetArray())
      names.push_back(str(channel["name"]));
    return names;
  }

  void set_clock(std::int64_t ms) { real_now = ms; }

  // Opens a connection and identifies with `token` ("Bearer ..." or a bot token) and `capabilities`; a bot
  // with `bot_intents` (GUILDS and GUILD_MEMBERS unless told: without GUILDS it gets no guild events).
  std::uint64_t connect(FakePeer& peer, const std::string& identify_token, std::uint64_t capabilities = 0,
                        std::uint64_t bot_intents = 3) {
    const auto id = identify(peer, identify_token, identify_token.rfind("Bearer ", 0) == 0 ? 0 : bot_intents,
                             R"(,"capabilities":)" + std::to_string(capabilities));
    REQUIRE_FALSE(peer.closed);
    REQUIRE(peer.dispatches("READY").size() == 1);
    return id;
  }
};

// The channel object with this id in a READY guild's channels.
const rapidjson::Value& ready_channel(const rapidjson::Value& guild, const std::string& channel_id) {
  for (const auto& channel : guild["channels"].GetArray()) {
    if (str(channel["id"]) == channel_id) return channel;
  }
  FAIL("no channel " << channel_id);
  throw;
}

// Checks the obfuscated shape exactly: the platform's name, flag and single overwrite; no topic.
void check_obfuscated(const rapidjson::Value& channel, const std::string& channel_id,
                      const std::string& guild_id, int position) {
  CHECK(str(channel["id"]) == channel_id);
  CHECK(str(channel["guild_id"]) == guild_id);
  CHECK(str(channel["name"]) == "___hidden___");
  CHECK(channel["type"].GetInt() == 0);
  CHECK(channel["position"].GetInt() == position);
  CHECK(channel["parent_id"].IsNull());
  CHECK(channel["flags"].GetUint64() == kChannelObfuscatedFlag);
  REQUIRE(channel["permission_overwrites"].Size() == 1);
  const auto& overwrite = channel["permission_overwrites"][0];
  CHECK(overwrite.MemberCount() == 4);
  CHECK(str(overwrite["id"]) == guild_id);
  CHECK(overwrite["type"].GetInt() == 0);
  CHECK(str(overwrite["allow"]) == "0");
  CHECK(str(overwrite["deny"]) == "1024");
  CHECK_FALSE(channel.HasMember("topic"));
  CHECK(channel.MemberCount() == 8);
}

void check_full_secret(const rapidjson::Value& channel, const std::string& guild_id) {
  CHECK(str(channel["name"]) == "secret");
  CHECK(channel["flags"].GetUint64() == 0);
  CHECK(str(channel["topic"]) == "plans");
  REQUIRE(channel["permission_overwrites"].Size() == 1);
  CHECK(str(channel["permission_overwrites"][0]["id"]) == guild_id);
  CHECK(str(channel["permission_overwrites"][0]["deny"]) == "1024");
}

}  // namespace

TEST_CASE("guilds: the cut-over constant is 2026-11-16T00:00:00Z") {
  CHECK(kChannelObfuscationDateMs == parse_rfc3339("2026-11-16T00:00:00Z"));
  CHECK(kLastSecondBefore + 1000 == kChannelObfuscationDateMs);
}

TEST_CASE_FIXTURE(Fixture, "guilds: GET /users/@me/guilds needs scope guilds (or sdk.social_layer)") {
  const auto without =
      raw("GET", "/api/v10/users/@me/guilds", {}, "Bearer " + user_token(alice, "identify openid"));
  CHECK(without.status == 403);
  CHECK(parse(without.body)["code"].GetInt() == 50001);
  const auto presence_only = raw("GET", "/api/v10/users/@me/guilds", {},
                                 "Bearer " + user_token(alice, "openid sdk.social_layer_presence"));
  CHECK(presence_only.status == 403);
  CHECK(
      raw("GET", "/api/v10/users/@me/guilds", {}, "Bearer " + user_token(alice, "identify guilds")).status ==
      200);
  CHECK(raw("GET", "/api/v10/users/@me/guilds", {}, "Bearer " + user_token(alice, "openid sdk.social_layer"))
            .status == 200);
  CHECK(raw("GET", "/api/v10/users/@me/guilds").status == 401);
}

TEST_CASE_FIXTURE(Fixture, "guilds: each listed guild has banner, owner, permissions as a string, features") {
  const auto response = raw("GET", "/api/v10/users/@me/guilds", {}, "Bearer " + user_token(alice, "guilds"));
  REQUIRE(response.status == 200);
  const auto list = parse(response.body);
  REQUIRE(list.Size() == 2);
  const auto& home = list[0];
  CHECK(str(home["id"]) == guild_id);
  CHECK(str(home["name"]) == "Home");
  CHECK(str(home["banner"]) == "b4nn3r");
  CHECK(home["icon"].IsNull());
  CHECK(home["owner"].GetBool() == false);
  CHECK(str(home["permissions"]) == "68608");  // the default @everyone: VIEW_CHANNEL, SEND, HISTORY
  CHECK(home["features"].IsArray());
  CHECK(list[1]["banner"].IsNull());  // "Away" has no banner: the member is there, null

  const auto owner =
      parse(raw("GET", "/api/v10/users/@me/guilds", {}, "Bearer " + user_token(olivia, "guilds")).body);
  CHECK(owner[0]["owner"].GetBool());
  CHECK(str(owner[0]["permissions"]) == std::to_string(permission::kAll));

  const auto outsider =
      parse(raw("GET", "/api/v10/users/@me/guilds", {}, "Bearer " + user_token(mallory, "guilds")).body);
  CHECK(outsider.Size() == 0);

  // Bot tokens need no scope and list the bot's guilds.
  const auto bot = raw("GET", "/api/v10/users/@me/guilds", {}, "Bot " + bot_token);
  REQUIRE(bot.status == 200);
  CHECK(parse(bot.body).Size() == 2);
}

TEST_CASE_FIXTURE(Fixture,
                  "guilds: the HTTP channel list shows hidden channels until 16 Nov 2026, then omits them") {
  const auto bearer = "Bearer " + user_token(alice, "guilds");
  const auto bot = "Bot " + bot_token;
  SUBCASE("15 Nov 2026 23:59:59: every channel, full metadata") {
    CHECK(channel_names(bearer) == std::vector<std::string>{"general", "secret", "staff", "staff-chat"});
    CHECK(channel_names(bot) == std::vector<std::string>{"general", "secret", "staff", "staff-chat"});
    const auto list = parse(raw("GET", "/api/v10/guilds/" + guild_id + "/channels", {}, bearer).body);
    check_full_secret(list[1], guild_id);
    CHECK(str(list[3]["parent_id"]) == staff_id);
  }
  SUBCASE("16 Nov 2026 00:00:00: channels without VIEW_CHANNEL are gone; a hidden category's channel stays") {
    set_clock(kChannelObfuscationDateMs);
    CHECK(channel_names(bearer) == std::vector<std::string>{"general", "staff-chat"});
    CHECK(channel_names(bot) == std::vector<std::string>{"general", "staff-chat"});
    // The owner sees everything; so does a member whose own overwrite allows the channel.
    CHECK(channel_names("Bearer " + user_token(olivia, "guilds")).size() == 4);
    call("PATCH", "/_emulator/guilds/" + guild_id + "/channels/" + secret_id,
         R"({"permission_overwrites":[{"id":")" + guild_id + R"(","type":0,"deny":"1024"},{"id":")" + alice +
             R"(","type":1,"allow":"1024"}]})");
    CHECK(channel_names(bearer) == std::vector<std::string>{"general", "secret", "staff-chat"});
    CHECK(channel_names(bot) == std::vector<std::string>{"general", "staff-chat"});
  }
}

TEST_CASE_FIXTURE(Fixture, "guilds: the channel list needs membership; unknown guilds are 404 10004") {
  const auto outsider =
      raw("GET", "/api/v10/guilds/" + guild_id + "/channels", {}, "Bearer " + user_token(mallory, "guilds"));
  CHECK(outsider.status == 403);
  CHECK(parse(outsider.body)["code"].GetInt() == 50001);
  const auto unknown =
      raw("GET", "/api/v10/guilds/123/channels", {}, "Bearer " + user_token(alice, "guilds"));
  CHECK(unknown.status == 404);
  CHECK(parse(unknown.body)["code"].GetInt() == 10004);
  CHECK(raw("GET", "/api/v10/guilds/" + guild_id + "/channels").status == 401);
}

TEST_CASE_FIXTURE(Fixture, "guilds: READY lists the user's guilds with channels, obfuscated per session") {
  const auto bearer = "Bearer " + user_token(alice, "openid sdk.social_layer");
  FakePeer plain, opted_in, bit14;
  connect(plain, bearer);
  connect(opted_in, bearer, kBit15);
  connect(bit14, bearer, kBit15 >> 1);

  auto ready = plain.only("READY");
  const auto& guilds = ready["d"]["guilds"];
  REQUIRE(guilds.Size() == 2);
  CHECK(str(guilds[0]["id"]) == guild_id);
  CHECK(str(guilds[0]["name"]) == "Home");
  CHECK(str(guilds[0]["banner"]) == "b4nn3r");
  CHECK(guilds[0]["channels"].Size() == 4);
  check_full_secret(ready_channel(guilds[0], secret_id), guild_id);  // before the date, without bit 15
  check_full_secret(ready_channel(bit14.only("READY")["d"]["guilds"][0], secret_id), guild_id);

  auto opted = opted_in.only("READY");
  check_obfuscated(ready_channel(opted["d"]["guilds"][0], secret_id), secret_id, guild_id, 1);
  CHECK(str(ready_channel(opted["d"]["guilds"][0], general_id)["name"]) == "general");
  CHECK(str(ready_channel(opted["d"]["guilds"][0], staff_chat_id)["name"]) == "staff-chat");
  CHECK(str(ready_channel(opted["d"]["guilds"][0], staff_id)["name"]) == "___hidden___");

  set_clock(kChannelObfuscationDateMs);
  FakePeer after;
  connect(after, bearer);
  check_obfuscated(ready_channel(after.only("READY")["d"]["guilds"][0], secret_id), secret_id, guild_id, 1);

  FakePeer owner;
  connect(owner, "Bearer " + user_token(olivia, "openid"), kBit15);
  check_full_secret(ready_channel(owner.only("READY")["d"]["guilds"][0], secret_id), guild_id);

  FakePeer outsider;
  connect(outsider, "Bearer " + user_token(mallory, "openid"));
  CHECK(outsider.only("READY")["d"]["guilds"].Size() == 0);
}

TEST_CASE_FIXTURE(
    Fixture, "guilds: CHANNEL_CREATE of a hidden channel: full before the date, obfuscated with bit 15") {
  const auto bearer = "Bearer " + user_token(alice, "openid sdk.social_layer");
  FakePeer plain, opted_in, owner, outsider;
  connect(plain, bearer);
  connect(opted_in, bearer, kBit15);
  connect(owner, "Bearer " + user_token(olivia, "openid"), kBit15);
  connect(outsider, "Bearer " + user_token(mallory, "openid"));
  const auto body =
      R"({"name":"vault","type":0,"position":7,"topic":"gold","permission_overwrites":[{"id":")" + guild_id +
      R"(","type":0,"deny":"1024"}]})";
  const auto vault_id = channel(body);

  auto full = plain.only("CHANNEL_CREATE");
  CHECK(str(full["d"]["name"]) == "vault");
  CHECK(str(full["d"]["topic"]) == "gold");
  CHECK(full["d"]["flags"].GetUint64() == 0);
  check_obfuscated(opted_in.only("CHANNEL_CREATE")["d"], vault_id, guild_id, 7);
  CHECK(str(owner.only("CHANNEL_CREATE")["d"]["name"]) == "vault");  // the owner can view it
  CHECK(outsider.dispatches("CHANNEL_CREATE").empty());              // not a member

  // A channel Alice can view is never obfuscated.
  channel(R"({"name":"lobby","type":0,"position":8})");
  CHECK(str(opted_in.nth("CHANNEL_CREATE", 1)["d"]["name"]) == "lobby");
}

TEST_CASE_FIXTURE(Fixture, "guilds: from 16 Nov 2026 every session gets hidden channels obfuscated") {
  const auto bearer = "Bearer " + user_token(alice, "openid sdk.social_layer");
  FakePeer before_date;
  connect(before_date, bearer);
  set_clock(kChannelObfuscationDateMs - 1);
  call("PATCH", "/_emulator/guilds/" + guild_id + "/channels/" + secret_id, R"({"position":5})");
  check_full_secret(before_date.only("CHANNEL_UPDATE")["d"], guild_id);

  set_clock(kChannelObfuscationDateMs);  // the same session: the date decides, not when it identified
  call("PATCH", "/_emulator/guilds/" + guild_id + "/channels/" + secret_id, R"({"position":6})");
  check_obfuscated(before_date.nth("CHANNEL_UPDATE", 1)["d"], secret_id, guild_id, 6);

  FakePeer bot, opted_in;
  connect(bot, bot_token);  // bots too
  connect(opted_in, bearer, kBit15);
  call("DELETE", "/_emulator/guilds/" + guild_id + "/channels/" + secret_id);
  check_obfuscated(bot.only("CHANNEL_DELETE")["d"], secret_id, guild_id, 6);
  check_obfuscated(opted_in.only("CHANNEL_DELETE")["d"], secret_id, guild_id, 6);
  check_obfuscated(before_date.only("CHANNEL_DELETE")["d"], secret_id, guild_id, 6);
}

TEST_CASE_FIXTURE(Fixture, "guilds: CHANNEL_UPDATE follows visibility changes") {
  const auto bearer = "Bearer " + user_token(alice, "openid sdk.social_layer");
  FakePeer opted_in;
  connect(opted_in, bearer, kBit15);
  // Hiding #general: the update is already obfuscated.
  call("PATCH", "/_emulator/guilds/" + guild_id + "/channels/" + general_id,
       R"({"permission_overwrites":[{"id":")" + guild_id + R"(","type":0,"deny":"1024"}]})");
  check_obfuscated(opted_in.only("CHANNEL_UPDATE")["d"], general_id, guild_id, 0);
  // Alice's own overwrite shows it again: full metadata, her overwrite included.
  call("PATCH", "/_emulator/guilds/" + guild_id + "/channels/" + general_id,
       R"({"permission_overwrites":[{"id":")" + guild_id + R"(","type":0,"deny":"1024"},{"id":")" + alice +
           R"(","type":1,"allow":"1024"}]})");
  const auto shown = opted_in.nth("CHANNEL_UPDATE", 1);
  CHECK(str(shown["d"]["name"]) == "general");
  CHECK(shown["d"]["permission_overwrites"].Size() == 2);
}

TEST_CASE_FIXTURE(Fixture,
                  "guilds: deleting a category frees its channels (CHANNEL_UPDATE with parent_id null)") {
  FakePeer owner;
  connect(owner, "Bearer " + user_token(olivia, "openid"));
  call("DELETE", "/_emulator/guilds/" + guild_id + "/channels/" + staff_id);
  CHECK(str(owner.only("CHANNEL_DELETE")["d"]["id"]) == staff_id);
  const auto update = owner.only("CHANNEL_UPDATE");
  CHECK(str(update["d"]["id"]) == staff_chat_id);
  CHECK(update["d"]["parent_id"].IsNull());
}

namespace {

std::string request_members(const std::string& guild, const std::string& query, int limit,
                            const std::string& nonce = {}) {
  return R"({"op":8,"d":{"guild_id":")" + guild + R"(","query":")" + query + R"(","limit":)" +
         std::to_string(limit) + (nonce.empty() ? std::string() : R"(,"nonce":")" + nonce + "\"") + "}}";
}

}  // namespace

TEST_CASE_FIXTURE(Fixture, "guilds: Request Guild Members answers one GUILD_MEMBERS_CHUNK") {
  FakePeer bot;
  const auto id = connect(bot, bot_token);
  call("POST", "/_emulator/guilds/" + guild_id + "/roles", R"({"name":"mods","permissions":"8192"})");
  const auto mods = str(
      parse(call("POST", "/_emulator/guilds/" + guild_id + "/roles", R"({"name":"mods2","permissions":8192})")
                .body)["id"]);
  member(alice, mods);

  service.gateway_received(id, request_members(guild_id, "", 0, "n1"), true);
  const auto chunk = bot.only("GUILD_MEMBERS_CHUNK");
  const auto& d = chunk["d"];
  CHECK(str(d["guild_id"]) == guild_id);
  CHECK(d["chunk_index"].GetInt() == 0);
  CHECK(d["chunk_count"].GetInt() == 1);
  CHECK(str(d["nonce"]) == "n1");
  REQUIRE(d["members"].Size() == 3);  // Olivia (the owner), Alice, the bot
  bool saw_alice = false;
  for (const auto& member : d["members"].GetArray()) {
    CHECK(member["roles"].IsArray());
    if (str(member["user"]["id"]) != alice) continue;
    saw_alice = true;
    CHECK(str(member["user"]["username"]) == "alice");
    REQUIRE(member["roles"].Size() == 1);
    CHECK(str(member["roles"][0]) == mods);
  }
  CHECK(saw_alice);

  // A query (username prefix, case-insensitive) and a limit.
  service.gateway_received(id, request_members(guild_id, "AL", 0), true);
  const auto by_query = bot.nth("GUILD_MEMBERS_CHUNK", 1);
  REQUIRE(by_query["d"]["members"].Size() == 1);
  CHECK(str(by_query["d"]["members"][0]["user"]["id"]) == alice);
  CHECK_FALSE(by_query["d"].HasMember("nonce"));
  service.gateway_received(id, request_members(guild_id, "", 2), true);
  CHECK(bot.nth("GUILD_MEMBERS_CHUNK", 2)["d"]["members"].Size() == 2);

  // A guild the user is not in: an empty chunk (never silence; nothing said of the guild).
  service.gateway_received(id, request_members("123", "", 0, "n4"), true);
  REQUIRE(bot.dispatches("GUILD_MEMBERS_CHUNK").size() == 4);
  const auto outside = bot.nth("GUILD_MEMBERS_CHUNK", 3);
  CHECK(str(outside["d"]["guild_id"]) == "123");
  CHECK(outside["d"]["members"].Size() == 0);
  CHECK(str(outside["d"]["nonce"]) == "n4");
  CHECK_FALSE(bot.closed);
  // A guild_id that is not a string: a decode error.
  service.gateway_received(id, R"({"op":8,"d":{"guild_id":5,"query":"","limit":0}})", true);
  CHECK(bot.close_code == 4002);
}

TEST_CASE_FIXTURE(Fixture, "guilds: all-members requests: 1 per guild per 30 s, then RATE_LIMITED") {
  FakePeer bot;
  const auto id = connect(bot, bot_token);
  const auto start = clock.now_ms();
  service.gateway_received(id, request_members(guild_id, "", 0, "first"), true);
  CHECK(bot.dispatches("GUILD_MEMBERS_CHUNK").size() == 1);

  set_clock(start + 29999);
  service.gateway_received(id, request_members(guild_id, "", 0, "second"), true);
  CHECK(bot.dispatches("GUILD_MEMBERS_CHUNK").size() == 1);  // no chunk
  const auto limited = bot.only("RATE_LIMITED");
  CHECK(limited["d"]["opcode"].GetInt() == 8);
  CHECK(limited["d"]["retry_after"].IsDouble());
  CHECK(limited["d"]["retry_after"].GetDouble() == doctest::Approx(0.001));
  CHECK(str(limited["d"]["meta"]["guild_id"]) == guild_id);
  CHECK(str(limited["d"]["meta"]["nonce"]) == "second");
  CHECK(limited["d"].MemberCount() == 3);

  // Without a nonce, meta has none.
  service.gateway_received(id, request_members(guild_id, "", 0), true);
  const auto again = bot.dispatches("RATE_LIMITED");
  REQUIRE(again.size() == 2);
  CHECK_FALSE(again[1]["d"]["meta"].HasMember("nonce"));

  // Other guilds are independent; a query or a limit is not limited.
  service.gateway_received(id, request_members(away_id, "", 0), true);
  service.gateway_received(id, request_members(guild_id, "a", 0), true);
  service.gateway_received(id, request_members(guild_id, "", 1), true);
  CHECK(bot.dispatches("GUILD_MEMBERS_CHUNK").size() == 4);
  CHECK(bot.dispatches("RATE_LIMITED").size() == 2);

  // Refused requests do not move the window: 30 s after the first it is allowed again.
  set_clock(start + 30000);
  service.gateway_received(id, request_members(guild_id, "", 0), true);
  CHECK(bot.dispatches("GUILD_MEMBERS_CHUNK").size() == 5);
  CHECK(bot.dispatches("RATE_LIMITED").size() == 2);
}

TEST_CASE_FIXTURE(Fixture,
                  "guilds: the entire member list needs the GUILD_MEMBERS intent; queries and ids do not") {
  FakePeer bot;
  const auto id = connect(bot, bot_token, 0, 1);  // GUILDS only
  // The platform answers nothing (a client waiting for chunks times out); nor does it count against the
  // limit.
  service.gateway_received(id, request_members(guild_id, "", 0), true);
  service.gateway_received(id, request_members(guild_id, "", 5), true);
  CHECK(bot.dispatches("GUILD_MEMBERS_CHUNK").empty());
  CHECK(bot.dispatches("RATE_LIMITED").empty());
  CHECK_FALSE(bot.closed);
  service.gateway_received(id, request_members(guild_id, "a", 0), true);
  CHECK(bot.dispatches("GUILD_MEMBERS_CHUNK").size() == 1);
  FakePeer with_intent;
  const auto second = connect(with_intent, bot_token);
  service.gateway_received(second, request_members(guild_id, "", 0), true);
  CHECK(with_intent.dispatches("GUILD_MEMBERS_CHUNK").size() == 1);
}

TEST_CASE_FIXTURE(Fixture, "guilds: the all-members limit is per user: another requester has its own") {
  FakePeer bot, user;
  const auto bot_connection = connect(bot, bot_token);
  const auto user_connection = connect(user, "Bearer " + user_token(alice, "openid sdk.social_layer"));
  service.gateway_received(bot_connection, request_members(guild_id, "", 0), true);
  service.gateway_received(user_connection, request_members(guild_id, "", 0), true);
  CHECK(bot.dispatches("GUILD_MEMBERS_CHUNK").size() == 1);
  CHECK(user.dispatches("GUILD_MEMBERS_CHUNK").size() == 1);
  service.gateway_received(user_connection, request_members(guild_id, "", 0), true);
  CHECK(user.dispatches("RATE_LIMITED").size() == 1);
}

TEST_CASE_FIXTURE(Fixture, "guilds: Request Guild Members by user_ids names the rest not_found") {
  FakePeer bot;
  const auto id = connect(bot, bot_token);
  service.gateway_received(id,
                           R"({"op":8,"d":{"guild_id":")" + guild_id + R"(","user_ids":[")" + alice +
                               R"(",")" + mallory + R"("]}})",
                           true);
  const auto chunk = bot.only("GUILD_MEMBERS_CHUNK");
  REQUIRE(chunk["d"]["members"].Size() == 1);
  CHECK(str(chunk["d"]["members"][0]["user"]["id"]) == alice);
  REQUIRE(chunk["d"]["not_found"].Size() == 1);
  CHECK(str(chunk["d"]["not_found"][0]) == mallory);
  // One id as a plain snowflake works too.
  service.gateway_received(
      id, R"({"op":8,"d":{"guild_id":")" + guild_id + R"(","user_ids":")" + olivia + R"("}})", true);
  CHECK(str(bot.nth("GUILD_MEMBERS_CHUNK", 1)["d"]["members"][0]["user"]["id"]) == olivia);
  // Neither query nor user_ids: a decode error.
  service.gateway_received(id, R"({"op":8,"d":{"guild_id":")" + guild_id + R"(","limit":0}})", true);
  CHECK(bot.close_code == 4002);
}

TEST_CASE_FIXTURE(Fixture, "guilds: Request Guild Members returns at most 100 for a query or ids") {
  for (int i = 0; i < 101; ++i) {
    member(user("crowd" + std::to_string(i)));
  }
  FakePeer bot;
  const auto id = connect(bot, bot_token);
  service.gateway_received(id, request_members(guild_id, "crowd", 0), true);
  CHECK(bot.nth("GUILD_MEMBERS_CHUNK", 0)["d"]["members"].Size() == 100);  // 101 match
  service.gateway_received(id, request_members(guild_id, "crowd", 1000), true);
  CHECK(bot.nth("GUILD_MEMBERS_CHUNK", 1)["d"]["members"].Size() == 100);
  service.gateway_received(id, request_members(guild_id, "crowd", 99), true);
  CHECK(bot.nth("GUILD_MEMBERS_CHUNK", 2)["d"]["members"].Size() == 99);
  service.gateway_received(id, request_members(guild_id, "", 0), true);  // all members: 101 + 3
  CHECK(bot.nth("GUILD_MEMBERS_CHUNK", 3)["d"]["members"].Size() == 104);
  std::string ids;
  for (int i = 0; i < 101; ++i)
    ids += std::string(ids.empty() ? "" : ",") + "\"" + std::to_string(1000 + i) + "\"";
  service.gateway_received(id, R"({"op":8,"d":{"guild_id":")" + guild_id + R"(","user_ids":[)" + ids + "]}}",
                           true);
  const auto by_ids = bot.nth("GUILD_MEMBERS_CHUNK", 4);
  CHECK(by_ids["d"]["members"].Size() + by_ids["d"]["not_found"].Size() == 100);
}

TEST_CASE_FIXTURE(Fixture, "guilds: a chunk's nonce of 32 bytes is kept, of 33 ignored") {
  FakePeer bot;
  const auto id = connect(bot, bot_token);
  const std::string nonce32(32, 'n');
  service.gateway_received(id, request_members(guild_id, "a", 1, nonce32), true);
  service.gateway_received(id, request_members(guild_id, "a", 1, nonce32 + "n"), true);
  CHECK(str(bot.nth("GUILD_MEMBERS_CHUNK", 0)["d"]["nonce"]) == nonce32);
  CHECK_FALSE(bot.nth("GUILD_MEMBERS_CHUNK", 1)["d"].HasMember("nonce"));
}

TEST_CASE_FIXTURE(Fixture, "guilds: op 31 answers SOUNDBOARD_SOUNDS for each guild asked for") {
  FakePeer user;
  const auto id = connect(user, "Bearer " + user_token(alice, "openid sdk.social_layer"));
  service.gateway_received(
      id, R"({"op":31,"d":{"guild_ids":[")" + guild_id + R"(",")" + away_id + R"(","42"]}})", true);
  const auto sounds = user.dispatches("SOUNDBOARD_SOUNDS");
  REQUIRE(sounds.size() == 3);
  CHECK(str(sounds[0]["d"]["guild_id"]) == guild_id);
  CHECK(str(sounds[1]["d"]["guild_id"]) == away_id);
  CHECK(str(sounds[2]["d"]["guild_id"]) == "42");
  for (const auto& event : sounds) {
    REQUIRE(event["d"]["soundboard_sounds"].IsArray());
    CHECK(event["d"]["soundboard_sounds"].Size() == 0);
  }
  SUBCASE("guild_ids not an array of strings: 4002") {
    service.gateway_received(id, R"({"op":31,"d":{"guild_ids":[1]}})", true);
    CHECK(user.close_code == 4002);
  }
  SUBCASE("no d: 4002") {
    service.gateway_received(id, R"({"op":31})", true);
    CHECK(user.close_code == 4002);
  }
}

TEST_CASE_FIXTURE(Fixture,
                  "guilds: op 43 answers CHANNEL_INFO with the fields asked for of the voice channels") {
  const auto voice_id = channel(R"({"name":"voice","type":2,"position":4})");
  const auto stage_id = channel(R"({"name":"stage","type":13,"position":5})");
  channel(R"({"name":"hidden-voice","type":2,"position":6,"permission_overwrites":[{"id":")" + guild_id +
          R"(","type":0,"deny":"1024"}]})");
  FakePeer user;
  const auto id = connect(user, "Bearer " + user_token(alice, "openid sdk.social_layer"));
  service.gateway_received(
      id, R"({"op":43,"d":{"guild_id":")" + guild_id + R"(","fields":["status","voice_start_time"]}})", true);
  const auto info = user.only("CHANNEL_INFO");
  CHECK(str(info["d"]["guild_id"]) == guild_id);
  const auto& channels = info["d"]["channels"];
  REQUIRE(channels.Size() == 2);  // the voice and stage channels Alice can view; no text channels
  CHECK(str(channels[0]["id"]) == voice_id);
  CHECK(str(channels[1]["id"]) == stage_id);
  CHECK(channels[0]["status"].IsNull());  // no voice session
  CHECK(channels[0]["voice_start_time"].IsNull());

  service.gateway_received(id, R"({"op":43,"d":{"guild_id":")" + guild_id + R"(","fields":["status"]}})",
                           true);
  const auto only_status = user.nth("CHANNEL_INFO", 1);
  CHECK(only_status["d"]["channels"][0].HasMember("status"));
  CHECK_FALSE(only_status["d"]["channels"][0].HasMember("voice_start_time"));
  // A guild the user is not in: an answer with no channels.
  service.gateway_received(id, R"({"op":43,"d":{"guild_id":"42","fields":["status"]}})", true);
  CHECK(user.nth("CHANNEL_INFO", 2)["d"]["channels"].Size() == 0);
  SUBCASE("fields missing: 4002") {
    service.gateway_received(id, R"({"op":43,"d":{"guild_id":")" + guild_id + R"("}})", true);
    CHECK(user.close_code == 4002);
  }
  SUBCASE("a field that is not a string: 4002") {
    service.gateway_received(id, R"({"op":43,"d":{"guild_id":")" + guild_id + R"(","fields":[1]}})", true);
    CHECK(user.close_code == 4002);
  }
}

TEST_CASE_FIXTURE(Fixture,
                  "guilds: the portal's Private Channel Obfuscation toggle obfuscates before the date") {
  const auto bearer = "Bearer " + user_token(alice, "openid sdk.social_layer");
  FakePeer before;
  connect(before, bearer);
  check_full_secret(ready_channel(before.only("READY")["d"]["guilds"][0], secret_id), guild_id);
  const auto toggled =
      call("POST", "/_emulator/apps/" + app_id + "/channel-obfuscation", R"({"enabled":true})");
  CHECK(parse(toggled.body)["enabled"].GetBool());
  FakePeer after, bot;
  connect(after, bearer);  // no capability: the application's toggle is enough
  connect(bot, bot_token);
  check_obfuscated(ready_channel(after.only("READY")["d"]["guilds"][0], secret_id), secret_id, guild_id, 1);
  // Channel events follow it too, for every session of the application (the earlier one included).
  call("PATCH", "/_emulator/guilds/" + guild_id + "/channels/" + secret_id, R"({"position":9})");
  check_obfuscated(before.only("CHANNEL_UPDATE")["d"], secret_id, guild_id, 9);
  call("POST", "/_emulator/apps/" + app_id + "/channel-obfuscation", R"({"enabled":false})");
  call("PATCH", "/_emulator/guilds/" + guild_id + "/channels/" + secret_id, R"({"position":8})");
  check_full_secret(before.nth("CHANNEL_UPDATE", 1)["d"], guild_id);
  CHECK(raw("POST", "/_emulator/apps/" + app_id + "/channel-obfuscation", "{}").status == 400);
  CHECK(raw("POST", "/_emulator/apps/1/channel-obfuscation", R"({"enabled":true})").status == 404);
}

TEST_CASE_FIXTURE(Fixture, "guilds: flags carries bits 0..30, flags_new every bit") {
  const auto bit30 = std::uint64_t{1} << 30;
  const auto bit31 = std::uint64_t{1} << 31;
  const auto bit40 = std::uint64_t{1} << 40;
  const auto intents = (std::uint64_t{1} << 12) | (std::uint64_t{1} << 14) | (std::uint64_t{1} << 18);
  const auto set = parse(call("POST", "/_emulator/apps/" + app_id + "/flags",
                              R"({"flags":")" + std::to_string(bit30 | bit31 | bit40) + R"("})")
                             .body);
  CHECK(set["flags"].GetUint64() == (intents | bit30));
  CHECK(str(set["flags_new"]) == std::to_string(intents | bit30 | bit31 | bit40));
  const auto me = parse(raw("GET", "/api/v10/applications/@me", {}, "Bot " + bot_token).body);
  CHECK(me["flags"].GetUint64() == (intents | bit30));
  CHECK(str(me["flags_new"]) == std::to_string(intents | bit30 | bit31 | bit40));
  FakePeer bot;
  connect(bot, bot_token);
  const auto ready = bot.only("READY");
  CHECK(ready["d"]["application"]["flags"].GetUint64() == (intents | bit30));
  CHECK(str(ready["d"]["application"]["flags_new"]) == std::to_string(intents | bit30 | bit31 | bit40));
  CHECK(raw("POST", "/_emulator/apps/" + app_id + "/flags", R"({"flags":"lots"})").status == 400);
  CHECK(raw("POST", "/_emulator/apps/" + app_id + "/flags", R"({"flags":""})").status == 400);
}

TEST_CASE_FIXTURE(Fixture,
                  "guilds: POST /guilds is refused for applications (restricted from 15 July 2025)") {
  const auto bot = raw("POST", "/api/v10/guilds", R"({"name":"Bot Made"})", "Bot " + bot_token);
  CHECK(bot.status == 403);
  CHECK(parse(bot.body)["code"].GetInt() == 20001);
  const auto bearer = raw("POST", "/api/v10/guilds", R"({"name":"User Made"})",
                          "Bearer " + user_token(alice, "openid guilds"));
  CHECK(bearer.status == 401);
  CHECK(raw("POST", "/api/v10/guilds", R"({"name":"Nobody"})").status == 401);
  // Nothing was made.
  CHECK(parse(raw("GET", "/api/v10/users/@me/guilds", {}, "Bot " + bot_token).body).Size() == 2);
}

TEST_CASE_FIXTURE(Fixture, "guilds: admin validation") {
  const auto unknown_owner = raw("POST", "/_emulator/guilds", R"({"name":"X1","owner_id":"1"})");
  CHECK(unknown_owner.status == 404);
  CHECK(parse(unknown_owner.body)["code"].GetInt() == 10013);
  const auto no_name = raw("POST", "/_emulator/guilds", R"({"owner_id":")" + olivia + R"("})");
  CHECK(no_name.status == 400);
  CHECK(parse(no_name.body)["errors"].HasMember("name"));
  CHECK(raw("POST", "/_emulator/guilds", R"({"name":"X","owner_id":")" + olivia + R"("})").status == 400);

  const auto channels = "/_emulator/guilds/" + guild_id + "/channels";
  const auto bad_parent = raw("POST", channels, R"({"name":"a","parent_id":")" + general_id + R"("})");
  CHECK(bad_parent.status == 400);
  CHECK(parse(bad_parent.body)["errors"].HasMember("parent_id"));
  const auto bad_role =
      raw("POST", channels, R"({"name":"a","permission_overwrites":[{"id":"42","type":0,"deny":"1024"}]})");
  CHECK(bad_role.status == 400);
  CHECK(parse(bad_role.body)["errors"]["permission_overwrites"]["0"].HasMember("id"));
  const auto bad_bits =
      raw("POST", channels,
          R"({"name":"a","permission_overwrites":[{"id":")" + guild_id + R"(","type":0,"deny":"lots"}]})");
  CHECK(bad_bits.status == 400);
  CHECK(raw("POST", channels, R"({"name":"a","type":3})").status == 400);
  CHECK(raw("POST", channels, R"({"name":""})").status == 400);
  CHECK(raw("POST", "/_emulator/guilds/1/channels", R"({"name":"a"})").status == 404);
  const auto unknown_channel = raw("PATCH", channels + "/1", R"({"name":"a"})");
  CHECK(unknown_channel.status == 404);
  CHECK(parse(unknown_channel.body)["code"].GetInt() == 10003);
  CHECK(raw("DELETE", channels + "/1").status == 404);
  // A category with channels stays a category.
  CHECK(raw("PATCH", channels + "/" + staff_id, R"({"type":0})").status == 400);

  const auto members = "/_emulator/guilds/" + guild_id + "/members";
  CHECK(raw("POST", members, R"({"user_id":"1"})").status == 404);
  CHECK(raw("POST", members, R"({"user_id":")" + mallory + R"(","roles":["42"]})").status == 400);
  CHECK(raw("POST", "/_emulator/guilds/" + guild_id + "/roles", R"({"name":"r","permissions":"x"})").status ==
        400);
}

}  // namespace guild_routes_test
