// The Game Stats Widget's routes without sockets: PATCH and GET of the Application Identity Profile with the
// application's bot token, the claimed-game flag, and every limit crossed by one server-side
// (docs/premium-protocol.md, "Game Stats Widget").
#include <doctest/doctest.h>

#include <string>

#include "service_bench.hpp"
#include "test_support.hpp"

namespace game_stats_widget_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

struct Fixture : ServiceBench {
  std::string alice, app_id, bot_token, other_bot_token;

  Fixture() {
    alice = user("alice");
    const auto app = app_json("Game");
    app_id = str(app["id"]);
    bot_token = str(app["bot_token"]);
    other_bot_token = str(app_json("Other")["bot_token"]);
    claim(true);
  }

  void claim(bool claimed) {
    call("PUT", "/_emulator/applications/" + app_id + "/claimed",
         std::string(R"({"claimed":)") + (claimed ? "true" : "false") + "}");
  }
  std::string path(const std::string& pid = "player-1") const {
    return "/api/v10/applications/" + app_id + "/users/" + alice + "/identities/" + pid + "/profile";
  }
  HttpResponse patch(const std::string& body, const std::string& pid = "player-1") {
    return raw("PATCH", path(pid), body, "Bot " + bot_token);
  }
  // A body with `data` = {"dynamic": [...]} or {"primary": {...}}.
  int status_of_data(const std::string& data) { return patch(R"({"data":)" + data + "}").status; }
};

std::string repeat(std::size_t n, char c = 'x') {
  return std::string(n, c);
}

}  // namespace

TEST_CASE("game stats widget routes: first write 201 with the profile, then 204; GET reads it back") {
  Fixture f;
  auto first = f.patch(R"({"username":"ada","data":{"primary":{"rank_name":"Silver","total_wins":12,)"
                       R"("playtime_hours":69.5},"dynamic":[{"type":2,"name":"bp_level","value":42}]}})");
  REQUIRE_MESSAGE(first.status == 201, first.body);
  CHECK(str(parse(first.body)["username"]) == "ada");
  CHECK(f.patch(R"({"username":"ada2"})").status == 204);
  auto read = f.raw("GET", f.path(), {}, "Bot " + f.bot_token);
  REQUIRE(read.status == 200);
  auto profile = parse(read.body);
  CHECK(str(profile["username"]) == "ada2");
  // Unchanged without `data`.
  CHECK(str(profile["data"]["primary"]["rank_name"]) == "Silver");
  CHECK(profile["data"]["primary"]["playtime_hours"].GetDouble() == 69.5);
  // `data` replaces everything.
  CHECK(f.patch(R"({"data":{"primary":{"season":"S2"}}})").status == 204);
  profile = parse(f.raw("GET", f.path(), {}, "Bot " + f.bot_token).body);
  CHECK_FALSE(profile["data"]["primary"].HasMember("rank_name"));
  // Another identity of the same user is refused; nothing stored under it.
  CHECK(f.patch(R"({"username":"x"})", "player-2").status == 400);
  CHECK(f.raw("GET", f.path("player-2"), {}, "Bot " + f.bot_token).status == 404);
}

TEST_CASE("game stats widget routes: unclaimed games, other tokens, unknown users are refused") {
  Fixture f;
  f.claim(false);
  CHECK(f.patch(R"({"username":"ada"})").status == 403);
  f.claim(true);
  CHECK(f.raw("PATCH", f.path(), R"({"username":"ada"})", "Bot " + f.other_bot_token).status == 403);
  CHECK(f.raw("PATCH", f.path(), R"({"username":"ada"})").status == 401);
  CHECK(f.raw("PATCH", "/api/v10/applications/" + f.app_id + "/users/123456789012345678/identities/p/profile",
              R"({"username":"ada"})", "Bot " + f.bot_token)
            .status == 404);
  CHECK(f.raw("PUT", "/_emulator/applications/1/claimed", R"({"claimed":true})").status == 404);
  CHECK(f.patch(R"({"username":"ada"})").status == 201);
}

TEST_CASE("game stats widget routes: username 1024 characters, provider id 256") {
  Fixture f;
  CHECK(f.patch(R"({"username":")" + repeat(1025) + "\"}").status == 400);
  CHECK(f.patch(R"({"username":""})").status == 400);
  CHECK(f.patch(R"({"username":")" + repeat(1024) + "\"}", repeat(256, 'p')).status == 201);
  Fixture g;
  CHECK(g.patch(R"({"username":"a"})", repeat(257, 'p')).status == 400);
  CHECK(g.patch(R"({"username":"a"})", "a%20b").status == 400);
}

TEST_CASE("game stats widget routes: primary fields: names, URLs, counts, unknown fields") {
  Fixture f;
  CHECK(f.status_of_data(R"({"primary":{"rank_name":")" + repeat(100) + "\"}}") == 201);
  CHECK(f.status_of_data(R"({"primary":{"rank_name":")" + repeat(101) + "\"}}") == 400);
  const std::string prefix = "https://cdn.example/";
  CHECK(f.status_of_data(R"({"primary":{"rank_image":{"url":")" + prefix + repeat(2048 - prefix.size()) +
                         "\"}}}") == 204);
  CHECK(f.status_of_data(R"({"primary":{"rank_image":{"url":")" + prefix + repeat(2049 - prefix.size()) +
                         "\"}}}") == 400);
  CHECK(f.status_of_data(R"({"primary":{"rank_image":{"url":"ftp://x"}}})") == 400);
  CHECK(f.status_of_data(R"({"primary":{"total_wins":9007199254740991}})") == 204);
  CHECK(f.status_of_data(R"({"primary":{"total_wins":9007199254740992}})") == 400);
  CHECK(f.status_of_data(R"({"primary":{"total_wins":-1}})") == 400);
  CHECK(f.status_of_data(R"({"primary":{"total_wins":1.5}})") == 400);
  CHECK(f.status_of_data(R"({"primary":{"playtime_hours":0.25}})") == 204);
  CHECK(f.status_of_data(R"({"primary":{"playtime_hours":-0.25}})") == 400);
  CHECK(f.status_of_data(R"({"primary":{"favourite_colour":"red"}})") == 400);
}

TEST_CASE("game stats widget routes: 30 dynamic fields, names of 64, string values of 100, numbers") {
  Fixture f;
  auto fields = [](int n) {
    std::string list = "[";
    for (int i = 0; i < n; ++i)
      list += (i ? "," : "") + std::string(R"({"type":2,"name":"f)") + std::to_string(i) + R"(","value":1})";
    return list + "]";
  };
  CHECK(f.status_of_data(R"({"dynamic":)" + fields(30) + "}") == 201);
  CHECK(f.status_of_data(R"({"dynamic":)" + fields(31) + "}") == 400);
  CHECK(f.status_of_data(R"({"dynamic":[{"type":1,"name":")" + repeat(64) + R"(","value":"v"}]})") == 204);
  CHECK(f.status_of_data(R"({"dynamic":[{"type":1,"name":")" + repeat(65) + R"(","value":"v"}]})") == 400);
  CHECK(f.status_of_data(R"({"dynamic":[{"type":1,"name":"bp-level","value":"v"}]})") == 400);
  CHECK(f.status_of_data(R"({"dynamic":[{"type":1,"name":"n","value":")" + repeat(100) + "\"}]}") == 204);
  CHECK(f.status_of_data(R"({"dynamic":[{"type":1,"name":"n","value":")" + repeat(101) + "\"}]}") == 400);
  CHECK(f.status_of_data(R"({"dynamic":[{"type":2,"name":"n","value":-9007199254740991}]})") == 204);
  CHECK(f.status_of_data(R"({"dynamic":[{"type":2,"name":"n","value":-9007199254740992}]})") == 400);
  CHECK(f.status_of_data(R"({"dynamic":[{"type":2,"name":"n","value":"12"}]})") == 400);
  CHECK(f.status_of_data(R"({"dynamic":[{"type":4,"name":"n","value":1}]})") == 400);
  CHECK(f.status_of_data(
            R"({"dynamic":[{"type":3,"name":"n","value":{"url":"https://x.example/a.png"}}]})") == 204);
  CHECK(f.status_of_data(R"({"dynamic":[{"type":3,"name":"n","value":"https://x.example/a.png"}]})") == 400);
}

TEST_CASE("game stats widget routes: data at most 10,240 bytes serialized") {
  Fixture f;
  // {"dynamic":[{"type":3,"name":"m","value":{"url":"https://x/AAAA"}}, ...]} sized exactly.
  const std::string prefix = "https://x.example/";
  auto data = [&](std::size_t lastUrl) {
    std::string list = R"({"dynamic":[)";
    for (int i = 0; i < 5; ++i) {
      const std::size_t length = i < 4 ? 2000 : lastUrl;
      list += (i ? "," : "") + std::string(R"({"type":3,"name":"m)") + std::to_string(i) +
              R"(","value":{"url":")" + prefix + repeat(length - prefix.size()) + "\"}}";
    }
    return list + "]}";
  };
  const std::size_t base = data(100).size();
  REQUIRE(base < 10240);
  const std::size_t exact = 100 + (10240 - base);
  REQUIRE(exact <= 2048);
  CHECK(data(exact).size() == 10240);
  CHECK(f.status_of_data(data(exact)) == 201);
  CHECK(f.status_of_data(data(exact + 1)) == 400);
}

}  // namespace game_stats_widget_routes_test
