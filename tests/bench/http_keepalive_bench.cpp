// 2,000 sequential keep-alive HTTPS GETs to the emulator: through the SDK (FetchCurrentUser, callbacks
// drained by a spinning game loop) against a bare Beast client doing the same request and parsing the same
// JSON, in the same process, in short interleaved blocks so all see the same machine. Also prints the CPU
// time this process spends per request with the bare client and with a threadless, non-spinning SDK Client
// (robust on a busy machine: waiting costs no CPU), and the median-latency ratio last (target <= 1.3x).
// PLATFORMPP_BENCH_PROFILE=sdk|sdk-thread|bare runs one client alone, for perf record / strace / callgrind
// (PLATFORMPP_BENCH_PROFILE_REQUESTS sets how many requests).
#include "core/asio_prelude.hpp"

#include <platformpp/client.hpp>
#include <platformpp/io_context.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <rapidjson/document.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "bench_mode.hpp"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using Clock = std::chrono::steady_clock;

namespace {

const int kRequests = platformpp::bench::Sized(2000, 200);
constexpr int kBlock = 50;

// CPU time of the whole process (every thread), in microseconds.
double CpuMicros() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto us = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_usec);
  };
  return us(usage.ru_utime) + us(usage.ru_stime);
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

class BareBeastClient {
 public:
  BareBeastClient(const platformpp::testkit::ConnectionInfo& info, std::string token)
      : tls_(asio::ssl::context::tls_client), stream_(io_, tls_), token_(std::move(token)) {
    tls_.load_verify_file(info.caFile);
    stream_.set_verify_mode(asio::ssl::verify_peer);
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(stream_.native_handle()), "127.0.0.1");
    asio::ip::tcp::resolver resolver(io_);
    beast::get_lowest_layer(stream_).connect(resolver.resolve("127.0.0.1", std::to_string(info.port)));
    beast::get_lowest_layer(stream_).socket().set_option(asio::ip::tcp::no_delay(true));
    stream_.handshake(asio::ssl::stream_base::client);
    target_ = info.apiBase.substr(info.apiBase.find("/api/")) + "/users/@me";
    host_ = "127.0.0.1:" + std::to_string(info.port);
  }

  uint64_t Get() {
    http::request<http::empty_body> request{http::verb::get, target_, 11};
    request.set(http::field::host, host_);
    request.set(http::field::user_agent, "bare-beast");
    request.set(http::field::authorization, "Bearer " + token_);
    http::write(stream_, request);
    http::response<http::string_body> response;
    http::read(stream_, buffer_, response);
    rapidjson::Document document;
    document.Parse(response.body().data(), response.body().size());
    return document.IsObject() && document.HasMember("id") ? 1 : 0;
  }

 private:
  asio::io_context io_;
  asio::ssl::context tls_;
  beast::ssl_stream<beast::tcp_stream> stream_;
  beast::flat_buffer buffer_;
  std::string token_, target_, host_;
};

}  // namespace

int main(int argc, char** argv) {
  platformpp::testkit::EmulatorProcess::Options options;
  if (argc > 1) options.binary = argv[1];
  auto emulator = platformpp::testkit::EmulatorProcess::Start(options);
  platformpp::testkit::EmulatorAdmin admin(emulator->Connection());
  auto app = admin.CreateApp("Bench");
  auto user = admin.CreateUser("bench_user");
  auto token = admin.MintToken(user.id, app.id, "openid sdk.social_layer");
  // Measure the clients, not the emulator's rate limits.
  admin.SetGlobalRateLimit(0);
  admin.SetRateLimit("GET /users/@me", 1'000'000, std::chrono::milliseconds(1000));

  // Three ways to run the SDK: its own network thread (the default, which polls 200 us after each burst
  // before it sleeps), the same thread without that spin, and a threadless IoContext pumped by the waiting
  // thread.
  struct Mode {
    const char* name;
    std::shared_ptr<platformpp::IoContext> io;
    std::unique_ptr<platformpp::Client> client;
    std::vector<double> times;
  };
  std::vector<Mode> modes;
  modes.push_back({"threadless IoContext, pumped by the caller",
                   std::make_shared<platformpp::IoContext>(0),
                   nullptr,
                   {}});
  modes.push_back(
      {"own network thread without spin", std::make_shared<platformpp::IoContext>(1, 0), nullptr, {}});
  modes.push_back({"own network thread (the default)", nullptr, nullptr, {}});
  for (Mode& mode : modes) {
    auto clientOptions = emulator->Connection().ClientOptionsFor();
    clientOptions.ioContext = mode.io;
    mode.client = std::make_unique<platformpp::Client>(clientOptions);
  }
  BareBeastClient bare(emulator->Connection(), token.accessToken);
  // No spinning anywhere: what this process burns per request is then the clients' own CPU cost, whatever
  // else runs on the machine.
  auto idleClientOptions = emulator->Connection().ClientOptionsFor();
  idleClientOptions.ioContext = std::make_shared<platformpp::IoContext>(0, 0);
  platformpp::Client idleClient(idleClientOptions);

  auto sdkGet = [&](platformpp::Client& client) {
    bool done = false, ok = false;
    client.FetchCurrentUser(platformpp::AuthorizationTokenType::Bearer, token.accessToken,
                            [&](const platformpp::ClientResult& result, uint64_t, const std::string&) {
                              done = true;
                              ok = result.Successful();
                            });
    while (!done) {
      client.WaitForCallbacks(1000);  // a bot's loop: sleep (or pump) until the SDK has something
      client.RunCallbacks();
    }
    return ok;
  };
  // Profiling aid: PLATFORMPP_BENCH_PROFILE=sdk|bare runs only that client (the SDK threadless without spin)
  // for 20,000 requests, e.g. under perf record or valgrind --tool=callgrind; =sdk-thread runs the default
  // Client (its own network thread) instead.
  if (const char* profile = std::getenv("PLATFORMPP_BENCH_PROFILE")) {
    bool threaded = std::strcmp(profile, "sdk-thread") == 0;
    bool sdk = threaded || std::strcmp(profile, "sdk") == 0;
    platformpp::Client& profiled = threaded ? *modes.back().client : idleClient;
    // PLATFORMPP_BENCH_PROFILE_REQUESTS overrides the count (fewer under valgrind).
    int profileRequests = 20000;
    if (const char* count = std::getenv("PLATFORMPP_BENCH_PROFILE_REQUESTS")) {
      profileRequests = std::max(1, std::atoi(count));
    }
    double cpu = CpuMicros();
    auto start = Clock::now();
    int failed = 0;
    for (int i = 0; i < profileRequests; ++i)
      failed += (sdk ? sdkGet(profiled) : bare.Get() != 0) ? 0 : 1;
    double wall = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    std::printf("%s: %.1f us CPU, %.1f us wall per request, %d failed\n", profile,
                (CpuMicros() - cpu) / profileRequests, wall / profileRequests, failed);
    return failed ? 1 : 0;
  }

  // Warm up: connections, handshakes, caches.
  for (int i = 0; i < 50; ++i) {
    bool ok = bare.Get() != 0 && sdkGet(idleClient);
    for (Mode& mode : modes)
      ok = sdkGet(*mode.client) && ok;
    if (!ok) {
      std::printf("error: warm-up request failed\n");
      return 1;
    }
  }

  // Each client runs a block of sequential GETs (its steady state: warm connection, a network thread that
  // has just been busy), the clients take turns block by block, and the order rotates every round, so that a
  // burst of noise from the machine lands on all of them alike.
  std::vector<double> bareTimes;
  double bareCpu = 0, idleCpu = 0;  // process CPU time of the no-spin blocks
  int failures = 0;
  auto timed = [&](std::vector<double>& into, auto&& get) {
    for (int i = 0; i < kBlock; ++i) {
      auto start = Clock::now();
      failures += get() ? 0 : 1;
      into.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
  };
  const int clients = static_cast<int>(modes.size()) + 1;
  for (int round = 0; round < kRequests / kBlock; ++round) {
    for (int k = 0; k < clients; ++k) {
      int which = (round + k) % clients;
      if (which == 0) {
        timed(bareTimes, [&] { return bare.Get() != 0; });
        // Right after the bare block, CPU cost of both clients without any spin.
        double before = CpuMicros();
        for (int i = 0; i < kBlock; ++i)
          failures += bare.Get() != 0 ? 0 : 1;
        double middle = CpuMicros();
        for (int i = 0; i < kBlock; ++i)
          failures += sdkGet(idleClient) ? 0 : 1;
        bareCpu += middle - before;
        idleCpu += CpuMicros() - middle;
      } else {
        Mode& mode = modes[which - 1];
        timed(mode.times, [&] { return sdkGet(*mode.client); });
      }
    }
  }
  if (failures) {
    std::printf("error: %d requests failed\n", failures);
    return 1;
  }
  double b = Median(bareTimes);
  std::printf("bare Beast, sync, one keep-alive TLS connection: median %.1f us over %d GETs\n", b, kRequests);
  std::printf(
      "CPU time of this process per request (no spinning): bare %.1f us, platformpp %.1f us (+%.1f us)\n",
      bareCpu / kRequests, idleCpu / kRequests, (idleCpu - bareCpu) / kRequests);
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) == 1) {
    std::printf("note: pinned to one core: the latencies include the emulator's CPU time\n");
  }
  for (Mode& mode : modes) {
    std::printf("platformpp, %s: median %.1f us (%.2fx)\n", mode.name, Median(mode.times),
                Median(mode.times) / b);
  }
  std::printf("ratio: %.2fx (the default Client vs bare Beast; target <= 1.3x)\n",
              Median(modes.back().times) / b);
  return 0;
}
