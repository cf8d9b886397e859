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

/// What a SKU sells, with the platform's published numbers.
enum class SkuType : int32_t {
  Durable = 2,            ///< a one-time item kept forever
  Consumable = 3,         ///< a one-time item the game consumes
  Subscription = 5,       ///< a recurring subscription
  SubscriptionGroup = 6,  ///< the platform's own grouping of subscription SKUs
};

/// Bits of Sku::flags.
namespace sku_flags {
inline constexpr uint32_t kAvailable = 1u << 2;          ///< the SKU is available for purchase
inline constexpr uint32_t kGuildSubscription = 1u << 7;  ///< a subscription SKU for guilds
inline constexpr uint32_t kUserSubscription = 1u << 8;   ///< a subscription SKU for users
}  // namespace sku_flags

/// Something the platform sells for the application (Client::GetSkus).
struct Sku {
  uint64_t id = 0;                  ///< the SKU's id
  uint64_t applicationId = 0;       ///< the application that sells it
  SkuType type = SkuType::Durable;  ///< what it sells
  std::string name;                 ///< the name shown to customers
  std::string slug;                 ///< the SKU's URL slug, as the platform sends it
  uint32_t flags = 0;               ///< sku_flags bits

  /// Whether the SKU is a recurring subscription (type Subscription).
  bool IsSubscription() const noexcept { return type == SkuType::Subscription; }
  /// Whether every field is equal.
  bool operator==(const Sku&) const = default;
};

/// How an entitlement was granted, with the platform's published numbers; a value the platform sends that is
/// not listed here is kept as its number.
enum class EntitlementType : int32_t {
  Purchase = 1,                 ///< bought (one-time items and subscriptions), or a test entitlement
  ApplicationSubscription = 8,  ///< a legacy subscription entitlement (docs/premium-protocol.md)
  QuestReward = 10,             ///< a reward for completing a quest
};

/// The right to a SKU that a user (or a guild) holds, bought or granted (Client's premium store).
struct Entitlement {
  uint64_t id = 0;                                   ///< the entitlement's id
  uint64_t skuId = 0;                                ///< the SKU it grants
  uint64_t applicationId = 0;                        ///< the application of that SKU
  uint64_t userId = 0;                               ///< 0 for an entitlement owned by a guild
  uint64_t guildId = 0;                              ///< 0 unless a guild owns it
  EntitlementType type = EntitlementType::Purchase;  ///< how it was granted
  bool deleted = false;              ///< deleted by the platform (set in the deletion's EntitlementCallback)
  bool consumed = false;             ///< a consumable one-time purchase the game has consumed
  std::optional<uint64_t> startsAt;  ///< when it starts granting; empty: no start time
  std::optional<uint64_t> endsAt;    ///< empty: indefinite; set when a subscription ends

  /// Whether it grants its SKU at `nowMs`: not deleted, not consumed, started, not ended.
  bool ActiveAt(uint64_t nowMs) const noexcept {
    return !deleted && !consumed && (!startsAt || *startsAt <= nowMs) && (!endsAt || nowMs < *endsAt);
  }
  /// Whether every field is equal.
  bool operator==(const Entitlement&) const = default;
};

/// Where a subscription stands in its billing period.
enum class SubscriptionStatus : int32_t {
  Active = 0,    ///< renews at the end of the period
  Inactive = 1,  ///< ended
  Ending = 2,    ///< canceled: active until the end of the period, then ends
};

/// A player's recurring subscription to one of the application's subscription SKUs.
struct Subscription {
  uint64_t id = 0;                       ///< the subscription's id
  uint64_t userId = 0;                   ///< the subscriber
  std::vector<uint64_t> skuIds;          ///< the SKUs subscribed to in the current period
  std::vector<uint64_t> entitlementIds;  ///< the entitlements the subscription grants
  /// The SKUs the player will be subscribed to at renewal; empty when the platform sent null.
  std::optional<std::vector<uint64_t>> renewalSkuIds;
  uint64_t currentPeriodStart = 0;                         ///< when the current billing period started
  uint64_t currentPeriodEnd = 0;                           ///< when it ends (and renews, unless Ending)
  SubscriptionStatus status = SubscriptionStatus::Active;  ///< active, ending or ended
  std::optional<uint64_t> canceledAt;  ///< when the player canceled it; empty unless canceled
  std::optional<std::string> country;  ///< the purchase's country code, if sent

  /// Whether every field is equal.
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
