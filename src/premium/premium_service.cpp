#include "premium/premium_service.hpp"

#include "core/validation_result.hpp"
#include "json/json.hpp"
#include "net/http_result.hpp"
#include "premium/premium_json.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

namespace platformpp::premium {
namespace {

using Done = core::Completion<>;
using PurchaseDone = core::Completion<std::vector<Entitlement>>;

/// A page of GET /skus/{sku}/subscriptions; a full page asks for the next one.
constexpr int kSubscriptionPage = 100;

ClientResult NotReady(std::string why) {
  return ClientResult::Failure(ErrorType::ClientNotReady, std::move(why));
}

ClientResult Malformed(const std::string& what) {
  return ClientResult::Failure(ErrorType::HTTPError, "malformed response: " + what);
}

/// START_PURCHASE's failure as the game sees it: the checkout's own answers (5005 canceled, 5006 failed)
/// stay RPCError with their code; a desktop client that is not there is ClientNotReady.
ClientResult FromPurchaseReply(const ipc::IpcReply& reply) {
  ClientResult::Details details;
  details.errorCode = reply.errorCode;
  switch (reply.errorCode) {
    case ipc::IpcReply::kNotConnected:
      details.type = ErrorType::ClientNotReady;
      details.error = "StartPurchase: no desktop client connection: purchases go through the desktop client";
      break;
    case ipc::IpcReply::kTimeout:
    case ipc::IpcReply::kConnectionLost:
      // Not retryable: the player may have paid; the entitlement then arrives over the Gateway.
      details.type = ErrorType::NetworkError;
      details.error = "StartPurchase: the desktop client did not answer: " + reply.message;
      break;
    case kPurchaseCanceledErrorCode:
      details.type = ErrorType::RPCError;
      details.error = "StartPurchase: the player canceled the purchase: " + reply.message;
      break;
    case kPurchaseFailedErrorCode:
      details.type = ErrorType::RPCError;
      details.error = "StartPurchase: the purchase failed: " + reply.message;
      break;
    default:
      details.type = ErrorType::RPCError;
      details.error = "StartPurchase: the desktop client refused: " + reply.message;
      break;
  }
  return ClientResult(std::move(details));
}

std::string PurchaseArgs(uint64_t skuId) {
  json::Document args(rapidjson::kObjectType);
  auto& a = args.GetAllocator();
  std::string sku = std::to_string(skuId);
  args.AddMember("sku_id", json::Value(sku.c_str(), static_cast<rapidjson::SizeType>(sku.size()), a), a);
  args.AddMember("pid", static_cast<int64_t>(::getpid()), a);
  return json::Serialize(args);
}

}  // namespace

struct PremiumService::Load {
  PremiumStore::LoadTicket ticket;
  std::string authorization;
  uint64_t applicationId = 0;
  PremiumStore::Snapshot snapshot;
  std::vector<uint64_t> subscriptionSkus;  // still to list, the first one in progress
  std::optional<uint64_t> before;          // the next page of the first of subscriptionSkus
  std::shared_ptr<Done> done;              // null for the load after READY
};

PremiumService::PremiumService(core::Runtime& runtime, net::HttpClient& http, ipc::IpcLink& ipc)
    : runtime_(runtime), http_(http), ipc_(ipc), store_(runtime) {}

void PremiumService::OnDispatch(const gateway::Dispatch& dispatch) {
  if (store_.OnDispatch(dispatch)) StartLoad(nullptr);
}

bool PremiumService::HasEntitlement(uint64_t skuId) const {
  auto now = std::chrono::duration_cast<std::chrono::milliseconds>(runtime_.Now().time_since_epoch()).count();
  return now >= 0 && store_.Owns(skuId, static_cast<uint64_t>(now));
}

void PremiumService::Refresh(RefreshPremiumCallback callback) {
  auto started = runtime_.Start<>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  StartLoad(std::make_shared<Done>(std::move(*started)));
}

// --- Loading -----------------------------------------------------------------------------------------------

void PremiumService::StartLoad(std::shared_ptr<Done> done) {
  auto load = std::make_shared<Load>();
  load->done = std::move(done);
  load->applicationId = runtime_.applicationId.load();
  if (load->applicationId == 0)
    return FinishLoad(load, NotReady("no application id: call SetApplicationId first"));
  auto credentials = runtime_.credentials.Get();
  if (!credentials) return FinishLoad(load, NotReady("no token: call UpdateToken first"));
  load->authorization = credentials->Header();
  load->ticket = store_.BeginLoad();
  LoadSkus(load);
}

void PremiumService::Get(const std::shared_ptr<Load>& load, const std::string& path,
                         std::function<void(const json::Document&)> then) {
  net::HttpRequest request;
  request.url = runtime_.ApiUrl(path);
  request.headers.emplace_back("Authorization", load->authorization);
  http_.Send(std::move(request), [this, load, then = std::move(then)](const net::HttpResponse& response) {
    json::Document document;
    ClientResult result = net::ParseJsonResponse(response, document);
    if (!result.Successful()) return FinishLoad(load, std::move(result));
    then(document);
  });
}

void PremiumService::LoadSkus(const std::shared_ptr<Load>& load) {
  Get(load, "/applications/" + std::to_string(load->applicationId) + "/skus",
      [this, load](const json::Document& document) {
        auto skus = ParseList<Sku>(document, ParseSku);
        if (!skus) return FinishLoad(load, Malformed("not a list of SKUs"));
        for (const Sku& sku : *skus)
          if (sku.IsSubscription()) load->subscriptionSkus.push_back(sku.id);
        load->snapshot.skus = std::move(*skus);
        LoadEntitlements(load);
      });
}

void PremiumService::LoadEntitlements(const std::shared_ptr<Load>& load) {
  Get(load, "/users/@me/applications/" + std::to_string(load->applicationId) + "/entitlements",
      [this, load](const json::Document& document) {
        auto entitlements = ParseList<Entitlement>(document, ParseEntitlement);
        if (!entitlements) return FinishLoad(load, Malformed("not a list of entitlements"));
        load->snapshot.entitlements = std::move(*entitlements);
        LoadSubscriptions(load);
      });
}

void PremiumService::LoadSubscriptions(const std::shared_ptr<Load>& load) {
  if (load->subscriptionSkus.empty()) return FinishLoad(load, {});
  // Newest first (no `after`), then `before` the oldest of each full page.
  std::string path = "/skus/" + std::to_string(load->subscriptionSkus.front()) +
                     "/subscriptions?limit=" + std::to_string(kSubscriptionPage);
  if (load->before) path += "&before=" + std::to_string(*load->before);
  Get(load, path, [this, load](const json::Document& document) {
    auto page = ParseList<Subscription>(document, ParseSubscription);
    if (!page) return FinishLoad(load, Malformed("not a list of subscriptions"));
    load->before.reset();
    if (page->size() >= static_cast<std::size_t>(kSubscriptionPage)) {
      auto oldest =
          std::min_element(page->begin(), page->end(),
                           [](const Subscription& a, const Subscription& b) { return a.id < b.id; });
      load->before = oldest->id;
    }
    for (Subscription& subscription : *page)
      load->snapshot.subscriptions.push_back(std::move(subscription));
    if (!load->before) load->subscriptionSkus.erase(load->subscriptionSkus.begin());
    LoadSubscriptions(load);
  });
}

void PremiumService::FinishLoad(const std::shared_ptr<Load>& load, ClientResult result) {
  if (result.Successful()) {
    // One subscription listed under two SKUs (a plan change between pages) is kept once.
    auto& subscriptions = load->snapshot.subscriptions;
    std::sort(subscriptions.begin(), subscriptions.end(),
              [](const Subscription& a, const Subscription& b) { return a.id < b.id; });
    subscriptions.erase(
        std::unique(subscriptions.begin(), subscriptions.end(),
                    [](const Subscription& a, const Subscription& b) { return a.id == b.id; }),
        subscriptions.end());
    if (!store_.ApplyLoad(load->ticket, std::move(load->snapshot))) {
      // A later load (a new session, or another refresh) has replaced this one; it reports for itself.
      runtime_.Log().Verbose("premium: a load was overtaken by a later one");
      if (load->done) (*load->done)({});
      return;
    }
    runtime_.Log().Info("premium: SKUs, entitlements and subscriptions loaded");
  } else {
    runtime_.Log().Warning("premium: loading SKUs, entitlements and subscriptions failed: " +
                           result.ToString());
  }
  loaded.PostIfSet(runtime_.Queue(), result);
  if (load->done) (*load->done)(std::move(result));
}

// --- Purchase ----------------------------------------------------------------------------------------------

void PremiumService::StartPurchase(uint64_t skuId, StartPurchaseCallback callback) {
  auto started = runtime_.Start<std::vector<Entitlement>>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  if (skuId == 0) {
    return done(core::ValidationResult({FieldError{"skuId", "BASE_TYPE_REQUIRED", "skuId: must not be 0"}}),
                {});
  }
  uint64_t applicationId = runtime_.applicationId.load();
  if (applicationId == 0) return done(NotReady("no application id: call SetApplicationId first"), {});
  ipc::IpcConnection* ipc = ipc_.Connection(applicationId);
  if (!ipc) {
    return done(
        NotReady("StartPurchase: no desktop client connection (IPC is disabled in the ClientOptions): "
                 "purchases go through the desktop client"),
        {});
  }
  auto shared = std::make_shared<PurchaseDone>(std::move(done));
  ipc->WhenSettled([this, shared, skuId](bool ready) {
    ipc::IpcConnection* connection = ipc_.Existing();
    if (!ready || !connection) {
      return (*shared)(
          NotReady("StartPurchase: the desktop client is not running or did not answer: purchases "
                   "go through the desktop client"),
          {});
    }
    uint64_t generation = store_.Generation();
    runtime_.Log().Info("StartPurchase: asking the desktop client for SKU " + std::to_string(skuId));
    connection->Send("START_PURCHASE", PurchaseArgs(skuId), std::nullopt, kPurchaseTimeout,
                     [this, shared, generation](const ipc::IpcReply& reply) {
                       if (!reply.ok) {
                         ClientResult result = FromPurchaseReply(reply);
                         runtime_.Log().Info(result.Error());
                         return (*shared)(std::move(result), {});
                       }
                       json::Document data;
                       data.Parse(reply.dataJson.data(), reply.dataJson.size());
                       auto entitlements = data.HasParseError()
                                               ? std::nullopt
                                               : ParseList<Entitlement>(data, ParseEntitlement);
                       if (!entitlements) {
                         return (*shared)(ClientResult::Failure(ErrorType::RPCError,
                                                                "StartPurchase: the desktop client's answer "
                                                                "is not a list of entitlements"),
                                          {});
                       }
                       // In the store before the callback runs, whichever of this answer and the
                       // ENTITLEMENT_CREATE came first.
                       store_.ApplyEntitlements(*entitlements, generation);
                       (*shared)({}, std::move(*entitlements));
                     });
  });
}

}  // namespace platformpp::premium
