// EmulatorAdmin: premium apps (SKUs, purchases, the purchase flow, subscriptions' lifecycle, legacy
// subscriptions and their migration) through /_emulator/applications/{app}/...
#include <platformpp/testkit/emulator.hpp>

#include "admin_json.hpp"
#include "json/json.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace platformpp::testkit {

using detail::Expect;
using detail::JsonObject;
using detail::RequireSnowflake;

namespace {

std::string AppPath(uint64_t appId, const std::string& rest) {
  return "/applications/" + std::to_string(appId) + rest;
}

std::string SubscriptionPath(uint64_t appId, uint64_t subscriptionId, const char* action) {
  return AppPath(appId, "/subscriptions/" + std::to_string(subscriptionId) + "/" + action);
}

// The ids of the objects in the array `name` of `document`.
std::vector<uint64_t> IdsOf(const json::Document& document, const char* name, const std::string& where) {
  const json::Value* list = json::Member(document, name);
  if (list == nullptr || !list->IsArray()) throw std::runtime_error(where + ": missing array '" + name + "'");
  std::vector<uint64_t> ids;
  for (const auto& entry : list->GetArray()) {
    const auto id = entry.IsObject() ? json::GetSnowflake(entry, "id") : std::nullopt;
    if (!id) throw std::runtime_error(where + ": an item of '" + name + "' without an id");
    ids.push_back(*id);
  }
  return ids;
}

}  // namespace

std::vector<uint64_t> EmulatorAdmin::CreateSkus(uint64_t appId, const std::vector<SkuSpec>& skus) {
  std::string list = "[";
  for (const auto& sku : skus) {
    if (list.size() > 1) list += ",";
    list += JsonObject().Add("name", sku.name).Add("type", static_cast<int64_t>(sku.type)).Done();
  }
  list += "]";
  const auto document =
      Expect(Request("POST", AppPath(appId, "/skus"), "{\"skus\":" + list + "}"), 200, "create SKUs");
  return IdsOf(document, "skus", "create SKUs");
}

uint64_t EmulatorAdmin::CreateSku(uint64_t appId, const std::string& name, SkuType type) {
  return CreateSkus(appId, {SkuSpec{name, type}}).at(0);
}

EmulatorAdmin::PurchaseResult EmulatorAdmin::Purchase(uint64_t appId, uint64_t userId, uint64_t skuId) {
  const auto response = Request(
      "POST", AppPath(appId, "/purchases"),
      JsonObject().Add("user_id", std::to_string(userId)).Add("sku_id", std::to_string(skuId)).Done());
  const auto document = Expect(response, 200, "purchase");
  PurchaseResult result;
  result.entitlementIds = IdsOf(document, "entitlements", "purchase");
  if (const json::Value* subscription = json::Member(document, "subscription");
      subscription != nullptr && subscription->IsObject()) {
    result.subscriptionId = json::GetSnowflake(*subscription, "id").value_or(0);
  }
  result.json = response.body;
  return result;
}

void EmulatorAdmin::SetPurchaseFlow(uint64_t appId, PurchaseFlow outcome) {
  const char* name = outcome == PurchaseFlow::Cancel ? "cancel"
                     : outcome == PurchaseFlow::Fail ? "fail"
                                                     : "complete";
  Expect(Request("POST", AppPath(appId, "/purchase-flow"),
                 JsonObject().Add("outcome", std::string(name)).Done()),
         200, "set purchase flow");
}

std::string EmulatorAdmin::CancelSubscription(uint64_t appId, uint64_t subscriptionId) {
  const auto response = Request("POST", SubscriptionPath(appId, subscriptionId, "cancel"), "{}");
  Expect(response, 200, "cancel subscription");
  return response.body;
}

std::string EmulatorAdmin::EndSubscription(uint64_t appId, uint64_t subscriptionId) {
  const auto response = Request("POST", SubscriptionPath(appId, subscriptionId, "end"), "{}");
  Expect(response, 200, "end subscription");
  return response.body;
}

std::string EmulatorAdmin::RenewSubscription(uint64_t appId, uint64_t subscriptionId) {
  const auto response = Request("POST", SubscriptionPath(appId, subscriptionId, "renew"), "{}");
  Expect(response, 200, "renew subscription");
  return response.body;
}

std::string EmulatorAdmin::ChangePlan(uint64_t appId, uint64_t subscriptionId, uint64_t skuId) {
  const auto response = Request("POST", SubscriptionPath(appId, subscriptionId, "change-plan"),
                                JsonObject().Add("sku_id", std::to_string(skuId)).Done());
  Expect(response, 200, "change plan");
  return response.body;
}

EmulatorAdmin::PurchaseResult EmulatorAdmin::CreateLegacySubscription(uint64_t appId, uint64_t userId,
                                                                      uint64_t skuId) {
  const auto response = Request(
      "POST", AppPath(appId, "/legacy-subscriptions"),
      JsonObject().Add("user_id", std::to_string(userId)).Add("sku_id", std::to_string(skuId)).Done());
  const auto document = Expect(response, 200, "create legacy subscription");
  PurchaseResult result;
  result.subscriptionId = RequireSnowflake(document, "id", "create legacy subscription");
  if (const json::Value* ids = json::Member(document, "entitlement_ids"); ids != nullptr && ids->IsArray()) {
    for (const auto& id : ids->GetArray()) {
      if (id.IsString()) result.entitlementIds.push_back(std::stoull(id.GetString()));
    }
  }
  result.json = response.body;
  return result;
}

std::string EmulatorAdmin::MigrateEntitlement(uint64_t appId, uint64_t entitlementId) {
  const auto response =
      Request("POST", AppPath(appId, "/entitlements/" + std::to_string(entitlementId) + "/migrate"), "{}");
  Expect(response, 200, "migrate entitlement");
  return response.body;
}

std::string EmulatorAdmin::PremiumState(uint64_t appId) {
  const auto response = Request("GET", AppPath(appId, "/premium"));
  Expect(response, 200, "premium state");
  return response.body;
}

}  // namespace platformpp::testkit
