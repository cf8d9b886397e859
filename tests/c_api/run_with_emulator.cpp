// Starts an emulator, seeds an application and a consenting user, and runs a pure-C test program against it
// with the connection details on its command line (a C test has no testkit of its own).
//   c_api_with_emulator <emulator binary> <C test program>
#include <platformpp/testkit/emulator.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <emulator binary> <C test program>\n", argv[0]);
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
    std::vector<char*> argvOut;
    for (auto& arg : args)
      argvOut.push_back(arg.data());
    argvOut.push_back(nullptr);
    pid_t pid = -1;
    if (::posix_spawn(&pid, argv[2], nullptr, nullptr, argvOut.data(), environ) != 0) {
      std::fprintf(stderr, "cannot start %s\n", argv[2]);
      return 1;
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status)) {
      std::fprintf(stderr, "%s died with signal %d\n", argv[2], WIFSIGNALED(status) ? WTERMSIG(status) : 0);
      return 1;
    }
    return WEXITSTATUS(status);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "c_api_with_emulator: %s\n", e.what());
    return 1;
  }
}
