// platformpp::testkit's Gateway admin calls against the real binary (TLS), observed with the test
// WebSocket client.
#include <doctest/doctest.h>
#include <platformpp/testkit/emulator.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "gateway_test_client.hpp"

using platformpp::emulator::test::GatewayClient;
using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

extern std::string g_testkit_emulator_binary;  // testkit_ipc_test.cpp

namespace testkit_gateway_test {

std::string str(const rapidjson::Value& value) {
  REQUIRE(value.IsString());
  return std::string(value.GetString(), value.GetStringLength());
}

std::string identify(const std::string& token) {
  return R"({"op":2,"d":{"token":"Bearer )" + token +
         R"(","properties":{"os":"linux","browser":"platformpp","device":"platformpp"},"intents":0}})";
}

TEST_CASE("testkit: Gateway admin calls") {
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  auto process = EmulatorProcess::Start(options);
  const auto& connection = process->Connection();
  EmulatorAdmin admin(connection);
  const auto app = admin.CreateApp("Gateway Testkit");
  const auto alice = admin.CreateUser("alice");
  const auto bob = admin.CreateUser("bob");
  const auto alice_token = admin.MintToken(alice.id, app.id, "openid sdk.social_layer").accessToken;
  const auto port = static_cast<unsigned short>(connection.port);

  admin.SetHeartbeatInterval(std::chrono::milliseconds(30000));
  GatewayClient a(connection.caFile, port, "/?v=10&encoding=json");
  CHECK(a.next()["d"]["heartbeat_interval"].GetInt() == 30000);
  a.send(identify(alice_token));
  const auto session_id = str(a.next_dispatch("READY")["d"]["session_id"]);

  auto sessions = admin.GatewaySessions();
  REQUIRE(sessions.size() == 1);
  CHECK(sessions[0].sessionId == session_id);
  CHECK(sessions[0].userId == alice.id);
  CHECK(sessions[0].applicationId == app.id);
  CHECK(sessions[0].connected);
  CHECK(sessions[0].seq == 1);

  admin.MakeFriends(alice.id, bob.id);
  CHECK(str(a.next_dispatch("RELATIONSHIP_ADD")["d"]["id"]) == std::to_string(bob.id));
  // Bob comes online without a Client of his own.
  admin.SetPresence(bob.id, "dnd", R"([{"name":"Arena","type":0}])");
  const auto presence = a.next_dispatch("PRESENCE_UPDATE");
  CHECK(str(presence["d"]["user"]["id"]) == std::to_string(bob.id));
  CHECK(str(presence["d"]["status"]) == "dnd");
  CHECK(str(presence["d"]["activities"][0]["name"]) == "Arena");
  admin.SetPresence(bob.id, "offline");
  CHECK(str(a.next_dispatch("PRESENCE_UPDATE")["d"]["status"]) == "offline");

  const auto seqs = admin.InjectDispatch(alice.id, "TEST_EVENT", R"({"n":1})");
  REQUIRE(seqs.size() == 1);
  CHECK(a.next_dispatch("TEST_EVENT")["s"].GetInt64() == seqs[0]);

  const EmulatorAdmin::GatewayTarget target{session_id, 0};
  CHECK(admin.StallGateway(target, true) == 1);
  a.send(R"({"op":1,"d":null})");
  CHECK(admin.RequestHeartbeat(target) == 1);
  CHECK(a.next()["op"].GetInt() == 1);
  // The heartbeat travels on the WebSocket and the query on HTTP: nothing orders the emulator's reading of
  // the two, so the count is awaited (a stalled session still counts what it receives).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  do {
    sessions = admin.GatewaySessions();
    if (sessions[0].heartbeatsReceived != 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  } while (std::chrono::steady_clock::now() < deadline);
  CHECK(sessions[0].stalled);
  CHECK(sessions[0].heartbeatsReceived == 1);
  CHECK(sessions[0].acksSent == 0);
  CHECK(admin.StallGateway(target, false) == 1);

  CHECK(admin.ReconnectGateway(target) == 1);
  CHECK(a.next()["op"].GetInt() == 7);
  a.close(4000);

  GatewayClient b(connection.caFile, port, "/?v=10&encoding=json");
  b.next();
  b.send(identify(alice_token));
  b.next_dispatch("READY");
  CHECK(admin.InvalidateGateway({}, true) == 1);
  CHECK(b.next()["d"].IsTrue());
  b.close(4000);

  GatewayClient c(connection.caFile, port, "/?v=10&encoding=json");
  c.next();
  c.send(identify(alice_token));
  c.next_dispatch("READY");
  CHECK(admin.CloseGateway({"", alice.id}, 4000, "bye") == 1);
  CHECK(c.expect_close() == 4000);

  GatewayClient d(connection.caFile, port, "/?v=10&encoding=json");
  d.next();
  d.send(identify(alice_token));
  d.next_dispatch("READY");
  CHECK(admin.DropGateway() == 1);
  CHECK(d.expect_close() == 0);

  EmulatorAdmin::GatewayLimits limits;
  limits.identifyBudget = 0;
  admin.SetGatewayLimits(limits);
  GatewayClient e(connection.caFile, port, "/?v=10&encoding=json");
  e.next();
  e.send(identify(alice_token));
  CHECK(e.expect_close() == 4008);
}

TEST_CASE("testkit: social admin calls (profile, spammer, premium)") {
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  auto process = EmulatorProcess::Start(options);
  const auto& connection = process->Connection();
  EmulatorAdmin admin(connection);
  const auto app = admin.CreateApp("Social Testkit");
  const auto alice = admin.CreateUser("alice");
  const auto bob = admin.CreateUser("bob");
  admin.MakeFriends(alice.id, bob.id);
  const auto port = static_cast<unsigned short>(connection.port);

  GatewayClient a(connection.caFile, port, "/?v=10&encoding=json");
  a.next();
  a.send(identify(admin.MintToken(alice.id, app.id, "openid sdk.social_layer").accessToken));
  a.next_dispatch("READY");

  EmulatorAdmin::UserProfile profile;
  profile.globalName = "Bobby";
  profile.tag = "BOB";
  profile.premiumType = 2;
  const auto user = admin.SetUserProfile(bob.id, profile);
  CHECK(user.find("\"tag\":\"BOB\"") != std::string::npos);
  const auto update = a.next_dispatch("RELATIONSHIP_UPDATE");
  CHECK(str(update["d"]["user"]["global_name"]) == "Bobby");
  CHECK(str(update["d"]["user"]["primary_guild"]["tag"]) == "BOB");
  CHECK(update["d"]["user"]["premium_type"].GetInt() == 0);  // the app is not approved

  EmulatorAdmin::UserProfile too_long;
  too_long.tag = "BOBBY";
  CHECK_THROWS_AS(admin.SetUserProfile(bob.id, too_long), std::runtime_error);
  EmulatorAdmin::UserProfile cleared;
  cleared.clearTag = true;
  CHECK(admin.SetUserProfile(bob.id, cleared).find("\"primary_guild\":null") != std::string::npos);

  admin.FlagSpammer(bob.id);
  admin.FlagSpammer(bob.id, false);
  CHECK_THROWS_AS(admin.FlagSpammer(1), std::runtime_error);

  admin.ApprovePremium(app.id);
  GatewayClient b(connection.caFile, port, "/?v=10&encoding=json");
  b.next();
  b.send(identify(admin.MintToken(bob.id, app.id, "identify identify.premium").accessToken));
  CHECK(b.next_dispatch("READY")["d"]["user"]["premium_type"].GetInt() == 2);
  admin.ApprovePremium(app.id, false);
  GatewayClient c(connection.caFile, port, "/?v=10&encoding=json");
  c.next();
  c.send(identify(admin.MintToken(bob.id, app.id, "identify identify.premium").accessToken));
  CHECK(c.next_dispatch("READY")["d"]["user"]["premium_type"].GetInt() == 0);
  CHECK_THROWS_AS(admin.ApprovePremium(1), std::runtime_error);
}

}  // namespace testkit_gateway_test
