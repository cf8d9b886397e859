// Starts an emulator, seeds what the C# tests need, and runs a command (mono and the test program) with the
// connection details and the seeded ids appended as key=value arguments:
//   csharp_with_emulator <emulator binary> <command> [arguments...]
// Seeded: an application; Alice (the desktop-client stand-in consents as her on IPC, so she logs in with
// PKCE), Bob (a token with the social scopes), not friends yet; a guild of Bob's that Alice is in, with a
// text channel; and a Gateway identify budget large enough for the 1,000 connections of the cycle test.
#include <platformpp/testkit/emulator.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <emulator binary> <command> [arguments...]\n", argv[0]);
    return 2;
  }
  try {
    platformpp::testkit::EmulatorProcess::Options options;
    options.binary = argv[1];
    auto emulator = platformpp::testkit::EmulatorProcess::Start(options);
    const auto& info = emulator->Connection();
    platformpp::testkit::EmulatorAdmin admin(info);
    auto app = admin.CreateApp("C# Game");
    auto alice = admin.CreateUser("cs_alice", "Alice");
    auto bob = admin.CreateUser("cs_bob", "Bob");
    admin.SetConsent(alice.id);
    const std::string scopes = "openid sdk.social_layer guilds";
    auto bobToken = admin.MintToken(bob.id, app.id, scopes).accessToken;
    uint64_t guild = admin.CreateGuild("C# Guild", bob.id);
    admin.AddGuildMember(guild, alice.id);
    admin.CreateChannel(guild, platformpp::testkit::EmulatorAdmin::ChannelSpec{.name = "general", .type = 0});
    platformpp::testkit::EmulatorAdmin::GatewayLimits limits;
    limits.identifyBudget = 100000;
    admin.SetGatewayLimits(limits);

    std::vector<std::string> args(argv + 2, argv + argc);
    args.insert(args.end(), {"api_base=" + info.apiBase, "ca_file=" + info.caFile, "web_base=" + info.webBase,
                             "ipc_name=" + info.ipcName, "ipc_dir=" + info.ipcDirectory,
                             "app_id=" + std::to_string(app.id), "alice_id=" + std::to_string(alice.id),
                             "alice_name=cs_alice", "bob_id=" + std::to_string(bob.id), "bob_name=cs_bob",
                             "bob_token=" + bobToken, "guild_id=" + std::to_string(guild)});
    std::vector<char*> argvOut;
    argvOut.reserve(args.size() + 1);
    for (auto& arg : args)
      argvOut.push_back(arg.data());
    argvOut.push_back(nullptr);
    pid_t pid = -1;
    if (::posix_spawnp(&pid, argvOut[0], nullptr, nullptr, argvOut.data(), environ) != 0) {
      std::fprintf(stderr, "cannot start %s\n", argvOut[0]);
      return 1;
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status)) {
      std::fprintf(stderr, "%s died with signal %d\n", argvOut[0],
                   WIFSIGNALED(status) ? WTERMSIG(status) : 0);
      return 1;
    }
    return WEXITSTATUS(status);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "csharp_with_emulator: %s\n", e.what());
    return 1;
  }
}
