// platformpp::testkit's snapshot options against the real binary: a test starts from a world in a file
// (Options::importFile) and leaves its own in one when it stops (Options::exportOnExit).
#include <doctest/doctest.h>
#include <platformpp/testkit/emulator.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "emulator_process.hpp"

using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

extern std::string g_testkit_emulator_binary;  // testkit_ipc_test.cpp

TEST_CASE("testkit: Options::importFile starts from a snapshot, Options::exportOnExit writes one at Stop") {
  const std::filesystem::path dir = platformpp::emulator::test::make_temp_dir();
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  {
    auto first = EmulatorProcess::Start(options);
    EmulatorAdmin admin(first->Connection());
    admin.CreateApp("Snapshot Game");
    admin.CreateUser("ada");
    std::ofstream(dir / "world.json", std::ios::binary) << admin.ExportState();
  }

  options.importFile = (dir / "world.json").string();
  options.exportOnExit = (dir / "left.json").string();
  auto second = EmulatorProcess::Start(options);
  {
    EmulatorAdmin admin(second->Connection());
    const auto counts = admin.StateCounts();
    CHECK(counts.at("application") == 1);
    CHECK(counts.at("user") == 2);  // ada and the application's bot
    admin.CreateUser("bob");
  }
  CHECK(second->Stop() == 0);
  REQUIRE(std::filesystem::exists(dir / "left.json"));

  options.exportOnExit.clear();
  options.importFile = (dir / "left.json").string();
  auto third = EmulatorProcess::Start(options);
  EmulatorAdmin admin(third->Connection());
  CHECK(admin.StateCounts().at("user") == 3);
  CHECK(admin.StateCounts().at("application") == 1);
  CHECK(third->Stop() == 0);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
