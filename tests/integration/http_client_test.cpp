// The SDK's HTTP client against a real emulator process over TLS: verification, rate limits, retries,
// timeouts, malformed responses.
#include "emulator_fixture.hpp"

#include <platformpp/io_context.hpp>

#include <doctest/doctest.h>

namespace http_client_test {

using namespace platformpp;
using itest::Fetch;
using itest::SecondsSince;
using itest::Shared;
using Clock = std::chrono::steady_clock;

TEST_CASE("TLS: the emulator's certificate is refused without its CA and accepted with it") {
  auto& emu = Shared();
  itest::FaultScope scope;
  ClientOptions without = emu.Options();
  without.caFile.clear();
  Client refusing(without);
  auto refused = Fetch(refusing, emu.token.accessToken);
  CHECK(refused.result.Type() == ErrorType::NetworkError);
  CHECK(refused.result.Error().find("certificate") != std::string::npos);
  CHECK_FALSE(refused.result.Retryable());

  Client trusting(emu.Options());
  auto accepted = Fetch(trusting, emu.token.accessToken);
  CHECK_MESSAGE(accepted.result.Successful(), accepted.result.ToString());
  CHECK(accepted.id == emu.user.id);
  CHECK(accepted.name == "itest_player");
}

TEST_CASE("an unknown token is an HTTPError 401 with the platform's error body") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Client client(emu.Options());
  auto outcome = Fetch(client, "not-a-real-token-at-all");
  CHECK(outcome.result.Type() == ErrorType::HTTPError);
  CHECK(outcome.result.Status() == 401);
  CHECK(outcome.result.Error() == "401: Unauthorized");
  CHECK_FALSE(outcome.result.Retryable());
}

TEST_CASE("a 429 with retry_after 0.2 s is retried after at least 0.2 s and succeeds") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->AddFault({.route = "GET /users/@me", .status = 429, .retryAfter = 0.2, .count = 1});
  Client client(emu.Options());
  auto start = Clock::now();
  auto outcome = Fetch(client, emu.token.accessToken);
  CHECK_MESSAGE(outcome.result.Successful(), outcome.result.ToString());
  CHECK(SecondsSince(start, outcome.at) >= 0.2);
  CHECK(SecondsSince(start, outcome.at) < 2.0);
}

TEST_CASE("a global 429 holds every route for retry_after") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->AddFault(
      {.route = "GET /users/@me", .status = 429, .retryAfter = 0.3, .global = true, .count = 1});
  Client client(emu.Options());
  auto start = Clock::now();
  auto outcome = Fetch(client, emu.token.accessToken);
  CHECK_MESSAGE(outcome.result.Successful(), outcome.result.ToString());
  CHECK(SecondsSince(start, outcome.at) >= 0.3);
}

TEST_CASE("a 429 beyond the retries is reported with Retryable and RetryAfter") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->AddFault({.route = "GET /users/@me", .status = 429, .retryAfter = 120.0, .count = 1});
  Client client(emu.Options());
  auto outcome = Fetch(client, emu.token.accessToken);
  CHECK(outcome.result.Type() == ErrorType::HTTPError);
  CHECK(outcome.result.Status() == 429);
  CHECK(outcome.result.Retryable());
  CHECK(outcome.result.RetryAfter() == doctest::Approx(120.0));
}

TEST_CASE("a bucket at Remaining 0 with Reset-After 0.3 s delays the next request by at least 0.3 s") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->SetRateLimit("GET /users/@me", 1, std::chrono::milliseconds(300));
  Client client(emu.Options());
  auto first = Fetch(client, emu.token.accessToken);  // takes the only slot: Remaining 0, Reset-After ~0.3
  REQUIRE_MESSAGE(first.result.Successful(), first.result.ToString());
  auto start = Clock::now();
  auto second = Fetch(client, emu.token.accessToken);
  CHECK_MESSAGE(second.result.Successful(), second.result.ToString());  // waited instead of meeting a 429
  CHECK(SecondsSince(start, second.at) >= 0.25);  // the window started when the first request was served
  CHECK(SecondsSince(first.at, second.at) >= 0.29);
}

TEST_CASE("a bucket empty for longer than a retry_after is waited out fails at once as rate limited") {
  auto& emu = Shared();
  itest::FaultScope scope;
  // One request per 10 minutes: the second would wait nearly 10 minutes, past the 60 s the client waits
  // for a 429 (maxRateLimitWait); one second less than 60 s would be waited.
  emu.admin->SetRateLimit("GET /users/@me", 1, std::chrono::minutes(10));
  Client client(emu.Options());
  auto first = Fetch(client, emu.token.accessToken);
  REQUIRE_MESSAGE(first.result.Successful(), first.result.ToString());
  auto start = Clock::now();
  auto second = Fetch(client, emu.token.accessToken);
  CHECK(SecondsSince(start, second.at) < 5.0);  // not sent: nothing to wait for
  CHECK(second.result.Status() == 429);
  CHECK(second.result.Retryable());
  CHECK(second.result.RetryAfter() > 590.0f);
  CHECK(second.result.RetryAfter() <= 600.0f);
}

// The timeout, not the server, ends the request: the server would answer only after a minute, and the request
// ends long before that, never before its timeout (a lower bound: a busy machine can only be late).
TEST_CASE("a server delayed by a minute with a 500 ms timeout ends in a NetworkError, timed out") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->AddFault({.route = "GET /users/@me", .delayMs = 60000, .count = 0});
  Client client(emu.Options());
  client.SetHttpRequestTimeout(500);
  auto start = Clock::now();
  auto outcome = Fetch(client, emu.token.accessToken);
  double elapsed = SecondsSince(start, outcome.at);
  CHECK(outcome.result.Type() == ErrorType::NetworkError);
  CHECK(outcome.result.Error().find("timed out") != std::string::npos);
  CHECK(elapsed >= 0.45);
  CHECK(elapsed < 60);  // before the server's answer could have come
}

TEST_CASE("5xx on a GET is retried with backoff and then succeeds") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->AddFault({.route = "GET /users/@me", .status = 503, .count = 1});
  Client client(emu.Options());
  auto outcome = Fetch(client, emu.token.accessToken);
  CHECK_MESSAGE(outcome.result.Successful(), outcome.result.ToString());
}

TEST_CASE("persistent 5xx ends as a retryable HTTPError after bounded attempts") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->AddFault({.route = "GET /users/@me", .status = 500, .count = 0});
  Client client(emu.Options());
  auto start = Clock::now();
  auto outcome = Fetch(client, emu.token.accessToken);
  CHECK(outcome.result.Type() == ErrorType::HTTPError);
  CHECK(outcome.result.Status() == 500);
  CHECK(outcome.result.Retryable());
  CHECK(SecondsSince(start, outcome.at) < 10.0);
}

TEST_CASE("malformed responses give a clean error, never a crash") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Client client(emu.Options());

  SUBCASE("bad JSON") {
    emu.admin->AddFault(
        {.route = "GET /users/@me", .body = "{\"id\": \"12", .contentType = "application/json"});
    auto outcome = Fetch(client, emu.token.accessToken);
    CHECK(outcome.result.Type() == ErrorType::HTTPError);
    CHECK(outcome.result.Error().find("invalid JSON") != std::string::npos);
  }
  SUBCASE("wrong content type") {
    emu.admin->AddFault({.route = "GET /users/@me", .body = "<html>hi</html>", .contentType = "text/html"});
    auto outcome = Fetch(client, emu.token.accessToken);
    CHECK(outcome.result.Type() == ErrorType::HTTPError);
    CHECK(outcome.result.Error().find("Content-Type") != std::string::npos);
  }
  SUBCASE("JSON of the wrong shape") {
    emu.admin->AddFault({.route = "GET /users/@me", .body = "[1, 2, 3]", .contentType = "application/json"});
    auto outcome = Fetch(client, emu.token.accessToken);
    CHECK(outcome.result.Type() == ErrorType::HTTPError);
  }
  SUBCASE("truncated body") {
    emu.admin->AddFault({.route = "GET /users/@me", .truncate = true, .count = 0});
    auto outcome = Fetch(client, emu.token.accessToken);
    CHECK(outcome.result.Type() == ErrorType::NetworkError);
  }
  SUBCASE("connection dropped without a response") {
    emu.admin->AddFault({.route = "GET /users/@me", .drop = true, .count = 0});
    auto outcome = Fetch(client, emu.token.accessToken);
    CHECK(outcome.result.Type() == ErrorType::NetworkError);
  }
  // The client is still healthy afterwards.
  itest::FaultScope::Reset();
  auto after = Fetch(client, emu.token.accessToken);
  CHECK_MESSAGE(after.result.Successful(), after.result.ToString());
}

TEST_CASE("sequential requests reuse one keep-alive connection") {
  auto& emu = Shared();
  itest::FaultScope scope;
  Client client(emu.Options());
  REQUIRE(Fetch(client, emu.token.accessToken).result.Successful());
  int64_t before = emu.admin->ConnectionsAccepted();
  for (int i = 0; i < 20; ++i)
    REQUIRE(Fetch(client, emu.token.accessToken).result.Successful());
  // The admin client's own keep-alive connection is already open; the SDK opened none.
  CHECK(emu.admin->ConnectionsAccepted() == before);
}

TEST_CASE("a threadless IoContext is pumped by RunCallbacks and WaitForCallbacks") {
  auto& emu = Shared();
  itest::FaultScope scope;
  auto io = std::make_shared<IoContext>(0);
  auto options = emu.Options();
  options.ioContext = io;
  auto client = std::make_unique<Client>(options);
  auto outcome = Fetch(*client, emu.token.accessToken);  // RunCallbacks pumps
  CHECK_MESSAGE(outcome.result.Successful(), outcome.result.ToString());
  bool done = false;
  client->FetchCurrentUser(
      AuthorizationTokenType::Bearer, emu.token.accessToken,
      [&](const ClientResult& r, uint64_t, const std::string&) { done = r.Successful(); });
  CHECK(client->WaitForCallbacks(5000));  // does the network work itself
  client->RunCallbacks();
  CHECK(done);
  // Destroying with a request in flight still ends it, though no thread runs the context.
  emu.admin->AddFault({.route = "GET /users/@me", .delayMs = 2000});
  ErrorType ended = ErrorType::None;
  client->FetchCurrentUser(AuthorizationTokenType::Bearer, emu.token.accessToken,
                           [&](const ClientResult& r, uint64_t, const std::string&) { ended = r.Type(); });
  client->WaitForCallbacks(100);
  client.reset();
  CHECK(ended == ErrorType::ClientDestroyed);
}

}  // namespace http_client_test
