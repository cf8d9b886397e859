// POST /_emulator/users/{id}/presence: a user without a Gateway session shown to friends as online (a friend
// who comes online in a scenario), in their READY and by PRESENCE_UPDATE, until "offline" or a session of
// their own; its body's rules, each crossed (activity types: a game's, 0, 2, 3 and 5).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace set_presence_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

// The d of every PRESENCE_UPDATE the peer received so far.
std::vector<rapidjson::Document> presences(const RecordingGatewayPeer& peer) {
  std::vector<rapidjson::Document> found;
  for (const auto& payload : peer.dispatches("PRESENCE_UPDATE")) {
    rapidjson::Document d;
    d.CopyFrom(payload["d"], d.GetAllocator());
    found.push_back(std::move(d));
  }
  return found;
}

}  // namespace

TEST_CASE("a presence set through the admin API shows a friend online without a session of their own") {
  ServiceBench bench;
  const auto alice = bench.user("alice");
  const auto bob = bench.user("bob");
  const auto carol = bench.user("carol");
  const auto app_id = str(bench.app_json("Game")["id"]);
  bench.call("POST", "/_emulator/friendships",
             R"({"user_id":")" + alice + R"(","other_user_id":")" + bob + R"("})");
  const auto token = bench.token(alice, app_id);
  RecordingGatewayPeer peer;
  const auto connection = bench.service.gateway_opened(peer, "/?v=10&encoding=json");
  bench.service.gateway_received(
      connection, R"({"op":2,"d":{"token":"Bearer )" + token + R"(","properties":{},"intents":0}})", true);
  CHECK(presences(peer).empty());  // bob has no session: offline, never announced

  // Bob comes online, playing.
  const auto set = bench.raw("POST", "/_emulator/users/" + bob + "/presence",
                             R"({"status":"idle","activities":[{"name":"Arena","type":0}]})",
                             HeaderList{{"Content-Type", "application/json"}});
  REQUIRE(set.status == 200);
  CHECK(str(parse(set.body)["status"]) == "idle");
  auto seen = presences(peer);
  REQUIRE(seen.size() == 1);
  CHECK(str(seen[0]["user"]["id"]) == bob);
  CHECK(str(seen[0]["status"]) == "idle");
  REQUIRE(seen[0]["activities"].Size() == 1);
  CHECK(str(seen[0]["activities"][0]["name"]) == "Arena");

  // A session that starts now finds him online in its READY.
  RecordingGatewayPeer later;
  const auto second = bench.service.gateway_opened(later, "/?v=10&encoding=json");
  bench.service.gateway_received(
      second, R"({"op":2,"d":{"token":"Bearer )" + token + R"(","properties":{},"intents":0}})", true);
  bool in_ready = false;
  for (const auto& text : later.sent) {
    const auto payload = parse(text);
    if (payload["op"].GetInt() != 0 || str(payload["t"]) != "READY") continue;
    for (const auto& presence : payload["d"]["presences"].GetArray())
      in_ready = in_ready || (str(presence["user"]["id"]) == bob && str(presence["status"]) == "idle");
  }
  CHECK(in_ready);

  // Offline ends it.
  REQUIRE(bench
              .raw("POST", "/_emulator/users/" + bob + "/presence", R"({"status":"offline"})",
                   HeaderList{{"Content-Type", "application/json"}})
              .status == 200);
  seen = presences(peer);
  REQUIRE(seen.size() == 2);
  CHECK(str(seen[1]["status"]) == "offline");

  // Carol is nobody's friend: setting hers tells no one.
  REQUIRE(bench
              .raw("POST", "/_emulator/users/" + carol + "/presence", R"({"status":"online"})",
                   HeaderList{{"Content-Type", "application/json"}})
              .status == 200);
  CHECK(presences(peer).size() == 2);
}

TEST_CASE("the admin presence's body: a known user, a status of the platform's, at most 16 activities") {
  ServiceBench bench;
  const auto bob = bench.user("bob");
  const auto post = [&](const std::string& user, const std::string& body) {
    return bench.raw("POST", "/_emulator/users/" + user + "/presence", body,
                     HeaderList{{"Content-Type", "application/json"}});
  };
  CHECK(post("1234567890123", R"({"status":"online"})").status == 404);
  CHECK(post(bob, R"({})").status == 400);
  CHECK(post(bob, R"({"status":"away"})").status == 400);
  CHECK(post(bob, R"({"status":"dnd"})").status == 200);
  CHECK(post(bob, R"({"status":"invisible"})").status == 200);
  CHECK(post(bob, R"({"status":"online","activities":{}})").status == 400);
  CHECK(post(bob, R"({"status":"online","activities":[{"name":"x"}]})").status == 400);
  CHECK(post(bob, R"({"status":"online","activities":[{"name":"x","type":1}]})").status == 400);
  CHECK(
      post(bob, R"({"status":"online","activities":[{"name":"x","type":0,"application_id":"1"}]})").status ==
      400);
  std::string sixteen = "[";
  for (int i = 0; i < 16; ++i)
    sixteen += std::string(i > 0 ? "," : "") + R"({"name":"a","type":0})";
  CHECK(post(bob, R"({"status":"online","activities":)" + sixteen + "]}").status == 200);
  CHECK(post(bob, R"({"status":"online","activities":)" + sixteen + R"(,{"name":"a","type":0}]})").status ==
        400);
}

}  // namespace set_presence_test
