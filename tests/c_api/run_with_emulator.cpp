// Starts an emulator, seeds an application and a consenting user, and runs a pure-C test program against it
// with the connection details on its command line (a C test has no testkit of its own).
//   c_api_with_emulator <emulator binary> <C test program> [--social]
// With --social it also seeds a second player who is the first one's friend, and passes both players' tokens
// (scopes for presence, relationships and guilds) after the other arguments.
#include <platformpp/backend.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#ifdef _WIN32
#include "core/win32.hpp"

#include <windows.h>
#else
#include <spawn.h>
#include <sys/wait.h>
#endif

namespace {

// Runs the program with these arguments (args[0] is its path), waits, and returns its exit status (1 when it
// could not start or died of a signal).
int RunToEnd(std::vector<std::string>& args) {
#ifdef _WIN32
  std::wstring commandLine;
  for (const std::string& arg : args)
    commandLine += (commandLine.empty() ? L"" : L" ") + platformpp::core::win32::QuoteArgument(arg);
  STARTUPINFOW startup{};
  startup.cb = sizeof(startup);
  PROCESS_INFORMATION created{};
  if (!::CreateProcessW(platformpp::core::win32::Widen(args[0]).c_str(), commandLine.data(), nullptr, nullptr,
                        FALSE, 0, nullptr, nullptr, &startup, &created)) {
    std::fprintf(stderr, "cannot start %s: Windows error %lu\n", args[0].c_str(), ::GetLastError());
    return 1;
  }
  ::CloseHandle(created.hThread);
  ::WaitForSingleObject(created.hProcess, INFINITE);
  DWORD code = 1;
  ::GetExitCodeProcess(created.hProcess, &code);
  ::CloseHandle(created.hProcess);
  return static_cast<int>(code);
#else
  std::vector<char*> argvOut;
  argvOut.reserve(args.size() + 1);
  for (auto& arg : args)
    argvOut.push_back(arg.data());
  argvOut.push_back(nullptr);
  pid_t pid = -1;
  if (::posix_spawn(&pid, args[0].c_str(), nullptr, nullptr, argvOut.data(), environ) != 0) {
    std::fprintf(stderr, "cannot start %s\n", args[0].c_str());
    return 1;
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status)) {
    std::fprintf(stderr, "%s died with signal %d\n", args[0].c_str(),
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return 1;
  }
  return WEXITSTATUS(status);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  bool social = argc == 4 && std::string(argv[3]) == "--social";
  if (argc != 3 && !social) {
    std::fprintf(stderr, "usage: %s <emulator binary> <C test program> [--social]\n", argv[0]);
    return 2;
  }
  try {
    platformpp::testkit::EmulatorProcess::Options options;
    options.binary = argv[1];
    auto emulator = platformpp::testkit::EmulatorProcess::Start(options);
    const auto& info = emulator->Connection();
    platformpp::testkit::EmulatorAdmin admin(info);
    auto app = admin.CreateApp("C ABI Game");
    auto user = admin.CreateUser("c_player", "C Player");
    admin.SetConsent(user.id);

    std::vector<std::string> args = {argv[2],
                                     info.apiBase,
                                     info.caFile,
                                     info.webBase,
                                     info.ipcName,
                                     info.ipcDirectory,
                                     std::to_string(app.id),
                                     std::to_string(user.id)};
    if (social) {
      auto friendUser = admin.CreateUser("c_friend", "C Friend");
      admin.MakeFriends(user.id, friendUser.id);
      const std::string scopes = "openid sdk.social_layer guilds";
      args.push_back(admin.MintToken(user.id, app.id, scopes).accessToken);
      args.push_back(std::to_string(friendUser.id));
      args.push_back(admin.MintToken(friendUser.id, app.id, scopes).accessToken);
      // A guild of the friend's that the player is in: a category with two text channels (given out of
      // order), a voice channel, and one channel hidden from @everyone, which the player must not see.
      using Spec = platformpp::testkit::EmulatorAdmin::ChannelSpec;
      uint64_t guild = admin.CreateGuild("C Guild", friendUser.id, "bannerhash");
      admin.AddGuildMember(guild, user.id);
      uint64_t category = admin.CreateChannel(guild, Spec{.name = "General", .type = 4, .position = 0});
      admin.CreateChannel(guild, Spec{.name = "lobby", .type = 0, .position = 1, .parentId = category});
      admin.CreateChannel(guild, Spec{.name = "chat", .type = 0, .position = 0, .parentId = category});
      uint64_t voice = admin.CreateChannel(guild, Spec{.name = "voice", .type = 2, .position = 2});
      admin.CreateChannel(guild, Spec{.name = "secret",
                                      .type = 0,
                                      .position = 3,
                                      .permissionOverwrites =
                                          std::vector<platformpp::testkit::EmulatorAdmin::ChannelOverwrite>{
                                              {.id = guild, .type = 0, .allow = 0, .deny = 1u << 10}}});
      args.push_back(std::to_string(guild));
      // The voice channel's status "Squad up", set by the application's bot (SET_VOICE_CHANNEL_STATUS and
      // MANAGE_CHANNELS) as a player's client would see it.
      const auto role = admin.CreateRole(guild, "Status", (uint64_t{1} << 4) | (uint64_t{1} << 48));
      admin.AddGuildMember(guild, app.botUserId, {role});
      platformpp::backend::BackendOptions backendOptions;
      backendOptions.apiBase = info.apiBase;
      backendOptions.caFile = info.caFile;
      backendOptions.botToken = app.botToken;
      backendOptions.applicationId = app.id;
      platformpp::backend::BackendClient backend(backendOptions);
      std::optional<platformpp::ClientResult> set;
      backend.SetVoiceChannelStatus(voice, "Squad up",
                                    [&](const platformpp::ClientResult& result) { set = result; });
      for (int i = 0; i < 5000 && !set; ++i) {
        backend.RunCallbacks();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
      if (!set || !set->Successful())
        throw std::runtime_error("the voice channel status was not set: " +
                                 (set ? set->Error() : "no answer"));
    }
    return RunToEnd(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "c_api_with_emulator: %s\n", e.what());
    return 1;
  }
}
