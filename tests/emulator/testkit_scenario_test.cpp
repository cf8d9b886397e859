// Scenarios through the testkit and the real binary (Options::scenario, --scenario): the world is there when
// Start returns, the names a test needs come back through ScenarioValue/ScenarioId, the timeline runs on the
// fake clock the admin API moves, and a file that cannot be used stops Start with its line.
#include <doctest/doctest.h>
#include <platformpp/testkit/emulator.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

#include "emulator_process.hpp"
#include "test_support.hpp"

using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

extern std::string g_testkit_emulator_binary;  // testkit_ipc_test.cpp

namespace testkit_scenario_test {

std::filesystem::path write_scenario(const std::filesystem::path& dir, const std::string& name,
                                     const std::string& text) {
  auto path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST_CASE("testkit: Options::scenario sets the world up before Start returns and plays its timeline") {
  const auto dir = platformpp::emulator::test::make_temp_dir();
  const auto file = write_scenario(dir, "friends.json", R"({
  "scenario": 1,
  "applications": [{"as": "game", "name": "Scenario Game"}],
  "users": [{"as": "alice", "username": "alice"}, {"as": "bob", "username": "bob"}],
  "tokens": [{"as": "alice_token", "user": "alice", "app": "game", "scopes": ["openid", "sdk.social_layer"]}],
  "friendships": [["alice", "bob"]],
  "timeline": [{"at": "1h", "admin": "POST /users", "body": {"username": "carol"}, "as": "carol"}]
})");
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  options.scenario = file.string();
  options.extraArguments = {"--frozen-clock"};
  auto process = EmulatorProcess::Start(options);
  EmulatorAdmin admin(process->Connection());

  const auto alice = admin.ScenarioId("alice");
  const auto bob = admin.ScenarioId("bob");
  CHECK(alice != 0);
  CHECK(bob != alice);
  CHECK(admin.ScenarioValue("game.name") == "Scenario Game");
  CHECK_THROWS_AS(admin.ScenarioValue("alice.no_such_member"), std::runtime_error);
  CHECK_THROWS_AS(admin.ScenarioId("game.name"), std::runtime_error);
  CHECK(admin.HasScenarioName("alice_token"));
  CHECK_FALSE(admin.HasScenarioName("carol"));  // not before its time
  const auto game = admin.ScenarioApp("game");
  CHECK(game.id == admin.ScenarioId("game"));
  CHECK_FALSE(game.botToken.empty());
  CHECK(game.verifyKey.size() == 64);
  CHECK(game.botUserId != 0);
  const auto alice_user = admin.ScenarioUser("alice");
  CHECK(alice_user.id == alice);
  CHECK(alice_user.username == "alice");

  // Alice's token is the platform's: with it, the platform API says bob is her friend.
  const auto token = admin.ScenarioValue("alice_token.access_token");
  auto connection = process->Connection();
  connection.adminBase = connection.apiBase;
  connection.adminToken = token;  // EmulatorAdmin sends it as the Bearer token: alice's call
  EmulatorAdmin alice_client(connection);
  const auto relationships = alice_client.Request("GET", "/users/@me/relationships");
  CHECK(relationships.status == 200);
  CHECK(relationships.body.find(std::to_string(bob)) != std::string::npos);

  // The clock stands (--frozen-clock): carol comes when it is moved an hour on, not before.
  CHECK(admin.ScenarioStatus().find(R"("ran":false)") != std::string::npos);
  admin.AdvanceClock(std::chrono::minutes(59));
  CHECK_THROWS_AS(admin.ScenarioId("carol"), std::runtime_error);
  admin.AdvanceClock(std::chrono::minutes(1));
  uint64_t carol = 0;
  for (int i = 0; i < 200 && carol == 0; ++i) {  // the service's tick runs it, within tens of ms
    try {
      carol = admin.ScenarioId("carol");
    } catch (const std::runtime_error&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  CHECK(carol != 0);
  CHECK(process->Stop() == 0);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST_CASE("testkit: the shipped desktop.json plays whole against the desktop client's stand-in") {
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.scenario = std::string(PLATFORMPP_SCENARIOS_DIR) + "/desktop.json";
  options.extraArguments = {"--frozen-clock"};
  auto process = EmulatorProcess::Start(options);
  EmulatorAdmin admin(process->Connection());
  CHECK(admin.IpcStatus().listening);
  admin.AdvanceClock(std::chrono::minutes(2));  // the whole timeline is due: consent, drop, restore
  bool done = false;
  for (int i = 0; i < 200 && !done; ++i) {
    done = admin.ScenarioStatus().find(R"("ran":false)") == std::string::npos;
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(done);
  const auto status = admin.ScenarioStatus();
  CHECK(status.find(R"("error")") == std::string::npos);
  CHECK(admin.IpcStatus().listening);  // dropped, then restored
  CHECK(process->Stop() == 0);
}

TEST_CASE("testkit: a scenario that cannot be used stops Start with the file's line") {
  const auto dir = platformpp::emulator::test::make_temp_dir();
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  // A mistake the parser sees (a name used before it is given), and one only the emulator's rules see (a
  // username it refuses): both name their line.
  options.scenario = write_scenario(dir, "early.json",
                                    "{\"scenario\": 1,\n\"friendships\": [[\"alice\", \"bob\"]],\n"
                                    "\"users\": [{\"as\": \"alice\", \"username\": \"alice\"}]}")
                         .string();
  try {
    (void)EmulatorProcess::Start(options);
    FAIL("Start accepted a scenario that refers to a user before it is made");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("early.json:2: \"alice\" names no step before it") != std::string::npos);
  }
  options.scenario =
      write_scenario(dir, "refused.json", "{\"scenario\": 1,\n\"users\": [\n{\"username\": \"x\"}]}")
          .string();
  try {
    (void)EmulatorProcess::Start(options);
    FAIL("Start accepted a scenario whose user the emulator refuses");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("refused.json:3: POST /users answered 400") != std::string::npos);
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace testkit_scenario_test
