// platformpp::testkit's voice media calls against the real binary: SetVoiceUdpFaults / ClearVoiceUdpFaults,
// and media end to end: two players join a lobby call on the Gateway and the voice gateway (TLS WebSocket),
// discover their address over UDP at the Ready port, select it, and one's sealed packet reaches the other
// re-sealed with the other's key, unless a loss fault drops it.
#include <doctest/doctest.h>
#include <platformpp/testkit/emulator.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "gateway_test_client.hpp"
#include "loopback_udp_socket.hpp"
#include "media_wire/ip_discovery.hpp"
#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"

using platformpp::emulator::test::GatewayClient;
using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;
using Bytes = std::vector<std::uint8_t>;

extern std::string g_testkit_emulator_binary;  // testkit_ipc_test.cpp

namespace testkit_voice_media_test {

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

// One player in the lobby call, with media set up the way the SDK does it.
struct Player {
  std::unique_ptr<GatewayClient> gateway;
  std::unique_ptr<GatewayClient> voice;
  platformpp::emulator::test::LoopbackUdpSocket udp;
  std::uint32_t ssrc = 0;
  std::uint16_t unit_port = 0;
  platformpp::media_wire::TransportMode mode{};
  platformpp::media_wire::TransportKey key{};

  void join(const EmulatorAdmin::User& user, const std::string& token, const std::string& lobby_id,
            const std::string& ca_file, unsigned short port, const std::string& mode_name) {
    gateway = std::make_unique<GatewayClient>(ca_file, port, "/?v=10&encoding=json");
    REQUIRE(gateway->next()["op"].GetInt() == 10);
    gateway->send(R"({"op":2,"d":{"token":"Bearer )" + token + R"(","properties":{},"intents":0}})");
    const auto session_id = text(gateway->next_dispatch("READY")["d"]["session_id"]);
    gateway->send(R"({"op":4,"d":{"lobby_id":")" + lobby_id + R"(","channel_id":")" + lobby_id +
                  R"(","self_mute":false,"self_deaf":false}})");
    const auto voice_token = text(gateway->next_dispatch("LOBBY_VOICE_SERVER_UPDATE")["d"]["token"]);

    voice = std::make_unique<GatewayClient>(ca_file, port, "/voice/?v=8");
    REQUIRE(voice->next()["op"].GetInt() == 8);
    voice->send(R"({"op":0,"d":{"server_id":")" + lobby_id + R"(","user_id":")" + std::to_string(user.id) +
                R"(","session_id":")" + session_id + R"(","token":")" + voice_token +
                R"(","max_dave_protocol_version":0}})");
    auto ready = next_op(2);
    ssrc = ready["d"]["ssrc"].GetUint();
    unit_port = static_cast<std::uint16_t>(ready["d"]["port"].GetUint());
    REQUIRE(unit_port != 0);

    udp.send_to(unit_port, platformpp::media_wire::IpDiscoveryRequest(ssrc));
    const auto answer = udp.receive(2000);
    REQUIRE(answer);
    const auto discovered = platformpp::media_wire::ParseIpDiscoveryResponse(*answer, ssrc);
    REQUIRE(discovered);
    CHECK(discovered->address == "127.0.0.1");
    voice->send(R"({"op":1,"d":{"protocol":"udp","data":{"address":")" + discovered->address +
                R"(","port":)" + std::to_string(discovered->port) + R"(,"mode":")" + mode_name + R"("}}})");
    const auto description = next_op(4);
    mode = *platformpp::media_wire::ParseTransportMode(text(description["d"]["mode"]));
    REQUIRE(description["d"]["secret_key"].Size() == key.size());
    for (rapidjson::SizeType i = 0; i < key.size(); ++i)
      key[i] = static_cast<std::uint8_t>(description["d"]["secret_key"][i].GetUint());
  }

  rapidjson::Document next_op(int op) {
    for (int i = 0; i < 20; ++i) {
      auto message = voice->next();
      if (message["op"].GetInt() == op) return message;
    }
    FAIL("no op " << op);
    return {};
  }
};

TEST_CASE("testkit: voice UDP faults") {
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  auto process = EmulatorProcess::Start(options);
  EmulatorAdmin admin(process->Connection());

  CHECK_NOTHROW(admin.SetVoiceUdpFaults(10, 5, 20, 42));
  CHECK_NOTHROW(admin.SetVoiceUdpFaults(100, 100, 10000, 18446744073709551615ull));
  CHECK_THROWS_AS(admin.SetVoiceUdpFaults(100.5, 0, 0), std::runtime_error);
  CHECK_THROWS_AS(admin.SetVoiceUdpFaults(0, -1, 0), std::runtime_error);
  CHECK_THROWS_AS(admin.SetVoiceUdpFaults(0, 0, 10001), std::runtime_error);
  CHECK_NOTHROW(admin.ClearVoiceUdpFaults());
  CHECK_NOTHROW(admin.ClearVoiceUdpFaults());  // idempotent
  CHECK(process->Stop() == 0);
}

TEST_CASE("voice media end to end through the real emulator, with a loss fault on and off") {
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  auto process = EmulatorProcess::Start(options);
  const auto& connection = process->Connection();
  EmulatorAdmin admin(connection);
  const auto app = admin.CreateApp("Voice Media");
  const auto alice = admin.CreateUser("alice");
  const auto bob = admin.CreateUser("bob");
  const auto port = static_cast<unsigned short>(connection.port);
  const auto lobby_id = create_lobby(connection.caFile, port, app.botToken,
                                     R"({"members":[{"id":")" + std::to_string(alice.id) + R"("},{"id":")" +
                                         std::to_string(bob.id) + R"("}]})");
  EmulatorAdmin::VoiceSettings plain;
  plain.e2ee = "optional";  // these players speak plain voice (no DAVE)
  admin.SetVoiceSettings(plain);

  Player a, b;
  a.join(alice, admin.MintToken(alice.id, app.id, "openid sdk.social_layer").accessToken, lobby_id,
         connection.caFile, port, "aead_aes256_gcm_rtpsize");
  b.join(bob, admin.MintToken(bob.id, app.id, "openid sdk.social_layer").accessToken, lobby_id,
         connection.caFile, port, "aead_xchacha20_poly1305_rtpsize");
  CHECK(a.unit_port == b.unit_port);  // one port for all calls

  platformpp::media_wire::TransportSealer sealer(a.mode, a.key);
  platformpp::media_wire::TransportOpener opener(b.mode, b.key);
  auto speak = [&](std::uint16_t sequence) {
    Bytes rtp(12 + 60, static_cast<std::uint8_t>(sequence));
    platformpp::media_wire::WriteRtpHeader(sequence, sequence * 960u, a.ssrc,
                                           std::span<std::uint8_t, 12>(rtp.data(), 12));
    Bytes sealed(rtp.size() + platformpp::media_wire::kTransportOverhead);
    REQUIRE(sealer.Seal(rtp, sealed) == sealed.size());
    a.udp.send_to(a.unit_port, sealed);
    return rtp;
  };
  auto heard = [&](int timeout_ms) -> std::optional<Bytes> {
    const auto datagram = b.udp.receive(timeout_ms);
    if (!datagram) return std::nullopt;
    Bytes opened(datagram->size());
    std::size_t written = 0;
    REQUIRE(opener.Open(*datagram, opened, written) == platformpp::media_wire::OpenResult::Ok);
    opened.resize(written);
    return opened;
  };

  auto rtp = speak(1);
  auto got = heard(2000);
  REQUIRE(got);
  CHECK(*got == rtp);

  admin.SetVoiceUdpFaults(100, 0, 0);
  speak(2);
  CHECK_FALSE(heard(300));

  admin.ClearVoiceUdpFaults();
  rtp = speak(3);
  got = heard(2000);
  REQUIRE(got);
  CHECK(*got == rtp);
  CHECK_FALSE(a.udp.receive(100));  // nothing back to the speaker

  std::uint64_t received = 0, forwarded = 0;
  for (const auto& session : admin.VoiceSessions()) {
    if (session.userId == alice.id) received = session.packetsReceived;
    if (session.userId == bob.id) forwarded = session.packetsForwarded;
  }
  CHECK(received == 3);
  CHECK(forwarded == 3);  // sealed for bob; the fault lost one on the way
  CHECK(process->Stop() == 0);
}

}  // namespace testkit_voice_media_test
