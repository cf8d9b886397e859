// Bans and linked game accounts (platform-spec "States and transitions", row "Linked game account").
#include <doctest/doctest.h>

#include "oauth_fixture.hpp"

namespace bans_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {
struct BanFixture : OAuthFixture {
  rapidjson::Document merged;  // the user's tokens from merging the Steam identity "steam-1"

  BanFixture() {
    partner_token("STEAM_SESSION_TICKET", "steam-1");
    merged = parse(exchange(authorize_code(), kVerifier, kRedirect, merge()).body);
    REQUIRE(merged.HasMember("access_token"));
  }
  static Params merge() {
    return {{"external_auth_type", "STEAM_SESSION_TICKET"}, {"external_auth_token", "steam-1"}};
  }
  HttpResponse ban(const std::string& body = {}) {
    return call("POST", "/_emulator/users/" + user_id + "/ban", body);
  }
  HttpResponse unban() { return call("DELETE", "/_emulator/users/" + user_id + "/ban"); }
  HttpResponse merge_attempt() { return exchange(authorize_code(), kVerifier, kRedirect, merge()); }
};
}  // namespace

TEST_CASE_FIXTURE(BanFixture, "a ban deletes tokens and severs linked identities into restricted accounts") {
  const auto plain = login();
  auto response = ban();
  REQUIRE(response.status == 200);
  const auto body = parse(response.body);
  CHECK_FALSE(body["permanent"].GetBool());
  REQUIRE(body["restricted_user_ids"].Size() == 1);

  const rapidjson::Document* all_tokens[] = {&merged, &plain};
  for (const auto* tokens : all_tokens) {
    CHECK(me_status(str((*tokens)["access_token"])) == 401);
    CHECK(oauth_error_of(refresh(str((*tokens)["refresh_token"]))) == "invalid_grant");
  }
  // The external identity now reaches a restricted provisional account.
  const auto restricted =
      me(str(parse(partner_token("STEAM_SESSION_TICKET", "steam-1").body)["access_token"]));
  CHECK(str(restricted["id"]) == str(body["restricted_user_ids"][0]));
  CHECK(restricted["provisional"].GetBool());
  CHECK(restricted["restricted"].GetBool());

  // Merging fails with 530017 while the ban lasts, into the banned user or anyone else.
  response = merge_attempt();
  CHECK(response.status == 400);
  CHECK(oauth_error_of(response) == "invalid_grant");
  CHECK(parse(response.body)["code"].GetInt() == 530017);
  const auto other = create_user("player.two");
  call("POST", "/_emulator/consent", R"({"user_id":")" + other + R"("})");
  CHECK(parse(merge_attempt().body)["code"].GetInt() == 530017);
  call("POST", "/_emulator/consent", R"({"user_id":")" + user_id + R"("})");
  // A plain login of the banned user is refused too (without the merge code).
  response = exchange(authorize_code());
  CHECK(oauth_error_of(response) == "invalid_grant");
  CHECK_FALSE(parse(response.body).HasMember("code"));
}

TEST_CASE_FIXTURE(BanFixture, "lifting a ban lets the identity merge again") {
  ban(R"({"permanent":false})");
  CHECK(unban().status == 204);
  const auto restricted =
      me(str(parse(partner_token("STEAM_SESSION_TICKET", "steam-1").body)["access_token"]));
  CHECK_FALSE(restricted.HasMember("restricted"));
  const auto response = merge_attempt();
  REQUIRE_MESSAGE(response.status == 200, response.body);
  CHECK(str(me(str(parse(response.body)["access_token"]))["id"]) == user_id);
  CHECK(str(me(str(parse(partner_token("STEAM_SESSION_TICKET", "steam-1").body)["access_token"]))["id"]) ==
        user_id);
  CHECK(unban().status == 204);  // not banned: idempotent
}

TEST_CASE_FIXTURE(BanFixture, "a permanent ban cannot be lifted") {
  auto response = ban(R"({"permanent":true})");
  CHECK(parse(response.body)["permanent"].GetBool());
  response = unban();
  CHECK(response.status == 400);
  CHECK(str(parse(response.body)["message"]) == "A permanent ban cannot be lifted");
  CHECK(parse(merge_attempt().body)["code"].GetInt() == 530017);
  // Banning again cannot downgrade it.
  CHECK(parse(ban(R"({"permanent":false})").body)["permanent"].GetBool());
  CHECK(unban().status == 400);
}

TEST_CASE_FIXTURE(BanFixture, "ban admin errors") {
  CHECK(call("POST", "/_emulator/users/1/ban").status == 404);
  CHECK(call("DELETE", "/_emulator/users/1/ban").status == 404);
  CHECK(ban(R"({"permanent":"yes"})").status == 400);
  CHECK(ban(R"({"permanent":true})").status == 200);
}

}  // namespace bans_test
