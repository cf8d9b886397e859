// Two players chatting in a lobby while the emulator (with --state) is killed with SIGKILL and started again
// on the same port: their Clients reconnect by themselves (the Gateway session cannot be resumed, so each
// gets a fresh READY, as on the platform), with the same tokens, the same lobby and its history, and chat on.
#include <doctest/doctest.h>
#include <platformpp/client.hpp>
#include <platformpp/io_context.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace emulator_restart_test {

using platformpp::Client;
using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

namespace {

struct Player {
  std::unique_ptr<Client> client;
  std::vector<std::string> received;  // MessageCreated contents, in order
  int readies = 0;
};

// A fresh directory of this test's own (create_directory fails on a name that exists).
std::string MakeTempDir() {
  std::random_device random;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const auto path =
        std::filesystem::temp_directory_path() / ("platformpp-restart-" + std::to_string(random()));
    std::error_code error;
    if (std::filesystem::create_directory(path, error)) {
      std::filesystem::permissions(path, std::filesystem::perms::owner_all, error);
      return path.string();
    }
  }
  FAIL("no temporary directory could be made");
  return {};
}

}  // namespace

TEST_CASE(
    "a killed emulator restarted on its state file: clients reconnect into the same lobby and history") {
  const std::string dir = MakeTempDir();
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } cleanup{dir};

  EmulatorProcess::Options options;
  options.binary = PLATFORMPP_EMULATOR_PATH;
  options.ipc = false;
  // The data dir is shared by both processes, so the Clients' CA file stays where they read it; the state
  // file keeps the CA itself.
  options.extraArguments = {"--state", dir + "/state.db", "--data-dir", dir};
  auto first = EmulatorProcess::Start(options);
  const auto connection = first->Connection();
  EmulatorAdmin admin(connection);
  const auto app = admin.CreateApp("Restart Game");
  std::vector<Player> players(2);
  std::vector<uint64_t> userIds;
  for (int i = 0; i < 2; ++i) {
    const auto user = admin.CreateUser(i == 0 ? "ada" : "bob");
    userIds.push_back(user.id);
    const auto token = admin.MintToken(user.id, app.id, "openid sdk.social_layer");
    auto& player = players[static_cast<size_t>(i)];
    player.client = std::make_unique<Client>(connection.ClientOptionsFor());
    player.client->SetApplicationId(app.id);
    player.client->SetStatusChangedCallback([&player](Client::Status status, Client::Error, int32_t) {
      if (status == Client::Status::Ready) ++player.readies;
    });
    player.client->SetMessageCreatedCallback([&player](uint64_t messageId) {
      if (auto message = player.client->GetMessageHandle(messageId))
        player.received.push_back(message->Content());
    });
    player.client->UpdateToken(platformpp::AuthorizationTokenType::Bearer, token.accessToken, [](auto) {});
    player.client->Connect();
  }
  const auto runUntil = [&](const std::function<bool()>& done, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      for (auto& player : players)
        player.client->RunCallbacks();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  };
  REQUIRE(
      runUntil([&] { return players[0].readies == 1 && players[1].readies == 1; }, std::chrono::seconds(20)));

  uint64_t lobbyId = 0;
  int joined = 0;
  for (auto& player : players) {
    player.client->CreateOrJoinLobby("restart-lobby",
                                     [&](const platformpp::ClientResult& result, uint64_t id) {
                                       REQUIRE_MESSAGE(result.Successful(), result.Error());
                                       lobbyId = id;
                                       ++joined;
                                     });
    REQUIRE(runUntil([&] { return joined == static_cast<int>(&player - players.data()) + 1; },
                     std::chrono::seconds(10)));
  }
  bool sent = false;
  uint64_t firstMessageId = 0;
  players[0].client->SendLobbyMessage(lobbyId, "before the crash",
                                      [&](const platformpp::ClientResult& result, uint64_t id) {
                                        REQUIRE_MESSAGE(result.Successful(), result.Error());
                                        firstMessageId = id;
                                        sent = true;
                                      });
  REQUIRE(runUntil([&] { return sent && !players[1].received.empty(); }, std::chrono::seconds(10)));

  // kill -9, then the same binary on the same port and state file.
  first->Kill();
  CHECK(first->Stop() == -1);
  options.extraArguments.emplace_back("--port");
  options.extraArguments.emplace_back(std::to_string(connection.port));
  auto second = EmulatorProcess::Start(options);

  // Each Client reconnects by itself: its session cannot be resumed, so it identifies again (a second READY).
  REQUIRE(
      runUntil([&] { return players[0].readies == 2 && players[1].readies == 2; }, std::chrono::seconds(60)));
  CHECK(players[0].client->GetStatus() == Client::Status::Ready);

  // The same lobby with both members, and its history.
  bool fetched = false;
  std::vector<std::pair<uint64_t, std::string>> history;
  players[1].client->GetLobbyMessagesWithLimit(
      lobbyId, 50,
      [&](const platformpp::ClientResult& result, const std::vector<platformpp::MessageHandle>& messages) {
        REQUIRE_MESSAGE(result.Successful(), result.Error());
        for (const auto& message : messages)
          history.emplace_back(message.Id(), message.Content());
        fetched = true;
      });
  REQUIRE(runUntil([&] { return fetched; }, std::chrono::seconds(10)));
  REQUIRE(history.size() == 1);
  CHECK(history[0].first == firstMessageId);
  CHECK(history[0].second == "before the crash");
  auto lobby = players[0].client->GetLobbyHandle(lobbyId);
  REQUIRE(lobby.has_value());
  CHECK(lobby->LobbyMembers().size() == 2);

  // And they chat on.
  sent = false;
  players[0].client->SendLobbyMessage(lobbyId, "after the restart",
                                      [&](const platformpp::ClientResult& result, uint64_t) {
                                        REQUIRE_MESSAGE(result.Successful(), result.Error());
                                        sent = true;
                                      });
  REQUIRE(runUntil([&] { return sent && players[1].received.size() == 2; }, std::chrono::seconds(10)));
  CHECK(players[1].received.back() == "after the restart");
  for (auto& player : players)
    player.client.reset();
  CHECK(second->Stop() == 0);
}

}  // namespace emulator_restart_test
