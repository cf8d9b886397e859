// Child-application token exchange (RFC 8693 wire format) and provisional display names (PATCH /users/@me).
#include <doctest/doctest.h>

#include <string>

#include "oauth_fixture.hpp"

namespace token_exchange_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

constexpr const char* kExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange";
constexpr const char* kAccessTokenType = "urn:ietf:params:oauth:token-type:access_token";

struct ExchangeFixture : OAuthFixture {
  std::string child_id;

  ExchangeFixture() {
    const auto child = call("POST", "/_emulator/apps", R"({"name":"Child","parent_id":")" + app_id + R"("})");
    REQUIRE(child.status == 200);
    child_id = str(parse(child.body)["id"]);
  }

  HttpResponse exchange_for(const std::string& client_id, const std::string& subject_token) {
    return token({{"grant_type", kExchangeGrant},
                  {"client_id", client_id},
                  {"subject_token", subject_token},
                  {"subject_token_type", kAccessTokenType}});
  }
};

}  // namespace

TEST_CASE_FIXTURE(ExchangeFixture, "a parent token buys the same user a child token") {
  const auto parent = login();
  const auto parent_token = str(parent["access_token"]);
  const auto response = exchange_for(child_id, parent_token);
  REQUIRE_MESSAGE(response.status == 200, response.body);
  CHECK(response.header("Cache-Control") == "no-store");
  const auto child = parse(response.body);
  CHECK(str(child["token_type"]) == "Bearer");
  CHECK(child["expires_in"].GetInt() == 604800);
  CHECK(str(child["scope"]) == "openid sdk.social_layer");
  CHECK(str(child["issued_token_type"]) == kAccessTokenType);
  CHECK_FALSE(str(child["refresh_token"]).empty());
  const auto child_token = str(child["access_token"]);
  CHECK(child_token != parent_token);
  CHECK(str(me(child_token)["id"]) == user_id);

  const auto authorization =
      parse(call("GET", "/api/v10/oauth2/@me", {}, {{"Authorization", "Bearer " + child_token}}).body);
  CHECK(str(authorization["application"]["id"]) == child_id);

  SUBCASE("revoking the child leaves the parent, and vice versa") {
    HeaderList form{{"Content-Type", "application/x-www-form-urlencoded"}};
    CHECK(call("POST", "/api/v10/oauth2/token/revoke",
               form_body({{"token", child_token}, {"client_id", child_id}}), form)
              .status == 200);
    CHECK(me_status(child_token) == 401);
    CHECK(me_status(parent_token) == 200);
    const auto again = parse(exchange_for(child_id, parent_token).body);
    CHECK(call("POST", "/api/v10/oauth2/token/revoke",
               form_body({{"token", parent_token}, {"client_id", app_id}}), form)
              .status == 200);
    CHECK(me_status(parent_token) == 401);
    CHECK(me_status(str(again["access_token"])) == 200);
    // A refreshed child authorization works on its own too.
    CHECK(token({{"grant_type", "refresh_token"},
                 {"client_id", child_id},
                 {"refresh_token", str(again["refresh_token"])}})
              .status == 200);
  }
  SUBCASE("a narrower scope") {
    const auto narrow = token({{"grant_type", kExchangeGrant},
                               {"client_id", child_id},
                               {"subject_token", parent_token},
                               {"subject_token_type", kAccessTokenType},
                               {"scope", "openid"}});
    REQUIRE(narrow.status == 200);
    CHECK(str(parse(narrow.body)["scope"]) == "openid");
    const auto wider = token({{"grant_type", kExchangeGrant},
                              {"client_id", child_id},
                              {"subject_token", parent_token},
                              {"subject_token_type", kAccessTokenType},
                              {"scope", "openid guilds"}});
    CHECK(oauth_error_of(wider) == "invalid_scope");
  }
}

TEST_CASE_FIXTURE(ExchangeFixture, "token exchange refusals") {
  const auto parent_token = str(login()["access_token"]);
  SUBCASE("not a child of the token's application") {
    const auto unrelated = str(parse(call("POST", "/_emulator/apps", R"({"name":"Unrelated"})").body)["id"]);
    const auto response = exchange_for(unrelated, parent_token);
    CHECK(response.status == 400);
    CHECK(oauth_error_of(response) == "invalid_grant");
    CHECK(str(parse(response.body)["error_description"]) ==
          "The token's application is not the parent of this application.");
    // The parent itself is not its own child.
    CHECK(oauth_error_of(exchange_for(app_id, parent_token)) == "invalid_grant");
    // A grandchild is not a child of the grandparent.
    const auto grandchild = str(
        parse(call("POST", "/_emulator/apps", R"({"name":"Grandchild","parent_id":")" + child_id + R"("})")
                  .body)["id"]);
    CHECK(oauth_error_of(exchange_for(grandchild, parent_token)) == "invalid_grant");
  }
  SUBCASE("revoked, expired or unknown subject token") {
    CHECK(call("DELETE", "/_emulator/tokens/" + parent_token).status == 204);
    CHECK(oauth_error_of(exchange_for(child_id, parent_token)) == "invalid_grant");
    const auto fresh = str(login()["access_token"]);
    clock.advance(kAccessTokenLifetimeS * 1000);
    CHECK(oauth_error_of(exchange_for(child_id, fresh)) == "invalid_grant");
    CHECK(oauth_error_of(exchange_for(child_id, "not-a-token")) == "invalid_grant");
  }
  SUBCASE("a child's token is not a parent token") {
    const auto child_token = str(parse(exchange_for(child_id, parent_token).body)["access_token"]);
    CHECK(oauth_error_of(exchange_for(child_id, child_token)) == "invalid_grant");
  }
  SUBCASE("missing fields and unknown clients") {
    CHECK(oauth_error_of(token({{"grant_type", kExchangeGrant},
                                {"client_id", child_id},
                                {"subject_token_type", kAccessTokenType}})) == "invalid_request");
    CHECK(oauth_error_of(token(
              {{"grant_type", kExchangeGrant}, {"client_id", child_id}, {"subject_token", parent_token}})) ==
          "invalid_request");
    CHECK(oauth_error_of(token({{"grant_type", kExchangeGrant},
                                {"client_id", child_id},
                                {"subject_token", parent_token},
                                {"subject_token_type", "urn:ietf:params:oauth:token-type:id_token"}})) ==
          "invalid_request");
    const auto unknown = exchange_for("1234", parent_token);
    CHECK(unknown.status == 401);
    CHECK(oauth_error_of(unknown) == "invalid_client");
  }
  SUBCASE("a bot's token") {
    const auto bot = token(
        {{"grant_type", "client_credentials"}, {"client_id", app_id}, {"client_secret", client_secret}});
    REQUIRE_MESSAGE(bot.status == 200, bot.body);
    CHECK(oauth_error_of(exchange_for(child_id, str(parse(bot.body)["access_token"]))) == "invalid_grant");
  }
}

TEST_CASE_FIXTURE(OAuthFixture, "PATCH /users/@me sets a provisional account's display name") {
  const auto provisional = partner_token("OIDC", "oidc-user-1");
  REQUIRE(provisional.status == 200);
  const HeaderList bearer = {{"Authorization", "Bearer " + str(parse(provisional.body)["access_token"])}};
  auto patch = [&](const std::string& body, HeaderList headers) {
    return call("PATCH", "/api/v10/users/@me", body, std::move(headers));
  };

  auto response = patch(R"({"global_name":"A"})", bearer);
  REQUIRE_MESSAGE(response.status == 200, response.body);
  CHECK(str(parse(response.body)["global_name"]) == "A");
  CHECK(parse(response.body)["provisional"].GetBool());

  const std::string name32(32, 'n');
  response = patch(R"({"global_name":"  )" + name32 + R"(  "})", bearer);  // trimmed
  REQUIRE(response.status == 200);
  CHECK(str(parse(response.body)["global_name"]) == name32);
  // 32 characters, not bytes.
  std::string accents;
  for (int i = 0; i < 32; ++i)
    accents += "\xC3\xA9";
  CHECK(patch(R"({"global_name":")" + accents + R"("})", bearer).status == 200);
  const auto got = call("GET", "/api/v10/users/@me", {}, bearer);
  CHECK(str(parse(got.body)["global_name"]) == accents);

  for (const std::string& bad : {std::string(), std::string("   "), std::string(33, 'n')}) {
    response = patch(R"({"global_name":")" + bad + R"("})", bearer);
    CHECK(response.status == 400);
    const auto body = parse(response.body);
    CHECK(body["code"].GetInt() == 50035);
    CHECK(body["errors"]["global_name"]["_errors"].IsArray());
  }
  response = patch(R"({"global_name":null})", bearer);
  CHECK(response.status == 400);
  CHECK(patch(R"({"global_name":5})", bearer).status == 400);
  CHECK(patch(R"({})", bearer).status == 400);
  CHECK(patch(R"({"global_name":"x"})", {}).status == 401);

  // A regular account (and a bot) may not.
  const auto regular = login();
  response =
      patch(R"({"global_name":"Nope"})", {{"Authorization", "Bearer " + str(regular["access_token"])}});
  CHECK(response.status == 403);
  CHECK(parse(response.body)["code"].GetInt() == 50001);
  CHECK(str(parse(response.body)["message"]) == "Missing Access");
  CHECK(patch(R"({"global_name":"Nope"})", {{"Authorization", "Bot " + bot_token}}).status == 403);
}

}  // namespace token_exchange_test
