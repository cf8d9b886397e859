// Client::Authorize, the desktop browser flow, against the emulator's authorize page: a loopback listener as
// the redirect target, the state checked, refusals, aborts and timeouts.
#include "authorize_fixture.hpp"
#include "emulator_fixture.hpp"

#include "net/url.hpp"

#include <doctest/doctest.h>

#include <utility>

namespace authorize_test {

using namespace platformpp;
using itest::Shared;

namespace {

using Outcome = itest::AuthorizeOutcome;
using itest::Args;
using itest::Into;

// The browser flow alone: the desktop client (the emulator's IPC stand-in) is authorize_ipc_test's.
ClientOptions BrowserOnly() {
  auto options = Shared().Options();
  options.ipcEnabled = false;
  return options;
}

// A Client whose URL opener just remembers the URL, as a test's stand-in for the system browser.
struct Game {
  Client client;
  std::string openedUrl;
  explicit Game(ClientOptions options = BrowserOnly()) : client(std::move(options)) {
    client.SetApplicationId(Shared().app.id);
    client.SetUrlOpener([this](const std::string& url) {
      openedUrl = url;
      return true;
    });
  }
  void OpenPage() {
    itest::RunUntil(client, [&] { return !openedUrl.empty(); });
  }
};

}  // namespace

TEST_CASE("the full PKCE round trip through the browser flow") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id);
  Game game;
  auto pkce = Client::CreateAuthorizationCodeVerifier();
  Outcome outcome;
  game.client.Authorize(Args(pkce), Into(outcome));
  game.OpenPage();
  CHECK(game.openedUrl.find(emu.process->Connection().webBase + "/oauth2/authorize?") == 0);
  auto state = net::QueryParameter(game.openedUrl, "state");
  REQUIRE(state);
  CHECK(state->size() >= 22);  // >= 128 bits
  CHECK(emu.admin->Browse(game.openedUrl) == 200);
  itest::RunUntil(game.client, [&] { return outcome.done; });
  REQUIRE_MESSAGE(outcome.result.Successful(), outcome.result.ToString());
  CHECK(outcome.redirectUri.rfind("http://127.0.0.1:", 0) == 0);

  bool exchanged = false;
  std::string access;
  game.client.GetToken(0, outcome.code, pkce.Verifier(), outcome.redirectUri,
                       [&](ClientResult r, std::string a, const std::string&, AuthorizationTokenType, int32_t,
                           const std::string&) {
                         CHECK_MESSAGE(r.Successful(), r.ToString());
                         access = std::move(a);
                         exchanged = true;
                       });
  itest::RunUntil(game.client, [&] { return exchanged; });
  CHECK(itest::Fetch(game.client, access).id == emu.user.id);
}

TEST_CASE("a redirect with another state is AuthorizationFailed") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Game game;
  Outcome outcome;
  game.client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()), Into(outcome));
  game.OpenPage();
  auto redirect = net::QueryParameter(game.openedUrl, "redirect_uri");
  REQUIRE(redirect);
  CHECK(emu.admin->Browse(*redirect + "?code=forged&state=not-the-one") == 200);
  itest::RunUntil(game.client, [&] { return outcome.done; });
  CHECK(outcome.result.Type() == ErrorType::AuthorizationFailed);
  CHECK(outcome.result.Error().find("state") != std::string::npos);
  CHECK(outcome.code.empty());
}

TEST_CASE("a refusal on the consent page is AuthorizationFailed with access_denied") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id, /*deny=*/true);
  Game game;
  Outcome outcome;
  game.client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()), Into(outcome));
  game.OpenPage();
  emu.admin->Browse(game.openedUrl);
  itest::RunUntil(game.client, [&] { return outcome.done; });
  emu.admin->SetConsent(emu.user.id);
  CHECK(outcome.result.Type() == ErrorType::AuthorizationFailed);
  CHECK(outcome.result.OAuthError() == "access_denied");
}

TEST_CASE("AbortAuthorize, a second Authorize, a timeout, no browser: each ends the flow exactly once") {
  auto& emu = Shared();
  itest::FaultScope scope;
  SUBCASE("abort") {
    Game game;
    Outcome outcome;
    game.client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()), Into(outcome));
    game.OpenPage();
    game.client.AbortAuthorize();
    itest::RunUntil(game.client, [&] { return outcome.done; });
    CHECK(outcome.result.Type() == ErrorType::Aborted);
    // The listener is gone: the browser coming back finds nobody.
    auto redirect = net::QueryParameter(game.openedUrl, "redirect_uri");
    CHECK_THROWS(emu.admin->Browse(*redirect + "?code=x&state=y"));
  }
  SUBCASE("a second Authorize aborts the first") {
    Game game;
    Outcome first, second;
    game.client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()), Into(first));
    game.client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()), Into(second));
    itest::RunUntil(game.client, [&] { return first.done; });
    CHECK(first.result.Type() == ErrorType::Aborted);
    CHECK_FALSE(second.done);
    game.client.AbortAuthorize();
    itest::RunUntil(game.client, [&] { return second.done; });
  }
  SUBCASE("timeout") {
    auto options = BrowserOnly();
    options.authorizeTimeout = std::chrono::milliseconds(300);
    Game game(options);
    Outcome outcome;
    auto start = std::chrono::steady_clock::now();
    game.client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()), Into(outcome));
    itest::RunUntil(game.client, [&] { return outcome.done; });
    CHECK(outcome.result.Type() == ErrorType::AuthorizationFailed);
    CHECK(outcome.result.Error().find("timed out") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(300));
  }
  SUBCASE("the opener could not open a browser") {
    Game game;
    game.client.SetUrlOpener([](const std::string&) { return false; });
    Outcome outcome;
    game.client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()), Into(outcome));
    itest::RunUntil(game.client, [&] { return outcome.done; });
    CHECK(outcome.result.Type() == ErrorType::AuthorizationFailed);
  }
}

TEST_CASE("Authorize validation, and destroy with Authorize pending") {
  auto& emu = Shared();
  itest::FaultScope scope;
  std::vector<ErrorType> types;
  {
    Game game;
    auto record = [&](const ClientResult& r, const std::string&, const std::string&) {
      types.push_back(r.Type());
    };
    game.client.Authorize(AuthorizationArgs::nullobj, record);
    game.client.Authorize(AuthorizationArgs{}, record);  // no scopes
    game.client.RunCallbacks();
    REQUIRE(types.size() == 2);
    CHECK(types[0] == ErrorType::ValidationError);
    CHECK(types[1] == ErrorType::ValidationError);
    game.client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()), record);
  }
  REQUIRE(types.size() == 3);
  CHECK(types[2] == ErrorType::ClientDestroyed);
  (void)emu;
}

}  // namespace authorize_test
