// platformpp::testkit's voice admin calls (VoiceSessions, SetVoiceSettings, DropVoice, CloseVoice) against
// the real binary (TLS), observed with the test WebSocket client on the main Gateway and on /voice.
#include <doctest/doctest.h>
#include <platformpp/testkit/emulator.hpp>

#include <string>

#include "core/json.hpp"
#include "gateway_test_client.hpp"

using platformpp::emulator::test::GatewayClient;
using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

extern std::string g_testkit_emulator_binary;  // testkit_ipc_test.cpp

namespace testkit_voice_test {

std::string text(const rapidjson::Value& value) {
  REQUIRE(value.IsString());
  return std::string(value.GetString(), value.GetStringLength());
}

// POST /api/v10/lobbies as the application's backend; returns the lobby id.
std::string create_lobby(const std::string& ca_file, unsigned short port, const std::string& bot_token,
                         const std::string& body) {
  const auto response =
      platformpp::emulator::test::https_request(ca_file, port, platformpp::emulator::test::HttpMethod::post,
                                                "/api/v10/lobbies", body, "Bot " + bot_token);
  REQUIRE_MESSAGE(response.status == 201, response.body);
  rapidjson::Document document;
  REQUIRE(platformpp::emulator::parse_json(response.body, document));
  return text(document["id"]);
}

std::string resume(const std::string& lobby_id, const std::string& session_id, const std::string& token,
                   std::int64_t seq_ack) {
  return R"({"op":7,"d":{"server_id":")" + lobby_id + R"(","session_id":")" + session_id + R"(","token":")" +
         token + R"(","seq_ack":)" + std::to_string(seq_ack) + "}}";
}

TEST_CASE("testkit: voice admin calls") {
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  auto process = EmulatorProcess::Start(options);
  const auto& connection = process->Connection();
  EmulatorAdmin admin(connection);
  const auto app = admin.CreateApp("Voice Testkit");
  const auto alice = admin.CreateUser("alice");
  const auto token = admin.MintToken(alice.id, app.id, "openid sdk.social_layer").accessToken;
  const auto port = static_cast<unsigned short>(connection.port);
  const auto lobby_id = create_lobby(connection.caFile, port, app.botToken,
                                     R"({"members":[{"id":")" + std::to_string(alice.id) + R"("}]})");

  EmulatorAdmin::VoiceSettings settings;
  settings.modes = std::vector<std::string>{"aead_xchacha20_poly1305_rtpsize"};
  settings.heartbeatIntervalMs = 20000;
  settings.e2ee = "optional";  // this client speaks plain voice (no DAVE)
  admin.SetVoiceSettings(settings);

  GatewayClient gateway(connection.caFile, port, "/?v=10&encoding=json");
  REQUIRE(gateway.next()["op"].GetInt() == 10);
  gateway.send(R"({"op":2,"d":{"token":"Bearer )" + token + R"(","properties":{},"intents":0}})");
  const auto session_id = text(gateway.next_dispatch("READY")["d"]["session_id"]);
  gateway.send(R"({"op":4,"d":{"lobby_id":")" + lobby_id + R"(","channel_id":")" + lobby_id +
               R"(","self_mute":false,"self_deaf":false}})");
  const auto voice_token = text(gateway.next_dispatch("LOBBY_VOICE_SERVER_UPDATE")["d"]["token"]);

  GatewayClient voice(connection.caFile, port, "/voice/?v=8");
  CHECK(voice.next()["d"]["heartbeat_interval"].GetInt() == 20000);
  voice.send(R"({"op":0,"d":{"server_id":")" + lobby_id + R"(","user_id":")" + std::to_string(alice.id) +
             R"(","session_id":")" + session_id + R"(","token":")" + voice_token +
             R"(","max_dave_protocol_version":0}})");
  const auto ready = voice.next();
  REQUIRE(ready["d"]["modes"].Size() == 1);
  CHECK(text(ready["d"]["modes"][0]) == "aead_xchacha20_poly1305_rtpsize");
  voice.send(
      R"({"op":1,"d":{"protocol":"udp","data":{"address":"127.0.0.1","port":45678,"mode":"aead_xchacha20_poly1305_rtpsize"}}})");
  REQUIRE(voice.next()["op"].GetInt() == 4);

  auto sessions = admin.VoiceSessions();
  REQUIRE(sessions.size() == 1);
  CHECK(sessions[0].userId == alice.id);
  CHECK(std::to_string(sessions[0].lobbyId) == lobby_id);
  CHECK(sessions[0].sessionId == session_id);
  CHECK(sessions[0].ssrc == ready["d"]["ssrc"].GetUint());
  CHECK(sessions[0].mode == "aead_xchacha20_poly1305_rtpsize");
  CHECK(sessions[0].connected);
  CHECK(sessions[0].mediaAddress == "127.0.0.1:45678");
  CHECK(sessions[0].packetsReceived == 0);

  CHECK(admin.DropVoice(alice.id) == 1);
  sessions = admin.VoiceSessions();
  REQUIRE(sessions.size() == 1);
  CHECK_FALSE(sessions[0].connected);

  GatewayClient again(connection.caFile, port, "/voice/?v=8");
  REQUIRE(again.next()["op"].GetInt() == 8);
  again.send(resume(lobby_id, session_id, voice_token, 2));
  CHECK(again.next()["op"].GetInt() == 9);
  CHECK(admin.CloseVoice(0, 4015) == 1);  // every connection; resumable
  CHECK(again.expect_close() == 4015);
  CHECK(admin.VoiceSessions().size() == 1);

  GatewayClient last(connection.caFile, port, "/voice/?v=8");
  REQUIRE(last.next()["op"].GetInt() == 8);
  last.send(resume(lobby_id, session_id, voice_token, 2));
  CHECK(last.next()["op"].GetInt() == 9);
  CHECK(admin.CloseVoice(alice.id, 4014, "bye") == 1);
  CHECK(last.expect_close() == 4014);
  CHECK(admin.VoiceSessions().empty());
  CHECK(admin.DropVoice() == 0);

  EmulatorAdmin::VoiceSettings reset;
  reset.reset = true;
  admin.SetVoiceSettings(reset);
}

}  // namespace testkit_voice_test
