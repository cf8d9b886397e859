// The platform data as documents (core/state_changes.hpp), without a file: every change a route makes is
// named (a mirror kept turn by turn equals everything saved whole), and a fresh service loaded with the
// documents serves the same tokens, codes, accounts, relationships and messages: a restart loses nothing.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "console/console_stream.hpp"
#include "oauth_fixture.hpp"
#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"

namespace state_documents_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

HeaderList bearer(const std::string& token) {
  return {{"Authorization", "Bearer " + token}};
}

// A second emulator over the same documents: the first one restarted.
using Restarted = ServiceBench;

}  // namespace

TEST_CASE_FIXTURE(OAuthFixture, "accounts, tokens, relationships and messages survive a restart") {
  StateMirror mirror(service.changes());

  const auto login_answer = login();
  const auto access = str(login_answer["access_token"]);
  const auto refreshed = parse(refresh(str(login_answer["refresh_token"])).body);
  const auto access2 = str(refreshed["access_token"]);
  const auto refresh2 = str(refreshed["refresh_token"]);
  mirror.check_complete();
  CHECK(mirror.count("grant") == 1);  // the refresh replaced the first grant

  const auto pending_code = authorize_code();  // issued, not yet exchanged
  mirror.check_complete();
  CHECK(mirror.count("authorization_code") == 1);

  const auto provisional = parse(partner_token("OIDC", "oidc-token-1").body);
  const auto provisional_access = str(provisional["access_token"]);
  mirror.check_complete();
  CHECK(mirror.count("external_identity") == 1);

  // A friend and a DM conversation with an edit and a deletion.
  const auto friend_id = create_user("friend.two");
  const auto friend_token =
      str(parse(call("POST", "/_emulator/tokens",
                     R"({"user_id":")" + friend_id + R"(","app_id":")" + app_id + R"(","scopes":"identify"})")
                    .body)["access_token"]);
  REQUIRE(call("POST", "/_emulator/friendships",
               R"({"user_id":")" + user_id + R"(","other_user_id":")" + friend_id + R"("})")
              .status == 200);
  const auto channel = parse(call("POST", "/api/v10/users/@me/channels",
                                  R"({"recipient_id":")" + friend_id + R"("})", bearer(access2))
                                 .body);
  const auto channel_id = str(channel["id"]);
  const auto path = "/api/v10/channels/" + channel_id + "/messages";
  std::string kept_id, edited_id, deleted_id;
  for (const auto* content : {"hello", "to edit", "to delete"}) {
    const auto response =
        call("POST", path, std::string(R"({"content":")") + content + R"("})", bearer(access2));
    REQUIRE_MESSAGE(response.status == 200, response.body);
    (kept_id.empty()     ? kept_id
     : edited_id.empty() ? edited_id
                         : deleted_id) = str(parse(response.body)["id"]);
  }
  REQUIRE(call("PATCH", path + "/" + edited_id, R"({"content":"edited"})", bearer(access2)).status == 200);
  REQUIRE(call("DELETE", path + "/" + deleted_id, {}, bearer(access2)).status == 204);
  mirror.check_complete();
  CHECK(mirror.count("message") == 2);

  // Consent moves to the friend; the first token is revoked.
  REQUIRE(call("POST", "/_emulator/consent", R"({"user_id":")" + friend_id + R"("})").status == 200);
  REQUIRE(call("DELETE", "/_emulator/tokens/" + friend_token).status == 204);
  mirror.check_complete();

  Restarted restarted;
  check_round_trip(mirror.documents(), restarted.service.changes());

  // The same tokens and ids are served.
  auto me = restarted.raw("GET", "/api/v10/users/@me", {}, bearer(access2));
  REQUIRE(me.status == 200);
  CHECK(str(parse(me.body)["id"]) == user_id);
  CHECK(restarted.raw("GET", "/api/v10/users/@me", {}, bearer(access)).status == 401);  // replaced by refresh
  CHECK(restarted.raw("GET", "/api/v10/users/@me", {}, bearer(friend_token)).status == 401);  // revoked
  CHECK(restarted.raw("GET", "/api/v10/users/@me", {}, bearer(provisional_access)).status == 200);
  // The refresh token and the pending code still work, once.
  const auto again = restarted.raw(
      "POST", "/api/v10/oauth2/token",
      form_body({{"grant_type", "refresh_token"}, {"client_id", app_id}, {"refresh_token", refresh2}}),
      {{"Content-Type", "application/x-www-form-urlencoded"}});
  CHECK_MESSAGE(again.status == 200, again.body);
  const auto exchanged = restarted.raw("POST", "/api/v10/oauth2/token",
                                       form_body({{"grant_type", "authorization_code"},
                                                  {"client_id", app_id},
                                                  {"code", pending_code},
                                                  {"redirect_uri", kRedirect},
                                                  {"code_verifier", kVerifier}}),
                                       {{"Content-Type", "application/x-www-form-urlencoded"}});
  CHECK_MESSAGE(exchanged.status == 200, exchanged.body);
  // The friendship and the DM history, edit included, deletion kept.
  const auto relationships =
      parse(restarted.raw("GET", "/api/v10/users/@me/relationships", {}, bearer(provisional_access)).body);
  CHECK(relationships.IsArray());
  const auto history = restarted.raw("GET", path, {}, bearer(str(parse(again.body)["access_token"])));
  REQUIRE_MESSAGE(history.status == 200, history.body);
  const auto messages = parse(history.body);
  REQUIRE(messages.Size() == 2);
  CHECK(str(messages[0]["id"]) == edited_id);  // newest first
  CHECK(str(messages[0]["content"]) == "edited");
  CHECK(str(messages[1]["id"]) == kept_id);
  // The provisional account counter goes on: the next one is not provisional_1 again.
  const auto next =
      parse(restarted
                .raw("POST", "/api/v10/partner-sdk/token",
                     R"({"client_id":")" + app_id +
                         R"(","external_auth_type":"OIDC","external_auth_token":"oidc-token-2"})")
                .body);
  const auto next_me =
      parse(restarted.raw("GET", "/api/v10/users/@me", {}, bearer(str(next["access_token"]))).body);
  CHECK(str(next_me["username"]) == "provisional_2");
}

TEST_CASE("a damaged document is refused, naming it") {
  std::int64_t real_now = 1'795'000'000'000;
  FakeClock clock{[&] { return real_now; }};
  EmulatorService service{clock, ServiceEndpoints{"wss://x", "https://x/api/v10", "x"}};
  CHECK_THROWS_WITH_AS(service.changes().load({DocumentChange{"user", "1", R"({"v":1})"}}),
                       doctest::Contains("user/1: missing \"username\""), std::invalid_argument);
  CHECK_THROWS_WITH_AS(service.changes().load({DocumentChange{"user", "1", R"({"v":9,"username":"x"})"}}),
                       doctest::Contains("format version 9"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(service.changes().load({DocumentChange{"spaceship", "1", "{}"}}),
                       doctest::Contains("unknown document kind \"spaceship\""), std::invalid_argument);
  CHECK_THROWS_WITH_AS(service.changes().load({DocumentChange{"message", "1", "[1]"}}),
                       doctest::Contains("not a JSON object"), std::invalid_argument);
}

}  // namespace state_documents_test

namespace state_documents_test {

TEST_CASE_FIXTURE(OAuthFixture, "the console's stream shows the data, never a credential") {
  StateMirror mirror(service.changes());
  const auto tokens = login();
  const auto pending_code = authorize_code();
  const auto provisional = parse(partner_token("OIDC", "oidc-secret-token").body);
  const auto snapshot = console_snapshot_json(service.changes());
  CHECK(snapshot.find(app_id) != std::string::npos);
  CHECK(snapshot.find("player.one") != std::string::npos);
  for (const auto& secret :
       {client_secret, bot_token, str(tokens["access_token"]), str(tokens["refresh_token"]), pending_code,
        str(provisional["access_token"]), std::string("oidc-secret-token")}) {
    CHECK_MESSAGE(snapshot.find(secret) == std::string::npos, "the snapshot shows " << secret);
  }
  // A turn's changes likewise: a refresh makes a grant and its tokens, none of which is shown.
  const auto refreshed = parse(refresh(str(tokens["refresh_token"])).body);
  const auto changes = service.changes().take();
  CHECK_FALSE(changes.empty());
  const auto streamed = console_changes_json(changes);
  if (streamed) {
    CHECK(streamed->find(str(refreshed["access_token"])) == std::string::npos);
    CHECK(streamed->find(str(refreshed["refresh_token"])) == std::string::npos);
  }
}

}  // namespace state_documents_test
