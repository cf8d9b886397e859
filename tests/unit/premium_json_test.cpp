// The premium wire objects decoded from the platform's JSON: SKUs, entitlements (ends_at null = indefinite,
// consumed, the seed's types) and subscriptions (the seed's statuses, renewal_sku_ids, canceled_at); what is
// malformed decodes to nothing.
#include "premium/premium_json.hpp"
#include "json/json.hpp"
#include "json/timestamp.hpp"

#include <doctest/doctest.h>

#include <string>

namespace premium_json_test {

using namespace platformpp;

json::Document Doc(const std::string& text) {
  json::Document document;
  REQUIRE(json::Parse(text, document));
  return document;
}

constexpr const char* kEntitlement =
    R"({"id":"30","sku_id":"20","application_id":"10","user_id":"40","guild_id":null,"type":1,)"
    R"("deleted":false,"consumed":false,"starts_at":"2026-11-26T08:00:00.000+00:00","ends_at":null})";

TEST_CASE("an entitlement with ends_at null is indefinite, and active from its start") {
  auto entitlement = premium::ParseEntitlement(Doc(kEntitlement));
  REQUIRE(entitlement);
  CHECK(entitlement->id == 30);
  CHECK(entitlement->skuId == 20);
  CHECK(entitlement->applicationId == 10);
  CHECK(entitlement->userId == 40);
  CHECK(entitlement->guildId == 0);
  CHECK(entitlement->type == EntitlementType::Purchase);
  CHECK_FALSE(entitlement->endsAt);
  const uint64_t start = *json::ParseTimestampMs("2026-11-26T08:00:00Z");
  CHECK(entitlement->startsAt == start);
  CHECK_FALSE(entitlement->ActiveAt(start - 1));
  CHECK(entitlement->ActiveAt(start));
  CHECK(entitlement->ActiveAt(UINT64_MAX));
}

TEST_CASE("an ended, consumed or deleted entitlement grants nothing") {
  auto ended = Doc(kEntitlement);
  ended["ends_at"].SetString("2026-12-26T08:00:00Z");
  auto entitlement = premium::ParseEntitlement(ended);
  REQUIRE(entitlement);
  const uint64_t end = *json::ParseTimestampMs("2026-12-26T08:00:00Z");
  CHECK(entitlement->ActiveAt(end - 1));
  CHECK_FALSE(entitlement->ActiveAt(end));

  auto consumed = Doc(kEntitlement);
  consumed["consumed"].SetBool(true);
  entitlement = premium::ParseEntitlement(consumed);
  REQUIRE(entitlement);
  CHECK(entitlement->consumed);
  CHECK_FALSE(entitlement->ActiveAt(end));

  auto deleted = Doc(kEntitlement);
  deleted["deleted"].SetBool(true);
  entitlement = premium::ParseEntitlement(deleted);
  REQUIRE(entitlement);
  CHECK_FALSE(entitlement->ActiveAt(end));

  auto subscription = Doc(kEntitlement);
  subscription["type"].SetInt(8);
  entitlement = premium::ParseEntitlement(subscription);
  REQUIRE(entitlement);
  CHECK(entitlement->type == EntitlementType::ApplicationSubscription);
}

TEST_CASE("an entitlement without its identity, or with a field of the wrong type, decodes to nothing") {
  for (const char* field : {"id", "sku_id", "application_id", "type"}) {
    auto document = Doc(kEntitlement);
    document.RemoveMember(field);
    CHECK_MESSAGE(!premium::ParseEntitlement(document), field);
  }
  auto zero = Doc(kEntitlement);
  zero["id"].SetString("0");
  CHECK_FALSE(premium::ParseEntitlement(zero));
  auto badTime = Doc(kEntitlement);
  badTime["ends_at"].SetString("tomorrow");
  CHECK_FALSE(premium::ParseEntitlement(badTime));
  auto badBool = Doc(kEntitlement);
  badBool["consumed"].SetString("yes");
  CHECK_FALSE(premium::ParseEntitlement(badBool));
  CHECK_FALSE(premium::ParseEntitlement(Doc("[]")));
  CHECK_FALSE(premium::ParseEntitlement(Doc("null")));
}

constexpr const char* kSubscription =
    R"({"id":"50","user_id":"40","sku_ids":["20"],"entitlement_ids":["30"],"renewal_sku_ids":["21"],)"
    R"("current_period_start":"2026-11-01T00:00:00Z","current_period_end":"2026-12-01T00:00:00Z",)"
    R"("status":0,"canceled_at":null,"country":"FR"})";

TEST_CASE("a subscription with its statuses, renewal SKUs and cancellation") {
  auto subscription = premium::ParseSubscription(Doc(kSubscription));
  REQUIRE(subscription);
  CHECK(subscription->id == 50);
  CHECK(subscription->userId == 40);
  CHECK(subscription->skuIds == std::vector<uint64_t>{20});
  CHECK(subscription->entitlementIds == std::vector<uint64_t>{30});
  REQUIRE(subscription->renewalSkuIds);
  CHECK(*subscription->renewalSkuIds == std::vector<uint64_t>{21});
  CHECK(subscription->status == SubscriptionStatus::Active);
  CHECK_FALSE(subscription->canceledAt);
  CHECK(subscription->currentPeriodEnd - subscription->currentPeriodStart == uint64_t{30} * 86400 * 1000);
  CHECK(subscription->country == "FR");

  auto ending = Doc(kSubscription);
  ending["status"].SetInt(2);
  ending["canceled_at"].SetString("2026-11-20T10:00:00Z");
  ending["renewal_sku_ids"].SetNull();
  subscription = premium::ParseSubscription(ending);
  REQUIRE(subscription);
  CHECK(subscription->status == SubscriptionStatus::Ending);
  CHECK(subscription->canceledAt == json::ParseTimestampMs("2026-11-20T10:00:00Z"));
  CHECK_FALSE(subscription->renewalSkuIds);

  auto inactive = Doc(kSubscription);
  inactive["status"].SetInt(1);
  subscription = premium::ParseSubscription(inactive);
  REQUIRE(subscription);
  CHECK(subscription->status == SubscriptionStatus::Inactive);
}

TEST_CASE("a malformed subscription decodes to nothing") {
  for (const char* field :
       {"id", "user_id", "sku_ids", "current_period_start", "current_period_end", "status"}) {
    auto document = Doc(kSubscription);
    document.RemoveMember(field);
    CHECK_MESSAGE(!premium::ParseSubscription(document), field);
  }
  auto badId = Doc(kSubscription);
  badId["sku_ids"][0].SetString("20x");
  CHECK_FALSE(premium::ParseSubscription(badId));
  auto overflow = Doc(kSubscription);
  overflow["renewal_sku_ids"][0].SetString("18446744073709551616");
  CHECK_FALSE(premium::ParseSubscription(overflow));
  auto notList = Doc(kSubscription);
  notList["entitlement_ids"].SetObject();
  CHECK_FALSE(premium::ParseSubscription(notList));
}

TEST_CASE("SKUs, and a list is believed whole or not at all") {
  auto skus = premium::ParseList(
      Doc(R"([{"id":"1","type":5,"application_id":"9","name":"Gold","slug":"gold","flags":260},)"
          R"({"id":"2","type":3,"application_id":"9","name":"Potion","slug":"potion","flags":4}])"),
      &premium::ParseSku);
  REQUIRE(skus);
  REQUIRE(skus->size() == 2);
  CHECK((*skus)[0].IsSubscription());
  CHECK((*skus)[0].flags == (sku_flags::kAvailable | sku_flags::kUserSubscription));
  CHECK((*skus)[1].type == SkuType::Consumable);
  CHECK((*skus)[1].name == "Potion");
  CHECK_FALSE(premium::ParseList(Doc(R"([{"id":"1","type":5,"application_id":"9"},{"id":"2"}])"),
                                 &premium::ParseSku));
  CHECK_FALSE(premium::ParseList(Doc(R"({"id":"1"})"), &premium::ParseSku));
  CHECK(premium::ParseList(Doc("[]"), &premium::ParseSku)->empty());
}

TEST_CASE("timestamps format in the platform's form and parse back to the same instant") {
  CHECK(json::FormatTimestampMs(0) == "1970-01-01T00:00:00.000+00:00");
  CHECK(json::FormatTimestampMs(1795377600250) == "2026-11-22T20:00:00.250+00:00");
  CHECK(json::FormatTimestampMs(951782400000) == "2000-02-29T00:00:00.000+00:00");
  for (uint64_t ms : {uint64_t{0}, uint64_t{1795377600250}, uint64_t{4102444799999}})
    CHECK(json::ParseTimestampMs(json::FormatTimestampMs(ms)) == ms);
}

}  // namespace premium_json_test
