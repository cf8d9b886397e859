// A player unlinks their account (removes the application): the game's server hears APPLICATION_DEAUTHORIZED
// exactly once through platformpp::backend::WebhookEvents, although the platform sent it twice because the
// server's first answer was lost on the way back; and the player's game, refreshing its token, gets
// invalid_grant (the seed: the two signals are equal).
#include "emulator_fixture.hpp"

#include <platformpp/webhook_events.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <variant>
#include <vector>

namespace account_unlink_test {

using namespace platformpp;
using itest::Shared;

TEST_CASE(
    "unlinking: APPLICATION_DEAUTHORIZED delivered once despite a retried delivery, then invalid_grant") {
  auto& emu = Shared();
  itest::FaultScope scope;
  auto app = emu.admin->CreateApp("Unlink Game");
  auto player = emu.admin->CreateUser("unlinking_player");

  // The game's server.
  backend::WebhookEventsOptions options;
  options.publicKeyHex = app.verifyKey;
  options.path = "/events";
  backend::WebhookEvents server(options);
  std::vector<backend::WebhookEvent> delivered;
  server.SetEventCallback([&](const backend::WebhookEvent& event) { delivered.push_back(event); });
  REQUIRE(server.Start().Successful());
  testkit::EmulatorAdmin::WebhookEventsConfig config;
  config.url = "http://127.0.0.1:" + std::to_string(server.Port()) + "/events";
  config.eventTypes = {"APPLICATION_DEAUTHORIZED"};
  config.retryBaseMs = 100;
  config.dropAnswers = 1;  // the server's answer to the first event POST is lost: the platform sends it again
  emu.admin->SetWebhookEvents(app.id, config);

  // The player logs in (PKCE through the desktop client's consent) and keeps a refresh token.
  constexpr const char* kRedirect = "http://127.0.0.1:43123/callback";
  Client game(emu.Options());
  emu.admin->SetConsent(player.id);
  auto pkce = Client::CreateAuthorizationCodeVerifier();
  auto location = emu.admin->Authorize(app.id, Client::GetDefaultCommunicationScopes(), kRedirect,
                                       pkce.Challenge().Challenge(), "state");
  const std::string code = testkit::EmulatorAdmin::CodeFromRedirect(location);
  REQUIRE_FALSE(code.empty());
  std::string refreshToken;
  ClientResult exchange;
  bool exchanged = false;
  game.GetToken(app.id, code, pkce.Verifier(), kRedirect,
                [&](const ClientResult& result, const std::string&, const std::string& refresh,
                    AuthorizationTokenType, int32_t, const std::string&) {
                  exchanged = true;
                  exchange = result;
                  refreshToken = refresh;
                });
  REQUIRE(itest::RunUntil(game, [&] { return exchanged; }));
  REQUIRE_MESSAGE(exchange.Successful(), exchange.ToString());
  REQUIRE_FALSE(refreshToken.empty());

  // The player removes the application from their account.
  emu.admin->RemoveApplication(player.id, app.id);
  auto deliveries = [&] { return emu.admin->WebhookDeliveries(app.id); };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  auto settled = [&] {
    for (const auto& delivery : deliveries())
      if (delivery.eventType == "APPLICATION_DEAUTHORIZED" && delivery.state == "delivered") return true;
    return false;
  };
  while (!settled() && std::chrono::steady_clock::now() < deadline) {
    server.WaitForCallbacks(50);
  }
  REQUIRE(settled());
  for (int i = 0; i < 10; ++i)
    server.WaitForCallbacks(20);  // anything still queued

  // Sent twice (the first answer lost), the same bytes each time; delivered to the game once.
  testkit::EmulatorAdmin::WebhookDelivery deauthorized;
  for (const auto& delivery : deliveries())
    if (delivery.eventType == "APPLICATION_DEAUTHORIZED") deauthorized = delivery;
  REQUIRE(deauthorized.attempts.size() == 2);
  CHECK(deauthorized.attempts[0].status == 0);
  CHECK(deauthorized.attempts[0].error.find("dropped") != std::string::npos);
  CHECK(deauthorized.attempts[1].status == 204);
  REQUIRE(delivered.size() == 1);
  CHECK(delivered[0].eventType == "APPLICATION_DEAUTHORIZED");
  const auto* event = std::get_if<backend::ApplicationDeauthorized>(&delivered[0].data);
  REQUIRE(event != nullptr);
  CHECK(event->user.id == player.id);

  // The player's game refreshes its token: invalid_grant, the same news as the webhook.
  bool refreshed = false;
  ClientResult refreshResult;
  game.RefreshToken(app.id, refreshToken,
                    [&](const ClientResult& result, const std::string&, const std::string&,
                        AuthorizationTokenType, int32_t, const std::string&) {
                      refreshed = true;
                      refreshResult = result;
                    });
  REQUIRE(itest::RunUntil(game, [&] { return refreshed; }));
  CHECK_FALSE(refreshResult.Successful());
  CHECK(refreshResult.OAuthError() == "invalid_grant");
}

}  // namespace account_unlink_test
