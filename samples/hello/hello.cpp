// platformpp-hello: the smallest complete use of the SDK. It seeds a running platformpp-emulator with a game,
// a player and a token, creates a Client that trusts the emulator's CA, fetches the player over TLS, meets a
// rate limit, and shows what destroying a Client with a request in flight does. Headless; exits non-zero on
// failure.
//
//   platformpp-hello --connection-file /path/to/connection.json
#include <platformpp/platformpp.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The game loop in miniature: run callbacks each frame until `done`.
template <class Done>
bool Frames(platformpp::Client& client, Done done) {
  auto deadline = Clock::now() + std::chrono::seconds(15);
  while (!done()) {
    if (Clock::now() > deadline) return false;
    client.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string connectionFile;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--connection-file") == 0 && i + 1 < argc) {
      connectionFile = argv[++i];
    } else {
      std::cerr << "usage: platformpp-hello --connection-file PATH\n";
      return 2;
    }
  }
  if (connectionFile.empty()) {
    std::cerr << "usage: platformpp-hello --connection-file PATH\n";
    return 2;
  }

  try {
    auto emulator = platformpp::testkit::ConnectionInfo::Load(connectionFile);
    std::cout << "platformpp " << PLATFORMPP_VERSION_STRING << " -> emulator at " << emulator.apiBase << "\n";

    platformpp::testkit::EmulatorAdmin admin(emulator);
    auto app = admin.CreateApp("Hello Game");
    auto player = admin.CreateUser("hello_player", "Hello Player");
    auto token = admin.MintToken(player.id, app.id, platformpp::Client::GetDefaultCommunicationScopes());
    std::cout << "seeded: application " << app.id << ", player " << player.username << " (" << player.id
              << "), a token for scopes '" << platformpp::Client::GetDefaultCommunicationScopes() << "'\n";

    auto client = std::make_unique<platformpp::Client>(emulator.ClientOptionsFor());
    client->SetApplicationId(app.id);
    client->AddLogCallback(
        [](std::string message, platformpp::LoggingSeverity severity) {
          std::cout << "  [sdk " << platformpp::LoggingSeverityToString(severity) << "] " << message << "\n";
        },
        platformpp::LoggingSeverity::Info);

    // 1. Who am I? Over TLS, verified against the emulator's CA.
    bool done = false;
    bool ok = true;
    auto start = Clock::now();
    client->FetchCurrentUser(platformpp::AuthorizationTokenType::Bearer, token.accessToken,
                             [&](platformpp::ClientResult result, uint64_t id, std::string name) {
                               done = true;
                               if (!result.Successful()) {
                                 std::cout << "FetchCurrentUser failed: " << result.ToString() << "\n";
                                 ok = false;
                                 return;
                               }
                               std::cout << "fetched the current user over TLS in "
                                         << MillisecondsSince(start) << " ms: " << name << " (" << id
                                         << ")\n";
                               ok = id == player.id;
                             });
    if (!Frames(*client, [&] { return done; }) || !ok) return 1;

    // 2. The platform says "slow down" (429, retry after 0.25 s): the SDK waits and retries by itself.
    admin.AddFault({.route = "GET /users/@me", .status = 429, .retryAfter = 0.25, .count = 1});
    done = false;
    start = Clock::now();
    client->FetchCurrentUser(platformpp::AuthorizationTokenType::Bearer, token.accessToken,
                             [&](platformpp::ClientResult result, uint64_t, std::string) {
                               done = true;
                               ok = result.Successful();
                               std::cout << "rate limited once; the SDK waited and retried: "
                                         << (ok ? "succeeded" : result.ToString()) << " after "
                                         << MillisecondsSince(start) << " ms\n";
                             });
    if (!Frames(*client, [&] { return done; }) || !ok) return 1;

    // 3. Destroying a Client ends what is in flight, once, with ClientDestroyed, inside the destructor.
    admin.AddFault({.route = "GET /users/@me", .delayMs = 5000, .count = 1});
    platformpp::ErrorType ended = platformpp::ErrorType::None;
    client->FetchCurrentUser(
        platformpp::AuthorizationTokenType::Bearer, token.accessToken,
        [&](platformpp::ClientResult result, uint64_t, std::string) { ended = result.Type(); });
    client.reset();
    std::cout << "destroyed the Client with a request in flight: it ended as "
              << platformpp::ErrorTypeToString(ended) << "\n";
    admin.ClearFaults();
    if (ended != platformpp::ErrorType::ClientDestroyed) return 1;

    std::cout << "hello done\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "platformpp-hello: " << e.what() << "\n";
    return 1;
  }
}
