// The OAuth2 token lifecycle against the emulator: PKCE code exchange, refresh rotation, revocation, and the
// invalid_grant cases the seed asks the SDK to tell apart.
#include "emulator_fixture.hpp"

#include <doctest/doctest.h>

#include <atomic>

namespace token_lifecycle_test {

using namespace platformpp;
using itest::Shared;

namespace {

constexpr const char* kRedirect = "http://127.0.0.1:43123/callback";

struct Tokens {
  bool done = false;
  ClientResult result;
  std::string access, refresh, scopes;
  AuthorizationTokenType type = AuthorizationTokenType::User;
  int32_t expiresIn = 0;
};

Client::TokenExchangeCallback Into(Tokens& out) {
  return [&out](ClientResult r, std::string access, std::string refresh, AuthorizationTokenType type,
                int32_t expiresIn, std::string scopes) {
    out = {true, std::move(r), std::move(access), std::move(refresh), std::move(scopes), type, expiresIn};
  };
}

Tokens Wait(Client& client, Tokens& tokens) {
  itest::RunUntil(client, [&] { return tokens.done; });
  return tokens;
}

// Authorize (headless consent) and exchange the code: what a game does after Authorize.
Tokens Login(Client& client, std::string* codeOut = nullptr) {
  auto& emu = Shared();
  auto pkce = Client::CreateAuthorizationCodeVerifier();
  auto location = emu.admin->Authorize(emu.app.id, Client::GetDefaultCommunicationScopes(), kRedirect,
                                       pkce.Challenge().Challenge(), "state-1");
  std::string code = testkit::EmulatorAdmin::CodeFromRedirect(location);
  REQUIRE(!code.empty());
  if (codeOut) *codeOut = code;
  Tokens tokens;
  client.GetToken(emu.app.id, code, pkce.Verifier(), kRedirect, Into(tokens));
  return Wait(client, tokens);
}

}  // namespace

TEST_CASE("PKCE code exchange gives a working token pair") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id);
  Client client(emu.Options());
  Tokens tokens = Login(client);
  REQUIRE_MESSAGE(tokens.result.Successful(), tokens.result.ToString());
  CHECK(tokens.type == AuthorizationTokenType::Bearer);
  CHECK(tokens.expiresIn == 604800);
  CHECK(tokens.scopes.find("sdk.social_layer") != std::string::npos);
  CHECK_FALSE(tokens.refresh.empty());
  auto me = itest::Fetch(client, tokens.access);
  CHECK(me.id == emu.user.id);
}

TEST_CASE("wrong verifier, reused code and wrong redirect_uri are invalid_grant") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id);
  Client client(emu.Options());
  auto pkce = Client::CreateAuthorizationCodeVerifier();

  SUBCASE("wrong verifier") {
    auto code = testkit::EmulatorAdmin::CodeFromRedirect(
        emu.admin->Authorize(emu.app.id, "openid", kRedirect, pkce.Challenge().Challenge()));
    Tokens tokens;
    client.GetToken(emu.app.id, code, Client::CreateAuthorizationCodeVerifier().Verifier(), kRedirect,
                    Into(tokens));
    Wait(client, tokens);
    CHECK(tokens.result.Type() == ErrorType::AuthorizationFailed);
    CHECK(tokens.result.OAuthError() == "invalid_grant");
  }
  SUBCASE("reused code") {
    std::string code;
    REQUIRE(Login(client, &code).result.Successful());
    auto verifier = Client::CreateAuthorizationCodeVerifier();
    Tokens again;
    client.GetToken(emu.app.id, code, verifier.Verifier(), kRedirect, Into(again));
    Wait(client, again);
    CHECK(again.result.Type() == ErrorType::AuthorizationFailed);
    CHECK(again.result.OAuthError() == "invalid_grant");
  }
  SUBCASE("wrong redirect_uri") {
    auto code = testkit::EmulatorAdmin::CodeFromRedirect(
        emu.admin->Authorize(emu.app.id, "openid", kRedirect, pkce.Challenge().Challenge()));
    Tokens tokens;
    client.GetToken(emu.app.id, code, pkce.Verifier(), "http://127.0.0.1:43123/other", Into(tokens));
    Wait(client, tokens);
    CHECK(tokens.result.Type() == ErrorType::AuthorizationFailed);
    CHECK(tokens.result.OAuthError() == "invalid_grant");
  }
}

TEST_CASE("refresh rotates the pair: both old tokens stop working") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id);
  Client client(emu.Options());
  Tokens first = Login(client);
  REQUIRE(first.result.Successful());
  Tokens second;
  client.RefreshToken(emu.app.id, first.refresh, Into(second));
  Wait(client, second);
  REQUIRE_MESSAGE(second.result.Successful(), second.result.ToString());
  CHECK(second.access != first.access);
  CHECK(second.refresh != first.refresh);
  CHECK(itest::Fetch(client, second.access).result.Successful());
  CHECK(itest::Fetch(client, first.access).result.Status() == 401);
  Tokens stale;
  client.RefreshToken(emu.app.id, first.refresh, Into(stale));
  Wait(client, stale);
  CHECK(stale.result.Type() == ErrorType::AuthorizationFailed);
  CHECK(stale.result.OAuthError() == "invalid_grant");
}

TEST_CASE("refresh after revoke is invalid_grant, and the Client drops its token as deauthorized") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id);
  Client client(emu.Options());
  Tokens tokens = Login(client);
  REQUIRE(tokens.result.Successful());
  bool updated = false;
  client.UpdateToken(tokens.type, tokens.access, [&](const ClientResult& r) { updated = r.Successful(); });
  itest::RunUntil(client, [&] { return updated; });
  CHECK(client.IsAuthenticated());

  bool revoked = false;
  client.RevokeToken(emu.app.id, tokens.refresh, [&](ClientResult r) {
    CHECK_MESSAGE(r.Successful(), r.ToString());
    revoked = true;
  });
  itest::RunUntil(client, [&] { return revoked; });
  CHECK(itest::Fetch(client, tokens.access).result.Status() == 401);  // the whole authorization went

  client.UpdateToken(tokens.type, tokens.access, [](const ClientResult&) {});
  client.RunCallbacks();
  CHECK(client.IsAuthenticated());
  Tokens after;
  client.RefreshToken(emu.app.id, tokens.refresh, Into(after));
  Wait(client, after);
  CHECK(after.result.Type() == ErrorType::AuthorizationFailed);
  CHECK(after.result.OAuthError() == "invalid_grant");
  CHECK_FALSE(client.IsAuthenticated());
}

TEST_CASE("a token deleted on the platform side: refresh is invalid_grant") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id);
  Client client(emu.Options());
  Tokens tokens = Login(client);
  REQUIRE(tokens.result.Successful());
  emu.admin->DeleteToken(tokens.access);
  Tokens after;
  client.RefreshToken(emu.app.id, tokens.refresh, Into(after));
  Wait(client, after);
  CHECK(after.result.Type() == ErrorType::AuthorizationFailed);
  CHECK(after.result.OAuthError() == "invalid_grant");
}

TEST_CASE("no code, verifier or token reaches the Verbose logs of the token flows") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id);
  std::string logs;
  Client client(emu.Options());
  client.AddLogCallback([&](const std::string& m, LoggingSeverity) { logs += m + "\n"; },
                        LoggingSeverity::Verbose);
  auto pkce = Client::CreateAuthorizationCodeVerifier();
  std::string code = testkit::EmulatorAdmin::CodeFromRedirect(
      emu.admin->Authorize(emu.app.id, "openid sdk.social_layer", kRedirect, pkce.Challenge().Challenge()));
  Tokens tokens;
  client.GetToken(emu.app.id, code, pkce.Verifier(), kRedirect, Into(tokens));
  Wait(client, tokens);
  REQUIRE(tokens.result.Successful());
  Tokens refreshed;
  client.RefreshToken(emu.app.id, tokens.refresh, Into(refreshed));
  Wait(client, refreshed);
  REQUIRE(refreshed.result.Successful());
  bool revoked = false;
  client.RevokeToken(emu.app.id, refreshed.access, [&](const ClientResult&) { revoked = true; });
  itest::RunUntil(client, [&] { return revoked; });
  client.RunCallbacks();
  REQUIRE(logs.find("HTTP -> POST") != std::string::npos);
  for (const std::string& secret :
       {code, pkce.Verifier(), tokens.access, tokens.refresh, refreshed.access, refreshed.refresh}) {
    CAPTURE(secret);
    CHECK(logs.find(secret) == std::string::npos);
  }
}

TEST_CASE("the token expiration callback fires once per token, 5 minutes ahead, by the Client's clock") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id);
  auto offset = std::make_shared<std::atomic<int64_t>>(0);  // seconds added to the real clock
  auto options = emu.Options();
  options.clock = [offset] {
    return std::chrono::system_clock::now() + std::chrono::seconds(offset->load());
  };
  Client client(options);
  int warnings = 0;
  client.SetTokenExpirationCallback([&] { ++warnings; });

  Tokens tokens = Login(client);
  REQUIRE(tokens.result.Successful());
  REQUIRE(tokens.expiresIn == 604800);
  client.UpdateToken(tokens.type, tokens.access, [](const ClientResult&) {});
  client.RunCallbacks();
  CHECK(warnings == 0);

  offset->store(604800 - 5 * 60 - 10);  // 10 s before the warning point
  client.RunCallbacks();
  CHECK(warnings == 0);
  offset->store(604800 - 5 * 60 + 1);  // just past it
  client.RunCallbacks();
  CHECK(warnings == 1);
  offset->store(604800 + 60);  // expired: still only once for this token
  client.RunCallbacks();
  client.RunCallbacks();
  CHECK(warnings == 1);

  // A refreshed token gets its own warning, once.
  Tokens refreshed;
  client.RefreshToken(emu.app.id, tokens.refresh, Into(refreshed));
  Wait(client, refreshed);
  REQUIRE(refreshed.result.Successful());
  client.UpdateToken(refreshed.type, refreshed.access, [](const ClientResult&) {});
  client.RunCallbacks();
  CHECK(warnings == 1);
  offset->store(offset->load() + 604800);
  client.RunCallbacks();
  client.RunCallbacks();
  CHECK(warnings == 2);
}

namespace {

struct ChildTokens {
  bool done = false;
  ClientResult result;
  std::string access, scopes;
  AuthorizationTokenType type = AuthorizationTokenType::User;
  int32_t expiresIn = 0;
};

ChildTokens ExchangeChild(Client& client, const std::string& parentToken, uint64_t childId) {
  ChildTokens out;
  client.ExchangeChildToken(parentToken, childId,
                            [&out](ClientResult r, std::string access, AuthorizationTokenType type,
                                   int32_t expiresIn, std::string scopes) {
                              out = {true, std::move(r), std::move(access), std::move(scopes),
                                     type, expiresIn};
                            });
  itest::RunUntil(client, [&] { return out.done; });
  return out;
}

uint64_t CreateApp(const std::string& body) {
  auto response = Shared().admin->Request("POST", "/apps", body);
  REQUIRE(response.status == 200);
  auto at = response.body.find("\"id\":\"");
  REQUIRE(at != std::string::npos);
  return std::stoull(response.body.substr(at + 6));
}

}  // namespace

TEST_CASE("ExchangeChildToken: a parent application's token becomes the child's, for the same player") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetConsent(emu.user.id);
  uint64_t child = CreateApp(R"({"name": "Child Game", "parent_id": ")" + std::to_string(emu.app.id) + "\"}");
  uint64_t stranger = CreateApp(R"({"name": "Unrelated Game"})");
  Client client(emu.Options());
  Tokens parent = Login(client);
  REQUIRE(parent.result.Successful());

  ChildTokens exchanged = ExchangeChild(client, parent.access, child);
  REQUIRE_MESSAGE(exchanged.result.Successful(), exchanged.result.ToString());
  CHECK(exchanged.type == AuthorizationTokenType::Bearer);
  CHECK(exchanged.expiresIn == 604800);
  CHECK(exchanged.scopes.find("sdk.social_layer") != std::string::npos);
  CHECK(exchanged.access != parent.access);
  CHECK(itest::Fetch(client, exchanged.access).id == emu.user.id);

  SUBCASE("an application that is not the parent's child is refused") {
    ChildTokens refused = ExchangeChild(client, parent.access, stranger);
    CHECK(refused.result.Type() == ErrorType::AuthorizationFailed);
    CHECK(refused.result.OAuthError() == "invalid_grant");
  }
  SUBCASE("a revoked parent token is refused; the child's own authorization lives on") {
    bool revoked = false;
    client.RevokeToken(emu.app.id, parent.access, [&](const ClientResult& r) { revoked = r.Successful(); });
    itest::RunUntil(client, [&] { return revoked; });
    REQUIRE(revoked);
    ChildTokens refused = ExchangeChild(client, parent.access, child);
    CHECK(refused.result.OAuthError() == "invalid_grant");
    CHECK(itest::Fetch(client, exchanged.access).result.Successful());
  }
  SUBCASE("bad arguments are refused before anything is sent") {
    CHECK(ExchangeChild(client, "", child).result.Type() == ErrorType::ValidationError);
    CHECK(ExchangeChild(client, parent.access, 0).result.Type() == ErrorType::ValidationError);
  }
}

}  // namespace token_lifecycle_test
