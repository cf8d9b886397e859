// Premium apps' state table (docs/premium-protocol.md): purchases, renewals, plan changes, endings and the
// legacy migration, with what each emits on the Gateway and to the entitlement listener.
#include "premium/premium_module.hpp"

#include <algorithm>
#include <charconv>

#include "premium/premium_wire.hpp"

namespace platformpp::emulator {

namespace {

std::optional<std::uint64_t> parse_id(std::string_view text) {
  std::uint64_t id = 0;
  const auto* end = text.data() + text.size();
  if (text.empty() || std::from_chars(text.data(), end, id).ptr != end) return std::nullopt;
  return id;
}

template <class Map>
auto* find_by_id(Map& map, std::string_view text) {
  const auto id = parse_id(text);
  const auto it = id ? map.find(*id) : map.end();
  return it == map.end() ? nullptr : &it->second;
}

}  // namespace

PremiumModule::PremiumModule(ServiceContext& context, GatewayModule& gateway, WebhookModule& webhooks)
    : FeatureModule(context), gateway_(gateway), webhooks_(webhooks) {
  register_routes();
  register_admin_routes();
  register_documents();
}

Sku* PremiumModule::find_sku(std::string_view id) {
  return find_by_id(premium_.skus, id);
}

Entitlement* PremiumModule::find_entitlement(std::string_view id) {
  return find_by_id(premium_.entitlements, id);
}

Subscription* PremiumModule::find_subscription(std::string_view id) {
  return find_by_id(premium_.subscriptions, id);
}

bool PremiumModule::ended(const Entitlement& entitlement, std::int64_t now_ms) {
  return entitlement.ends_at_ms && *entitlement.ends_at_ms <= now_ms;
}

std::string PremiumModule::active_entitlements_json(std::string_view app_id, std::string_view user_id) const {
  const auto now = clock_.now_ms();
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto& [id, entitlement] : premium_.entitlements) {
      if (entitlement.app_id == app_id && entitlement.user_id == user_id && !entitlement.consumed &&
          !ended(entitlement, now))
        write_entitlement(writer, entitlement);
    }
    writer.EndArray();
  });
}

bool PremiumModule::sku_available(std::string_view app_id, std::string_view sku_id) const {
  return std::any_of(premium_.skus.begin(), premium_.skus.end(), [&](const auto& entry) {
    const auto& sku = entry.second;
    return sku.id == sku_id && sku.app_id == app_id && (sku.flags & sku_flag::kAvailable) != 0;
  });
}

bool PremiumModule::owns(const Sku& sku, const std::string& user_id) {
  const auto now = clock_.now_ms();
  if (sku.type == sku_type::kSubscription) {
    // One subscription to the application at a time: the plan change moves between its SKUs.
    for (const auto& [id, subscription] : premium_.subscriptions) {
      if (subscription.app_id == sku.app_id && subscription.user_id == user_id &&
          subscription.status != subscription_status::kInactive)
        return true;
    }
    return false;
  }
  for (const auto& [id, entitlement] : premium_.entitlements) {
    if (entitlement.sku_id != sku.id || entitlement.user_id != user_id || ended(entitlement, now)) continue;
    // A consumable can be bought again once consumed.
    if (sku.type == sku_type::kDurable || !entitlement.consumed) return true;
  }
  return false;
}

Entitlement& PremiumModule::add_entitlement(const Sku& sku, const std::string& user_id, int type,
                                            std::optional<std::int64_t> starts_at_ms,
                                            std::optional<std::int64_t> ends_at_ms) {
  const auto id = snowflakes_.next();
  Entitlement entitlement;
  entitlement.id = std::to_string(id);
  entitlement.sku_id = sku.id;
  entitlement.app_id = sku.app_id;
  entitlement.user_id = user_id;
  entitlement.type = type;
  entitlement.starts_at_ms = starts_at_ms;
  entitlement.ends_at_ms = ends_at_ms;
  auto& added = premium_.entitlements.emplace(id, std::move(entitlement)).first->second;
  changed(added);  // the caller may fill it in further in the same turn
  return added;
}

Subscription& PremiumModule::add_subscription(const Sku& sku, const std::string& user_id,
                                              std::int64_t start_ms) {
  const auto id = snowflakes_.next();
  Subscription subscription;
  subscription.id = std::to_string(id);
  subscription.app_id = sku.app_id;
  subscription.user_id = user_id;
  subscription.sku_ids = {sku.id};
  subscription.renewal_sku_ids = std::vector<std::string>{sku.id};
  subscription.period_start_ms = start_ms;
  subscription.period_end_ms = start_ms + kBillingPeriodMs;
  auto& added = premium_.subscriptions.emplace(id, std::move(subscription)).first->second;
  changed(added);  // the caller may fill it in further in the same turn
  return added;
}

void PremiumModule::dispatch(const std::string& app_id, const std::string& user_id, std::string_view type,
                             const std::string& d_json) {
  // Collected first: a dispatch must not run while the session map is being walked. A sharded bot gets the
  // events that belong to no guild on shard 0, as the platform sends them.
  std::vector<std::string> targets;
  for (const auto& [id, session] : gateway_.sessions()) {
    if (session.app_id != app_id) continue;
    if (session.bot ? session.shard_id == 0 : session.user_id == user_id) targets.push_back(id);
  }
  for (const auto& id : targets)
    gateway_.dispatch(id, type, d_json);
}

void PremiumModule::dispatch_entitlement(std::string_view type, const Entitlement& entitlement,
                                         bool deleted) {
  dispatch(entitlement.app_id, entitlement.user_id, type, entitlement_json(entitlement, deleted));
}

void PremiumModule::dispatch_subscription(std::string_view type, const Subscription& subscription) {
  dispatch(subscription.app_id, subscription.user_id, type, subscription_json(subscription));
}

void PremiumModule::entitlement_created(const Entitlement& entitlement) {
  dispatch_entitlement("ENTITLEMENT_CREATE", entitlement);
  std::string json = entitlement_json(entitlement);
  if (entitlement_created_listener_) entitlement_created_listener_(entitlement.app_id, json);
  webhooks_.emit(entitlement.app_id, "ENTITLEMENT_CREATE", std::move(json));
}

PremiumModule::PurchaseResult PremiumModule::purchase(const std::string& app_id, const std::string& user_id,
                                                      const std::string& sku_id) {
  sweep();
  PurchaseResult result;
  const auto* sku = find_sku(sku_id);
  if (sku == nullptr || sku->app_id != app_id || (sku->flags & sku_flag::kAvailable) == 0) {
    result.error = PurchaseError::unknown_sku;
    return result;
  }
  if (owns(*sku, user_id)) {
    result.error = PurchaseError::already_owned;
    return result;
  }
  const auto flow = premium_.purchase_flow.find(app_id);
  const auto outcome = flow == premium_.purchase_flow.end() ? PurchaseOutcome::complete : flow->second;
  if (outcome == PurchaseOutcome::cancel) {
    result.error = PurchaseError::canceled;
    return result;
  }
  if (outcome == PurchaseOutcome::fail) {
    result.error = PurchaseError::failed;
    return result;
  }
  const auto now = clock_.now_ms();
  auto& entitlement = add_entitlement(*sku, user_id, entitlement_type::kPurchase, now, std::nullopt);
  if (sku->type == sku_type::kSubscription) {
    auto& subscription = add_subscription(*sku, user_id, now);
    subscription.entitlement_ids = {entitlement.id};
    entitlement.subscription_id = subscription.id;
    result.subscription_id = subscription.id;
    dispatch_subscription("SUBSCRIPTION_CREATE", subscription);
  }
  entitlement_created(entitlement);
  result.entitlements_json = to_json([&](JsonWriter& writer) {
    writer.StartArray();
    write_entitlement(writer, entitlement);
    writer.EndArray();
  });
  return result;
}

void PremiumModule::sweep() {
  const auto now = clock_.now_ms();
  for (auto& [id, subscription] : premium_.subscriptions) {
    // A clock that jumped several months renews period by period (one SUBSCRIPTION_UPDATE each).
    while (subscription.status != subscription_status::kInactive && subscription.period_end_ms <= now) {
      if (subscription.status == subscription_status::kActive) {
        renew(subscription);
      } else {
        end(subscription, subscription.period_end_ms);
      }
    }
  }
}

void PremiumModule::renew(Subscription& subscription) {
  const auto at = subscription.period_end_ms;
  changed(subscription);
  subscription.period_start_ms = at;
  subscription.period_end_ms = at + kBillingPeriodMs;
  const auto* renewal_sku = subscription.renewal_sku_ids && !subscription.renewal_sku_ids->empty()
                                ? find_sku(subscription.renewal_sku_ids->front())
                                : nullptr;
  if (renewal_sku != nullptr && *subscription.renewal_sku_ids != subscription.sku_ids) {
    // The plan change takes effect: the old plan's entitlement ends now, the new plan's starts.
    for (const auto& entitlement_id : subscription.entitlement_ids) {
      if (auto* old = find_entitlement(entitlement_id)) {
        old->ends_at_ms = at;
        changed(*old);
        dispatch_entitlement("ENTITLEMENT_UPDATE", *old);
      }
    }
    auto& created =
        add_entitlement(*renewal_sku, subscription.user_id, entitlement_type::kPurchase, at, std::nullopt);
    created.subscription_id = subscription.id;
    subscription.sku_ids = {renewal_sku->id};
    subscription.entitlement_ids = {created.id};
    entitlement_created(created);
  } else {
    // Current behaviour: nothing happens to the entitlement. Only a legacy (type 8) one, not migrated yet,
    // still has its ends_at moved to the new period's end, with ENTITLEMENT_UPDATE, as before the migration.
    for (const auto& entitlement_id : subscription.entitlement_ids) {
      auto* entitlement = find_entitlement(entitlement_id);
      if (entitlement == nullptr || entitlement->type != entitlement_type::kApplicationSubscription) continue;
      entitlement->ends_at_ms = subscription.period_end_ms;
      changed(*entitlement);
      dispatch_entitlement("ENTITLEMENT_UPDATE", *entitlement);
    }
  }
  dispatch_subscription("SUBSCRIPTION_UPDATE", subscription);
}

void PremiumModule::end(Subscription& subscription, std::int64_t at_ms) {
  subscription.status = subscription_status::kInactive;
  subscription.renewal_sku_ids.reset();
  changed(subscription);
  for (const auto& entitlement_id : subscription.entitlement_ids) {
    if (auto* entitlement = find_entitlement(entitlement_id)) {
      entitlement->ends_at_ms = at_ms;
      changed(*entitlement);
      dispatch_entitlement("ENTITLEMENT_UPDATE", *entitlement);
    }
  }
  dispatch_subscription("SUBSCRIPTION_UPDATE", subscription);
}

Subscription& PremiumModule::add_legacy_subscription(const Sku& sku, const std::string& user_id) {
  const auto now = clock_.now_ms();
  auto& subscription = add_subscription(sku, user_id, now);
  auto& entitlement = add_entitlement(sku, user_id, entitlement_type::kApplicationSubscription, now,
                                      subscription.period_end_ms);
  entitlement.subscription_id = subscription.id;
  subscription.entitlement_ids = {entitlement.id};
  dispatch_subscription("SUBSCRIPTION_CREATE", subscription);
  entitlement_created(entitlement);
  return subscription;
}

void PremiumModule::migrate(Entitlement& entitlement) {
  entitlement.type = entitlement_type::kPurchase;
  entitlement.ends_at_ms.reset();
  changed(entitlement);
  entitlement_created(entitlement);
}

}  // namespace platformpp::emulator
