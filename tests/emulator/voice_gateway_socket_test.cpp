// The voice gateway over real sockets (part of emulator_gateway_test, whose main() takes the binary's path):
// the upgrade's version check, then a lobby call joined through the main Gateway's op 4 and spoken to over a
// TLS WebSocket on /voice: Hello, Identify/Ready, Select Protocol/Session Description, heartbeat ACK, Clients
// Connect, Speaking, an admin drop and a buffered resume, and the end of the call (4014, op 13).
#include <doctest/doctest.h>

#include <string>

#include "core/json.hpp"
#include "emulator_process.hpp"
#include "gateway_test_client.hpp"
#include "test_support.hpp"

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace voice_gateway_socket_test {

using http_verb = HttpMethod;

struct VoiceWorld {
  EmulatorProcess emulator{{"--no-ipc"}};
  std::string app_id, bot_token;

  VoiceWorld() {
    auto app = parse(admin(http_verb::post, "/apps", R"({"name":"Voice Game"})"));
    app_id = str(app["id"]);
    bot_token = str(app["bot_token"]);
    // These clients speak plain voice (no DAVE), which needs E2EE not to be required.
    admin(http_verb::post, "/voice/settings", R"({"e2ee":"optional"})");
  }
  std::string admin(http_verb verb, const std::string& path, const std::string& body = {}) {
    auto result = https_request(emulator, verb, "/_emulator" + path, body);
    REQUIRE_MESSAGE(result.status < 300, path << ": " << result.status << " " << result.body);
    return result.body;
  }
  std::string user(const std::string& name) {
    return str(parse(admin(http_verb::post, "/users", R"({"username":")" + name + R"("})"))["id"]);
  }
  std::string token(const std::string& user_id) {
    return str(parse(admin(http_verb::post, "/tokens",
                           R"({"user_id":")" + user_id + R"(","app_id":")" + app_id +
                               R"(","scopes":"openid sdk.social_layer"})"))["access_token"]);
  }
  std::string lobby(const std::string& a, const std::string& b) {
    auto result =
        https_request(emulator, http_verb::post, "/api/v10/lobbies",
                      R"({"members":[{"id":")" + a + R"("},{"id":")" + b + R"("}]})", "Bot " + bot_token);
    REQUIRE_MESSAGE(result.status == 201, result.body);
    return str(parse(result.body)["id"]);
  }
};

// Identifies on the main Gateway; returns READY's session_id.
std::string gateway_ready(GatewayClient& client, const std::string& token) {
  REQUIRE(client.next()["op"].GetInt() == 10);
  client.send(R"({"op":2,"d":{"token":"Bearer )" + token +
              R"(","properties":{"os":"linux","browser":"t","device":"t"},"intents":0}})");
  return str(client.next_dispatch("READY")["d"]["session_id"]);
}

// Joins the lobby's call; returns the voice token after checking the endpoint.
std::string join_call(GatewayClient& client, const VoiceWorld& world, const std::string& lobby_id) {
  client.send(R"({"op":4,"d":{"lobby_id":")" + lobby_id + R"(","channel_id":")" + lobby_id +
              R"(","self_mute":false,"self_deaf":false}})");
  client.next_dispatch("LOBBY_VOICE_STATE_UPDATE");
  const auto server = client.next_dispatch("LOBBY_VOICE_SERVER_UPDATE");
  CHECK(str(server["d"]["endpoint"]) == "127.0.0.1:" + std::to_string(world.emulator.port()) + "/voice");
  return str(server["d"]["token"]);
}

std::string voice_identify(const std::string& lobby_id, const std::string& user_id,
                           const std::string& session_id, const std::string& token) {
  return R"({"op":0,"d":{"server_id":")" + lobby_id + R"(","user_id":")" + user_id + R"(","session_id":")" +
         session_id + R"(","token":")" + token + R"(","max_dave_protocol_version":0}})";
}

TEST_CASE("voice over sockets: the upgrade needs v 4..8; 4..7 are served without seq") {
  VoiceWorld world;
  CHECK_THROWS(GatewayClient(world.emulator, "/voice/"));
  CHECK_THROWS(GatewayClient(world.emulator, "/voice/?v=3"));
  CHECK_THROWS(GatewayClient(world.emulator, "/voice/?v=9"));
  const auto refused = https_request(world.emulator, http_verb::get, "/voice/?v=3");
  CHECK(refused.status == 400);
  CHECK(parse(refused.body)["code"].GetInt() == 50041);
  for (const auto* target : {"/voice/?v=4", "/voice/?v=7"}) {
    CAPTURE(target);
    GatewayClient old(world.emulator, target);
    const auto hello = old.next();
    CHECK(hello["op"].GetInt() == 8);
    old.send(R"({"op":3,"d":42})");
    const auto ack = old.next();
    CHECK(ack["op"].GetInt() == 6);
    CHECK(ack["d"].GetUint64() == 42);
    CHECK_FALSE(ack.HasMember("seq"));
  }
}

TEST_CASE("voice over sockets: a lobby call from op 4 to 4014") {
  VoiceWorld world;
  const auto alice = world.user("alice");
  const auto bob = world.user("bob");
  const auto lobby_id = world.lobby(alice, bob);
  GatewayClient alice_gateway(world.emulator);
  GatewayClient bob_gateway(world.emulator);
  const auto alice_session = gateway_ready(alice_gateway, world.token(alice));
  const auto bob_session = gateway_ready(bob_gateway, world.token(bob));
  const auto alice_token = join_call(alice_gateway, world, lobby_id);

  GatewayClient alice_voice(world.emulator, "/voice/?v=8");
  const auto hello = alice_voice.next();
  CHECK(hello["op"].GetInt() == 8);
  CHECK(hello["d"]["heartbeat_interval"].GetInt() == 13750);
  alice_voice.send(voice_identify(lobby_id, alice, alice_session, alice_token));
  const auto ready = alice_voice.next();
  REQUIRE(ready["op"].GetInt() == 2);
  CHECK(ready["seq"].GetInt() == 1);
  CHECK(ready["d"]["ssrc"].GetUint() != 0);
  CHECK(str(ready["d"]["ip"]) == "127.0.0.1");
  CHECK(ready["d"]["port"].GetUint() != 0);  // the forwarding unit's UDP port
  alice_voice.send(R"({"op":3,"d":{"t":1234567890123,"seq_ack":1}})");
  const auto ack = alice_voice.next();
  CHECK(ack["op"].GetInt() == 6);
  CHECK(ack["d"]["t"].GetUint64() == 1234567890123ULL);
  alice_voice.send(
      R"({"op":1,"d":{"protocol":"udp","data":{"address":"127.0.0.1","port":45678,"mode":"aead_xchacha20_poly1305_rtpsize"}}})");
  const auto description = alice_voice.next();
  REQUIRE(description["op"].GetInt() == 4);
  CHECK(description["d"]["secret_key"].Size() == 32);
  CHECK(description["seq"].GetInt() == 2);

  const auto bob_token = join_call(bob_gateway, world, lobby_id);
  GatewayClient bob_voice(world.emulator, "/voice/?v=8");
  REQUIRE(bob_voice.next()["op"].GetInt() == 8);
  bob_voice.send(voice_identify(lobby_id, bob, bob_session, bob_token));
  REQUIRE(bob_voice.next()["op"].GetInt() == 2);
  const auto connected = bob_voice.next();
  CHECK(connected["op"].GetInt() == 11);
  CHECK(str(connected["d"]["user_ids"][0]) == alice);
  const auto alice_sees = alice_voice.next();
  CHECK(alice_sees["op"].GetInt() == 11);
  CHECK(alice_sees["seq"].GetInt() == 3);

  // alice's connection is cut; bob's Speaking waits for her resume.
  CHECK(parse(world.admin(http_verb::post, "/voice/drop", R"({"user_id":")" + alice + R"("})"))["connections"]
            .GetInt() == 1);
  bob_voice.send(R"({"op":5,"d":{"speaking":1,"delay":0}})");
  GatewayClient resumed(world.emulator, "/voice/?v=8");
  REQUIRE(resumed.next()["op"].GetInt() == 8);
  resumed.send(R"({"op":7,"d":{"server_id":")" + lobby_id + R"(","session_id":")" + alice_session +
               R"(","token":")" + alice_token + R"(","seq_ack":2}})");
  const auto replayed = resumed.next();
  CHECK(replayed["op"].GetInt() == 11);
  CHECK(replayed["seq"].GetInt() == 3);
  const auto speaking = resumed.next();
  CHECK(speaking["op"].GetInt() == 5);
  CHECK(str(speaking["d"]["user_id"]) == bob);
  CHECK(speaking["seq"].GetInt() == 4);
  const auto done = resumed.next();
  CHECK(done["op"].GetInt() == 9);
  CHECK_FALSE(done.HasMember("seq"));
  const auto listed = parse(world.admin(http_verb::get, "/voice/sessions"));
  CHECK(listed.Size() == 2);

  // alice leaves the call: her voice gateway closes with 4014, bob hears op 13.
  alice_gateway.send(R"({"op":4,"d":{"lobby_id":")" + lobby_id +
                     R"(","channel_id":null,"self_mute":false,"self_deaf":false}})");
  CHECK(resumed.expect_close() == 4014);
  const auto gone = bob_voice.next();
  CHECK(gone["op"].GetInt() == 13);
  CHECK(str(gone["d"]["user_id"]) == alice);
  const auto left = bob_gateway.next_dispatch("LOBBY_VOICE_STATE_UPDATE");
  CHECK(str(left["d"]["user_id"]) == alice);
  CHECK(left["d"]["channel_id"].IsNull());
}

}  // namespace voice_gateway_socket_test
