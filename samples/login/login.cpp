// platformpp-login: how a game logs its player in and keeps them logged in, on one running
// platformpp-emulator. The first launch has no saved token: the player authorizes the game (PKCE; the
// emulator's stand-in for the desktop client consents on IPC), the game exchanges the code for tokens,
// keeps the refresh token in a file only the player can read, and connects. The second launch refreshes the
// saved token without asking the player, through a failed first attempt (the platform answers 503). The
// token nears its expiry (the sample moves the game's clock a week ahead): the game refreshes it in
// play. The player removes the game from their authorized apps: the next launch's refresh is refused
// (invalid_grant) and the game asks the player again. Last, the player declines. Headless; exits non-zero on
// failure.
//
//   platformpp-emulator --scenario samples/login/login.scenario.json --connection-file emu.json
//   platformpp-login --connection-file emu.json
#include <platformpp/platformpp.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>

namespace {

using Clock = std::chrono::steady_clock;

// [guide:token-file]
// Where the game keeps the player's refresh token between sessions: a file only the player can read. (A
// shipped game may prefer the system's credential store.)
class TokenFile {
 public:
  explicit TokenFile(std::filesystem::path path) : path_(std::move(path)) {}

  std::string Load() const {
    std::string token;
    std::ifstream in(path_);
    std::getline(in, token);
    return token;
  }
  void Save(const std::string& refreshToken) const {
    std::ofstream(path_, std::ios::trunc).close();  // empty, and closed to others before the secret goes in
    std::filesystem::permissions(path_,
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::replace);
    std::ofstream(path_, std::ios::trunc) << refreshToken;
  }
  void Forget() const { std::filesystem::remove(path_); }

 private:
  std::filesystem::path path_;
};
// [guide-end]

// The game's login screen and session: what it shows the player is `Status()`.
class PlayerLogin {
 public:
  PlayerLogin(platformpp::Client& client, const TokenFile& tokens) : client_(client), tokens_(tokens) {}

  // [guide:begin]
  void Begin() {
    client_.SetStatusChangedCallback(
        [this](platformpp::Client::Status status, platformpp::Client::Error error, int32_t detail) {
          if (status == platformpp::Client::Status::Ready) Show("online");
          if (status == platformpp::Client::Status::Disconnected && error != platformpp::Client::Error::None)
            Show("offline: " + platformpp::ClientErrorToString(error) + " " + std::to_string(detail));
        });
    // Five minutes before the access token expires: refresh it, the player notices nothing.
    client_.SetTokenExpirationCallback([this] { Refresh(); });
    if (tokens_.Load().empty()) {
      AskThePlayer();
    } else {
      Refresh();
    }
  }
  // [guide-end]

  // [guide:authorize]
  void AskThePlayer() {
    Show("waiting for the player to authorize the game");
    auto pkce = platformpp::Client::CreateAuthorizationCodeVerifier();
    platformpp::AuthorizationArgs args;
    args.SetScopes(platformpp::Client::GetDefaultCommunicationScopes());
    args.SetCodeChallenge(pkce.Challenge());
    client_.Authorize(args, [this, verifier = pkce.Verifier()](const platformpp::ClientResult& result,
                                                               std::string code, std::string redirectUri) {
      if (!result.Successful()) return Failed("Authorize", result);
      client_.GetToken(0, std::move(code), verifier, std::move(redirectUri),
                       [this](const platformpp::ClientResult& exchange, std::string accessToken,
                              const std::string& refreshToken, platformpp::AuthorizationTokenType type,
                              int32_t, const std::string&) {
                         if (!exchange.Successful()) return Failed("GetToken", exchange);
                         UseTokens(type, std::move(accessToken), refreshToken);
                       });
    });
  }
  // [guide-end]

  // [guide:use-tokens]
  void UseTokens(platformpp::AuthorizationTokenType type, std::string accessToken,
                 const std::string& refreshToken) {
    tokens_.Save(refreshToken);  // the old refresh token stopped working: keep the new one at once
    client_.UpdateToken(type, std::move(accessToken), [this](const platformpp::ClientResult& result) {
      if (!result.Successful()) return Failed("UpdateToken", result);
      ++tokensUsed_;
      client_.Connect();  // does nothing when already connected: a refreshed token is used from now on
    });
  }
  // [guide-end]

  // [guide:refresh]
  void Refresh() {
    client_.RefreshToken(0, tokens_.Load(),
                         [this](const platformpp::ClientResult& result, std::string accessToken,
                                const std::string& refreshToken, platformpp::AuthorizationTokenType type,
                                int32_t, const std::string&) {
                           if (result.Successful())
                             return UseTokens(type, std::move(accessToken), refreshToken);
                           if (result.Type() == platformpp::ErrorType::AuthorizationFailed) {
                             // invalid_grant: the player removed the game or the token was revoked. The saved
                             // token is worthless; ask the player again.
                             tokens_.Forget();
                             return AskThePlayer();
                           }
                           if (result.Retryable()) {
                             // No network, or the platform is busy: keep the token, try again later.
                             ++retries_;
                             return RetryLater(result.RetryAfter() > 0 ? result.RetryAfter() : 2.0f);
                           }
                           Failed("RefreshToken", result);
                         });
  }
  // [guide-end]

  const std::string& Status() const { return status_; }
  int Retries() const { return retries_; }
  int TokensUsed() const { return tokensUsed_; }
  // The game's timer, checked each frame: a refresh that failed is tried again when its time comes.
  void Tick() {
    if (retryAt_ && Clock::now() >= *retryAt_) {
      retryAt_.reset();
      Refresh();
    }
  }

 private:
  void RetryLater(float seconds) {
    retryAt_ = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  }
  // [guide:failed]
  void Failed(const char* step, const platformpp::ClientResult& result) {
    if (result.Type() == platformpp::ErrorType::ClientDestroyed) return;  // the game is quitting
    // The player said no: in the browser (OAuth2's access_denied) or in the desktop client (RPC error 5000).
    if (result.Type() == platformpp::ErrorType::AuthorizationFailed &&
        (result.OAuthError() == "access_denied" || result.ErrorCode() == 5000))
      return Show("the player declined");
    Show(std::string(step) + " failed: " + result.ToString());  // and offer to try again
  }
  // [guide-end]
  void Show(std::string status) {
    status_ = std::move(status);
    std::cout << "  [login] " << status_ << "\n";
  }

  platformpp::Client& client_;
  const TokenFile& tokens_;
  std::string status_;
  int retries_ = 0;
  int tokensUsed_ = 0;
  std::optional<Clock::time_point> retryAt_;
};

bool Check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::string connectionFile;
  if (argc == 3 && std::strcmp(argv[1], "--connection-file") == 0) connectionFile = argv[2];
  if (connectionFile.empty()) {
    std::cerr << "usage: platformpp-login --connection-file PATH\n";
    return 2;
  }

  try {
    auto emulator = platformpp::testkit::ConnectionInfo::Load(connectionFile);
    platformpp::testkit::EmulatorAdmin admin(emulator);
    if (!admin.HasScenarioName("game")) {
      std::cerr << "platformpp-login: start the emulator with --scenario samples/login/login.scenario.json\n";
      return 2;
    }
    auto app = admin.ScenarioApp("game");
    auto player = admin.ScenarioUser("player");  // the desktop client stand-in consents as Lin (the scenario)
    const auto dir = std::filesystem::temp_directory_path() / ("platformpp-login-" + std::to_string(app.id));
    std::filesystem::create_directories(dir);
    const TokenFile tokens(dir / "refresh-token");
    bool ok = true;

    // The game's clock: the real one, plus an offset the sample moves to bring the token's expiry near.
    auto offset = std::make_shared<std::atomic<int64_t>>(0);
    auto options = emulator.ClientOptionsFor();
    options.clock = [offset] {
      return std::chrono::system_clock::now() + std::chrono::seconds(offset->load());
    };

    // One launch of the game: a Client, the login, and frames until `done` (or 15 s).
    auto launch = [&](const std::function<bool(PlayerLogin&)>& done,
                      const std::function<void(PlayerLogin&)>& during = nullptr) {
      const auto deadline = Clock::now() + std::chrono::seconds(15);
      auto playing = [&](PlayerLogin& login) {
        if (during) during(login);
        return !done(login) && Clock::now() < deadline;
      };
      // [guide:game-loop]
      platformpp::Client client(options);
      client.SetApplicationId(app.id);
      PlayerLogin login(client, tokens);
      login.Begin();
      while (playing(login)) {  // the game's frame loop
        client.RunCallbacks();  // every callback of the SDK runs here, on this thread
        login.Tick();           // the game's own timers: a refresh that failed is tried again
        std::this_thread::sleep_for(std::chrono::milliseconds(16));
      }
      // [guide-end]
      return done(login);
    };
    auto online = [](PlayerLogin& login) { return login.Status() == "online"; };

    std::cout << "first launch: no saved token\n";
    ok &= Check(launch(online), "the player authorized the game and is online");
    const std::string firstRefresh = tokens.Load();
    ok &= Check(!firstRefresh.empty(), "the refresh token was saved");
#ifndef _WIN32
    ok &= Check((std::filesystem::status(dir / "refresh-token").permissions() &
                 std::filesystem::perms::others_all) == std::filesystem::perms::none,
                "only the player can read it");
#endif
    // (On Windows the permission bits std::filesystem reports say nothing of who may read a file: there it is
    // private because it is in the player's own profile, whose ACL admits only them and the administrators.)

    std::cout << "second launch: the saved token; the platform fails the first refresh (503)\n";
    admin.AddFault({.route = "POST /oauth2/token", .status = 503, .count = 1});
    int retries = 0;
    ok &= Check(launch([&](PlayerLogin& login) { return (retries = login.Retries(), online(login)); }),
                "online again without asking the player");
    ok &= Check(retries == 1, "after one retry");
    ok &=
        Check(tokens.Load() != firstRefresh && !tokens.Load().empty(), "the rotated refresh token was saved");

    std::cout << "a week of play: the token nears its expiry\n";
    std::string beforeExpiry;
    bool moved = false;
    ok &=
        Check(launch(
                  [&](PlayerLogin& login) {
                    return moved && online(login) && login.TokensUsed() == 2 && tokens.Load() != beforeExpiry;
                  },
                  [&](PlayerLogin& login) {
                    if (moved || !online(login)) return;
                    beforeExpiry = tokens.Load();
                    offset->store(7 * 24 * 3600 - 60);  // a minute before the week-long token expires
                    moved = true;
                  }),
              "the game refreshed the token before it expired and stayed online");
    offset->store(0);

    std::cout << "the player removes the game from their authorized apps\n";
    admin.RemoveApplication(player.id, app.id);
    ok &= Check(launch(online), "the refresh was refused; the player authorized the game again");

    std::cout << "a fresh install (no saved token), and the player declines\n";
    tokens.Forget();
    admin.SetConsent(player.id, true);
    ok &= Check(launch([](PlayerLogin& login) { return login.Status() == "the player declined"; }),
                "the game shows that the player declined");

    std::filesystem::remove_all(dir);
    std::cout << (ok ? "platformpp-login: all steps passed\n" : "platformpp-login: FAILED\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "platformpp-login: " << e.what() << "\n";
    return 1;
  }
}
