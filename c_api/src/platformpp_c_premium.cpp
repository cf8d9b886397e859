// The C ABI of premium apps. Nothing may throw across this boundary, and nothing thrown may vanish (see
// c_support.hpp). C views of the premium objects point into a holder that keeps their strings and id arrays:
// a snapshot handle, or a local that lives for the callback.
#include "c_support.hpp"

#include <platformpp/platformpp_c.h>

#include <string>
#include <vector>

using namespace platformpp::c_api;

namespace {

const uint64_t* Ids(const std::vector<uint64_t>& ids) {
  return ids.empty() ? nullptr : ids.data();
}

platformpp_sku ToC(const platformpp::Sku& sku) {
  return platformpp_sku{sku.id,    sku.applicationId, static_cast<platformpp_sku_type>(sku.type),
                        sku.flags, View(sku.name),    View(sku.slug)};
}

platformpp_entitlement ToC(const platformpp::Entitlement& e) {
  platformpp_entitlement out{};
  out.id = e.id;
  out.sku_id = e.skuId;
  out.application_id = e.applicationId;
  out.user_id = e.userId;
  out.guild_id = e.guildId;
  out.starts_at = e.startsAt.value_or(0);
  out.ends_at = e.endsAt.value_or(0);
  out.type = static_cast<platformpp_entitlement_type>(e.type);
  out.deleted = e.deleted ? 1 : 0;
  out.consumed = e.consumed ? 1 : 0;
  out.has_starts_at = e.startsAt ? 1 : 0;
  out.has_ends_at = e.endsAt ? 1 : 0;
  return out;
}

// `s` must outlive the view: its vectors and country are pointed into.
platformpp_subscription ToC(const platformpp::Subscription& s) {
  static const std::string kNone;
  platformpp_subscription out{};
  out.id = s.id;
  out.user_id = s.userId;
  out.current_period_start = s.currentPeriodStart;
  out.current_period_end = s.currentPeriodEnd;
  out.canceled_at = s.canceledAt.value_or(0);
  out.sku_ids = Ids(s.skuIds);
  out.sku_id_count = s.skuIds.size();
  out.entitlement_ids = Ids(s.entitlementIds);
  out.entitlement_id_count = s.entitlementIds.size();
  if (s.renewalSkuIds) {
    out.renewal_sku_ids = Ids(*s.renewalSkuIds);
    out.renewal_sku_id_count = s.renewalSkuIds->size();
  }
  out.country = View(s.country ? *s.country : kNone);
  out.status = static_cast<platformpp_subscription_status>(s.status);
  out.has_renewal_sku_ids = s.renewalSkuIds ? 1 : 0;
  out.has_canceled_at = s.canceledAt ? 1 : 0;
  return out;
}

template <class C>
const C* ListOut(const std::vector<C>& list, size_t* count) {
  if (count) *count = list.size();
  return list.empty() ? nullptr : list.data();
}

template <class Setter>
void SetEntitlementCallback(platformpp_client* client, const char* entry, platformpp_entitlement_fn callback,
                            void* user_data, platformpp_user_data_free_fn user_data_free, Setter set) {
  RegisterEventCallback(client, entry, callback, user_data, user_data_free, set, [](auto fn, auto owned) {
    return [fn, owned](const platformpp::Entitlement& entitlement) {
      platformpp_entitlement view = ToC(entitlement);
      fn(&view, owned->Get());
    };
  });
}

template <class Setter>
void SetSubscriptionCallback(platformpp_client* client, const char* entry,
                             platformpp_subscription_fn callback, void* user_data,
                             platformpp_user_data_free_fn user_data_free, Setter set) {
  RegisterEventCallback(client, entry, callback, user_data, user_data_free, set, [](auto fn, auto owned) {
    return [fn, owned](const platformpp::Subscription& subscription) {
      platformpp_subscription view = ToC(subscription);
      fn(&view, owned->Get());
    };
  });
}

}  // namespace

struct platformpp_premium_snapshot {
  std::vector<platformpp::Sku> skus;
  std::vector<platformpp::Entitlement> entitlements;
  std::vector<platformpp::Subscription> subscriptions;
  std::vector<platformpp_sku> skuViews;
  std::vector<platformpp_entitlement> entitlementViews;
  std::vector<platformpp_subscription> subscriptionViews;

  explicit platformpp_premium_snapshot(const platformpp::Client& client)
      : skus(client.GetSkus()),
        entitlements(client.GetEntitlements()),
        subscriptions(client.GetSubscriptions()) {
    // Views last: they point into the vectors above, which no longer change.
    for (const auto& sku : skus)
      skuViews.push_back(ToC(sku));
    for (const auto& entitlement : entitlements)
      entitlementViews.push_back(ToC(entitlement));
    for (const auto& subscription : subscriptions)
      subscriptionViews.push_back(ToC(subscription));
  }
  platformpp_premium_snapshot(const platformpp_premium_snapshot&) = delete;
  platformpp_premium_snapshot& operator=(const platformpp_premium_snapshot&) = delete;
};

extern "C" {

platformpp_premium_snapshot* platformpp_client_get_premium_snapshot(const platformpp_client* client) {
  if (!client) return nullptr;
  return GuardedOr(client->boundary.get(), __func__, static_cast<platformpp_premium_snapshot*>(nullptr),
                   [&] { return new platformpp_premium_snapshot(client->client); });
}

void platformpp_premium_snapshot_destroy(platformpp_premium_snapshot* snapshot) {
  delete snapshot;
}

const platformpp_sku* platformpp_premium_snapshot_skus(const platformpp_premium_snapshot* snapshot,
                                                       size_t* count) {
  if (!snapshot) {
    if (count) *count = 0;
    return nullptr;
  }
  return ListOut(snapshot->skuViews, count);
}

const platformpp_entitlement* platformpp_premium_snapshot_entitlements(
    const platformpp_premium_snapshot* snapshot, size_t* count) {
  if (!snapshot) {
    if (count) *count = 0;
    return nullptr;
  }
  return ListOut(snapshot->entitlementViews, count);
}

const platformpp_subscription* platformpp_premium_snapshot_subscriptions(
    const platformpp_premium_snapshot* snapshot, size_t* count) {
  if (!snapshot) {
    if (count) *count = 0;
    return nullptr;
  }
  return ListOut(snapshot->subscriptionViews, count);
}

int32_t platformpp_client_has_sku_entitlement(const platformpp_client* client, uint64_t sku_id) {
  if (!client) return 0;
  return GuardedOr(client->boundary.get(), __func__, int32_t{0},
                   [&] { return client->client.HasSkuEntitlement(sku_id) ? int32_t{1} : int32_t{0}; });
}

int32_t platformpp_client_is_premium_loaded(const platformpp_client* client) {
  if (!client) return 0;
  return GuardedOr(client->boundary.get(), __func__, int32_t{0},
                   [&] { return client->client.IsPremiumLoaded() ? int32_t{1} : int32_t{0}; });
}

void platformpp_client_refresh_premium(platformpp_client* client, platformpp_result_fn callback,
                                       void* user_data, platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free,
                  [&](auto done) { client->client.RefreshPremium(std::move(done)); });
}

void platformpp_client_start_purchase(platformpp_client* client, uint64_t sku_id,
                                      platformpp_entitlements_result_fn callback, void* user_data,
                                      platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(
      client->boundary, __func__, callback, user_data, user_data_free, nullptr,
      [&](const OperationPtr<platformpp_entitlements_result_fn>& op) {
        client->client.StartPurchase(
            sku_id, [op](platformpp::ClientResult result, const std::vector<platformpp::Entitlement>& list) {
              auto purchased = op->Claim();
              if (!purchased) return;
              std::vector<platformpp_entitlement> views;
              try {
                views.reserve(list.size());
                for (const auto& entitlement : list)
                  views.push_back(ToC(entitlement));
              } catch (...) {
                platformpp_client_result failed{op->Fail(std::current_exception())};
                return purchased(&failed, nullptr, 0, op->Data());
              }
              platformpp_client_result view{std::move(result)};
              purchased(&view, views.empty() ? nullptr : views.data(), views.size(), op->Data());
            });
      });
}

void platformpp_client_set_premium_loaded_callback(platformpp_client* client, platformpp_result_fn callback,
                                                   void* user_data,
                                                   platformpp_user_data_free_fn user_data_free) {
  RegisterEventCallback(
      client, __func__, callback, user_data, user_data_free,
      [&](auto cb) { client->client.SetPremiumLoadedCallback(std::move(cb)); },
      [](auto fn, auto owned) {
        return [fn, owned](platformpp::ClientResult result) {
          platformpp_client_result view{std::move(result)};
          fn(&view, owned->Get());
        };
      });
}

void platformpp_client_set_entitlement_created_callback(platformpp_client* client,
                                                        platformpp_entitlement_fn callback, void* user_data,
                                                        platformpp_user_data_free_fn user_data_free) {
  SetEntitlementCallback(client, __func__, callback, user_data, user_data_free,
                         [&](auto cb) { client->client.SetEntitlementCreatedCallback(std::move(cb)); });
}

void platformpp_client_set_entitlement_updated_callback(platformpp_client* client,
                                                        platformpp_entitlement_fn callback, void* user_data,
                                                        platformpp_user_data_free_fn user_data_free) {
  SetEntitlementCallback(client, __func__, callback, user_data, user_data_free,
                         [&](auto cb) { client->client.SetEntitlementUpdatedCallback(std::move(cb)); });
}

void platformpp_client_set_entitlement_deleted_callback(platformpp_client* client,
                                                        platformpp_entitlement_fn callback, void* user_data,
                                                        platformpp_user_data_free_fn user_data_free) {
  SetEntitlementCallback(client, __func__, callback, user_data, user_data_free,
                         [&](auto cb) { client->client.SetEntitlementDeletedCallback(std::move(cb)); });
}

void platformpp_client_set_subscription_created_callback(platformpp_client* client,
                                                         platformpp_subscription_fn callback, void* user_data,
                                                         platformpp_user_data_free_fn user_data_free) {
  SetSubscriptionCallback(client, __func__, callback, user_data, user_data_free,
                          [&](auto cb) { client->client.SetSubscriptionCreatedCallback(std::move(cb)); });
}

void platformpp_client_set_subscription_updated_callback(platformpp_client* client,
                                                         platformpp_subscription_fn callback, void* user_data,
                                                         platformpp_user_data_free_fn user_data_free) {
  SetSubscriptionCallback(client, __func__, callback, user_data, user_data_free,
                          [&](auto cb) { client->client.SetSubscriptionUpdatedCallback(std::move(cb)); });
}

}  // extern "C"
