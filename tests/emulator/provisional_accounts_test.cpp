// Provisional accounts: /partner-sdk/token(/bot), merge through the token endpoint, unmerge(/bot).
#include <doctest/doctest.h>

#include "oauth_fixture.hpp"

namespace provisional_accounts_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {
Params merge_params(const std::string& type, const std::string& token) {
  return {{"external_auth_type", type}, {"external_auth_token", token}};
}
}  // namespace

TEST_CASE_FIXTURE(OAuthFixture, "an external token yields one provisional account, again and again") {
  auto response = partner_token("STEAM_SESSION_TICKET", "steam-ticket-1");
  REQUIRE(response.status == 200);
  CHECK(response.header("X-RateLimit-Bucket"));
  const auto first = parse(response.body);
  CHECK(str(first["token_type"]) == "Bearer");
  CHECK(first["expires_in"].GetInt() == 604800);
  CHECK(str(first["scope"]) == "sdk.social_layer");
  CHECK_FALSE(first.HasMember("refresh_token"));
  const auto id_token = str(first["id_token"]);
  CHECK(std::count(id_token.begin(), id_token.end(), '.') == 2);

  const auto user = me(str(first["access_token"]));
  CHECK(str(user["username"]) == "provisional_1");
  CHECK(user["provisional"].GetBool());
  CHECK_FALSE(user.HasMember("restricted"));
  CHECK_FALSE(me(str(login()["access_token"]))["provisional"].GetBool());  // regular users: false

  const auto second = parse(partner_token("STEAM_SESSION_TICKET", "steam-ticket-1").body);
  CHECK(str(me(str(second["access_token"]))["id"]) == str(user["id"]));
  // Another type with the same token text is another identity.
  const auto epic = parse(partner_token("EPIC_ONLINE_SERVICES_ID_TOKEN", "steam-ticket-1").body);
  CHECK(str(me(str(epic["access_token"]))["username"]) == "provisional_2");
}

TEST_CASE_FIXTURE(OAuthFixture, "request validation") {
  auto response = partner_token("XBOX_LIVE", "t");
  CHECK(response.status == 400);
  auto body = parse(response.body);
  CHECK(body["code"].GetInt() == 50035);
  CHECK(str(body["errors"]["external_auth_type"]["_errors"][0]["code"]) == "ENUM_TYPE_COERCE");
  CHECK(str(body["errors"]["external_auth_type"]["_errors"][0]["message"]).find("OIDC") != std::string::npos);

  response = call("POST", "/api/v10/partner-sdk/token", R"({"client_id":")" + app_id + R"("})");
  body = parse(response.body);
  CHECK(body["errors"].HasMember("external_auth_type"));
  CHECK(body["errors"].HasMember("external_auth_token"));
  response = call("POST", "/api/v10/partner-sdk/token",
                  R"({"client_id":"1","external_auth_type":"OIDC","external_auth_token":"t"})");
  CHECK(response.status == 404);
  CHECK(parse(response.body)["code"].GetInt() == 10002);
  response = call("POST", "/api/v10/partner-sdk/token",
                  R"({"client_id":")" + app_id +
                      R"(","client_secret":"wrong","external_auth_type":"OIDC","external_auth_token":"t"})");
  CHECK(response.status == 401);
  response = call("POST", "/api/v10/partner-sdk/token",
                  R"({"client_id":")" + app_id + R"(","client_secret":")" + client_secret +
                      R"(","external_auth_type":"OIDC","external_auth_token":"t"})");
  CHECK(response.status == 200);
  response = call("POST", "/api/v10/partner-sdk/token", "client_id=1",
                  {{"Content-Type", "application/x-www-form-urlencoded"}});
  CHECK(response.status == 415);
}

TEST_CASE_FIXTURE(OAuthFixture, "OIDC answers carry a refresh token that the refresh grant refuses") {
  const auto tokens = parse(partner_token("OIDC", "oidc-id-token").body);
  REQUIRE(tokens.HasMember("refresh_token"));
  const auto response = refresh(str(tokens["refresh_token"]));
  CHECK(response.status == 400);
  CHECK(oauth_error_of(response) == "invalid_grant");
  const auto description = str(parse(response.body)["error_description"]);
  CHECK(description.find("deprecated for provisional accounts") != std::string::npos);
  CHECK(description.find("re-authenticate") != std::string::npos);
  CHECK(description.find("UpdateToken") != std::string::npos);
  CHECK(me_status(str(tokens["access_token"])) == 200);  // refusing is not revoking
}

TEST_CASE_FIXTURE(OAuthFixture, "bot-issued provisional accounts") {
  const std::string path = "/api/v10/partner-sdk/token/bot";
  auto response = call("POST", path, R"({"external_user_id":"game-user-7","preferred_global_name":"Seven"})",
                       {{"Authorization", "Bot " + bot_token}});
  REQUIRE(response.status == 200);
  const auto tokens = parse(response.body);
  CHECK_FALSE(tokens.HasMember("refresh_token"));
  CHECK(str(tokens["scope"]) == "sdk.social_layer");
  const auto user = me(str(tokens["access_token"]));
  CHECK(str(user["global_name"]) == "Seven");
  CHECK(user["provisional"].GetBool());

  response =
      call("POST", path, R"({"external_user_id":"game-user-7"})", {{"Authorization", "Bot " + bot_token}});
  CHECK(str(me(str(parse(response.body)["access_token"]))["id"]) == str(user["id"]));
  // The bot-issued access token names the same identity at /partner-sdk/token.
  response = partner_token("DISCORD_BOT_ISSUED_ACCESS_TOKEN", str(tokens["access_token"]));
  REQUIRE(response.status == 200);
  CHECK(str(me(str(parse(response.body)["access_token"]))["id"]) == str(user["id"]));
  response = partner_token("DISCORD_BOT_ISSUED_ACCESS_TOKEN", "dead-token");
  CHECK(response.status == 401);
  CHECK(parse(response.body)["code"].GetInt() == 50014);

  const auto bearer = str(login()["access_token"]);
  CHECK(call("POST", path, R"({"external_user_id":"x"})", {{"Authorization", "Bearer " + bearer}}).status ==
        401);
  CHECK(call("POST", path, R"({"external_user_id":"x"})").status == 401);
  response = call("POST", path, R"({"external_user_id":""})", {{"Authorization", "Bot " + bot_token}});
  CHECK(response.status == 400);
  CHECK(parse(response.body)["errors"].HasMember("external_user_id"));
  response = call("POST", path, R"({"external_user_id":"y","preferred_global_name":""})",
                  {{"Authorization", "Bot " + bot_token}});
  CHECK(parse(response.body)["errors"].HasMember("preferred_global_name"));
}

TEST_CASE_FIXTURE(OAuthFixture, "admin external-identities maps several tokens to one account") {
  CHECK(call("POST", "/_emulator/external-identities",
             R"({"type":"STEAM_SESSION_TICKET","token":"ticket-a","external_user_id":"steam-76561"})")
            .status == 204);
  CHECK(call("POST", "/_emulator/external-identities",
             R"({"type":"STEAM_SESSION_TICKET","token":"ticket-b","external_user_id":"steam-76561"})")
            .status == 204);
  const auto a = me(str(parse(partner_token("STEAM_SESSION_TICKET", "ticket-a").body)["access_token"]));
  const auto b = me(str(parse(partner_token("STEAM_SESSION_TICKET", "ticket-b").body)["access_token"]));
  CHECK(str(a["id"]) == str(b["id"]));
  const auto response =
      call("POST", "/_emulator/external-identities",
           R"({"type":"DISCORD_BOT_ISSUED_ACCESS_TOKEN","token":"t","external_user_id":"u"})");
  CHECK(response.status == 400);
  CHECK(parse(response.body)["errors"].HasMember("type"));
}

TEST_CASE_FIXTURE(OAuthFixture, "merge: the provisional account becomes the consenting user") {
  const auto provisional = parse(partner_token("STEAM_SESSION_TICKET", "steam-1").body);
  const auto provisional_id = str(me(str(provisional["access_token"]))["id"]);

  auto response =
      exchange(authorize_code(), kVerifier, kRedirect, merge_params("STEAM_SESSION_TICKET", "steam-1"));
  REQUIRE_MESSAGE(response.status == 200, response.body);
  const auto merged = parse(response.body);
  CHECK(str(me(str(merged["access_token"]))["id"]) == user_id);
  CHECK(me_status(str(provisional["access_token"])) == 401);  // the provisional account is gone
  // The external identity now reaches the platform user.
  const auto again = me(str(parse(partner_token("STEAM_SESSION_TICKET", "steam-1").body)["access_token"]));
  CHECK(str(again["id"]) == user_id);
  CHECK_FALSE(again["provisional"].GetBool());
  CHECK(str(again["id"]) != provisional_id);
  // Merging again into the same user is harmless; into another user it is refused.
  CHECK(exchange(authorize_code(), kVerifier, kRedirect, merge_params("STEAM_SESSION_TICKET", "steam-1"))
            .status == 200);
  const auto other = create_user("player.two");
  call("POST", "/_emulator/consent", R"({"user_id":")" + other + R"("})");
  response =
      exchange(authorize_code(), kVerifier, kRedirect, merge_params("STEAM_SESSION_TICKET", "steam-1"));
  CHECK(oauth_error_of(response) == "invalid_grant");

  // A never-seen identity is linked directly.
  CHECK(exchange(authorize_code(), kVerifier, kRedirect, merge_params("APPLE_ID_TOKEN", "apple-1")).status ==
        200);
  CHECK(str(me(str(parse(partner_token("APPLE_ID_TOKEN", "apple-1").body)["access_token"]))["id"]) == other);

  CHECK(oauth_error_of(exchange(authorize_code(), kVerifier, kRedirect, {{"external_auth_type", "OIDC"}})) ==
        "invalid_request");
  CHECK(oauth_error_of(exchange(authorize_code(), kVerifier, kRedirect, merge_params("XBOX", "x"))) ==
        "invalid_request");
  CHECK(oauth_error_of(exchange(authorize_code(), kVerifier, kRedirect,
                                merge_params("DISCORD_BOT_ISSUED_ACCESS_TOKEN", "dead"))) == "invalid_grant");
}

TEST_CASE_FIXTURE(OAuthFixture, "unmerge severs the link: old tokens dead, a fresh provisional account") {
  partner_token("OIDC", "oidc-1");
  const auto merged =
      parse(exchange(authorize_code(), kVerifier, kRedirect, merge_params("OIDC", "oidc-1")).body);
  REQUIRE(merged.HasMember("refresh_token"));
  const std::string unmerge_body =
      R"({"client_id":")" + app_id + R"(","external_auth_type":"OIDC","external_auth_token":"oidc-1"})";
  auto response = call("POST", "/api/v10/partner-sdk/provisional-accounts/unmerge", unmerge_body);
  CHECK(response.status == 204);
  CHECK(me_status(str(merged["access_token"])) == 401);
  response = refresh(str(merged["refresh_token"]));
  CHECK(oauth_error_of(response) == "invalid_grant");
  CHECK(str(me(str(login()["access_token"]))["id"]) == user_id);  // the user itself lives on
  const auto fresh = me(str(parse(partner_token("OIDC", "oidc-1").body)["access_token"]));
  CHECK(fresh["provisional"].GetBool());
  CHECK(str(fresh["id"]) != user_id);

  response = call("POST", "/api/v10/partner-sdk/provisional-accounts/unmerge", unmerge_body);
  CHECK(response.status == 400);
  CHECK(parse(response.body)["code"].GetInt() == 530010);
  response =
      call("POST", "/api/v10/partner-sdk/provisional-accounts/unmerge",
           R"({"client_id":")" + app_id + R"(","external_auth_type":"OIDC","external_auth_token":"never"})");
  CHECK(parse(response.body)["code"].GetInt() == 530010);
}

TEST_CASE_FIXTURE(OAuthFixture, "unmerge/bot by external_user_id") {
  const auto bot_tokens = parse(call("POST", "/api/v10/partner-sdk/token/bot",
                                     R"({"external_user_id":"g-1"})", {{"Authorization", "Bot " + bot_token}})
                                    .body);
  const auto merged =
      parse(exchange(authorize_code(), kVerifier, kRedirect,
                     merge_params("DISCORD_BOT_ISSUED_ACCESS_TOKEN", str(bot_tokens["access_token"])))
                .body);
  REQUIRE(merged.HasMember("access_token"));
  const std::string path = "/api/v10/partner-sdk/provisional-accounts/unmerge/bot";
  CHECK(call("POST", path, R"({"external_user_id":"g-1"})").status == 401);
  CHECK(call("POST", path, R"({"external_user_id":"g-1"})", {{"Authorization", "Bot " + bot_token}}).status ==
        204);
  CHECK(me_status(str(merged["access_token"])) == 401);
  CHECK(oauth_error_of(refresh(str(merged["refresh_token"]))) == "invalid_grant");
  const auto response =
      call("POST", path, R"({"external_user_id":"g-1"})", {{"Authorization", "Bot " + bot_token}});
  CHECK(response.status == 400);
  CHECK(parse(response.body)["code"].GetInt() == 530010);
}

}  // namespace provisional_accounts_test
