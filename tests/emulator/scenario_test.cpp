// Scenario files (scenario/): the parser refuses each thing it checks with the line it is on, before anything
// runs; the player sets the world up through the service's own routes, binds answers to names, and plays the
// timeline by the fake clock (a jump runs every step it passes, in order; a failure is reported and the rest
// goes on). In process, on a frozen clock.
#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "scenario/scenario_file.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"
#include "webhook/webhook_transport.hpp"

namespace scenario_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

// The message parse_scenario throws for `text`, or "" when it parses.
std::string refusal(const std::string& text) {
  try {
    parse_scenario(text, "s.json");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return {};
}

constexpr const char* kWorld = R"({
  "scenario": 1,
  "description": "two friends in a game",
  "applications": [{"as": "game", "name": "Arena"}],
  "users": [
    {"as": "alice", "username": "alice"},
    {"as": "bob", "username": "bob", "global_name": "Bob"}
  ],
  "tokens": [{"as": "alice_token", "user": "alice", "app": "game", "scopes": "openid sdk.social_layer"}],
  "friendships": [["alice", "bob"]],
  "steps": [
    {"api": "GET /users/@me", "token": "${alice_token.access_token}", "as": "me"}
  ],
  "timeline": [
    {"at": "2h", "admin": "POST /users", "body": {"username": "late_${alice}"}, "as": "late"},
    {"at": "5s", "admin": "POST /users", "body": {"username": "carol"}, "as": "carol"},
    {"at": "5s", "admin": "POST /friendships", "body": {"user_id": "${carol}", "other_user_id": "${bob}"}},
    {"at": 6000, "admin": "POST /users", "body": {"username": "carol"}}
  ]
})";

}  // namespace

TEST_CASE("scenario file: sections become admin calls in file order; the timeline is sorted by time") {
  const auto scenario = parse_scenario(kWorld, "world.json");
  REQUIRE(scenario.setup.size() == 6);
  CHECK(scenario.setup[0].label == "POST /apps");
  CHECK(scenario.setup[0].line == 4);
  CHECK(scenario.setup[0].bind_as == "game");
  CHECK(scenario.setup[0].body == R"({"name":"Arena"})");  // "as" is the scenario's, not the route's
  CHECK(scenario.setup[3].label == "POST /tokens");
  CHECK(scenario.setup[3].body ==
        R"({"user_id":"${alice}","app_id":"${game}","scopes":"openid sdk.social_layer"})");
  CHECK(scenario.setup[4].body == R"({"user_id":"${alice}","other_user_id":"${bob}"})");
  CHECK(scenario.setup[5].api);
  CHECK(scenario.setup[5].token == "${alice_token.access_token}");
  REQUIRE(scenario.timeline.size() == 4);
  CHECK(*scenario.timeline[0].at_ms == 5000);
  CHECK(scenario.timeline[0].bind_as == "carol");  // file order among equal times
  CHECK(scenario.timeline[0].line == 16);
  CHECK(*scenario.timeline[1].at_ms == 5000);
  CHECK(*scenario.timeline[2].at_ms == 6000);
  CHECK(*scenario.timeline[3].at_ms == 7'200'000);
}

TEST_CASE(
    "scenario file: a byte order mark is skipped; a lone byte of one is not JSON, and lines stay right") {
  const auto plain = parse_scenario(kWorld, "world.json");
  const auto marked = parse_scenario(std::string("\xEF\xBB\xBF") + kWorld, "world.json");
  REQUIRE(marked.setup.size() == plain.setup.size());
  REQUIRE(marked.timeline.size() == plain.timeline.size());
  for (std::size_t i = 0; i < plain.setup.size(); ++i)
    CHECK(marked.setup[i].line == plain.setup[i].line);
  CHECK(marked.timeline[0].line == 16);
  // libFuzzer's find: RapidJSON's Document::Parse took a lone 0xEF for a mark's start and skipped it, the
  // pass that numbers lines did not, and every step got line 0.
  CHECK(refusal(std::string("\xEF") + kWorld).find("s.json:1: not JSON") == 0);
  CHECK(refusal(std::string("\xEF\xBB") + kWorld).find("s.json:1: not JSON") == 0);
  // Nested deeper than any stack: refused (the parse is iterative), not a crash; 64 levels are read.
  CHECK(refusal(std::string(1'000'000, '[') + std::string(1'000'000, ']')) ==
        "s.json:1: nested deeper than 64 levels");
  const auto nested = [](int depth) {
    return R"({"scenario": 1, "steps": [{"admin": "POST /users", "body": )" + std::string(depth - 3, '[') +
           std::string(depth - 3, ']') + "}]}";
  };
  CHECK(refusal(nested(64)).find("nested") == std::string::npos);
  CHECK(refusal(nested(65)) == "s.json:1: nested deeper than 64 levels");
}

TEST_CASE("scenario file: durations, by unit, and what is not one") {
  CHECK(parse_scenario_duration("0") == 0);
  CHECK(parse_scenario_duration("250ms") == 250);
  CHECK(parse_scenario_duration("5s") == 5000);
  CHECK(parse_scenario_duration("2m") == 120'000);
  CHECK(parse_scenario_duration("3h") == 10'800'000);
  CHECK(parse_scenario_duration("30d") == 2'592'000'000);
  CHECK(parse_scenario_duration("999999999d") == 999'999'999LL * 86'400'000);  // the most digits taken
  CHECK_FALSE(parse_scenario_duration("1000000000d"));  // one more: refused, no overflow
  CHECK_FALSE(parse_scenario_duration(""));
  CHECK_FALSE(parse_scenario_duration("s"));
  CHECK_FALSE(parse_scenario_duration("5 s"));
  CHECK_FALSE(parse_scenario_duration("-5s"));
  CHECK_FALSE(parse_scenario_duration("5w"));
  CHECK_FALSE(parse_scenario_duration("1.5s"));
}

TEST_CASE("scenario file: each refusal names the line it is about") {
  CHECK(refusal("{\"scenario\": 1,\n \"users\": [\n {\"username\": \"x\",}]}") ==
        "s.json:3: not JSON: Missing a name for object member.");
  CHECK(refusal("[1]") == "s.json:1: a scenario is a JSON object");
  CHECK(refusal("{\n\"users\": []}") == "s.json:1: \"scenario\": 1 is missing (the format's version)");
  CHECK(refusal("{\n\"scenario\": 2}") ==
        "s.json:2: written for format 2; this emulator reads format 1 (a newer emulator reads it)");
  CHECK(refusal("{\"scenario\": 0}") == "s.json:1: \"scenario\" is 1");
  CHECK(
      refusal("{\"scenario\": 1,\n\n\"lobbies\": []}").starts_with("s.json:3: unknown section \"lobbies\""));
  CHECK(refusal("{\"scenario\": 1,\n\"users\": {}}") == "s.json:2: \"users\" is an array");
  // Names: well-formed, unique, bound before they are used.
  CHECK(refusal("{\"scenario\": 1, \"users\": [\n{\"as\": \"9lives\", \"username\": \"x\"}]}")
            .starts_with("s.json:2: \"as\" is a name"));
  CHECK(refusal("{\"scenario\": 1, \"users\": [{\"as\": \"a\", \"username\": \"x\"},\n"
                "{\"as\": \"a\", \"username\": \"y\"}]}") == "s.json:2: \"a\" is already a name");
  CHECK(refusal("{\"scenario\": 1, \"users\": [{\"as\": \"alice\", \"username\": \"alice\"}],\n"
                "\"friendships\": [[\"alice\",\n\"carol\"]]}") ==
        "s.json:3: \"carol\" names no step before it");
  CHECK(refusal("{\"scenario\": 1, \"steps\": [\n{\"admin\": \"POST /users\", \"body\": {\"username\": "
                "\"${nobody}\"}}]}") == "s.json:2: \"${nobody}\" refers to no step before it");
  CHECK(refusal("{\"scenario\": 1, \"steps\": [\n{\"admin\": \"POST /users\", \"body\": {\"username\": "
                "\"${open\"}}]}")
            .starts_with("s.json:2: a reference is"));
  // A timeline step refers only to names bound by the setup or by steps due no later than it.
  CHECK(refusal("{\"scenario\": 1, \"timeline\": [\n"
                "{\"at\": \"1s\", \"admin\": \"POST /users\", \"body\": {\"username\": \"${later}\"}},\n"
                "{\"at\": \"2s\", \"admin\": \"POST /users\", \"body\": {\"username\": \"l\"}, \"as\": "
                "\"later\"}]}") == "s.json:2: \"${later}\" refers to no step before it");
  CHECK(refusal("{\"scenario\": 1, \"timeline\": [\n"
                "{\"at\": \"3s\", \"admin\": \"POST /users\", \"body\": {\"username\": \"${earlier}\"}},\n"
                "{\"at\": \"2s\", \"admin\": \"POST /users\", \"body\": {\"username\": \"e\"}, \"as\": "
                "\"earlier\"}]}")
            .empty());
  // Steps: one call, well-formed; a token with api calls only; "at" in the timeline only.
  CHECK(
      refusal("{\"scenario\": 1, \"steps\": [\n{\"body\": {}}]}").starts_with("s.json:2: a step has one of"));
  CHECK(
      refusal(
          "{\"scenario\": 1, \"steps\": [{\"admin\": \"POST /a\",\n\"api\": \"GET /b\", \"token\": \"t\"}]}")
          .starts_with("s.json:1: a step has one of"));
  CHECK(refusal("{\"scenario\": 1, \"steps\": [{\n\"admin\": \"FETCH /users\"}]}")
            .starts_with("s.json:2: the call is \"METHOD /path\""));
  CHECK(refusal("{\"scenario\": 1, \"steps\": [{\"admin\":\n\"POST users\"}]}")
            .starts_with("s.json:2: the call's path starts with '/'"));
  CHECK(refusal("{\"scenario\": 1, \"steps\": [{\"api\": \"GET /users/@me\",\n\"token\": \"\"}]}")
            .starts_with("s.json:2: \"token\" is whose call it is"));
  CHECK(
      refusal("{\"scenario\": 1, \"steps\": [{\"api\": \"POST /oauth2/token\"}]}").empty());  // none: public
  CHECK(refusal("{\"scenario\": 1, \"steps\": [{\"admin\": \"GET /health\",\n\"token\": \"t\"}]}")
            .starts_with("s.json:2: \"token\" is for \"api\" steps"));
  CHECK(refusal("{\"scenario\": 1, \"steps\": [{\"admin\": \"GET /health\",\n\"at\": \"1s\"}]}")
            .starts_with("s.json:2: unknown member \"at\" of a step"));
  CHECK(refusal("{\"scenario\": 1, \"timeline\": [\n{\"admin\": \"GET /health\"}]}")
            .starts_with("s.json:2: a timeline step has \"at\""));
  CHECK(refusal("{\"scenario\": 1, \"timeline\": [{\"admin\": \"GET /health\",\n\"at\": \"soon\"}]}")
            .starts_with("s.json:2: \"at\" is a time after the setup"));
  CHECK(refusal("{\"scenario\": 1, \"timeline\": [{\"admin\": \"GET /health\",\n\"at\": -1}]}")
            .starts_with("s.json:2: \"at\" is a time after the setup"));
  CHECK(refusal("{\"scenario\": 1, \"tokens\": [{\"user\": \"1\", \"app\": \"2\",\n\"scope\": \"openid\"}]}")
            .starts_with("s.json:2: unknown member \"scope\" of a token"));
  CHECK(refusal("{\"scenario\": 1, \"friendships\": [\n[\"1\"]]}")
            .starts_with("s.json:2: a friendship is a pair"));
}

TEST_CASE(
    "scenario player: the setup goes through the routes, answers bind, the timeline follows the clock") {
  ServiceBench bench;
  bench.service.play_scenario(parse_scenario(kWorld, "world.json"), "unused-in-process");
  const auto report = [&] {
    rapidjson::Document status;
    REQUIRE(parse_json(bench.raw("GET", "/_emulator/scenario").body, status));
    return status;
  };
  auto status = report();
  const auto& names = status["names"];
  const std::string alice = names["alice"]["id"].GetString();
  const std::string bob = names["bob"]["id"].GetString();
  // The API step ran with alice's token: its answer is alice.
  CHECK(std::string(names["me"]["id"].GetString()) == alice);
  // The friendship is the emulator's: bob is alice's friend.
  const auto relationships =
      bench.raw("GET", "/api/v10/users/@me/relationships", {},
                "Bearer " + std::string(names["alice_token"]["access_token"].GetString()));
  CHECK(relationships.status == 200);
  CHECK(relationships.body.find(bob) != std::string::npos);
  CHECK_FALSE(status["names"].HasMember("carol"));

  // Nothing is due before its time; a jump to 6 s runs the three steps it passes, in order: carol, her
  // friendship (which refers to her), then a second "carol", which the emulator refuses: reported, and
  // the timeline goes on.
  bench.clock.advance(4999);
  bench.service.gateway_tick();
  CHECK_FALSE(report()["timeline"][0]["ran"].GetBool());
  bench.clock.advance(1001);
  bench.service.gateway_tick();
  status = report();
  const auto& timeline = status["timeline"];
  CHECK(timeline[0]["ran"].GetBool());
  CHECK(timeline[0]["status"].GetInt() == 200);
  CHECK(timeline[1]["status"].GetInt() == 200);
  CHECK(timeline[2]["status"].GetInt() == 400);  // the username is taken
  CHECK(std::string(timeline[2]["error"].GetString()).starts_with("POST /users answered 400"));
  CHECK(timeline[2]["line"].GetInt() == 18);
  CHECK_FALSE(timeline[3]["ran"].GetBool());
  REQUIRE(status["names"].HasMember("carol"));
  const std::string carol = status["names"]["carol"]["id"].GetString();
  const auto bob_token = bench.raw("POST", "/_emulator/tokens",
                                   R"({"user_id":")" + bob + R"(","app_id":")" +
                                       std::string(status["names"]["game"]["id"].GetString()) +
                                       R"(","scopes":"openid sdk.social_layer"})");
  rapidjson::Document token;
  REQUIRE(parse_json(bob_token.body, token));
  const auto bobs = bench.raw("GET", "/api/v10/users/@me/relationships", {},
                              "Bearer " + std::string(token["access_token"].GetString()));
  CHECK(bobs.body.find(carol) != std::string::npos);

  // Two hours on: the last step, whose body held a reference inside a longer string.
  bench.clock.advance(7'200'000);
  bench.service.gateway_tick();
  status = report();
  CHECK(status["timeline"][3]["ran"].GetBool());
  CHECK(std::string(status["names"]["late"]["username"].GetString()) == "late_" + alice);
}

TEST_CASE("scenario player: a setup step that fails stops it with its line and the emulator's reason") {
  // The message a fresh service's setup of `text` stops with ("" when it runs).
  const auto setup_refusal = [](const std::string& text, const std::string& file) {
    ServiceBench bench;
    try {
      bench.service.play_scenario(parse_scenario(text, file), "unused-in-process");
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(setup_refusal("{\"scenario\": 1,\n"
                      "\"users\": [{\"as\": \"alice\", \"username\": \"alice\"},\n"
                      "{\"username\": \"alice\"}]}",
                      "dup.json")
            .starts_with("dup.json:3: POST /users answered 400: "));
  // A reference to a member the answer does not have: the step's line and what is missing.
  CHECK(setup_refusal(
            "{\"scenario\": 1,\n"
            "\"users\": [{\"as\": \"alice\", \"username\": \"alice\"}],\n"
            "\"steps\": [{\"admin\": \"POST /users\", \"body\": {\"username\": \"${alice.nickname}\"}}]}",
            "m.json") ==
        "m.json:3: POST /users: ${alice.nickname}: the answer of \"alice\" has no \"nickname\"");
}

TEST_CASE("scenario player: a call answered later counts as made, with status 202") {
  // The webhook URL's PING goes to a transport that holds it: the route's answer waits for it.
  struct HeldTransport final : WebhookTransport {
    void post(WebhookPost, std::function<void(WebhookPostResult)> done) override {
      held.push_back(std::move(done));
    }
    std::vector<std::function<void(WebhookPostResult)>> held;
  } transport;
  ServiceBench bench;
  bench.service.set_webhook_transport(&transport);
  bench.service.play_scenario(parse_scenario(R"({"scenario": 1,
    "applications": [{"as": "game", "name": "Hooked"}],
    "steps": [{"admin": "PUT /applications/${game}/webhook-events", "body": {"url": "https://127.0.0.1:9/hook"},
               "as": "hook"}]})",
                                             "hook.json"),
                              "unused-in-process");
  CHECK(transport.held.size() == 1);  // the PING was sent, and is still out
  rapidjson::Document status;
  REQUIRE(parse_json(bench.raw("GET", "/_emulator/scenario").body, status));
  CHECK(status["names"]["hook"]["answered_later"].GetBool());
  bench.service.set_webhook_transport(nullptr);
}

TEST_CASE("scenario: GET /_emulator/scenario without one is a 404") {
  ServiceBench bench;
  CHECK(bench.raw("GET", "/_emulator/scenario").status == 404);
}

TEST_CASE(
    "scenario: every example the emulator ships sets up and plays its whole timeline without an error") {
  std::set<std::string> played;
  for (const auto& entry : std::filesystem::directory_iterator(PLATFORMPP_SCENARIOS_DIR)) {
    if (entry.path().extension() != ".json") continue;
    const auto name = entry.path().filename().string();
    CAPTURE(name);
    std::ifstream file(entry.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    ServiceBench bench;
    REQUIRE_NOTHROW(bench.service.play_scenario(parse_scenario(text, name), "unused-in-process"));
    // Past its last step, a minute at a time (a step's own clock jump runs the rest on the next tick).
    for (int minute = 0; minute < 24 * 60 && !bench.service.scenario()->timeline_done(); ++minute) {
      bench.clock.advance(60'000);
      bench.service.gateway_tick();
    }
    CHECK(bench.service.scenario()->timeline_done());
    rapidjson::Document status;
    REQUIRE(parse_json(bench.raw("GET", "/_emulator/scenario").body, status));
    for (const auto& step : status["timeline"].GetArray()) {
      CAPTURE(step["line"].GetInt());
      // A service in a test's process has no IPC listener to restore: the real binary plays desktop.json
      // whole (testkit_scenario_test.cpp).
      if (name == "desktop.json" && std::string(step["call"].GetString()) == "POST /ipc/restore") {
        CHECK(step["status"].GetInt() == 409);
        continue;
      }
      CHECK_FALSE(step.HasMember("error"));
    }
    const auto& names = status["names"];
    if (name == "premium.json") {
      // The month's jump renewed the pass: its subscription's period now starts after the purchase's.
      const auto& after = names["after_a_month"]["subscriptions"];
      REQUIRE(after.Size() == 1);
      CHECK(std::string(after[0]["current_period_start"].GetString()) >
            std::string(names["pass"]["subscription"]["current_period_start"].GetString()));
    }
    if (name == "provisional.json") {
      // Two tickets, one Steam account: one provisional user, named by the game.
      CHECK(std::string(names["steam_user"]["global_name"].GetString()) == "Steam Player");
      CHECK(std::string(names["steam_user"]["id"].GetString()) != "");
    }
    played.insert(name);
  }
  CHECK(played == std::set<std::string>{"desktop.json", "faults.json", "friends.json", "guild.json",
                                        "lobby.json", "premium.json", "provisional.json"});
}

TEST_CASE("scenario: the README's example plays as it says") {
  std::ifstream file(std::string(PLATFORMPP_SCENARIOS_DIR) + "/../README.md", std::ios::binary);
  const std::string readme((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto section = readme.find("## Scenarios");
  REQUIRE(section != std::string::npos);
  const auto start = readme.find("```json\n", section);
  REQUIRE(start != std::string::npos);
  const auto end = readme.find("```", start + 8);
  REQUIRE(end != std::string::npos);
  ServiceBench bench;
  bench.service.play_scenario(parse_scenario(readme.substr(start + 8, end - start - 8), "README.md"),
                              "unused");
  bench.clock.advance(30'000);
  bench.service.gateway_tick();
  rapidjson::Document status;
  REQUIRE(parse_json(bench.raw("GET", "/_emulator/scenario").body, status));
  REQUIRE(status["timeline"].Size() == 2);
  for (const auto& step : status["timeline"].GetArray()) {
    CHECK(step["ran"].GetBool());
    CHECK_FALSE(step.HasMember("error"));
  }
  CHECK(std::string(status["names"]["lobby"]["metadata"]["map"].GetString()) == "harbor");
}

}  // namespace scenario_test
