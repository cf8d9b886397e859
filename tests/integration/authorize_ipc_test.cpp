// Client::Authorize through the local desktop client (the emulator's IPC stand-in), the fallback to the
// browser when no desktop client answers, and account-link requests (AUTHORIZE_REQUEST) renewed after the
// desktop client restarts.
#include "authorize_fixture.hpp"
#include "emulator_fixture.hpp"
#include "fake_desktop_client.hpp"

#include <doctest/doctest.h>

namespace authorize_ipc_test {

using namespace platformpp;
using itest::Shared;

namespace {

using Outcome = itest::AuthorizeOutcome;
using itest::Args;
using itest::Into;

// A Client that talks to the emulator's desktop-client stand-in; its URL opener only counts.
struct Game {
  Client client;
  std::string openedUrl;
  std::string logs;
  explicit Game(ClientOptions options = Shared().Options()) : client(std::move(options)) {
    client.SetApplicationId(Shared().app.id);
    client.SetUrlOpener([this](const std::string& url) {
      openedUrl = url;
      return true;
    });
    client.AddLogCallback([this](const std::string& m, LoggingSeverity) { logs += m + "\n"; },
                          LoggingSeverity::Verbose);
  }
};

// Leaves the desktop-client stand-in running, whatever the test did to it.
struct IpcScope {
  ~IpcScope() { Shared().admin->RestoreIpc(); }
};

struct TokenOutcome {
  bool done = false;
  ClientResult result;
  std::string access, refresh;
};

TokenOutcome Exchange(Client& client, const Outcome& authorized, const AuthorizationCodeVerifier& pkce) {
  TokenOutcome out;
  client.GetToken(Shared().app.id, authorized.code, pkce.Verifier(), authorized.redirectUri,
                  [&out](ClientResult r, std::string access, std::string refresh, AuthorizationTokenType,
                         int32_t, const std::string&) {
                    out = {true, std::move(r), std::move(access), std::move(refresh)};
                  });
  itest::RunUntil(client, [&] { return out.done; });
  return out;
}

// Raises AUTHORIZE_REQUEST until the stand-in delivers it to a subscribed connection (the SUBSCRIBE may still
// be on its way); returns what the last raise reported.
int RaiseUntilDelivered(Client& client, int expected,
                        std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  int delivered = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    delivered = Shared().admin->RaiseAuthorizeRequest(Shared().app.id);
    if (delivered == expected) break;
    for (int i = 0; i < 20; ++i) {
      client.RunCallbacks();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  return delivered;
}

}  // namespace

TEST_CASE("the full PKCE round trip through the desktop client over IPC") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id);
  Game game;
  auto pkce = Client::CreateAuthorizationCodeVerifier();
  Outcome outcome;
  game.client.Authorize(Args(pkce), Into(outcome));
  REQUIRE(itest::RunUntil(game.client, [&] { return outcome.done; }));
  REQUIRE_MESSAGE(outcome.result.Successful(), outcome.result.ToString());
  CHECK(game.openedUrl.empty());  // no browser
  CHECK(outcome.redirectUri == "discord-" + std::to_string(emu.app.id) + ":/authorize/callback");
  CHECK_FALSE(outcome.code.empty());

  TokenOutcome tokens = Exchange(game.client, outcome, pkce);
  REQUIRE_MESSAGE(tokens.result.Successful(), tokens.result.ToString());
  CHECK(itest::Fetch(game.client, tokens.access).id == emu.user.id);

  SUBCASE("the code is single-use, and bound to its verifier") {
    CHECK(Exchange(game.client, outcome, pkce).result.OAuthError() == "invalid_grant");
    Outcome second;
    game.client.Authorize(Args(pkce), Into(second));
    REQUIRE(itest::RunUntil(game.client, [&] { return second.done; }));
    REQUIRE(second.result.Successful());
    CHECK(Exchange(game.client, second, Client::CreateAuthorizationCodeVerifier()).result.OAuthError() ==
          "invalid_grant");
  }
  SUBCASE("no code, verifier, state or token reaches the Verbose logs") {
    game.client.RunCallbacks();
    CHECK(game.logs.find("desktop client") != std::string::npos);
    for (const std::string& secret : {outcome.code, pkce.Verifier(), tokens.access, tokens.refresh}) {
      CAPTURE(secret);
      CHECK(game.logs.find(secret) == std::string::npos);
    }
  }
}

TEST_CASE("the player refuses in the desktop client: AuthorizationFailed with RPC code 5000") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id, /*deny=*/true);
  Game game;
  Outcome outcome;
  game.client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()), Into(outcome));
  REQUIRE(itest::RunUntil(game.client, [&] { return outcome.done; }));
  emu.admin->SetConsent(emu.user.id);
  CHECK(outcome.result.Type() == ErrorType::AuthorizationFailed);
  CHECK(outcome.result.ErrorCode() == 5000);
  CHECK(game.openedUrl.empty());
}

TEST_CASE("no desktop client answers: Authorize falls back to the browser") {
  auto& emu = Shared();
  itest::FaultScope scope;
  IpcScope ipc;
  emu.admin->SetConsent(emu.user.id);
  emu.admin->DropIpc();
  Game game;
  auto pkce = Client::CreateAuthorizationCodeVerifier();
  Outcome outcome;
  game.client.Authorize(Args(pkce), Into(outcome));
  REQUIRE(itest::RunUntil(game.client, [&] { return !game.openedUrl.empty(); }));
  CHECK(game.openedUrl.find(emu.process->Connection().webBase + "/oauth2/authorize?") == 0);
  CHECK(emu.admin->Browse(game.openedUrl) == 200);
  REQUIRE(itest::RunUntil(game.client, [&] { return outcome.done; }));
  REQUIRE_MESSAGE(outcome.result.Successful(), outcome.result.ToString());
  CHECK(outcome.redirectUri.rfind("http://127.0.0.1:", 0) == 0);
  CHECK(Exchange(game.client, outcome, pkce).result.Successful());
}

TEST_CASE("AUTHORIZE_REQUEST reaches the callback, and again after the desktop client restarts") {
  auto& emu = Shared();
  itest::FaultScope scope;
  IpcScope ipc;
  Game game;
  int requests = 0;
  game.client.RegisterAuthorizeRequestCallback([&] { ++requests; });

  REQUIRE(RaiseUntilDelivered(game.client, 1) == 1);
  REQUIRE(itest::RunUntil(game.client, [&] { return requests == 1; }));

  // The desktop client quits and comes back: the SDK reconnects (jittered backoff from 0.5 s) and subscribes
  // again without the game doing anything.
  auto before = emu.admin->IpcStatus().handshakes;
  emu.admin->DropIpc();
  CHECK(emu.admin->RaiseAuthorizeRequest(emu.app.id) == 0);
  emu.admin->RestoreIpc();
  REQUIRE(RaiseUntilDelivered(game.client, 1, std::chrono::seconds(15)) == 1);
  REQUIRE(itest::RunUntil(game.client, [&] { return requests == 2; }));
  CHECK(emu.admin->IpcStatus().handshakes > before);

  // Removed: the SDK unsubscribes, and nothing more reaches the game.
  game.client.RemoveAuthorizeRequestCallback();
  CHECK(RaiseUntilDelivered(game.client, 0) == 0);
  for (int i = 0; i < 20; ++i) {
    game.client.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(requests == 2);
}

// What the emulator's stand-in never does: answer with another state, or vanish mid-AUTHORIZE.
namespace {

struct FakeDesktopGame {
  itest::fake_desktop::TempDir dir;
  itest::fake_desktop::FakeDesktop desktop{dir.Socket(0)};
  std::unique_ptr<Game> game;
  FakeDesktopGame() {
    auto options = Shared().Options();
    options.ipcName = dir.IpcName();
    options.ipcDirectory = dir.Path();
    game = std::make_unique<Game>(options);
  }
};

}  // namespace

TEST_CASE("the desktop client answers AUTHORIZE with another state: AuthorizationFailed") {
  FakeDesktopGame fake;
  Client& client = fake.game->client;
  auto pkce = Client::CreateAuthorizationCodeVerifier();
  Outcome outcome;
  client.Authorize(Args(pkce), Into(outcome));
  auto peer = fake.desktop.AcceptReady();
  auto command = peer->ReadCommand();
  REQUIRE(command.cmd == "AUTHORIZE");
  json::Document args;
  REQUIRE(json::Parse(command.argsJson, args));
  CHECK(json::GetString(args, "client_id").value_or("") == std::to_string(Shared().app.id));
  CHECK(json::GetString(args, "code_challenge").value_or("") == pkce.Challenge().Challenge());
  CHECK(json::GetString(args, "code_challenge_method").value_or("") == "S256");
  std::string state(json::GetString(args, "state").value_or(""));
  CHECK(state.size() >= 22);  // >= 128 bits, base64url
  peer->Reply(command, R"({"code":"a-code","state":"not-the-one-sent"})");
  REQUIRE(itest::RunUntil(client, [&] { return outcome.done; }));
  CHECK(outcome.result.Type() == ErrorType::AuthorizationFailed);
  CHECK(outcome.result.Error().find("state") != std::string::npos);
  CHECK(outcome.code.empty());
}

TEST_CASE("the desktop client vanishes mid-AUTHORIZE: Authorize goes on in the browser") {
  FakeDesktopGame fake;
  Client& client = fake.game->client;
  Outcome outcome;
  client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()), Into(outcome));
  auto peer = fake.desktop.AcceptReady();
  REQUIRE(peer->ReadCommand().cmd == "AUTHORIZE");
  peer->Close();
  REQUIRE(itest::RunUntil(client, [&] { return !fake.game->openedUrl.empty(); }));
  CHECK(fake.game->openedUrl.find("/oauth2/authorize?") != std::string::npos);
  CHECK_FALSE(outcome.done);
  client.AbortAuthorize();
  REQUIRE(itest::RunUntil(client, [&] { return outcome.done; }));
  CHECK(outcome.result.Type() == ErrorType::Aborted);
}

TEST_CASE("AbortAuthorize while the desktop client shows its consent: Aborted once, the late code ignored") {
  FakeDesktopGame fake;
  Client& client = fake.game->client;
  int calls = 0;
  ErrorType type = ErrorType::None;
  client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()),
                   [&](const ClientResult& r, const std::string&, const std::string&) {
                     ++calls;
                     type = r.Type();
                   });
  auto peer = fake.desktop.AcceptReady();
  auto command = peer->ReadCommand();
  client.AbortAuthorize();
  client.RunCallbacks();
  CHECK(calls == 1);
  CHECK(type == ErrorType::Aborted);
  peer->Reply(command, R"({"code":"late"})");
  for (int i = 0; i < 50; ++i) {
    client.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  CHECK(calls == 1);
  CHECK(fake.game->openedUrl.empty());
}

TEST_CASE("destroying the Client while the desktop client shows its consent: ClientDestroyed once") {
  FakeDesktopGame fake;
  int calls = 0;
  ErrorType type = ErrorType::None;
  fake.game->client.Authorize(Args(Client::CreateAuthorizationCodeVerifier()),
                              [&](const ClientResult& r, const std::string&, const std::string&) {
                                ++calls;
                                type = r.Type();
                              });
  auto peer = fake.desktop.AcceptReady();
  REQUIRE(peer->ReadCommand().cmd == "AUTHORIZE");
  fake.game.reset();
  CHECK(calls == 1);
  CHECK(type == ErrorType::ClientDestroyed);
}

}  // namespace authorize_ipc_test
