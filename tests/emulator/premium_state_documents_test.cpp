// Premium apps and the Game Stats Widget as documents (core/state_changes.hpp), without a file: every change
// a route or the clock's sweep makes to SKUs, entitlements, subscriptions, profiles and the claimed flag is
// named (a mirror kept turn by turn equals everything saved whole), and a fresh service loaded with the
// documents serves the same ids, renews subscriptions when its own clock passes their period's end, and reads
// the same profiles. The purchase-flow outcome is test set-up and does not survive a restart.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"

namespace premium_state_documents_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

constexpr std::int64_t kPeriodMs = 30LL * 24 * 60 * 60 * 1000;

struct App {
  std::string id;
  std::string bot_token;
};

// One emulator with a frozen fake clock; a second one loaded with the first one's documents is its restart.
struct Emulator : ServiceBench {
  App create_app(const std::string& name) {
    const auto app = app_json(name);
    return {str(app["id"]), str(app["bot_token"])};
  }
  HttpResponse bot(const std::string& token, std::string method, const std::string& path,
                   std::string body = {}) {
    return as("Bot " + token, std::move(method), path, std::move(body));
  }
  HttpResponse admin(const std::string& app_id, const std::string& path, const std::string& body = "{}") {
    auto response = raw("POST", "/_emulator/applications/" + app_id + path, body);
    REQUIRE_MESSAGE(response.status < 300, response.body);
    return response;
  }
  rapidjson::Document buy(const std::string& app_id, const std::string& user, const std::string& sku) {
    return parse(
        admin(app_id, "/purchases", R"({"user_id":")" + user + R"(","sku_id":")" + sku + R"("})").body);
  }
  // Moves the fake clock through the admin API (which also renews and ends subscriptions).
  void advance(std::int64_t ms) {
    call("POST", "/_emulator/clock", R"({"advance_ms":)" + std::to_string(ms) + "}");
  }
};

}  // namespace

TEST_CASE("premium: SKUs, entitlements and subscriptions are named as they change and survive a restart") {
  Emulator first;
  const auto alice = first.user("alice");
  const auto bob = first.user("bob");
  const auto carol = first.user("carol");
  const auto dave = first.user("dave");
  const auto erin = first.user("erin");
  const auto game = first.create_app("Game");
  const auto& app_id = game.id;
  const auto& bot_token = game.bot_token;
  StateMirror mirror(first.service.changes());

  const auto created = parse(first
                                 .admin(app_id, "/skus",
                                        R"({"skus":[{"name":"Sword","type":2},{"name":"Potion","type":3},)"
                                        R"({"name":"Basic Plan","type":5},{"name":"Plus Plan","type":5}]})")
                                 .body);
  const auto& skus = created["skus"];
  REQUIRE(skus.Size() == 4);
  const auto sword = str(skus[0]["id"]);
  const auto potion = str(skus[1]["id"]);
  const auto basic = str(skus[2]["id"]);
  const auto plus = str(skus[3]["id"]);
  mirror.check_complete();
  CHECK(mirror.count("sku") == 4);

  // One-time items: a durable, a consumable consumed, a test entitlement kept and one deleted.
  first.buy(app_id, alice, sword);
  mirror.check_complete();
  const auto potion_entitlement = str(first.buy(app_id, alice, potion)["entitlements"][0]["id"]);
  mirror.check_complete();
  REQUIRE(first
              .bot(bot_token, "POST",
                   "/applications/" + app_id + "/entitlements/" + potion_entitlement + "/consume")
              .status == 204);
  mirror.check_complete();
  const auto test_entitlement = [&](const std::string& owner) {
    const auto response =
        first.bot(bot_token, "POST", "/applications/" + app_id + "/entitlements",
                  R"({"sku_id":")" + sword + R"(","owner_id":")" + owner + R"(","owner_type":2})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["id"]);
  };
  test_entitlement(bob);
  mirror.check_complete();
  const auto deleted = test_entitlement(carol);
  mirror.check_complete();
  REQUIRE(first.bot(bot_token, "DELETE", "/applications/" + app_id + "/entitlements/" + deleted).status ==
          204);
  mirror.check_complete();
  CHECK(mirror.count("entitlement") == 3);

  // Subscriptions: alice's to Basic changing to Plus, bob's legacy one, carol's canceled, dave's legacy one
  // migrated and renewed now, erin's ended now.
  const auto alice_subscription = str(first.buy(app_id, alice, basic)["subscription"]["id"]);
  mirror.check_complete();
  first.admin(app_id, "/subscriptions/" + alice_subscription + "/change-plan",
              R"({"sku_id":")" + plus + R"("})");
  mirror.check_complete();
  const auto bob_subscription =
      parse(first
                .admin(app_id, "/legacy-subscriptions",
                       R"({"user_id":")" + bob + R"(","sku_id":")" + basic + R"("})")
                .body);
  const auto bob_entitlement = str(bob_subscription["entitlement_ids"][0]);
  mirror.check_complete();
  const auto carol_subscription = str(first.buy(app_id, carol, basic)["subscription"]["id"]);
  mirror.check_complete();
  first.admin(app_id, "/subscriptions/" + carol_subscription + "/cancel");
  mirror.check_complete();
  const auto dave_subscription =
      parse(first
                .admin(app_id, "/legacy-subscriptions",
                       R"({"user_id":")" + dave + R"(","sku_id":")" + basic + R"("})")
                .body);
  mirror.check_complete();
  first.admin(app_id, "/entitlements/" + str(dave_subscription["entitlement_ids"][0]) + "/migrate");
  mirror.check_complete();
  first.admin(app_id, "/subscriptions/" + str(dave_subscription["id"]) + "/renew");
  mirror.check_complete();
  const auto erin_subscription = str(first.buy(app_id, erin, basic)["subscription"]["id"]);
  mirror.check_complete();
  first.admin(app_id, "/subscriptions/" + erin_subscription + "/end");
  mirror.check_complete();
  CHECK(mirror.count("subscription") == 5);

  // A month on the clock: alice's moves onto Plus (its Basic entitlement ends, a Plus one starts), bob's
  // legacy entitlement moves its end, carol's ends.
  first.advance(kPeriodMs);
  mirror.check_complete();
  CHECK(mirror.count("entitlement") == 9);

  // The checkout scripted to cancel: set-up, not data, so there is nothing to name.
  first.admin(app_id, "/purchase-flow", R"({"outcome":"cancel"})");
  mirror.check_complete();

  const auto entitlements_path = "/applications/" + app_id + "/entitlements";
  const auto entitlements_before = first.bot(bot_token, "GET", entitlements_path).body;
  const auto alice_path = "/skus/" + plus + "/subscriptions/" + alice_subscription;
  const auto alice_before = first.bot(bot_token, "GET", alice_path).body;
  CHECK(str(parse(alice_before)["sku_ids"][0]) == plus);

  Emulator restarted;
  check_round_trip(mirror.documents(), restarted.service.changes());

  // The same entitlements and subscriptions, by the same ids, as the bot sees them.
  CHECK(restarted.bot(bot_token, "GET", entitlements_path).body == entitlements_before);
  CHECK(restarted.bot(bot_token, "GET", alice_path).body == alice_before);
  // Bought: not again; consumed: again, and the checkout completes (its scripted outcome was not kept), with
  // an id the first emulator never gave.
  CHECK(restarted
            .raw("POST", "/_emulator/applications/" + app_id + "/purchases",
                 R"({"user_id":")" + alice + R"(","sku_id":")" + sword + R"("})")
            .status == 400);
  const auto again = str(restarted.buy(app_id, alice, potion)["entitlements"][0]["id"]);
  CHECK(entitlements_before.find(again) == std::string::npos);
  CHECK(str(parse(
            restarted.call("GET", "/_emulator/applications/" + app_id + "/premium").body)["purchase_flow"]) ==
        "complete");

  // The restarted emulator's clock renews what its period's end reached, and names what it changed.
  StateMirror resumed(restarted.service.changes());
  restarted.advance(kPeriodMs);
  resumed.check_complete();
  const auto alice_after = parse(restarted.bot(bot_token, "GET", alice_path).body);
  CHECK(str(alice_after["current_period_start"]) == format_rfc3339_ms(kBenchStart + 2 * kPeriodMs));
  CHECK(alice_after["status"].GetInt() == 0);
  const auto bob_after =
      parse(restarted.bot(bot_token, "GET", entitlements_path + "/" + bob_entitlement).body);
  CHECK(str(bob_after["ends_at"]) ==
        format_rfc3339_ms(kBenchStart + 3 * kPeriodMs));  // legacy: moved each period
  const auto carol_after =
      parse(restarted.bot(bot_token, "GET", "/skus/" + basic + "/subscriptions/" + carol_subscription).body);
  CHECK(carol_after["status"].GetInt() == 1);  // ended a month ago, stays ended
}

TEST_CASE("game stats widget: profiles and the claimed flag are named as they change and survive a restart") {
  Emulator first;
  const auto alice = first.user("alice");
  const auto game = first.create_app("Game");
  const auto& app_id = game.id;
  const auto& bot_token = game.bot_token;
  const auto other = first.create_app("Other");
  const auto& other_id = other.id;
  const auto& other_token = other.bot_token;
  StateMirror mirror(first.service.changes());

  const auto claim = [&](Emulator& emulator, const std::string& app, bool claimed) {
    REQUIRE(emulator
                .raw("PUT", "/_emulator/applications/" + app + "/claimed",
                     std::string(R"({"claimed":)") + (claimed ? "true" : "false") + "}")
                .status == 204);
  };
  claim(first, app_id, true);
  mirror.check_complete();
  claim(first, other_id, true);
  mirror.check_complete();
  CHECK(mirror.count("claimed_game") == 2);
  claim(first, other_id, false);
  mirror.check_complete();
  CHECK(mirror.count("claimed_game") == 1);

  const auto path = [&](const std::string& app, const std::string& pid) {
    return "/applications/" + app + "/users/" + alice + "/identities/" + pid + "/profile";
  };
  auto created = first.bot(bot_token, "PATCH", path(app_id, "player-1"),
                           R"({"username":"ada","data":{"primary":{"rank_name":"Silver","total_wins":12,)"
                           R"("playtime_hours":69.5},"dynamic":[{"type":2,"name":"bp_level","value":42}]}})");
  REQUIRE_MESSAGE(created.status == 201, created.body);
  mirror.check_complete();
  CHECK(mirror.count("game_stats_profile") == 1);
  REQUIRE(first.bot(bot_token, "PATCH", path(app_id, "player-1"), R"({"username":"ada2"})").status == 204);
  mirror.check_complete();
  const auto profile = first.bot(bot_token, "GET", path(app_id, "player-1"));
  REQUIRE(profile.status == 200);

  Emulator restarted;
  check_round_trip(mirror.documents(), restarted.service.changes());

  // The profile reads back as it was, still bound to the identity of its first write; the game is still
  // claimed (writes go on), the other still not.
  const auto read = restarted.bot(bot_token, "GET", path(app_id, "player-1"));
  REQUIRE(read.status == 200);
  CHECK(read.body == profile.body);
  CHECK(str(parse(read.body)["username"]) == "ada2");
  CHECK(restarted.bot(bot_token, "PATCH", path(app_id, "player-1"), R"({"username":"ada3"})").status == 204);
  CHECK(restarted.bot(bot_token, "PATCH", path(app_id, "player-2"), R"({"username":"x"})").status == 400);
  CHECK(restarted.bot(other_token, "PATCH", path(other_id, "player-1"), R"({"username":"x"})").status == 403);
}

TEST_CASE("premium and game stats documents: damaged ones are refused, naming them") {
  Emulator emulator;
  auto& changes = emulator.service.changes();
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{"subscription", "12", R"({"v":1,"app_id":"1"})"}}),
                       doctest::Contains("subscription/12: missing \"user_id\""), std::invalid_argument);
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{"entitlement", "x",
                                                    R"({"v":1,"sku_id":"1","app_id":"1",)"
                                                    R"("user_id":"1","type":1})"}}),
                       doctest::Contains("entitlement/x: id x is not a snowflake"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{"sku", "1", R"({"v":2})"}}),
                       doctest::Contains("format version 2"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{"game_stats_profile", "1:2",
                                                    R"({"v":1,)"
                                                    R"("provider_issued_user_id":"p",)"
                                                    R"("data_json":"[1"})"}}),
                       doctest::Contains("\"data_json\" is not a JSON object"), std::invalid_argument);
}

}  // namespace premium_state_documents_test
