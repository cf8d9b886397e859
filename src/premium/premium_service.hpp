#pragma once
// What the Client does for premium apps beyond keeping the store (premium_store.hpp): loading it over HTTP
// with the player's token after every new Gateway session (and on RefreshPremium), and the purchase flow
// over RPC (START_PURCHASE to the desktop client, whose answer's entitlements go into the store under the
// same ordering rule as every answer). docs/premium-protocol.md, "The SDK".
//
// Threading: the public calls come from any thread; OnDispatch and every HTTP and IPC handler run on the
// network thread. The service itself holds no state beyond the store's; results reach the game through
// Completions and RegisteredCallbacks, inside RunCallbacks.

#include "core/completion.hpp"
#include "core/registered_callback.hpp"
#include "core/runtime.hpp"
#include "gateway/dispatch.hpp"
#include "ipc/ipc_link.hpp"
#include "net/http_client.hpp"
#include "premium/premium_store.hpp"

#include <platformpp/client_options.hpp>
#include <platformpp/premium.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

namespace platformpp::premium {

/// How long a checkout may stay open: a person is paying.
constexpr auto kPurchaseTimeout = std::chrono::minutes(15);

class PremiumService {
 public:
  PremiumService(core::Runtime& runtime, net::HttpClient& http, ipc::IpcLink& ipc);
  PremiumService(const PremiumService&) = delete;
  PremiumService& operator=(const PremiumService&) = delete;

  PremiumStore& Store() noexcept { return store_; }
  /// Whether the player owns `skuId` now (the Client's clock): an entitlement that has started and not ended.
  bool HasEntitlement(uint64_t skuId) const;
  const PremiumStore& Store() const noexcept { return store_; }

  /// The Gateway sink (network thread): the store first; a READY (a session that was not resumed) then
  /// loads the store again.
  void OnDispatch(const gateway::Dispatch& dispatch);

  /// Loads the store now (Client::RefreshPremium); `done` ends when the load did.
  void Refresh(RefreshPremiumCallback callback);
  /// Client::StartPurchase.
  void StartPurchase(uint64_t skuId, StartPurchaseCallback callback);

  /// Client::SetPremiumLoadedCallback: the end of every load, successful or not.
  core::RegisteredCallback<PremiumLoadedCallback> loaded;

 private:
  struct Load;
  void StartLoad(std::shared_ptr<core::Completion<>> done);
  void LoadSkus(const std::shared_ptr<Load>& load);
  void LoadEntitlements(const std::shared_ptr<Load>& load);
  void LoadSubscriptions(const std::shared_ptr<Load>& load);
  void FinishLoad(const std::shared_ptr<Load>& load, ClientResult result);
  void Get(const std::shared_ptr<Load>& load, const std::string& path,
           std::function<void(const json::Document&)> then);

  core::Runtime& runtime_;
  net::HttpClient& http_;
  ipc::IpcLink& ipc_;
  PremiumStore store_;
};

}  // namespace platformpp::premium
