// What the HTTP client puts on the wire and how it reads answers back, against a bare socket server (plain
// http on loopback): the request is serialized by the client itself, so its fields are checked here.
#include <cstddef>
#include <platformpp/io_context.hpp>

#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "net/http_client.hpp"
#include "net/http_result.hpp"

#include <doctest/doctest.h>

#include "test_portability.hpp"

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

namespace http_wire_test {

using namespace platformpp;
using namespace platformpp_test;

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
    CloseSocket(listen_);
  }

  std::string Url(const std::string& target) const {
    return "http://127.0.0.1:" + std::to_string(port_) + target;
  }
  std::string Host() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string Received() { return received_.get_future().get(); }

 private:
  void Serve() {
    NativeSocket fd = ::accept(listen_, nullptr, nullptr);
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
      ::send(fd, reply.data(), static_cast<int>(reply.size()), kNoSignal);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CloseSocket(fd);
  }

  std::vector<std::string> replies_;
  NativeSocket listen_ = kNoSocket;
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

TEST_CASE("a body larger than the socket takes at once is sent whole") {
  // Several megabytes: more than a loopback socket buffers, so the client's send is partial and the rest
  // goes out asynchronously.
  OneShotServer server(kOk);
  Http http;
  net::HttpRequest request;
  request.method = "POST";
  request.url = server.Url("/upload");
  request.body.resize(std::size_t{8} * 1024 * 1024);
  for (std::size_t i = 0; i < request.body.size(); ++i)
    request.body[i] = static_cast<char>('a' + i % 26);
  const std::string body = request.body;
  request.contentType = "application/octet-stream";
  auto response = http.Send(std::move(request));
  std::string wire = server.Received();
  CHECK(response.Ok());
  std::size_t head = wire.find("\r\n\r\n");
  REQUIRE(head != std::string::npos);
  CHECK(wire.size() == head + 4 + body.size());
  CHECK(wire.compare(head + 4, std::string::npos, body) == 0);
}

TEST_CASE("a chunked body is put together, and every field of the head is kept in order") {
  OneShotServer server(
      {"HTTP/1.1 201 Created\r\nX-RateLimit-Limit: 5\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n"
       "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n4\r\n{\"id",
       "\r\n7\r\n\":\"42\"}\r\n0\r\n\r\n"});
  Http http;
  net::HttpRequest request;
  request.url = server.Url("/x");
  auto response = http.Send(std::move(request));
  server.Received();
  CHECK(response.Ok());
  CHECK(response.status == 201);
  CHECK(response.body == "{\"id\":\"42\"}");
  std::vector<std::pair<std::string, std::string>> fields;
  for (auto field : response.headers)
    fields.emplace_back(field.first, field.second);
  CHECK(fields == std::vector<std::pair<std::string, std::string>>{{"X-RateLimit-Limit", "5"},
                                                                   {"Set-Cookie", "a=1"},
                                                                   {"set-cookie", "b=2"},
                                                                   {"Transfer-Encoding", "chunked"},
                                                                   {"Connection", "close"}});
  CHECK(response.headers.size() == 5);
  CHECK(response.Header("SET-COOKIE") == "a=1");  // the first of a name
  CHECK(response.Header("x-ratelimit-limit") == "5");
  CHECK(response.Header("X-RateLimit-Limi").empty());
}

TEST_CASE("a response bigger than the client's limit is refused, not read into memory") {
  OneShotServer server({"HTTP/1.1 200 OK\r\nContent-Length: 1025\r\nConnection: close\r\n\r\n"});
  std::shared_ptr<IoContext> io = std::make_shared<IoContext>(1);
  auto queue = std::make_shared<core::CallbackQueue>();
  auto logger = std::make_shared<core::Logger>(queue);
  net::HttpClientOptions options;
  options.maxAttempts = 1;
  options.maxResponseBytes = 1024;
  net::HttpClient client(*io, logger, options);
  std::promise<net::HttpResponse> promise;
  net::HttpRequest request;
  request.method = "POST";  // not retried
  request.url = server.Url("/x");
  client.Send(std::move(request),
              [&](net::HttpResponse response) { promise.set_value(std::move(response)); });
  auto response = promise.get_future().get();
  server.Received();
  CHECK_FALSE(response.transport.Successful());
  CHECK(response.status == 0);
  client.Shutdown();
  queue->Shutdown();
}

TEST_CASE("HttpHeaders: flat storage that reads like a list of name/value pairs") {
  net::HttpHeaders headers;
  CHECK(headers.empty());
  CHECK(headers.begin() == headers.end());
  CHECK(headers.Find("a").empty());
  headers.emplace_back("Content-Type", "application/json");
  headers.emplace_back("X-Empty", "");
  headers.emplace_back(std::string(300, 'n'), std::string(70000, 'v'));  // no size limit of its own
  headers.emplace_back("content-type", "text/plain");
  CHECK(headers.size() == 4);
  CHECK(headers.Find("CONTENT-TYPE") == "application/json");
  CHECK(headers.Find("x-empty").empty());
  CHECK(headers.Find(std::string(300, 'N')) == std::string(70000, 'v'));
  std::vector<std::string> names;
  for (auto field : headers)
    names.emplace_back(field.first);
  CHECK(names == std::vector<std::string>{"Content-Type", "X-Empty", std::string(300, 'n'), "content-type"});
  net::HttpHeaders copy = headers;
  headers.clear();
  CHECK(headers.empty());
  CHECK(copy.Find("content-type") == "application/json");
  net::HttpHeaders listed = {{"A", "1"}, {"b", "2"}};
  CHECK(listed.size() == 2);
  CHECK(listed.Find("B") == "2");
}

TEST_CASE(
    "rate-limit headers are read in any case, the first of a name counts, malformed values are left out") {
  net::HttpResponse response;
  response.headers = {{"x-ratelimit-limit", "5"},
                      {"X-RATELIMIT-REMAINING", "4"},
                      {"X-RateLimit-Remaining", "3"},  // a second one: ignored
                      {"X-RateLimit-Reset-After", "1.5"},
                      {"X-RateLimit-Bucket", std::string(129, 'b')},
                      {"X-RateLimit-Global", "true"},
                      {"X-RateLimit-Scope", "shared-and-much-longer"},
                      {"Retry-After", "2x"},  // malformed
                      {"X-RateLimit-Limits", "9"},
                      {"Content-Type", "application/json"}};
  auto limits = net::ReadRateLimitHeaders(response);
  CHECK(limits.limit == 5);
  CHECK(limits.remaining == 4);
  REQUIRE(limits.resetAfter);
  CHECK(*limits.resetAfter == doctest::Approx(1.5));
  CHECK(limits.bucket == std::string(128, 'b'));
  CHECK(limits.global);
  CHECK(limits.scope == "shared-and-much-");
  CHECK_FALSE(limits.retryAfter);

  net::HttpResponse none;
  none.headers = {{"Retry-After", "3"}, {"X-RateLimit-Global", "TRUE"}, {"X-RateLimit-Limit", "-"}};
  auto other = net::ReadRateLimitHeaders(none);
  CHECK_FALSE(other.limit);
  CHECK_FALSE(other.remaining);
  CHECK_FALSE(other.global);  // only "true" counts
  CHECK(other.retryAfter == 3.0);
  CHECK(other.bucket.empty());
}

}  // namespace http_wire_test
