// PKCE, AuthorizationArgs, and the token calls' validation and error mapping (no sockets).
#include <platformpp/client.hpp>

#include "auth/pkce.hpp"
#include "auth/token_endpoint.hpp"

#include <doctest/doctest.h>

#include <set>

namespace authorization_test {

using namespace platformpp;

TEST_CASE("S256 challenge matches RFC 7636 appendix B") {
  CHECK(auth::S256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") ==
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

TEST_CASE("base64url without padding") {
  auto enc = [](std::string s) {
    return auth::Base64UrlNoPadding(reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  CHECK(enc("") == "");
  CHECK(enc("f") == "Zg");
  CHECK(enc("fo") == "Zm8");
  CHECK(enc("foo") == "Zm9v");
  CHECK(enc("\xfb\xff") == "-_8");
}

TEST_CASE("code verifier bounds, crossed by one") {
  CHECK_FALSE(auth::IsValidCodeVerifier(std::string(42, 'a')));
  CHECK(auth::IsValidCodeVerifier(std::string(43, 'a')));
  CHECK(auth::IsValidCodeVerifier(std::string(128, 'a')));
  CHECK_FALSE(auth::IsValidCodeVerifier(std::string(129, 'a')));
  CHECK(auth::IsValidCodeVerifier(std::string(40, 'a') + "-._~"));
  CHECK_FALSE(auth::IsValidCodeVerifier(std::string(43, 'a') + "+"));
}

TEST_CASE("CreateAuthorizationCodeVerifier gives fresh S256 pairs") {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    auto pair = Client::CreateAuthorizationCodeVerifier();
    CHECK(auth::IsValidCodeVerifier(pair.Verifier()));
    CHECK(pair.Verifier().size() == 43);  // 256 bits of randomness
    CHECK(pair.Challenge().Method() == AuthenticationCodeChallengeMethod::S256);
    CHECK(pair.Challenge().Challenge() == auth::S256Challenge(pair.Verifier()));
    seen.insert(pair.Verifier());
  }
  CHECK(seen.size() == 100);
}

TEST_CASE("AuthorizationArgs: getters, setters, copies and nullobj") {
  AuthorizationArgs args;
  CHECK(static_cast<bool>(args));
  CHECK_FALSE(static_cast<bool>(AuthorizationArgs::nullobj));
  CHECK(args.ClientId() == 0);
  CHECK_FALSE(args.State().has_value());
  args.SetClientId(42);
  args.SetScopes(Client::GetDefaultCommunicationScopes());
  args.SetState("abc");
  args.SetNonce("n");
  args.SetCodeChallenge(Client::CreateAuthorizationCodeVerifier().Challenge());
  args.SetIntegrationType(IntegrationType::UserInstall);
  args.SetCustomSchemeParam("mygame");
  AuthorizationArgs copy = args;
  CHECK(copy.ClientId() == 42);
  CHECK(copy.Scopes() == "openid sdk.social_layer");
  CHECK(*copy.State() == "abc");
  CHECK(*copy.Nonce() == "n");
  CHECK(copy.CodeChallenge()->Challenge().size() == 43);
  CHECK(*copy.IntegrationType() == IntegrationType::UserInstall);
  CHECK(*copy.CustomSchemeParam() == "mygame");
  AuthorizationArgs moved = std::move(copy);
  CHECK(static_cast<bool>(moved));
  AuthorizationArgs null = AuthorizationArgs::nullobj;
  CHECK_FALSE(static_cast<bool>(null));
  CHECK(static_cast<int>(IntegrationType::UserInstall) == 1);
  CHECK(static_cast<int>(AuthenticationExternalAuthType::PlayStationNetworkIdToken) == 7);
  CHECK(std::string(ExternalAuthTypeToWireName(AuthenticationExternalAuthType::SteamSessionTicket)) ==
        "STEAM_SESSION_TICKET");
}

TEST_CASE("token calls refuse bad input before sending anything") {
  Client client;
  std::vector<std::string> errors;
  auto record = [&](const ClientResult& r, const std::string&, const std::string&, AuthorizationTokenType,
                    int32_t, const std::string&) {
    CHECK(r.Type() == ErrorType::ValidationError);
    errors.push_back(r.Error());
  };
  auto verifier = Client::CreateAuthorizationCodeVerifier().Verifier();
  client.GetToken(0, "code", verifier, "http://127.0.0.1/callback", record);  // no application id anywhere
  client.SetApplicationId(7);
  client.GetToken(0, "", verifier, "http://127.0.0.1/callback", record);
  client.GetToken(0, "code", "short", "http://127.0.0.1/callback", record);
  client.GetToken(0, "code", verifier, "", record);
  client.RefreshToken(0, "", record);
  client.RunCallbacks();
  REQUIRE(errors.size() == 5);
  CHECK(errors[0].find("applicationId") == 0);
  CHECK(errors[1].find("code") == 0);
  CHECK(errors[2].find("codeVerifier") == 0);
  CHECK(errors[3].find("redirectUri") == 0);
  CHECK(errors[4].find("refreshToken") == 0);
}

TEST_CASE("UpdateToken sets the Client's token") {
  Client client;
  CHECK_FALSE(client.IsAuthenticated());
  int calls = 0;
  client.UpdateToken(AuthorizationTokenType::Bearer, "", [&](const ClientResult& r) {
    ++calls;
    CHECK(r.Type() == ErrorType::ValidationError);
  });
  client.UpdateToken(AuthorizationTokenType::Bearer, "token-abcdefgh", [&](const ClientResult& r) {
    ++calls;
    CHECK(r.Successful());
  });
  client.RunCallbacks();
  CHECK(calls == 2);
  CHECK(client.IsAuthenticated());
}

TEST_CASE("token endpoint errors: OAuth2 errors are AuthorizationFailed, the rest unchanged") {
  net::HttpResponse response;
  response.status = 400;
  response.headers = {{"Content-Type", "application/json"}};
  response.body =
      R"({"error": "invalid_grant", "error_description": "Invalid \"refresh_token\" in request."})";
  auto result = auth::TokenEndpointResult(response);
  CHECK(result.Type() == ErrorType::AuthorizationFailed);
  CHECK(result.OAuthError() == "invalid_grant");
  CHECK(result.Status() == 400);
  CHECK(result.Error().find("refresh_token") != std::string::npos);

  // Only a 4xx names the client's failure: the same body on a 499 is one, on a 399 or a 500 it is not (found by
  // the token_response fuzz target).
  response.status = 499;
  CHECK(auth::TokenEndpointResult(response).Type() == ErrorType::AuthorizationFailed);
  response.status = 399;
  CHECK(auth::TokenEndpointResult(response).Type() == ErrorType::HTTPError);
  response.status = 500;
  CHECK(auth::TokenEndpointResult(response).Type() == ErrorType::HTTPError);
  response.status = 503;
  response.body = "{}";
  CHECK(auth::TokenEndpointResult(response).Type() == ErrorType::HTTPError);
  response.status = 429;
  response.body = R"({"message": "slow", "retry_after": 1.0, "global": false})";
  CHECK(auth::TokenEndpointResult(response).Type() == ErrorType::HTTPError);
}

TEST_CASE("form encoding of token requests") {
  CHECK(auth::FormEncode(
            {{"grant_type", "authorization_code"}, {"redirect_uri", "http://127.0.0.1:5/cb?x=1"}}) ==
        "grant_type=authorization_code&redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fcb%3Fx%3D1");
}

}  // namespace authorization_test
