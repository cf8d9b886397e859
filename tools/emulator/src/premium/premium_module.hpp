// Premium apps (premium/, docs/premium-protocol.md "The contract the SDK and the emulator share"): SKUs per
// application, purchases, entitlements and subscriptions following the contract's state table, driven by the
// fake clock (30-day periods renew or end when the clock passes their end: on the Gateway's tick, after the
// admin clock moved, and before every premium route). It dispatches ENTITLEMENT_* / SUBSCRIPTION_* to the
// user's Gateway sessions of the application and to the application's bot sessions, and tells a listener of
// every entitlement created (the webhook events sender sends ENTITLEMENT_CREATE from it). SKUs, entitlements
// and subscriptions are kept in the state file (premium_documents.cpp); the purchase-flow outcomes are not.
//
// Its routes: the platform's (premium_routes.cpp) and the admin API's (premium_admin_routes.cpp). The
// desktop client's checkout (START_PURCHASE over IPC) calls purchase().
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/service_context.hpp"
#include "gateway/gateway_module.hpp"
#include "premium/premium_state.hpp"
#include "webhook/webhook_module.hpp"

namespace platformpp::emulator {

class PremiumModule : public FeatureModule, public GatewayListener {
 public:
  PremiumModule(ServiceContext& context, GatewayModule& gateway, WebhookModule& webhooks);

  // Every entitlement created (purchase, renewal onto a new plan, test entitlement, legacy seed) and every
  // migration goes to the Gateway, then to the application's webhook events URL as ENTITLEMENT_CREATE. The
  // listener (tests) hears each too, with the application's id and the entitlement object (JSON).
  using EntitlementCreatedListener =
      std::function<void(const std::string& app_id, const std::string& entitlement_json)>;
  void set_entitlement_created_listener(EntitlementCreatedListener listener) {
    entitlement_created_listener_ = std::move(listener);
  }

  enum class PurchaseError {
    none,
    canceled,       // the purchase-flow outcome is "cancel"
    failed,         // the purchase-flow outcome is "fail"
    unknown_sku,    // no such SKU in the application
    already_owned,  // a durable owned, a consumable not consumed yet, or a subscription ACTIVE or ENDING
  };
  struct PurchaseResult {
    PurchaseError error = PurchaseError::none;
    std::string entitlements_json = "[]";        // the entitlements it created (a JSON array)
    std::optional<std::string> subscription_id;  // the subscription it created
  };
  // The desktop client's checkout, completed headless per the application's purchase-flow outcome: what
  // START_PURCHASE and the admin purchase both do.
  PurchaseResult purchase(const std::string& app_id, const std::string& user_id, const std::string& sku_id);

  // What interactions show of premium (interactions/): the user's entitlements to the application that
  // have not ended and are not consumed (an interaction's `entitlements`, a JSON array), and whether a SKU
  // is the application's and available (a premium button's `sku_id` must be).
  [[nodiscard]] std::string active_entitlements_json(std::string_view app_id, std::string_view user_id) const;
  [[nodiscard]] bool sku_available(std::string_view app_id, std::string_view sku_id) const;

  // Subscriptions whose period the fake clock has passed renew (ACTIVE) or end (ENDING), period by period.
  void sweep();
  // GatewayListener: the sweep on the Gateway's tick.
  void tick() override { sweep(); }

 private:
  // ---- state and transitions (premium_module.cpp)
  [[nodiscard]] Sku* find_sku(std::string_view id);
  [[nodiscard]] Entitlement* find_entitlement(std::string_view id);
  [[nodiscard]] Subscription* find_subscription(std::string_view id);
  // Whether the user may not buy the SKU again now.
  [[nodiscard]] bool owns(const Sku& sku, const std::string& user_id);
  [[nodiscard]] static bool ended(const Entitlement& entitlement, std::int64_t now_ms);
  Entitlement& add_entitlement(const Sku& sku, const std::string& user_id, int type,
                               std::optional<std::int64_t> starts_at_ms,
                               std::optional<std::int64_t> ends_at_ms);
  Subscription& add_subscription(const Sku& sku, const std::string& user_id, std::int64_t start_ms);
  // ENTITLEMENT_CREATE to the Gateway, then the listener.
  void entitlement_created(const Entitlement& entitlement);
  // One dispatch to the user's sessions of the application and to the application's bot sessions.
  void dispatch(const std::string& app_id, const std::string& user_id, std::string_view type,
                const std::string& d_json);
  void dispatch_entitlement(std::string_view type, const Entitlement& entitlement, bool deleted = false);
  void dispatch_subscription(std::string_view type, const Subscription& subscription);
  // The period ended while ACTIVE: the next one starts (onto renewal_sku_ids when the plan changed).
  void renew(Subscription& subscription);
  // The subscription ends at `at_ms` (INACTIVE); its entitlements end then.
  void end(Subscription& subscription, std::int64_t at_ms);
  // The subscription entitlement of a legacy (pre-migration) subscription: type 8, ends_at = period end.
  Subscription& add_legacy_subscription(const Sku& sku, const std::string& user_id);
  // Type 8 -> 1, ends_at null, same id; ENTITLEMENT_CREATE marks the migration.
  void migrate(Entitlement& entitlement);

  // ---- the state file (premium_documents.cpp)
  // Registers the kinds of core/state_changes.hpp: SKUs, entitlements, subscriptions.
  void register_documents();
  // The entity's document was created, changed or removed (then touched after the erase).
  void changed(const Sku& sku);
  void changed(const Entitlement& entitlement);
  void changed(const Subscription& subscription);

  // ---- the platform's routes (premium_routes.cpp)
  void register_routes();
  // Who calls a route of `app_id`: its bot token, or (when `allow_user`) a user's bearer token of it. 401
  // without a valid token, 404 for an unknown application, 403 for another application's token or a user's
  // token where only the bot's is taken.
  std::variant<Principal, HttpResponse> authorize(const RouteContext& context, const std::string& app_id,
                                                  bool allow_user);
  HttpResponse api_list_skus(const RouteContext& context);
  HttpResponse api_list_entitlements(const RouteContext& context);
  HttpResponse api_create_test_entitlement(const RouteContext& context);
  HttpResponse api_get_entitlement(const RouteContext& context);
  HttpResponse api_delete_entitlement(const RouteContext& context);
  HttpResponse api_consume_entitlement(const RouteContext& context);
  HttpResponse api_my_entitlements(const RouteContext& context);
  HttpResponse api_list_subscriptions(const RouteContext& context);
  HttpResponse api_get_subscription(const RouteContext& context);

  // ---- the admin API (premium_admin_routes.cpp)
  void register_admin_routes();
  HttpResponse admin_create_skus(const RouteContext& context);
  // The body {user_id, sku_id} of the admin routes that act for a user of the route's application: the pair,
  // or the answer refusing it (unknown application or user, missing fields).
  struct UserAndSku {
    std::string user_id;
    std::string sku_id;
  };
  std::variant<UserAndSku, HttpResponse> read_user_and_sku(const RouteContext& context);
  HttpResponse admin_purchase(const RouteContext& context);
  HttpResponse admin_purchase_flow(const RouteContext& context);
  HttpResponse admin_cancel(const RouteContext& context);
  HttpResponse admin_end(const RouteContext& context);
  HttpResponse admin_renew(const RouteContext& context);
  HttpResponse admin_change_plan(const RouteContext& context);
  HttpResponse admin_legacy_subscription(const RouteContext& context);
  HttpResponse admin_migrate(const RouteContext& context);
  HttpResponse admin_state(const RouteContext& context);
  // The subscription of an admin route's {app}/{subscription_id}, or the error to answer.
  std::variant<Subscription*, HttpResponse> admin_subscription(const RouteContext& context);

  GatewayModule& gateway_;
  WebhookModule& webhooks_;
  PremiumState premium_;
  EntitlementCreatedListener entitlement_created_listener_;
};

}  // namespace platformpp::emulator
