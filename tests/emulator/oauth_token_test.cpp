// POST /api/v10/oauth2/token (authorization_code with PKCE, refresh_token, client_credentials), revoke, @me.
#include <doctest/doctest.h>

#include "oauth_fixture.hpp"

namespace oauth_token_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {
// Standard base64 (with padding) of "id:secret", as HTTP Basic sends it.
std::string basic(const std::string& id, const std::string& secret) {
  auto encoded = base64url_encode(id + ":" + secret);
  for (auto& c : encoded) {
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  while (encoded.size() % 4 != 0)
    encoded += '=';
  return "Basic " + encoded;
}
}  // namespace

TEST_CASE_FIXTURE(OAuthFixture, "authorization_code with PKCE: the token response") {
  const auto response = exchange(authorize_code());
  REQUIRE(response.status == 200);
  CHECK(response.header("Cache-Control") == "no-store");
  CHECK(response.header("X-RateLimit-Bucket"));  // still an /api/v10 route
  const auto body = parse(response.body);
  CHECK(str(body["token_type"]) == "Bearer");
  CHECK(body["expires_in"].GetInt() == 604800);
  CHECK(str(body["scope"]) == "openid sdk.social_layer");
  CHECK(str(body["refresh_token"]) != str(body["access_token"]));
  CHECK(me_status(str(body["access_token"])) == 200);

  // The access token lives 604800 s by the fake clock.
  clock.advance(604'800'000 - 1);
  CHECK(me_status(str(body["access_token"])) == 200);
  clock.advance(1);
  CHECK(me_status(str(body["access_token"])) == 401);
}

TEST_CASE_FIXTURE(OAuthFixture, "code_verifier length: 42 and 129 are invalid_request, 43 and 128 work") {
  for (const std::size_t length : {std::size_t{42}, std::size_t{129}}) {
    const std::string verifier(length, 'v');
    const auto code = authorize_code(std::string(43, 'v'));
    const auto response = exchange(code, verifier);
    CHECK(response.status == 400);
    CHECK(oauth_error_of(response) == "invalid_request");
  }
  for (const std::size_t length : {std::size_t{43}, std::size_t{128}}) {
    const std::string verifier(length, '~');
    CHECK(exchange(authorize_code(verifier), verifier).status == 200);
  }
  // Characters outside [A-Za-z0-9-._~].
  const auto response = exchange(authorize_code(), std::string(42, 'a') + "/");
  CHECK(oauth_error_of(response) == "invalid_request");
}

TEST_CASE_FIXTURE(OAuthFixture, "invalid_grant: wrong verifier, reuse, wrong redirect_uri, other client") {
  auto response = exchange(authorize_code(), std::string(43, 'x'));
  CHECK(response.status == 400);
  CHECK(oauth_error_of(response) == "invalid_grant");
  CHECK(str(parse(response.body)["error_description"]).find("PKCE") != std::string::npos);

  const auto code = authorize_code();
  CHECK(exchange(code).status == 200);
  response = exchange(code);
  CHECK(response.status == 400);
  CHECK(oauth_error_of(response) == "invalid_grant");

  response = exchange(authorize_code(), kVerifier, "http://127.0.0.1:53134/other");
  CHECK(oauth_error_of(response) == "invalid_grant");
  CHECK(str(parse(response.body)["error_description"]).find("redirect_uri") != std::string::npos);

  const auto other = parse(call("POST", "/_emulator/apps", R"({"name":"Other"})").body);
  response = token({{"grant_type", "authorization_code"},
                    {"client_id", str(other["id"])},
                    {"code", authorize_code()},
                    {"redirect_uri", kRedirect},
                    {"code_verifier", kVerifier}});
  CHECK(oauth_error_of(response) == "invalid_grant");

  CHECK(oauth_error_of(exchange("not-a-code")) == "invalid_grant");
  // A failed attempt spends the code.
  const auto spent = authorize_code();
  CHECK(oauth_error_of(exchange(spent, std::string(43, 'x'))) == "invalid_grant");
  CHECK(oauth_error_of(exchange(spent)) == "invalid_grant");
}

TEST_CASE_FIXTURE(OAuthFixture, "codes expire 10 minutes after issue by the fake clock") {
  const auto fresh = authorize_code();
  const auto stale = authorize_code();
  clock.advance(10 * 60 * 1000 - 1);
  CHECK(exchange(fresh).status == 200);
  clock.advance(2);
  const auto response = exchange(stale);
  CHECK(oauth_error_of(response) == "invalid_grant");
  CHECK(str(parse(response.body)["error_description"]).find("expired") != std::string::npos);
}

TEST_CASE_FIXTURE(OAuthFixture, "the body must be form-urlencoded") {
  auto response = call("POST", "/api/v10/oauth2/token",
                       R"({"grant_type":"authorization_code","client_id":")" + app_id + R"("})");
  CHECK(response.status == 400);
  CHECK(oauth_error_of(response) == "invalid_request");
  CHECK(response.header("X-RateLimit-Limit"));
  response =
      call("POST", "/api/v10/oauth2/token", "grant_type=refresh_token", {{"Content-Type", "text/plain"}});
  CHECK(oauth_error_of(response) == "invalid_request");
  response = call("POST", "/api/v10/oauth2/token", "grant_type=client_credentials&client_id=" + app_id,
                  {{"Content-Type", "application/x-www-form-urlencoded; charset=UTF-8"}});
  CHECK(oauth_error_of(response) == "invalid_client");  // parsed: public clients cannot use it
  response =
      token({{"grant_type", "authorization_code"}, {"grant_type", "refresh_token"}, {"client_id", app_id}});
  CHECK(oauth_error_of(response) == "invalid_request");  // repeated parameter
}

TEST_CASE_FIXTURE(OAuthFixture, "client authentication and grant types") {
  auto response = token({{"grant_type", "client_credentials"}});
  CHECK(response.status == 401);
  CHECK(oauth_error_of(response) == "invalid_client");
  CHECK(response.header("WWW-Authenticate"));
  CHECK(oauth_error_of(token({{"grant_type", "refresh_token"}, {"client_id", "42"}})) == "invalid_client");
  CHECK(oauth_error_of(token({{"grant_type", "client_credentials"}},
                             {{"Authorization", basic(app_id, "wrong")}})) == "invalid_client");
  CHECK(oauth_error_of(token({{"grant_type", "password"}, {"client_id", app_id}})) ==
        "unsupported_grant_type");
  CHECK(oauth_error_of(token({{"client_id", app_id}})) == "invalid_request");

  // Confidential client: Basic auth, PKCE optional.
  auto params = authorize_params();
  std::erase_if(params, [](const auto& p) { return p.first.starts_with("code_challenge"); });
  auto code = query_param(authorize_location(params), "code");
  response = token({{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", kRedirect}},
                   {{"Authorization", basic(app_id, client_secret)}});
  CHECK(response.status == 200);
  // ...but a public client without PKCE is refused.
  code = query_param(authorize_location(params), "code");
  response = token({{"grant_type", "authorization_code"},
                    {"client_id", app_id},
                    {"code", code},
                    {"redirect_uri", kRedirect}});
  CHECK(oauth_error_of(response) == "invalid_request");
  // A PKCE code needs its verifier even from a confidential client.
  response =
      token({{"grant_type", "authorization_code"}, {"code", authorize_code()}, {"redirect_uri", kRedirect}},
            {{"Authorization", basic(app_id, client_secret)}});
  CHECK(oauth_error_of(response) == "invalid_grant");

  // client_credentials: a bot-user token without a refresh token; scope optional.
  response = token({{"grant_type", "client_credentials"}, {"scope", "applications.commands.update"}},
                   {{"Authorization", basic(app_id, client_secret)}});
  REQUIRE(response.status == 200);
  auto body = parse(response.body);
  CHECK_FALSE(body.HasMember("refresh_token"));
  CHECK(str(body["scope"]) == "applications.commands.update");
  CHECK(me(str(body["access_token"]))["bot"].GetBool());
  response =
      token({{"grant_type", "client_credentials"}, {"client_id", app_id}, {"client_secret", client_secret}});
  CHECK(str(parse(response.body)["scope"]) == "identify");
}

TEST_CASE_FIXTURE(OAuthFixture, "refresh rotation kills both old tokens") {
  const auto first = login();
  auto response = refresh(str(first["refresh_token"]));
  REQUIRE(response.status == 200);
  const auto second = parse(response.body);
  CHECK(str(second["scope"]) == "openid sdk.social_layer");
  CHECK(str(second["refresh_token"]) != str(first["refresh_token"]));
  CHECK(me_status(str(second["access_token"])) == 200);
  CHECK(me_status(str(first["access_token"])) == 401);
  response = refresh(str(first["refresh_token"]));
  CHECK(response.status == 400);
  CHECK(oauth_error_of(response) == "invalid_grant");

  // Refresh tokens outlive their access token; scopes may narrow but not widen.
  clock.advance(604'800'000 * 2LL);
  response = token({{"grant_type", "refresh_token"},
                    {"client_id", app_id},
                    {"refresh_token", str(second["refresh_token"])},
                    {"scope", "openid guilds"}});
  CHECK(oauth_error_of(response) == "invalid_scope");
  response = token({{"grant_type", "refresh_token"},
                    {"client_id", app_id},
                    {"refresh_token", str(second["refresh_token"])},
                    {"scope", "openid"}});
  REQUIRE(response.status == 200);
  CHECK(str(parse(response.body)["scope"]) == "openid");

  const auto other = parse(call("POST", "/_emulator/apps", R"({"name":"Other"})").body);
  const auto third = login();
  response = token({{"grant_type", "refresh_token"},
                    {"client_id", str(other["id"])},
                    {"refresh_token", str(third["refresh_token"])}});
  CHECK(oauth_error_of(response) == "invalid_grant");
  CHECK(oauth_error_of(refresh("unknown")) == "invalid_grant");
  CHECK(oauth_error_of(token({{"grant_type", "refresh_token"}, {"client_id", app_id}})) == "invalid_request");
}

TEST_CASE_FIXTURE(OAuthFixture, "revoke kills access and refresh tokens; unknown tokens answer 200") {
  for (const char* which : {"access_token", "refresh_token"}) {
    CAPTURE(which);
    const auto tokens = login();
    const auto response = call("POST", "/api/v10/oauth2/token/revoke",
                               form_body({{"token", str(tokens[which])}, {"client_id", app_id}}),
                               {{"Content-Type", "application/x-www-form-urlencoded"}});
    CHECK(response.status == 200);
    CHECK(response.body == "{}");
    CHECK(me_status(str(tokens["access_token"])) == 401);
    CHECK(oauth_error_of(refresh(str(tokens["refresh_token"]))) == "invalid_grant");
  }
  auto response = call("POST", "/api/v10/oauth2/token/revoke",
                       form_body({{"token", "nope"}, {"token_type_hint", "refresh_token"}}),
                       {{"Content-Type", "application/x-www-form-urlencoded"},
                        {"Authorization", basic(app_id, client_secret)}});
  CHECK(response.status == 200);
  response = call("POST", "/api/v10/oauth2/token/revoke", form_body({{"token", "nope"}}),
                  {{"Content-Type", "application/x-www-form-urlencoded"}});
  CHECK(oauth_error_of(response) == "invalid_client");
  response = call("POST", "/api/v10/oauth2/token/revoke", R"({"token":"x"})");
  CHECK(oauth_error_of(response) == "invalid_request");
}

TEST_CASE_FIXTURE(OAuthFixture, "admin token deletion kills the refresh token too") {
  const auto tokens = login();
  CHECK(call("DELETE", "/_emulator/tokens/" + str(tokens["access_token"])).status == 204);
  CHECK(me_status(str(tokens["access_token"])) == 401);
  const auto response = refresh(str(tokens["refresh_token"]));
  CHECK(response.status == 400);
  CHECK(oauth_error_of(response) == "invalid_grant");
}

TEST_CASE_FIXTURE(OAuthFixture, "GET /oauth2/@me describes the authorization") {
  const auto tokens = login();
  auto response =
      call("GET", "/api/v10/oauth2/@me", {}, {{"Authorization", "Bearer " + str(tokens["access_token"])}});
  REQUIRE(response.status == 200);
  const auto body = parse(response.body);
  CHECK(str(body["application"]["id"]) == app_id);
  CHECK(str(body["application"]["name"]) == "Game");
  CHECK(body["scopes"].Size() == 2);
  CHECK(str(body["scopes"][1]) == "sdk.social_layer");
  CHECK(str(body["expires"]) == format_rfc3339_ms(clock.now_ms() + 604'800'000));
  CHECK(str(body["user"]["id"]) == user_id);
  CHECK(call("GET", "/api/v10/oauth2/@me").status == 401);
  CHECK(call("GET", "/api/v10/oauth2/@me", {}, {{"Authorization", "Bot " + bot_token}}).status == 401);
}

}  // namespace oauth_token_test
