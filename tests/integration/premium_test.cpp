// Premium apps against an emulator of their own (these tests move its fake clock by months, which the shared
// emulator's other tests must not see): the Client's store loaded on Ready, purchases over IPC (complete,
// cancel, fail, already owned, no desktop client), ENTITLEMENT_CREATE reaching the callback once, a month
// passing (a renewal: no entitlement callback), cancel (still owned) and end (ends_at, no longer owned); the
// backend's premium routes with their filters, pagination and limits (each crossed by one, nothing sent when
// refused), a consumable consumed once then refused, test entitlements created and deleted.
#include <platformpp/backend.hpp>
#include <platformpp/client.hpp>
#include <platformpp/premium.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace premium_test {

namespace {

using platformpp::Client;
using platformpp::ClientResult;
using platformpp::Entitlement;
using platformpp::ErrorType;
using platformpp::Sku;
using platformpp::Subscription;
using platformpp::SubscriptionStatus;
using platformpp::backend::BackendClient;
using Admin = platformpp::testkit::EmulatorAdmin;
using namespace std::chrono_literals;

constexpr auto kMonth = std::chrono::hours(24 * 30);

struct PremiumEmulator {
  std::unique_ptr<platformpp::testkit::EmulatorProcess> process;
  std::unique_ptr<Admin> admin;
  // The fake clock as the Clients read it (ClientOptions::clock): set from the emulator whenever a test moves
  // it.
  std::shared_ptr<std::atomic<int64_t>> nowMs = std::make_shared<std::atomic<int64_t>>(0);

  void SyncClock() { nowMs->store(admin->ClockMs()); }
};

PremiumEmulator& Emulator() {
  static PremiumEmulator emulator = [] {
    PremiumEmulator e;
    platformpp::testkit::EmulatorProcess::Options options;
    options.binary = PLATFORMPP_EMULATOR_PATH;
    options.ipcName = "platformpp-premium";
    // Frozen: the Clients' clock (nowMs) is the emulator's exactly, so "owned now" means the same on both
    // sides (a purchase starts at the emulator's now; an ended subscription's entitlement ends at it).
    options.extraArguments = {"--frozen-clock"};
    e.process = platformpp::testkit::EmulatorProcess::Start(options);
    e.admin = std::make_unique<Admin>(e.process->Connection());
    e.SyncClock();
    return e;
  }();
  return emulator;
}

std::string UniqueName(const std::string& base) {
  static std::atomic<int> counter{0};
  return base + std::to_string(counter++);
}

/// An application with a durable, a consumable and two subscription SKUs.
struct Game {
  Admin::App app;
  uint64_t durable = 0, consumable = 0, monthly = 0, yearly = 0;

  Game() {
    auto& e = Emulator();
    app = e.admin->CreateApp(UniqueName("Premium Game "));
    auto ids = e.admin->CreateSkus(app.id, {{"Sword", Admin::SkuType::Durable},
                                            {"Potion", Admin::SkuType::Consumable},
                                            {"Monthly", Admin::SkuType::Subscription},
                                            {"Yearly", Admin::SkuType::Subscription}});
    REQUIRE(ids.size() == 4);
    durable = ids[0];
    consumable = ids[1];
    monthly = ids[2];
    yearly = ids[3];
  }
};

bool RunUntil(const std::vector<Client*>& clients, const std::function<bool()>& done,
              std::chrono::milliseconds timeout = 10s) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    for (Client* client : clients)
      client->RunCallbacks();
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

void RunFor(Client& client, std::chrono::milliseconds duration) {
  auto until = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < until) {
    client.RunCallbacks();
    std::this_thread::sleep_for(1ms);
  }
}

/// A player of `game` with a Client that records every premium callback.
struct Player {
  Admin::User user;
  std::unique_ptr<Client> client;
  std::vector<ClientResult> loads;
  std::vector<Entitlement> created, updated, deleted;
  std::vector<Subscription> subscriptionsCreated, subscriptionsUpdated;

  Player(const Game& game, bool ipc = true) {
    auto& e = Emulator();
    user = e.admin->CreateUser(UniqueName("premium_player"));
    platformpp::ClientOptions options = e.process->Connection().ClientOptionsFor();
    options.ipcEnabled = ipc;
    options.clock = [now = e.nowMs] {
      return std::chrono::system_clock::time_point(std::chrono::milliseconds(now->load()));
    };
    client = std::make_unique<Client>(options);
    client->SetApplicationId(game.app.id);
    client->SetPremiumLoadedCallback([this](ClientResult result) { loads.push_back(std::move(result)); });
    client->SetEntitlementCreatedCallback([this](Entitlement x) { created.push_back(x); });
    client->SetEntitlementUpdatedCallback([this](Entitlement x) { updated.push_back(x); });
    client->SetEntitlementDeletedCallback([this](Entitlement x) { deleted.push_back(x); });
    client->SetSubscriptionCreatedCallback(
        [this](Subscription s) { subscriptionsCreated.push_back(std::move(s)); });
    client->SetSubscriptionUpdatedCallback(
        [this](Subscription s) { subscriptionsUpdated.push_back(std::move(s)); });
    std::string token = e.admin->MintToken(user.id, game.app.id, "openid sdk.social_layer").accessToken;
    bool updatedToken = false;
    client->UpdateToken(platformpp::AuthorizationTokenType::Bearer, token,
                        [&](const ClientResult& result) { updatedToken = result.Successful(); });
    REQUIRE(RunUntil({client.get()}, [&] { return updatedToken; }));
  }

  /// Connects and waits for the first load.
  void ConnectAndLoad() {
    client->Connect();
    REQUIRE(RunUntil(
        {client.get()}, [&] { return !loads.empty(); }, 20s));
    REQUIRE_MESSAGE(loads.back().Successful(), loads.back().ToString());
    CHECK(client->IsPremiumLoaded());
  }

  std::pair<ClientResult, std::vector<Entitlement>> Purchase(uint64_t skuId) {
    std::optional<std::pair<ClientResult, std::vector<Entitlement>>> out;
    bool ownedInCallback = false;
    client->StartPurchase(skuId, [&](ClientResult result, std::vector<Entitlement> entitlements) {
      ownedInCallback = client->HasSkuEntitlement(skuId);  // in the store before the callback
      out.emplace(std::move(result), std::move(entitlements));
    });
    REQUIRE(RunUntil(
        {client.get()}, [&] { return out.has_value(); }, 20s));
    if (out->first.Successful()) CHECK(ownedInCallback);
    return std::move(*out);
  }

  size_t Count(uint64_t entitlementId) const {
    auto all = client->GetEntitlements();
    return static_cast<size_t>(
        std::count_if(all.begin(), all.end(), [&](const Entitlement& e) { return e.id == entitlementId; }));
  }
};

/// The desktop client's logged-in user (who START_PURCHASE buys for) for the test's duration.
struct DesktopUser {
  explicit DesktopUser(uint64_t userId) { Emulator().admin->SetConsent(userId); }
  ~DesktopUser() { Emulator().admin->SetPurchaseFlow(app, Admin::PurchaseFlow::Complete); }
  uint64_t app = 0;
};

/// A BackendClient with the application's bot token; its log lines are kept (requests are logged).
struct Backend {
  std::unique_ptr<BackendClient> client;
  std::vector<std::string> logs;

  explicit Backend(const Game& game, bool withApplicationId = true) {
    auto& e = Emulator();
    platformpp::backend::BackendOptions options;
    options.apiBase = e.process->Connection().apiBase;
    options.caFile = e.process->Connection().caFile;
    options.botToken = game.app.botToken;
    if (withApplicationId) options.applicationId = game.app.id;
    client = std::make_unique<BackendClient>(std::move(options));
    client->AddLogCallback(
        [this](const std::string& message, platformpp::LoggingSeverity) { logs.push_back(message); },
        platformpp::LoggingSeverity::Verbose);
  }

  template <class... Args, class Start>
  std::pair<ClientResult, std::tuple<Args...>> Call(Start start) {
    auto out = std::make_shared<std::optional<std::pair<ClientResult, std::tuple<Args...>>>>();
    start([out](ClientResult result, Args... args) {
      *out = std::make_pair(std::move(result), std::make_tuple(std::move(args)...));
    });
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!out->has_value() && std::chrono::steady_clock::now() < deadline) {
      client->WaitForCallbacks(50);
      client->RunCallbacks();
    }
    REQUIRE(out->has_value());
    return std::move(**out);
  }

  std::pair<ClientResult, std::vector<Entitlement>> List(
      const platformpp::backend::EntitlementFilters& filters) {
    auto answer = Call<std::vector<Entitlement>>([&](auto cb) { client->ListEntitlements(filters, cb); });
    return {answer.first, std::get<0>(answer.second)};
  }

  /// Log lines that name `what` (a request of a route is logged with its path).
  size_t Mentions(const std::string& what) const {
    return static_cast<size_t>(std::count_if(logs.begin(), logs.end(), [&](const std::string& line) {
      return line.find(what) != std::string::npos;
    }));
  }
};

std::vector<uint64_t> IdsOf(const std::vector<Entitlement>& list) {
  std::vector<uint64_t> ids;
  ids.reserve(list.size());
  for (const auto& e : list)
    ids.push_back(e.id);
  return ids;
}

}  // namespace

TEST_CASE("premium: the store loads on Ready; ownership is answered from it without a request") {
  auto& e = Emulator();
  Game game;
  Player player(game);
  auto sword = e.admin->Purchase(game.app.id, player.user.id, game.durable);
  auto monthly = e.admin->Purchase(game.app.id, player.user.id, game.monthly);
  REQUIRE(sword.entitlementIds.size() == 1);
  REQUIRE(monthly.subscriptionId != 0);
  CHECK_FALSE(player.client->IsPremiumLoaded());
  e.SyncClock();

  player.ConnectAndLoad();
  auto skus = player.client->GetSkus();
  REQUIRE(skus.size() == 4);
  CHECK(skus[0].id == game.durable);
  CHECK(skus[0].type == platformpp::SkuType::Durable);
  CHECK(skus[1].type == platformpp::SkuType::Consumable);
  CHECK(skus[2].IsSubscription());
  CHECK(skus[2].name == "Monthly");
  CHECK(player.client->GetSku(game.yearly)->name == "Yearly");
  auto entitlements = player.client->GetEntitlements();
  REQUIRE(entitlements.size() == 2);
  for (const auto& entitlement : entitlements) {
    CHECK(entitlement.userId == player.user.id);
    CHECK(entitlement.type == platformpp::EntitlementType::Purchase);
    CHECK_FALSE(entitlement.endsAt);  // indefinite
  }
  auto subscriptions = player.client->GetSubscriptions();
  REQUIRE(subscriptions.size() == 1);
  CHECK(subscriptions[0].id == monthly.subscriptionId);
  CHECK(subscriptions[0].status == SubscriptionStatus::Active);
  CHECK(subscriptions[0].skuIds == std::vector<uint64_t>{game.monthly});
  CHECK(player.client->HasSkuEntitlement(game.durable));
  CHECK(player.client->HasSkuEntitlement(game.monthly));
  CHECK_FALSE(player.client->HasSkuEntitlement(game.consumable));
  CHECK_FALSE(player.client->HasSkuEntitlement(game.yearly));
  // The first load is quiet: the loaded callback said it.
  CHECK(player.created.empty());
  CHECK(player.subscriptionsCreated.empty());
  CHECK(player.loads.size() == 1);

  // RefreshPremium loads again; nothing changed, so nothing is announced.
  std::optional<ClientResult> refreshed;
  player.client->RefreshPremium([&](ClientResult result) { refreshed = std::move(result); });
  REQUIRE(RunUntil({player.client.get()}, [&] { return refreshed.has_value(); }));
  CHECK(refreshed->Successful());
  CHECK(player.loads.size() == 2);
  CHECK(player.created.empty());
  CHECK(player.updated.empty());
}

TEST_CASE("premium: purchases over IPC complete, cancel and fail distinctly; each entitlement once") {
  auto& e = Emulator();
  Game game;
  Player player(game);
  DesktopUser desktop(player.user.id);
  desktop.app = game.app.id;
  player.ConnectAndLoad();
  e.SyncClock();

  auto purchase = player.Purchase(game.durable);
  const ClientResult& bought = purchase.first;
  const std::vector<Entitlement>& entitlements = purchase.second;
  REQUIRE_MESSAGE(bought.Successful(), bought.ToString());
  REQUIRE(entitlements.size() == 1);
  const uint64_t id = entitlements[0].id;
  CHECK(entitlements[0].skuId == game.durable);
  CHECK(entitlements[0].userId == player.user.id);
  // The answer and the ENTITLEMENT_CREATE both arrive: one copy, one callback.
  REQUIRE(RunUntil({player.client.get()}, [&] { return !player.created.empty(); }));
  RunFor(*player.client, 500ms);
  CHECK(player.created.size() == 1);
  CHECK(player.created[0].id == id);
  CHECK(player.updated.empty());
  CHECK(player.Count(id) == 1);
  CHECK(player.client->HasSkuEntitlement(game.durable));

  // A durable item owned cannot be bought again (the desktop client's 5008).
  auto again = player.Purchase(game.durable).first;
  CHECK(again.Type() == ErrorType::RPCError);
  CHECK(again.ErrorCode() == 5008);

  e.admin->SetPurchaseFlow(game.app.id, Admin::PurchaseFlow::Cancel);
  auto canceled = player.Purchase(game.consumable);
  CHECK(canceled.first.Type() == ErrorType::RPCError);
  CHECK(canceled.first.ErrorCode() == platformpp::kPurchaseCanceledErrorCode);
  CHECK(canceled.second.empty());

  e.admin->SetPurchaseFlow(game.app.id, Admin::PurchaseFlow::Fail);
  auto failed = player.Purchase(game.consumable);
  CHECK(failed.first.Type() == ErrorType::RPCError);
  CHECK(failed.first.ErrorCode() == platformpp::kPurchaseFailedErrorCode);
  RunFor(*player.client, 300ms);
  CHECK(player.created.size() == 1);  // neither created anything
  CHECK_FALSE(player.client->HasSkuEntitlement(game.consumable));

  e.admin->SetPurchaseFlow(game.app.id, Admin::PurchaseFlow::Complete);
  auto subscription = player.Purchase(game.monthly);
  const ClientResult& subscribed = subscription.first;
  const std::vector<Entitlement>& subscriptionEntitlements = subscription.second;
  REQUIRE_MESSAGE(subscribed.Successful(), subscribed.ToString());
  REQUIRE(subscriptionEntitlements.size() == 1);
  REQUIRE(RunUntil({player.client.get()}, [&] { return player.subscriptionsCreated.size() == 1; }));
  CHECK(player.subscriptionsCreated[0].skuIds == std::vector<uint64_t>{game.monthly});
  RunFor(*player.client, 300ms);
  CHECK(player.created.size() == 2);
  CHECK(player.Count(subscriptionEntitlements[0].id) == 1);
}

TEST_CASE("premium: without a desktop client a purchase is ClientNotReady, and nothing is bought") {
  Game game;
  Player noIpc(game, /*ipc=*/false);
  auto result = noIpc.Purchase(game.durable).first;
  CHECK(result.Type() == ErrorType::ClientNotReady);
  CHECK(result.Error().find("desktop client") != std::string::npos);
  auto zero = noIpc.Purchase(0).first;
  CHECK(zero.Type() == ErrorType::ValidationError);
}

TEST_CASE("premium: an entitlement granted elsewhere reaches the callback once, and is owned") {
  auto& e = Emulator();
  Game game;
  Player player(game);
  player.ConnectAndLoad();
  e.SyncClock();
  auto bought = e.admin->Purchase(game.app.id, player.user.id, game.durable);
  REQUIRE(bought.entitlementIds.size() == 1);
  REQUIRE(RunUntil({player.client.get()}, [&] { return !player.created.empty(); }));
  RunFor(*player.client, 500ms);
  REQUIRE(player.created.size() == 1);
  CHECK(player.created[0].id == bought.entitlementIds[0]);
  CHECK(player.client->HasSkuEntitlement(game.durable));
  CHECK(player.Count(bought.entitlementIds[0]) == 1);
}

TEST_CASE("premium: a month passes (renewal: no entitlement callback), cancel keeps it owned, end does not") {
  auto& e = Emulator();
  Game game;
  Player player(game);
  player.ConnectAndLoad();
  auto bought = e.admin->Purchase(game.app.id, player.user.id, game.monthly);
  REQUIRE(bought.subscriptionId != 0);
  REQUIRE(RunUntil({player.client.get()},
                   [&] { return player.created.size() == 1 && player.subscriptionsCreated.size() == 1; }));
  const uint64_t firstPeriodEnd = player.subscriptionsCreated[0].currentPeriodEnd;

  // A month on the fake clock: the subscription renews, silently for the entitlement.
  e.admin->AdvanceClock(kMonth + 1s);
  e.SyncClock();
  REQUIRE(RunUntil({player.client.get()}, [&] { return !player.subscriptionsUpdated.empty(); }));
  RunFor(*player.client, 500ms);
  CHECK(player.subscriptionsUpdated.size() == 1);
  CHECK(player.subscriptionsUpdated.back().currentPeriodEnd > firstPeriodEnd);
  CHECK(player.subscriptionsUpdated.back().status == SubscriptionStatus::Active);
  CHECK(player.created.size() == 1);
  CHECK(player.updated.empty());
  CHECK(player.client->HasSkuEntitlement(game.monthly));

  // Cancel: ENDING with canceled_at, still owned until the period ends.
  e.admin->CancelSubscription(game.app.id, bought.subscriptionId);
  REQUIRE(RunUntil({player.client.get()}, [&] { return player.subscriptionsUpdated.size() == 2; }));
  const Subscription& ending = player.subscriptionsUpdated.back();
  CHECK(ending.status == SubscriptionStatus::Ending);
  CHECK(ending.canceledAt);
  CHECK_FALSE(ending.renewalSkuIds);
  RunFor(*player.client, 300ms);
  CHECK(player.updated.empty());
  CHECK(player.client->GetSubscriptions()[0].status == SubscriptionStatus::Ending);
  CHECK(player.client->HasSkuEntitlement(game.monthly));

  // End: the entitlement is updated with ends_at, and no longer owned at the (fake) time.
  e.admin->EndSubscription(game.app.id, bought.subscriptionId);
  REQUIRE(RunUntil({player.client.get()}, [&] { return !player.updated.empty(); }));
  REQUIRE(RunUntil({player.client.get()}, [&] { return player.subscriptionsUpdated.size() == 3; }));
  e.SyncClock();
  CHECK(player.updated.size() == 1);
  CHECK(player.updated[0].id == bought.entitlementIds[0]);
  REQUIRE(player.updated[0].endsAt);
  CHECK(static_cast<int64_t>(*player.updated[0].endsAt) <= e.nowMs->load());
  CHECK(player.subscriptionsUpdated.back().status == SubscriptionStatus::Inactive);
  CHECK_FALSE(player.client->HasSkuEntitlement(game.monthly));
  CHECK(player.Count(bought.entitlementIds[0]) == 1);
}

TEST_CASE("premium: a session that is not resumed loads again and announces what changed meanwhile") {
  auto& e = Emulator();
  Game game;
  Player player(game);
  player.ConnectAndLoad();
  player.client->Disconnect();
  REQUIRE(RunUntil({player.client.get()},
                   [&] { return player.client->GetStatus() == Client::Status::Disconnected; }));
  auto bought = e.admin->Purchase(game.app.id, player.user.id, game.durable);  // while away
  e.SyncClock();
  CHECK_FALSE(player.client->HasSkuEntitlement(game.durable));
  player.client->Connect();
  REQUIRE(RunUntil(
      {player.client.get()}, [&] { return player.loads.size() == 2; }, 20s));
  CHECK(player.loads.back().Successful());
  REQUIRE(player.created.size() == 1);
  CHECK(player.created[0].id == bought.entitlementIds[0]);
  CHECK(player.client->HasSkuEntitlement(game.durable));
}

TEST_CASE("backend: SKUs, and a consumable consumed once, then refused; the player sees it consumed") {
  auto& e = Emulator();
  Game game;
  Backend backend(game);
  Player player(game);
  player.ConnectAndLoad();

  auto skus = backend.Call<std::vector<Sku>>([&](auto cb) { backend.client->ListSkus(cb); });
  REQUIRE_MESSAGE(skus.first.Successful(), skus.first.ToString());
  auto& list = std::get<0>(skus.second);
  REQUIRE(list.size() == 4);
  CHECK(list[1].id == game.consumable);
  CHECK(list[1].type == platformpp::SkuType::Consumable);

  auto potion = e.admin->Purchase(game.app.id, player.user.id, game.consumable);
  REQUIRE(potion.entitlementIds.size() == 1);
  const uint64_t id = potion.entitlementIds[0];
  REQUIRE(RunUntil({player.client.get()}, [&] { return player.client->HasSkuEntitlement(game.consumable); }));

  auto got = backend.Call<Entitlement>([&](auto cb) { backend.client->GetEntitlement(id, cb); });
  REQUIRE(got.first.Successful());
  CHECK_FALSE(std::get<0>(got.second).consumed);

  auto consume = [&] {
    return backend.Call<>([&](auto cb) { backend.client->ConsumeEntitlement(id, cb); }).first;
  };
  ClientResult first = consume();
  CHECK_MESSAGE(first.Successful(), first.ToString());
  ClientResult second = consume();
  CHECK(second.Type() == ErrorType::HTTPError);
  CHECK(second.Status() == 400);
  REQUIRE(RunUntil({player.client.get()}, [&] { return !player.updated.empty(); }));
  CHECK(player.updated.back().consumed);
  CHECK_FALSE(player.client->HasSkuEntitlement(game.consumable));
  got = backend.Call<Entitlement>([&](auto cb) { backend.client->GetEntitlement(id, cb); });
  CHECK(std::get<0>(got.second).consumed);

  // A durable item is not consumable.
  auto sword = e.admin->Purchase(game.app.id, player.user.id, game.durable);
  ClientResult notConsumable =
      backend.Call<>([&](auto cb) { backend.client->ConsumeEntitlement(sword.entitlementIds[0], cb); }).first;
  CHECK(notConsumable.Status() == 400);
}

TEST_CASE("backend: test entitlements created and deleted; the player's callbacks follow") {
  Game game;
  Backend backend(game);
  Player player(game);
  player.ConnectAndLoad();
  using platformpp::backend::EntitlementOwnerType;
  auto made = backend.Call<Entitlement>([&](auto cb) {
    backend.client->CreateTestEntitlement(game.durable, player.user.id, EntitlementOwnerType::User, cb);
  });
  REQUIRE_MESSAGE(made.first.Successful(), made.first.ToString());
  const Entitlement test = std::get<0>(made.second);
  CHECK(test.skuId == game.durable);
  CHECK(test.userId == player.user.id);
  CHECK_FALSE(test.endsAt);
  REQUIRE(RunUntil({player.client.get()}, [&] { return player.created.size() == 1; }));
  CHECK(player.client->HasSkuEntitlement(game.durable));

  auto removed = backend.Call<>([&](auto cb) { backend.client->DeleteTestEntitlement(test.id, cb); }).first;
  CHECK_MESSAGE(removed.Successful(), removed.ToString());
  REQUIRE(RunUntil({player.client.get()}, [&] { return player.deleted.size() == 1; }));
  CHECK(player.deleted[0].id == test.id);
  CHECK(player.deleted[0].deleted);
  CHECK(player.Count(test.id) == 0);
  CHECK_FALSE(player.client->HasSkuEntitlement(game.durable));

  // Refused locally, nothing sent: ids of 0 and an owner type out of range.
  size_t before = backend.Mentions("/entitlements");
  CHECK(before > 0);
  auto bad = backend.Call<Entitlement>([&](auto cb) {
    backend.client->CreateTestEntitlement(game.durable, player.user.id, static_cast<EntitlementOwnerType>(3),
                                          cb);
  });
  CHECK(bad.first.Type() == ErrorType::ValidationError);
  auto zero = backend.Call<>([&](auto cb) { backend.client->DeleteTestEntitlement(0, cb); }).first;
  CHECK(zero.Type() == ErrorType::ValidationError);
  CHECK(backend.Mentions("/entitlements") == before);
}

TEST_CASE("backend: entitlement filters and pagination; limit 1 and 100 pass, 0 and 101 are refused unsent") {
  auto& e = Emulator();
  Game game;
  Backend backend(game);
  auto alice = e.admin->CreateUser(UniqueName("premium_alice"));
  auto bob = e.admin->CreateUser(UniqueName("premium_bob"));
  std::vector<uint64_t> aliceIds;
  for (uint64_t sku : {game.durable, game.consumable, game.monthly})
    aliceIds.push_back(e.admin->Purchase(game.app.id, alice.id, sku).entitlementIds.at(0));
  const uint64_t bobSword = e.admin->Purchase(game.app.id, bob.id, game.durable).entitlementIds.at(0);
  std::sort(aliceIds.begin(), aliceIds.end());

  platformpp::backend::EntitlementFilters filters;
  filters.userId = alice.id;
  auto listed = backend.List(filters);
  const ClientResult& all = listed.first;
  const std::vector<Entitlement>& allList = listed.second;
  REQUIRE_MESSAGE(all.Successful(), all.ToString());
  std::vector<uint64_t> newestFirst(aliceIds.rbegin(), aliceIds.rend());
  CHECK(IdsOf(allList) == newestFirst);  // descending without `after`

  // Pages of one: `before` walks down, `after` walks up.
  filters.limit = 1;
  auto page = backend.List(filters).second;
  CHECK(IdsOf(page) == std::vector<uint64_t>{aliceIds[2]});
  filters.before = aliceIds[2];
  page = backend.List(filters).second;
  CHECK(IdsOf(page) == std::vector<uint64_t>{aliceIds[1]});
  filters.before.reset();
  filters.after = aliceIds[0];
  filters.limit = 100;
  page = backend.List(filters).second;
  CHECK(IdsOf(page) == std::vector<uint64_t>{aliceIds[1], aliceIds[2]});  // ascending with `after`
  filters.after.reset();

  // sku_ids, and a user filter that excludes the other player's.
  filters.userId.reset();
  filters.skuIds = {game.durable};
  page = backend.List(filters).second;
  auto ids = IdsOf(page);
  std::sort(ids.begin(), ids.end());
  std::vector<uint64_t> swords{aliceIds[0], bobSword};
  std::sort(swords.begin(), swords.end());
  CHECK(ids == swords);
  filters.skuIds = {game.durable, game.consumable};
  filters.userId = bob.id;
  CHECK(IdsOf(backend.List(filters).second) == std::vector<uint64_t>{bobSword});

  // guild_id: every entitlement here is a user's, so none.
  filters = {};
  filters.guildId = 1234;
  auto guild = backend.List(filters);
  CHECK(guild.first.Successful());
  CHECK(guild.second.empty());

  // exclude_ended: the ended subscription's entitlement goes; exclude_deleted=false keeps a deleted test one.
  auto subscriptionId = e.admin->Purchase(game.app.id, bob.id, game.yearly).subscriptionId;
  e.admin->EndSubscription(game.app.id, subscriptionId);
  filters = {};
  filters.userId = bob.id;
  size_t withEnded = backend.List(filters).second.size();
  filters.excludeEnded = true;
  size_t withoutEnded = backend.List(filters).second.size();
  CHECK(withEnded == 2);
  CHECK(withoutEnded == 1);
  filters.excludeEnded = false;
  CHECK(backend.List(filters).second.size() == 2);

  // Limits crossed by one: 1 and 100 are sent, 0 and 101 refused before sending.
  filters = {};
  for (int32_t limit : {1, 100}) {
    filters.limit = limit;
    CHECK(backend.List(filters).first.Successful());
  }
  size_t sent = backend.Mentions("/entitlements");
  CHECK(sent > 0);  // requests are logged with their path: what proves the refused ones were not sent
  for (int32_t limit : {0, 101}) {
    filters.limit = limit;
    auto refused = backend.List(filters).first;
    CHECK(refused.Type() == ErrorType::ValidationError);
    REQUIRE_FALSE(refused.FieldErrors().empty());
    CHECK(refused.FieldErrors()[0].path == "limit");
  }
  filters.limit.reset();
  filters.skuIds = {0};
  CHECK(backend.List(filters).first.Type() == ErrorType::ValidationError);
  CHECK(backend.Mentions("/entitlements") == sent);
  // A BackendClient that was not told its application refuses the calls whose path names it, unsent.
  Backend unnamed(game, false);
  auto noApplication = unnamed.List({}).first;
  CHECK(noApplication.Type() == ErrorType::ValidationError);
  REQUIRE_FALSE(noApplication.FieldErrors().empty());
  CHECK(noApplication.FieldErrors()[0].path == "applicationId");
  CHECK(unnamed.Mentions("/entitlements") == 0);
}

TEST_CASE("backend: subscriptions of a SKU, filtered and paginated; limits checked before sending") {
  auto& e = Emulator();
  Game game;
  Backend backend(game);
  std::vector<uint64_t> subscriptionIds;
  std::vector<uint64_t> users;
  for (int i = 0; i < 3; ++i) {
    auto user = e.admin->CreateUser(UniqueName("premium_subscriber"));
    users.push_back(user.id);
    subscriptionIds.push_back(e.admin->Purchase(game.app.id, user.id, game.monthly).subscriptionId);
  }
  std::sort(subscriptionIds.begin(), subscriptionIds.end());
  auto list = [&](const platformpp::backend::SubscriptionFilters& filters) {
    auto answer = backend.Call<std::vector<Subscription>>(
        [&](auto cb) { backend.client->ListSkuSubscriptions(game.monthly, filters, cb); });
    std::vector<uint64_t> ids;
    for (const auto& s : std::get<0>(answer.second))
      ids.push_back(s.id);
    return std::make_pair(answer.first, ids);
  };
  platformpp::backend::SubscriptionFilters filters;
  auto listed = list(filters);
  const ClientResult& all = listed.first;
  const std::vector<uint64_t>& allIds = listed.second;
  REQUIRE_MESSAGE(all.Successful(), all.ToString());
  auto sorted = allIds;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == subscriptionIds);
  filters.userId = users[1];
  auto one = list(filters).second;
  REQUIRE(one.size() == 1);
  filters.userId.reset();
  filters.after = subscriptionIds[0];
  filters.limit = 1;
  CHECK(list(filters).second == std::vector<uint64_t>{subscriptionIds[1]});
  filters.after.reset();
  filters.limit = 100;
  CHECK(list(filters).first.Successful());

  auto got = backend.Call<Subscription>(
      [&](auto cb) { backend.client->GetSkuSubscription(game.monthly, subscriptionIds[2], cb); });
  REQUIRE(got.first.Successful());
  CHECK(std::get<0>(got.second).id == subscriptionIds[2]);
  CHECK(std::get<0>(got.second).renewalSkuIds == std::vector<uint64_t>{game.monthly});
  auto unknown =
      backend.Call<Subscription>([&](auto cb) { backend.client->GetSkuSubscription(game.monthly, 42, cb); })
          .first;
  CHECK(unknown.Status() == 404);

  size_t sent = backend.Mentions("/subscriptions");
  CHECK(sent > 0);
  for (int32_t limit : {0, 101}) {
    filters.limit = limit;
    auto refused = list(filters).first;
    CHECK(refused.Type() == ErrorType::ValidationError);
  }
  filters.limit.reset();
  auto zero =
      backend.Call<Subscription>([&](auto cb) { backend.client->GetSkuSubscription(game.monthly, 0, cb); })
          .first;
  CHECK(zero.Type() == ErrorType::ValidationError);
  CHECK(backend.Mentions("/subscriptions") == sent);
}

}  // namespace premium_test
