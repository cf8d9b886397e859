// platformpp::testkit's guild admin calls against the real binary (TLS), observed with the test WebSocket
// client: CreateGuild, CreateRole, AddGuildMember, CreateChannel, UpdateChannel, DeleteChannel.
#include <doctest/doctest.h>
#include <platformpp/testkit/emulator.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "gateway_test_client.hpp"

using platformpp::emulator::test::GatewayClient;
using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;
using Overwrites = std::vector<EmulatorAdmin::ChannelOverwrite>;

extern std::string g_testkit_emulator_binary;  // testkit_ipc_test.cpp

namespace testkit_guilds_test {

std::string text(const rapidjson::Value& value) {
  REQUIRE(value.IsString());
  return std::string(value.GetString(), value.GetStringLength());
}

TEST_CASE("testkit: guild admin calls") {
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  auto process = EmulatorProcess::Start(options);
  const auto& connection = process->Connection();
  EmulatorAdmin admin(connection);
  const auto app = admin.CreateApp("Guild Testkit");
  const auto owner = admin.CreateUser("owner");
  const auto alice = admin.CreateUser("alice");
  const auto token = admin.MintToken(alice.id, app.id, "openid guilds").accessToken;

  const auto guild = admin.CreateGuild("Home", owner.id, "banner1");
  CHECK(guild != 0);
  CHECK_THROWS_AS(admin.CreateGuild("Nowhere", 1), std::runtime_error);  // unknown owner
  const auto mods = admin.CreateRole(guild, "mods", 0);
  admin.AddGuildMember(guild, alice.id, {mods});
  const auto category = admin.CreateChannel(guild, {.name = "cat", .type = 4});

  // Capability bit 15: obfuscation whatever the fake clock says.
  GatewayClient client(connection.caFile, static_cast<unsigned short>(connection.port),
                       "/?v=10&encoding=json");
  client.next();
  client.send(
      R"({"op":2,"d":{"token":"Bearer )" + token +
      R"(","properties":{"os":"linux","browser":"t","device":"t"},"intents":0,"capabilities":32768}})");
  auto ready = client.next_dispatch("READY");
  REQUIRE(ready["d"]["guilds"].Size() == 1);
  CHECK(text(ready["d"]["guilds"][0]["banner"]) == "banner1");

  const EmulatorAdmin::ChannelOverwrite hide_all{guild, 0, 0, 1024};
  const auto secret = admin.CreateChannel(
      guild, {.name = "secret", .permissionOverwrites = Overwrites{hide_all}, .topic = "t"});
  auto created = client.next_dispatch("CHANNEL_CREATE");
  CHECK(text(created["d"]["id"]) == std::to_string(secret));
  CHECK(text(created["d"]["name"]) == "___hidden___");

  // Alice's role may see it: full metadata again.
  admin.UpdateChannel(guild, secret, {.permissionOverwrites = Overwrites{hide_all, {mods, 0, 1024, 0}}});
  auto shown = client.next_dispatch("CHANNEL_UPDATE");
  CHECK(text(shown["d"]["name"]) == "secret");
  CHECK(text(shown["d"]["topic"]) == "t");
  CHECK(shown["d"]["permission_overwrites"].Size() == 2);

  admin.UpdateChannel(guild, secret, {.parentId = category});
  CHECK(text(client.next_dispatch("CHANNEL_UPDATE")["d"]["parent_id"]) == std::to_string(category));
  admin.UpdateChannel(guild, secret, {.parentId = 0});
  CHECK(client.next_dispatch("CHANNEL_UPDATE")["d"]["parent_id"].IsNull());

  admin.DeleteChannel(guild, secret);
  CHECK(text(client.next_dispatch("CHANNEL_DELETE")["d"]["id"]) == std::to_string(secret));
  CHECK_THROWS_AS(admin.DeleteChannel(guild, secret), std::runtime_error);
}

}  // namespace testkit_guilds_test
