// Two players for the web console's browser test (console_browser_test.py): two platformpp::Clients on one
// running emulator, driven line by line on stdin while the test watches the console in a browser.
//
//   console_players --connection-file PATH --app-id ID --token T1 --token T2
//
// Commands (one per line) and what each prints (one JSON object per line on stdout):
//   join SECRET        both join the lobby with that secret         {"event":"joined","lobby_id":"..."}
//   say N TEXT         player N (0 or 1) sends TEXT to the lobby
//   {"event":"said","player":N,"message_id":"..."} presence N TEXT    player N plays TEXT (rich presence)
//   {"event":"presence","player":N} call               both join the lobby's call, player 0 talks
//   {"event":"in_call","e2ee":true|false} quit               both leave the call and disconnect
//   {"event":"bye"}
// At start: {"event":"ready"} once both are connected. Any failure: {"event":"error","what":"..."}, exit 1.
// Between commands the Clients keep running their callbacks (and the call its audio).
#include <poll.h>
#include <unistd.h>

#include <platformpp/platformpp.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using platformpp::Call;
using platformpp::Client;
using platformpp::ClientResult;

// What player 0's microphone says: a tone rising and falling like syllables (the SDK's voice activity
// detection then reports them speaking). Outlives the Clients: the voice thread calls it.
struct Voice {
  std::atomic<bool> talking{false};
  double phase = 0;
  std::uint64_t made = 0;
};

struct Player {
  std::unique_ptr<Client> client;
  Call call;
};

std::string Escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// Milliseconds since the epoch: the browser's Date.now() on the same machine, to time what the page shows.
std::int64_t WallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void Emit(const std::string& json) {
  std::cout << json << std::endl;  // flushed: the test reads it at once
}

// Ends the process at once: the Clients' threads are still running, and exit()'s destructors would race them
// (a crash that would hide the reason printed here).
[[noreturn]] void Fail(const std::string& what) {
  Emit(R"({"event":"error","what":")" + Escaped(what) + "\"}");
  std::cerr.flush();
  std::_Exit(1);
}

class Players {
 public:
  Players(const platformpp::ClientOptions& options, std::uint64_t app_id,
          const std::vector<std::string>& tokens) {
    for (const auto& token : tokens) {
      auto& player = players_.emplace_back();
      player.client = std::make_unique<Client>(options);
      // Warnings and errors to stderr (the test keeps it as players.log): why a step failed.
      player.client->AddLogCallback(
          [](const std::string& message, platformpp::LoggingSeverity) { std::cerr << message << std::endl; },
          platformpp::LoggingSeverity::Warning);
      player.client->SetApplicationId(app_id);
      // The tone is not speech: audio processing would learn it as noise.
      player.client->SetEchoCancellation(false);
      player.client->SetNoiseSuppression(false);
      player.client->SetAutomaticGainControl(false);
      player.client->UpdateToken(platformpp::AuthorizationTokenType::Bearer, token, nullptr);
      player.client->Connect();
    }
    AwaitReady("both players connected");
  }

  void AwaitReady(const std::string& what) {
    Await(what, [&] {
      for (auto& player : players_) {
        if (player.client->GetStatus() != Client::Status::Ready) return false;
      }
      return true;
    });
  }

  // Runs every Client's callbacks until `done`, or fails after the timeout.
  void Await(const std::string& what, const std::function<bool()>& done,
             std::chrono::seconds timeout = std::chrono::seconds(20)) {
    const auto deadline = Clock::now() + timeout;
    while (!done()) {
      if (Clock::now() > deadline) {
        Pump();  // the warnings that say why
        Fail("timed out: " + what);
      }
      Pump();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  void Pump() {
    for (auto& player : players_)
      player.client->RunCallbacks();
  }

  void Join(const std::string& secret) {
    for (auto& player : players_) {
      std::optional<ClientResult> result;
      player.client->CreateOrJoinLobby(secret, [&](const ClientResult& r, std::uint64_t id) {
        result = r;
        lobby_id_ = id;
      });
      Await("joining the lobby", [&] { return result.has_value(); });
      if (!result->Successful()) Fail("joining the lobby: " + result->ToString());
    }
    Emit(R"({"event":"joined","lobby_id":")" + std::to_string(lobby_id_) + "\"}");
  }

  void Say(std::size_t index, const std::string& text) {
    const auto sent_at = WallMs();
    std::optional<ClientResult> result;
    std::uint64_t message_id = 0;
    players_.at(index).client->SendLobbyMessage(lobby_id_, text,
                                                [&](const ClientResult& r, std::uint64_t id) {
                                                  result = r;
                                                  message_id = id;
                                                });
    Await("sending a message", [&] { return result.has_value(); });
    if (!result->Successful()) Fail("sending a message: " + result->ToString());
    Emit(R"({"event":"said","player":)" + std::to_string(index) + R"(,"message_id":")" +
         std::to_string(message_id) + R"(","sent_at_ms":)" + std::to_string(sent_at) + R"(,"acked_at_ms":)" +
         std::to_string(WallMs()) + "}");
  }

  void Presence(std::size_t index, const std::string& text) {
    platformpp::Activity activity;
    activity.SetType(platformpp::ActivityTypes::Playing);
    activity.SetDetails(text);
    std::optional<ClientResult> result;
    players_.at(index).client->UpdateRichPresence(activity, [&](const ClientResult& r) { result = r; });
    Await("setting rich presence", [&] { return result.has_value(); });
    if (!result->Successful()) Fail("setting rich presence: " + result->ToString());
    Emit(R"({"event":"presence","player":)" + std::to_string(index) + "}");
  }

  void StartCall(Voice& voice) {
    // A call starts only on a Ready Client; a player whose Gateway the test dropped may still be resuming.
    AwaitReady("both players Ready");
    for (std::size_t i = 0; i < players_.size(); ++i) {
      Client::UserAudioCapturedCallback captured;
      if (i == 0) {
        captured = [&voice](std::int16_t* data, std::uint64_t samples, std::int32_t rate,
                            std::uint64_t channels) {
          for (std::uint64_t s = 0; s < samples; ++s) {
            const double t = static_cast<double>(voice.made++) / rate;
            const double level = 0.7 + 0.3 * std::sin(2 * std::numbers::pi * 2 * t);
            const auto value = voice.talking ? static_cast<std::int16_t>(9000 * level * std::sin(voice.phase))
                                             : std::int16_t{0};
            voice.phase = std::fmod(voice.phase + 2 * std::numbers::pi * 440 / rate, 2 * std::numbers::pi);
            for (std::uint64_t c = 0; c < channels; ++c)
              data[s * channels + c] = value;
          }
        };
      }
      auto& player = players_[i];
      player.call = player.client->StartCallWithAudioCallbacks(
          lobby_id_,
          [](std::uint64_t, std::int16_t*, std::uint64_t, std::int32_t, std::uint64_t, bool& mute) {
            mute = true;
          },
          captured);
      if (!player.call) {
        Pump();  // the warning that says why
        Fail("starting the call");
      }
    }
    voice.talking = true;
    Await("both in the call, end-to-end encrypted", [&] {
      for (auto& player : players_) {
        if (player.call.GetStatus() != Call::Status::Connected || player.call.GetParticipants().size() != 2 ||
            !player.call.GetE2eeActive())
          return false;
      }
      return true;
    });
    Emit(std::string(R"({"event":"in_call","e2ee":)") +
         (players_[0].call.GetE2eeActive() ? "true" : "false") + "}");
  }

  void Quit() {
    for (auto& player : players_) {
      bool ended = false;
      player.client->EndCalls([&] { ended = true; });
      Await("leaving the call", [&] { return ended; });
      player.client->Disconnect();
    }
    Emit(R"({"event":"bye"})");
  }

 private:
  std::vector<Player> players_;
  std::uint64_t lobby_id_ = 0;
};

// One line of stdin if one is complete, without blocking; nullopt at end of input.
std::optional<std::string> ReadLine(std::string& buffer, bool& closed) {
  while (true) {
    if (const auto newline = buffer.find('\n'); newline != std::string::npos) {
      auto line = buffer.substr(0, newline);
      buffer.erase(0, newline + 1);
      return line;
    }
    if (closed) return std::nullopt;
    pollfd input{STDIN_FILENO, POLLIN, 0};
    if (poll(&input, 1, 0) <= 0) return std::string();  // nothing yet
    char chunk[4096];
    const auto n = read(STDIN_FILENO, chunk, sizeof chunk);
    if (n <= 0) {
      closed = true;
      continue;
    }
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string connection_file;
  std::uint64_t app_id = 0;
  std::vector<std::string> tokens;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--connection-file") {
      connection_file = argv[i + 1];
    } else if (flag == "--app-id") {
      app_id = std::stoull(argv[i + 1]);
    } else if (flag == "--token") {
      tokens.emplace_back(argv[i + 1]);
    }
  }
  if (connection_file.empty() || app_id == 0 || tokens.size() != 2) {
    std::cerr << "usage: console_players --connection-file PATH --app-id ID --token T1 --token T2\n";
    return 2;
  }
  setenv("PLATFORMPP_AUDIO", "null", 1);  // headless
  Voice voice;                            // outlives the Clients, whose voice threads use it
  try {
    auto options = platformpp::testkit::ConnectionInfo::Load(connection_file).ClientOptionsFor();
    options.ipcEnabled = false;
    Players players(options, app_id, tokens);
    Emit(R"({"event":"ready"})");
    std::string buffer;
    bool closed = false;
    while (true) {
      const auto line = ReadLine(buffer, closed);
      if (!line) {
        players.Quit();
        return 0;
      }
      if (line->empty()) {
        players.Pump();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      std::istringstream words(*line);
      std::string command;
      words >> command;
      std::string rest;
      std::getline(words >> std::ws, rest);
      if (command == "join") {
        players.Join(rest);
      } else if (command == "say" || command == "presence") {
        const auto space = rest.find(' ');
        const auto index = static_cast<std::size_t>(std::stoul(rest.substr(0, space)));
        const auto text = space == std::string::npos ? std::string() : rest.substr(space + 1);
        if (command == "say") {
          players.Say(index, text);
        } else {
          players.Presence(index, text);
        }
      } else if (command == "call") {
        players.StartCall(voice);
      } else if (command == "quit") {
        players.Quit();
        return 0;
      } else {
        Fail("unknown command: " + command);
      }
    }
  } catch (const std::exception& e) {
    Fail(e.what());
  }
}
