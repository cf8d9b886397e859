// platformpp-game-test: how a game tests its social features against platformpp-emulator, with doctest and
// platformpp::testkit. The test program starts an emulator of its own (the binary $PLATFORMPP_EMULATOR names,
// or platformpp-emulator on $PATH), seeds players with the admin API, and checks two pieces of the game's
// code: its friends panel (a friend who is playing shows with what she is doing) and its chat box (a line the
// platform refuses is marked as not sent), and that the game is back online after its connection drops.
//
//   PLATFORMPP_EMULATOR=/path/to/platformpp-emulator platformpp-game-test
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <platformpp/platformpp.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

// The game's code under test. In a game it lives in the game's sources; the test links it.
// [guide:game-code]
// The "Playing this game" section of the friends panel: one line per friend, with what they are doing.
std::vector<std::string> PlayingFriendsLines(platformpp::Client& client) {
  std::vector<std::string> lines;
  for (const auto& relationship :
       client.GetRelationshipsByGroup(platformpp::RelationshipGroupType::OnlinePlayingGame)) {
    auto user = relationship.User();
    if (!user) continue;
    std::string line = user->DisplayName();
    if (auto activity = user->GameActivity(); activity && activity->State())
      line += " - " + *activity->State();
    lines.push_back(line);
  }
  return lines;
}

// The lobby's chat box: shows each line at once and marks it when the platform refuses it.
class ChatBox {
 public:
  ChatBox(platformpp::Client& client, uint64_t lobbyId) : client_(client), lobbyId_(lobbyId) {}

  void Send(const std::string& text) {
    lines_.push_back("me: " + text);
    ++pending_;
    client_.SendLobbyMessage(
        lobbyId_, text, [this, index = lines_.size() - 1](const platformpp::ClientResult& result, uint64_t) {
          --pending_;
          if (!result.Successful()) lines_[index] += " (not sent)";
        });
  }
  const std::vector<std::string>& Lines() const { return lines_; }
  bool Sending() const { return pending_ > 0; }

 private:
  platformpp::Client& client_;
  uint64_t lobbyId_;
  std::vector<std::string> lines_;
  int pending_ = 0;
};
// [guide-end]

// [guide:fixture]
// One emulator for the whole test program (it starts in well under a second); each test seeds players of
// its own, so the tests do not depend on each other.
struct TestPlatform {
  std::unique_ptr<platformpp::testkit::EmulatorProcess> emulator =
      platformpp::testkit::EmulatorProcess::Start();
  platformpp::testkit::EmulatorAdmin admin{emulator->Connection()};
  platformpp::testkit::EmulatorAdmin::App app = admin.CreateApp("Game Under Test");
};

TestPlatform& Platform() {
  static TestPlatform platform;
  return platform;
}

// Test players talk to the platform directly, not through the desktop client stand-in they would share.
platformpp::ClientOptions PlayerOptions() {
  auto options = Platform().emulator->Connection().ClientOptionsFor();
  options.ipcEnabled = false;
  return options;
}

// A player of the game: a user of the emulator, logged in with a token it mints (the login itself has its own
// tests), and connecting.
struct TestPlayer {
  platformpp::testkit::EmulatorAdmin::User user;
  platformpp::Client client;

  TestPlayer(const std::string& username, const std::string& displayName)
      : user(Platform().admin.CreateUser(username, displayName)), client(PlayerOptions()) {
    const auto& app = Platform().app;
    auto token =
        Platform().admin.MintToken(user.id, app.id, platformpp::Client::GetDefaultCommunicationScopes());
    client.SetApplicationId(app.id);
    client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token.accessToken, nullptr);
    client.Connect();
  }
  bool Online() const { return client.GetStatus() == platformpp::Client::Status::Ready; }
};

// The game loop of a test: runs the players' callbacks, frame by frame, until `condition` holds or 10 s pass.
template <class Condition>
bool RunUntil(std::initializer_list<TestPlayer*> players, Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    for (auto* player : players)
      player->client.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}
// [guide-end]

}  // namespace

// [guide:test-presence]
TEST_CASE("a friend who is playing shows in the friends panel with what she is doing") {
  TestPlayer ada("ada_panel", "Ada");
  TestPlayer bo("bo_panel", "Bo");
  Platform().admin.MakeFriends(ada.user.id, bo.user.id);
  REQUIRE(RunUntil({&ada, &bo}, [&] { return ada.Online() && bo.Online(); }));

  platformpp::Activity activity;
  activity.SetType(platformpp::ActivityTypes::Playing);
  activity.SetState("In the arena");
  bool shown = false;
  ada.client.UpdateRichPresence(activity, [&](const platformpp::ClientResult& result) {
    CHECK(result.Successful());
    shown = true;
  });
  CHECK(RunUntil({&ada, &bo}, [&] {
    return shown && PlayingFriendsLines(bo.client) == std::vector<std::string>{"Ada - In the arena"};
  }));
}
// [guide-end]

// [guide:test-fault]
TEST_CASE("a chat line the platform refuses is marked as not sent") {
  TestPlayer ada("ada_chat_fault", "Ada");
  REQUIRE(RunUntil({&ada}, [&] { return ada.Online(); }));
  uint64_t lobbyId = 0;
  ada.client.CreateOrJoinLobby("fault-test", [&](const platformpp::ClientResult& result, uint64_t id) {
    CHECK(result.Successful());
    lobbyId = id;
  });
  REQUIRE(RunUntil({&ada}, [&] { return lobbyId != 0; }));

  // The next message the platform receives is refused with 403 (the player may not send there).
  Platform().admin.AddFault({.route = "POST /lobbies/*/messages", .status = 403, .count = 1});
  ChatBox chat(ada.client, lobbyId);
  chat.Send("first");
  chat.Send("second");
  REQUIRE(RunUntil({&ada}, [&] { return !chat.Sending(); }));
  CHECK(chat.Lines() == std::vector<std::string>{"me: first (not sent)", "me: second"});
}
// [guide-end]

// [guide:test-reconnect]
TEST_CASE("the game is back online after its connection drops") {
  TestPlayer ada("ada_drop", "Ada");
  std::vector<platformpp::Client::Status> statuses;  // as the game's status callback saw them
  ada.client.SetStatusChangedCallback([&](platformpp::Client::Status status, platformpp::Client::Error,
                                          int32_t) { statuses.push_back(status); });
  // Wait for the callback, not GetStatus(): the state changes before the callback that announces it runs.
  auto toldReady = [&] { return !statuses.empty() && statuses.back() == platformpp::Client::Status::Ready; };
  REQUIRE(RunUntil({&ada}, toldReady));

  statuses.clear();
  CHECK(Platform().admin.DropGateway({.sessionId = {}, .userId = ada.user.id}) == 1);
  CHECK(RunUntil({&ada}, toldReady));
  CHECK(statuses.front() != platformpp::Client::Status::Ready);  // it was offline in between
}
// [guide-end]

// [guide:test-scenario]
// A test that needs a world (friends, a lobby with history) starts an emulator of its own from a scenario
// file: the world is there when Start returns, and the test finds what it needs in it by name.
TEST_CASE("a lobby's history reaches a player who joins the game after it was written") {
  platformpp::testkit::EmulatorProcess::Options options;
  options.scenario = GAME_TEST_SCENARIOS "/lobby-with-history.scenario.json";
  auto emulator = platformpp::testkit::EmulatorProcess::Start(options);
  platformpp::testkit::EmulatorAdmin admin(emulator->Connection());
  // Bo's message is on the scenario's timeline, 2 s after the start; Ada comes in later.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));

  auto clientOptions = emulator->Connection().ClientOptionsFor();
  clientOptions.ipcEnabled = false;
  platformpp::Client ada(clientOptions);
  ada.SetApplicationId(admin.ScenarioId("game"));
  ada.UpdateToken(platformpp::AuthorizationTokenType::Bearer, admin.ScenarioValue("ada_token.access_token"),
                  nullptr);
  ada.Connect();
  const auto lobbyId = admin.ScenarioId("lobby");
  std::vector<std::string> history;
  bool asked = false;
  bool answered = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!answered && std::chrono::steady_clock::now() < deadline) {
    ada.RunCallbacks();
    if (!asked && ada.GetStatus() == platformpp::Client::Status::Ready) {
      asked = true;
      auto onHistory = [&](const platformpp::ClientResult& result,
                           const std::vector<platformpp::MessageHandle>& messages) {
        CHECK(result.Successful());
        for (const auto& message : messages)
          history.push_back(message.Content());
        answered = true;
      };
      ada.GetLobbyMessagesWithLimit(lobbyId, 10, onHistory);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  REQUIRE(answered);
  CHECK(std::find(history.begin(), history.end(), "gl hf") != history.end());
}
// [guide-end]
