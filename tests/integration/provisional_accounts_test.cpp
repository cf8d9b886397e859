// Provisional accounts against the emulator: every external auth type, OIDC refresh refused, merge, the ban
// rule (530017 until the ban lifts) and unmerge.
#include "emulator_fixture.hpp"

#include <doctest/doctest.h>

#include <atomic>

namespace provisional_accounts_test {

using namespace platformpp;
using itest::Shared;

namespace {

constexpr const char* kRedirect = "http://127.0.0.1:43124/callback";

struct Tokens {
  bool done = false;
  ClientResult result;
  std::string access, refresh;
};

Client::TokenExchangeCallback Into(Tokens& out) {
  return [&out](ClientResult r, std::string access, std::string refresh, AuthorizationTokenType, int32_t,
                const std::string&) {
    out = {true, std::move(r), std::move(access), std::move(refresh)};
  };
}

Tokens Provisional(Client& client, AuthenticationExternalAuthType type, const std::string& externalToken) {
  Tokens tokens;
  client.GetProvisionalToken(Shared().app.id, type, externalToken, Into(tokens));
  itest::RunUntil(client, [&] { return tokens.done; });
  return tokens;
}

Tokens Merge(Client& client, uint64_t userId, const std::string& externalToken) {
  auto& emu = Shared();
  emu.admin->SetConsent(userId);
  auto pkce = Client::CreateAuthorizationCodeVerifier();
  auto code = testkit::EmulatorAdmin::CodeFromRedirect(emu.admin->Authorize(
      emu.app.id, Client::GetDefaultCommunicationScopes(), kRedirect, pkce.Challenge().Challenge()));
  Tokens tokens;
  client.GetTokenFromProvisionalMerge(emu.app.id, code, pkce.Verifier(), kRedirect,
                                      AuthenticationExternalAuthType::OIDC, externalToken, Into(tokens));
  itest::RunUntil(client, [&] { return tokens.done; });
  return tokens;
}

std::string Unique(const char* prefix) {
  static std::atomic<int> next{0};
  return std::string(prefix) + std::to_string(::getpid()) + "_" + std::to_string(next++);
}

}  // namespace

TEST_CASE("every external auth type gives a provisional account, the same one for the same identity") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Client client(emu.Options());
  for (auto type :
       {AuthenticationExternalAuthType::OIDC, AuthenticationExternalAuthType::EpicOnlineServicesAccessToken,
        AuthenticationExternalAuthType::EpicOnlineServicesIdToken,
        AuthenticationExternalAuthType::SteamSessionTicket,
        AuthenticationExternalAuthType::UnityServicesIdToken, AuthenticationExternalAuthType::AppleIdToken,
        AuthenticationExternalAuthType::PlayStationNetworkIdToken}) {
    CAPTURE(ExternalAuthTypeToWireName(type));
    std::string identity = Unique("ext-");
    Tokens first = Provisional(client, type, identity);
    REQUIRE_MESSAGE(first.result.Successful(), first.result.ToString());
    auto me = itest::Fetch(client, first.access);
    REQUIRE(me.result.Successful());
    Tokens again = Provisional(client, type, identity);
    REQUIRE(again.result.Successful());
    CHECK(itest::Fetch(client, again.access).id == me.id);
  }
}

TEST_CASE("an OIDC provisional refresh token is kept, but the refresh grant is refused: re-authenticate") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Client client(emu.Options());
  Tokens tokens = Provisional(client, AuthenticationExternalAuthType::OIDC, Unique("oidc-"));
  REQUIRE(tokens.result.Successful());
  REQUIRE_FALSE(tokens.refresh.empty());
  client.UpdateToken(AuthorizationTokenType::Bearer, tokens.access, [](const ClientResult&) {});
  client.RunCallbacks();
  Tokens refreshed;
  client.RefreshToken(emu.app.id, tokens.refresh, Into(refreshed));
  itest::RunUntil(client, [&] { return refreshed.done; });
  CHECK(refreshed.result.Type() == ErrorType::AuthorizationFailed);
  CHECK(refreshed.result.Error().find("UpdateToken") != std::string::npos);
  CHECK(client.IsAuthenticated());  // refusing the grant is not a deauthorization
}

TEST_CASE("merge; a banned platform account fails with 530017 until the ban lifts") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Client client(emu.Options());
  auto player = emu.admin->CreateUser(Unique("merger_"));
  std::string identity = Unique("steam-");
  REQUIRE(Provisional(client, AuthenticationExternalAuthType::OIDC, identity).result.Successful());

  emu.admin->Ban(player.id);
  Tokens refused = Merge(client, player.id, identity);
  CHECK(refused.result.Type() == ErrorType::AuthorizationFailed);
  CHECK(refused.result.ErrorCode() == 530017);

  emu.admin->Unban(player.id);
  Tokens merged = Merge(client, player.id, identity);
  REQUIRE_MESSAGE(merged.result.Successful(), merged.result.ToString());
  CHECK(itest::Fetch(client, merged.access).id == player.id);
  emu.admin->SetConsent(emu.user.id);
}

TEST_CASE("unmerge severs the link: the link's refresh token then gets invalid_grant") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Client client(emu.Options());
  auto player = emu.admin->CreateUser(Unique("unmerger_"));
  std::string identity = Unique("oidc-");
  REQUIRE(Provisional(client, AuthenticationExternalAuthType::OIDC, identity).result.Successful());
  Tokens merged = Merge(client, player.id, identity);
  REQUIRE_MESSAGE(merged.result.Successful(), merged.result.ToString());
  emu.admin->SetConsent(emu.user.id);

  bool done = false;
  client.UnmergeIntoProvisionalAccount(emu.app.id, AuthenticationExternalAuthType::OIDC, identity,
                                       [&](ClientResult r) {
                                         CHECK_MESSAGE(r.Successful(), r.ToString());
                                         done = true;
                                       });
  itest::RunUntil(client, [&] { return done; });
  Tokens after;
  client.RefreshToken(emu.app.id, merged.refresh, Into(after));
  itest::RunUntil(client, [&] { return after.done; });
  CHECK(after.result.Type() == ErrorType::AuthorizationFailed);
  CHECK(after.result.OAuthError() == "invalid_grant");
  // The identity has a fresh provisional account again.
  Tokens fresh = Provisional(client, AuthenticationExternalAuthType::OIDC, identity);
  REQUIRE(fresh.result.Successful());
  CHECK(itest::Fetch(client, fresh.access).id != player.id);
}

TEST_CASE("UpdateProvisionalAccountDisplayName: 1 to 32 characters, on the Client's provisional token") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Client client(emu.Options());
  auto rename = [&](const std::string& name) {
    bool done = false;
    ClientResult result;
    client.UpdateProvisionalAccountDisplayName(name, [&](ClientResult r) {
      done = true;
      result = std::move(r);
    });
    itest::RunUntil(client, [&] { return done; });
    REQUIRE(done);
    return result;
  };
  CHECK(rename("Nobody Yet").Type() == ErrorType::ValidationError);  // no token set

  Tokens tokens = Provisional(client, AuthenticationExternalAuthType::SteamSessionTicket, Unique("name-"));
  REQUIRE(tokens.result.Successful());
  bool updated = false;
  client.UpdateToken(AuthorizationTokenType::Bearer, tokens.access,
                     [&](const ClientResult& r) { updated = r.Successful(); });
  itest::RunUntil(client, [&] { return updated; });

  CHECK(rename("A").Successful());
  CHECK(rename(std::string(32, 'n')).Successful());
  CHECK(rename("\u00e9" + std::string(31, 'x')).Successful());  // characters, not bytes
  CHECK(rename(std::string(33, 'n')).Type() == ErrorType::ValidationError);
  CHECK(rename("").Type() == ErrorType::ValidationError);
  CHECK(rename("   ").Type() == ErrorType::ValidationError);
  CHECK(rename("\xff\xfe").Type() == ErrorType::ValidationError);

  CHECK(rename("  Sir Provisional  ").Successful());  // trimmed, then 15 characters
}

TEST_CASE(
    "no external token, access, refresh or id token reaches the Verbose logs of the provisional flows") {
  auto& emu = Shared();
  itest::FaultScope scope;
  std::string logs;
  Client client(emu.Options());
  client.AddLogCallback([&](const std::string& m, LoggingSeverity) { logs += m + "\n"; },
                        LoggingSeverity::Verbose);
  auto player = emu.admin->CreateUser(Unique("logged_"));
  std::string identity = Unique("secret-oidc-");
  Tokens provisional = Provisional(client, AuthenticationExternalAuthType::OIDC, identity);
  REQUIRE(provisional.result.Successful());
  Tokens refused;
  client.RefreshToken(emu.app.id, provisional.refresh, Into(refused));  // OIDC: refused locally
  itest::RunUntil(client, [&] { return refused.done; });
  Tokens merged = Merge(client, player.id, identity);
  REQUIRE(merged.result.Successful());
  emu.admin->SetConsent(emu.user.id);
  bool done = false;
  client.UnmergeIntoProvisionalAccount(emu.app.id, AuthenticationExternalAuthType::OIDC, identity,
                                       [&](const ClientResult&) { done = true; });
  itest::RunUntil(client, [&] { return done; });
  client.RunCallbacks();
  REQUIRE(logs.find("HTTP -> POST") != std::string::npos);
  REQUIRE(logs.find("partner-sdk") != std::string::npos);
  for (const std::string& secret :
       {identity, provisional.access, provisional.refresh, merged.access, merged.refresh}) {
    CAPTURE(secret);
    CHECK(logs.find(secret) == std::string::npos);
  }
}

}  // namespace provisional_accounts_test
