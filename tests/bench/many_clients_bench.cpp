// Many Clients in one process, as bots, load tests and game servers run them: N = 100, then 1,000 Clients on
// one shared IoContext (one network thread), default options (the system's trust store as well as the
// emulator's CA), each with UpdateToken and Connect() against the emulator. Each N runs in a child process of
// its own, so that its memory figures start clean. Prints, per N: time until every Client is Ready, CPU time
// per Client, resident memory per idle connected Client (RSS growth / N, measured once all are Ready and
// quiet) and the process's threads.
//
// Baseline, in the same child process before the Clients: N bare connections made with OpenSSL and blocking
// sockets: one TLS handshake (a verifying client context made once, as a shared one is), the WebSocket
// upgrade, Hello, Identify and READY: the least one Gateway connection can cost. The last lines print the
// SDK's CPU per Client over the baseline's CPU per connection (goal <= 2) and the memory per Client against
// its 200 KiB goal.
//
// The emulator's Identify budget (1,000 per application per 24 h, as on the platform) is raised through its
// admin API for this run: 2 x 1,100 Identifies are made.
#include <platformpp/client.hpp>
#include <platformpp/io_context.hpp>
#include <platformpp/testkit/emulator.hpp>

#include "bare_gateway.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_mode.hpp"

using Clock = std::chrono::steady_clock;
namespace bench = platformpp::bench;

namespace {

constexpr double kMemoryGoalKiB = 200;
constexpr double kCpuGoalRatio = 2.0;

double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double ResidentKiB() {
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = 0;
  statm >> size >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1024.0;
}

int Threads() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  return 0;
}

struct Account {
  uint64_t userId = 0;
  std::string token;
};

// --- one N, in a child process ---------------------------------------------------------------------------

struct Figures {
  double baselineCpuMs = 0;  // per connection
  double readySeconds = 0;
  double cpuMsPerClient = 0;
  double kibPerClient = 0;
  int threads = 0;
};

Figures RunN(const platformpp::testkit::ConnectionInfo& info, uint64_t appId,
             const std::vector<Account>& accounts, std::size_t n) {
  Figures figures;
  // Baseline: n bare connections, one after the other; CPU time of this process only (the emulator is
  // another).
  {
    SSL_CTX* context = bench::NewClientContext(info.caFile);
    const bench::GatewayAddress address = bench::ParseGateway(info.gatewayUrl);
    std::mt19937 random(7);
    std::vector<std::unique_ptr<bench::BareConnection>> open;
    const double cpu0 = ProcessCpuSeconds();
    for (std::size_t i = 0; i < n; ++i)
      open.push_back(bench::ConnectBare(context, address, accounts[i].token, random));
    figures.baselineCpuMs = (ProcessCpuSeconds() - cpu0) * 1000 / static_cast<double>(n);
    open.clear();
    SSL_CTX_free(context);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the emulator ends those sessions

  const double rss0 = ResidentKiB();
  const double cpu0 = ProcessCpuSeconds();
  const auto t0 = Clock::now();
  auto io = std::make_shared<platformpp::IoContext>(1);
  std::vector<std::unique_ptr<platformpp::Client>> clients;
  clients.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    platformpp::ClientOptions options;  // defaults: the system's store is trusted too
    options.apiBase = info.apiBase;
    options.caFile = info.caFile;
    options.ioContext = io;
    options.ipcEnabled = false;
    auto client = std::make_unique<platformpp::Client>(std::move(options));
    client->SetApplicationId(appId);
    client->UpdateToken(platformpp::AuthorizationTokenType::Bearer, accounts[n + i].token, [](auto) {});
    client->Connect();
    clients.push_back(std::move(client));
  }
  const auto deadline = Clock::now() + std::chrono::seconds(120);
  for (;;) {
    std::size_t ready = 0;
    for (auto& client : clients) {
      client->RunCallbacks();
      if (client->GetStatus() == platformpp::Client::Status::Ready) ++ready;
    }
    if (ready == n) break;
    if (Clock::now() > deadline)
      throw std::runtime_error(std::to_string(ready) + " of " + std::to_string(n) +
                               " Clients Ready in 120 s");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  figures.readySeconds = std::chrono::duration<double>(Clock::now() - t0).count();
  figures.cpuMsPerClient = (ProcessCpuSeconds() - cpu0) * 1000 / static_cast<double>(n);
  // Idle and connected: let the last answers and dispatches settle, then read the memory.
  const auto settle = Clock::now() + std::chrono::seconds(2);
  while (Clock::now() < settle) {
    for (auto& client : clients)
      client->RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  figures.kibPerClient = (ResidentKiB() - rss0) / static_cast<double>(n);
  figures.threads = Threads();
  clients.clear();
  return figures;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    platformpp::testkit::EmulatorProcess::Options options;
    if (argc > 1) options.binary = argv[1];
    options.ipc = false;
    auto emulator = platformpp::testkit::EmulatorProcess::Start(options);
    const auto& info = emulator->Connection();
    platformpp::testkit::EmulatorAdmin admin(info);
    auto app = admin.CreateApp("Many clients bench");
    platformpp::testkit::EmulatorAdmin::GatewayLimits limits;
    limits.identifyBudget = 100000;  // raised for this run (the platform's is 1,000 per 24 h)
    admin.SetGatewayLimits(limits);
    admin.SetGlobalRateLimit(0);

    const auto sizes = platformpp::bench::Sized<std::vector<std::size_t>>({100, 1000}, {20, 50});
    // One account per baseline connection and per Client: 2 x the largest N.
    std::vector<Account> accounts;
    for (std::size_t i = 0; i < 2 * sizes.back(); ++i) {
      auto user = admin.CreateUser("crowd_" + std::to_string(i));
      accounts.push_back({user.id, admin.MintToken(user.id, app.id, "openid sdk.social_layer").accessToken});
    }

    std::vector<Figures> results;
    for (std::size_t n : sizes) {
      int pipe[2];
      if (::pipe(pipe) != 0) throw std::runtime_error("pipe");
      std::fflush(stdout);
      const pid_t child = ::fork();
      if (child == 0) {
        ::close(pipe[0]);
        int code = 0;
        try {
          Figures f = RunN(info, app.id, accounts, n);
          if (::write(pipe[1], &f, sizeof f) != static_cast<ssize_t>(sizeof f)) code = 3;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "N = %zu: %s\n", n, e.what());
          code = 2;
        }
        std::fflush(nullptr);
        ::_exit(code);
      }
      ::close(pipe[1]);
      Figures f;
      const bool got = ::read(pipe[0], &f, sizeof f) == static_cast<ssize_t>(sizeof f);
      ::close(pipe[0]);
      int status = 0;
      ::waitpid(child, &status, 0);
      if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("a run failed");
      results.push_back(f);
      std::printf(
          "N = %4zu: all Ready in %.2f s; CPU %.2f ms per Client (baseline %.2f ms per bare connection); "
          "%.0f KiB per idle connected Client; %d threads\n",
          n, f.readySeconds, f.cpuMsPerClient, f.baselineCpuMs, f.kibPerClient, f.threads);
    }
    const Figures& small = results.front();
    const Figures& large = results.back();
    std::printf(
        "growth %zu -> %zu: time x%.1f, CPU per Client x%.2f, memory per Client x%.2f (linear: x%.1f, "
        "x1, x1)\n",
        sizes.front(), sizes.back(), large.readySeconds / small.readySeconds,
        large.cpuMsPerClient / small.cpuMsPerClient, large.kibPerClient / small.kibPerClient,
        static_cast<double>(sizes.back()) / static_cast<double>(sizes.front()));
    for (const Figures* f : {&small, &large}) {
      const double ratio = f->cpuMsPerClient / f->baselineCpuMs;
      std::printf(
          "ratio (N = %zu): SDK CPU per Client / bare connection = %.2f (goal <= %.1f); memory %.0f KiB "
          "/ %.0f KiB goal = %.2f\n",
          f == &small ? sizes.front() : sizes.back(), ratio, kCpuGoalRatio, f->kibPerClient, kMemoryGoalKiB,
          f->kibPerClient / kMemoryGoalKiB);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "many_clients_bench: %s\n", e.what());
    return 1;
  }
}
