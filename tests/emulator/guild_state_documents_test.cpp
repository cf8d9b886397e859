// Guilds as documents (core/state_changes.hpp, guild/guild_state.cpp), without a file: every change the
// admin routes make to a guild, its roles, members and channels is named (a mirror kept turn by turn equals
// everything saved whole), and a fresh service loaded with the documents serves the same guilds, permissions
// and channels, and goes on from there. The all-members request window is a rate window: not kept.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"

namespace guild_state_documents_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

using FakePeer = RecordingGatewayPeer;

// One emulator driven through its routes; a second one loaded with the first one's documents is the first
// one restarted.
struct Emulator : ServiceBench {
  std::string bearer(const std::string& user_id, const std::string& app_id) {
    return "Bearer " + token(user_id, app_id);
  }
  // The names of the guild's channels `authorization` may see, in the platform's order.
  std::vector<std::string> channel_names(const std::string& guild_id, const std::string& authorization) {
    const auto response = raw("GET", "/api/v10/guilds/" + guild_id + "/channels", {}, authorization);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    std::vector<std::string> names;
    const auto list = parse(response.body);
    for (const auto& channel : list.GetArray())
      names.push_back(str(channel["name"]));
    return names;
  }
  // Opens a connection and identifies (a bot with the GUILDS and GUILD_MEMBERS intents).
  std::uint64_t identify(FakePeer& peer, const std::string& identify_token) {
    const auto id =
        ServiceBench::identify(peer, identify_token, identify_token.rfind("Bearer ", 0) == 0 ? 0 : 3);
    REQUIRE_FALSE(peer.closed);
    REQUIRE(peer.dispatches("READY").size() == 1);
    return id;
  }
};

std::string all_members_request(const std::string& guild_id) {
  return R"({"op":8,"d":{"guild_id":")" + guild_id + R"(","query":"","limit":0}})";
}

}  // namespace

TEST_CASE("guilds: roles, members, channels and overwrites survive a restart") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  const auto olivia = first.user("olivia");
  const auto alice = first.user("alice");
  const auto bob = first.user("bob");
  const auto app = first.call_json("POST", "/_emulator/apps", R"({"name":"Game"})");
  const auto app_id = str(app["id"]);
  const auto bot_token = str(app["bot_token"]);
  const auto bot_id = str(app["bot_user_id"]);
  mirror.check_complete();

  const auto guild_id = str(first.call_json(
      "POST", "/_emulator/guilds",
      R"({"name":"Home","owner_id":")" + olivia +
          R"(","banner":"b4nn3r","icon":"1c0n","features":["COMMUNITY"],"everyone_permissions":"1024"})")
                                ["id"]);
  mirror.check_complete();
  CHECK(mirror.count("guild") == 1);
  CHECK(mirror.count("guild_member") == 1);  // the owner

  const auto guild = "/_emulator/guilds/" + guild_id;
  const auto mods =
      str(first.call_json("POST", guild + "/roles", R"({"name":"mods","permissions":"8192"})")["id"]);
  mirror.check_complete();
  for (const auto& user : {alice, bob, bot_id})
    first.call_json("POST", guild + "/members", R"({"user_id":")" + user + R"("})");
  mirror.check_complete();
  first.call_json("POST", guild + "/members",
                  R"({"user_id":")" + alice + R"(","roles":[")" + mods + R"("]})");
  mirror.check_complete();
  CHECK(mirror.count("guild_member") == 4);

  const auto general_id = str(first.call_json(
      "POST", guild + "/channels", R"({"name":"general","type":0,"position":0,"topic":"hello"})")["id"]);
  const auto staff_id =
      str(first.call_json("POST", guild + "/channels", R"({"name":"staff","type":4,"position":1})")["id"]);
  const auto staff_chat_id = str(first.call_json(
      "POST", guild + "/channels",
      R"({"name":"staff-chat","type":0,"position":2,"parent_id":")" + staff_id + "\"}")["id"]);
  // Only mods see #secret (a role overwrite); alice does not see #voice (a member overwrite).
  first.call_json("POST", guild + "/channels",
                  R"({"name":"secret","type":0,"position":3,"permission_overwrites":[{"id":")" + guild_id +
                      R"(","type":0,"deny":"1024"},{"id":")" + mods + R"(","type":0,"allow":"1024"}]})");
  const auto voice_id =
      str(first.call_json("POST", guild + "/channels",
                          R"({"name":"voice","type":2,"position":4,"permission_overwrites":[{"id":")" +
                              alice + R"(","type":1,"deny":"1024"}]})")["id"]);
  mirror.check_complete();
  first.call_json("PATCH", guild + "/channels/" + general_id, R"({"name":"lobby","topic":null})");
  mirror.check_complete();
  // The category goes: its channel loses its parent.
  first.call_json("DELETE", guild + "/channels/" + staff_id);
  mirror.check_complete();
  // A second guild, without alice.
  const auto away_id = str(
      first.call_json("POST", "/_emulator/guilds", R"({"name":"Away","owner_id":")" + bob + R"("})")["id"]);
  mirror.check_complete();
  CHECK(mirror.count("guild") == 2);

  // The bot's all-members request is allowed once per 30 s: a rate window, which a restart does not keep.
  FakePeer bot_before;
  const auto bot_connection = first.identify(bot_before, "Bot " + bot_token);
  first.service.gateway_received(bot_connection, all_members_request(guild_id), true);
  CHECK(bot_before.dispatches("GUILD_MEMBERS_CHUNK").size() == 1);
  mirror.check_complete();

  Emulator restarted;
  check_round_trip(mirror.documents(), restarted.service.changes());

  // The same guilds, permissions (@everyone's and the role's bits) and channels.
  const auto alice_bearer = restarted.bearer(alice, app_id);
  const auto bob_bearer = restarted.bearer(bob, app_id);
  const auto alice_guilds = parse(restarted.raw("GET", "/api/v10/users/@me/guilds", {}, alice_bearer).body);
  REQUIRE(alice_guilds.Size() == 1);
  CHECK(str(alice_guilds[0]["id"]) == guild_id);
  CHECK(str(alice_guilds[0]["name"]) == "Home");
  CHECK(str(alice_guilds[0]["banner"]) == "b4nn3r");
  CHECK(str(alice_guilds[0]["icon"]) == "1c0n");
  CHECK(str(alice_guilds[0]["features"][0]) == "COMMUNITY");
  CHECK(str(alice_guilds[0]["permissions"]) == "9216");  // 1024 | 8192
  CHECK_FALSE(alice_guilds[0]["owner"].GetBool());
  CHECK(parse(restarted.raw("GET", "/api/v10/users/@me/guilds", {}, bob_bearer).body).Size() == 2);
  CHECK(restarted.channel_names(guild_id, alice_bearer) ==
        std::vector<std::string>{"lobby", "staff-chat", "secret"});
  CHECK(restarted.channel_names(guild_id, bob_bearer) ==
        std::vector<std::string>{"lobby", "staff-chat", "voice"});
  const auto channels =
      parse(restarted.raw("GET", "/api/v10/guilds/" + guild_id + "/channels", {}, bob_bearer).body);
  REQUIRE(channels.Size() == 3);
  CHECK_FALSE(channels[0].HasMember("topic"));
  CHECK(str(channels[1]["id"]) == staff_chat_id);
  CHECK(channels[1]["parent_id"].IsNull());
  CHECK(str(channels[2]["id"]) == voice_id);
  CHECK(channels[2]["type"].GetInt() == 2);
  CHECK(str(channels[2]["permission_overwrites"][0]["id"]) == alice);
  CHECK(channels[2]["permission_overwrites"][0]["type"].GetInt() == 1);
  CHECK(str(channels[2]["permission_overwrites"][0]["deny"]) == "1024");

  // The bot's GUILD_CREATE: the roles in order and every member with their roles and join time.
  FakePeer bot;
  const auto connection = restarted.identify(bot, "Bot " + bot_token);
  const auto creates = bot.dispatches("GUILD_CREATE");
  REQUIRE(creates.size() == 1);
  const auto& created = creates[0]["d"];
  CHECK(str(created["id"]) == guild_id);
  CHECK(str(created["owner_id"]) == olivia);
  REQUIRE(created["roles"].Size() == 2);
  CHECK(str(created["roles"][0]["id"]) == guild_id);
  CHECK(str(created["roles"][0]["permissions"]) == "1024");
  CHECK(str(created["roles"][1]["name"]) == "mods");
  CHECK(str(created["roles"][1]["permissions"]) == "8192");
  REQUIRE(created["members"].Size() == 4);
  bool saw_alice = false;
  for (const auto& member : created["members"].GetArray()) {
    if (str(member["user"]["id"]) != alice) continue;
    saw_alice = true;
    REQUIRE(member["roles"].Size() == 1);
    CHECK(str(member["roles"][0]) == mods);
    CHECK(str(member["joined_at"]) == format_rfc3339_ms(kBenchStart));  // when first added
  }
  CHECK(saw_alice);
  // The window was not kept: the all-members request is allowed at once.
  restarted.service.gateway_received(connection, all_members_request(guild_id), true);
  CHECK(bot.dispatches("GUILD_MEMBERS_CHUNK").size() == 1);
  CHECK(bot.dispatches("RATE_LIMITED").empty());

  // The restarted emulator goes on naming its changes; new ids follow the old ones.
  StateMirror after(restarted.service.changes());
  const auto added =
      str(restarted.call_json("POST", guild + "/channels", R"({"name":"new","type":0,"position":5})")["id"]);
  CHECK(added != general_id);
  CHECK(added.size() >= voice_id.size());
  CHECK(added > voice_id);
  restarted.call_json("POST", "/_emulator/guilds/" + away_id + "/members",
                      R"({"user_id":")" + alice + R"("})");
  after.check_complete();
  CHECK(parse(restarted.raw("GET", "/api/v10/users/@me/guilds", {}, alice_bearer).body).Size() == 2);
}

TEST_CASE("guilds: roles made and changed through the API keep every field across a restart") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  const auto olivia = first.user("olivia");
  const auto app = first.call_json("POST", "/_emulator/apps", R"({"name":"Game"})");
  const auto bot = "Bot " + str(app["bot_token"]);
  const auto guild_id =
      str(first.call_json("POST", "/_emulator/guilds",
                          R"({"name":"Home","owner_id":")" + olivia +
                              R"(","features":["ENHANCED_ROLE_COLORS","ROLE_ICONS"]})")["id"]);
  const auto guild = "/_emulator/guilds/" + guild_id;
  const auto admin_role =
      str(first.call_json("POST", guild + "/roles", R"({"name":"mods","permissions":"268435456"})")["id"]);
  first.call_json("POST", guild + "/members",
                  R"({"user_id":")" + str(app["bot_user_id"]) + R"(","roles":[")" + admin_role + R"("]})");
  const auto created =
      first.raw("POST", "/api/v10/guilds/" + guild_id + "/roles",
                R"({"name":"Champion","colors":{"primary_color":255,"secondary_color":65280},)"
                R"("hoist":true,"mentionable":true,"unicode_emoji":"🏁"})",
                bot);
  REQUIRE_MESSAGE(created.status == 200, created.body);
  const auto champion = str(parse(created.body)["id"]);
  mirror.check_complete();

  Emulator restarted;
  check_round_trip(mirror.documents(), restarted.service.changes());
  const auto roles = parse(restarted.raw("GET", "/api/v10/guilds/" + guild_id + "/roles", {}, bot).body);
  REQUIRE(roles.Size() == 3);
  const auto& kept = roles[1];  // just above @everyone, below mods
  CHECK(str(kept["id"]) == champion);
  CHECK(kept["position"].GetInt() == 1);
  CHECK(roles[2]["position"].GetInt() == 2);
  CHECK(kept["colors"]["primary_color"].GetInt() == 255);
  CHECK(kept["colors"]["secondary_color"].GetInt() == 65280);
  CHECK(kept["hoist"].GetBool());
  CHECK(kept["mentionable"].GetBool());
  CHECK(str(kept["unicode_emoji"]) == "🏁");
}

TEST_CASE(
    "guilds: a member's nick, timeout, flags and profile survive a restart; a kicked member stays gone") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  const auto olivia = first.user("olivia");
  const auto alice = first.user("alice");
  const auto bob = first.user("bob");
  const auto app = first.call_json("POST", "/_emulator/apps", R"({"name":"Game"})");
  const auto bot = "Bot " + str(app["bot_token"]);
  const auto guild_id = str(first.call_json("POST", "/_emulator/guilds",
                                            R"({"name":"Home","owner_id":")" + olivia + R"("})")["id"]);
  const auto guild = "/_emulator/guilds/" + guild_id;
  // MANAGE_NICKNAMES, MANAGE_ROLES, MODERATE_MEMBERS, KICK_MEMBERS, CHANGE_NICKNAME.
  const auto staff = str(
      first.call_json("POST", guild + "/roles", R"({"name":"staff","permissions":"1099981389826"})")["id"]);
  first.call_json("POST", guild + "/members",
                  R"({"user_id":")" + str(app["bot_user_id"]) + R"(","roles":[")" + staff + R"("]})");
  for (const auto& user : {alice, bob})
    first.call_json("POST", guild + "/members", R"({"user_id":")" + user + R"("})");
  const auto api = "/api/v10/guilds/" + guild_id + "/members/";
  const auto until = format_rfc3339_ms(kBenchStart + 3600000);
  REQUIRE(first
              .raw("PATCH", api + alice,
                   R"({"nick":"Ali","flags":4,"communication_disabled_until":")" + until + R"("})", bot)
              .status == 200);
  REQUIRE(
      first.raw("PATCH", api + "@me", R"({"bio":"Race control","avatar":"data:image/png;base64,AAAA"})", bot)
          .status == 200);
  REQUIRE(first.raw("DELETE", api + bob, {}, bot).status == 204);
  mirror.check_complete();

  Emulator restarted;
  check_round_trip(mirror.documents(), restarted.service.changes());
  const auto kept = parse(restarted.raw("GET", api + alice, {}, bot).body);
  CHECK(str(kept["nick"]) == "Ali");
  CHECK(kept["flags"].GetInt() == 4);
  CHECK(str(kept["communication_disabled_until"]) == until);
  const auto me = parse(restarted.raw("GET", api + str(app["bot_user_id"]), {}, bot).body);
  CHECK(str(me["bio"]) == "Race control");
  CHECK(str(me["avatar"]).size() == 32);
  CHECK(restarted.raw("GET", api + bob, {}, bot).status == 404);
}

TEST_CASE("guilds: a damaged guild document is refused, naming it") {
  Emulator emulator;
  auto& changes = emulator.service.changes();
  CHECK_THROWS_WITH_AS(
      changes.load({DocumentChange{"guild", "1", R"({"v":1,"owner_id":"2","roles":[],"channels":[]})"}}),
      doctest::Contains("guild/1: missing \"name\""), std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      changes.load({DocumentChange{
          "guild", "1",
          R"({"v":1,"name":"x","owner_id":"2","roles":[{"id":"1","name":"@everyone","permissions":"-1"}],"channels":[]})"}}),
      doctest::Contains("\"permissions\" is not permission bits"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{
                           "guild", "1", R"({"v":1,"name":"x","owner_id":"2","roles":[],"channels":[]})"}}),
                       doctest::Contains("@everyone"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{"guild", "1", R"({"v":2})"}}),
                       doctest::Contains("format version 2"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      changes.load({DocumentChange{"guild_member", "9:2",
                                   R"({"v":1,"guild_id":"9","user_id":"2","joined_at_ms":0})"}}),
      doctest::Contains("guild_member/9:2: a member of unknown guild 9"), std::invalid_argument);
}

}  // namespace guild_state_documents_test
