// Client-side rate limit buckets, crossing each limit by one.
#include "net/rate_limiter.hpp"

#include <doctest/doctest.h>

namespace rate_limiter_test {

using platformpp::net::RateLimiter;
using platformpp::net::RateLimitHeaders;
using namespace std::chrono_literals;

namespace {
RateLimitHeaders Headers(int limit, int remaining, double resetAfter, std::string bucket = "b1") {
  RateLimitHeaders h;
  h.limit = limit;
  h.remaining = remaining;
  h.resetAfter = resetAfter;
  h.bucket = std::move(bucket);
  return h;
}
}  // namespace

TEST_CASE("route keys fold minor ids and keep major parameters") {
  CHECK(RateLimiter::RouteKey("GET", "/channels/123/messages/456") == "GET /channels/123/messages/{id}");
  CHECK(RateLimiter::RouteKey("PUT", "/lobbies/99/members/42") == "PUT /lobbies/{id}/members/{id}");
  CHECK(RateLimiter::RouteKey("GET", "/guilds/7/channels") == "GET /guilds/7/channels");
  CHECK(RateLimiter::RouteKey("POST", "/webhooks/5/s3cr3tToken") == "POST /webhooks/5/{token}");
  CHECK(RateLimiter::RouteKey("POST", "/interactions/5/s3cr3tToken/callback") ==
        "POST /interactions/{id}/{token}/callback");
  CHECK(RateLimiter::RouteKey("PATCH", "/webhooks/5/s3cr3tToken/messages/@original") ==
        "PATCH /webhooks/5/{token}/messages/@original");
  CHECK(RateLimiter::RouteKey("GET", "/users/@me") == "GET /users/@me");
}

TEST_CASE("unknown routes are not held") {
  RateLimiter limiter;
  auto now = RateLimiter::Clock::now();
  for (int i = 0; i < 100; ++i)
    CHECK_FALSE(limiter.TryAcquire("GET /gateway", now));
}

TEST_CASE("a bucket lets exactly Remaining requests through, then waits for Reset-After") {
  RateLimiter limiter;
  auto t0 = RateLimiter::Clock::now();
  limiter.Update("GET /x", Headers(5, 2, 0.3), t0);
  CHECK_FALSE(limiter.TryAcquire("GET /x", t0));
  CHECK_FALSE(limiter.TryAcquire("GET /x", t0));
  auto wait = limiter.TryAcquire("GET /x", t0);  // the third crosses the limit by one
  REQUIRE(wait);
  CHECK(*wait >= t0 + 300ms);
  CHECK(*wait < t0 + 301ms);
  CHECK(limiter.TryAcquire("GET /x", t0 + 299ms));
  CHECK_FALSE(limiter.TryAcquire("GET /x", t0 + 300ms));  // refilled to the limit
}

TEST_CASE("Remaining 0 holds the very next request") {
  RateLimiter limiter;
  auto t0 = RateLimiter::Clock::now();
  limiter.Update("GET /y", Headers(1, 0, 0.3), t0);
  auto wait = limiter.TryAcquire("GET /y", t0 + 1ms);
  REQUIRE(wait);
  CHECK(*wait == t0 + 300ms);
}

TEST_CASE("routes that share a server bucket share its limit") {
  RateLimiter limiter;
  auto t0 = RateLimiter::Clock::now();
  limiter.Update("GET /a", Headers(1, 0, 1.0, "shared"), t0);
  limiter.Update("GET /b", Headers(1, 0, 1.0, "shared"), t0);
  CHECK(limiter.TryAcquire("GET /a", t0));
  CHECK(limiter.TryAcquire("GET /b", t0));
}

TEST_CASE("a 429 pauses its route; a global 429 pauses every route") {
  RateLimiter limiter;
  auto t0 = RateLimiter::Clock::now();
  limiter.OnTooManyRequests("GET /a", false, 0.2, t0);
  CHECK(limiter.TryAcquire("GET /a", t0));
  CHECK_FALSE(limiter.TryAcquire("GET /b", t0));
  CHECK_FALSE(limiter.TryAcquire("GET /a", t0 + 200ms));
  limiter.OnTooManyRequests("GET /a", true, 0.5, t0);
  auto wait = limiter.TryAcquire("GET /c", t0 + 100ms);
  REQUIRE(wait);
  CHECK(*wait == t0 + 500ms);
}

TEST_CASE("absurd reset times are capped") {
  RateLimiter limiter;
  auto t0 = RateLimiter::Clock::now();
  limiter.Update("GET /z", Headers(1, 0, 1e30), t0);
  auto wait = limiter.TryAcquire("GET /z", t0);
  REQUIRE(wait);
  CHECK(*wait <= t0 + 24h);
}

TEST_CASE("a route the server moves to another bucket takes that bucket's limit") {
  RateLimiter limiter;
  auto now = RateLimiter::Clock::now();
  const std::string route = "GET /guilds/7/channels";
  limiter.Update(route, Headers(5, 0, 10, "b1"), now);
  CHECK(limiter.TryAcquire(route, now).has_value());  // b1 is spent
  limiter.Update(route, Headers(5, 1, 10, "b2"), now);
  CHECK_FALSE(limiter.TryAcquire(route, now).has_value());  // b2's last slot
  CHECK(limiter.TryAcquire(route, now).has_value());
  limiter.Update(route, Headers(5, 1, 10, "b1"), now);  // and back
  CHECK_FALSE(limiter.TryAcquire(route, now).has_value());
  CHECK(limiter.TryAcquire(route, now).has_value());
}

}  // namespace rate_limiter_test
