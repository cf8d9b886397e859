// platformpp-store: a game that sells a subscription, on one running platformpp-emulator. The game's server
// listens for the platform's signed webhook events (platformpp::backend::WebhookEvents); the player's game
// shows the store, buys the Gold membership through the desktop client's checkout (the emulator completes it
// headless), and both sides learn of it: the game from its store of entitlements, the server from
// ENTITLEMENT_CREATE. A month passes on the emulator's fake clock: the subscription renews, which the player
// keeps without any entitlement event. The player cancels (in the desktop client: the emulator's admin API
// stands in for that click): the membership stays until the period's end. Another month: it ends, and the
// game sees the entitlement end. Last, a potion: bought, consumed once by the server, refused the second
// time. Headless; exits non-zero on failure.
//
//   platformpp-emulator --scenario samples/store/store.scenario.json --connection-file emu.json
//   platformpp-store --connection-file emu.json
//
// It moves the emulator's clock by two months: run it after anything that shares the emulator.
#include <platformpp/platformpp.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using Admin = platformpp::testkit::EmulatorAdmin;
constexpr auto kMonth = std::chrono::hours(24 * 30);

bool Check(bool ok, const char* what) {
  std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
  return ok;
}

// The game's frame loop and the server's event loop in miniature, until `done` or 15 s.
template <class Done>
bool Frames(platformpp::Client& game, platformpp::backend::BackendClient& backend,
            platformpp::backend::WebhookEvents& events, Done done) {
  auto deadline = Clock::now() + std::chrono::seconds(15);
  while (!done()) {
    if (Clock::now() > deadline) return false;
    game.RunCallbacks();
    backend.RunCallbacks();
    events.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

const char* StatusName(platformpp::SubscriptionStatus status) {
  switch (status) {
    case platformpp::SubscriptionStatus::Active:
      return "active";
    case platformpp::SubscriptionStatus::Inactive:
      return "inactive";
    case platformpp::SubscriptionStatus::Ending:
      return "ending";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  std::string connectionFile;
  if (argc == 3 && std::strcmp(argv[1], "--connection-file") == 0) connectionFile = argv[2];
  if (connectionFile.empty()) {
    std::cerr << "usage: platformpp-store --connection-file PATH\n";
    return 2;
  }

  try {
    auto emulator = platformpp::testkit::ConnectionInfo::Load(connectionFile);
    Admin admin(emulator);
    if (!admin.HasScenarioName("game")) {
      std::cerr << "platformpp-store: start the emulator with --scenario samples/store/store.scenario.json\n";
      return 2;
    }
    auto app = admin.ScenarioApp("game");
    // Gold and Platinum memberships, then a potion; Ada consents on the authorize page (the scenario).
    const uint64_t gold = admin.ScenarioId("skus.skus.0.id");
    const uint64_t potion = admin.ScenarioId("skus.skus.2.id");
    auto ada = admin.ScenarioUser("ada");
    bool ok = true;

    // The game's clock is the platform's: the emulator's fake clock runs at real speed from an offset that
    // AdvanceClock moves, so "does Ada own Gold now" means the same instant on both sides.
    auto offsetMs = std::make_shared<std::atomic<int64_t>>(0);
    auto syncClock = [&] {
      const auto systemMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
      offsetMs->store(admin.ClockMs() - systemMs);
    };
    syncClock();

    // 1. The game's server: the platform's webhook events, checked with the application's public key.
    // [guide:webhook-events]
    platformpp::backend::WebhookEventsOptions eventsOptions;
    eventsOptions.publicKeyHex = app.verifyKey;
    eventsOptions.path = "/platform-events";
    platformpp::backend::WebhookEvents events(eventsOptions);
    std::vector<platformpp::backend::WebhookEvent> told;
    events.SetEventCallback([&](const platformpp::backend::WebhookEvent& event) {
      std::cout << "  [server] " << event.eventType << " " << event.dataJson.substr(0, 120) << "...\n";
      told.push_back(event);
    });
    auto started = events.Start();
    // [guide-end]
    ok &= Check(started.Successful(), "the server listens for webhook events");
    if (!started.Successful()) return 1;
    // The developer portal's "webhook events URL": the platform PINGs it (answered by the server's network
    // side) before taking it.
    Admin::WebhookEventsConfig webhook;
    webhook.url = "http://127.0.0.1:" + std::to_string(events.Port()) + "/platform-events";
    admin.SetWebhookEvents(app.id, webhook);

    // [guide:backend-client]
    platformpp::backend::BackendOptions serverOptions;
    serverOptions.apiBase = emulator.apiBase;
    serverOptions.caFile = emulator.caFile;
    serverOptions.botToken = app.botToken;
    serverOptions.applicationId = app.id;
    platformpp::backend::BackendClient backend(serverOptions);
    // [guide-end]

    // 2. Ada's game: logged in (a token minted by the emulator stands in for Authorize), connected, and the
    //    desktop client stand-in knows her (its checkout buys for her).
    auto options = emulator.ClientOptionsFor();
    options.clock = [offsetMs] {
      return std::chrono::system_clock::now() + std::chrono::milliseconds(offsetMs->load());
    };
    platformpp::Client game(options);
    game.SetApplicationId(app.id);
    // [guide:premium-callbacks]
    bool loaded = false;
    std::vector<platformpp::Entitlement> created, updated;
    std::vector<platformpp::Subscription> subscriptionUpdates;
    game.SetPremiumLoadedCallback(
        [&](const platformpp::ClientResult& result) { loaded = result.Successful(); });
    game.SetEntitlementCreatedCallback([&](const platformpp::Entitlement& e) { created.push_back(e); });
    game.SetEntitlementUpdatedCallback([&](const platformpp::Entitlement& e) { updated.push_back(e); });
    game.SetSubscriptionUpdatedCallback([&](const platformpp::Subscription& s) {
      std::cout << "  [game] subscription " << StatusName(s.status) << "\n";
      subscriptionUpdates.push_back(s);
    });
    // [guide-end]
    auto token = admin.MintToken(ada.id, app.id, platformpp::Client::GetDefaultCommunicationScopes());
    game.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token.accessToken, nullptr);
    game.Connect();
    ok &= Check(Frames(game, backend, events, [&] { return loaded; }),
                "Ada's game connected and loaded the store");
    // [guide:show-store]
    for (const auto& sku : game.GetSkus())
      std::cout << "  [store] " << sku.name << (sku.IsSubscription() ? " (subscription)" : "") << "\n";
    // [guide-end]
    ok &= Check(game.GetSkus().size() == 3 && !game.HasSkuEntitlement(gold),
                "three items for sale, none owned");

    // 3. Ada buys Gold. The game hears it from the checkout's answer and the realtime connection (once), the
    //    server from ENTITLEMENT_CREATE.
    // [guide:purchase]
    std::optional<platformpp::ClientResult> bought;
    game.StartPurchase(gold, [&](const platformpp::ClientResult& result,
                                 const std::vector<platformpp::Entitlement>&) { bought = result; });
    // [guide-end]
    auto serverToldOf = [&](uint64_t skuId) {
      for (const auto& event : told) {
        const auto* entitlement = std::get_if<platformpp::backend::EntitlementCreate>(&event.data);
        if (entitlement != nullptr && entitlement->entitlement.skuId == skuId) return true;
      }
      return false;
    };
    ok &=
        Check(Frames(game, backend, events, [&] { return bought && serverToldOf(gold) && !created.empty(); }),
              "Ada bought Gold; the server was told (ENTITLEMENT_CREATE)");
    ok &= Check(bought && bought->Successful() && game.HasSkuEntitlement(gold) && created.size() == 1,
                "Ada owns Gold, announced once");

    // 4. A month passes: the subscription renews. Ada keeps Gold; no entitlement event anywhere.
    const auto toldBefore = told.size();
    // [guide:advance-clock]
    admin.AdvanceClock(kMonth + std::chrono::minutes(1));
    syncClock();
    // [guide-end]
    ok &= Check(Frames(game, backend, events, [&] { return !subscriptionUpdates.empty(); }),
                "a month later the subscription renewed");
    ok &= Check(
        game.HasSkuEntitlement(gold) && updated.empty() && created.size() == 1 && told.size() == toldBefore,
        "Ada still owns Gold; the renewal sent no entitlement event to the game or the server");

    // 5. Ada cancels: the subscription is ending, and Gold stays hers until the period's end.
    auto subscriptions = game.GetSubscriptions();
    if (subscriptions.empty()) return Check(false, "Ada's subscription is in the store"), 1;
    admin.CancelSubscription(app.id, subscriptions.front().id);
    ok &= Check(
        Frames(game, backend, events,
               [&] { return subscriptionUpdates.back().status == platformpp::SubscriptionStatus::Ending; }),
        "Ada canceled: the subscription is ending");
    ok &= Check(game.HasSkuEntitlement(gold) && updated.empty(), "Ada keeps Gold until the period ends");

    // 6. Another month: the subscription ends, and so does the entitlement.
    admin.AdvanceClock(kMonth);
    syncClock();
    ok &= Check(Frames(game, backend, events, [&] { return !updated.empty(); }),
                "at the period's end the entitlement ended (ENTITLEMENT_UPDATE)");
    ok &= Check(!updated.empty() && updated.back().endsAt.has_value() && !game.HasSkuEntitlement(gold),
                "Ada no longer owns Gold");
    ok &= Check(game.GetSubscriptions().front().status == platformpp::SubscriptionStatus::Inactive,
                "the subscription is inactive");

    // 7. A potion: bought, then consumed by the server as it puts the potion in Ada's inventory; a second
    //    consume is refused, so the potion cannot be granted twice.
    bought.reset();
    std::vector<platformpp::Entitlement> potions;
    game.StartPurchase(
        potion, [&](const platformpp::ClientResult& result, const std::vector<platformpp::Entitlement>& got) {
          bought = result;
          potions = got;
        });
    ok &= Check(Frames(game, backend, events, [&] { return bought.has_value() && serverToldOf(potion); }),
                "Ada bought a potion; the server was told");
    if (potions.empty()) return Check(false, "the checkout answered the potion's entitlement"), 1;
    // [guide:consume]
    std::vector<platformpp::ClientResult> consumed;
    auto consume = [&] {
      backend.ConsumeEntitlement(potions.front().id,
                                 [&](const platformpp::ClientResult& result) { consumed.push_back(result); });
    };
    // [guide-end]
    consume();
    ok &=
        Check(Frames(game, backend, events, [&] { return consumed.size() == 1; }) && consumed[0].Successful(),
              "the server consumed the potion");
    consume();
    ok &= Check(
        Frames(game, backend, events, [&] { return consumed.size() == 2; }) && !consumed[1].Successful(),
        "a second consume is refused");
    ok &= Check(Frames(game, backend, events, [&] { return !game.HasSkuEntitlement(potion); }),
                "Ada's game sees the potion consumed");

    game.Disconnect();
    std::cout << (ok ? "platformpp-store: all steps passed\n" : "platformpp-store: FAILED\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "platformpp-store: " << e.what() << "\n";
    return 1;
  }
}
