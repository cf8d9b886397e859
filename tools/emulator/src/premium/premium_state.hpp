// Premium apps' plain data (premium/): SKUs, entitlements and subscriptions as the platform keeps them, and
// the numbers docs/premium-protocol.md fixes ("The contract the SDK and the emulator share"). PremiumModule
// owns one PremiumState and is the only one to change it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::emulator {

// PremiumModule's documents in the state file (core/state_changes.hpp, premium/premium_documents.cpp), each
// by the entity's own snowflake. The purchase-flow outcomes are not kept: they script what the player does in
// the desktop client's checkout (a test's set-up, like fault scripts), which the platform does not store;
// after a restart checkouts complete until an outcome is set again.
namespace document_kind {
inline constexpr std::string_view kSku = "sku";
inline constexpr std::string_view kEntitlement = "entitlement";
inline constexpr std::string_view kSubscription = "subscription";
}  // namespace document_kind

// SKU types (the platform's public numbers; the seed gives none). The group SKU (6) is not served.
namespace sku_type {
inline constexpr int kDurable = 2;
inline constexpr int kConsumable = 3;
inline constexpr int kSubscription = 5;
}  // namespace sku_type

namespace sku_flag {
inline constexpr std::uint32_t kAvailable = 1U << 2;
inline constexpr std::uint32_t kUserSubscription = 1U << 8;
}  // namespace sku_flag

namespace entitlement_type {
inline constexpr int kPurchase = 1;                 // one-time items, and subscriptions since the migration
inline constexpr int kApplicationSubscription = 8;  // a legacy subscription entitlement not yet migrated
}  // namespace entitlement_type

namespace subscription_status {
inline constexpr int kActive = 0;
inline constexpr int kInactive = 1;
inline constexpr int kEnding = 2;
}  // namespace subscription_status

// A billing period: 30 days of the fake clock.
inline constexpr std::int64_t kBillingPeriodMs = std::int64_t{30} * 24 * 60 * 60 * 1000;
// The pagination of the entitlement and subscription lists.
inline constexpr std::int64_t kPremiumListLimitMax = 100;

struct Sku {
  std::string id;
  std::string app_id;
  int type = sku_type::kDurable;
  std::string name;
  std::string slug;
  std::uint32_t flags = sku_flag::kAvailable;
};

struct Entitlement {
  std::string id;
  std::string sku_id;
  std::string app_id;
  std::string user_id;
  int type = entitlement_type::kPurchase;
  bool consumed = false;
  std::optional<std::int64_t> starts_at_ms;  // null for test entitlements
  std::optional<std::int64_t> ends_at_ms;    // null: indefinite
  bool test = false;                         // made by POST /applications/{app}/entitlements: deletable
  std::optional<std::string> subscription_id;
};

struct Subscription {
  std::string id;
  std::string app_id;
  std::string user_id;
  std::vector<std::string> sku_ids;
  std::vector<std::string> entitlement_ids;                 // the entitlement of the current plan
  std::optional<std::vector<std::string>> renewal_sku_ids;  // null once canceled
  std::int64_t period_start_ms = 0;
  std::int64_t period_end_ms = 0;
  int status = subscription_status::kActive;
  std::optional<std::int64_t> canceled_at_ms;
};

// What the desktop client's next checkouts do (POST /_emulator/applications/{app}/purchase-flow).
enum class PurchaseOutcome { complete, cancel, fail };

struct PremiumState {
  // By numeric id: the lists page in id order.
  std::map<std::uint64_t, Sku> skus;
  std::map<std::uint64_t, Entitlement> entitlements;
  std::map<std::uint64_t, Subscription> subscriptions;
  std::map<std::string, PurchaseOutcome> purchase_flow;  // by application id; complete when absent
};

}  // namespace platformpp::emulator
