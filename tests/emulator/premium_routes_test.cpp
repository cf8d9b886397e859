// Premium apps without sockets (docs/premium-protocol.md, "The contract the SDK and the emulator share"):
// SKUs, every transition of the state table with the Gateway events it must and must not emit (and the
// entitlement listener the webhook events sender uses), one-time items (durable, consumable, consume), test
// entitlements, the filters and pagination of entitlements and subscriptions, who may call what,
// START_PURCHASE over IPC, and months passing on the fake clock.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ipc/ipc_codec.hpp"
#include "ipc/ipc_peer.hpp"
#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace premium_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

using FakePeer = RecordingGatewayPeer;

constexpr std::int64_t kDayMs = 24LL * 60 * 60 * 1000;
constexpr std::int64_t kPeriodMs = 30 * kDayMs;

// Users alice (the desktop client's user: the first one), bob and carol; application "Game" with SKUs Sword
// (durable), Potion (consumable), Basic and Plus (subscriptions); application "Other" with one durable SKU.
// alice, bob and Game's bot are on the Gateway, alice also with a token of Other.
struct Fixture : ServiceBench {
  std::string alice, bob, carol;
  std::string app_id, bot_token, other_app_id, other_bot_token;
  std::string sword, potion, basic, plus, other_sku;
  FakePeer alice_peer, bob_peer, bot_peer, alice_other_peer;
  // What the entitlement listener heard: (application id, entitlement JSON).
  std::vector<std::pair<std::string, std::string>> created;

  Fixture() {
    alice = user("alice");
    bob = user("bob");
    carol = user("carol");
    const auto app = app_json("Game");
    app_id = str(app["id"]);
    bot_token = str(app["bot_token"]);
    const auto other = app_json("Other");
    other_app_id = str(other["id"]);
    other_bot_token = str(other["bot_token"]);
    const auto answer = parse(call("POST", "/_emulator/applications/" + app_id + "/skus",
                                   R"({"skus":[{"name":"Sword","type":2},{"name":"Potion","type":3},)"
                                   R"({"name":"Basic Plan","type":5},{"name":"Plus Plan","type":5}]})")
                                  .body);
    const auto& skus = answer["skus"];
    REQUIRE(skus.Size() == 4);
    sword = str(skus[0]["id"]);
    potion = str(skus[1]["id"]);
    basic = str(skus[2]["id"]);
    plus = str(skus[3]["id"]);
    other_sku = str(
        parse(call("POST", "/_emulator/applications/" + other_app_id + "/skus", R"({"name":"Hat","type":2})")
                  .body)["skus"][0]["id"]);
    service.set_entitlement_created_listener([this](const std::string& application, const std::string& json) {
      created.emplace_back(application, json);
    });
    identify(alice_peer, "Bearer " + token(alice, app_id));
    identify(bob_peer, "Bearer " + token(bob, app_id));
    identify(bot_peer, "Bot " + bot_token);
    identify(alice_other_peer, "Bearer " + token(alice, other_app_id));
  }

  void identify(FakePeer& peer, const std::string& identify_token) {
    ServiceBench::identify(peer, identify_token, 0);
    REQUIRE_FALSE(peer.closed);
    REQUIRE(peer.dispatches("READY").size() == 1);
  }

  HttpResponse backend(std::string method, const std::string& path, std::string body = {}) {
    return as("Bot " + bot_token, std::move(method), path, std::move(body));
  }
  // As the user, with a fresh token of Game (tokens live 7 days; months pass in these tests).
  HttpResponse as_user(const std::string& user, std::string method, const std::string& path) {
    return as("Bearer " + token(user, app_id), std::move(method), path);
  }
  HttpResponse admin(const std::string& path, const std::string& body = "{}") {
    return raw("POST", "/_emulator/applications/" + app_id + path, body);
  }

  // The admin purchase (the checkout's code path): {entitlements, subscription}.
  rapidjson::Document buy(const std::string& user, const std::string& sku) {
    const auto response = admin("/purchases", R"({"user_id":")" + user + R"(","sku_id":")" + sku + R"("})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return parse(response.body);
  }
  rapidjson::Document subscribe(const std::string& user, const std::string& sku) {
    auto bought = buy(user, sku);
    REQUIRE(bought["subscription"].IsObject());
    return bought;
  }
  rapidjson::Document subscription_action(const std::string& id, const std::string& action,
                                          const std::string& body = "{}") {
    const auto response = admin("/subscriptions/" + id + "/" + action, body);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return parse(response.body);
  }
  rapidjson::Document get_entitlement(const std::string& id) {
    const auto response = backend("GET", "/applications/" + app_id + "/entitlements/" + id);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return parse(response.body);
  }
  rapidjson::Document get_subscription(const std::string& sku, const std::string& id) {
    const auto response = backend("GET", "/skus/" + sku + "/subscriptions/" + id);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return parse(response.body);
  }
  // Moves the fake clock through the admin API (which also renews and ends subscriptions).
  void advance(std::int64_t ms) {
    call("POST", "/_emulator/clock", R"({"advance_ms":)" + std::to_string(ms) + "}");
  }

  // The premium events (ENTITLEMENT_* and SUBSCRIPTION_*) a peer got since `from` (an index in its sent
  // list), as their names in order.
  static std::vector<std::string> premium_events(const FakePeer& peer, std::size_t from) {
    std::vector<std::string> names;
    for (std::size_t i = from; i < peer.sent.size(); ++i) {
      const auto payload = parse(peer.sent[i]);
      if (payload["op"].GetInt() != 0) continue;
      const auto name = str(payload["t"]);
      if (name.rfind("ENTITLEMENT_", 0) == 0 || name.rfind("SUBSCRIPTION_", 0) == 0) names.push_back(name);
    }
    return names;
  }
  // The `d` of the index-th premium event of `type` since `from`.
  static rapidjson::Document event_data(const FakePeer& peer, std::size_t from, const std::string& type,
                                        std::size_t index = 0) {
    std::size_t seen = 0;
    for (std::size_t i = from; i < peer.sent.size(); ++i) {
      auto payload = parse(peer.sent[i]);
      if (payload["op"].GetInt() != 0 || str(payload["t"]) != type) continue;
      if (seen++ != index) continue;
      rapidjson::Document d;
      d.CopyFrom(payload["d"], d.GetAllocator());
      return d;
    }
    FAIL("no " << type << " number " << index);
    return rapidjson::Document{};
  }
  // Where each peer's record stands now.
  struct Marks {
    std::size_t alice, bob, bot, alice_other, created;
  };
  Marks mark() const {
    return {alice_peer.sent.size(), bob_peer.sent.size(), bot_peer.sent.size(), alice_other_peer.sent.size(),
            created.size()};
  }
  // alice and Game's bot got exactly `expected` (in that order); bob and alice's session of Other nothing.
  void expect_events(const Marks& from, const std::vector<std::string>& expected) const {
    CHECK(premium_events(alice_peer, from.alice) == expected);
    CHECK(premium_events(bot_peer, from.bot) == expected);
    CHECK(premium_events(bob_peer, from.bob).empty());
    CHECK(premium_events(alice_other_peer, from.alice_other).empty());
  }
};

int code_of(const HttpResponse& response) {
  return parse(response.body)["code"].GetInt();
}

std::string error_code_at(const HttpResponse& response, const char* field) {
  const auto body = parse(response.body);
  REQUIRE_MESSAGE(body.HasMember("errors"), response.body);
  REQUIRE_MESSAGE(body["errors"].HasMember(field), response.body);
  return str(body["errors"][field]["_errors"][0]["code"]);
}

// An array of id strings.
std::vector<std::string> ids_of_strings(const rapidjson::Value& list) {
  std::vector<std::string> ids;
  for (const auto& item : list.GetArray())
    ids.push_back(str(item));
  return ids;
}

// The ids of an array of objects.
std::vector<std::string> ids_of(const rapidjson::Value& list) {
  std::vector<std::string> ids;
  for (const auto& item : list.GetArray())
    ids.push_back(str(item["id"]));
  return ids;
}

}  // namespace

// ---- SKUs
// ------------------------------------------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "premium: SKUs of the application, to its bot and its players' tokens only") {
  const auto listed = backend("GET", "/applications/" + app_id + "/skus");
  REQUIRE(listed.status == 200);
  const auto skus = parse(listed.body);
  CHECK(ids_of(skus) == std::vector<std::string>{sword, potion, basic, plus});
  CHECK(skus[0]["type"].GetInt() == 2);
  CHECK(skus[1]["type"].GetInt() == 3);
  CHECK(skus[2]["type"].GetInt() == 5);
  CHECK(str(skus[2]["slug"]) == "basic-plan");
  CHECK(str(skus[0]["application_id"]) == app_id);
  CHECK(skus[0]["flags"].GetUint() == (1U << 2));                // AVAILABLE
  CHECK(skus[3]["flags"].GetUint() == ((1U << 2) | (1U << 8)));  // AVAILABLE | USER_SUBSCRIPTION
  CHECK(skus[0]["dependent_sku_id"].IsNull());
  CHECK(skus[0]["access_type"].GetInt() == 1);

  CHECK(as_user(bob, "GET", "/applications/" + app_id + "/skus").status == 200);
  CHECK(raw("GET", "/api/v10/applications/" + app_id + "/skus").status == 401);
  const auto other = raw("GET", "/api/v10/applications/" + app_id + "/skus", {}, "Bot " + other_bot_token);
  CHECK(other.status == 403);
  CHECK(code_of(other) == 50001);
  const auto unknown = backend("GET", "/applications/1/skus");
  CHECK(unknown.status == 404);
  CHECK(code_of(unknown) == 10002);

  const auto bad = admin("/skus", R"({"name":"Group","type":6})");
  CHECK(bad.status == 400);
  CHECK(error_code_at(bad, "type") == "BASE_TYPE_CHOICES");
  const auto nameless = admin("/skus", R"({"skus":[{"type":2}]})");
  CHECK(nameless.status == 400);
  CHECK(code_of(nameless) == 50035);
}

// ---- the state table
// -------------------------------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "premium: a subscription purchase creates the subscription and its entitlement") {
  const auto from = mark();
  const auto bought = subscribe(alice, basic);
  expect_events(from, {"SUBSCRIPTION_CREATE", "ENTITLEMENT_CREATE"});

  const auto& subscription = bought["subscription"];
  CHECK(subscription["status"].GetInt() == 0);  // ACTIVE
  CHECK(str(subscription["user_id"]) == alice);
  CHECK(ids_of_strings(subscription["sku_ids"]) == std::vector<std::string>{basic});
  CHECK(ids_of_strings(subscription["renewal_sku_ids"]) == std::vector<std::string>{basic});
  CHECK(subscription["canceled_at"].IsNull());
  CHECK(str(subscription["current_period_start"]) == format_rfc3339_ms(kBenchStart));
  CHECK(str(subscription["current_period_end"]) == format_rfc3339_ms(kBenchStart + kPeriodMs));

  REQUIRE(bought["entitlements"].Size() == 1);
  const auto& entitlement = bought["entitlements"][0];
  CHECK(entitlement["type"].GetInt() == 1);  // PURCHASE, as subscriptions are since the migration
  CHECK(entitlement["ends_at"].IsNull());
  CHECK_FALSE(entitlement["deleted"].GetBool());
  CHECK(str(entitlement["sku_id"]) == basic);
  CHECK(ids_of_strings(subscription["entitlement_ids"]) == std::vector<std::string>{str(entitlement["id"])});

  const auto created_event = event_data(alice_peer, from.alice, "ENTITLEMENT_CREATE");
  CHECK(str(created_event["id"]) == str(entitlement["id"]));
  CHECK(created_event["ends_at"].IsNull());
  // The webhook events sender hears of it once, with the application.
  REQUIRE(created.size() == from.created + 1);
  CHECK(created.back().first == app_id);
  CHECK(str(parse(created.back().second)["id"]) == str(entitlement["id"]));

  // One subscription to the application at a time: neither plan can be bought again while it runs.
  for (const auto& sku : {basic, plus}) {
    const auto again = admin("/purchases", R"({"user_id":")" + alice + R"(","sku_id":")" + sku + R"("})");
    CHECK(again.status == 400);
    CHECK(code_of(again) == 5008);
  }
}

TEST_CASE_FIXTURE(Fixture, "premium: renewal moves the period and emits no entitlement event") {
  const auto bought = subscribe(alice, basic);
  const auto subscription_id = str(bought["subscription"]["id"]);
  const auto entitlement_id = str(bought["entitlements"][0]["id"]);
  const auto before = get_entitlement(entitlement_id);

  const auto from = mark();
  advance(kPeriodMs);  // a month on the fake clock
  expect_events(from, {"SUBSCRIPTION_UPDATE"});
  CHECK(created.size() == from.created);  // no ENTITLEMENT_CREATE to the webhook either
  const auto update = event_data(alice_peer, from.alice, "SUBSCRIPTION_UPDATE");
  CHECK(str(update["current_period_start"]) == format_rfc3339_ms(kBenchStart + kPeriodMs));
  CHECK(str(update["current_period_end"]) == format_rfc3339_ms(kBenchStart + 2 * kPeriodMs));
  CHECK(ids_of_strings(update["renewal_sku_ids"]) == std::vector<std::string>{basic});
  CHECK(update["status"].GetInt() == 0);

  const auto after = get_entitlement(entitlement_id);
  CHECK(json_text(after) == json_text(before));
  CHECK(get_subscription(basic, subscription_id)["status"].GetInt() == 0);

  // A day short of the next period's end: nothing.
  const auto quiet = mark();
  advance(kPeriodMs - kDayMs);
  expect_events(quiet, {});
  // Renew now (admin): the same renewal, now.
  const auto renewed = subscription_action(subscription_id, "renew");
  CHECK(str(renewed["current_period_start"]) == format_rfc3339_ms(kBenchStart + 2 * kPeriodMs - kDayMs));
  expect_events(quiet, {"SUBSCRIPTION_UPDATE"});
}

TEST_CASE_FIXTURE(Fixture, "premium: a month passing on the fake clock renews on the Gateway's tick") {
  const auto bought = subscribe(alice, basic);
  const auto from = mark();
  // Months later, without any request: the Gateway's tick renews period by period.
  REQUIRE(service.clock().advance(3 * kPeriodMs));
  service.gateway_tick();
  expect_events(from, {"SUBSCRIPTION_UPDATE", "SUBSCRIPTION_UPDATE", "SUBSCRIPTION_UPDATE"});
  const auto subscription = get_subscription(basic, str(bought["subscription"]["id"]));
  CHECK(str(subscription["current_period_start"]) == format_rfc3339_ms(kBenchStart + 3 * kPeriodMs));
  service.gateway_tick();
  expect_events(from, {"SUBSCRIPTION_UPDATE", "SUBSCRIPTION_UPDATE", "SUBSCRIPTION_UPDATE"});
}

TEST_CASE_FIXTURE(Fixture, "premium: a plan change takes effect at the renewal") {
  const auto bought = subscribe(alice, basic);
  const auto subscription_id = str(bought["subscription"]["id"]);
  const auto old_id = str(bought["entitlements"][0]["id"]);

  auto from = mark();
  const auto changed = subscription_action(subscription_id, "change-plan", R"({"sku_id":")" + plus + R"("})");
  expect_events(from, {"SUBSCRIPTION_UPDATE"});  // the entitlement stays as it is until the renewal
  CHECK(ids_of_strings(changed["renewal_sku_ids"]) == std::vector<std::string>{plus});
  CHECK(ids_of_strings(changed["sku_ids"]) == std::vector<std::string>{basic});
  CHECK(get_entitlement(old_id)["ends_at"].IsNull());

  from = mark();
  advance(kPeriodMs);
  expect_events(from, {"ENTITLEMENT_UPDATE", "ENTITLEMENT_CREATE", "SUBSCRIPTION_UPDATE"});
  const auto renewal_time = format_rfc3339_ms(kBenchStart + kPeriodMs);
  const auto ended = event_data(alice_peer, from.alice, "ENTITLEMENT_UPDATE");
  CHECK(str(ended["id"]) == old_id);
  CHECK(str(ended["ends_at"]) == renewal_time);
  const auto created_event = event_data(alice_peer, from.alice, "ENTITLEMENT_CREATE");
  const auto new_id = str(created_event["id"]);
  CHECK(new_id != old_id);
  CHECK(str(created_event["sku_id"]) == plus);
  CHECK(created_event["ends_at"].IsNull());
  CHECK(str(created_event["starts_at"]) == renewal_time);
  REQUIRE(created.size() == from.created + 1);
  CHECK(str(parse(created.back().second)["id"]) == new_id);
  const auto update = event_data(alice_peer, from.alice, "SUBSCRIPTION_UPDATE");
  CHECK(ids_of_strings(update["sku_ids"]) == std::vector<std::string>{plus});
  CHECK(ids_of_strings(update["entitlement_ids"]) == std::vector<std::string>{new_id});

  // The subscription now holds the new SKU: listed under it, no longer under the old one.
  CHECK(ids_of(parse(backend("GET", "/skus/" + plus + "/subscriptions").body)) ==
        std::vector<std::string>{subscription_id});
  CHECK(parse(backend("GET", "/skus/" + basic + "/subscriptions").body).Empty());

  // Downgrade: back to Basic at the next renewal.
  from = mark();
  subscription_action(subscription_id, "change-plan", R"({"sku_id":")" + basic + R"("})");
  advance(kPeriodMs);
  expect_events(from,
                {"SUBSCRIPTION_UPDATE", "ENTITLEMENT_UPDATE", "ENTITLEMENT_CREATE", "SUBSCRIPTION_UPDATE"});

  // Not onto a one-time SKU or another application's.
  CHECK(admin("/subscriptions/" + subscription_id + "/change-plan", R"({"sku_id":")" + sword + R"("})")
            .status == 404);
  CHECK(admin("/subscriptions/" + subscription_id + "/change-plan", R"({"sku_id":")" + other_sku + R"("})")
            .status == 404);
}

TEST_CASE_FIXTURE(Fixture, "premium: cancel shows only on the subscription; the period's end ends it") {
  const auto bought = subscribe(alice, basic);
  const auto subscription_id = str(bought["subscription"]["id"]);
  const auto entitlement_id = str(bought["entitlements"][0]["id"]);
  advance(kDayMs);

  auto from = mark();
  const auto canceled = subscription_action(subscription_id, "cancel");
  expect_events(from, {"SUBSCRIPTION_UPDATE"});  // no entitlement event
  CHECK(canceled["status"].GetInt() == 2);       // ENDING
  CHECK(str(canceled["canceled_at"]) == format_rfc3339_ms(kBenchStart + kDayMs));
  CHECK(canceled["renewal_sku_ids"].IsNull());
  const auto update = event_data(alice_peer, from.alice, "SUBSCRIPTION_UPDATE");
  CHECK(update["status"].GetInt() == 2);
  CHECK(update["renewal_sku_ids"].IsNull());
  CHECK(get_entitlement(entitlement_id)["ends_at"].IsNull());                   // unchanged until the end
  CHECK(admin("/subscriptions/" + subscription_id + "/cancel").status == 400);  // only an ACTIVE one
  CHECK(
      admin("/subscriptions/" + subscription_id + "/change-plan", R"({"sku_id":")" + plus + R"("})").status ==
      400);

  from = mark();
  advance(kPeriodMs - kDayMs);  // the period's end
  expect_events(from, {"ENTITLEMENT_UPDATE", "SUBSCRIPTION_UPDATE"});
  const auto period_end = format_rfc3339_ms(kBenchStart + kPeriodMs);
  const auto ended = event_data(alice_peer, from.alice, "ENTITLEMENT_UPDATE");
  CHECK(str(ended["id"]) == entitlement_id);
  CHECK(str(ended["ends_at"]) == period_end);
  CHECK(event_data(alice_peer, from.alice, "SUBSCRIPTION_UPDATE")["status"].GetInt() == 1);  // INACTIVE
  CHECK(created.size() == from.created);

  // Ended: listed with exclude_ended=false only; nothing more happens; it can be bought again.
  const auto all = parse(backend("GET", "/applications/" + app_id + "/entitlements?user_id=" + alice).body);
  CHECK(ids_of(all) == std::vector<std::string>{entitlement_id});
  CHECK(parse(backend("GET",
                      "/applications/" + app_id + "/entitlements?user_id=" + alice + "&exclude_ended=true")
                  .body)
            .Empty());
  from = mark();
  advance(3 * kPeriodMs);
  expect_events(from, {});
  subscribe(alice, plus);
}

TEST_CASE_FIXTURE(Fixture, "premium: the admin end ends an active subscription now") {
  const auto bought = subscribe(alice, basic);
  const auto subscription_id = str(bought["subscription"]["id"]);
  advance(2 * kDayMs);
  const auto from = mark();
  const auto ended = subscription_action(subscription_id, "end");
  expect_events(from, {"ENTITLEMENT_UPDATE", "SUBSCRIPTION_UPDATE"});
  const auto now = format_rfc3339_ms(kBenchStart + 2 * kDayMs);
  CHECK(ended["status"].GetInt() == 1);
  CHECK(str(ended["current_period_end"]) == now);
  CHECK(str(ended["canceled_at"]) == now);
  CHECK(str(event_data(alice_peer, from.alice, "ENTITLEMENT_UPDATE")["ends_at"]) == now);
  CHECK(admin("/subscriptions/" + subscription_id + "/end").status == 400);
  CHECK(admin("/subscriptions/" + subscription_id + "/renew").status == 400);
  CHECK(admin("/subscriptions/1/end").status == 404);
}

TEST_CASE_FIXTURE(Fixture, "premium: a legacy subscription entitlement migrates with ENTITLEMENT_CREATE") {
  auto from = mark();
  const auto legacy =
      admin("/legacy-subscriptions", R"({"user_id":")" + alice + R"(","sku_id":")" + basic + R"("})");
  REQUIRE_MESSAGE(legacy.status == 200, legacy.body);
  const auto subscription = parse(legacy.body);
  expect_events(from, {"SUBSCRIPTION_CREATE", "ENTITLEMENT_CREATE"});
  const auto entitlement_id = str(subscription["entitlement_ids"][0]);
  const auto before = get_entitlement(entitlement_id);
  CHECK(before["type"].GetInt() == 8);  // APPLICATION_SUBSCRIPTION
  CHECK(str(before["ends_at"]) == format_rfc3339_ms(kBenchStart + kPeriodMs));

  from = mark();
  const auto migrated =
      raw("POST", "/_emulator/applications/" + app_id + "/entitlements/" + entitlement_id + "/migrate");
  REQUIRE_MESSAGE(migrated.status == 200, migrated.body);
  expect_events(from, {"ENTITLEMENT_CREATE"});  // marks the migration; no subscription event
  const auto event = event_data(alice_peer, from.alice, "ENTITLEMENT_CREATE");
  CHECK(str(event["id"]) == entitlement_id);  // the same entitlement
  CHECK(event["type"].GetInt() == 1);
  CHECK(event["ends_at"].IsNull());
  REQUIRE(created.size() == from.created + 1);
  CHECK(str(parse(created.back().second)["id"]) == entitlement_id);
  CHECK(get_entitlement(entitlement_id)["type"].GetInt() == 1);
  CHECK(json_text(get_subscription(basic, str(subscription["id"]))) == json_text(subscription));

  // Only once, and only a legacy one.
  CHECK(raw("POST", "/_emulator/applications/" + app_id + "/entitlements/" + entitlement_id + "/migrate")
            .status == 400);
  // After the migration, renewals are silent for the entitlement.
  from = mark();
  advance(kPeriodMs);
  expect_events(from, {"SUBSCRIPTION_UPDATE"});
}

TEST_CASE_FIXTURE(Fixture, "premium: an unmigrated legacy entitlement still moves its ends_at at renewal") {
  const auto subscription = parse(
      admin("/legacy-subscriptions", R"({"user_id":")" + alice + R"(","sku_id":")" + basic + R"("})").body);
  const auto from = mark();
  advance(kPeriodMs);
  expect_events(from, {"ENTITLEMENT_UPDATE", "SUBSCRIPTION_UPDATE"});
  CHECK(str(event_data(alice_peer, from.alice, "ENTITLEMENT_UPDATE")["ends_at"]) ==
        format_rfc3339_ms(kBenchStart + 2 * kPeriodMs));
  CHECK(
      admin("/legacy-subscriptions", R"({"user_id":")" + alice + R"(","sku_id":")" + plus + R"("})").status ==
      400);
  CHECK(str(subscription["user_id"]) == alice);
}

// ---- one-time items
// --------------------------------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "premium: a durable item is bought once") {
  const auto from = mark();
  const auto bought = buy(alice, sword);
  expect_events(from, {"ENTITLEMENT_CREATE"});  // no subscription
  CHECK(bought["subscription"].IsNull());
  CHECK(bought["entitlements"][0]["type"].GetInt() == 1);
  CHECK(bought["entitlements"][0]["ends_at"].IsNull());
  CHECK(created.size() == from.created + 1);
  const auto again = admin("/purchases", R"({"user_id":")" + alice + R"(","sku_id":")" + sword + R"("})");
  CHECK(again.status == 400);
  CHECK(code_of(again) == 5008);
  CHECK(premium_events(alice_peer, from.alice).size() == 1);
  // Another player may; the Sword is not consumable.
  const auto bobs = buy(bob, sword);
  const auto consume = backend(
      "POST", "/applications/" + app_id + "/entitlements/" + str(bobs["entitlements"][0]["id"]) + "/consume");
  CHECK(consume.status == 400);
  CHECK(code_of(consume) == 0);
  // Another application's SKU, or an unknown one, is not for sale here.
  CHECK(admin("/purchases", R"({"user_id":")" + alice + R"(","sku_id":")" + other_sku + R"("})").status ==
        404);
  CHECK(admin("/purchases", R"({"user_id":")" + alice + R"(","sku_id":"1"})").status == 404);
  CHECK(admin("/purchases", R"({"user_id":"1","sku_id":")" + sword + R"("})").status == 404);
}

TEST_CASE_FIXTURE(Fixture, "premium: a consumable is bought, consumed once, refused the second time") {
  const auto bought = buy(alice, potion);
  const auto id = str(bought["entitlements"][0]["id"]);
  CHECK_FALSE(bought["entitlements"][0]["consumed"].GetBool());
  // Not bought again before it is consumed.
  CHECK(code_of(admin("/purchases", R"({"user_id":")" + alice + R"(","sku_id":")" + potion + R"("})")) ==
        5008);

  const auto from = mark();
  const auto first = backend("POST", "/applications/" + app_id + "/entitlements/" + id + "/consume");
  CHECK(first.status == 204);
  CHECK(first.body.empty());
  expect_events(from, {"ENTITLEMENT_UPDATE"});
  CHECK(event_data(alice_peer, from.alice, "ENTITLEMENT_UPDATE")["consumed"].GetBool());
  CHECK(get_entitlement(id)["consumed"].GetBool());

  const auto second = backend("POST", "/applications/" + app_id + "/entitlements/" + id + "/consume");
  CHECK(second.status == 400);
  CHECK(code_of(second) == 0);
  CHECK(str(parse(second.body)["message"]) == "Entitlement has already been consumed");
  expect_events(from, {"ENTITLEMENT_UPDATE"});

  // Consumed: it can be bought again.
  const auto again = buy(alice, potion);
  CHECK(str(again["entitlements"][0]["id"]) != id);
  CHECK(backend("POST", "/applications/" + app_id + "/entitlements/1/consume").status == 404);
  CHECK(raw("POST", "/api/v10/applications/" + app_id + "/entitlements/" + id + "/consume").status == 401);
  CHECK(raw("POST", "/api/v10/applications/" + app_id + "/entitlements/" + id + "/consume", {},
            "Bot " + other_bot_token)
            .status == 403);
}

// ---- test entitlements, lists and who may call
// ----------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "premium: test entitlements are created for users and only they can be deleted") {
  auto from = mark();
  const auto created_response =
      backend("POST", "/applications/" + app_id + "/entitlements",
              R"({"sku_id":")" + sword + R"(","owner_id":")" + alice + R"(","owner_type":2})");
  REQUIRE_MESSAGE(created_response.status == 200, created_response.body);
  const auto entitlement = parse(created_response.body);
  const auto id = str(entitlement["id"]);
  CHECK(entitlement["type"].GetInt() == 1);
  CHECK(entitlement["starts_at"].IsNull());
  CHECK(entitlement["ends_at"].IsNull());
  expect_events(from, {"ENTITLEMENT_CREATE"});
  CHECK(created.size() == from.created + 1);

  const auto guild = backend("POST", "/applications/" + app_id + "/entitlements",
                             R"({"sku_id":")" + sword + R"(","owner_id":"1","owner_type":1})");
  CHECK(guild.status == 400);
  CHECK(error_code_at(guild, "owner_type") == "BASE_TYPE_CHOICES");
  const auto missing =
      backend("POST", "/applications/" + app_id + "/entitlements", R"({"sku_id":")" + sword + "\"}");
  CHECK(missing.status == 400);
  CHECK(error_code_at(missing, "owner_id") == "BASE_TYPE_REQUIRED");
  CHECK(backend("POST", "/applications/" + app_id + "/entitlements",
                R"({"sku_id":")" + other_sku + R"(","owner_id":")" + alice + R"(","owner_type":2})")
            .status == 404);
  CHECK(backend("POST", "/applications/" + app_id + "/entitlements",
                R"({"sku_id":")" + sword + R"(","owner_id":"1","owner_type":2})")
            .status == 404);
  CHECK(as_user(alice, "POST", "/applications/" + app_id + "/entitlements").status == 403);

  // A purchased entitlement cannot be deleted.
  const auto bought = buy(bob, sword);
  const auto purchased =
      backend("DELETE", "/applications/" + app_id + "/entitlements/" + str(bought["entitlements"][0]["id"]));
  CHECK(purchased.status == 400);

  from = mark();
  CHECK(backend("DELETE", "/applications/" + app_id + "/entitlements/" + id).status == 204);
  expect_events(from, {"ENTITLEMENT_DELETE"});
  const auto deleted = event_data(alice_peer, from.alice, "ENTITLEMENT_DELETE");
  CHECK(str(deleted["id"]) == id);
  CHECK(deleted["deleted"].GetBool());
  const auto gone = backend("GET", "/applications/" + app_id + "/entitlements/" + id);
  CHECK(gone.status == 404);
  CHECK(code_of(gone) == 10029);
  CHECK(backend("DELETE", "/applications/" + app_id + "/entitlements/" + id).status == 404);
  CHECK(
      parse(backend("GET", "/applications/" + app_id + "/entitlements?exclude_deleted=false&user_id=" + alice)
                .body)
          .Empty());
}

TEST_CASE_FIXTURE(Fixture, "premium: entitlement filters and pagination") {
  // 101 test entitlements of carol's (Sword), two of bob's (Potion, Sword).
  std::vector<std::string> carols;
  for (int i = 0; i < 101; ++i) {
    const auto response =
        backend("POST", "/applications/" + app_id + "/entitlements",
                R"({"sku_id":")" + sword + R"(","owner_id":")" + carol + R"(","owner_type":2})");
    REQUIRE(response.status == 200);
    carols.push_back(str(parse(response.body)["id"]));
  }
  const auto bobs_potion = str(buy(bob, potion)["entitlements"][0]["id"]);
  const auto bobs_sword = str(buy(bob, sword)["entitlements"][0]["id"]);
  const auto list = [&](const std::string& query) {
    const auto response = backend("GET", "/applications/" + app_id + "/entitlements" + query);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return ids_of(parse(response.body));
  };

  // Default: the newest 100, newest first.
  const auto newest = list("");
  REQUIRE(newest.size() == 100);
  CHECK(newest[0] == bobs_sword);
  CHECK(newest[1] == bobs_potion);
  CHECK(newest[2] == carols[100]);
  CHECK(list("?limit=100").size() == 100);
  CHECK(list("?limit=1") == std::vector<std::string>{bobs_sword});
  for (const auto* limit : {"101", "0", "x"}) {
    const auto refused = backend("GET", "/applications/" + app_id + "/entitlements?limit=" + limit);
    CHECK(refused.status == 400);
    CHECK(code_of(refused) == 50035);
  }
  CHECK(error_code_at(backend("GET", "/applications/" + app_id + "/entitlements?limit=101"), "limit") ==
        "NUMBER_TYPE_MAX");
  CHECK(error_code_at(backend("GET", "/applications/" + app_id + "/entitlements?limit=0"), "limit") ==
        "NUMBER_TYPE_MIN");
  CHECK(error_code_at(backend("GET", "/applications/" + app_id + "/entitlements?before=abc"), "before") ==
        "NUMBER_TYPE_COERCE");
  CHECK(error_code_at(backend("GET", "/applications/" + app_id + "/entitlements?exclude_ended=maybe"),
                      "exclude_ended") == "BOOLEAN_TYPE_CONVERT");

  // after: ascending from there (exclusive); before: descending below it (exclusive); both: between.
  CHECK(list("?after=" + carols[0] + "&limit=2") == std::vector<std::string>{carols[1], carols[2]});
  CHECK(list("?before=" + carols[3] + "&limit=5") ==
        std::vector<std::string>{carols[2], carols[1], carols[0]});
  CHECK(list("?after=" + carols[0] + "&before=" + carols[3]) ==
        std::vector<std::string>{carols[1], carols[2]});
  // Paging through all of carol's by `after`.
  std::vector<std::string> paged;
  std::string after = "0";
  for (;;) {
    const auto page = list("?user_id=" + carol + "&limit=40&after=" + after);
    if (page.empty()) break;
    paged.insert(paged.end(), page.begin(), page.end());
    after = page.back();
  }
  CHECK(paged == carols);

  CHECK(list("?user_id=" + bob) == std::vector<std::string>{bobs_sword, bobs_potion});
  CHECK(list("?user_id=" + bob + "&sku_ids=" + potion) == std::vector<std::string>{bobs_potion});
  CHECK(list("?user_id=" + bob + "&sku_ids=" + potion + "," + sword) ==
        std::vector<std::string>{bobs_sword, bobs_potion});
  CHECK(list("?user_id=" + bob + "&sku_ids=" + potion + "%2C" + sword).size() == 2);
  CHECK(list("?guild_id=1").empty());  // every entitlement belongs to a user
  CHECK(list("?user_id=" + alice).empty());

  // Auth: the application's bot only.
  CHECK(raw("GET", "/api/v10/applications/" + app_id + "/entitlements").status == 401);
  CHECK(
      raw("GET", "/api/v10/applications/" + app_id + "/entitlements", {}, "Bot " + other_bot_token).status ==
      403);
  CHECK(as_user(bob, "GET", "/applications/" + app_id + "/entitlements").status == 403);
  CHECK(backend("GET", "/applications/" + other_app_id + "/entitlements").status == 403);
  CHECK(backend("GET", "/applications/" + app_id + "/entitlements/" + bobs_potion).status == 200);
  CHECK(raw("GET", "/api/v10/applications/" + other_app_id + "/entitlements/" + bobs_potion, {},
            "Bot " + other_bot_token)
            .status == 404);
}

TEST_CASE_FIXTURE(Fixture, "premium: a player's own entitlements") {
  const auto potion_id = str(buy(alice, potion)["entitlements"][0]["id"]);
  const auto sword_id = str(buy(alice, sword)["entitlements"][0]["id"]);
  buy(bob, sword);
  const auto mine = [&](const std::string& query) {
    const auto response =
        as_user(alice, "GET", "/users/@me/applications/" + app_id + "/entitlements" + query);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return ids_of(parse(response.body));
  };
  CHECK(mine("") == std::vector<std::string>{sword_id, potion_id});
  CHECK(mine("?sku_ids=" + potion) == std::vector<std::string>{potion_id});
  backend("POST", "/applications/" + app_id + "/entitlements/" + potion_id + "/consume");
  CHECK(mine("?exclude_consumed=true") == std::vector<std::string>{sword_id});
  CHECK(mine("?exclude_consumed=false").size() == 2);

  CHECK(raw("GET", "/api/v10/users/@me/applications/" + app_id + "/entitlements").status == 401);
  CHECK(backend("GET", "/users/@me/applications/" + app_id + "/entitlements").status == 403);
  CHECK(raw("GET", "/api/v10/users/@me/applications/" + app_id + "/entitlements", {},
            "Bearer " + token(alice, other_app_id))
            .status == 403);
  CHECK(as_user(alice, "GET", "/users/@me/applications/1/entitlements").status == 404);
}

TEST_CASE_FIXTURE(Fixture, "premium: subscription lists, filters, pagination and who sees what") {
  const auto alices = str(subscribe(alice, basic)["subscription"]["id"]);
  const auto bobs = str(subscribe(bob, basic)["subscription"]["id"]);
  const auto carols = str(subscribe(carol, plus)["subscription"]["id"]);
  const auto list = [&](const std::string& query) {
    const auto response = backend("GET", "/skus/" + basic + "/subscriptions" + query);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return ids_of(parse(response.body));
  };
  CHECK(list("") == std::vector<std::string>{bobs, alices});
  CHECK(list("?user_id=" + alice) == std::vector<std::string>{alices});
  CHECK(list("?after=" + alices) == std::vector<std::string>{bobs});
  CHECK(list("?before=" + bobs) == std::vector<std::string>{alices});
  CHECK(list("?limit=1") == std::vector<std::string>{bobs});
  CHECK(list("?limit=100").size() == 2);
  CHECK(error_code_at(backend("GET", "/skus/" + basic + "/subscriptions?limit=101"), "limit") ==
        "NUMBER_TYPE_MAX");
  CHECK(error_code_at(backend("GET", "/skus/" + basic + "/subscriptions?limit=0"), "limit") ==
        "NUMBER_TYPE_MIN");
  CHECK(error_code_at(backend("GET", "/skus/" + basic + "/subscriptions?user_id=me"), "user_id") ==
        "NUMBER_TYPE_COERCE");
  CHECK(ids_of(parse(backend("GET", "/skus/" + plus + "/subscriptions").body)) ==
        std::vector<std::string>{carols});

  // A player's token of the application: their own only.
  const auto own = as_user(alice, "GET", "/skus/" + basic + "/subscriptions");
  REQUIRE(own.status == 200);
  CHECK(ids_of(parse(own.body)) == std::vector<std::string>{alices});
  CHECK(parse(as_user(alice, "GET", "/skus/" + basic + "/subscriptions?user_id=" + bob).body).Empty());
  CHECK(as_user(alice, "GET", "/skus/" + basic + "/subscriptions/" + alices).status == 200);
  CHECK(as_user(alice, "GET", "/skus/" + basic + "/subscriptions/" + bobs).status == 404);

  CHECK(str(get_subscription(basic, bobs)["user_id"]) == bob);
  CHECK(backend("GET", "/skus/" + plus + "/subscriptions/" + bobs).status == 404);  // not of that SKU
  CHECK(backend("GET", "/skus/" + basic + "/subscriptions/1").status == 404);
  const auto unknown_sku = backend("GET", "/skus/1/subscriptions");
  CHECK(unknown_sku.status == 404);
  CHECK(code_of(unknown_sku) == 10032);
  CHECK(raw("GET", "/api/v10/skus/" + basic + "/subscriptions").status == 401);
  CHECK(raw("GET", "/api/v10/skus/" + basic + "/subscriptions/" + bobs).status == 401);
  CHECK(raw("GET", "/api/v10/skus/" + basic + "/subscriptions", {}, "Bot " + other_bot_token).status == 403);
  CHECK(raw("GET", "/api/v10/skus/" + basic + "/subscriptions/" + bobs, {},
            "Bearer " + token(bob, other_app_id))
            .status == 403);
}

// ---- START_PURCHASE over IPC
// -----------------------------------------------------------------------------------

namespace {

struct FakeIpcPeer final : IpcPeer {
  std::vector<IpcFrame> frames;
  IpcFrameDecoder decoder;
  bool closed = false;
  void send(std::string bytes) override {
    decoder.feed(bytes);
    while (auto frame = decoder.next())
      frames.push_back(std::move(*frame));
  }
  void close() override { closed = true; }
};

struct IpcFixture : Fixture {
  FakeIpcPeer ipc_peer;
  std::uint64_t connection = service.ipc_connected(ipc_peer);
  int nonce = 0;

  IpcFixture() {
    service.ipc_received(
        connection, encode_ipc_frame(IpcOpcode::handshake, R"({"v":1,"client_id":")" + app_id + R"("})"));
    REQUIRE_FALSE(ipc_peer.closed);
  }
  ~IpcFixture() { service.ipc_disconnected(connection); }
  IpcFixture(const IpcFixture&) = delete;
  IpcFixture& operator=(const IpcFixture&) = delete;

  rapidjson::Document start_purchase(const std::string& args) {
    const auto before = ipc_peer.frames.size();
    service.ipc_received(
        connection,
        encode_ipc_frame(IpcOpcode::frame, R"({"cmd":"START_PURCHASE","nonce":"n)" + std::to_string(++nonce) +
                                               R"(","args":)" + args + "}"));
    REQUIRE(ipc_peer.frames.size() == before + 1);
    return parse(ipc_peer.frames.back().payload);
  }
  rapidjson::Document purchase_sku(const std::string& sku) {
    return start_purchase(R"({"sku_id":")" + sku + R"(","pid":4242})");
  }
  int error_of(const rapidjson::Document& answer) {
    REQUIRE(answer["evt"].IsString());
    CHECK(str(answer["evt"]) == "ERROR");
    return answer["data"]["code"].GetInt();
  }
  void set_flow(const std::string& outcome) {
    const auto response = admin("/purchase-flow", R"({"outcome":")" + outcome + R"("})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
  }
};

}  // namespace

TEST_CASE_FIXTURE(IpcFixture, "premium: START_PURCHASE completes, cancels or fails per the purchase flow") {
  // Complete (the default): the desktop client's user (alice) gets the entitlements, the answer lists them.
  auto from = mark();
  const auto done = purchase_sku(potion);
  CHECK(str(done["cmd"]) == "START_PURCHASE");
  CHECK(done["evt"].IsNull());
  REQUIRE(done["data"].IsArray());
  REQUIRE(done["data"].Size() == 1);
  CHECK(str(done["data"][0]["user_id"]) == alice);
  CHECK(str(done["data"][0]["sku_id"]) == potion);
  expect_events(from, {"ENTITLEMENT_CREATE"});
  CHECK(str(event_data(alice_peer, from.alice, "ENTITLEMENT_CREATE")["id"]) == str(done["data"][0]["id"]));

  // Cancel and fail: nothing is bought, nothing is emitted.
  from = mark();
  set_flow("cancel");
  CHECK(error_of(purchase_sku(sword)) == 5005);
  set_flow("fail");
  CHECK(error_of(purchase_sku(sword)) == 5006);
  // The outcome stays until changed; the admin purchase takes the same path.
  CHECK(code_of(admin("/purchases", R"({"user_id":")" + alice + R"(","sku_id":")" + sword + R"("})")) ==
        5006);
  expect_events(from, {});
  CHECK(created.size() == from.created);
  CHECK(str(parse(raw("GET", "/_emulator/applications/" + app_id + "/premium").body)["purchase_flow"]) ==
        "fail");

  set_flow("complete");
  const auto subscribed = purchase_sku(basic);
  REQUIRE(subscribed["data"].IsArray());
  expect_events(from, {"SUBSCRIPTION_CREATE", "ENTITLEMENT_CREATE"});

  // Unknown or another application's SKU; already owned; bad arguments.
  CHECK(error_of(purchase_sku("1")) == 5007);
  CHECK(error_of(purchase_sku(other_sku)) == 5007);
  CHECK(error_of(purchase_sku(plus)) == 5008);
  CHECK(error_of(purchase_sku(potion)) == 5008);  // not consumed yet
  CHECK(error_of(start_purchase(R"({"pid":1})")) == 4000);
  CHECK(error_of(start_purchase(R"({"sku_id":")" + sword + R"("})")) == 4000);
  CHECK(error_of(start_purchase("null")) == 4000);
  CHECK(admin("/purchase-flow", R"({"outcome":"maybe"})").status == 400);
}

TEST_CASE_FIXTURE(Fixture, "premium: the admin dump and unknown applications") {
  buy(alice, sword);
  const auto dump = parse(raw("GET", "/_emulator/applications/" + app_id + "/premium").body);
  CHECK(dump["skus"].Size() == 4);
  CHECK(dump["entitlements"].Size() == 1);
  CHECK(dump["subscriptions"].Empty());
  CHECK(str(dump["purchase_flow"]) == "complete");
  CHECK(raw("GET", "/_emulator/applications/1/premium").status == 404);
  CHECK(raw("POST", "/_emulator/applications/1/skus", R"({"name":"X","type":2})").status == 404);
  CHECK(raw("POST", "/_emulator/applications/1/purchases", R"({"user_id":"1","sku_id":"1"})").status == 404);
}

}  // namespace premium_routes_test
