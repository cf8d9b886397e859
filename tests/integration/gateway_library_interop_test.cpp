// A game server written with a common third-party library of the platform, pointed at the emulator:
// discord.js's Gateway library (@discordjs/ws, with @discordjs/rest; tests/interop, installed by
// tools/install-deps) asks GET /gateway/bot with a bot token, identifies, gets READY, is dropped, and
// resumes. Its own CTest test (interop_gateway_library): Skipped, saying why, where node or the packages are
// missing, and failed instead under CI=true.
#include "emulator_fixture.hpp"
#include "node_peer.hpp"

#include <chrono>
#include <string>
#include <thread>

namespace gateway_library_interop_test {

namespace {

using node_peer::NodePeer;
using namespace std::chrono_literals;

bool WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout = 20s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

}  // namespace

TEST_CASE(
    "Gateway interop: discord.js's Gateway library gets READY with a bot token, is dropped and resumes") {
  node_peer::RequireInterop({"@discordjs/ws", "@discordjs/rest"});
  MESSAGE("third-party library: @discordjs/ws "
          << node_peer::InstalledVersion("@discordjs/ws") << ", @discordjs/rest "
          << node_peer::InstalledVersion("@discordjs/rest") << " on Node.js " << node_peer::NodeVersion());
  auto& e = itest::Shared();
  const auto app = e.admin->CreateApp("Bot Library Game");
  const auto& connection = e.process->Connection();
  NodePeer bot("gateway_bot.mjs", {connection.apiBase, app.botToken},
               {"NODE_EXTRA_CA_CERTS=" + connection.caFile});
  INFO("library: " << bot.Transcript());
  REQUIRE(WaitFor([&] { return bot.Last("ready").has_value() || bot.Last("error").has_value(); }));
  REQUIRE_FALSE(bot.Last("error"));
  // It asked GET /gateway/bot first: one shard.
  REQUIRE(bot.Last("gateway_bot"));
  CHECK((*bot.Last("gateway_bot"))["shards"].GetInt() == 1);

  // The connection is cut without a close frame: the library resumes the session and gets RESUMED.
  const auto ready = bot.Last("ready");
  REQUIRE((*ready)["sessionId"].IsString());
  platformpp::testkit::EmulatorAdmin::GatewayTarget target;
  target.sessionId = (*ready)["sessionId"].GetString();
  CHECK(e.admin->DropGateway(target) == 1);
  REQUIRE(WaitFor([&] { return bot.Last("resumed").has_value(); }));
  CHECK(bot.Count("ready") == 1);  // resumed, not identified again
  CHECK_FALSE(bot.Last("error"));
}

}  // namespace gateway_library_interop_test
