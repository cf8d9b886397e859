#include "premium/premium_store.hpp"

#include "premium/premium_json.hpp"

#include <algorithm>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>

namespace platformpp::premium {
namespace {

enum class Kind {
  Ready,
  EntitlementCreate,
  EntitlementUpdate,
  EntitlementDelete,
  SubscriptionCreate,
  SubscriptionUpdate
};

// The events the store reads, in Kind's order.
constexpr gateway::DispatchClaim kClaims[] = {
    {"READY", "a new session: premium loads again"}, {"ENTITLEMENT_CREATE", "entitlement"},
    {"ENTITLEMENT_UPDATE", "entitlement"},           {"ENTITLEMENT_DELETE", "entitlement"},
    {"SUBSCRIPTION_CREATE", "subscription"},         {"SUBSCRIPTION_UPDATE", "subscription"},
};
static_assert(std::size(kClaims) == static_cast<std::size_t>(Kind::SubscriptionUpdate) + 1);

// ENTITLEMENT_DELETEs remembered against answers still in flight: beyond this many, those older than
// kDeletedKeptFor premium dispatches are forgotten (no request stays in flight that long).
constexpr std::size_t kMaxDeleted = 1024;
constexpr uint64_t kDeletedKeptFor = 10000;

template <class Map>
auto SortedValues(const Map& map) {
  std::vector<std::remove_cvref_t<decltype(map.begin()->second.value)>> values;
  values.reserve(map.size());
  for (const auto& [id, entry] : map)
    values.push_back(entry.value);
  std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return values;
}

}  // namespace

PremiumStore::PremiumStore(core::Runtime& runtime) : runtime_(runtime) {}

std::span<const gateway::DispatchClaim> PremiumStore::DispatchClaims() noexcept {
  return kClaims;
}

bool PremiumStore::OnDispatch(const gateway::Dispatch& dispatch) {
  std::optional<std::size_t> claim = gateway::FindClaim(kClaims, dispatch.type);
  if (!claim) return false;
  const json::Value* data = dispatch.DataOrWarn(runtime_.Log());
  if (data == nullptr) return false;
  std::lock_guard lock(mutex_);
  ++generation_;
  switch (static_cast<Kind>(*claim)) {
    case Kind::Ready:
      OnReady(*data);
      return true;
    case Kind::EntitlementCreate:
    case Kind::EntitlementUpdate:
    case Kind::EntitlementDelete:
      OnEntitlement(*data, dispatch.type);
      break;
    case Kind::SubscriptionCreate:
    case Kind::SubscriptionUpdate:
      OnSubscription(*data, dispatch.type);
      break;
  }
  return false;
}

// --- Dispatches (network thread, mutex_ held) -----------------------------------------------------------

void PremiumStore::OnReady(const json::Value& d) {
  uint64_t self = 0;
  if (const json::Value* user = json::Member(d, "user"); user && user->IsObject())
    self = json::GetSnowflake(*user, "id").value_or(0);
  if (self != selfId_) {
    // Another player (UpdateToken with someone else's token): nothing of the last one's state is theirs.
    // Forgotten quietly; this player's first load fills the store quietly too.
    skus_.clear();
    entitlements_.clear();
    subscriptions_.clear();
    deletedAt_.clear();
    loaded_ = false;
    selfId_ = self;
  }
}

void PremiumStore::OnEntitlement(const json::Value& d, std::string_view type) {
  std::optional<Entitlement> parsed = ParseEntitlement(d);
  if (!parsed) {
    runtime_.Log().Warning(std::string(type) + ": ignored, malformed entitlement");
    return;
  }
  if (!Ours(*parsed)) {
    runtime_.Log().Verbose(std::string(type) + ": ignored, another application's or player's");
    return;
  }
  uint64_t id = parsed->id;
  auto known = entitlements_.find(id);
  if (type == "ENTITLEMENT_DELETE") {
    Tombstone(id);
    if (known == entitlements_.end()) return;
    entitlements_.erase(known);
    parsed->deleted = true;
    callbacks.entitlementDeleted.PostIfSet(runtime_.Queue(), *parsed);
    return;
  }
  // A dispatch is the platform's latest word, also about an id it deleted before (it never sends that).
  deletedAt_.erase(id);
  if (known == entitlements_.end()) {
    entitlements_.emplace(id, Entry<Entitlement>{*parsed, generation_});
    callbacks.entitlementCreated.PostIfSet(runtime_.Queue(), *parsed);
    return;
  }
  known->second.touched = generation_;
  if (known->second.value == *parsed) return;  // what an answer already brought: announced then
  known->second.value = *parsed;
  callbacks.entitlementUpdated.PostIfSet(runtime_.Queue(), *parsed);
}

void PremiumStore::OnSubscription(const json::Value& d, std::string_view type) {
  std::optional<Subscription> parsed = ParseSubscription(d);
  if (!parsed) {
    runtime_.Log().Warning(std::string(type) + ": ignored, malformed subscription");
    return;
  }
  if (selfId_ != 0 && parsed->userId != selfId_) {
    runtime_.Log().Verbose(std::string(type) + ": ignored, another player's");
    return;
  }
  uint64_t id = parsed->id;
  auto known = subscriptions_.find(id);
  if (known == subscriptions_.end()) {
    subscriptions_.emplace(id, Entry<Subscription>{*parsed, generation_});
    callbacks.subscriptionCreated.PostIfSet(runtime_.Queue(), std::move(*parsed));
    return;
  }
  known->second.touched = generation_;
  if (known->second.value == *parsed) return;
  known->second.value = *parsed;
  callbacks.subscriptionUpdated.PostIfSet(runtime_.Queue(), std::move(*parsed));
}

bool PremiumStore::Ours(const Entitlement& entitlement) const {
  uint64_t application = runtime_.applicationId.load();
  if (application != 0 && entitlement.applicationId != application) return false;
  // The player's own: a guild's entitlement (user 0) or another user's is not theirs to own.
  return selfId_ == 0 || entitlement.userId == selfId_;
}

void PremiumStore::PutEntitlement(Entitlement value, uint64_t generation, bool announce) {
  if (deletedAt_.count(value.id)) return;  // deleted is final for answers
  auto known = entitlements_.find(value.id);
  if (known == entitlements_.end()) {
    uint64_t id = value.id;
    entitlements_.emplace(id, Entry<Entitlement>{value, generation});
    if (announce) callbacks.entitlementCreated.PostIfSet(runtime_.Queue(), value);
    return;
  }
  Entry<Entitlement>& entry = known->second;
  if (entry.touched > generation) return;  // a dispatch after the request saw a later state
  entry.touched = generation;
  if (entry.value == value) return;
  entry.value = value;
  if (announce) callbacks.entitlementUpdated.PostIfSet(runtime_.Queue(), value);
}

void PremiumStore::Tombstone(uint64_t id) {
  deletedAt_[id] = generation_;
  if (deletedAt_.size() > kMaxDeleted) {
    std::erase_if(deletedAt_,
                  [&](const auto& entry) { return entry.second + kDeletedKeptFor < generation_; });
  }
}

// --- Answers (any thread) ----------------------------------------------------------------------------------

PremiumStore::LoadTicket PremiumStore::BeginLoad() {
  std::lock_guard lock(mutex_);
  return LoadTicket{++loadSerial_, generation_, selfId_};
}

bool PremiumStore::ApplyLoad(const LoadTicket& ticket, Snapshot snapshot) {
  std::lock_guard lock(mutex_);
  if (ticket.serial != loadSerial_ || ticket.userId != selfId_) return false;
  const bool announce = loaded_;
  skus_ = std::move(snapshot.skus);

  std::unordered_set<uint64_t> listed;
  for (Entitlement& entitlement : snapshot.entitlements) {
    if (!Ours(entitlement)) continue;
    listed.insert(entitlement.id);
    PutEntitlement(entitlement, ticket.generation, announce);
  }
  // Gone from the platform's list, unless a dispatch brought it after the request was sent.
  std::vector<uint64_t> gone;
  for (const auto& [id, entry] : entitlements_)
    if (!listed.count(id) && entry.touched <= ticket.generation) gone.push_back(id);
  std::sort(gone.begin(), gone.end());
  for (uint64_t id : gone) {
    auto node = entitlements_.extract(id);
    node.mapped().value.deleted = true;
    if (announce) callbacks.entitlementDeleted.PostIfSet(runtime_.Queue(), node.mapped().value);
  }

  listed.clear();
  for (Subscription& subscription : snapshot.subscriptions) {
    if (selfId_ != 0 && subscription.userId != selfId_) continue;
    uint64_t id = subscription.id;
    listed.insert(id);
    auto known = subscriptions_.find(id);
    if (known == subscriptions_.end()) {
      subscriptions_.emplace(id, Entry<Subscription>{subscription, ticket.generation});
      if (announce) callbacks.subscriptionCreated.PostIfSet(runtime_.Queue(), std::move(subscription));
      continue;
    }
    if (known->second.touched > ticket.generation) continue;
    known->second.touched = ticket.generation;
    if (known->second.value == subscription) continue;
    known->second.value = subscription;
    if (announce) callbacks.subscriptionUpdated.PostIfSet(runtime_.Queue(), std::move(subscription));
  }
  // A subscription is never deleted on the platform (it ends as INACTIVE): one missing from the list is
  // dropped without a callback.
  std::erase_if(subscriptions_, [&](const auto& entry) {
    return !listed.count(entry.first) && entry.second.touched <= ticket.generation;
  });
  loaded_ = true;
  return true;
}

uint64_t PremiumStore::Generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

void PremiumStore::ApplyEntitlements(const std::vector<Entitlement>& entitlements, uint64_t generation) {
  std::lock_guard lock(mutex_);
  for (const Entitlement& entitlement : entitlements) {
    if (!Ours(entitlement)) continue;
    PutEntitlement(entitlement, generation, true);
  }
}

// --- Queries (any thread) ----------------------------------------------------------------------------------

bool PremiumStore::Loaded() const {
  std::lock_guard lock(mutex_);
  return loaded_;
}

std::vector<Sku> PremiumStore::Skus() const {
  std::lock_guard lock(mutex_);
  return skus_;
}

std::optional<Sku> PremiumStore::FindSku(uint64_t skuId) const {
  std::lock_guard lock(mutex_);
  for (const Sku& sku : skus_)
    if (sku.id == skuId) return sku;
  return std::nullopt;
}

std::vector<Entitlement> PremiumStore::Entitlements() const {
  std::lock_guard lock(mutex_);
  return SortedValues(entitlements_);
}

std::vector<Subscription> PremiumStore::Subscriptions() const {
  std::lock_guard lock(mutex_);
  return SortedValues(subscriptions_);
}

bool PremiumStore::Owns(uint64_t skuId, uint64_t nowMs) const {
  std::lock_guard lock(mutex_);
  return std::any_of(entitlements_.begin(), entitlements_.end(), [&](const auto& entry) {
    return entry.second.value.skuId == skuId && entry.second.value.ActiveAt(nowMs);
  });
}

}  // namespace platformpp::premium
