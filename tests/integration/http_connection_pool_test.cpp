// The HTTP client's keep-alive pool against a bare local server: an idle connection serves the next request,
// and one idle for idleTimeout is closed by the client even when no request comes (an idle TLS connection
// holds about 90 KiB; a Client that only sits on its Gateway session may not send a request for hours). The
// HTTP clients of one IoContext share their pool: a connection one left serves the next, and an origin has
// at most maxConnectionsPerOrigin connections for all of them (each Client's loads after READY had left an
// idle connection per Client).
#include "core/asio_prelude.hpp"

#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "net/http_client.hpp"

#include <platformpp/io_context.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace http_connection_pool_test {

using namespace platformpp;
using namespace std::chrono_literals;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// Serves keep-alive answers (each after `delay`) on every connection it accepts and records when each
// connection's client end closed (or the connection failed).
class KeepAliveServer {
 public:
  explicit KeepAliveServer(std::chrono::milliseconds delay = 0ms)
      : delay_(delay), acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { Accept(); });
  }
  ~KeepAliveServer() {
    stopping_ = true;
    {
      tcp::socket wake(io_);
      boost::system::error_code ignored;
      wake.connect(acceptor_.local_endpoint(), ignored);
    }
    thread_.join();
    std::vector<std::thread> serving;
    {
      std::lock_guard lock(mutex_);
      for (auto& socket : sockets_) {
        boost::system::error_code ignored;
        socket->shutdown(tcp::socket::shutdown_both, ignored);
      }
      serving.swap(serving_);
    }
    for (auto& thread : serving)
      thread.join();
  }

  std::string Url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/ping"; }

  struct Snapshot {
    int accepted = 0;
    int requests = 0;
    int mostOpen = 0;                             // connections open at once, at most
    std::vector<Clock::time_point> answeredLast;  // per connection: its last answer
    std::vector<Clock::time_point> closed;        // per connection that has ended
  };
  Snapshot Get() {
    std::lock_guard lock(mutex_);
    return state_;
  }

 private:
  void Accept() {
    for (;;) {
      auto socket = std::make_shared<tcp::socket>(io_);
      boost::system::error_code ec;
      acceptor_.accept(*socket, ec);
      if (stopping_ || ec) return;
      std::lock_guard lock(mutex_);
      sockets_.push_back(socket);
      state_.mostOpen = std::max(state_.mostOpen, ++open_);
      const std::size_t index = static_cast<std::size_t>(state_.accepted++);
      state_.answeredLast.emplace_back();
      serving_.emplace_back([this, socket, index] { Serve(*socket, index); });
    }
  }

  void Serve(tcp::socket& socket, std::size_t index) {
    std::string pending;
    for (;;) {
      boost::system::error_code ec;
      std::size_t end = asio::read_until(socket, asio::dynamic_buffer(pending), "\r\n\r\n", ec);
      if (ec) break;  // the client closed (or the test ends)
      pending.erase(0, end);
      {
        std::lock_guard lock(mutex_);
        ++state_.requests;
      }
      std::this_thread::sleep_for(delay_);
      const std::string answer =
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
      asio::write(socket, asio::buffer(answer), ec);
      if (ec) break;
      std::lock_guard lock(mutex_);
      state_.answeredLast[index] = Clock::now();
    }
    std::lock_guard lock(mutex_);
    --open_;
    state_.closed.push_back(Clock::now());
  }

  std::chrono::milliseconds delay_;
  asio::io_context io_;  // blocking sockets only
  tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  Snapshot state_;
  int open_ = 0;
  std::vector<std::shared_ptr<tcp::socket>> sockets_;
  std::vector<std::thread> serving_;
};

net::HttpClientOptions WithIdleTimeout(std::chrono::milliseconds idleTimeout) {
  net::HttpClientOptions options;
  options.idleTimeout = idleTimeout;
  return options;
}

struct Http {
  explicit Http(std::chrono::milliseconds idleTimeout) : Http(WithIdleTimeout(idleTimeout)) {}
  explicit Http(const net::HttpClientOptions& options, std::shared_ptr<IoContext> shared = nullptr) {
    if (shared) io = std::move(shared);
    client = std::make_unique<net::HttpClient>(*io, logger, options);
  }
  ~Http() {
    client->Shutdown();
    queue->Shutdown();
  }
  int Get(const std::string& url) {
    net::HttpRequest request;
    request.method = "GET";
    request.url = url;
    std::promise<int> status;
    auto future = status.get_future();
    client->Send(std::move(request),
                 [&](const net::HttpResponse& response) { status.set_value(response.status); });
    return future.get();
  }

  std::shared_ptr<IoContext> io = std::make_shared<IoContext>(1);  // unless shared
  std::shared_ptr<core::CallbackQueue> queue = std::make_shared<core::CallbackQueue>();
  std::shared_ptr<core::Logger> logger = std::make_shared<core::Logger>(queue);
  std::unique_ptr<net::HttpClient> client;
};

template <class F>
bool Eventually(F condition, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return condition();
}

TEST_CASE("HTTP pool: requests within the idle timeout share one connection") {
  KeepAliveServer server;
  Http http(30000ms);  // far longer than the test: only reuse can explain one connection
  for (int i = 0; i < 5; ++i) {
    REQUIRE(http.Get(server.Url()) == 200);
    std::this_thread::sleep_for(50ms);
  }
  auto state = server.Get();
  CHECK(state.accepted == 1);
  CHECK(state.requests == 5);
  CHECK(state.closed.empty());
}

TEST_CASE("HTTP pool: a connection idle for idleTimeout is closed by the client without another request") {
  KeepAliveServer server;
  Http http(300ms);
  REQUIRE(http.Get(server.Url()) == 200);
  // Closed without another request (the event waited for, however long a busy machine takes), and never
  // before its time (a lower bound: the client's clock started a little after the answer).
  REQUIRE(Eventually([&] { return !server.Get().closed.empty(); }, 30000ms));
  auto state = server.Get();
  REQUIRE(state.accepted == 1);
  const auto idle =
      std::chrono::duration_cast<std::chrono::milliseconds>(state.closed[0] - state.answeredLast[0]);
  CHECK(idle >= 290ms);

  // The next request opens a new connection, which is reaped in turn; one in use is never reaped.
  REQUIRE(http.Get(server.Url()) == 200);
  REQUIRE(http.Get(server.Url()) == 200);
  CHECK(server.Get().accepted == 2);
  REQUIRE(Eventually([&] { return server.Get().closed.size() == 2; }, 30000ms));
  CHECK(server.Get().requests == 3);
}

TEST_CASE("HTTP pool: a connection that serves again before its idle timeout stays open") {
  KeepAliveServer server;
  Http http(2000ms);
  // Each request comes 1 s after the last, 3 s in all: longer than the idle timeout, so only a clock that
  // restarts with each use keeps the connection; a second of slack each time for a busy machine.
  for (int i = 0; i < 4; ++i) {
    REQUIRE(http.Get(server.Url()) == 200);
    if (i < 3) std::this_thread::sleep_for(1000ms);
  }
  auto state = server.Get();
  CHECK(state.accepted == 1);
  CHECK(state.closed.empty());
  REQUIRE(Eventually([&] { return server.Get().closed.size() == 1; }, 30000ms));
}

TEST_CASE("HTTP pool: the HTTP clients of one IoContext share their keep-alive connections") {
  KeepAliveServer server;
  auto io = std::make_shared<IoContext>(1);
  auto first = std::make_unique<Http>(WithIdleTimeout(2000ms), io);
  Http second(WithIdleTimeout(2000ms), io);
  for (int i = 0; i < 3; ++i) {
    REQUIRE(first->Get(server.Url()) == 200);
    REQUIRE(second.Get(server.Url()) == 200);
  }
  // The pool outlives the client that made the connection.
  first.reset();
  REQUIRE(second.Get(server.Url()) == 200);
  auto state = server.Get();
  CHECK(state.accepted == 1);
  CHECK(state.requests == 7);
  CHECK(state.closed.empty());
}

TEST_CASE(
    "HTTP pool: an origin has at most maxConnectionsPerOrigin connections for all the clients of an "
    "IoContext") {
  KeepAliveServer server(100ms);
  auto io = std::make_shared<IoContext>(1);
  net::HttpClientOptions options = WithIdleTimeout(2000ms);
  options.maxConnectionsPerOrigin = 2;
  std::vector<std::unique_ptr<Http>> clients;
  clients.reserve(4);
  for (int i = 0; i < 4; ++i)
    clients.push_back(std::make_unique<Http>(options, io));
  // Two requests from each client at once: eight requests, two connections; the rest wait for one.
  std::vector<std::future<int>> answers;
  answers.reserve(8);
  for (auto& client : clients) {
    for (int i = 0; i < 2; ++i)
      answers.push_back(
          std::async(std::launch::async, [&client, &server] { return client->Get(server.Url()); }));
  }
  for (auto& answer : answers)
    CHECK(answer.get() == 200);
  auto state = server.Get();
  CHECK(state.requests == 8);
  CHECK(state.mostOpen <= 2);
  CHECK(state.accepted == 2);
}

TEST_CASE("HTTP pool: clients with other trust settings do not share connections") {
  KeepAliveServer server;
  auto io = std::make_shared<IoContext>(1);
  net::HttpClientOptions other = WithIdleTimeout(2000ms);
  other.caFile = "/nonexistent/extra-ca.pem";  // never loaded: the origin is plain http
  Http system(WithIdleTimeout(2000ms), io);
  Http extra(other, io);
  REQUIRE(system.Get(server.Url()) == 200);
  REQUIRE(extra.Get(server.Url()) == 200);
  REQUIRE(system.Get(server.Url()) == 200);
  CHECK(server.Get().accepted == 2);
}

TEST_CASE("HTTP client: shutting down while a handler on the network thread sends the next request") {
  // A load chains its requests from their handlers (premium: SKUs, then entitlements...), on the network
  // thread, while the Client may be destroyed on another: the client must be shut down under that chain
  // without a race on its state (TSan runs this test) and with nothing answered once Shutdown has returned.
  KeepAliveServer server;
  for (int round = 0; round < 20; ++round) {
    Http http(30000ms);
    std::atomic<int> answered{0};
    net::HttpClient* client = http.client.get();
    std::function<void()> next = [&] {
      net::HttpRequest request;
      request.method = "GET";
      request.url = server.Url();
      client->Send(std::move(request), [&](const net::HttpResponse&) {
        ++answered;
        next();
      });
    };
    next();
    REQUIRE(Eventually([&] { return answered.load() >= 3; }, 10000ms));
    client->Shutdown();
    const int atShutdown = answered.load();
    std::this_thread::sleep_for(20ms);
    CHECK(answered.load() == atShutdown);
  }
}

}  // namespace http_connection_pool_test
