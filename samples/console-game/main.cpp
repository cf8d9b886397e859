// platformpp-arena: Connect Four for two players in a terminal, on the platform (here: a running
// platformpp-emulator). Pick a name, create a lobby or join one by its code (or by a friend's invite), play,
// chat, talk over the lobby's voice call, befriend your opponent and see what your friends are doing.
//
//   platformpp-arena --connection-file FILE --create-app
//       creates the game's application on the emulator and prints its id (once, for both players)
//   platformpp-arena --connection-file FILE [--app-id ID] [--name NAME] [--audio null|system]
//       the game in the terminal; without --app-id it plays the demo scenario's application
//       (samples/console-game/arena.scenario.json) or, against an emulator without it, creates one and
//       shows its id
//   platformpp-arena --connection-file FILE [--app-id ID] --name NAME --headless (--create C | --join C)
//       a scripted player, no terminal: plays one game in lobby CODE and prints it (the main job runs two)
// A build without curses (MinGW-w64 has none: PLATFORMPP_ARENA_NO_TERMINAL) has the scripted players only.
#include <platformpp/platformpp.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

#ifndef PLATFORMPP_ARENA_NO_TERMINAL
#include "arena_screen.hpp"
#endif
#include "arena_session.hpp"

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t quitRequested = 0;

extern "C" void OnQuitSignal(int) {
  quitRequested = 1;
}

struct Arguments {
  std::string connectionFile;
  std::optional<uint64_t> appId;
  std::string name;
  std::string audio = "system";
  bool createApp = false;
  bool headless = false;
  std::string createCode;
  std::string joinCode;
};

void Usage() {
  std::cerr
      << "usage: platformpp-arena --connection-file FILE --create-app\n"
         "       platformpp-arena --connection-file FILE [--app-id ID] [--name NAME] [--audio null|system]\n"
         "       platformpp-arena --connection-file FILE [--app-id ID] --name NAME --headless\n"
         "                        (--create CODE | --join CODE)\n";
}

std::optional<Arguments> Parse(int argc, char** argv) {
  Arguments args;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string(argv[++i]);
    };
    std::optional<std::string> v;
    if (flag == "--create-app") {
      args.createApp = true;
    } else if (flag == "--headless") {
      args.headless = true;
    } else if (flag == "--connection-file" && (v = value())) {
      args.connectionFile = *v;
    } else if (flag == "--app-id" && (v = value())) {
      try {
        args.appId = std::stoull(*v);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    } else if (flag == "--name" && (v = value())) {
      args.name = *v;
    } else if (flag == "--audio" && (v = value()) && (*v == "null" || *v == "system")) {
      args.audio = *v;
    } else if (flag == "--create" && (v = value())) {
      args.createCode = *v;
    } else if (flag == "--join" && (v = value())) {
      args.joinCode = *v;
    } else {
      return std::nullopt;
    }
  }
  if (args.connectionFile.empty()) return std::nullopt;
  if (args.headless && (args.name.empty() || args.createCode.empty() == args.joinCode.empty())) {
    return std::nullopt;
  }
  return args;
}

// A scripted player: joins the lobby, greets, plays the suggested column whenever it is its move, and prints
// the game as it goes. 0 when the game ended (won, lost or drawn), 3 when the platform could not be reached
// or refused the player, 1 otherwise.
int PlayHeadless(arena::ArenaSession& session, const Arguments& args) {
  const std::string tag = "arena[" + args.name + "]: ";
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  auto until = [&](auto done) {
    while (!done() && !quitRequested && Clock::now() < deadline &&
           session.GetPhase() != arena::ArenaSession::Phase::Failed) {
      session.Frame();
      session.Client().WaitForCallbacks(10);
    }
    return done();
  };
  session.Start();
  if (!until([&] { return session.GetPhase() == arena::ArenaSession::Phase::Menu; })) {
    if (session.Failure().empty()) {
      std::cerr << tag << "could not log in in time\n";
      return 1;
    }
    std::cerr << tag << session.Failure() << "\n";
    return 3;
  }
  std::cout << tag << "online (" << session.SelfId() << ")\n";
  if (!args.createCode.empty()) {
    session.CreateLobby(args.createCode);
  } else {
    session.JoinLobby(args.joinCode);
  }
  if (!until([&] { return session.GetPhase() == arena::ArenaSession::Phase::InLobby; })) {
    std::cerr << tag << "could not join the lobby: " << session.Notice() << "\n";
    return 1;
  }
  std::cout << tag << "in lobby " << session.LobbyCode() << "\n";
  if (!until([&] { return session.SecondPlayer().has_value(); })) {
    std::cerr << tag << "nobody came to play\n";
    return 1;
  }
  session.SendChat("gl hf from " + args.name);
  int shown = 0;
  int played = 0;
  bool over = until([&] {
    const auto& board = session.Board();
    if (board.Turn() != shown) {
      shown = board.Turn();
      std::cout << tag << session.GameLine() << "\n";
    }
    if (session.MyTurn() && played != board.Turn()) {
      played = board.Turn();
      session.Play(board.SuggestColumn());
    }
    return board.Over();
  });
  if (!over) {
    std::cerr << tag << "the game did not end: " << session.GameLine() << "\n";
    return 1;
  }
  // The other side's last chat line may still be on its way; a moment for it.
  until([&] { return session.Chat().size() >= 2; });
  for (const auto& line : session.Board().Lines())
    std::cout << tag << "|" << line << "|\n";
  for (const auto& line : session.Chat())
    std::cout << tag << "chat: " << line.author << ": " << line.text << "\n";
  std::cout << tag << session.GameLine() << "\n";
  return 0;
}

// The null audio device for this process's Clients (set before any exists).
void UseNullAudio() {
#ifdef _WIN32
  ::_putenv_s("PLATFORMPP_AUDIO", "null");
#else
  ::setenv("PLATFORMPP_AUDIO", "null", 1);
#endif
}

#ifndef PLATFORMPP_ARENA_NO_TERMINAL
int PlayInTerminal(arena::ArenaSession& session, arena::ArenaScreen& screen) {
  session.Start();
  while (!quitRequested) {
    session.Frame();
    if (!screen.HandleInput(session)) break;
    screen.Draw(session);
    session.Client().WaitForCallbacks(30);
  }
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  auto parsed = Parse(argc, argv);
  if (!parsed) {
    Usage();
    return 2;
  }
  Arguments args = *parsed;
#ifdef PLATFORMPP_ARENA_NO_TERMINAL
  if (!args.headless && !args.createApp) {
    std::cerr << "platformpp-arena: this build has no terminal interface (built without curses): "
                 "--headless players and --create-app only\n";
    return 2;
  }
#endif
#ifdef _WIN32
  std::signal(SIGINT, OnQuitSignal);  // Ctrl+C; Windows has no SIGTERM to send
#else
  struct sigaction quit {};
  quit.sa_handler = OnQuitSignal;
  sigaction(SIGINT, &quit, nullptr);
  sigaction(SIGTERM, &quit, nullptr);
#endif

  platformpp::testkit::ConnectionInfo emulator;
  try {
    emulator = platformpp::testkit::ConnectionInfo::Load(args.connectionFile);
  } catch (const std::exception& e) {
    std::cerr << "platformpp-arena: " << e.what()
              << "\n  Start the emulator first, e.g.: platformpp-emulator --port 0 --connection-file "
              << args.connectionFile << "\n";
    return 3;
  }
  std::string banner;
  if (args.createApp || !args.appId) {
    try {
      platformpp::testkit::EmulatorAdmin admin(emulator);
      // The demo's emulator (--scenario samples/console-game/arena.scenario.json) has the game already: both
      // players find it there and need no --app-id.
      if (!args.createApp && admin.HasScenarioName("arena")) {
        args.appId = admin.ScenarioId("arena");
      } else if (args.headless) {
        // Two scripted processes must play the same application: one they are given, or the demo's.
        std::cerr << "platformpp-arena: a --headless player needs --app-id, or an emulator started with "
                     "--scenario samples/console-game/arena.scenario.json\n";
        return 2;
      } else {
        auto app = admin.CreateApp("Arena");
        if (args.createApp) {
          std::cout << app.id << "\n";
          return 0;
        }
        args.appId = app.id;
        banner = "New game application " + std::to_string(app.id) +
                 ": start the other player with --app-id " + std::to_string(app.id);
      }
    } catch (const std::exception& e) {
      std::cerr << "platformpp-arena: cannot reach platformpp-emulator at " << emulator.adminBase << ": "
                << e.what() << "\n  Is it running? Its connection file may be left from an earlier run.\n";
      return 3;
    }
  }
  // The null device plays nothing and records silence: for machines without sound, and scripted players.
  if (args.audio == "null" || args.headless) UseNullAudio();

  arena::ArenaSession::Options options;
  options.client = emulator.ClientOptionsFor();
  options.client.ipcEnabled = false;  // two players on one machine: each its own account, no desktop client
  options.applicationId = *args.appId;

  int status = 0;
  if (args.headless) {
    options.name = args.name;
    arena::ArenaSession session(options);
    status = PlayHeadless(session, args);
    session.Shutdown();
    return status;
  }
#ifdef PLATFORMPP_ARENA_NO_TERMINAL
  return 2;  // refused above
#else
  std::string failure;
  {
    arena::ArenaScreen screen;
    screen.SetBanner(banner);
    options.name = args.name.empty() ? screen.Prompt("Your name: ") : args.name;
    if (options.name.empty()) return 0;
    arena::ArenaSession session(options);
    status = PlayInTerminal(session, screen);
    failure = session.Failure();
    session.Shutdown();
  }
  if (!failure.empty()) {
    std::cerr << "platformpp-arena: " << failure << "\n";
    return 3;
  }
  return status;
#endif
}
