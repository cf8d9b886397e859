// Which failures the HTTP client retries: only where a retry cannot duplicate an effect.
#include "emulator_fixture.hpp"

#include <platformpp/io_context.hpp>

#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "net/http_client.hpp"

#include <doctest/doctest.h>

#include <future>
#include <thread>

namespace http_retry_policy_test {

using namespace platformpp;
using itest::Shared;

namespace {

// The HTTP layer alone, as feature code uses it, against the shared emulator or another one.
struct Http {
  std::shared_ptr<IoContext> io = std::make_shared<IoContext>(1);
  std::shared_ptr<core::CallbackQueue> queue = std::make_shared<core::CallbackQueue>();
  std::shared_ptr<core::Logger> logger = std::make_shared<core::Logger>(queue);
  std::unique_ptr<net::HttpClient> client;
  testkit::ConnectionInfo connection;
  std::string token;

  explicit Http(testkit::ConnectionInfo info = Shared().process->Connection(),
                std::string accessToken = Shared().token.accessToken)
      : connection(std::move(info)), token(std::move(accessToken)) {
    net::HttpClientOptions options;
    options.caFile = connection.caFile;
    options.backoffInitial = std::chrono::milliseconds(20);
    client = std::make_unique<net::HttpClient>(*io, logger, options);
  }
  ~Http() {
    client->Shutdown();
    queue->Shutdown();
  }

  net::HttpResponse Send(const std::string& method, const std::string& path, bool retrySafe = false) {
    net::HttpRequest request;
    request.method = method;
    request.url = connection.apiBase + path;
    request.headers.emplace_back("Authorization", "Bearer " + token);
    if (method == "POST") {
      request.body = "{}";
      request.contentType = "application/json";
    }
    request.retrySafe = retrySafe;
    std::promise<net::HttpResponse> promise;
    auto future = promise.get_future();
    client->Send(std::move(request),
                 [&](net::HttpResponse response) { promise.set_value(std::move(response)); });
    return future.get();
  }
};

}  // namespace

TEST_CASE("a 503 on a GET is retried; on a POST it is not, unless the request says it is safe") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Http http;

  emu.admin->AddFault({.route = "GET /users/@me", .status = 503, .count = 1});
  auto get = http.Send("GET", "/users/@me");
  CHECK(get.status == 200);
  CHECK(get.attempts == 2);

  emu.admin->AddFault({.route = "POST /lobbies", .status = 503, .count = 1});
  auto post = http.Send("POST", "/lobbies");
  CHECK(post.status == 503);
  CHECK(post.attempts == 1);

  emu.admin->AddFault({.route = "POST /lobbies", .status = 503, .count = 1});
  auto guarded = http.Send("POST", "/lobbies", /*retrySafe=*/true);
  CHECK(guarded.status != 503);  // retried past the fault (the route itself is not served yet)
  CHECK(guarded.attempts == 2);
}

TEST_CASE("a dropped connection: a GET is retried, a POST that was sent is not") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Http http;
  emu.admin->AddFault({.route = "GET /users/@me", .drop = true, .count = 1});
  auto get = http.Send("GET", "/users/@me");
  CHECK(get.status == 200);

  emu.admin->AddFault({.route = "POST /lobbies", .drop = true, .count = 1});
  auto post = http.Send("POST", "/lobbies");
  CHECK(post.status == 0);
  CHECK(post.transport.Type() == ErrorType::NetworkError);
  CHECK(post.attempts == 1);
}

TEST_CASE("network retries are bounded") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Http http;
  emu.admin->AddFault({.route = "GET /users/@me", .drop = true, .count = 0});
  auto get = http.Send("GET", "/users/@me");
  CHECK(get.transport.Type() == ErrorType::NetworkError);
  CHECK(get.transport.Retryable());
  CHECK(get.attempts == 3);
}

TEST_CASE("a keep-alive connection the server closed while idle is not used for the next POST") {
  // An emulator of its own that closes idle connections after 200 ms.
  testkit::EmulatorProcess::Options options;
  options.binary = PLATFORMPP_EMULATOR_PATH;
  options.extraArguments = {"--idle-timeout-ms", "200"};
  auto emulator = testkit::EmulatorProcess::Start(options);
  testkit::EmulatorAdmin admin(emulator->Connection());
  auto app = admin.CreateApp("Idle");
  auto user = admin.CreateUser("idle_user");
  auto token = admin.MintToken(user.id, app.id, "openid");

  Http http(emulator->Connection(), token.accessToken);
  REQUIRE(http.Send("GET", "/users/@me").status == 200);  // one idle connection in the pool now
  int64_t before = admin.ConnectionsAccepted();
  std::this_thread::sleep_for(std::chrono::milliseconds(600));  // the server closes it
  auto post = http.Send("POST", "/lobbies");
  CHECK(post.transport.Successful());  // not a NetworkError on the dead connection
  CHECK(post.status != 0);
  CHECK(post.attempts == 1);
  // A fresh connection for the POST, and one for this admin call (its own connection was closed too).
  CHECK(admin.ConnectionsAccepted() == before + 2);
}

}  // namespace http_retry_policy_test
