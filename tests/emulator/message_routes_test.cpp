// Lobby messages, DMs, the Social SDK development rate limits and lost responses, without sockets
// (docs/social-protocol.md, "Lobbies and messages"). A fake GatewayPeer records what each session is sent.
#include <doctest/doctest.h>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "server/command_line.hpp"
#include "service/emulator_service.hpp"
#include "test_support.hpp"

namespace message_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

constexpr std::int64_t kMinuteMs = std::int64_t{60} * 1000;
constexpr std::int64_t kHourMs = 60 * kMinuteMs;

struct FakePeer final : GatewayPeer {
  void enable_compression() override {}
  void send(std::string json) override {
    if (!closed) sent.push_back(std::move(json));
  }
  void close(int, std::string) override { closed = true; }
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

  std::vector<std::string> sent;
  bool closed = false;
};

int code_of(const HttpResponse& response) {
  const auto body = parse(response.body);
  REQUIRE_MESSAGE(body.HasMember("code"), response.body);
  return body["code"].GetInt();
}

std::string repeat(std::string_view unit, std::size_t times) {
  std::string result;
  for (std::size_t i = 0; i < times; ++i)
    result += unit;
  return result;
}

struct Fixture {
  std::int64_t real_now = 1'795'000'000'000;
  FakeClock clock{[this] { return real_now; }};
  // The frozen test clock would put hundreds of requests into one window of the per-route HTTP limits: those
  // are not what these tests are about.
  EmulatorService service{
      clock, ServiceEndpoints{"wss://127.0.0.1:1234", "https://127.0.0.1:1234/api/v10", "127.0.0.1:1234"},
      RateLimitSettings{1'000'000, 1000, 0}};
  std::string app_id;
  std::string bot_token;
  std::string a = user("alice");
  std::string b = user("bob");
  std::string ta;
  std::string tb;
  std::vector<std::unique_ptr<FakePeer>> peers;

  Fixture() {
    const auto app = parse(admin("POST", "/apps", R"({"name":"Game"})").body);
    app_id = str(app["id"]);
    bot_token = str(app["bot_token"]);
    ta = token(a, app_id);
    tb = token(b, app_id);
  }

  HttpResponse admin(std::string method, const std::string& path, std::string body = {}) {
    const auto outcome =
        service.handle(make_request(std::move(method), "/_emulator" + path, std::move(body)));
    REQUIRE(outcome.delivery == Outcome::Delivery::respond);
    return outcome.response;
  }

  Outcome call(std::string method, const std::string& path, const std::string& authorization,
               std::string body) {
    return service.handle(make_request(std::move(method), "/api/v10" + path, std::move(body),
                                       {{"Authorization", authorization}}));
  }
  HttpResponse api(std::string method, const std::string& path, const std::string& token_value,
                   std::string body = {}) {
    const auto outcome = call(std::move(method), path, "Bearer " + token_value, std::move(body));
    REQUIRE(outcome.delivery == Outcome::Delivery::respond);
    return outcome.response;
  }
  HttpResponse bot(std::string method, const std::string& path, std::string body = {}) {
    const auto outcome = call(std::move(method), path, "Bot " + bot_token, std::move(body));
    REQUIRE(outcome.delivery == Outcome::Delivery::respond);
    return outcome.response;
  }

  std::string user(const std::string& name) {
    const auto response = admin("POST", "/users", R"({"username":")" + name + R"("})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["id"]);
  }
  std::string token(const std::string& user_id, const std::string& app) {
    const auto response =
        admin("POST", "/tokens",
              R"({"user_id":")" + user_id + R"(","app_id":")" + app + R"(","scopes":"identify"})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["access_token"]);
  }
  // A connected, identified Gateway session of the token's user.
  FakePeer& connect(const std::string& token_value) {
    peers.push_back(std::make_unique<FakePeer>());
    auto& peer = *peers.back();
    const auto id = service.gateway_opened(peer, "/?v=10&encoding=json");
    connections.push_back(id);
    service.gateway_received(
        id, R"({"op":2,"d":{"token":"Bearer )" + token_value + R"(","properties":{},"intents":0}})", true);
    REQUIRE_FALSE(peer.closed);
    return peer;
  }
  void disconnect(std::size_t peer_index) { service.gateway_disconnected(connections.at(peer_index), 1000); }
  void befriend(const std::string& user_id, const std::string& other_id) {
    REQUIRE(admin("POST", "/friendships",
                  R"({"user_id":")" + user_id + R"(","other_user_id":")" + other_id + R"("})")
                .status == 200);
  }
  std::string dm_channel(const std::string& token_value, const std::string& recipient) {
    const auto response =
        api("POST", "/users/@me/channels", token_value, R"({"recipient_id":")" + recipient + R"("})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["id"]);
  }
  // PUT /lobbies as the token's user: the lobby's id (idle for a week before it goes, so that the clock can
  // move without members online).
  std::string join(const std::string& token_value, const std::string& secret) {
    const auto response = api("PUT", "/lobbies", token_value,
                              R"({"secret":")" + secret + R"(","idle_timeout_seconds":604800})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["id"]);
  }
  void social_limits(bool enabled) {
    REQUIRE(admin("POST", "/social-rate-limits", enabled ? R"({"enabled":true})" : R"({"enabled":false})")
                .status == 200);
  }

  std::vector<std::uint64_t> connections;
};

// Alice and Bob, friends, with their DM channel.
struct Friends : Fixture {
  Friends() { befriend(a, b); }
  std::string channel = dm_channel(ta, b);
  std::string path = "/channels/" + channel + "/messages";
};

std::vector<std::string> ids_of(const HttpResponse& response) {
  REQUIRE_MESSAGE(response.status == 200, response.body);
  const auto list = parse(response.body);
  REQUIRE(list.IsArray());
  std::vector<std::string> ids;
  for (const auto& entry : list.GetArray())
    ids.push_back(str(entry["id"]));
  return ids;
}

// Alice and Bob in one lobby of the game; Bob has an additional name set by the backend.
struct InLobby : Fixture {
  std::string lobby = join(ta, "secret");
  std::string path = "/lobbies/" + lobby + "/messages";
  InLobby() {
    REQUIRE(join(tb, "secret") == lobby);
    const auto response =
        bot("PUT", "/lobbies/" + lobby + "/members/" + b, R"({"additional_name":"Sir Bob"})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
  }
};

}  // namespace

// ---- lobby messages ---------------------------------------------------------------------------------------

TEST_CASE_FIXTURE(InLobby,
                  "lobby messages: LOBBY_MESSAGE_CREATE to every member; additional_name; members only") {
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  auto response = api("POST", path, tb, R"({"content":"hello","metadata":{"team":"red"},"nonce":"5"})");
  REQUIRE_MESSAGE(response.status == 201, response.body);
  const auto message = parse(response.body);
  CHECK(str(message["content"]) == "hello");
  CHECK(str(message["lobby_id"]) == lobby);
  CHECK(str(message["channel_id"]) == lobby);
  CHECK(str(message["application_id"]) == app_id);
  CHECK(str(message["author"]["id"]) == b);
  CHECK(str(message["lobby_member"]["additional_name"]) == "Sir Bob");
  CHECK(str(message["metadata"]["team"]) == "red");
  CHECK(str(message["nonce"]) == "5");
  CHECK(message["type"].GetInt() == 0);
  CHECK(message["flags"].GetInt() == 0);
  CHECK(message["edited_timestamp"].IsNull());
  CHECK(message["timestamp"].IsString());
  for (auto* peer : {&ga, &gb}) {
    const auto created = peer->dispatches("LOBBY_MESSAGE_CREATE");
    REQUIRE(created.size() == 1);
    CHECK(str(created[0]["id"]) == str(message["id"]));
    CHECK(str(created[0]["lobby_member"]["additional_name"]) == "Sir Bob");
  }
  // Alice has no additional name: no lobby_member.
  response = api("POST", path, ta, R"({"content":"hi"})");
  REQUIRE(response.status == 201);
  CHECK_FALSE(parse(response.body).HasMember("lobby_member"));
  // The name is the one at send time: a later change does not rewrite earlier messages.
  REQUIRE(bot("PUT", "/lobbies/" + lobby + "/members/" + b, R"({"additional_name":"Lord Bob"})").status ==
          200);
  const auto history = parse(api("GET", path, ta).body);
  REQUIRE(history.Size() == 2);
  CHECK(str(history[1]["lobby_member"]["additional_name"]) == "Sir Bob");
  CHECK(str(parse(api("POST", path, tb, R"({"content":"x"})").body)["lobby_member"]["additional_name"]) ==
        "Lord Bob");

  // Not a member, unknown lobby, a token of another game: 404 10031.
  const auto carol_token = token(user("carol"), app_id);
  CHECK(code_of(api("POST", path, carol_token, R"({"content":"hi"})")) == 10031);
  CHECK(code_of(api("GET", path, carol_token)) == 10031);
  CHECK(code_of(api("POST", "/lobbies/1234/messages", ta, R"({"content":"hi"})")) == 10031);
  const auto other_app = str(parse(admin("POST", "/apps", R"({"name":"Other"})").body)["id"]);
  CHECK(code_of(api("POST", path, token(a, other_app), R"({"content":"hi"})")) == 10031);
  CHECK(api("POST", path, "bad-token", R"({"content":"hi"})").status == 401);
  // The game's backend may post (as its bot user) and read.
  response = bot("POST", path, R"({"content":"server says"})");
  REQUIRE_MESSAGE(response.status == 201, response.body);
  CHECK(str(parse(response.body)["author"]["id"]) != a);
  CHECK(ids_of(bot("GET", path)).size() == 4);
  CHECK(ga.dispatches("LOBBY_MESSAGE_CREATE").size() == 4);
}

TEST_CASE_FIXTURE(
    InLobby, "lobby messages: content 2000 passes, 2001 and empty fail; metadata 1000/1001; nonce 25/26") {
  CHECK(api("POST", path, ta, R"({"content":")" + repeat("é", 2000) + R"("})").status == 201);
  auto response = api("POST", path, ta, R"({"content":")" + repeat("é", 2001) + R"("})");
  CHECK(response.status == 400);
  CHECK(code_of(response) == 50035);
  CHECK(parse(response.body)["errors"].HasMember("content"));
  CHECK(code_of(api("POST", path, ta, R"({"content":""})")) == 50035);
  CHECK(code_of(api("POST", path, ta, R"({})")) == 50035);
  CHECK(api("POST", path, ta, R"({"content":"m","metadata":{"ab":")" + repeat("v", 998) + R"("}})").status ==
        201);
  response = api("POST", path, ta, R"({"content":"m","metadata":{"ab":")" + repeat("v", 999) + R"("}})");
  CHECK(code_of(response) == 50035);
  CHECK(parse(response.body)["errors"].HasMember("metadata"));
  CHECK(api("POST", path, ta, R"({"content":"m","nonce":")" + repeat("n", 25) + R"("})").status == 201);
  CHECK(code_of(api("POST", path, ta, R"({"content":"m","nonce":")" + repeat("n", 26) + R"("})")) == 50035);
  CHECK(code_of(api("POST", path, ta, R"({"content":"m","enforce_nonce":"yes"})")) == 50035);
  CHECK(ids_of(api("GET", path, ta)).size() == 3);
}

TEST_CASE_FIXTURE(InLobby, "lobby messages: enforce_nonce: 201 with the earlier message within 5 minutes") {
  auto& gb = connect(tb);
  const std::string body = R"({"content":"once","nonce":"n1","enforce_nonce":true})";
  const auto first = api("POST", path, ta, body);
  REQUIRE(first.status == 201);
  const auto first_id = str(parse(first.body)["id"]);

  SUBCASE(
      "1 ms before 5 minutes: the earlier message, 201 as the route documents, nothing created or "
      "dispatched") {
    clock.advance(5 * kMinuteMs - 1);
    const auto retry = api("POST", path, ta, body);
    CHECK(retry.status == 201);
    CHECK(str(parse(retry.body)["id"]) == first_id);
    CHECK(gb.dispatches("LOBBY_MESSAGE_CREATE").size() == 1);
    CHECK(ids_of(api("GET", path, ta)).size() == 1);
  }
  SUBCASE("at exactly 5 minutes: a new message") {
    clock.advance(5 * kMinuteMs);
    const auto retry = api("POST", path, ta, body);
    CHECK(retry.status == 201);
    CHECK(str(parse(retry.body)["id"]) != first_id);
    CHECK(gb.dispatches("LOBBY_MESSAGE_CREATE").size() == 2);
  }
  SUBCASE("another author, same nonce: their own message") {
    const auto other = api("POST", path, tb, body);
    CHECK(other.status == 201);
    CHECK(str(parse(other.body)["id"]) != first_id);
  }
  SUBCASE("removed by moderation: the retry gets the message as it was created; nothing new") {
    REQUIRE(admin("DELETE", "/lobbies/" + lobby + "/messages/" + first_id).status == 204);
    const auto retry = api("POST", path, ta, body);
    CHECK(retry.status == 201);
    CHECK(str(parse(retry.body)["id"]) == first_id);
    CHECK(gb.dispatches("LOBBY_MESSAGE_CREATE").size() == 1);
    CHECK(ids_of(api("GET", path, ta)).empty());
  }
  SUBCASE("enforce_nonce false: a new message") {
    CHECK(api("POST", path, ta, R"({"content":"once","nonce":"n1","enforce_nonce":false})").status == 201);
  }
  SUBCASE("a later message with the same nonce is the one returned, also once the first left the window") {
    clock.advance(2 * kMinuteMs);
    const auto second = api("POST", path, ta, R"({"content":"again","nonce":"n1","enforce_nonce":false})");
    REQUIRE(second.status == 201);
    const auto second_id = str(parse(second.body)["id"]);
    CHECK(second_id != first_id);
    CHECK(str(parse(api("POST", path, ta, body).body)["id"]) == second_id);
    clock.advance(3 * kMinuteMs);  // 5 minutes after the first, 3 after the second
    CHECK(str(parse(api("POST", path, ta, body).body)["id"]) == second_id);
    clock.advance(2 * kMinuteMs);  // 5 minutes after the second: a new message
    const auto third = api("POST", path, ta, body);
    CHECK(str(parse(third.body)["id"]) != second_id);
    CHECK(str(parse(third.body)["id"]) != first_id);
  }
}

TEST_CASE_FIXTURE(
    InLobby, "lobby messages: moderation deletes one: LOBBY_MESSAGE_DELETE to members, gone from history") {
  auto& ga = connect(ta);
  const auto first = str(parse(api("POST", path, ta, R"({"content":"keep"})").body)["id"]);
  const auto second = str(parse(api("POST", path, tb, R"({"content":"remove"})").body)["id"]);
  CHECK(admin("DELETE", "/lobbies/" + lobby + "/messages/" + second).status == 204);
  const auto deleted = ga.dispatches("LOBBY_MESSAGE_DELETE");
  REQUIRE(deleted.size() == 1);
  CHECK(str(deleted[0]["id"]) == second);
  CHECK(str(deleted[0]["lobby_id"]) == lobby);
  CHECK(str(deleted[0]["channel_id"]) == lobby);
  CHECK(ids_of(api("GET", path, ta)) == std::vector<std::string>{first});
  // Once only; an unknown lobby or a message of another channel is 404.
  CHECK(code_of(admin("DELETE", "/lobbies/" + lobby + "/messages/" + second)) == 10008);
  CHECK(code_of(admin("DELETE", "/lobbies/1/messages/" + first)) == 10031);
  CHECK(ga.dispatches("LOBBY_MESSAGE_DELETE").size() == 1);
}

TEST_CASE_FIXTURE(InLobby,
                  "lobby messages: history limit 1..200 (default 50; 0 and 201 fail), newest first") {
  social_limits(false);
  std::vector<std::string> sent;
  for (int i = 0; i < 201; ++i) {
    const auto response = api("POST", path, i % 2 == 0 ? ta : tb, R"({"content":"m"})");
    REQUIRE_MESSAGE(response.status == 201, response.body);
    sent.push_back(str(parse(response.body)["id"]));
  }
  auto ids = ids_of(api("GET", path, tb));
  REQUIRE(ids.size() == 50);
  CHECK(ids.front() == sent.back());
  ids = ids_of(api("GET", path + "?limit=200", ta));
  REQUIRE(ids.size() == 200);
  CHECK(ids.front() == sent.back());
  CHECK(ids.back() == sent[1]);
  CHECK(ids_of(api("GET", path + "?limit=1", ta)).size() == 1);
  for (const auto* bad : {"?limit=0", "?limit=201", "?limit=x"}) {
    const auto response = api("GET", path + bad, ta);
    CHECK(response.status == 400);
    CHECK(code_of(response) == 50035);
  }
}

// "The last 72 hours" is the window (now - 72 h, now]: a message exactly 72 hours old has left it, one 1 ms
// younger is still in it. The same half-open window as the sliding rate-limit windows, so every boundary of
// the emulator's fake-clock windows falls the same way.
TEST_CASE_FIXTURE(InLobby,
                  "lobby messages: history keeps 72 hours: exactly 72 h old is out, 1 ms younger in") {
  REQUIRE(api("POST", path, ta, R"({"content":"older"})").status == 201);
  clock.advance(1);
  const auto younger = str(parse(api("POST", path, ta, R"({"content":"younger"})").body)["id"]);
  CHECK(ids_of(api("GET", path, ta)).size() == 2);
  clock.advance(72 * kHourMs - 1);  // "older" is exactly 72 h old, "younger" 72 h - 1 ms
  CHECK(ids_of(api("GET", path, ta)) == std::vector<std::string>{younger});
  clock.advance(1);
  CHECK(ids_of(api("GET", path, ta)).empty());
  // New messages still show, and old ones do not come back.
  const auto fresh = str(parse(api("POST", path, tb, R"({"content":"fresh"})").body)["id"]);
  CHECK(ids_of(api("GET", path, ta)) == std::vector<std::string>{fresh});
}

TEST_CASE_FIXTURE(InLobby,
                  "lobby messages: moderation metadata: Bot only, 5 pairs/6, values 2000/2001, dispatch") {
  auto& ga = connect(ta);
  const auto message_id = str(parse(api("POST", path, tb, R"({"content":"hmm"})").body)["id"]);
  const auto route = path + "/" + message_id + "/moderation-metadata";
  auto response =
      bot("PUT", route, R"({"a":"1","b":"2","c":"3","d":"4","e":")" + repeat("é", 2000) + R"("})");
  REQUIRE_MESSAGE(response.status == 204, response.body);
  const auto updates = ga.dispatches("LOBBY_MESSAGE_UPDATE");
  REQUIRE(updates.size() == 1);
  CHECK(str(updates[0]["id"]) == message_id);
  CHECK(str(updates[0]["moderation_metadata"]["a"]) == "1");
  CHECK(str(updates[0]["lobby_member"]["additional_name"]) == "Sir Bob");
  CHECK(parse(api("GET", path, ta).body)[0]["moderation_metadata"].MemberCount() == 5);

  response = bot("PUT", route, R"({"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6"})");
  CHECK(response.status == 400);
  CHECK(code_of(response) == 50035);
  CHECK(code_of(bot("PUT", route, R"({"a":")" + repeat("é", 2001) + R"("})")) == 50035);
  CHECK(ga.dispatches("LOBBY_MESSAGE_UPDATE").size() == 1);  // refused bodies change nothing
  CHECK(code_of(api("PUT", route, ta, R"({"a":"1"})")) == 50001);
  CHECK(code_of(bot("PUT", path + "/1234/moderation-metadata", R"({"a":"1"})")) == 10008);
  // Another game's backend does not see the lobby.
  const auto other = parse(admin("POST", "/apps", R"({"name":"Other"})").body);
  CHECK(code_of(call("PUT", route, "Bot " + str(other["bot_token"]), R"({"a":"1"})").response) == 10031);
  // Replaced, not merged.
  REQUIRE(bot("PUT", route, R"({"z":"26"})").status == 204);
  CHECK(parse(api("GET", path, ta).body)[0]["moderation_metadata"].MemberCount() == 1);
}

TEST_CASE_FIXTURE(InLobby,
                  "rate limits: 100 lobby messages per 2 hours pass, the 101st is 429; off: no limit") {
  for (int i = 0; i < 100; ++i)
    REQUIRE(api("POST", path, i % 2 == 0 ? ta : tb, R"({"content":"m"})").status == 201);
  auto response = api("POST", path, ta, R"({"content":"m"})");
  CHECK(response.status == 429);
  CHECK(response.header("X-RateLimit-Scope") == std::optional<std::string_view>("shared"));
  CHECK(parse(response.body)["retry_after"].GetDouble() == doctest::Approx(7200.0));
  CHECK(bot("POST", path, R"({"content":"m"})").status == 429);  // per application: the backend too
  CHECK(parse(admin("GET", "/social-rate-limits").body)["applications"][app_id.c_str()]["lobby_message"]
            .GetInt() == 100);
  social_limits(false);
  CHECK(api("POST", path, ta, R"({"content":"m"})").status == 201);
}

TEST_CASE_FIXTURE(InLobby,
                  "faults: drop_after on a lobby message: created and dispatched; the retry gets it") {
  auto& gb = connect(tb);
  REQUIRE(admin("POST", "/faults", R"({"route":"POST /lobbies/{id}/messages","drop_after":true})").status ==
          200);
  const std::string body = R"({"content":"lost","nonce":"9","enforce_nonce":true})";
  CHECK(call("POST", path, "Bearer " + ta, body).delivery == Outcome::Delivery::drop);
  const auto created = gb.dispatches("LOBBY_MESSAGE_CREATE");
  REQUIRE(created.size() == 1);
  const auto retry = api("POST", path, ta, body);
  CHECK(retry.status == 201);
  CHECK(str(parse(retry.body)["id"]) == str(created[0]["id"]));
  CHECK(gb.dispatches("LOBBY_MESSAGE_CREATE").size() == 1);
  CHECK(ids_of(api("GET", path, tb)).size() == 1);
}

// ---- DMs --------------------------------------------------------------------------------------------------

TEST_CASE_FIXTURE(Friends, "DMs: create with metadata and nonce, recipient_id, MESSAGE_CREATE to both") {
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  auto response = api("POST", path, ta, R"({"content":"hi","metadata":{"k":"v"},"nonce":"n-1"})");
  REQUIRE_MESSAGE(response.status == 200, response.body);
  const auto message = parse(response.body);
  CHECK(str(message["content"]) == "hi");
  CHECK(str(message["channel_id"]) == channel);
  CHECK(str(message["recipient_id"]) == b);
  CHECK(str(message["author"]["id"]) == a);
  CHECK(str(message["metadata"]["k"]) == "v");
  CHECK(str(message["nonce"]) == "n-1");
  CHECK(message["flags"].GetInt() == 0);
  CHECK(message["edited_timestamp"].IsNull());
  CHECK(message["timestamp"].IsString());
  CHECK_FALSE(message.HasMember("moderation_metadata"));
  REQUIRE(ga.dispatches("MESSAGE_CREATE").size() == 1);
  const auto created = gb.dispatches("MESSAGE_CREATE");
  REQUIRE(created.size() == 1);
  CHECK(str(created[0]["id"]) == str(message["id"]));
  CHECK(str(created[0]["recipient_id"]) == b);
  // An integer nonce (openapi allows one) is echoed as an integer.
  response = api("POST", path, ta, R"({"content":"x","nonce":12345})");
  REQUIRE_MESSAGE(response.status == 200, response.body);
  CHECK(parse(response.body)["nonce"].GetInt64() == 12345);
}

TEST_CASE_FIXTURE(Friends,
                  "DMs: content 2000 passes, 2001 and empty fail; metadata 1000 passes, 1001 fails") {
  // Code points, not bytes: "é" is two bytes.
  CHECK(api("POST", path, ta, R"({"content":")" + repeat("é", 2000) + R"("})").status == 200);
  auto response = api("POST", path, ta, R"({"content":")" + repeat("é", 2001) + R"("})");
  CHECK(response.status == 400);
  CHECK(code_of(response) == 50035);
  CHECK(parse(response.body)["errors"].HasMember("content"));
  CHECK(code_of(api("POST", path, ta, R"({"content":""})")) == 50035);
  // Keys and values together: "k" + 999 characters = 1000.
  CHECK(api("POST", path, ta, R"({"content":"m","metadata":{"k":")" + repeat("v", 999) + R"("}})").status ==
        200);
  response = api("POST", path, ta, R"({"content":"m","metadata":{"k":")" + repeat("v", 1000) + R"("}})");
  CHECK(code_of(response) == 50035);
  CHECK(parse(response.body)["errors"].HasMember("metadata"));
  CHECK(code_of(api("POST", path, ta, R"({"content":"m","metadata":{"k":1}})")) == 50035);
  // Nonce: 25 characters pass, 26 fail.
  CHECK(api("POST", path, ta, R"({"content":"m","nonce":")" + repeat("n", 25) + R"("})").status == 200);
  CHECK(code_of(api("POST", path, ta, R"({"content":"m","nonce":")" + repeat("n", 26) + R"("})")) == 50035);
}

TEST_CASE_FIXTURE(Friends,
                  "DMs: enforce_nonce returns the earlier message within 5 minutes, same author only") {
  auto& gb = connect(tb);
  const std::string body = R"({"content":"once","nonce":"42","enforce_nonce":true})";
  auto first = api("POST", path, ta, body);
  REQUIRE_MESSAGE(first.status == 200, first.body);
  const auto first_id = str(parse(first.body)["id"]);

  SUBCASE("a retry 1 ms before 5 minutes gets the earlier message; nothing new") {
    clock.advance(5 * kMinuteMs - 1);
    const auto retry = api("POST", path, ta, body);
    CHECK(retry.status == 200);
    CHECK(str(parse(retry.body)["id"]) == first_id);
    CHECK(gb.dispatches("MESSAGE_CREATE").size() == 1);
    CHECK(ids_of(api("GET", path, ta)).size() == 1);
  }
  SUBCASE("at exactly 5 minutes it is a new message") {
    clock.advance(5 * kMinuteMs);
    const auto retry = api("POST", path, ta, body);
    CHECK(str(parse(retry.body)["id"]) != first_id);
    CHECK(gb.dispatches("MESSAGE_CREATE").size() == 2);
  }
  SUBCASE("another author with the same nonce makes their own message") {
    const auto other = api("POST", path, tb, body);
    REQUIRE(other.status == 200);
    CHECK(str(parse(other.body)["id"]) != first_id);
    CHECK(ids_of(api("GET", path, ta)).size() == 2);
  }
  SUBCASE("without enforce_nonce the same nonce makes a new message") {
    const auto again = api("POST", path, ta, R"({"content":"once","nonce":"42"})");
    CHECK(str(parse(again.body)["id"]) != first_id);
  }
  SUBCASE("the retry sees the message as it is now (edited)") {
    REQUIRE(api("PATCH", path + "/" + first_id, ta, R"({"content":"edited"})").status == 200);
    const auto retry = api("POST", path, ta, body);
    CHECK(str(parse(retry.body)["content"]) == "edited");
  }
  SUBCASE("edited, then deleted: the retry gets the message as it was created; nothing new") {
    REQUIRE(api("PATCH", path + "/" + first_id, ta, R"({"content":"edited"})").status == 200);
    REQUIRE(api("DELETE", path + "/" + first_id, ta).status == 204);
    const auto retry = api("POST", path, ta, body);
    CHECK(retry.status == 200);
    CHECK(str(parse(retry.body)["id"]) == first_id);
    CHECK(str(parse(retry.body)["content"]) == "once");
    CHECK(gb.dispatches("MESSAGE_CREATE").size() == 1);
    CHECK(ids_of(api("GET", path, ta)).empty());
  }
}

TEST_CASE_FIXTURE(Fixture, "DMs: who may DM whom; ephemeral DMs are not kept") {
  const auto channel = dm_channel(ta, b);
  const auto path = "/channels/" + channel + "/messages";
  const auto hi = std::string(R"({"content":"hi"})");

  SUBCASE("strangers, neither online: refused") {
    const auto response = api("POST", path, ta, hi);
    CHECK(response.status == 400);
    CHECK(code_of(response) == 50007);
  }
  SUBCASE("platform friends: kept") {
    befriend(a, b);
    CHECK(api("POST", path, ta, hi).status == 200);
    CHECK(ids_of(api("GET", path, tb)).size() == 1);
  }
  SUBCASE("game friends of the token's game: kept") {
    REQUIRE(api("PUT", "/users/@me/game-relationships/" + b, ta, "{}").status == 204);
    CHECK(code_of(api("POST", path, ta, hi)) == 50007);  // a pending request is not a friendship
    REQUIRE(api("PUT", "/users/@me/game-relationships/" + a, tb, "{}").status == 204);
    CHECK(api("POST", path, ta, hi).status == 200);
    CHECK(ids_of(api("GET", path, ta)).size() == 1);
  }
  SUBCASE("both online in the game: ephemeral, delivered but not kept") {
    auto& ga = connect(ta);
    CHECK(code_of(api("POST", path, ta, hi)) == 50007);  // only one of them is online
    auto& gb = connect(tb);
    const auto response = api("POST", path, ta, R"({"content":"psst"})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    const auto message = parse(response.body);
    CHECK(message["flags"].GetInt() == 64);
    const auto created = gb.dispatches("MESSAGE_CREATE");
    REQUIRE(created.size() == 1);
    CHECK(created[0]["flags"].GetInt() == 64);
    CHECK(ga.dispatches("MESSAGE_CREATE").size() == 1);
    CHECK(ids_of(api("GET", path, tb)).empty());
    CHECK(code_of(api("PATCH", path + "/" + str(message["id"]), ta, R"({"content":"x"})")) == 10008);
    CHECK(parse(api("GET", "/users/@me/message-summaries", ta).body).Empty());
    // Online in ANOTHER game does not count.
    disconnect(1);
    connect(token(b, str(parse(admin("POST", "/apps", R"({"name":"Other"})").body)["id"])));
    CHECK(code_of(api("POST", path, ta, hi)) == 50007);
  }
  SUBCASE("a shared guild and earlier DMs: kept; either one alone: refused") {
    const auto guild = parse(admin("POST", "/guilds", R"({"name":"Guild","owner_id":")" + a + R"("})").body);
    const auto guild_id = str(guild["id"]);
    REQUIRE(admin("POST", "/guilds/" + guild_id + "/members", R"({"user_id":")" + b + R"("})").status == 200);
    CHECK(code_of(api("POST", path, ta, hi)) == 50007);  // shared guild, no earlier DMs
    // Earlier DMs while they were friends; then they are friends no more.
    befriend(a, b);
    REQUIRE(api("POST", path, tb, hi).status == 200);
    REQUIRE(api("DELETE", "/users/@me/relationships/" + b, ta).status == 204);
    CHECK(api("POST", path, ta, hi).status == 200);
    CHECK(ids_of(api("GET", path, ta)).size() == 2);
    // Earlier DMs but no shared guild: a third user, carol, shares no guild with alice.
    const auto carol = user("carol");
    const auto tc = token(carol, app_id);
    befriend(a, carol);
    const auto carol_path = "/channels/" + dm_channel(tc, a) + "/messages";
    REQUIRE(api("POST", carol_path, tc, hi).status == 200);
    REQUIRE(api("DELETE", "/users/@me/relationships/" + carol, ta).status == 204);
    CHECK(code_of(api("POST", carol_path, tc, hi)) == 50007);
  }
  SUBCASE("a block stops even friends") {
    befriend(a, b);
    REQUIRE(api("PUT", "/users/@me/relationships/" + a, tb, R"({"type":2})").status == 204);
    CHECK(code_of(api("POST", path, ta, hi)) == 50007);
  }
}

TEST_CASE_FIXTURE(Friends, "DMs: history limit 1..200 (default 50), newest first, participants only") {
  social_limits(false);
  std::vector<std::string> sent;
  for (int i = 0; i < 201; ++i) {
    const auto response =
        api("POST", path, i % 2 == 0 ? ta : tb, R"({"content":"m)" + std::to_string(i) + R"("})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    sent.push_back(str(parse(response.body)["id"]));
  }
  auto ids = ids_of(api("GET", path, ta));
  REQUIRE(ids.size() == 50);
  CHECK(ids.front() == sent.back());
  CHECK(ids.back() == sent[sent.size() - 50]);
  ids = ids_of(api("GET", path + "?limit=200", tb));
  REQUIRE(ids.size() == 200);
  CHECK(ids.back() == sent[1]);
  CHECK(ids_of(api("GET", path + "?limit=1", tb)).size() == 1);
  for (const auto* bad : {"?limit=0", "?limit=201", "?limit=abc", "?limit=-1"}) {
    const auto response = api("GET", path + bad, ta);
    CHECK(response.status == 400);
    CHECK(code_of(response) == 50035);
  }
  const auto carol_token = token(user("carol"), app_id);
  CHECK(code_of(api("GET", path, carol_token)) == 50001);
  CHECK(code_of(api("GET", "/channels/999/messages", ta)) == 10003);
}

TEST_CASE_FIXTURE(Friends, "DMs: edit by the author sets edited_timestamp and clears moderation metadata") {
  auto& gb = connect(tb);
  const auto message_id = str(parse(api("POST", path, ta, R"({"content":"v1"})").body)["id"]);
  const auto moderation =
      "/partner-sdk/dms/" + b + "/" + a + "/messages/" + message_id + "/moderation-metadata";
  auto response = bot("PUT", moderation, R"({"verdict":"ok","score":"0.1"})");
  REQUIRE_MESSAGE(response.status == 204, response.body);
  auto updates = gb.dispatches("MESSAGE_UPDATE");
  REQUIRE(updates.size() == 1);
  CHECK(str(updates[0]["moderation_metadata"]["verdict"]) == "ok");
  CHECK(str(parse(api("GET", path, tb).body)[0]["moderation_metadata"]["score"]) == "0.1");

  clock.advance(1000);
  CHECK(code_of(api("PATCH", path + "/" + message_id, tb, R"({"content":"not mine"})")) == 50005);
  CHECK(code_of(api("PATCH", path + "/" + message_id, ta, R"({"content":""})")) == 50035);
  CHECK(code_of(api("PATCH", path + "/" + message_id, ta, R"({"content":")" + repeat("x", 2001) + R"("})")) ==
        50035);
  CHECK(code_of(api("PATCH", path + "/12345", ta, R"({"content":"v2"})")) == 10008);
  response = api("PATCH", path + "/" + message_id, ta, R"({"content":")" + repeat("x", 2000) + R"("})");
  REQUIRE_MESSAGE(response.status == 200, response.body);
  const auto edited = parse(response.body);
  CHECK(edited["edited_timestamp"].IsString());
  CHECK_FALSE(edited.HasMember("moderation_metadata"));
  updates = gb.dispatches("MESSAGE_UPDATE");
  REQUIRE(updates.size() == 2);
  CHECK(str(updates[1]["content"]) == repeat("x", 2000));
  CHECK_FALSE(updates[1].HasMember("moderation_metadata"));
  CHECK_FALSE(parse(api("GET", path, tb).body)[0].HasMember("moderation_metadata"));
}

TEST_CASE_FIXTURE(Friends,
                  "DMs: moderation metadata: 5 pairs pass, 6 fail; values 2000 pass, 2001 fail; Bot only") {
  const auto message_id = str(parse(api("POST", path, ta, R"({"content":"hi"})").body)["id"]);
  const auto route = "/partner-sdk/dms/" + a + "/" + b + "/messages/" + message_id + "/moderation-metadata";
  CHECK(bot("PUT", route, R"({"a":"1","b":"2","c":"3","d":"4","e":"5"})").status == 204);
  auto response = bot("PUT", route, R"({"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6"})");
  CHECK(response.status == 400);
  CHECK(code_of(response) == 50035);
  CHECK(bot("PUT", route, R"({"a":")" + repeat("é", 2000) + R"("})").status == 204);
  CHECK(code_of(bot("PUT", route, R"({"a":")" + repeat("é", 2001) + R"("})")) == 50035);
  CHECK(code_of(bot("PUT", route, R"({"a":1})")) == 50035);
  // Replaces the pairs: the last good PUT left only "a".
  const auto kept = parse(api("GET", path, ta).body);
  CHECK(kept[0]["moderation_metadata"].MemberCount() == 1);
  CHECK(code_of(api("PUT", route, ta, R"({"a":"1"})")) == 50001);  // a player's token
  CHECK(code_of(bot("PUT",
                    "/partner-sdk/dms/" + a + "/" + user("carol") + "/messages/" + message_id +
                        "/moderation-metadata",
                    R"({"a":"1"})")) == 10003);
  CHECK(code_of(bot("PUT", "/partner-sdk/dms/" + a + "/" + b + "/messages/1/moderation-metadata",
                    R"({"a":"1"})")) == 10008);
}

TEST_CASE_FIXTURE(Friends, "DMs: delete by the author; MESSAGE_DELETE to both; summaries newest first") {
  auto& ga = connect(ta);
  auto& gb = connect(tb);
  const auto first = str(parse(api("POST", path, ta, R"({"content":"1"})").body)["id"]);
  const auto second = str(parse(api("POST", path, tb, R"({"content":"2"})").body)["id"]);
  // Another conversation of alice's, more recent.
  const auto carol = user("carol");
  befriend(a, carol);
  const auto carol_channel = dm_channel(ta, carol);
  clock.advance(1000);
  const auto third = str(
      parse(api("POST", "/channels/" + carol_channel + "/messages", ta, R"({"content":"3"})").body)["id"]);
  auto summaries = parse(api("GET", "/users/@me/message-summaries", ta).body);
  REQUIRE(summaries.Size() == 2);
  CHECK(str(summaries[0]["channel_id"]) == carol_channel);
  CHECK(str(summaries[0]["user_id"]) == carol);
  CHECK(str(summaries[0]["last_message_id"]) == third);
  CHECK(str(summaries[1]["channel_id"]) == channel);
  CHECK(str(summaries[1]["user_id"]) == b);
  CHECK(str(summaries[1]["last_message_id"]) == second);
  CHECK(parse(api("GET", "/users/@me/message-summaries", tb).body).Size() == 1);

  CHECK(code_of(api("DELETE", path + "/" + second, ta)) == 50005);
  CHECK(api("DELETE", path + "/" + second, tb).status == 204);
  const auto deleted = ga.dispatches("MESSAGE_DELETE");
  REQUIRE(deleted.size() == 1);
  CHECK(str(deleted[0]["id"]) == second);
  CHECK(str(deleted[0]["channel_id"]) == channel);
  CHECK(gb.dispatches("MESSAGE_DELETE").size() == 1);
  CHECK(code_of(api("DELETE", path + "/" + second, tb)) == 10008);
  CHECK(ids_of(api("GET", path, ta)) == std::vector<std::string>{first});
  summaries = parse(api("GET", "/users/@me/message-summaries", tb).body);
  REQUIRE(summaries.Size() == 1);
  CHECK(str(summaries[0]["last_message_id"]) == first);
  // Empty channels have no summary.
  REQUIRE(api("DELETE", path + "/" + first, ta).status == 204);
  CHECK(parse(api("GET", "/users/@me/message-summaries", tb).body).Empty());
}

// ---- Social SDK development rate limits -------------------------------------------------------------------

TEST_CASE_FIXTURE(Friends, "rate limits: 100 DMs per 2 hours per application pass, the 101st is 429 shared") {
  // 50 now, 50 an hour later (the last with a nonce): 100 in the window.
  for (int i = 0; i < 50; ++i)
    REQUIRE(api("POST", path, i % 2 == 0 ? ta : tb, R"({"content":"m"})").status == 200);
  clock.advance(kHourMs);
  for (int i = 0; i < 49; ++i)
    REQUIRE(api("POST", path, i % 2 == 0 ? ta : tb, R"({"content":"m"})").status == 200);
  const std::string last_body = R"({"content":"last","nonce":"1","enforce_nonce":true})";
  const auto last = api("POST", path, ta, last_body);
  REQUIRE(last.status == 200);
  auto response = api("POST", path, ta, R"({"content":"m"})");
  CHECK(response.status == 429);
  CHECK(response.header("X-RateLimit-Scope") == std::optional<std::string_view>("shared"));
  const auto body = parse(response.body);
  CHECK_FALSE(body["global"].GetBool());
  CHECK(body["retry_after"].GetDouble() == doctest::Approx(3600.0));
  auto state = parse(admin("GET", "/social-rate-limits").body);
  CHECK(state["enabled"].GetBool());
  CHECK(state["applications"][app_id.c_str()]["dm"].GetInt() == 100);
  CHECK(state["applications"][app_id.c_str()]["lobby_message"].GetInt() == 0);
  CHECK(state["limits"]["dm"].GetInt() == 100);
  CHECK(state["limits"]["channel_link"].GetInt() == 20);
  // A retry of a message that exists is not a new message: it passes even now.
  response = api("POST", path, ta, last_body);
  REQUIRE(response.status == 200);
  CHECK(str(parse(response.body)["id"]) == str(parse(last.body)["id"]));

  SUBCASE("the window slides: the first 50 leave it exactly 2 hours after they were sent") {
    clock.advance(kHourMs - 1);
    CHECK(api("POST", path, ta, R"({"content":"m"})").status == 429);
    clock.advance(1);
    for (int i = 0; i < 50; ++i)
      REQUIRE(api("POST", path, ta, R"({"content":"m"})").status == 200);
    CHECK(api("POST", path, ta, R"({"content":"m"})").status == 429);
  }
  SUBCASE("switched off: no limit; switched on again: the window still counts") {
    social_limits(false);
    for (int i = 0; i < 5; ++i)
      CHECK(api("POST", path, ta, R"({"content":"m"})").status == 200);
    CHECK_FALSE(parse(admin("GET", "/social-rate-limits").body)["enabled"].GetBool());
    social_limits(true);
    CHECK(api("POST", path, ta, R"({"content":"m"})").status == 429);
  }
  SUBCASE("admin body errors") {
    CHECK(admin("POST", "/social-rate-limits", "{}").status == 400);
    CHECK(admin("POST", "/social-rate-limits", R"({"enabled":"no"})").status == 400);
  }
}

TEST_CASE("rate limits: --no-social-rate-limits") {
  CHECK(parse_command_line({}).options.social_rate_limits);
  const auto parsed = parse_command_line({"--no-social-rate-limits"});
  CHECK(parsed.action == ParsedCommandLine::Action::run);
  CHECK_FALSE(parsed.options.social_rate_limits);
  CHECK(parse_command_line({"--no-social-rate-limits=1"}).action == ParsedCommandLine::Action::usage_error);
  CHECK(usage_text().find("--no-social-rate-limits") != std::string::npos);
}

TEST_CASE_FIXTURE(Friends, "rate limits: set_social_rate_limits_enabled(false) (what the flag does)") {
  service.set_social_rate_limits_enabled(false);
  for (int i = 0; i < 101; ++i)
    REQUIRE(api("POST", path, ta, R"({"content":"m"})").status == 200);
  CHECK_FALSE(parse(admin("GET", "/social-rate-limits").body)["enabled"].GetBool());
}

// ---- lost responses ---------------------------------------------------------------------------------------

TEST_CASE_FIXTURE(Friends, "faults: drop_after handles the request (effects, dispatches), then drops") {
  auto& gb = connect(tb);
  auto response = admin("POST", "/faults", R"({"route":"POST /channels/*/messages","drop_after":true})");
  REQUIRE_MESSAGE(response.status == 200, response.body);
  CHECK(parse(admin("GET", "/faults").body)["faults"][0]["drop_after"].GetBool());
  const std::string body = R"({"content":"lost answer","nonce":"77","enforce_nonce":true})";
  const auto outcome = call("POST", path, "Bearer " + ta, body);
  CHECK(outcome.delivery == Outcome::Delivery::drop);
  // The message exists and was dispatched.
  const auto created = gb.dispatches("MESSAGE_CREATE");
  REQUIRE(created.size() == 1);
  CHECK(str(created[0]["content"]) == "lost answer");
  REQUIRE(ids_of(api("GET", path, ta)).size() == 1);
  // The SDK's retry with the same nonce gets that message: exactly once.
  response = api("POST", path, ta, body);
  REQUIRE(response.status == 200);
  CHECK(str(parse(response.body)["id"]) == str(created[0]["id"]));
  CHECK(gb.dispatches("MESSAGE_CREATE").size() == 1);
  CHECK(ids_of(api("GET", path, ta)).size() == 1);
  // A plain drop (no drop_after) does nothing.
  REQUIRE(admin("POST", "/faults", R"({"route":"POST /channels/*/messages","drop":true})").status == 200);
  CHECK(call("POST", path, "Bearer " + ta, R"({"content":"never"})").delivery == Outcome::Delivery::drop);
  CHECK(ids_of(api("GET", path, ta)).size() == 1);
}

}  // namespace message_routes_test
