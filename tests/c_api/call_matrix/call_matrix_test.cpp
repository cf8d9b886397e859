#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
// Every function of the C ABI in every state a game can put a client in (docs/c-api-call-matrix.md): each
// state is set up against a real emulator, then every exported function is called with plausible, empty,
// over-long and invalid arguments, once with the state's objects and once with NULL ones. No call may crash,
// block the caller or call back outside run_callbacks; once the state's objects are destroyed, every
// operation has ended exactly once and every user_data was freed exactly once. The sanitizer builds run it
// too (leaks, bad reads of what callbacks get).
#include <doctest/doctest.h>
#include <platformpp/platformpp_c.h>
#include <platformpp/testkit/emulator.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "call_matrix_support.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

platformpp_string view(const std::string& text) {
  return platformpp_string{text.data(), text.size()};
}

// One emulator per state that breaks it (killed, made unreachable); the others share this one.
struct World {
  std::unique_ptr<EmulatorProcess> emulator = EmulatorProcess::Start();
  EmulatorAdmin admin{emulator->Connection()};
  EmulatorAdmin::App app = admin.CreateApp("Call Matrix");
  EmulatorAdmin::User player = admin.CreateUser("matrix_player", "Matrix Player");
  EmulatorAdmin::User other = admin.CreateUser("matrix_friend", "Matrix Friend");
  World() {
    admin.SetConsent(player.id);
    admin.MakeFriends(player.id, other.id);
    admin.SetSocialRateLimits(false);
  }
  std::string Token() {
    return admin.MintToken(player.id, app.id, "openid sdk.social_layer guilds").accessToken;
  }
};

// A client of the C ABI reaching `connection`, and its status as the status callback last reported it.
struct Game {
  platformpp_client* client = nullptr;
  int status = PLATFORMPP_CLIENT_STATUS_DISCONNECTED;  // set inside run_callbacks, on this thread

  // `ipcName`: the desktop client's socket or pipe prefix; another than the emulator's finds none.
  Game(const platformpp::testkit::ConnectionInfo& connection, uint64_t appId,
       const std::string& ipcName = {}) {
    platformpp_client_options options;
    platformpp_client_options_init(&options);
    const std::string name = ipcName.empty() ? connection.ipcName : ipcName;
    options.api_base = view(connection.apiBase);
    options.ca_file = view(connection.caFile);
    options.use_system_certificates = 0;
    options.web_base = view(connection.webBase);
    options.ipc_name = view(name);
    options.ipc_directory = view(connection.ipcDirectory);
    client = platformpp_client_create(&options);
    REQUIRE(client != nullptr);
    platformpp_client_set_application_id(client, appId);
    platformpp_client_set_status_changed_callback(
        client,
        [](platformpp_client_status s, platformpp_client_error, int32_t, void* self) {
          static_cast<Game*>(self)->status = s;
        },
        this, nullptr);
  }
  ~Game() { Destroy(); }
  Game(const Game&) = delete;
  Game& operator=(const Game&) = delete;

  void Pump(std::chrono::milliseconds for_at_least = std::chrono::milliseconds(0)) {
    const auto until = Clock::now() + for_at_least;
    do {
      {
        call_matrix::CallbackScope inside;
        platformpp_client_run_callbacks(client);
      }
      if (Clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } while (Clock::now() < until);
  }
  bool PumpUntil(const std::function<bool()>& done, std::chrono::milliseconds limit) {
    const auto until = Clock::now() + limit;
    while (Clock::now() < until) {
      Pump();
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return done();
  }
  void Connect(const std::string& token) {
    platformpp_client_update_token(client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, token.data(),
                                   token.size(), nullptr, nullptr, nullptr);
    platformpp_client_connect(client);
  }
  bool WaitReady() {
    return PumpUntil([&] { return status == PLATFORMPP_CLIENT_STATUS_READY; }, std::chrono::seconds(20));
  }
  void Destroy() {
    if (client == nullptr) return;
    call_matrix::CallbackScope inside;
    platformpp_client_destroy(client);
    client = nullptr;
  }
};

// The objects a game holds besides its client: made through the C ABI, destroyed at the end of the state.
struct Objects {
  std::map<std::string, void*> byType;
  std::vector<std::function<void()>> release;

  template <class T>
  void Add(const char* type, T* object, void (*destroy)(T*)) {
    if (object == nullptr) return;
    byType[type] = object;
    release.push_back([object, destroy] { destroy(object); });
  }
  void Release() {
    std::reverse(release.begin(), release.end());  // the last made goes first
    for (const auto& destroy : release)
      destroy();
    release.clear();
    byType.clear();
  }
};

// The objects a client gives, as a game would keep them.
void AddClientObjects(Objects& objects, platformpp_client* client, uint64_t friendId) {
  objects.Add("platformpp_user_handle", platformpp_client_get_current_user(client),
              platformpp_user_handle_destroy);
  objects.Add("platformpp_relationship_handle", platformpp_client_get_relationship_handle(client, friendId),
              platformpp_relationship_handle_destroy);
  objects.Add("platformpp_relationship_list", platformpp_client_get_relationships(client),
              platformpp_relationship_list_destroy);
  objects.Add("platformpp_user_list", platformpp_client_search_friends_by_username(client, "matrix", 6),
              platformpp_user_list_destroy);
  objects.Add("platformpp_user_application_profile_list",
              platformpp_client_get_user_application_profiles(client),
              platformpp_user_application_profile_list_destroy);
  objects.Add("platformpp_premium_snapshot", platformpp_client_get_premium_snapshot(client),
              platformpp_premium_snapshot_destroy);
  objects.Add("platformpp_authorization_code_verifier",
              platformpp_client_create_authorization_code_verifier(),
              platformpp_authorization_code_verifier_destroy);
}

// Objects that need no client.
void AddFreeObjects(Objects& objects) {
  objects.Add("platformpp_activity", platformpp_activity_create(), platformpp_activity_destroy);
  objects.Add("platformpp_game_stats_profile", platformpp_game_stats_profile_create(),
              platformpp_game_stats_profile_destroy);
}

// Every function, every kind of argument, with the state's objects and then with NULL ones; run_callbacks
// now and then as a game's frame would (unless `pump` is false: callbacks then wait for destroy).
void CallEverything(Game* game, bool pump) {
  std::size_t n = 0;
  for (int nulls = 0; nulls < 2; ++nulls) {
    call_matrix::set_null_objects(nulls == 1);
    for (int kind = 0; kind < MATRIX_ARGUMENT_KINDS; ++kind) {
      for (std::size_t i = 0; i < matrix_function_count; ++i) {
        matrix_functions[i].call(static_cast<matrix_arguments>(kind));
        if (pump && game != nullptr && game->client != nullptr && ++n % 64 == 0) game->Pump();
      }
    }
  }
  call_matrix::set_null_objects(false);
}

void CheckNothingWrong(const char* state) {
  const auto problems = call_matrix::check_tickets();
  const auto done = call_matrix::summary();
  MESSAGE(std::string(state) << ": " << done.calls << " calls, " << done.operations << " operations, "
                             << done.callbacks << " callbacks");
  INFO("state: " << std::string(state) << "; " << done.operations << " operations");
  for (const auto& problem : problems)
    FAIL_CHECK(problem);
  CHECK(problems.empty());
  CHECK(platformpp_debug_live_client_count() == 0);
}

// A state: set up by `prepare` (which makes the game and its objects), the matrix, then everything destroyed
// and checked.
void RunState(const char* name, Game& game, Objects& objects, bool pump = true,
              std::function<void(std::size_t)> before_call = {}) {
  objects.byType["platformpp_client"] = game.client;
  call_matrix::reset(objects.byType);
  if (before_call) call_matrix::on_call(std::move(before_call));
  CallEverything(&game, pump);
  if (pump) game.Pump(std::chrono::milliseconds(300));
  {
    call_matrix::CallbackScope inside;  // a registration's user_data is freed as its object goes
    objects.byType.erase("platformpp_client");
    objects.Release();
  }
  game.Destroy();
  CheckNothingWrong(name);
}

World& SharedWorld() {
  static World world;
  return world;
}

// A state of a client that reached Ready on the shared emulator: `fault` then changes it (revokes the token,
// drops the connection...), the game keeps its objects, and the matrix runs (pumped or not).
void ReadyState(const char* name, const std::function<void(World&, const std::string& token)>& fault,
                bool pump = true) {
  auto& world = SharedWorld();
  Game game(world.emulator->Connection(), world.app.id);
  const std::string token = world.Token();
  game.Connect(token);
  REQUIRE(game.WaitReady());
  fault(world, token);
  Objects objects;
  AddClientObjects(objects, game.client, world.other.id);
  AddFreeObjects(objects);
  RunState(name, game, objects, pump);
}

}  // namespace

TEST_CASE("never connected, no token") {
  auto& world = SharedWorld();
  Game game(world.emulator->Connection(), world.app.id);
  Objects objects;
  AddClientObjects(objects, game.client, world.other.id);
  AddFreeObjects(objects);
  RunState("never connected", game, objects);
}

TEST_CASE("connecting") {
  auto& world = SharedWorld();
  Game game(world.emulator->Connection(), world.app.id);
  game.Connect(world.Token());
  Objects objects;
  AddFreeObjects(objects);
  RunState("connecting", game, objects);
}

TEST_CASE("ready, with a friend") {
  ReadyState("ready", [](World&, const std::string&) {});
}

TEST_CASE("token revoked while ready") {
  ReadyState("token revoked", [](World& world, const std::string& token) { world.admin.DeleteToken(token); });
}

TEST_CASE("reconnecting: the Gateway connection dropped") {
  ReadyState("reconnecting", [](World& world, const std::string&) {
    world.admin.DropGateway({.sessionId = {}, .userId = world.player.id});
  });
}

TEST_CASE("desktop client absent") {
  auto& world = SharedWorld();
  Game game(world.emulator->Connection(), world.app.id, "platformpp-call-matrix-absent");
  game.Connect(world.Token());
  Objects objects;
  AddClientObjects(objects, game.client, world.other.id);
  RunState("desktop client absent", game, objects);
}

TEST_CASE("emulator unreachable") {
  auto& world = SharedWorld();
  // A port nothing listens on: the emulator's, after it stopped.
  World gone;
  const auto connection = gone.emulator->Connection();
  const std::string token = gone.Token();
  gone.emulator->Stop();
  Game game(connection, gone.app.id);
  game.Connect(token);
  Objects objects;
  AddClientObjects(objects, game.client, world.other.id);
  RunState("emulator unreachable", game, objects);
}

TEST_CASE("emulator killed in the middle of the calls") {
  World doomed;
  Game game(doomed.emulator->Connection(), doomed.app.id);
  game.Connect(doomed.Token());
  REQUIRE(game.WaitReady());
  Objects objects;
  AddClientObjects(objects, game.client, doomed.other.id);
  RunState("emulator killed", game, objects, true, [&](std::size_t n) {
    if (n == matrix_function_count / 2) doomed.emulator->Kill();
  });
}

TEST_CASE("destroyed with every operation still pending") {
  ReadyState(
      "destroyed with operations pending", [](World&, const std::string&) {}, /*pump=*/false);
}

TEST_CASE("after the client is gone: what it handed out still works") {
  auto& world = SharedWorld();
  Objects objects;
  {
    Game game(world.emulator->Connection(), world.app.id);
    game.Connect(world.Token());
    REQUIRE(game.WaitReady());
    AddClientObjects(objects, game.client, world.other.id);
    AddFreeObjects(objects);
    game.Destroy();
  }
  call_matrix::reset(objects.byType);  // no client: every client call gets NULL
  CallEverything(nullptr, false);
  {
    call_matrix::CallbackScope inside;
    objects.Release();
  }
  CheckNothingWrong("after destroy");
}
