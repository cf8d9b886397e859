// platformpp-hello: the smallest complete use of the SDK. It finds its game and player in the world its
// scenario set up in a running platformpp-emulator, creates a Client that trusts the emulator's CA, fetches
// the player over TLS, meets a rate limit, and shows what destroying a Client with a request in flight does.
// Headless; exits non-zero on failure.
//
//   platformpp-emulator --scenario samples/hello/hello.scenario.json --connection-file emu.json
//   platformpp-hello --connection-file emu.json
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
    if (!admin.HasScenarioName("game")) {
      std::cerr << "platformpp-hello: start the emulator with --scenario samples/hello/hello.scenario.json\n";
      return 2;
    }
    auto app = admin.ScenarioApp("game");
    auto player = admin.ScenarioUser("player");
    std::cout << "from the scenario: application " << app.id << ", player " << player.username << " ("
              << player.id << ") who consents on the authorize page\n";

    auto client = std::make_unique<platformpp::Client>(emulator.ClientOptionsFor());
    client->SetApplicationId(app.id);
    client->AddLogCallback(
        [](const std::string& message, platformpp::LoggingSeverity severity) {
          std::cout << "  [sdk " << platformpp::LoggingSeverityToString(severity) << "] " << message << "\n";
        },
        platformpp::LoggingSeverity::Info);

    // 1. Log in with PKCE. Authorize asks the desktop client over IPC (here: the emulator's stand-in, which
    //    consents as the seeded player); without one it opens the authorize page in a browser (here: handed
    //    to a headless one) and the code comes back to the SDK's loopback listener. GetToken exchanges the
    //    code with the verifier; UpdateToken keeps the token.
    // [guide:url-opener]
    std::string pageUrl;
    client->SetUrlOpener([&](const std::string& url) {
      pageUrl = url;
      return true;
    });
    // [guide-end]
    auto pkce = platformpp::Client::CreateAuthorizationCodeVerifier();
    platformpp::AuthorizationArgs args;
    args.SetScopes(platformpp::Client::GetDefaultCommunicationScopes());
    args.SetCodeChallenge(pkce.Challenge());
    bool done = false;
    bool ok = true;
    std::string code, redirectUri, accessToken;
    client->Authorize(args, [&](const platformpp::ClientResult& result, std::string c, std::string redirect) {
      done = true;
      ok = result.Successful();
      if (!ok) std::cout << "Authorize failed: " << result.ToString() << "\n";
      code = std::move(c);
      redirectUri = std::move(redirect);
    });
    if (!Frames(*client, [&] { return done || !pageUrl.empty(); })) return 1;
    if (!pageUrl.empty()) {
      std::cout << "Authorize opened the authorize page; the headless browser answered "
                << admin.Browse(pageUrl) << "\n";
      if (!Frames(*client, [&] { return done; })) return 1;
    } else {
      std::cout << "Authorize: the desktop client consented over IPC (redirect " << redirectUri << ")\n";
    }
    if (!ok) return 1;
    done = false;
    client->GetToken(
        app.id, code, pkce.Verifier(), redirectUri,
        [&](const platformpp::ClientResult& result, const std::string& access, const std::string&,
            platformpp::AuthorizationTokenType type, int32_t expiresIn, const std::string& scopes) {
          done = true;
          ok = result.Successful();
          if (!ok) return void(std::cout << "GetToken failed: " << result.ToString() << "\n");
          std::cout << "logged in with PKCE: a token for '" << scopes << "', valid " << expiresIn / 3600
                    << " h\n";
          accessToken = access;
          client->UpdateToken(type, access, [](const platformpp::ClientResult&) {});
        });
    if (!Frames(*client, [&] { return done; }) || !ok) return 1;

    // Account linking can also start in the desktop client: the game subscribes, and when the player clicks
    // "link" there (here: the emulator's admin API plays the player) the game hears of it and would
    // Authorize.
    // [guide:link-request]
    bool linkAsked = false;
    client->RegisterAuthorizeRequestCallback([&] { linkAsked = true; });
    // [guide-end]
    int delivered = 0;
    if (!Frames(*client, [&] {
          std::this_thread::sleep_for(
              std::chrono::milliseconds(10));  // the SUBSCRIBE may still be on its way
          if (delivered == 0) delivered = admin.RaiseAuthorizeRequest(app.id);
          return linkAsked;
        })) {
      std::cout << "the account-link request from the desktop client never arrived\n";
      return 1;
    }
    std::cout
        << "the desktop client asked to link this game (AUTHORIZE_REQUEST): the game would Authorize now\n";
    client->RemoveAuthorizeRequestCallback();

    // 2. A provisional account: the player's identity with the game's own provider (OIDC here), no platform
    // login.
    done = false;
    // [guide:provisional]
    client->GetProvisionalToken(
        app.id, platformpp::AuthenticationExternalAuthType::OIDC, "hello-player-oidc-id-token",
        [&](const platformpp::ClientResult& result, const std::string& access, const std::string&,
            platformpp::AuthorizationTokenType, int32_t, const std::string&) {
          done = true;
          ok = result.Successful() && !access.empty();
          std::cout << "provisional account from an OIDC identity: "
                    << (ok ? "token issued" : result.ToString()) << "\n";
        });
    // [guide-end]
    if (!Frames(*client, [&] { return done; }) || !ok) return 1;

    // 3. Who am I? Over TLS, verified against the emulator's CA.
    done = false;
    auto start = Clock::now();
    client->FetchCurrentUser(
        platformpp::AuthorizationTokenType::Bearer, accessToken,
        [&](const platformpp::ClientResult& result, uint64_t id, const std::string& name) {
          done = true;
          if (!result.Successful()) {
            std::cout << "FetchCurrentUser failed: " << result.ToString() << "\n";
            ok = false;
            return;
          }
          std::cout << "fetched the current user over TLS in " << MillisecondsSince(start) << " ms: " << name
                    << " (" << id << ")\n";
          ok = id == player.id;
        });
    if (!Frames(*client, [&] { return done; }) || !ok) return 1;

    // 4. The platform says "slow down" (429, retry after 0.25 s): the SDK waits and retries by itself.
    admin.AddFault({.route = "GET /users/@me", .status = 429, .retryAfter = 0.25, .count = 1});
    done = false;
    start = Clock::now();
    client->FetchCurrentUser(platformpp::AuthorizationTokenType::Bearer, accessToken,
                             [&](const platformpp::ClientResult& result, uint64_t, const std::string&) {
                               done = true;
                               ok = result.Successful();
                               std::cout << "rate limited once; the SDK waited and retried: "
                                         << (ok ? "succeeded" : result.ToString()) << " after "
                                         << MillisecondsSince(start) << " ms\n";
                             });
    if (!Frames(*client, [&] { return done; }) || !ok) return 1;

    // 5. Destroying a Client ends what is in flight, once, with ClientDestroyed, inside the destructor.
    admin.AddFault({.route = "GET /users/@me", .delayMs = 5000, .count = 1});
    platformpp::ErrorType ended = platformpp::ErrorType::None;
    client->FetchCurrentUser(
        platformpp::AuthorizationTokenType::Bearer, accessToken,
        [&](const platformpp::ClientResult& result, uint64_t, const std::string&) { ended = result.Type(); });
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
