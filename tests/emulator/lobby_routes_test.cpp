// Lobbies without sockets: PUT /lobbies (secrets, metadata, 30-day secret binding, 1000 members), leaving,
// the backend's routes (POST/GET/PATCH/DELETE /lobbies, members, bulk), channel linking (CanLinkLobby,
// VIEW_CHANNEL), guild invites (single use, one hour), idle deletion by the fake clock, the Social SDK
// development limits, READY `lobbies` and the LOBBY_* dispatches.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace lobby_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

using FakePeer = RecordingGatewayPeer;

constexpr std::int64_t kDayMs = 24LL * 60 * 60 * 1000;

// One string of `n` code points, each two bytes in UTF-8: limits count characters, not bytes.
std::string accented(std::size_t n) {
  std::string text;
  for (std::size_t i = 0; i < n; ++i)
    text += "\xC3\xA9";  // é
  return text;
}

// Users alice, bob, carol and dave; application "Game" (with its bot) and "Other"; guild "Home" owned by
// olivia with alice and the bot as members: #general (text), #hidden (@everyone denied VIEW_CHANNEL), a voice
// channel. The per-route rate limiter is out of the way; the social limits stay on.
struct Fixture : ServiceBench {
  std::string olivia, alice, bob, carol, dave;
  std::string app_id, bot_token, bot_id, other_app_id, other_bot_token;
  std::string general_id, hidden_id, voice_id;
  std::map<std::string, std::string> tokens;  // user id -> access token of Game

  Fixture() {
    olivia = user("olivia");
    alice = user("alice");
    bob = user("bob");
    carol = user("carol");
    dave = user("dave");
    const auto game = app("Game");
    app_id = game.id;
    bot_token = game.bot_token;
    bot_id = game.bot_id;
    const auto other = app_json("Other");
    other_app_id = str(other["id"]);
    other_bot_token = str(other["bot_token"]);
    guild(olivia);
    for (const auto& id : {alice, bot_id})
      member(id);
    general_id = channel(R"({"name":"general","type":0,"position":0})");
    hidden_id = channel(R"({"name":"hidden","type":0,"position":1,"permission_overwrites":[{"id":")" +
                        guild_id + R"(","type":0,"deny":"1024"}]})");
    voice_id = channel(R"({"name":"voice","type":2,"position":2})");
    for (const auto& id : {alice, bob, carol, dave})
      tokens[id] = token(id, app_id);
  }

  // As the user (their Game token) and as Game's backend (its bot token).
  HttpResponse as_user(const std::string& user, std::string method, const std::string& path,
                       std::string body = {}) {
    return as("Bearer " + tokens.at(user), std::move(method), path, std::move(body));
  }
  HttpResponse backend(std::string method, const std::string& path, std::string body = {}) {
    return as("Bot " + bot_token, std::move(method), path, std::move(body));
  }

  // PUT /lobbies as the user; `extra` is more JSON members ("," first).
  HttpResponse join(const std::string& user, const std::string& secret, const std::string& extra = {}) {
    return as_user(user, "PUT", "/lobbies", R"({"secret":")" + secret + "\"" + extra + "}");
  }
  std::string join_id(const std::string& user, const std::string& secret, const std::string& extra = {}) {
    const auto response = join(user, secret, extra);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["id"]);
  }
  // A backend lobby with these members (ids).
  std::string backend_lobby(const std::vector<std::string>& members, const std::string& extra = {}) {
    std::string list;
    for (const auto& id : members)
      list += (list.empty() ? "" : ",") + std::string(R"({"id":")") + id + "\"}";
    const auto response = backend("POST", "/lobbies", R"({"members":[)" + list + "]" + extra + "}");
    REQUIRE_MESSAGE(response.status == 201, response.body);
    return str(parse(response.body)["id"]);
  }

  rapidjson::Document admin_lobbies() { return parse(call("GET", "/_emulator/lobbies").body); }
  bool lobby_exists(const std::string& id) {
    const auto dump = admin_lobbies();
    for (const auto& entry : dump["lobbies"].GetArray()) {
      if (str(entry["lobby"]["id"]) == id) return true;
    }
    return false;
  }

  // Moves the fake clock through the admin API (which also sweeps idle lobbies).
  void set_clock(std::int64_t ms) {
    call("POST", "/_emulator/clock",
         R"({"advance_ms":)" + std::to_string(ms - service.clock().now_ms()) + "}");
  }
  // Access tokens live 7 days: fresh ones after a long jump of the clock.
  void renew_tokens() {
    for (auto& [user, access_token] : tokens)
      access_token = token(user, app_id);
  }

  // Opens a connection and identifies with `identify_token` ("Bearer ...").
  std::uint64_t identify(FakePeer& peer, const std::string& identify_token) {
    const auto id = ServiceBench::identify(peer, identify_token, 0);
    REQUIRE_FALSE(peer.closed);
    REQUIRE(peer.dispatches("READY").size() == 1);
    return id;
  }
  std::uint64_t connect(FakePeer& peer, const std::string& user) {
    return identify(peer, "Bearer " + tokens.at(user));
  }
};

std::string error_field(const HttpResponse& response, const char* field) {
  const auto body = parse(response.body);
  REQUIRE(body.HasMember("errors"));
  REQUIRE_MESSAGE(body["errors"].HasMember(field), response.body);
  return str(body["errors"][field]["_errors"][0]["code"]);
}

int code_of(const HttpResponse& response) {
  return parse(response.body)["code"].GetInt();
}

// `n` metadata characters in one pair: key "k" plus a value of n - 1 code points.
std::string metadata_of(std::size_t n) {
  return R"({"k":")" + accented(n - 1) + "\"}";
}

}  // namespace

// ---- PUT /lobbies and leaving
// ------------------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture,
                  "lobbies: PUT /lobbies creates by secret, joins by the same secret, not across apps") {
  const auto created =
      join(alice, "s1", R"(,"lobby_metadata":{"mode":"duo"},"member_metadata":{"hat":"red"})");
  REQUIRE_MESSAGE(created.status == 200, created.body);
  const auto lobby = parse(created.body);
  const auto lobby_id = str(lobby["id"]);
  CHECK(str(lobby["application_id"]) == app_id);
  CHECK(str(lobby["metadata"]["mode"]) == "duo");
  CHECK_FALSE(lobby.HasMember("linked_channel"));  // absent, not null (the published schema)
  CHECK(lobby["flags"].GetUint() == 0);
  REQUIRE(lobby["members"].Size() == 1);
  CHECK(str(lobby["members"][0]["id"]) == alice);
  CHECK(str(lobby["members"][0]["metadata"]["hat"]) == "red");
  CHECK_FALSE(lobby["members"][0]["connected"].GetBool());
  CHECK_FALSE(lobby["members"][0].HasMember("user"));  // HTTP answers carry no user

  const auto joined = parse(join(bob, "s1").body);
  CHECK(str(joined["id"]) == lobby_id);
  CHECK(joined["members"].Size() == 2);
  CHECK(joined["members"][1]["metadata"].IsNull());
  // Joining again changes nothing; a different secret is a different lobby.
  CHECK(parse(join(bob, "s1").body)["members"].Size() == 2);
  CHECK(join_id(carol, "s2") != lobby_id);
  // The same secret in another application is another lobby.
  const auto other_token = token(alice, other_app_id);
  const auto other = raw("PUT", "/api/v10/lobbies", R"({"secret":"s1"})", "Bearer " + other_token);
  REQUIRE(other.status == 200);
  CHECK(str(parse(other.body)["id"]) != lobby_id);
  // Bots use POST /lobbies.
  CHECK(backend("PUT", "/lobbies", R"({"secret":"s1"})").status == 403);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: secret of 250 characters passes, 251 and empty fail (code points)") {
  CHECK(join(alice, accented(250)).status == 200);
  const auto long_secret = join(alice, accented(251));
  CHECK(long_secret.status == 400);
  CHECK(code_of(long_secret) == 50035);
  CHECK(error_field(long_secret, "secret") == "BASE_TYPE_BAD_LENGTH");
  CHECK(join(alice, "").status == 400);
  const auto missing = as_user(alice, "PUT", "/lobbies", "{}");
  CHECK(missing.status == 400);
  CHECK(error_field(missing, "secret") == "BASE_TYPE_REQUIRED");
}

TEST_CASE_FIXTURE(Fixture, "lobbies: metadata of 1000 characters passes, 1001 fails, for lobby and member") {
  CHECK(join(alice, "m", R"(,"lobby_metadata":)" + metadata_of(1000)).status == 200);
  CHECK(join(alice, "m", R"(,"member_metadata":)" + metadata_of(1000)).status == 200);
  const auto lobby_over = join(alice, "m", R"(,"lobby_metadata":)" + metadata_of(1001));
  CHECK(lobby_over.status == 400);
  CHECK(code_of(lobby_over) == 50035);
  CHECK(error_field(lobby_over, "lobby_metadata") == "BASE_TYPE_MAX_LENGTH");
  const auto member_over = join(alice, "m", R"(,"member_metadata":)" + metadata_of(1001));
  CHECK(member_over.status == 400);
  CHECK(error_field(member_over, "member_metadata") == "BASE_TYPE_MAX_LENGTH");
  // Keys count too: 500 + 500 passes, 500 + 501 does not.
  const auto key = accented(500);
  CHECK(join(alice, "m", R"(,"lobby_metadata":{")" + key + R"(":")" + accented(500) + "\"}").status == 200);
  CHECK(join(alice, "m", R"(,"lobby_metadata":{")" + key + R"(":")" + accented(501) + "\"}").status == 400);
  // The refused metadata did not replace the accepted one.
  const auto lobby = parse(join(alice, "m").body);
  CHECK(str(lobby["metadata"][key.c_str()]) == accented(500));
  // Values must be strings.
  CHECK(join(alice, "m", R"(,"lobby_metadata":{"n":1})").status == 400);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: metadata has at most 25 pairs") {
  std::string pairs;
  for (int i = 0; i < 26; ++i)
    pairs += (i == 0 ? "" : ",") + std::string("\"k") + std::to_string(i) + "\":\"v\"";
  const auto last_comma = pairs.rfind(',');
  CHECK(join(alice, "p", R"(,"lobby_metadata":{)" + pairs.substr(0, last_comma) + "}").status == 200);
  CHECK(join(alice, "p", R"(,"lobby_metadata":{)" + pairs + "}").status == 400);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: idle_timeout_seconds 5..604800 on PUT and POST /lobbies") {
  CHECK(join(alice, "a", R"(,"idle_timeout_seconds":4)").status == 400);
  CHECK(error_field(join(alice, "a", R"(,"idle_timeout_seconds":4)"), "idle_timeout_seconds") ==
        "NUMBER_TYPE_MIN");
  CHECK(join(alice, "a", R"(,"idle_timeout_seconds":5)").status == 200);
  CHECK(join(alice, "b", R"(,"idle_timeout_seconds":604800)").status == 200);
  CHECK(join(alice, "c", R"(,"idle_timeout_seconds":604801)").status == 400);
  CHECK(backend("POST", "/lobbies", R"({"idle_timeout_seconds":4})").status == 400);
  CHECK(backend("POST", "/lobbies", R"({"idle_timeout_seconds":5})").status == 201);
  CHECK(backend("POST", "/lobbies", R"({"idle_timeout_seconds":604800})").status == 201);
  CHECK(backend("POST", "/lobbies", R"({"idle_timeout_seconds":604801})").status == 400);
  const auto dump = admin_lobbies();
  std::vector<std::int64_t> timeouts;
  for (const auto& entry : dump["lobbies"].GetArray())
    timeouts.push_back(entry["idle_timeout_seconds"].GetInt64());
  std::sort(timeouts.begin(), timeouts.end());
  CHECK(timeouts == std::vector<std::int64_t>{5, 5, 604800, 604800});
  // The default is 300 seconds.
  join(alice, "d");
  bool found_default = false;
  const auto after = admin_lobbies();  // named: a range-for does not keep a temporary's parent alive
  for (const auto& entry : after["lobbies"].GetArray())
    found_default = found_default || entry["idle_timeout_seconds"].GetInt64() == 300;
  CHECK(found_default);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: a secret maps to its lobby for 30 days, then makes a new lobby") {
  // Alice stays connected so the lobby is not deleted for idleness meanwhile.
  FakePeer alice_peer;
  connect(alice_peer, alice);
  const auto first = join_id(alice, "season");
  set_clock(kBenchStart + 30 * kDayMs - 1);
  renew_tokens();
  CHECK(lobby_exists(first));
  CHECK(join_id(bob, "season") == first);
  set_clock(kBenchStart + 30 * kDayMs);
  const auto second = join_id(carol, "season");
  CHECK(second != first);
  CHECK(join_id(dave, "season") == second);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: 1000 members, then the 1001st is refused (join, PUT member, bulk)") {
  const auto lobby_id = join_id(alice, "big");
  std::vector<std::string> users;
  users.reserve(1000);
  for (int i = 0; i < 1000; ++i)
    users.push_back(user("user" + std::to_string(i)));
  // 999 more by bulk (40 requests of up to 25).
  for (std::size_t start = 0; start < 999; start += 25) {
    std::string list;
    for (std::size_t i = start; i < std::min<std::size_t>(start + 25, 999); ++i)
      list += (list.empty() ? "" : ",") + std::string(R"({"id":")") + users[i] + "\"}";
    const auto response = backend("POST", "/lobbies/" + lobby_id + "/members/bulk", "[" + list + "]");
    REQUIRE_MESSAGE(response.status == 200, response.body);
  }
  const auto lobby = parse(backend("GET", "/lobbies/" + lobby_id).body);
  CHECK(lobby["members"].Size() == 1000);
  const auto by_join = join(bob, "big");
  CHECK(by_join.status == 400);
  CHECK(code_of(by_join) == 0);
  CHECK(str(parse(by_join.body)["message"]) == "Lobby is full");
  CHECK(backend("PUT", "/lobbies/" + lobby_id + "/members/" + users[999], "{}").status == 400);
  CHECK(
      backend("POST", "/lobbies/" + lobby_id + "/members/bulk", R"([{"id":")" + users[999] + "\"}]").status ==
      400);
  // A member already in may still update; removing one makes room for one.
  CHECK(join(alice, "big", R"(,"member_metadata":{"a":"b"})").status == 200);
  CHECK(backend("POST", "/lobbies/" + lobby_id + "/members/bulk",
                R"([{"id":")" + users[0] + R"(","remove_member":true},{"id":")" + users[999] + "\"}]")
            .status == 200);
  CHECK(join(bob, "big").status == 400);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: leaving: 204, then unknown; LOBBY_DELETE removed to the leaver") {
  FakePeer alice_peer, bob_peer;
  connect(alice_peer, alice);
  connect(bob_peer, bob);
  const auto lobby_id = join_id(alice, "l");
  join(bob, "l");
  CHECK(as_user(bob, "DELETE", "/lobbies/" + lobby_id + "/members/@me").status == 204);
  const auto left = bob_peer.only("LOBBY_DELETE");
  CHECK(str(left["d"]["id"]) == lobby_id);
  CHECK(str(left["d"]["reason"]) == "removed");
  const auto removed = alice_peer.only("LOBBY_MEMBER_REMOVE");
  CHECK(str(removed["d"]["lobby_id"]) == lobby_id);
  CHECK(str(removed["d"]["member"]["id"]) == bob);
  CHECK(alice_peer.dispatches("LOBBY_DELETE").empty());
  const auto again = as_user(bob, "DELETE", "/lobbies/" + lobby_id + "/members/@me");
  CHECK(again.status == 404);
  CHECK(code_of(again) == 10031);
  CHECK(as_user(carol, "DELETE", "/lobbies/999/members/@me").status == 404);
}

TEST_CASE_FIXTURE(Fixture,
                  "lobbies: a backend lobby cannot be left from a Bearer token, the backend removes") {
  const auto lobby_id = backend_lobby({alice, bob});
  const auto refused = as_user(alice, "DELETE", "/lobbies/" + lobby_id + "/members/@me");
  CHECK(refused.status == 403);
  CHECK(code_of(refused) == 50001);
  CHECK(parse(backend("GET", "/lobbies/" + lobby_id).body)["members"].Size() == 2);
  CHECK(backend("DELETE", "/lobbies/" + lobby_id + "/members/" + alice).status == 204);
  CHECK(parse(backend("GET", "/lobbies/" + lobby_id).body)["members"].Size() == 1);
  CHECK(backend("DELETE", "/lobbies/" + lobby_id + "/members/" + alice).status == 404);
  // It has no secret, so no PUT /lobbies reaches it.
  CHECK(admin_lobbies()["lobbies"][0]["has_secret"].GetBool() == false);
}

// ---- backend routes
// ----------------------------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "lobbies: backend create, get, patch, delete; Bearer and other apps refused") {
  FakePeer alice_peer, bob_peer, carol_peer;
  connect(alice_peer, alice);
  connect(bob_peer, bob);
  connect(carol_peer, carol);
  const auto created = backend(
      "POST", "/lobbies",
      R"({"metadata":{"m":"1"},"members":[{"id":")" + alice + R"(","metadata":{"r":"x"},"flags":1}]})");
  REQUIRE(created.status == 201);
  const auto lobby_id = str(parse(created.body)["id"]);
  CHECK(parse(created.body)["members"][0]["flags"].GetUint() == 1);
  CHECK(parse(created.body)["members"][0]["connected"].GetBool());
  const auto create_event = alice_peer.only("LOBBY_CREATE");
  CHECK(str(create_event["d"]["id"]) == lobby_id);
  CHECK(str(create_event["d"]["members"][0]["user"]["id"]) == alice);  // Gateway payloads carry the user

  CHECK(backend("GET", "/lobbies/" + lobby_id).status == 200);
  CHECK(as_user(alice, "GET", "/lobbies/" + lobby_id).status == 403);
  const auto other = raw("GET", "/api/v10/lobbies/" + lobby_id, {}, "Bot " + other_bot_token);
  CHECK(other.status == 404);
  CHECK(code_of(other) == 10031);

  // members replaces the list: alice out, bob and carol in.
  const auto patched = backend("PATCH", "/lobbies/" + lobby_id,
                               R"({"metadata":{"m":"2"},"members":[{"id":")" + bob + R"("},{"id":")" + carol +
                                   R"(","metadata":{"team":"b"}}]})");
  REQUIRE_MESSAGE(patched.status == 200, patched.body);
  const auto lobby = parse(patched.body);
  CHECK(str(lobby["metadata"]["m"]) == "2");
  REQUIRE(lobby["members"].Size() == 2);
  CHECK(str(lobby["members"][0]["id"]) == bob);
  CHECK(str(alice_peer.only("LOBBY_DELETE")["d"]["reason"]) == "removed");
  CHECK(bob_peer.dispatches("LOBBY_CREATE").size() == 1);
  CHECK(carol_peer.dispatches("LOBBY_CREATE").size() == 1);
  CHECK(str(bob_peer.only("LOBBY_MEMBER_ADD")["d"]["member"]["id"]) == carol);  // bob saw carol arrive
  CHECK(str(bob_peer.only("LOBBY_UPDATE")["d"]["metadata"]["m"]) == "2");
  CHECK(alice_peer.dispatches("LOBBY_UPDATE").empty());

  CHECK(backend("DELETE", "/lobbies/" + lobby_id).status == 204);
  CHECK(str(bob_peer.only("LOBBY_DELETE")["d"]["reason"]) == "deleted");
  CHECK(str(carol_peer.only("LOBBY_DELETE")["d"]["id"]) == lobby_id);
  CHECK(backend("GET", "/lobbies/" + lobby_id).status == 404);
  CHECK(backend("DELETE", "/lobbies/" + lobby_id).status == 204);  // safe to repeat
  CHECK(as_user(alice, "DELETE", "/lobbies/" + lobby_id).status == 403);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: PUT member adds then updates; additional_name 1..80") {
  FakePeer alice_peer, bob_peer;
  connect(alice_peer, alice);
  connect(bob_peer, bob);
  const auto lobby_id = backend_lobby({alice});
  const auto added = backend("PUT", "/lobbies/" + lobby_id + "/members/" + bob,
                             R"({"metadata":{"k":"v"},"additional_name":")" + accented(80) + "\"}");
  REQUIRE_MESSAGE(added.status == 200, added.body);
  CHECK(str(parse(added.body)["additional_name"]) == accented(80));
  CHECK(str(parse(added.body)["id"]) == bob);
  CHECK(bob_peer.dispatches("LOBBY_CREATE").size() == 1);
  CHECK(str(alice_peer.only("LOBBY_MEMBER_ADD")["d"]["member"]["id"]) == bob);
  CHECK(bob_peer.dispatches("LOBBY_MEMBER_ADD").empty());

  const auto long_name = backend("PUT", "/lobbies/" + lobby_id + "/members/" + bob,
                                 R"({"additional_name":")" + accented(81) + "\"}");
  CHECK(long_name.status == 400);
  CHECK(error_field(long_name, "additional_name") == "BASE_TYPE_BAD_LENGTH");
  CHECK(backend("PUT", "/lobbies/" + lobby_id + "/members/" + bob, R"({"additional_name":""})").status ==
        400);
  CHECK(backend("PUT", "/lobbies/" + lobby_id + "/members/" + bob, R"({"flags":2})").status == 400);
  CHECK(
      backend("PUT", "/lobbies/" + lobby_id + "/members/" + bob, R"({"metadata":)" + metadata_of(1001) + "}")
          .status == 400);

  const auto updated = backend("PUT", "/lobbies/" + lobby_id + "/members/" + bob,
                               R"({"flags":1,"metadata":)" + metadata_of(1000) + "}");
  REQUIRE(updated.status == 200);
  CHECK(parse(updated.body)["flags"].GetUint() == 1);
  CHECK(str(parse(updated.body)["additional_name"]) == accented(80));  // not given: kept
  // Both see the update, the member whose change it is included.
  CHECK(alice_peer.only("LOBBY_MEMBER_UPDATE")["d"]["member"]["flags"].GetUint() == 1);
  CHECK(bob_peer.only("LOBBY_MEMBER_UPDATE")["d"]["member"]["flags"].GetUint() == 1);
  CHECK(backend("PUT", "/lobbies/" + lobby_id + "/members/424242", "{}").status == 404);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: bulk takes 1..25 entries: 0 and 26 fail, 25 pass") {
  const auto lobby_id = backend_lobby({});
  std::vector<std::string> users;
  users.reserve(26);
  for (int i = 0; i < 26; ++i)
    users.push_back(user("bulk" + std::to_string(i)));
  auto body_of = [&](std::size_t n) {
    std::string list;
    for (std::size_t i = 0; i < n; ++i)
      list += (list.empty() ? "" : ",") + std::string(R"({"id":")") + users[i] + "\"}";
    return "[" + list + "]";
  };
  const auto empty = backend("POST", "/lobbies/" + lobby_id + "/members/bulk", "[]");
  CHECK(empty.status == 400);
  CHECK(code_of(empty) == 50035);
  const auto over = backend("POST", "/lobbies/" + lobby_id + "/members/bulk", body_of(26));
  CHECK(over.status == 400);
  CHECK(code_of(over) == 50035);
  CHECK(parse(backend("GET", "/lobbies/" + lobby_id).body)["members"].Size() == 0);
  const auto ok = backend("POST", "/lobbies/" + lobby_id + "/members/bulk", body_of(25));
  REQUIRE_MESSAGE(ok.status == 200, ok.body);
  CHECK(parse(ok.body).Size() == 25);
  // Updates and removals in one request; only the added and updated ones come back.
  const auto mixed = backend("POST", "/lobbies/" + lobby_id + "/members/bulk",
                             R"([{"id":")" + users[0] + R"(","remove_member":true},{"id":")" + users[1] +
                                 R"(","additional_name":"Captain"}])");
  REQUIRE(mixed.status == 200);
  const auto list = parse(mixed.body);
  REQUIRE(list.Size() == 1);
  CHECK(str(list[0]["additional_name"]) == "Captain");
  CHECK(parse(backend("GET", "/lobbies/" + lobby_id).body)["members"].Size() == 24);
  // POST /lobbies takes at most 25 members too.
  std::string members;
  for (std::size_t i = 0; i < 26; ++i)
    members += (members.empty() ? "" : ",") + std::string(R"({"id":")") + users[i] + "\"}";
  CHECK(backend("POST", "/lobbies", R"({"members":[)" + members + "]}").status == 400);
  CHECK(as_user(alice, "POST", "/lobbies/" + lobby_id + "/members/bulk", body_of(1)).status == 403);
}

// ---- channel linking and invites
// ---------------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "lobbies: linking needs CanLinkLobby, VIEW_CHANNEL and a text channel") {
  FakePeer alice_peer;
  connect(alice_peer, alice);
  const auto lobby_id = join_id(alice, "link");
  join(bob, "link");
  const auto path = "/lobbies/" + lobby_id + "/channel-linking";
  const auto body = R"({"channel_id":")" + general_id + "\"}";
  const auto no_flag = as_user(alice, "PATCH", path, body);
  CHECK(no_flag.status == 403);
  CHECK(code_of(no_flag) == 50013);
  CHECK(as_user(carol, "PATCH", path, body).status == 404);  // not a member
  backend("PUT", "/lobbies/" + lobby_id + "/members/" + alice, R"({"flags":1})");
  const auto hidden = as_user(alice, "PATCH", path, R"({"channel_id":")" + hidden_id + "\"}");
  CHECK(hidden.status == 403);
  CHECK(code_of(hidden) == 50013);
  CHECK(as_user(alice, "PATCH", path, R"({"channel_id":")" + voice_id + "\"}").status == 403);
  const auto unknown = as_user(alice, "PATCH", path, R"({"channel_id":"123"})");
  CHECK(unknown.status == 404);
  CHECK(code_of(unknown) == 10003);
  CHECK(alice_peer.dispatches("LOBBY_UPDATE").empty());

  const auto linked = as_user(alice, "PATCH", path, body);
  REQUIRE_MESSAGE(linked.status == 200, linked.body);
  const auto lobby = parse(linked.body);
  CHECK(str(lobby["linked_channel"]["id"]) == general_id);
  CHECK(str(lobby["linked_channel"]["guild_id"]) == guild_id);
  CHECK(str(lobby["linked_channel"]["name"]) == "general");
  CHECK(str(alice_peer.only("LOBBY_UPDATE")["d"]["linked_channel"]["id"]) == general_id);
  // Bob (no flag) cannot unlink; the backend can, without any flag.
  CHECK(as_user(bob, "PATCH", path, R"({"channel_id":null})").status == 403);
  const auto unlinked = backend("PATCH", path, R"({"channel_id":null})");
  REQUIRE(unlinked.status == 200);
  CHECK_FALSE(parse(unlinked.body).HasMember("linked_channel"));
}

TEST_CASE_FIXTURE(Fixture, "lobbies: guild invites: single use, one hour, joins the guild") {
  const auto lobby_id = backend_lobby({alice, bob, carol}, R"(,"idle_timeout_seconds":604800)");
  const auto self = "/lobbies/" + lobby_id + "/members/@me/invites";
  const auto none = as_user(bob, "POST", self, "{}");
  CHECK(none.status == 400);
  CHECK(code_of(none) == 0);
  REQUIRE(
      backend("PATCH", "/lobbies/" + lobby_id + "/channel-linking", R"({"channel_id":")" + general_id + "\"}")
          .status == 200);
  CHECK(as_user(dave, "POST", self, "{}").status == 404);  // not a member

  const auto first = as_user(bob, "POST", self, "{}");
  REQUIRE(first.status == 200);
  const auto code = str(parse(first.body)["code"]);
  CHECK(as_user(carol, "POST", "/invites/" + code, "{}").status == 404);  // made for bob
  const auto accepted = as_user(bob, "POST", "/invites/" + code, "{}");
  REQUIRE_MESSAGE(accepted.status == 200, accepted.body);
  const auto answer = parse(accepted.body);
  CHECK(str(answer["guild"]["id"]) == guild_id);
  CHECK(str(answer["guild"]["name"]) == "Home");
  CHECK(str(answer["channel"]["id"]) == general_id);
  CHECK(answer["channel"]["type"].GetInt() == 0);
  const auto guilds = parse(as_user(bob, "GET", "/users/@me/guilds").body);
  REQUIRE(guilds.Size() == 1);
  CHECK(str(guilds[0]["id"]) == guild_id);
  const auto twice = as_user(bob, "POST", "/invites/" + code, "{}");
  CHECK(twice.status == 404);
  CHECK(code_of(twice) == 10006);
  CHECK(as_user(bob, "POST", "/invites/nonsense", "{}").status == 404);

  // One hour: valid at 59:59.999, gone at 60:00.000 (fake clock).
  const auto early = str(parse(as_user(carol, "POST", self, "{}").body)["code"]);
  const auto late = str(parse(as_user(carol, "POST", self, "{}").body)["code"]);
  set_clock(kBenchStart + int64_t{60} * 60 * 1000 - 1);
  CHECK(as_user(carol, "POST", "/invites/" + early, "{}").status == 200);
  set_clock(kBenchStart + int64_t{60} * 60 * 1000);
  const auto expired = as_user(carol, "POST", "/invites/" + late, "{}");
  CHECK(expired.status == 404);
  CHECK(code_of(expired) == 10006);

  // The backend makes one for a member (and only for a member).
  const auto for_dave = backend("POST", "/lobbies/" + lobby_id + "/members/" + dave + "/invites", "{}");
  CHECK(for_dave.status == 404);
  const auto for_alice = backend("POST", "/lobbies/" + lobby_id + "/members/" + alice + "/invites", "{}");
  REQUIRE(for_alice.status == 200);
  CHECK(as_user(alice, "POST", "/invites/" + str(parse(for_alice.body)["code"]), "{}").status == 200);
  CHECK(as_user(alice, "POST", "/lobbies/" + lobby_id + "/members/" + alice + "/invites", "{}").status ==
        403);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: provisional accounts cannot accept guild invites") {
  const auto tokens_body =
      parse(call("POST", "/api/v10/partner-sdk/token",
                 R"({"client_id":")" + app_id +
                     R"(","external_auth_type":"STEAM_SESSION_TICKET","external_auth_token":"t1"})")
                .body);
  const auto provisional_token = str(tokens_body["access_token"]);
  const auto me = parse(raw("GET", "/api/v10/users/@me", {}, "Bearer " + provisional_token).body);
  const auto provisional_id = str(me["id"]);
  const auto lobby_id = backend_lobby({provisional_id});
  backend("PATCH", "/lobbies/" + lobby_id + "/channel-linking", R"({"channel_id":")" + general_id + "\"}");
  const auto invite = raw("POST", "/api/v10/lobbies/" + lobby_id + "/members/@me/invites", "{}",
                          "Bearer " + provisional_token);
  REQUIRE(invite.status == 200);
  const auto refused =
      raw("POST", "/api/v10/invites/" + str(parse(invite.body)["code"]), "{}", "Bearer " + provisional_token);
  CHECK(refused.status == 403);
  CHECK(code_of(refused) == 50001);
}

// ---- idleness
// ----------------------------------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "lobbies: an idle lobby goes at exactly its timeout, not 1 ms before") {
  const auto lobby_id = join_id(alice, "idle", R"(,"idle_timeout_seconds":60)");  // nobody connected
  set_clock(kBenchStart + std::ptrdiff_t{60} * 1000 - 1);
  service.gateway_tick();
  CHECK(lobby_exists(lobby_id));
  set_clock(kBenchStart + std::ptrdiff_t{60} * 1000);  // the admin clock change sweeps
  CHECK_FALSE(lobby_exists(lobby_id));
  // The secret is free again.
  CHECK(join_id(alice, "idle") != lobby_id);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: a connected member keeps a lobby; idleness runs from the disconnect") {
  FakePeer alice_peer, bob_peer;
  const auto alice_connection = connect(alice_peer, alice);
  connect(bob_peer, bob);
  const auto lobby_id = join_id(alice, "keep", R"(,"idle_timeout_seconds":5)");
  join(bob, "keep");
  CHECK(parse(join(bob, "keep").body)["members"][0]["connected"].GetBool());
  set_clock(kBenchStart + kDayMs);
  service.gateway_tick();
  CHECK(lobby_exists(lobby_id));
  // Bob leaves the lobby (still online), alice drops: the lobby has nobody connected from now.
  as_user(bob, "DELETE", "/lobbies/" + lobby_id + "/members/@me");
  const auto session_id = str(alice_peer.only("READY")["d"]["session_id"]);
  service.gateway_disconnected(alice_connection, std::nullopt);
  const auto disconnect_at = kBenchStart + kDayMs;
  set_clock(disconnect_at + 5000 - 1);
  service.gateway_tick();
  CHECK(lobby_exists(lobby_id));
  set_clock(disconnect_at + 5000);
  service.gateway_tick();
  CHECK_FALSE(lobby_exists(lobby_id));
  // Alice's resumable session got LOBBY_DELETE "deleted": a resume replays it.
  FakePeer resumed;
  const auto id = service.gateway_opened(resumed, "/?v=10&encoding=json");
  service.gateway_received(id,
                           R"({"op":6,"d":{"token":"Bearer )" + tokens.at(alice) + R"(","session_id":")" +
                               session_id + R"(","seq":)" + std::to_string(alice_peer.last_seq()) + "}}",
                           true);
  const auto deleted = resumed.only("LOBBY_DELETE");
  CHECK(str(deleted["d"]["id"]) == lobby_id);
  CHECK(str(deleted["d"]["reason"]) == "deleted");
}

// ---- Gateway ----------------------------------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture,
                  "lobbies: READY lobbies, CONNECT/DISCONNECT to the members' sessions of the app only") {
  const auto lobby_id = join_id(alice, "gw", R"(,"member_metadata":{"hat":"red"})");
  join(bob, "gw");
  FakePeer bob_peer, carol_peer, bob_other_app;
  connect(bob_peer, bob);
  connect(carol_peer, carol);
  identify(bob_other_app, "Bearer " + token(bob, other_app_id));
  CHECK(bob_other_app.only("READY")["d"]["lobbies"].Size() == 0);

  FakePeer alice_peer;
  const auto alice_connection = connect(alice_peer, alice);
  const auto ready = alice_peer.only("READY");
  REQUIRE(ready["d"]["lobbies"].Size() == 1);
  const auto& lobby = ready["d"]["lobbies"][0];
  CHECK(str(lobby["id"]) == lobby_id);
  REQUIRE(lobby["members"].Size() == 2);
  CHECK(lobby["members"][0]["connected"].GetBool());  // alice, on this very connection
  CHECK(lobby["members"][1]["connected"].GetBool());  // bob
  CHECK(str(lobby["members"][0]["user"]["username"]) == "alice");
  CHECK(str(lobby["members"][0]["metadata"]["hat"]) == "red");

  // Bob saw his own connect, then alice's.
  const auto connects = bob_peer.dispatches("LOBBY_MEMBER_CONNECT");
  REQUIRE(connects.size() == 2);
  CHECK(str(connects[0]["d"]["member"]["id"]) == bob);
  const auto& connect_event = connects[1];
  CHECK(str(connect_event["d"]["lobby_id"]) == lobby_id);
  CHECK(str(connect_event["d"]["application_id"]) == app_id);
  CHECK(str(connect_event["d"]["member"]["id"]) == alice);
  CHECK(connect_event["d"]["member"]["connected"].GetBool());
  CHECK(alice_peer.dispatches("LOBBY_MEMBER_CONNECT").size() == 1);  // her own change too
  CHECK(carol_peer.dispatches("LOBBY_MEMBER_CONNECT").empty());
  CHECK(bob_other_app.dispatches("LOBBY_MEMBER_CONNECT").empty());

  service.gateway_disconnected(alice_connection, std::nullopt);
  const auto disconnect_event = bob_peer.only("LOBBY_MEMBER_DISCONNECT");
  CHECK(str(disconnect_event["d"]["member"]["id"]) == alice);
  CHECK_FALSE(disconnect_event["d"]["member"]["connected"].GetBool());
  CHECK(carol_peer.dispatches("LOBBY_MEMBER_DISCONNECT").empty());
  const auto over_http = parse(backend("GET", "/lobbies/" + lobby_id).body);
  CHECK_FALSE(over_http["members"][0]["connected"].GetBool());
  CHECK(over_http["members"][1]["connected"].GetBool());

  // A second join sends LOBBY_CREATE to the joiner, LOBBY_MEMBER_ADD to the members only.
  join(carol, "gw");
  CHECK(str(carol_peer.only("LOBBY_CREATE")["d"]["id"]) == lobby_id);
  CHECK(str(bob_peer.only("LOBBY_MEMBER_ADD")["d"]["member"]["id"]) == carol);
  CHECK(carol_peer.dispatches("LOBBY_MEMBER_ADD").empty());
  CHECK(bob_other_app.dispatches("LOBBY_MEMBER_ADD").empty());
}

// ---- Social SDK development limits ------------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture,
                  "lobbies: 100 create/join per 2 hours per app, the 101st is 429 shared; switchable") {
  for (int i = 0; i < 100; ++i)
    REQUIRE(join(alice, "r" + std::to_string(i % 3)).status == 200);
  const auto limited = join(bob, "r0");
  CHECK(limited.status == 429);
  CHECK(limited.header("X-RateLimit-Scope") == std::optional<std::string_view>("shared"));
  CHECK_FALSE(parse(limited.body)["global"].GetBool());
  CHECK(parse(limited.body)["retry_after"].GetDouble() > 0);
  // Another application has its own window.
  CHECK(raw("PUT", "/api/v10/lobbies", R"({"secret":"r0"})", "Bearer " + token(alice, other_app_id)).status ==
        200);
  service.set_social_rate_limits_enabled(false);
  CHECK(join(bob, "r0").status == 200);
  service.set_social_rate_limits_enabled(true);
  CHECK(join(bob, "r0").status == 429);
  set_clock(kBenchStart + int64_t{2} * 60 * 60 * 1000);
  CHECK(join(bob, "r0").status == 200);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: 100 lobby updates per 2 hours, the 101st is 429") {
  const auto lobby_id = backend_lobby({alice});
  for (int i = 0; i < 100; ++i) {
    const auto response = i % 2 == 0 ? backend("PATCH", "/lobbies/" + lobby_id,
                                               R"({"metadata":{"i":")" + std::to_string(i) + "\"}}")
                                     : backend("PUT", "/lobbies/" + lobby_id + "/members/" + bob, "{}");
    REQUIRE_MESSAGE(response.status == 200, response.body);
  }
  const auto limited =
      backend("POST", "/lobbies/" + lobby_id + "/members/bulk", R"([{"id":")" + carol + "\"}]");
  CHECK(limited.status == 429);
  CHECK(limited.header("X-RateLimit-Scope") == std::optional<std::string_view>("shared"));
  CHECK(backend("DELETE", "/lobbies/" + lobby_id + "/members/" + bob).status == 429);
  service.set_social_rate_limits_enabled(false);
  CHECK(backend("DELETE", "/lobbies/" + lobby_id + "/members/" + bob).status == 204);
}

TEST_CASE_FIXTURE(Fixture, "lobbies: 20 channel links per 2 hours, the 21st is 429") {
  const auto lobby_id = backend_lobby({alice});
  const auto path = "/lobbies/" + lobby_id + "/channel-linking";
  for (int i = 0; i < 20; ++i) {
    const auto body =
        i % 2 == 0 ? R"({"channel_id":")" + general_id + "\"}" : std::string(R"({"channel_id":null})");
    REQUIRE(backend("PATCH", path, body).status == 200);
  }
  const auto limited = backend("PATCH", path, R"({"channel_id":null})");
  CHECK(limited.status == 429);
  CHECK(limited.header("X-RateLimit-Scope") == std::optional<std::string_view>("shared"));
  service.set_social_rate_limits_enabled(false);
  CHECK(backend("PATCH", path, R"({"channel_id":null})").status == 200);
}

TEST_CASE_FIXTURE(Fixture,
                  "lobbies: metadata given on a join replaces the old, with LOBBY_UPDATE and MEMBER_UPDATE") {
  FakePeer alice_peer, bob_peer;
  connect(alice_peer, alice);
  connect(bob_peer, bob);
  const auto lobby_id = join_id(alice, "re", R"(,"lobby_metadata":{"a":"1"},"member_metadata":{"x":"1"})");
  join(bob, "re");
  const auto rejoined =
      parse(join(alice, "re", R"(,"lobby_metadata":{"b":"2"},"member_metadata":{"y":"2"})").body);
  CHECK_FALSE(rejoined["metadata"].HasMember("a"));
  CHECK(str(rejoined["metadata"]["b"]) == "2");
  CHECK(str(rejoined["members"][0]["metadata"]["y"]) == "2");
  CHECK(str(bob_peer.only("LOBBY_UPDATE")["d"]["metadata"]["b"]) == "2");
  const auto update = bob_peer.only("LOBBY_MEMBER_UPDATE");
  CHECK(str(update["d"]["member"]["id"]) == alice);
  CHECK(str(update["d"]["member"]["metadata"]["y"]) == "2");
  CHECK(alice_peer.dispatches("LOBBY_MEMBER_UPDATE").size() == 1);
  // Without metadata nothing changes and nothing is dispatched.
  join(alice, "re");
  CHECK(bob_peer.dispatches("LOBBY_UPDATE").size() == 1);
  CHECK(bob_peer.dispatches("LOBBY_MEMBER_UPDATE").size() == 1);
  // No token: 401 everywhere.
  CHECK(raw("PUT", "/api/v10/lobbies", R"({"secret":"re"})").status == 401);
  CHECK(raw("GET", "/api/v10/lobbies/" + lobby_id).status == 401);
}

}  // namespace lobby_routes_test
