#pragma once
// Premium apps: what the platform sells for an application (SKUs), what a player owns (entitlements) and the
// player's subscriptions, as the Client keeps them current and as `platformpp::backend` lists them.
// Wire choices are in docs/premium-protocol.md. Times are milliseconds since the Unix epoch.

#include <platformpp/client_result.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {

/// What a SKU sells. The seed names the kinds; the numbers are the platform's published ones.
enum class SkuType : int32_t {
  Durable = 2,            ///< a one-time item kept forever
  Consumable = 3,         ///< a one-time item the game consumes
  Subscription = 5,       ///< a recurring subscription
  SubscriptionGroup = 6,  ///< the platform's own grouping of subscription SKUs
};

/// Bits of Sku::flags.
namespace sku_flags {
inline constexpr uint32_t kAvailable = 1u << 2;
inline constexpr uint32_t kGuildSubscription = 1u << 7;
inline constexpr uint32_t kUserSubscription = 1u << 8;
}  // namespace sku_flags

struct Sku {
  uint64_t id = 0;
  uint64_t applicationId = 0;
  SkuType type = SkuType::Durable;
  std::string name;
  std::string slug;
  uint32_t flags = 0;

  bool IsSubscription() const noexcept { return type == SkuType::Subscription; }
  bool operator==(const Sku&) const = default;
};

/// How an entitlement was granted. The seed names Purchase and ApplicationSubscription; other values the
/// platform sends are kept as their number.
enum class EntitlementType : int32_t {
  Purchase = 1,
  ApplicationSubscription = 8,
  QuestReward = 10,
};

struct Entitlement {
  uint64_t id = 0;
  uint64_t skuId = 0;
  uint64_t applicationId = 0;
  uint64_t userId = 0;   ///< 0 for an entitlement owned by a guild
  uint64_t guildId = 0;  ///< 0 unless a guild owns it
  EntitlementType type = EntitlementType::Purchase;
  bool deleted = false;
  bool consumed = false;  ///< a consumable one-time purchase the game has consumed
  std::optional<uint64_t> startsAt;
  std::optional<uint64_t> endsAt;  ///< empty: indefinite; set when a subscription ends

  /// Whether it grants its SKU at `nowMs`: not deleted, not consumed, started, not ended.
  bool ActiveAt(uint64_t nowMs) const noexcept {
    return !deleted && !consumed && (!startsAt || *startsAt <= nowMs) && (!endsAt || nowMs < *endsAt);
  }
  bool operator==(const Entitlement&) const = default;
};

enum class SubscriptionStatus : int32_t {
  Active = 0,    ///< renews at the end of the period
  Inactive = 1,  ///< ended
  Ending = 2,    ///< canceled: active until the end of the period, then ends
};

struct Subscription {
  uint64_t id = 0;
  uint64_t userId = 0;
  std::vector<uint64_t> skuIds;
  std::vector<uint64_t> entitlementIds;
  /// The SKUs the player will be subscribed to at renewal; empty when the platform sent null.
  std::optional<std::vector<uint64_t>> renewalSkuIds;
  uint64_t currentPeriodStart = 0;
  uint64_t currentPeriodEnd = 0;
  SubscriptionStatus status = SubscriptionStatus::Active;
  std::optional<uint64_t> canceledAt;
  std::optional<std::string> country;

  bool operator==(const Subscription&) const = default;
};

/// ClientResult::ErrorCode() of a StartPurchase that did not buy anything (ErrorType::RPCError): the desktop
/// client's answers, docs/premium-protocol.md.
inline constexpr int32_t kPurchaseCanceledErrorCode = 5005;  ///< the player closed the checkout
inline constexpr int32_t kPurchaseFailedErrorCode = 5006;    ///< the payment failed

// The callbacks of Client's premium calls (also reachable as Client::<name>), inside RunCallbacks.

/// Client::SetPremiumLoadedCallback: the end of a load of SKUs, entitlements and subscriptions.
using PremiumLoadedCallback = std::function<void(ClientResult result)>;
/// Client::RefreshPremium.
using RefreshPremiumCallback = std::function<void(ClientResult result)>;
/// An entitlement was created, updated or deleted in the Client's store.
using EntitlementCallback = std::function<void(Entitlement entitlement)>;
/// A subscription was created or updated in the Client's store.
using SubscriptionCallback = std::function<void(Subscription subscription)>;
/// Client::StartPurchase: the entitlements the purchase created.
using StartPurchaseCallback = std::function<void(ClientResult result, std::vector<Entitlement> entitlements)>;

}  // namespace platformpp
