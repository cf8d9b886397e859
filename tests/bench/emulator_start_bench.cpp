// How long a test waits for an emulator of its own (issue 39: under 100 ms from the start to the connection
// file): testkit::EmulatorProcess::Start, which spawns the binary and returns once its connection file is
// there to read, then Stop. Three shapes, interleaved so that all see the same machine: the default (TLS,
// IPC), --plain-http --no-ipc (what a test that needs neither can ask for), and the default started from a
// snapshot (--import, a small world). Baseline, in the same run: the same binary with --version, spawned
// and waited for (process creation, the dynamic linker and static initialisation: what any start of this
// binary costs), so that the ratio says what the emulator's own setup adds.
//
//   platformpp_bench_emulator_start [EMULATOR] [--runs N]
#include <platformpp/testkit/emulator.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>  // environ

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
namespace testkit = platformpp::testkit;

constexpr double kGoalMs = 100;

double Ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

struct Summary {
  double median = 0, p90 = 0, max = 0;
};

Summary Summarise(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  Summary s;
  s.median = values[values.size() / 2];
  s.p90 = values[std::min(values.size() - 1, values.size() * 9 / 10)];
  s.max = values.back();
  return s;
}

/// The binary started with --version and waited for: the floor of any start.
double SpawnVersionMs(const std::string& binary) {
  const auto start = Clock::now();
  pid_t pid = 0;
  std::string path = binary;
  std::string flag = "--version";
  char* argv[] = {path.data(), flag.data(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 0, 0);
  if (posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv, environ) != 0)
    throw std::runtime_error("cannot spawn " + binary);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(binary + " --version failed");
  return Ms(Clock::now() - start);
}

double StartMs(const testkit::EmulatorProcess::Options& options) {
  const auto start = Clock::now();
  auto emulator = testkit::EmulatorProcess::Start(options);
  const double ms = Ms(Clock::now() - start);
  emulator.reset();
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string binary;
    int runs = 20;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--runs" && i + 1 < argc) {
        runs = std::max(1, std::atoi(argv[++i]));
      } else if (!arg.empty() && arg[0] != '-') {
        binary = arg;
      } else {
        throw std::runtime_error("usage: platformpp_bench_emulator_start [EMULATOR] [--runs N]");
      }
    }
    if (binary.empty()) {
      const char* env = std::getenv("PLATFORMPP_EMULATOR");
      if (env == nullptr) throw std::runtime_error("give the emulator's path or set PLATFORMPP_EMULATOR");
      binary = env;
    }

    testkit::EmulatorProcess::Options defaults;
    defaults.binary = binary;
    testkit::EmulatorProcess::Options plain = defaults;
    plain.plainHttp = true;
    plain.ipc = false;

    // A small world to import: one emulator's export after it made a few users, an application and tokens.
    const auto directory = std::filesystem::temp_directory_path() / "platformpp-start-bench";
    std::filesystem::create_directories(directory);
    const auto snapshot = (directory / "world.json").string();
    {
      auto seed = testkit::EmulatorProcess::Start(defaults);
      testkit::EmulatorAdmin admin(seed->Connection());
      const auto app = admin.CreateApp("Start bench");
      for (int i = 0; i < 10; ++i)
        admin.MintToken(admin.CreateUser("player" + std::to_string(i)).id, app.id,
                        "identify openid sdk.social_layer");
      std::ofstream(snapshot) << admin.ExportState();
    }
    testkit::EmulatorProcess::Options imported = defaults;
    imported.importFile = snapshot;

    std::vector<double> version, tls, bare, import;
    for (int i = 0; i < runs; ++i) {
      version.push_back(SpawnVersionMs(binary));
      tls.push_back(StartMs(defaults));
      bare.push_back(StartMs(plain));
      import.push_back(StartMs(imported));
    }
    std::error_code ignored;
    std::filesystem::remove_all(directory, ignored);

    const auto floor = Summarise(version);
    std::printf("%d starts each, interleaved; milliseconds from spawn to a readable connection file\n", runs);
    std::printf("%-34s %8s %8s %8s %8s\n", "", "median", "p90", "max", "ratio");
    std::printf("%-34s %8.1f %8.1f %8.1f %8s\n", "baseline: the binary --version", floor.median, floor.p90,
                floor.max, "1.00");
    bool met = true;
    for (const auto& [name, values] :
         {std::pair<const char*, const std::vector<double>&>{"default (TLS, IPC)", tls},
          {"--plain-http --no-ipc", bare},
          {"default, --import a small world", import}}) {
      const auto s = Summarise(values);
      std::printf("%-34s %8.1f %8.1f %8.1f %8.2f\n", name, s.median, s.p90, s.max, s.median / floor.median);
      met = met && s.median < kGoalMs;
    }
    std::printf("goal: each median under %.0f ms: %s\n", kGoalMs, met ? "met" : "NOT met");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "emulator_start_bench: %s\n", e.what());
    return 1;
  }
}
