#pragma once
// The player's premium state in the Client: the application's SKUs, the player's entitlements and
// subscriptions. Filled by loads (HTTP answers, premium_service.hpp) and kept current by the Gateway's
// ENTITLEMENT_CREATE / UPDATE / DELETE and SUBSCRIPTION_CREATE / UPDATE. Written on the network thread, read
// from any thread under one mutex, which is never held while a callback runs; callbacks are queued after the
// state they announce is in place.
//
// One copy per id, and the ordering rule between dispatches and answers (docs/premium-protocol.md, "The
// SDK"): the store counts the premium dispatches it applied (its generation). A request takes the
// generation when it is sent; its answer may replace an object only when no dispatch touched that object
// since (the dispatch saw a later state of the platform than the answer can prove), and never brings back
// an entitlement an ENTITLEMENT_DELETE removed. Dispatches always apply: they arrive in order, once each.
//
// Callbacks announce changes of the store's copy: created when an id appears, updated when its copy
// changes, deleted when it goes. So an ENTITLEMENT_CREATE after the purchase answer that brought the same
// entitlement announces nothing, and a migration's ENTITLEMENT_CREATE of a known id is an update. The first
// load of a session for a player fills the store quietly (the loaded callback says it is there); a later
// load announces its differences.

#include "core/registered_callback.hpp"
#include "core/runtime.hpp"
#include "gateway/dispatch.hpp"
#include "gateway/dispatch_router.hpp"

#include <platformpp/premium.hpp>

#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace platformpp::premium {

class PremiumStore {
 public:
  explicit PremiumStore(core::Runtime& runtime);
  PremiumStore(const PremiumStore&) = delete;
  PremiumStore& operator=(const PremiumStore&) = delete;

  /// The Gateway sink (network thread). Returns true for a READY: a new session, which the service answers
  /// with a load (a resumed session gets RESUMED and the missed dispatches instead).
  bool OnDispatch(const gateway::Dispatch& dispatch);
  /// The events OnDispatch reads (gateway::DispatchRouter).
  static std::span<const gateway::DispatchClaim> DispatchClaims() noexcept;

  /// What a load needs to be applied later: which load it is and the generation when it was sent.
  struct LoadTicket {
    uint64_t serial = 0;
    uint64_t generation = 0;
    uint64_t userId = 0;  ///< READY's user; 0 before the first READY
  };
  /// Starts a load; a load started later makes this one's answer stale (ApplyLoad ignores it).
  LoadTicket BeginLoad();
  struct Snapshot {
    std::vector<Sku> skus;
    std::vector<Entitlement> entitlements;
    std::vector<Subscription> subscriptions;
  };
  /// A load's answer (any thread). False when it is stale (a later load was started) and nothing changed.
  bool ApplyLoad(const LoadTicket& ticket, Snapshot snapshot);
  /// The generation now: take it before sending a request whose answer goes to ApplyEntitlements.
  uint64_t Generation() const;
  /// Entitlements of an answer sent at `generation` (a purchase), each under the ordering rule.
  void ApplyEntitlements(const std::vector<Entitlement>& entitlements, uint64_t generation);

  // Queries (any thread).
  bool Loaded() const;
  std::vector<Sku> Skus() const;  ///< the application's order (the answer's)
  std::optional<Sku> FindSku(uint64_t skuId) const;
  std::vector<Entitlement> Entitlements() const;    ///< ascending id
  std::vector<Subscription> Subscriptions() const;  ///< ascending id
  /// Whether an entitlement for `skuId` is active at `nowMs` (Entitlement::ActiveAt).
  bool Owns(uint64_t skuId, uint64_t nowMs) const;

  /// The game's callbacks (Client::SetEntitlement*Callback, SetSubscription*Callback).
  struct Callbacks {
    core::RegisteredCallback<EntitlementCallback> entitlementCreated;
    core::RegisteredCallback<EntitlementCallback> entitlementUpdated;
    core::RegisteredCallback<EntitlementCallback> entitlementDeleted;
    core::RegisteredCallback<SubscriptionCallback> subscriptionCreated;
    core::RegisteredCallback<SubscriptionCallback> subscriptionUpdated;
  };
  Callbacks callbacks;

 private:
  template <class T>
  struct Entry {
    T value;
    uint64_t touched = 0;  // the generation of the last dispatch or answer that wrote it
  };

  // mutex_ held by these:
  void OnReady(const json::Value& d);
  void OnEntitlement(const json::Value& d, std::string_view type);
  void OnSubscription(const json::Value& d, std::string_view type);
  bool Ours(const Entitlement& entitlement) const;
  /// Writes `value` unless a dispatch after `generation` touched it (or deleted it); queues created /
  /// updated when the copy changed. `announce` false: quietly.
  void PutEntitlement(Entitlement value, uint64_t generation, bool announce);
  void Tombstone(uint64_t id);

  core::Runtime& runtime_;
  mutable std::mutex mutex_;
  uint64_t generation_ = 0;
  uint64_t loadSerial_ = 0;
  uint64_t selfId_ = 0;
  bool loaded_ = false;  // a load for selfId_ was applied
  std::vector<Sku> skus_;
  std::unordered_map<uint64_t, Entry<Entitlement>> entitlements_;
  std::unordered_map<uint64_t, Entry<Subscription>> subscriptions_;
  std::unordered_map<uint64_t, uint64_t>
      deletedAt_;  // entitlement id -> generation of its ENTITLEMENT_DELETE
};

}  // namespace platformpp::premium
