// The social routes without sockets (docs/social-protocol.md): relationships (platform and game) with their
// dispatches to both users, user objects, presence fan-out, DM channels and activity invites, and the admin
// routes behind them. A fake GatewayPeer records what each session is sent.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ipc/ipc_peer.hpp"
#include "service/emulator_service.hpp"
#include "test_support.hpp"

namespace social_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

struct FakePeer final : GatewayPeer {
  void enable_compression() override {}
  void send(std::string json) override {
    if (!closed) sent.push_back(std::move(json));
  }
  void close(int code, std::string) override {
    closed = true;
    close_code = code;
  }
  void drop() override { closed = true; }

  // The d of every dispatch `t` received so far.
  std::vector<rapidjson::Document> dispatches(std::string_view t) {
    std::vector<rapidjson::Document> result;
    for (const auto& text : sent) {
      auto payload = parse(text);
      if (payload["op"].GetInt() != 0 || !payload["t"].IsString() || str(payload["t"]) != t) continue;
      rapidjson::Document d;
      d.CopyFrom(payload["d"], d.GetAllocator());
      result.push_back(std::move(d));
    }
    return result;
  }
  rapidjson::Document ready() {
    auto all = dispatches("READY");
    REQUIRE(all.size() == 1);
    return std::move(all.front());
  }

  std::vector<std::string> sent;
  bool closed = false;
  int close_code = 0;
};

struct FakeIpcPeer final : IpcPeer {
  void send(std::string bytes) override {
    decoder.feed(bytes);
    while (auto frame = decoder.next())
      frames.push_back(parse(frame->payload));
  }
  void close() override { closed = true; }
  IpcFrameDecoder decoder;
  std::vector<rapidjson::Document> frames;
  bool closed = false;
};

struct Fixture {
  std::int64_t real_now = 1'795'000'000'000;
  FakeClock clock{[this] { return real_now; }};
  EmulatorService service{
      clock, ServiceEndpoints{"wss://127.0.0.1:1234", "https://127.0.0.1:1234/api/v10", "127.0.0.1:1234"}};
  std::string app_id;
  std::string other_app_id;
  std::vector<std::unique_ptr<FakePeer>> peers;

  Fixture() {
    app_id = str(parse(admin("POST", "/apps", R"({"name":"Game"})").body)["id"]);
    other_app_id = str(parse(admin("POST", "/apps", R"({"name":"Other Game"})").body)["id"]);
  }

  HttpResponse admin(std::string method, const std::string& path, std::string body = {}) {
    const auto outcome =
        service.handle(make_request(std::move(method), "/_emulator" + path, std::move(body)));
    REQUIRE(outcome.delivery == Outcome::Delivery::respond);
    return outcome.response;
  }

  HttpResponse api(std::string method, const std::string& path, const std::string& token,
                   std::string body = {}) {
    const auto outcome = service.handle(make_request(std::move(method), "/api/v10" + path, std::move(body),
                                                     {{"Authorization", "Bearer " + token}}));
    REQUIRE(outcome.delivery == Outcome::Delivery::respond);
    return outcome.response;
  }

  std::string user(const std::string& name) {
    const auto response = admin("POST", "/users", R"({"username":")" + name + R"("})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["id"]);
  }

  std::string token(const std::string& user_id, const std::string& app,
                    const std::string& scopes = "identify") {
    const auto response =
        admin("POST", "/tokens",
              R"({"user_id":")" + user_id + R"(","app_id":")" + app + R"(","scopes":")" + scopes + R"("})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["access_token"]);
  }

  // A connected, identified Gateway session of the token's user.
  FakePeer& connect(const std::string& token_value) {
    peers.push_back(std::make_unique<FakePeer>());
    auto& peer = *peers.back();
    const auto id = service.gateway_opened(peer, "/?v=10&encoding=json");
    connection_ids.push_back(id);
    service.gateway_received(
        id, R"({"op":2,"d":{"token":"Bearer )" + token_value + R"(","properties":{},"intents":0}})", true);
    REQUIRE_FALSE(peer.closed);
    return peer;
  }
  std::uint64_t connection_of(const FakePeer& peer) {
    for (std::size_t i = 0; i < peers.size(); ++i) {
      if (peers[i].get() == &peer) return connection_ids[i];
    }
    FAIL("unknown peer");
    return 0;
  }
  void presence(const FakePeer& peer, const std::string& d) {
    service.gateway_received(connection_of(peer), R"({"op":3,"d":)" + d + "}", true);
  }

  // GET /users/@me/relationships as {other id -> relationship}.
  std::map<std::string, rapidjson::Document> relationships(const std::string& token_value,
                                                           const std::string& kind = "relationships") {
    const auto response = api("GET", "/users/@me/" + kind, token_value);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    const auto list = parse(response.body);
    REQUIRE(list.IsArray());
    std::map<std::string, rapidjson::Document> result;
    for (const auto& entry : list.GetArray()) {
      rapidjson::Document copy;
      copy.CopyFrom(entry, copy.GetAllocator());
      result.emplace(str(entry["id"]), std::move(copy));
    }
    return result;
  }
  int type_seen(const std::string& token_value, const std::string& other_id,
                const std::string& kind = "relationships") {
    auto all = relationships(token_value, kind);
    const auto it = all.find(other_id);
    return it == all.end() ? 0 : it->second["type"].GetInt();
  }

  std::vector<std::uint64_t> connection_ids;
};

int code_of(const HttpResponse& response) {
  return parse(response.body)["code"].GetInt();
}

// Two users with tokens of the fixture's app.
struct Pair : Fixture {
  std::string a = user("alice");
  std::string b = user("bob");
  std::string ta = token(a, app_id);
  std::string tb = token(b, app_id);
};

}  // namespace

TEST_CASE_FIXTURE(Pair,
                  "relationships: request, accept, then both are friends with dispatches on both sides") {
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  CHECK(api("PUT", "/users/@me/relationships/" + b, ta, "{}").status == 204);
  CHECK(type_seen(ta, b) == 4);
  CHECK(type_seen(tb, a) == 3);
  auto added_a = ga.dispatches("RELATIONSHIP_ADD");
  auto added_b = gb.dispatches("RELATIONSHIP_ADD");
  REQUIRE(added_a.size() == 1);
  REQUIRE(added_b.size() == 1);
  CHECK(added_a[0]["type"].GetInt() == 4);
  CHECK(str(added_a[0]["id"]) == b);
  CHECK(str(added_a[0]["user"]["username"]) == "bob");
  CHECK(added_b[0]["type"].GetInt() == 3);
  CHECK_FALSE(added_b[0]["is_spam_request"].GetBool());
  CHECK(added_b[0]["since"].IsString());
  // Asking again is harmless; the other side accepts (an empty body works too).
  CHECK(api("PUT", "/users/@me/relationships/" + b, ta, "{}").status == 204);
  CHECK(api("PUT", "/users/@me/relationships/" + a, tb).status == 204);
  CHECK(type_seen(ta, b) == 1);
  CHECK(type_seen(tb, a) == 1);
  added_a = ga.dispatches("RELATIONSHIP_ADD");
  added_b = gb.dispatches("RELATIONSHIP_ADD");
  REQUIRE(added_a.size() == 2);
  REQUIRE(added_b.size() == 2);
  CHECK(added_a[1]["type"].GetInt() == 1);
  CHECK(added_b[1]["type"].GetInt() == 1);
  // Friends see each other's presence at once.
  CHECK_FALSE(ga.dispatches("PRESENCE_UPDATE").empty());
  CHECK_FALSE(gb.dispatches("PRESENCE_UPDATE").empty());
  // Already friends.
  const auto again = api("PUT", "/users/@me/relationships/" + b, ta, "{}");
  CHECK(again.status == 400);
  CHECK(code_of(again) == 80007);
}

TEST_CASE_FIXTURE(Pair, "relationships: POST by username; unknown names, users and relationships") {
  auto response = api("POST", "/users/@me/relationships", ta, R"({"username":"nobody"})");
  CHECK(response.status == 400);
  CHECK(code_of(response) == 80004);
  response = api("POST", "/users/@me/relationships", ta, R"({})");
  CHECK(code_of(response) == 50035);
  CHECK(api("POST", "/users/@me/relationships", ta, R"({"username":"bob"})").status == 204);
  CHECK(type_seen(tb, a) == 3);
  response = api("PUT", "/users/@me/relationships/123456789", ta, "{}");
  CHECK(response.status == 404);
  CHECK(code_of(response) == 10013);
  response = api("PUT", "/users/@me/relationships/" + a, ta, "{}");  // oneself
  CHECK(code_of(response) == 80000);
  response = api("PUT", "/users/@me/relationships/" + b, ta, R"({"type":3})");
  CHECK(code_of(response) == 50035);
  const auto carol = user("carol");
  response = api("DELETE", "/users/@me/relationships/" + carol, ta);
  CHECK(response.status == 404);
  CHECK(code_of(response) == 10070);
  CHECK(api("GET", "/users/@me/relationships", "bad-token").status == 401);
}

TEST_CASE_FIXTURE(Pair, "relationships: reject, cancel and remove take both sides away") {
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  SUBCASE("reject") {
    REQUIRE(api("PUT", "/users/@me/relationships/" + b, ta, "{}").status == 204);
    CHECK(api("DELETE", "/users/@me/relationships/" + a, tb).status == 204);
    const auto removed_a = ga.dispatches("RELATIONSHIP_REMOVE");
    const auto removed_b = gb.dispatches("RELATIONSHIP_REMOVE");
    REQUIRE(removed_a.size() == 1);
    REQUIRE(removed_b.size() == 1);
    CHECK(removed_a[0]["type"].GetInt() == 4);
    CHECK(str(removed_a[0]["id"]) == b);
    CHECK(removed_b[0]["type"].GetInt() == 3);
  }
  SUBCASE("cancel") {
    REQUIRE(api("PUT", "/users/@me/relationships/" + b, ta, "{}").status == 204);
    CHECK(api("DELETE", "/users/@me/relationships/" + b, ta).status == 204);
    CHECK(gb.dispatches("RELATIONSHIP_REMOVE").size() == 1);
  }
  SUBCASE("remove a friend") {
    REQUIRE(api("PUT", "/users/@me/relationships/" + b, ta, "{}").status == 204);
    REQUIRE(api("PUT", "/users/@me/relationships/" + a, tb, "{}").status == 204);
    CHECK(api("DELETE", "/users/@me/relationships/" + b, ta).status == 204);
    const auto removed_b = gb.dispatches("RELATIONSHIP_REMOVE");
    REQUIRE(removed_b.size() == 1);
    CHECK(removed_b[0]["type"].GetInt() == 1);
    // Gone: a second delete finds nothing.
    CHECK(code_of(api("DELETE", "/users/@me/relationships/" + b, ta)) == 10070);
  }
  CHECK(type_seen(ta, b) == 0);
  CHECK(type_seen(tb, a) == 0);
}

TEST_CASE_FIXTURE(Pair, "relationships: block removes the friendship and pending requests; unblock") {
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  SUBCASE("a friend") {
    REQUIRE(api("PUT", "/users/@me/relationships/" + b, ta, "{}").status == 204);
    REQUIRE(api("PUT", "/users/@me/relationships/" + a, tb, "{}").status == 204);
  }
  SUBCASE("a pending request from the blocked user") {
    REQUIRE(api("PUT", "/users/@me/relationships/" + a, tb, "{}").status == 204);
  }
  SUBCASE("no relationship") {}
  CHECK(api("PUT", "/users/@me/relationships/" + b, ta, R"({"type":2})").status == 204);
  CHECK(type_seen(ta, b) == 2);
  CHECK(type_seen(tb, a) == 0);
  const auto added = ga.dispatches("RELATIONSHIP_ADD");
  REQUIRE_FALSE(added.empty());
  CHECK(added.back()["type"].GetInt() == 2);
  // The blocked user can no longer send requests (nor the blocker, until unblocking).
  auto response = api("PUT", "/users/@me/relationships/" + a, tb, "{}");
  CHECK(response.status == 400);
  CHECK(code_of(response) == 80000);
  CHECK(code_of(api("POST", "/users/@me/relationships", tb, R"({"username":"alice"})")) == 80000);
  CHECK(code_of(api("PUT", "/users/@me/relationships/" + b, ta, "{}")) == 80000);
  CHECK(type_seen(ta, b) == 2);
  // Unblock: the relationship goes; requests work again.
  CHECK(api("DELETE", "/users/@me/relationships/" + b, ta).status == 204);
  const auto removed = ga.dispatches("RELATIONSHIP_REMOVE");
  REQUIRE_FALSE(removed.empty());
  CHECK(removed.back()["type"].GetInt() == 2);
  CHECK(type_seen(ta, b) == 0);
  CHECK(api("PUT", "/users/@me/relationships/" + a, tb, "{}").status == 204);
  CHECK(type_seen(ta, b) == 3);
  (void)gb;
}

TEST_CASE_FIXTURE(Pair, "relationships: requests from users flagged as spammers are spam requests") {
  const auto carol = user("carol");
  const auto tc = token(carol, app_id);
  auto response = admin("POST", "/users/" + a + "/spammer", R"({"spammer":true})");
  REQUIRE_MESSAGE(response.status == 200, response.body);
  CHECK(admin("POST", "/users/999/spammer", "{}").status == 404);
  REQUIRE(api("PUT", "/users/@me/relationships/" + carol, ta, "{}").status == 204);
  REQUIRE(api("PUT", "/users/@me/relationships/" + carol, tb, "{}").status == 204);
  auto seen = relationships(tc);
  CHECK(seen.at(a)["is_spam_request"].GetBool());
  CHECK_FALSE(seen.at(b)["is_spam_request"].GetBool());
  CHECK_FALSE(relationships(ta).at(carol)["is_spam_request"].GetBool());  // the outgoing side is not spam
  // Unflagging clears the pending request's flag.
  REQUIRE(admin("POST", "/users/" + a + "/spammer", R"({"spammer":false})").status == 200);
  CHECK_FALSE(relationships(tc).at(a)["is_spam_request"].GetBool());
}

TEST_CASE_FIXTURE(Pair, "game relationships: per application, request/accept/reject/cancel/remove") {
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  auto& gb_other = connect(token(b, other_app_id));
  const auto kind = std::string("game-relationships");
  CHECK(code_of(api("POST", "/users/@me/game-relationships", ta, R"({"username":"nobody"})")) == 80004);
  CHECK(code_of(api("PUT", "/users/@me/game-relationships/424242", ta, "{}")) == 10013);
  CHECK(api("POST", "/users/@me/game-relationships", ta, R"({"username":"bob"})").status == 204);
  CHECK(type_seen(ta, b, kind) == 4);
  CHECK(type_seen(tb, a, kind) == 3);
  CHECK(type_seen(tb, a) == 0);  // not a platform relationship
  CHECK(relationships(token(b, other_app_id), kind).empty());
  auto added_b = gb.dispatches("GAME_RELATIONSHIP_ADD");
  REQUIRE(added_b.size() == 1);
  CHECK(added_b[0]["type"].GetInt() == 3);
  CHECK(str(added_b[0]["application_id"]) == app_id);
  CHECK(gb_other.dispatches("GAME_RELATIONSHIP_ADD").empty());  // another application's session

  SUBCASE("accept, then remove") {
    CHECK(api("PUT", "/users/@me/game-relationships/" + a, tb, "{}").status == 204);
    CHECK(type_seen(ta, b, kind) == 1);
    CHECK(type_seen(tb, a, kind) == 1);
    CHECK(ga.dispatches("GAME_RELATIONSHIP_ADD").back()["type"].GetInt() == 1);
    CHECK(code_of(api("PUT", "/users/@me/game-relationships/" + a, tb, "{}")) == 80007);
    CHECK(api("DELETE", "/users/@me/game-relationships/" + a, tb).status == 204);
    const auto removed = ga.dispatches("GAME_RELATIONSHIP_REMOVE");
    REQUIRE(removed.size() == 1);
    CHECK(str(removed[0]["id"]) == b);
    CHECK(str(removed[0]["application_id"]) == app_id);
  }
  SUBCASE("reject") {
    CHECK(api("DELETE", "/users/@me/game-relationships/" + a, tb).status == 204);
    CHECK(ga.dispatches("GAME_RELATIONSHIP_REMOVE").size() == 1);
  }
  SUBCASE("cancel") {
    CHECK(api("DELETE", "/users/@me/game-relationships/" + b, ta).status == 204);
    CHECK(gb.dispatches("GAME_RELATIONSHIP_REMOVE").size() == 1);
  }
  CHECK(type_seen(ta, b, kind) == 0);
  CHECK(type_seen(tb, a, kind) == 0);
  CHECK(code_of(api("DELETE", "/users/@me/game-relationships/" + b, ta)) == 10070);
}

TEST_CASE_FIXTURE(Pair, "game relationships: a platform block removes them and stops requests") {
  const auto kind = std::string("game-relationships");
  REQUIRE(api("PUT", "/users/@me/game-relationships/" + b, ta, "{}").status == 204);
  REQUIRE(api("PUT", "/users/@me/game-relationships/" + a, tb, "{}").status == 204);
  REQUIRE(type_seen(ta, b, kind) == 1);
  auto& ga = connect(ta);
  REQUIRE(api("PUT", "/users/@me/relationships/" + a, tb, R"({"type":2})").status == 204);
  CHECK(type_seen(ta, b, kind) == 0);
  CHECK(type_seen(tb, a, kind) == 0);
  CHECK(ga.dispatches("GAME_RELATIONSHIP_REMOVE").size() == 1);
  CHECK(code_of(api("PUT", "/users/@me/game-relationships/" + b, ta, "{}")) == 80000);
  CHECK(code_of(api("PUT", "/users/@me/game-relationships/" + a, tb, "{}")) == 80000);
}

TEST_CASE_FIXTURE(Pair, "users: GET /users/{id} and the user object's fields") {
  auto response = api("GET", "/users/" + b, ta);
  REQUIRE(response.status == 200);
  auto bob = parse(response.body);
  CHECK(str(bob["username"]) == "bob");
  CHECK(bob["global_name"].IsNull());
  CHECK(bob["avatar"].IsNull());
  CHECK(bob["primary_guild"].IsNull());
  CHECK(bob["premium_type"].GetInt() == 0);
  CHECK_FALSE(bob["provisional"].GetBool());
  CHECK(str(parse(api("GET", "/users/@me", ta).body)["id"]) == a);
  response = api("GET", "/users/31337", ta);
  CHECK(response.status == 404);
  CHECK(code_of(response) == 10013);
  CHECK(api("GET", "/users/" + b, "nope").status == 401);
}

TEST_CASE_FIXTURE(Pair, "users: premium_type only for approved apps AND tokens with identify.premium") {
  REQUIRE(admin("POST", "/users/" + b + "/profile", R"({"premium_type":2})").status == 200);
  const auto with_scope = token(a, app_id, "identify identify.premium");
  const auto premium_of = [&](const std::string& token_value) {
    return parse(api("GET", "/users/" + b, token_value).body)["premium_type"].GetInt();
  };
  CHECK(premium_of(with_scope) == 0);  // app not approved yet
  CHECK(admin("POST", "/apps/999/premium", "{}").status == 404);
  REQUIRE(admin("POST", "/apps/" + app_id + "/premium", R"({"approved":true})").status == 200);
  CHECK(premium_of(with_scope) == 2);
  CHECK(premium_of(ta) == 0);  // no identify.premium scope
  const auto own_oauth = token(b, app_id, "identify identify.premium");
  CHECK(parse(api("GET", "/oauth2/@me", own_oauth).body)["user"]["premium_type"].GetInt() == 2);
  const auto own = token(b, app_id, "identify identify.premium");
  CHECK(parse(api("GET", "/users/@me", own).body)["premium_type"].GetInt() == 2);
  CHECK(parse(api("GET", "/users/@me", tb).body)["premium_type"].GetInt() == 0);
  // READY's user follows the same rule.
  CHECK(connect(own).ready()["user"]["premium_type"].GetInt() == 2);
  CHECK(connect(tb).ready()["user"]["premium_type"].GetInt() == 0);
  REQUIRE(admin("POST", "/apps/" + app_id + "/premium", R"({"approved":false})").status == 200);
  CHECK(premium_of(with_scope) == 0);
}

TEST_CASE_FIXTURE(Pair, "users: the guild tag takes 1 to 4 characters") {
  auto response = admin("POST", "/users/" + b + "/profile", R"({"tag":"A"})");
  REQUIRE_MESSAGE(response.status == 200, response.body);
  CHECK(str(parse(response.body)["primary_guild"]["tag"]) == "A");
  response = admin("POST", "/users/" + b + "/profile", R"({"tag":"\u00c4BCD"})");  // 4 characters, 5 bytes
  REQUIRE_MESSAGE(response.status == 200, response.body);
  auto bob = parse(api("GET", "/users/" + b, ta).body);
  CHECK(str(bob["primary_guild"]["tag"]) ==
        "\xc3\x84"
        "BCD");
  CHECK(bob["primary_guild"]["identity_enabled"].GetBool());
  CHECK(bob["primary_guild"]["identity_guild_id"].IsString());
  for (const auto* bad : {R"({"tag":""})", R"({"tag":"ABCDE"})"}) {
    CAPTURE(bad);
    response = admin("POST", "/users/" + b + "/profile", bad);
    CHECK(response.status == 400);
    const auto error = parse(response.body);
    CHECK(error["code"].GetInt() == 50035);
    CHECK(error["errors"]["tag"]["_errors"].IsArray());
  }
  CHECK(str(parse(api("GET", "/users/" + b, ta).body)["primary_guild"]["tag"]) ==
        "\xc3\x84"
        "BCD");
  REQUIRE(admin("POST", "/users/" + b + "/profile", R"({"tag":null})").status == 200);
  CHECK(parse(api("GET", "/users/" + b, ta).body)["primary_guild"].IsNull());
  CHECK(admin("POST", "/users/4242/profile", R"({"tag":"A"})").status == 404);
}

TEST_CASE_FIXTURE(
    Pair, "users: a profile change sends USER_UPDATE to the user and RELATIONSHIP_UPDATE to friends") {
  REQUIRE(
      admin("POST", "/friendships", R"({"user_id":")" + a + R"(","other_user_id":")" + b + R"("})").status ==
      200);
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  auto response =
      admin("POST", "/users/" + b + "/profile", R"({"global_name":"Bobby","avatar":"a1b2c3","tag":"BOB"})");
  REQUIRE_MESSAGE(response.status == 200, response.body);
  const auto updates = gb.dispatches("USER_UPDATE");
  REQUIRE(updates.size() == 1);
  CHECK(str(updates[0]["global_name"]) == "Bobby");
  CHECK(str(updates[0]["avatar"]) == "a1b2c3");
  const auto friend_view = ga.dispatches("RELATIONSHIP_UPDATE");
  REQUIRE(friend_view.size() == 1);
  CHECK(str(friend_view[0]["user"]["global_name"]) == "Bobby");
  CHECK(str(friend_view[0]["user"]["primary_guild"]["tag"]) == "BOB");
  // The same values again change nothing: no dispatch.
  admin("POST", "/users/" + b + "/profile", R"({"global_name":"Bobby"})");
  CHECK(gb.dispatches("USER_UPDATE").size() == 1);
  CHECK(code_of(admin("POST", "/users/" + b + "/profile", R"({"global_name":""})")) == 50035);
}

TEST_CASE_FIXTURE(Pair, "presence: op 3 fans out with application_id, no secrets or button URLs") {
  REQUIRE(
      admin("POST", "/friendships", R"({"user_id":")" + a + R"(","other_user_id":")" + b + R"("})").status ==
      200);
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  auto& ga2 = connect(token(a, app_id));  // the user's other session
  const auto before = gb.dispatches("PRESENCE_UPDATE").size();
  presence(ga, R"({"since":null,"status":"online","afk":false,"activities":[
      {"name":"Chess","type":0,"application_id":"1","party":{"id":"p1","size":[1,4]},
       "secrets":{"join":"s3cret"},"buttons":["Watch"],"metadata":{"button_urls":["https://x"]}},
      {"name":"Radio","type":1}]})");
  REQUIRE_FALSE(ga.closed);
  const auto updates = gb.dispatches("PRESENCE_UPDATE");
  REQUIRE(updates.size() == before + 1);
  const auto& d = updates.back();
  CHECK(str(d["user"]["id"]) == a);
  CHECK(str(d["user"]["username"]) == "alice");
  REQUIRE(d["activities"].Size() == 1);  // type 1 is dropped
  const auto& activity = d["activities"][0];
  CHECK(str(activity["application_id"]) == app_id);
  CHECK_FALSE(activity.HasMember("secrets"));
  CHECK_FALSE(activity.HasMember("metadata"));
  CHECK(str(activity["buttons"][0]) == "Watch");
  CHECK(str(activity["party"]["id"]) == "p1");
  CHECK(str(ga2.dispatches("PRESENCE_UPDATE").back()["activities"][0]["name"]) == "Chess");
  // Invisible looks offline to friends.
  presence(ga, R"({"since":null,"status":"invisible","afk":false,"activities":[]})");
  CHECK(str(gb.dispatches("PRESENCE_UPDATE").back()["status"]) == "offline");
  presence(ga, R"({"since":null,"status":"dnd","afk":false,"activities":[]})");
  CHECK(str(gb.dispatches("PRESENCE_UPDATE").back()["status"]) == "dnd");
  // A friend connecting later gets the last presence in READY.
  auto& gb_late = connect(tb);
  const auto ready = gb_late.ready();
  REQUIRE(ready["presences"].Size() == 1);
  CHECK(str(ready["presences"][0]["status"]) == "dnd");
  // Both sessions of A end: B sees A offline, with no activities.
  service.gateway_disconnected(connection_of(ga), 1000);
  CHECK(str(gb.dispatches("PRESENCE_UPDATE").back()["status"]) == "dnd");
  service.gateway_disconnected(connection_of(ga2), 1000);
  const auto offline = std::move(gb.dispatches("PRESENCE_UPDATE").back());
  CHECK(str(offline["status"]) == "offline");
  CHECK(offline["activities"].Empty());
}

TEST_CASE_FIXTURE(Pair, "presence: game friends see each other through their game, and only that game") {
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  auto& gb_elsewhere = connect(token(b, other_app_id));
  const auto chess =
      R"({"since":null,"status":"online","afk":false,"activities":[{"name":"Chess","type":0}]})";
  // A request is not a friendship: nothing yet.
  REQUIRE(api("PUT", "/users/@me/game-relationships/" + b, ta, "{}").status == 204);
  presence(ga, chess);
  CHECK(gb.dispatches("PRESENCE_UPDATE").empty());
  // Accepted: each sees the other, on their sessions of this game.
  REQUIRE(api("PUT", "/users/@me/game-relationships/" + a, tb, "{}").status == 204);
  REQUIRE(gb.dispatches("PRESENCE_UPDATE").size() == 1);
  CHECK(str(gb.dispatches("PRESENCE_UPDATE").back()["user"]["id"]) == a);
  CHECK(str(gb.dispatches("PRESENCE_UPDATE").back()["activities"][0]["name"]) == "Chess");
  REQUIRE(ga.dispatches("PRESENCE_UPDATE").size() == 1);
  CHECK(str(ga.dispatches("PRESENCE_UPDATE").back()["user"]["id"]) == b);
  CHECK(gb_elsewhere.dispatches("PRESENCE_UPDATE").empty());
  // What A does in another game stays there: the status, no activity.
  auto& ga_elsewhere = connect(token(a, other_app_id));
  presence(ga_elsewhere,
           R"({"since":null,"status":"dnd","afk":false,"activities":[{"name":"Other","type":0}]})");
  const auto elsewhere = std::move(gb.dispatches("PRESENCE_UPDATE").back());
  CHECK(str(elsewhere["status"]) == "dnd");
  CHECK(elsewhere["activities"].Empty());
  CHECK(gb_elsewhere.dispatches("PRESENCE_UPDATE").empty());
  // READY of a later session of the game, likewise.
  presence(ga, chess);
  auto ready = connect(tb).ready();
  REQUIRE(ready["presences"].Size() == 1);
  CHECK(str(ready["presences"][0]["activities"][0]["name"]) == "Chess");
  CHECK(connect(token(b, other_app_id)).ready()["presences"].Empty());
  // Friends on the platform too: one whole update per change, not two.
  REQUIRE(
      admin("POST", "/friendships", R"({"user_id":")" + a + R"(","other_user_id":")" + b + R"("})").status ==
      200);
  const auto before = gb.dispatches("PRESENCE_UPDATE").size();
  presence(ga, R"({"since":null,"status":"idle","afk":false,"activities":[]})");
  CHECK(gb.dispatches("PRESENCE_UPDATE").size() == before + 1);
  // Gone: offline.
  service.gateway_disconnected(connection_of(ga), 1000);
  service.gateway_disconnected(connection_of(ga_elsewhere), 1000);
  CHECK(str(gb.dispatches("PRESENCE_UPDATE").back()["status"]) == "offline");
}

TEST_CASE_FIXTURE(Pair, "READY carries relationships, game relationships and user_application_profiles") {
  REQUIRE(api("PUT", "/users/@me/relationships/" + b, ta, "{}").status == 204);
  REQUIRE(api("PUT", "/users/@me/game-relationships/" + b, ta, "{}").status == 204);
  auto ready = connect(ta).ready();
  REQUIRE(ready["relationships"].Size() == 1);
  CHECK(ready["relationships"][0]["type"].GetInt() == 4);
  CHECK(ready["relationships"][0].HasMember("is_spam_request"));
  REQUIRE(ready["game_relationships"].Size() == 1);
  CHECK(str(ready["game_relationships"][0]["application_id"]) == app_id);
  CHECK(ready["user_application_profiles"].Empty());
  CHECK(connect(token(a, other_app_id)).ready()["game_relationships"].Empty());

  // A provisional account: its external identity is a user application profile.
  const auto outcome = service.handle(
      make_request("POST", "/api/v10/partner-sdk/token",
                   R"({"client_id":")" + app_id +
                       R"(","external_auth_type":"STEAM_SESSION_TICKET","external_auth_token":"steam-7"})"));
  REQUIRE_MESSAGE(outcome.response.status == 200, outcome.response.body);
  ready = connect(str(parse(outcome.response.body)["access_token"])).ready();
  CHECK(ready["user"]["provisional"].GetBool());
  REQUIRE(ready["user_application_profiles"].Size() == 1);
  const auto& profile = ready["user_application_profiles"][0];
  CHECK(str(profile["provider_type"]) == "STEAM_SESSION_TICKET");
  CHECK(str(profile["provider_issued_user_id"]) == "steam-7");
  CHECK(profile["provider_id"].IsNull());
}

TEST_CASE_FIXTURE(Pair, "DM channels and activity invites: friends only; join while the party lasts") {
  auto response = api("POST", "/users/@me/channels", ta, R"({"recipient_id":")" + b + R"("})");
  REQUIRE_MESSAGE(response.status == 200, response.body);
  const auto channel = parse(response.body);
  const auto channel_id = str(channel["id"]);
  CHECK(channel["type"].GetInt() == 1);
  CHECK(str(channel["recipients"][0]["id"]) == b);
  // The same pair gets the same channel.
  CHECK(str(parse(api("POST", "/users/@me/channels", tb, R"({"recipient_id":")" + a + R"("})").body)["id"]) ==
        channel_id);
  CHECK(code_of(api("POST", "/users/@me/channels", ta, R"({"recipient_id":"777"})")) == 10013);

  const auto invite =
      R"({"content":"","application_id":")" + app_id + R"(","activity":{"type":1,"party_id":"party-1"}})";
  const auto path = "/channels/" + channel_id + "/messages";
  response = api("POST", path, ta, invite);
  CHECK(response.status == 400);
  CHECK(code_of(response) == 50007);  // not friends

  REQUIRE(
      admin("POST", "/friendships", R"({"user_id":")" + a + R"(","other_user_id":")" + b + R"("})").status ==
      200);
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  presence(ga, R"({"since":null,"status":"online","afk":false,"activities":[
      {"name":"Chess","type":0,"party":{"id":"party-1","size":[1,2]},"secrets":{"join":"join-1"}}]})");
  response = api("POST", path, ta, invite);
  REQUIRE_MESSAGE(response.status == 200, response.body);
  const auto message = parse(response.body);
  const auto message_id = str(message["id"]);
  CHECK(str(message["application_id"]) == app_id);
  CHECK(str(message["activity"]["party_id"]) == "party-1");
  CHECK(message["activity"]["type"].GetInt() == 1);
  REQUIRE(gb.dispatches("MESSAGE_CREATE").size() == 1);
  CHECK(str(gb.dispatches("MESSAGE_CREATE")[0]["id"]) == message_id);
  CHECK(ga.dispatches("MESSAGE_CREATE").size() == 1);

  const auto join_path = path + "/" + message_id + "/activity-join";
  response = api("POST", join_path, tb, "{}");
  REQUIRE_MESSAGE(response.status == 200, response.body);
  CHECK(str(parse(response.body)["secret"]) == "join-1");
  CHECK(code_of(api("POST", path + "/1234/activity-join", tb, "{}")) == 10008);
  CHECK(code_of(api("POST", "/channels/1234/messages/" + message_id + "/activity-join", tb, "{}")) == 10003);
  const auto carol_token = token(user("carol"), app_id);
  CHECK(code_of(api("POST", join_path, carol_token, "{}")) == 50001);

  // The sender moves to another party: the invite is dead.
  presence(ga, R"({"since":null,"status":"online","afk":false,"activities":[
      {"name":"Chess","type":0,"party":{"id":"party-2","size":[1,2]},"secrets":{"join":"join-2"}}]})");
  response = api("POST", join_path, tb, "{}");
  CHECK(response.status == 400);
  CHECK(code_of(response) == 50083);

  // Invite validation: type 1 or 5, a party id, an application id.
  CHECK(code_of(api("POST", path, ta,
                    R"({"application_id":")" + app_id + R"(","activity":{"type":2,"party_id":"p"}})")) ==
        50035);
  CHECK(code_of(api("POST", path, ta, R"({"application_id":")" + app_id + R"(","activity":{"type":5}})")) ==
        50035);
  CHECK(code_of(api("POST", path, ta, R"({"activity":{"type":5,"party_id":"p"}})")) == 50035);
  CHECK(
      api("POST", path, ta, R"({"application_id":")" + app_id + R"(","activity":{"type":5,"party_id":"p"}})")
          .status == 200);
  CHECK(api("POST", path, ta, R"({"content":"hi"})").status == 200);
  CHECK(code_of(api("POST", path, carol_token, R"({"content":"hi"})")) == 50001);
  CHECK(code_of(api("POST", "/channels/999/messages", ta, R"({"content":"hi"})")) == 10003);
}

TEST_CASE_FIXTURE(Pair,
                  "activity invites: game friends in the invite's game may send them, in another game not") {
  auto response = api("POST", "/users/@me/channels", ta, R"({"recipient_id":")" + b + R"("})");
  REQUIRE_MESSAGE(response.status == 200, response.body);
  const auto path = "/channels/" + str(parse(response.body)["id"]) + "/messages";
  const auto invite =
      R"({"content":"","application_id":")" + app_id + R"(","activity":{"type":1,"party_id":"party-1"}})";
  const auto befriend = [&](const std::string& app) {
    const auto kind = "/users/@me/game-relationships/";
    REQUIRE(api("PUT", kind + b, token(a, app), "{}").status == 204);
    REQUIRE(api("PUT", kind + a, token(b, app), "{}").status == 204);
  };
  befriend(other_app_id);
  CHECK(code_of(api("POST", path, ta, invite)) == 50007);
  befriend(app_id);
  response = api("POST", path, ta, invite);
  CHECK_MESSAGE(response.status == 200, response.body);
}

TEST_CASE_FIXTURE(Pair, "IPC SET_ACTIVITY sets the desktop user's presence for friends; ACTIVITY_JOIN") {
  REQUIRE(admin("POST", "/consent", R"({"user_id":")" + a + R"("})").status < 300);
  REQUIRE(
      admin("POST", "/friendships", R"({"user_id":")" + a + R"(","other_user_id":")" + b + R"("})").status ==
      200);
  auto& gb = connect(tb);
  FakeIpcPeer ipc;
  const auto id = service.ipc_connected(ipc);
  service.ipc_received(id,
                       encode_ipc_frame(IpcOpcode::handshake, R"({"v":1,"client_id":")" + app_id + R"("})"));
  const auto command = [&](const std::string& json) {
    service.ipc_received(id, encode_ipc_frame(IpcOpcode::frame, json));
    REQUIRE_FALSE(ipc.frames.empty());
    rapidjson::Document last;
    last.CopyFrom(ipc.frames.back(), last.GetAllocator());
    return last;
  };
  auto reply =
      command(R"({"cmd":"SET_ACTIVITY","nonce":"1","args":{"pid":42,"activity":{"name":"Chess","type":0,
      "party":{"id":"p9"},"secrets":{"join":"j9"}}}})");
  REQUIRE(reply["evt"].IsNull());
  auto update = std::move(gb.dispatches("PRESENCE_UPDATE").back());
  CHECK(str(update["user"]["id"]) == a);
  CHECK(str(update["status"]) == "online");
  REQUIRE(update["activities"].Size() == 1);
  CHECK(str(update["activities"][0]["application_id"]) == app_id);
  CHECK_FALSE(update["activities"][0].HasMember("secrets"));
  // Invalid type: RPC error 4000 naming the field; the presence stays.
  reply = command(R"({"cmd":"SET_ACTIVITY","nonce":"2","args":{"pid":42,"activity":{"name":"x","type":4}}})");
  CHECK(str(reply["evt"]) == "ERROR");
  CHECK(reply["data"]["code"].GetInt() == 4000);
  CHECK(str(reply["data"]["message"]).find("activity.type") != std::string::npos);
  // Clearing: A (no Gateway session) is offline again.
  command(R"({"cmd":"SET_ACTIVITY","nonce":"3","args":{"pid":42,"activity":null}})");
  CHECK(str(gb.dispatches("PRESENCE_UPDATE").back()["status"]) == "offline");

  // ACTIVITY_JOIN reaches subscribed connections only.
  auto response = admin("POST", "/ipc/activity-join", R"({"secret":"j9"})");
  REQUIRE(response.status == 200);
  CHECK(parse(response.body)["delivered"].GetInt() == 0);
  command(R"({"cmd":"SUBSCRIBE","evt":"ACTIVITY_JOIN","nonce":"4"})");
  response = admin("POST", "/ipc/activity-join", R"({"secret":"j9"})");
  CHECK(parse(response.body)["delivered"].GetInt() == 1);
  const auto& event = ipc.frames.back();
  CHECK(str(event["evt"]) == "ACTIVITY_JOIN");
  CHECK(str(event["data"]["secret"]) == "j9");
  CHECK(admin("POST", "/ipc/activity-join", "{}").status == 400);
  service.ipc_disconnected(id);
}

TEST_CASE_FIXTURE(Pair,
                  "a user that goes away (a merged provisional account) leaves no relationship behind") {
  REQUIRE(api("PUT", "/users/@me/relationships/" + b, ta, "{}").status == 204);
  REQUIRE(api("PUT", "/users/@me/game-relationships/" + b, ta, "{}").status == 204);
  service.state().remove_user(b);
  CHECK(relationships(ta).empty());
  CHECK(relationships(ta, "game-relationships").empty());
}

}  // namespace social_routes_test
