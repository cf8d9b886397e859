// What the HTTP client puts on the wire and how it reads answers back, against a bare socket server (plain
// http on loopback): the request is serialized by the client itself, so its fields are checked here.
#include <platformpp/io_context.hpp>

#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "net/http_client.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

using namespace platformpp;

namespace {

// Accepts one connection, reads one request (head, then a body of its Content-Length), writes `replies` one
// by one with a pause between them (so that the client sees the answer in pieces), and closes.
class OneShotServer {
 public:
  explicit OneShotServer(std::vector<std::string> replies) : replies_(std::move(replies)) {
    listen_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listen_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(listen_, 4) == 0);
    socklen_t length = sizeof addr;
    ::getsockname(listen_, reinterpret_cast<sockaddr*>(&addr), &length);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~OneShotServer() {
    thread_.join();
    ::close(listen_);
  }

  std::string Url(const std::string& target) const {
    return "http://127.0.0.1:" + std::to_string(port_) + target;
  }
  std::string Host() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string Received() { return received_.get_future().get(); }

 private:
  void Serve() {
    int fd = ::accept(listen_, nullptr, nullptr);
    std::string data;
    char buffer[4096];
    auto more = [&] {
      ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n > 0) data.append(buffer, static_cast<std::size_t>(n));
      return n > 0;
    };
    std::size_t head = std::string::npos;
    while ((head = data.find("\r\n\r\n")) == std::string::npos && more()) {
    }
    std::size_t body = 0;
    if (auto at = data.find("Content-Length: "); at != std::string::npos && at < head) {
      body = std::stoul(data.substr(at + 16));
    }
    while (head != std::string::npos && data.size() < head + 4 + body && more()) {
    }
    received_.set_value(data);
    for (const std::string& reply : replies_) {
      ::send(fd, reply.data(), reply.size(), MSG_NOSIGNAL);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::close(fd);
  }

  std::vector<std::string> replies_;
  int listen_ = -1;
  uint16_t port_ = 0;
  std::promise<std::string> received_;
  std::thread thread_;
};

const std::vector<std::string> kOk = {"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n",
                                      "Content-Length: 11\r\nConnection: close\r\n\r\n{\"id\":", "\"42\"}"};

struct Http {
  std::shared_ptr<IoContext> io = std::make_shared<IoContext>(1);
  std::shared_ptr<core::CallbackQueue> queue = std::make_shared<core::CallbackQueue>();
  std::shared_ptr<core::Logger> logger = std::make_shared<core::Logger>(queue);
  net::HttpClient client{*io, logger, [] {
                           net::HttpClientOptions options;
                           options.timeout = std::chrono::milliseconds(5000);
                           options.maxAttempts = 1;
                           return options;
                         }()};
  ~Http() {
    client.Shutdown();
    queue->Shutdown();
  }

  net::HttpResponse Send(net::HttpRequest request) {
    std::promise<net::HttpResponse> promise;
    auto future = promise.get_future();
    client.Send(std::move(request),
                [&](net::HttpResponse response) { promise.set_value(std::move(response)); });
    return future.get();
  }
};

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a GET carries its target, Host, User-Agent and the caller's headers, and no body framing") {
  OneShotServer server(kOk);
  Http http;
  net::HttpRequest request;
  request.url = server.Url("/api/v10/users/@me?with=1");
  request.headers.emplace_back("Authorization", "Bearer abc");
  auto response = http.Send(std::move(request));
  std::string wire = server.Received();
  CHECK(wire.rfind("GET /api/v10/users/@me?with=1 HTTP/1.1\r\n", 0) == 0);
  CHECK(Has(wire, "\r\nHost: " + server.Host() + "\r\n"));
  CHECK(Has(wire, "\r\nUser-Agent: platformpp\r\n"));
  CHECK(Has(wire, "\r\nAuthorization: Bearer abc\r\n"));
  CHECK_FALSE(Has(wire, "Content-Length"));
  CHECK_FALSE(Has(wire, "Content-Type"));
  CHECK(wire.size() == wire.find("\r\n\r\n") + 4);
  // The answer came in three pieces, split inside the head and inside the body.
  CHECK(response.Ok());
  CHECK(response.body == "{\"id\":\"42\"}");
  CHECK(response.Header("content-type") == "application/json");
}

TEST_CASE("a body goes with its Content-Type and Content-Length") {
  OneShotServer server(kOk);
  Http http;
  net::HttpRequest request;
  request.method = "POST";
  request.url = server.Url("/api/v10/lobbies");
  request.body = "{\"a\":1}";
  request.contentType = "application/json";
  auto response = http.Send(std::move(request));
  std::string wire = server.Received();
  CHECK(wire.rfind("POST /api/v10/lobbies HTTP/1.1\r\n", 0) == 0);
  CHECK(Has(wire, "\r\nContent-Type: application/json\r\n"));
  CHECK(Has(wire, "\r\nContent-Length: 7\r\n\r\n{\"a\":1}"));
  CHECK(wire.size() == wire.find("\r\n\r\n") + 4 + 7);
  CHECK(response.Ok());
}

TEST_CASE("an empty POST says Content-Length: 0; an empty PATCH or DELETE says nothing") {
  for (std::string method : {"POST", "PUT", "PATCH", "DELETE"}) {
    CAPTURE(method);
    OneShotServer server(kOk);
    Http http;
    net::HttpRequest request;
    request.method = method;
    request.url = server.Url("/x");
    request.contentType = "application/json";
    auto response = http.Send(std::move(request));
    std::string wire = server.Received();
    bool length = method == "POST" || method == "PUT";
    CHECK(Has(wire, "\r\nContent-Length: 0\r\n") == length);
    CHECK(Has(wire, "Content-Type: application/json") == (method != "DELETE"));
    CHECK(response.Ok());
  }
}

TEST_CASE("a caller's header replaces ours, and the last header of a name wins") {
  OneShotServer server(kOk);
  Http http;
  net::HttpRequest request;
  request.method = "POST";
  request.url = server.Url("/x");
  request.body = "ab";
  request.contentType = "text/plain";
  request.headers = {{"user-agent", "bot/1"}, {"X-Thing", "1"}, {"x-thing", "2"}, {"Content-Length", "99"}};
  auto response = http.Send(std::move(request));
  std::string wire = server.Received();
  CHECK(Has(wire, "\r\nuser-agent: bot/1\r\n"));
  CHECK_FALSE(Has(wire, "platformpp"));
  CHECK(Has(wire, "\r\nx-thing: 2\r\n"));
  CHECK_FALSE(Has(wire, "X-Thing: 1"));
  CHECK_FALSE(Has(wire, "Content-Length: 99"));
  CHECK(Has(wire, "\r\nContent-Length: 2\r\n\r\nab"));
  CHECK(response.Ok());
}

TEST_CASE("a body that ends when the server closes is read to its end") {
  OneShotServer server({"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nfirst ", "second"});
  Http http;
  net::HttpRequest request;
  request.url = server.Url("/x");
  auto response = http.Send(std::move(request));
  server.Received();
  CHECK(response.Ok());
  CHECK(response.body == "first second");
}

TEST_CASE("a connection closed before any answer is a network error, not a response") {
  OneShotServer server({});
  Http http;
  net::HttpRequest request;
  request.method = "POST";
  request.url = server.Url("/x");
  auto response = http.Send(std::move(request));
  server.Received();
  CHECK_FALSE(response.transport.Successful());
  CHECK(response.status == 0);
}
