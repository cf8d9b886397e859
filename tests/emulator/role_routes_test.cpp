// A guild's roles through the API without sockets: list, get, member counts, create, modify, reorder,
// delete; MANAGE_ROLES and the hierarchy crossed by one (a role one below and one at the bot's highest);
// granting only permissions the bot has; color and colors with ENHANCED_ROLE_COLORS and the holographic
// preset; 250 roles; GUILD_ROLE_* to the guild's sessions; kept in the state.
#include <doctest/doctest.h>

#include <string>

#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace role_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::permission;

namespace {

constexpr std::uint64_t kGuilds = 1U << 0;

// Owner Olivia; the bot with a "Moderator" role that has MANAGE_ROLES (position 2), over "Racer" (1).
struct Emulator : ServiceBench {
  std::string olivia, bot_id, bot_token, racer, moderator;
  RecordingGatewayPeer bot_peer;

  Emulator(const std::string& features = "[]") {
    olivia = user("olivia");
    const auto app = app_json("Game");
    bot_id = str(app["bot_user_id"]);
    bot_token = str(app["bot_token"]);
    guild(olivia, "Home", R"(,"features":)" + features);
    racer = role("Racer", 0);
    moderator = role("Moderator", kManageRoles);
    member(bot_id, moderator);
  }
  HttpResponse bot(std::string method, const std::string& path, std::string body = {}) {
    return as_json("Bot " + bot_token, std::move(method), "/guilds/" + guild_id + path, std::move(body));
  }
  // Stricter than ServiceBench::ok: every answer these tests read has a body.
  static rapidjson::Document ok(const HttpResponse& response) {
    REQUIRE_MESSAGE(response.status < 300, response.body);
    return parse(response.body);
  }
  void connect_bot() {
    identify(bot_peer, bot_token, kGuilds);
    REQUIRE(bot_peer.dispatches("READY").size() == 1);
  }
};

void check_error(const HttpResponse& response, int status, int code) {
  CHECK_MESSAGE(response.status == status, response.body);
  CHECK_MESSAGE(parse(response.body)["code"].GetInt() == code, response.body);
}

}  // namespace

TEST_CASE("roles: list by position, get one, the full role object, member counts without @everyone") {
  Emulator e;
  const auto roles = e.ok(e.bot("GET", "/roles"));
  REQUIRE(roles.Size() == 3);
  CHECK(str(roles[0]["id"]) == e.guild_id);  // @everyone, position 0
  CHECK(str(roles[1]["id"]) == e.racer);
  CHECK(str(roles[2]["id"]) == e.moderator);
  const auto role = e.ok(e.bot("GET", "/roles/" + e.moderator));
  CHECK(str(role["name"]) == "Moderator");
  CHECK(role["position"].GetInt() == 2);
  CHECK(str(role["permissions"]) == std::to_string(kManageRoles));
  CHECK(role["color"].GetInt() == 0);
  CHECK(role["colors"]["primary_color"].GetInt() == 0);
  CHECK(role["colors"]["secondary_color"].IsNull());
  for (const char* member : {"hoist", "managed", "mentionable"})
    CHECK(role[member].IsBool());
  CHECK(role["flags"].GetInt() == 0);
  check_error(e.bot("GET", "/roles/424242"), 404, 10011);
  const auto counts = e.ok(e.bot("GET", "/roles/member-counts"));
  CHECK(counts[e.moderator.c_str()].GetInt() == 1);
  CHECK(counts[e.racer.c_str()].GetInt() == 0);
  CHECK_FALSE(counts.HasMember(e.guild_id.c_str()));
  // Not a bot of the guild: 50001; an unknown guild: 10004.
  check_error(e.raw("GET", "/api/v10/guilds/999/roles", {}, {{"Authorization", "Bot " + e.bot_token}}), 404,
              10004);
}

TEST_CASE(
    "Create Guild Role: MANAGE_ROLES, defaults, just above @everyone, GUILD_ROLE_CREATE, only own bits") {
  Emulator e;
  e.connect_bot();
  const auto created = e.ok(e.bot("POST", "/roles", R"({"name":"Champion","color":16711680,"hoist":true})"));
  CHECK(str(created["name"]) == "Champion");
  CHECK(created["position"].GetInt() == 1);
  CHECK(created["color"].GetInt() == 16711680);
  CHECK(created["colors"]["primary_color"].GetInt() == 16711680);  // the deprecated color still works
  CHECK(created["hoist"].GetBool());
  CHECK(str(created["permissions"]) == str(e.ok(e.bot("GET", "/roles/" + e.guild_id))["permissions"]));
  const auto event = e.bot_peer.only("GUILD_ROLE_CREATE");
  CHECK(str(event["d"]["guild_id"]) == e.guild_id);
  CHECK(str(event["d"]["role"]["id"]) == str(created["id"]));
  // The others moved up one.
  CHECK(e.ok(e.bot("GET", "/roles/" + e.racer))["position"].GetInt() == 2);
  CHECK(e.ok(e.bot("GET", "/roles/" + e.moderator))["position"].GetInt() == 3);
  const auto defaults = e.ok(e.bot("POST", "/roles", ""));
  CHECK(str(defaults["name"]) == "new role");

  // A bot grants only what it has: KICK_MEMBERS it lacks.
  check_error(e.bot("POST", "/roles", R"({"permissions":")" + std::to_string(kKickMembers) + R"("})"), 403,
              50013);
  e.ok(e.bot("POST", "/roles", R"({"permissions":")" + std::to_string(kManageRoles) + R"("})"));
  // Name 100 characters, not 101; color 0xFFFFFF, not one more.
  e.ok(e.bot("POST", "/roles", R"({"name":")" + std::string(100, 'r') + R"("})"));
  check_error(e.bot("POST", "/roles", R"({"name":")" + std::string(101, 'r') + R"("})"), 400, 50035);
  e.ok(e.bot("POST", "/roles", R"({"color":16777215})"));
  check_error(e.bot("POST", "/roles", R"({"color":16777216})"), 400, 50035);
  // Gradients and icons need the guild's features.
  check_error(e.bot("POST", "/roles", R"({"colors":{"primary_color":1,"secondary_color":2}})"), 400, 50035);
  check_error(e.bot("POST", "/roles", R"({"unicode_emoji":"🏁"})"), 400, 50035);

  // Without MANAGE_ROLES: 50013.
  e.call("POST", "/_emulator/guilds/" + e.guild_id + "/members",
         R"({"user_id":")" + e.bot_id + R"(","roles":[]})");
  check_error(e.bot("POST", "/roles", R"({"name":"x"})"), 403, 50013);
}

TEST_CASE("colors with ENHANCED_ROLE_COLORS: a gradient, and the holographic preset with a tertiary color") {
  Emulator e(R"(["ENHANCED_ROLE_COLORS","ROLE_ICONS"])");
  const auto gradient =
      e.ok(e.bot("POST", "/roles", R"({"colors":{"primary_color":255,"secondary_color":65280}})"));
  CHECK(gradient["color"].GetInt() == 255);
  CHECK(gradient["colors"]["secondary_color"].GetInt() == 65280);
  CHECK(gradient["colors"]["tertiary_color"].IsNull());
  const auto holo = e.ok(
      e.bot("POST", "/roles", R"({"colors":{"primary_color":1,"secondary_color":2,"tertiary_color":3}})"));
  CHECK(holo["colors"]["primary_color"].GetInt() == 11127295);
  CHECK(holo["colors"]["secondary_color"].GetInt() == 16759788);
  CHECK(holo["colors"]["tertiary_color"].GetInt() == 16761760);
  const auto emoji =
      e.ok(e.bot("POST", "/roles", R"({"unicode_emoji":"🏁","icon":"data:image/png;base64,iVBO"})"));
  CHECK(str(emoji["unicode_emoji"]) == "🏁");
  CHECK(str(emoji["icon"]).size() == 32);
}

TEST_CASE("the hierarchy: a bot modifies and deletes roles below its highest, not at it") {
  Emulator e;
  e.connect_bot();
  const auto renamed =
      e.ok(e.bot("PATCH", "/roles/" + e.racer, R"({"name":"Pro Racer","mentionable":true})"));
  CHECK(str(renamed["name"]) == "Pro Racer");
  CHECK(renamed["mentionable"].GetBool());
  CHECK(str(e.bot_peer.only("GUILD_ROLE_UPDATE")["d"]["role"]["name"]) == "Pro Racer");
  // Its own highest role: not below it.
  check_error(e.bot("PATCH", "/roles/" + e.moderator, R"({"name":"Boss"})"), 403, 50013);
  check_error(e.bot("DELETE", "/roles/" + e.moderator), 403, 50013);
  // @everyone: its permissions change, its name does not, and it is never deleted.
  e.ok(e.bot("PATCH", "/roles/" + e.guild_id, R"({"permissions":"1024"})"));
  check_error(e.bot("PATCH", "/roles/" + e.guild_id, R"({"name":"all"})"), 400, 50035);
  check_error(e.bot("DELETE", "/roles/" + e.guild_id), 400, 50028);

  // Deleting Racer: its members lose it, GUILD_ROLE_DELETE {guild_id, role_id}, positions close up.
  e.member(e.olivia, e.racer);
  CHECK(e.bot("DELETE", "/roles/" + e.racer).status == 204);
  const auto deleted = e.bot_peer.only("GUILD_ROLE_DELETE");
  CHECK(str(deleted["d"]["role_id"]) == e.racer);
  CHECK(e.ok(e.bot("GET", "/roles/" + e.moderator))["position"].GetInt() == 1);
  const auto counts = e.ok(e.bot("GET", "/roles/member-counts"));
  CHECK_FALSE(counts.HasMember(e.racer.c_str()));
  check_error(e.bot("DELETE", "/roles/" + e.racer), 404, 10011);
}

TEST_CASE("Modify Guild Role Positions: only roles below the bot's highest, to places below it") {
  Emulator e;
  const auto a = str(e.ok(e.bot("POST", "/roles", R"({"name":"A"})"))["id"]);  // 1; Racer 2, Moderator 3
  const auto moved = e.ok(e.bot("PATCH", "/roles", R"([{"id":")" + a + R"(","position":2}])"));
  REQUIRE(moved.Size() == 4);
  CHECK(str(moved[1]["id"]) == e.racer);
  CHECK(str(moved[2]["id"]) == a);
  CHECK(str(moved[3]["id"]) == e.moderator);
  // To the bot's own place or above: refused; moving its own role: refused.
  check_error(e.bot("PATCH", "/roles", R"([{"id":")" + a + R"(","position":3}])"), 403, 50013);
  check_error(e.bot("PATCH", "/roles", R"([{"id":")" + e.moderator + R"(","position":1}])"), 403, 50013);
  check_error(e.bot("PATCH", "/roles", R"([{"id":")" + e.guild_id + R"(","position":1}])"), 400, 50035);
  check_error(e.bot("PATCH", "/roles", R"({"id":"1"})"), 400, 50035);
}

TEST_CASE("250 roles a guild, the 251st refused") {
  Emulator e;  // @everyone, Racer, Moderator: 3
  for (int i = 3; i < 250; ++i)
    e.call("POST", "/_emulator/guilds/" + e.guild_id + "/roles", R"({"name":"r"})");
  check_error(e.bot("POST", "/roles", R"({"name":"one too many"})"), 400, 30005);
}

}  // namespace role_routes_test
