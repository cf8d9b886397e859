// GET /users/@me/connections as the seed's dates leave it: the `connections` scope; Social-SDK-powered
// Riot Games connections never listed; legacy Riot Games and League of Legends connections listed until
// 2026-07-10 and the admin-named second kind's until 2026-09-22, each crossed by one millisecond; other
// services unaffected; the admin seeding rules; connections kept across a restart and gone with their user.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "identity/user_connections_module.hpp"
#include "service_bench.hpp"
#include "state_mirror.hpp"

namespace user_connections_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

constexpr std::int64_t kStart = 1780000000000;  // 2026-05-28, before both dates

struct Emulator : ServiceBench {
  BenchApp app;
  std::string alice;

  struct Empty {};
  explicit Emulator(Empty /*unused*/) : ServiceBench(kStart, Pace::live) {}
  Emulator() : ServiceBench(kStart, Pace::live) {
    app = ServiceBench::app("Game");
    alice = user("alice");
  }
  // A token of Alice's issued now (the clock jumps months: an older one would have expired).
  std::string bearer() { return "Bearer " + token(alice, app.id, "identify connections"); }
  void connect(const std::string& type, const std::string& id, bool social_sdk = false) {
    call("POST", "/_emulator/users/" + alice + "/connections",
         R"({"type":")" + type + R"(","id":")" + id + R"(","name":")" + type +
             R"(-name","social_sdk_powered":)" + (social_sdk ? "true" : "false") + "}");
  }
  // "type:id" of each connection Alice's token lists, in the answer's order.
  std::vector<std::string> listed() {
    const auto response = raw("GET", "/api/v10/users/@me/connections", {}, bearer());
    REQUIRE_MESSAGE(response.status == 200, response.body);
    const auto list = parse(response.body);
    std::vector<std::string> found;
    for (const auto& connection : list.GetArray())
      found.push_back(str(connection["type"]) + ":" + str(connection["id"]));
    std::sort(found.begin(), found.end());
    return found;
  }
};

using Names = std::vector<std::string>;

}  // namespace

TEST_CASE("connections: the connections scope; a bot token lists none") {
  Emulator emulator;
  emulator.connect("xbox", "x1");
  CHECK(emulator.listed() == Names{"xbox:x1"});

  const auto without =
      emulator.raw("GET", "/api/v10/users/@me/connections", {},
                   "Bearer " + emulator.token(emulator.alice, emulator.app.id, "identify guilds"));
  CHECK(without.status == 403);
  CHECK(parse(without.body)["code"].GetInt() == 50001);
  CHECK(emulator.raw("GET", "/api/v10/users/@me/connections").status == 401);

  const auto bot = emulator.raw("GET", "/api/v10/users/@me/connections", {}, "Bot " + emulator.app.bot_token);
  REQUIRE(bot.status == 200);
  CHECK(parse(bot.body).GetArray().Empty());
}

TEST_CASE("connections: the fields the platform answers") {
  Emulator emulator;
  emulator.call(
      "POST", "/_emulator/users/" + emulator.alice + "/connections",
      R"({"type":"steam","id":"765","name":"Ali","verified":false,"revoked":true,"friend_sync":true,)"
      R"("show_activity":false,"two_way_link":true,"visibility":0})");
  const auto response = emulator.raw("GET", "/api/v10/users/@me/connections", {}, emulator.bearer());
  const auto list = parse(response.body);
  REQUIRE(list.GetArray().Size() == 1);
  const auto& connection = list[0];
  CHECK(str(connection["name"]) == "Ali");
  CHECK_FALSE(connection["verified"].GetBool());
  CHECK(connection["revoked"].GetBool());
  CHECK(connection["friend_sync"].GetBool());
  CHECK_FALSE(connection["show_activity"].GetBool());
  CHECK(connection["two_way_link"].GetBool());
  CHECK(connection["visibility"].GetInt() == 0);
  // What only the admin sees stays out of the API's answer.
  CHECK_FALSE(connection.HasMember("social_sdk_powered"));
  CHECK_FALSE(connection.HasMember("user_id"));
}

TEST_CASE("connections: Riot Games and League of Legends until 2026-07-10, Social SDK ones never") {
  Emulator emulator;
  emulator.connect("riotgames", "legacy-riot");
  emulator.connect("leagueoflegends", "legacy-lol");
  emulator.connect("riotgames", "sdk-riot", true);
  emulator.connect("xbox", "x1");
  CHECK(emulator.listed() == Names{"leagueoflegends:legacy-lol", "riotgames:legacy-riot", "xbox:x1"});

  emulator.real_now = kRiotConnectionsRetiredMs - 1;
  CHECK(emulator.listed() == Names{"leagueoflegends:legacy-lol", "riotgames:legacy-riot", "xbox:x1"});
  emulator.real_now = kRiotConnectionsRetiredMs;
  CHECK(emulator.listed() == Names{"xbox:x1"});
}

TEST_CASE("connections: the kind the admin names stops being listed on 2026-09-22") {
  Emulator emulator;
  emulator.connect("playstation", "legacy-ps");
  emulator.connect("epicgames", "e1");
  // Not named yet: a Social SDK playstation connection is refused, a legacy one listed past the date.
  CHECK(emulator
            .raw("POST", "/_emulator/users/" + emulator.alice + "/connections",
                 R"({"type":"playstation","id":"sdk-ps","name":"p","social_sdk_powered":true})")
            .status == 400);
  Emulator unnamed;
  unnamed.connect("playstation", "legacy-ps");
  unnamed.real_now = kSecondSocialSdkKindRetiredMs;
  CHECK(unnamed.listed() == Names{"playstation:legacy-ps"});

  // (The fake clock never goes back: the rest runs on `emulator`, still at the start.)
  const auto named = emulator.call("PUT", "/_emulator/connection-types/playstation/social-sdk");
  const auto kinds = parse(named.body);
  REQUIRE(kinds.GetArray().Size() == 3);
  CHECK(str(kinds[2]["type"]) == "playstation");
  CHECK(str(kinds[2]["existing_unlisted_from"]) == "2026-09-22T00:00:00Z");
  emulator.connect("playstation", "sdk-ps", true);
  CHECK(emulator.listed() == Names{"epicgames:e1", "playstation:legacy-ps"});

  emulator.real_now = kSecondSocialSdkKindRetiredMs - 1;
  CHECK(emulator.listed() == Names{"epicgames:e1", "playstation:legacy-ps"});
  emulator.real_now = kSecondSocialSdkKindRetiredMs;
  CHECK(emulator.listed() == Names{"epicgames:e1"});

  // Riot Games is the July kind and cannot be named; an unknown service neither.
  CHECK(emulator.raw("PUT", "/_emulator/connection-types/riotgames/social-sdk").status == 400);
  CHECK(emulator.raw("PUT", "/_emulator/connection-types/myspace/social-sdk").status == 400);
}

TEST_CASE("connections: admin seeding rules") {
  Emulator emulator;
  const auto add = [&](const std::string& user, const std::string& body) {
    return emulator.raw("POST", "/_emulator/users/" + user + "/connections", body).status;
  };
  CHECK(add(emulator.alice, R"({"type":"myspace","id":"1","name":"n"})") == 400);
  CHECK(add(emulator.alice, R"({"type":"skype","id":"1","name":"n"})") == 400);  // no longer added
  CHECK(add(emulator.alice, R"({"type":"xbox","id":"","name":"n"})") == 400);
  CHECK(add(emulator.alice, R"({"type":"xbox","name":"n"})") == 400);
  CHECK(add(emulator.alice, R"({"type":"xbox","id":"1","name":"n","visibility":2})") == 400);
  CHECK(add(emulator.alice, R"({"type":"xbox","id":"1","name":"n","social_sdk_powered":true})") == 400);
  CHECK(add(emulator.app.bot_id, R"({"type":"xbox","id":"1","name":"n"})") == 400);
  CHECK(add("1", R"({"type":"xbox","id":"1","name":"n"})") == 404);
  CHECK(add(emulator.alice, R"({"type":"xbox","id":"1","name":"n","visibility":1})") == 201);
  // The same account again replaces it.
  CHECK(add(emulator.alice, R"({"type":"xbox","id":"1","name":"renamed"})") == 201);
  CHECK(emulator.listed() == Names{"xbox:1"});
  CHECK(emulator.raw("DELETE", "/_emulator/users/" + emulator.alice + "/connections/xbox/1").status == 204);
  CHECK(emulator.raw("DELETE", "/_emulator/users/" + emulator.alice + "/connections/xbox/1").status == 404);
  CHECK(emulator.listed().empty());
}

TEST_CASE("connections: kept across a restart, with the named kind") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  first.connect("riotgames", "legacy-riot");
  first.connect("xbox", "a:b");  // an account id with a colon survives the document id
  first.call("PUT", "/_emulator/connection-types/xbox/social-sdk");
  mirror.check_complete();
  CHECK(mirror.count("user_connection") == 2);
  CHECK(mirror.count("connection_kind") == 1);

  Emulator restarted{Emulator::Empty{}};
  check_round_trip(mirror.documents(), restarted.service.changes());
  restarted.app = first.app;
  restarted.alice = first.alice;
  CHECK(restarted.listed() == Names{"riotgames:legacy-riot", "xbox:a:b"});
  restarted.real_now = kSecondSocialSdkKindRetiredMs;
  CHECK(restarted.listed().empty());
}

}  // namespace user_connections_test
