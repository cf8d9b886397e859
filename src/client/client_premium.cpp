// Client's premium calls: the queries read the PremiumStore (kept by loads and the Gateway), the purchase
// goes to the desktop client (premium/premium_service.hpp; docs/premium-protocol.md, "The SDK").
#include "client/client_core.hpp"
#include "premium/premium_service.hpp"

#include <platformpp/client.hpp>

#include <utility>

namespace platformpp {

std::vector<Sku> Client::GetSkus() const {
  return core_ ? core_->Premium().Store().Skus() : std::vector<Sku>{};
}

std::optional<Sku> Client::GetSku(uint64_t skuId) const {
  return core_ ? core_->Premium().Store().FindSku(skuId) : std::nullopt;
}

std::vector<Entitlement> Client::GetEntitlements() const {
  return core_ ? core_->Premium().Store().Entitlements() : std::vector<Entitlement>{};
}

std::vector<Subscription> Client::GetSubscriptions() const {
  return core_ ? core_->Premium().Store().Subscriptions() : std::vector<Subscription>{};
}

bool Client::HasSkuEntitlement(uint64_t skuId) const {
  return core_ && core_->Premium().HasEntitlement(skuId);
}

bool Client::IsPremiumLoaded() const {
  return core_ && core_->Premium().Store().Loaded();
}

void Client::RefreshPremium(RefreshPremiumCallback callback) {
  if (core_) core_->Premium().Refresh(std::move(callback));
}

void Client::StartPurchase(uint64_t skuId, StartPurchaseCallback callback) {
  if (core_) core_->Premium().StartPurchase(skuId, std::move(callback));
}

void Client::SetPremiumLoadedCallback(PremiumLoadedCallback callback) {
  if (core_) core_->Premium().loaded.Set(std::move(callback));
}

void Client::SetEntitlementCreatedCallback(EntitlementCallback callback) {
  if (core_) core_->Premium().Store().callbacks.entitlementCreated.Set(std::move(callback));
}

void Client::SetEntitlementUpdatedCallback(EntitlementCallback callback) {
  if (core_) core_->Premium().Store().callbacks.entitlementUpdated.Set(std::move(callback));
}

void Client::SetEntitlementDeletedCallback(EntitlementCallback callback) {
  if (core_) core_->Premium().Store().callbacks.entitlementDeleted.Set(std::move(callback));
}

void Client::SetSubscriptionCreatedCallback(SubscriptionCallback callback) {
  if (core_) core_->Premium().Store().callbacks.subscriptionCreated.Set(std::move(callback));
}

void Client::SetSubscriptionUpdatedCallback(SubscriptionCallback callback) {
  if (core_) core_->Premium().Store().callbacks.subscriptionUpdated.Set(std::move(callback));
}

}  // namespace platformpp
