// platformpp::testkit's premium admin calls against the real binary: SKUs, purchases and the purchase flow,
// a month passing on the fake clock, plan changes, cancel, end, legacy subscriptions and their migration.
#include <doctest/doctest.h>
#include <platformpp/testkit/emulator.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_support.hpp"

using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

extern std::string g_testkit_emulator_binary;  // testkit_ipc_test.cpp

TEST_CASE("testkit: premium admin calls") {
  using platformpp::emulator::test::parse;
  using platformpp::emulator::test::str;
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  options.extraArguments = {"--frozen-clock"};
  auto process = EmulatorProcess::Start(options);
  EmulatorAdmin admin(process->Connection());
  const auto app = admin.CreateApp("Store");
  const auto player = admin.CreateUser("player");
  const auto skus = admin.CreateSkus(app.id, {{"Sword", EmulatorAdmin::SkuType::Durable},
                                              {"Basic", EmulatorAdmin::SkuType::Subscription},
                                              {"Plus", EmulatorAdmin::SkuType::Subscription}});
  REQUIRE(skus.size() == 3);
  const auto potion = admin.CreateSku(app.id, "Potion", EmulatorAdmin::SkuType::Consumable);
  CHECK(potion > skus.back());

  // The purchase flow applies to the admin purchase too.
  admin.SetPurchaseFlow(app.id, EmulatorAdmin::PurchaseFlow::Cancel);
  CHECK_THROWS_AS(admin.Purchase(app.id, player.id, skus[0]), std::runtime_error);
  admin.SetPurchaseFlow(app.id, EmulatorAdmin::PurchaseFlow::Complete);
  const auto sword = admin.Purchase(app.id, player.id, skus[0]);
  CHECK(sword.subscriptionId == 0);
  REQUIRE(sword.entitlementIds.size() == 1);
  CHECK_THROWS_AS(admin.Purchase(app.id, player.id, skus[0]), std::runtime_error);  // owned

  const auto basic = admin.Purchase(app.id, player.id, skus[1]);
  REQUIRE(basic.subscriptionId != 0);
  const auto plan = parse(admin.ChangePlan(app.id, basic.subscriptionId, skus[2]));
  CHECK(str(plan["renewal_sku_ids"][0]) == std::to_string(skus[2]));
  admin.AdvanceClock(std::chrono::hours(24 * 30));  // a month: the renewal onto Plus
  auto state = parse(admin.PremiumState(app.id));
  REQUIRE(state["subscriptions"].Size() == 1);
  CHECK(str(state["subscriptions"][0]["sku_ids"][0]) == std::to_string(skus[2]));
  CHECK(state["entitlements"].Size() == 3);  // the Sword, Basic (ended), Plus

  const auto renewed = parse(admin.RenewSubscription(app.id, basic.subscriptionId));
  CHECK(renewed["status"].GetInt() == 0);
  CHECK(parse(admin.CancelSubscription(app.id, basic.subscriptionId))["status"].GetInt() == 2);
  CHECK(parse(admin.EndSubscription(app.id, basic.subscriptionId))["status"].GetInt() == 1);
  CHECK_THROWS_AS(admin.EndSubscription(app.id, basic.subscriptionId), std::runtime_error);

  const auto legacy = admin.CreateLegacySubscription(app.id, player.id, skus[1]);
  REQUIRE(legacy.entitlementIds.size() == 1);
  const auto migrated = parse(admin.MigrateEntitlement(app.id, legacy.entitlementIds[0]));
  CHECK(migrated["type"].GetInt() == 1);
  CHECK(migrated["ends_at"].IsNull());

  CHECK(process->Stop() == 0);
}
