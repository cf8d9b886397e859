// Lobbies as documents (core/state_changes.hpp, lobby/lobby_state.cpp), without a file: every change the
// lobby routes, the Gateway and the idle sweep make to lobbies, secret bindings and guild invites is named (a
// mirror kept turn by turn equals everything saved whole), and a fresh service loaded with the documents
// serves the same lobbies, members and metadata, joins a secret's lobby, accepts a pending invite and lets an
// expired one stay expired. Who is connected is not kept: after a restart nobody is, and idle timers that
// stood still while a member was connected start at the restart.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"

namespace lobby_state_documents_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

using FakePeer = RecordingGatewayPeer;

constexpr std::int64_t kHourMs = 60LL * 60 * 1000;
constexpr const char* kLongIdle = R"(,"idle_timeout_seconds":604800)";

// One emulator driven through its routes; a second one loaded with the first one's documents is the first
// one restarted. The per-route rate limiter is out of the way.
struct Emulator : ServiceBench {
  // An API call that must succeed, as `authorization` ("Bearer ..." or "Bot ...").
  rapidjson::Document api(const std::string& authorization, const std::string& method,
                          const std::string& path, std::string body = {}) {
    const auto response = as(authorization, method, path, std::move(body));
    REQUIRE_MESSAGE(response.status < 300, method << " " << path << ": " << response.body);
    return parse(response.body.empty() ? std::string("{}") : response.body);
  }
  void advance(std::int64_t ms) {
    call_json("POST", "/_emulator/clock", R"({"advance_ms":)" + std::to_string(ms) + "}");
  }
  bool lobby_exists(const std::string& id) {
    const auto dump = call_json("GET", "/_emulator/lobbies");
    for (const auto& entry : dump["lobbies"].GetArray()) {
      if (str(entry["lobby"]["id"]) == id) return true;
    }
    return false;
  }
  std::uint64_t connect(FakePeer& peer, const std::string& bearer) {
    const auto id = identify(peer, bearer, 0);
    REQUIRE_FALSE(peer.closed);
    REQUIRE(peer.dispatches("READY").size() == 1);
    return id;
  }
};

// Users, the application "Game" with its bot, and guild "Home" (owned by olivia, with alice and the bot) with
// #general; a Game token for each player. Made through the first emulator's routes.
struct World {
  std::string olivia, alice, bob, carol, dave;
  std::string app_id, bot;  // bot: "Bot <token>"
  std::string guild_id, general_id;
  std::map<std::string, std::string> bearer;  // user id -> "Bearer <Game token>"

  explicit World(Emulator& emulator) {
    olivia = emulator.user("olivia");
    alice = emulator.user("alice");
    bob = emulator.user("bob");
    carol = emulator.user("carol");
    dave = emulator.user("dave");
    const auto app = emulator.app_json("Game");
    app_id = str(app["id"]);
    bot = "Bot " + str(app["bot_token"]);
    guild_id = emulator.guild(olivia);
    for (const auto& member : {alice, str(app["bot_user_id"])})
      emulator.call_json("POST", "/_emulator/guilds/" + guild_id + "/members",
                         R"({"user_id":")" + member + "\"}");
    general_id = str(emulator.call_json("POST", "/_emulator/guilds/" + guild_id + "/channels",
                                        R"({"name":"general","type":0,"position":0})")["id"]);
    for (const auto& id : {alice, bob, carol, dave}) {
      bearer[id] = "Bearer " + emulator.token(id, app_id);
    }
  }

  // PUT /lobbies as the user; `extra` is more JSON members ("," first). Returns the lobby.
  rapidjson::Document join(Emulator& emulator, const std::string& user, const std::string& secret,
                           const std::string& extra = {}) {
    return emulator.api(bearer.at(user), "PUT", "/lobbies", R"({"secret":")" + secret + "\"" + extra + "}");
  }
};

// The member object of `user_id` in a lobby object.
const rapidjson::Value& member_of(const rapidjson::Value& lobby, const std::string& user_id) {
  for (const auto& member : lobby["members"].GetArray()) {
    if (str(member["id"]) == user_id) return member;
  }
  FAIL("no member " << user_id);
  throw;
}

std::vector<std::string> member_ids(const rapidjson::Value& lobby) {
  std::vector<std::string> ids;
  for (const auto& member : lobby["members"].GetArray())
    ids.push_back(str(member["id"]));
  return ids;
}

}  // namespace

TEST_CASE("lobbies: members, metadata, secrets, links and invites survive a restart") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  World world(first);
  const auto& [olivia, alice, bob, carol, dave, app_id, bot, guild_id, general_id, bearer] = world;
  mirror.check_complete();

  // A lobby by secret: created with metadata, joined, its metadata and a member's changed.
  const auto duo = str(world.join(
      first, alice, "s1",
      R"(,"lobby_metadata":{"mode":"duo"},"member_metadata":{"hat":"red"})" + std::string(kLongIdle))["id"]);
  mirror.check_complete();
  CHECK(mirror.count("lobby") == 1);
  CHECK(mirror.count("lobby_secret") == 1);
  world.join(first, bob, "s1");
  mirror.check_complete();
  world.join(first, bob, "s1", R"(,"lobby_metadata":{"mode":"trio"},"member_metadata":{"hat":"blue"})");
  mirror.check_complete();
  first.api(bot, "PUT", "/lobbies/" + duo + "/members/" + alice, R"({"flags":1,"additional_name":"Al"})");
  mirror.check_complete();
  // Carol joins another lobby and leaves it.
  const auto left = str(world.join(first, carol, "s2", kLongIdle)["id"]);
  mirror.check_complete();
  first.api(bearer.at(carol), "DELETE", "/lobbies/" + left + "/members/@me");
  mirror.check_complete();

  // The backend's lobby: created, patched (members replaced), members in bulk, one removed.
  const auto crew = str(first.api(bot, "POST", "/lobbies",
                                  R"({"metadata":{"map":"dust"},"members":[{"id":")" + alice +
                                      R"("},{"id":")" + carol + R"("}])" + kLongIdle + "}")["id"]);
  mirror.check_complete();
  first.api(bot, "PATCH", "/lobbies/" + crew,
            R"({"metadata":{"map":"nuke"},"flags":1,"members":[{"id":")" + carol + R"("},{"id":")" + dave +
                R"(","metadata":{"role":"medic"}}]})");
  mirror.check_complete();
  first.api(
      bot, "POST", "/lobbies/" + crew + "/members/bulk",
      R"([{"id":")" + bob + R"(","additional_name":"B"},{"id":")" + dave + R"(","remove_member":true}])");
  mirror.check_complete();
  first.api(bot, "DELETE", "/lobbies/" + crew + "/members/" + carol);
  mirror.check_complete();
  CHECK(member_ids(first.api(bot, "GET", "/lobbies/" + crew)) == std::vector<std::string>{bob});

  // The lobby is linked to #general; invites to its guild: one accepted, two pending.
  first.api(bot, "PATCH", "/lobbies/" + duo + "/channel-linking", R"({"channel_id":")" + general_id + "\"}");
  mirror.check_complete();
  const auto used =
      str(first.api(bearer.at(bob), "POST", "/lobbies/" + duo + "/members/@me/invites", "{}")["code"]);
  mirror.check_complete();
  first.api(bearer.at(bob), "POST", "/invites/" + used, "{}");  // bob joins the guild
  mirror.check_complete();
  CHECK(mirror.count("guild_member") == 4);
  const auto pending =
      str(first.api(bearer.at(alice), "POST", "/lobbies/" + duo + "/members/@me/invites", "{}")["code"]);
  const auto to_expire =
      str(first.api(bot, "POST", "/lobbies/" + duo + "/members/" + bob + "/invites", "{}")["code"]);
  mirror.check_complete();
  CHECK(mirror.count("guild_invite") == 2);  // the used one was forgotten when the next was made

  // An idle lobby goes after its timeout, with its secret binding.
  const auto idle = str(world.join(first, dave, "idle", R"(,"idle_timeout_seconds":60)")["id"]);
  mirror.check_complete();
  CHECK(mirror.count("lobby_secret") == 3);
  first.advance(60000);
  CHECK_FALSE(first.lobby_exists(idle));
  mirror.check_complete();
  CHECK(mirror.count("lobby_secret") == 2);
  CHECK(mirror.count("lobby") == 3);

  // Alice connects: the idle timers of her lobbies stand still. A lobby of 60 s that she keeps alive.
  FakePeer alice_peer;
  first.connect(alice_peer, bearer.at(alice));
  mirror.check_complete();
  const auto kept = str(world.join(first, alice, "kept", R"(,"idle_timeout_seconds":60)")["id"]);
  first.advance(120000);
  CHECK(first.lobby_exists(kept));
  mirror.check_complete();
  first.service.gateway_tick();
  mirror.check_complete();

  Emulator restarted;
  check_round_trip(mirror.documents(), restarted.service.changes());
  // The server's first tick after the start: nobody is connected, the stopped timers start now.
  restarted.service.gateway_tick();
  const auto restart_ms = restarted.service.clock().now_ms();

  CHECK(restart_ms == kBenchStart + 180000);

  // The same lobbies, members (in join order), metadata, flags, names and link.
  const auto duo_after = restarted.api(bot, "GET", "/lobbies/" + duo);
  CHECK(str(duo_after["metadata"]["mode"]) == "trio");
  CHECK(member_ids(duo_after) == std::vector<std::string>{alice, bob});
  CHECK(str(member_of(duo_after, alice)["metadata"]["hat"]) == "red");
  CHECK(member_of(duo_after, alice)["flags"].GetUint() == 1);
  CHECK(str(member_of(duo_after, alice)["additional_name"]) == "Al");
  CHECK_FALSE(member_of(duo_after, alice)["connected"].GetBool());  // nobody is, after a restart
  CHECK(str(member_of(duo_after, bob)["metadata"]["hat"]) == "blue");
  CHECK(str(duo_after["linked_channel"]["id"]) == general_id);
  const auto crew_after = restarted.api(bot, "GET", "/lobbies/" + crew);
  CHECK(str(crew_after["metadata"]["map"]) == "nuke");
  CHECK(crew_after["flags"].GetUint() == 1);
  CHECK(member_ids(crew_after) == std::vector<std::string>{bob});
  CHECK(str(member_of(crew_after, bob)["additional_name"]) == "B");
  CHECK(member_ids(restarted.api(bot, "GET", "/lobbies/" + left)).empty());
  CHECK(restarted.raw("GET", "/api/v10/lobbies/" + idle, {}, bot).status == 404);
  // The backend's lobby is still the backend's: a player cannot leave it.
  CHECK(restarted.raw("DELETE", "/api/v10/lobbies/" + crew + "/members/@me", {}, bearer.at(bob)).status ==
        403);

  // The lobby alice kept alive idles from the restart: its timer stood still, it did not run from before.
  restarted.advance(60000 - 1);
  CHECK(restarted.lobby_exists(kept));
  restarted.advance(1);
  CHECK_FALSE(restarted.lobby_exists(kept));

  // A secret joins the same lobby; the idle lobby's secret makes a new one.
  const auto joined = world.join(restarted, carol, "s1");
  CHECK(str(joined["id"]) == duo);
  CHECK(member_ids(joined) == std::vector<std::string>{alice, bob, carol});
  CHECK(str(world.join(restarted, dave, "idle")["id"]) != idle);

  // Nobody was announced as connected: alice connecting is news to bob, her fellow member.
  FakePeer bob_peer, alice_again;
  restarted.connect(bob_peer, bearer.at(bob));
  restarted.connect(alice_again, bearer.at(alice));
  const auto ready = alice_again.only("READY");
  REQUIRE(ready["d"]["lobbies"].Size() == 1);
  CHECK(str(ready["d"]["lobbies"][0]["id"]) == duo);
  CHECK(member_of(ready["d"]["lobbies"][0], alice)["connected"].GetBool());
  std::size_t alice_connects = 0;
  for (const auto& event : bob_peer.dispatches("LOBBY_MEMBER_CONNECT"))
    alice_connects += str(event["d"]["member"]["id"]) == alice ? 1 : 0;
  CHECK(alice_connects == 1);

  // The pending invite works; the accepted one does not again.
  CHECK(restarted.raw("POST", "/api/v10/invites/" + pending, "{}", bearer.at(alice)).status == 200);
  CHECK(restarted.raw("POST", "/api/v10/invites/" + used, "{}", bearer.at(bob)).status == 404);

  // The restarted emulator goes on naming its changes. The other pending invite expires one hour after it
  // was made, on the restarted clock; the next invite made forgets the dead ones.
  StateMirror after(restarted.service.changes());
  restarted.advance(kBenchStart + kHourMs - restarted.service.clock().now_ms());
  const auto expired = restarted.raw("POST", "/api/v10/invites/" + to_expire, "{}", bearer.at(bob));
  CHECK(expired.status == 404);
  CHECK(parse(expired.body)["code"].GetInt() == 10006);
  after.check_complete();
  restarted.api(bearer.at(alice), "POST", "/lobbies/" + duo + "/members/@me/invites", "{}");
  after.check_complete();
  CHECK(after.count("guild_invite") == 1);
}

TEST_CASE("lobbies: a deleted lobby's messages go with it; nonces outlive a restart") {
  Emulator first;
  World world(first);
  StateMirror mirror(first.service.changes());
  const auto& alice = world.alice;
  const auto& bob = world.bob;
  const auto send = [&](const std::string& user, const std::string& lobby, const std::string& content) {
    first.api(world.bearer.at(user), "POST", "/lobbies/" + lobby + "/messages",
              R"({"content":")" + content + "\"}");
  };
  const auto deleted = str(world.join(first, alice, "gone", kLongIdle)["id"]);
  world.join(first, bob, "gone", kLongIdle);
  const auto idle = str(world.join(first, alice, "idle", R"(,"idle_timeout_seconds":60)")["id"]);
  const auto kept = str(world.join(first, bob, "kept", kLongIdle)["id"]);
  send(alice, deleted, "one");
  send(bob, deleted, "two");
  send(alice, idle, "three");
  const auto four = first.api(world.bearer.at(bob), "POST", "/lobbies/" + kept + "/messages",
                              R"({"content":"four","nonce":"n4","enforce_nonce":true})");
  mirror.check_complete();
  CHECK(mirror.count("message") == 4);

  first.api(world.bot, "DELETE", "/lobbies/" + deleted);
  mirror.check_complete();
  CHECK(mirror.count("message") == 2);
  first.advance(60000);  // the idle lobby is deleted by its timer
  CHECK_FALSE(first.lobby_exists(idle));
  mirror.check_complete();
  CHECK(mirror.count("message") == 1);

  Emulator restarted;
  check_round_trip(mirror.documents(), restarted.service.changes());
  const auto history = restarted.api(world.bearer.at(bob), "GET", "/lobbies/" + kept + "/messages");
  REQUIRE(history.Size() == 1);
  CHECK(str(history[0]["content"]) == "four");

  // enforce_nonce's 5 minutes go on across the restart: a client's retry does not post the message twice.
  const auto retry = restarted.api(world.bearer.at(bob), "POST", "/lobbies/" + kept + "/messages",
                                   R"({"content":"four","nonce":"n4","enforce_nonce":true})");
  CHECK(str(retry["id"]) == str(four["id"]));
  CHECK(restarted.api(world.bearer.at(bob), "GET", "/lobbies/" + kept + "/messages").Size() == 1);
  restarted.advance(kNonceWindowMs);
  const auto later = restarted.api(world.bearer.at(bob), "POST", "/lobbies/" + kept + "/messages",
                                   R"({"content":"four","nonce":"n4","enforce_nonce":true})");
  CHECK(str(later["id"]) != str(four["id"]));
}

TEST_CASE("lobbies: a damaged lobby document is refused, naming it") {
  Emulator emulator;
  auto& changes = emulator.service.changes();
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{
                           "lobby", "1", R"({"v":1,"members":[],"idle_timeout_s":5,"created_ms":0})"}}),
                       doctest::Contains("lobby/1: missing \"app_id\""), std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      changes.load({DocumentChange{
          "lobby", "1",
          R"({"v":1,"app_id":"2","members":[{"user_id":"3","flags":4}],"idle_timeout_s":5,"created_ms":0})"}}),
      doctest::Contains("\"flags\" is not 0 or 1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      changes.load({DocumentChange{"lobby_secret", "2:s", R"({"v":1,"app_id":"2","secret":"s"})"}}),
      doctest::Contains("lobby_secret/2:s: missing \"lobby_id\""), std::invalid_argument);
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{"guild_invite", "abc", R"({"v":3})"}}),
                       doctest::Contains("format version 3"), std::invalid_argument);
}

}  // namespace lobby_state_documents_test
