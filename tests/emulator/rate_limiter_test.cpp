#include <doctest/doctest.h>

#include "http/rate_limiter.hpp"

namespace rate_limiter_test {

using namespace platformpp::emulator;

namespace {
constexpr std::int64_t kNow = 1'800'000'000'000;
RateLimitSettings settings(int limit, std::int64_t window_ms, int global) {
  return {limit, window_ms, global};
}
}  // namespace

TEST_CASE("a bucket of limit N passes N requests and rejects the N+1th") {
  RateLimiter limiter(settings(5, 1000, 0));
  for (int i = 0; i < 5; ++i) {
    const auto decision = limiter.check("GET", "/users/@me", "GET /users/@me", "alice", kNow + i);
    REQUIRE(decision.allowed);
    CHECK(decision.limit == 5);
    CHECK(decision.remaining == 4 - i);
    CHECK(decision.reset_at_ms == kNow + 1000);
  }
  const auto rejected = limiter.check("GET", "/users/@me", "GET /users/@me", "alice", kNow + 10);
  CHECK_FALSE(rejected.allowed);
  CHECK_FALSE(rejected.global);
  CHECK(rejected.remaining == 0);
  CHECK(rejected.retry_after_ms == 990);
  CHECK(rejected.reset_after_ms == 990);
}

TEST_CASE("windows reset when they end") {
  RateLimiter limiter(settings(1, 300, 0));
  CHECK(limiter.check("GET", "/a", "GET /a", "id", kNow).allowed);
  CHECK_FALSE(limiter.check("GET", "/a", "GET /a", "id", kNow + 299).allowed);
  const auto after = limiter.check("GET", "/a", "GET /a", "id", kNow + 300);
  CHECK(after.allowed);
  CHECK(after.reset_at_ms == kNow + 600);
}

TEST_CASE("buckets are per route and per identity") {
  RateLimiter limiter(settings(1, 1000, 0));
  CHECK(limiter.check("GET", "/a", "GET /a", "alice", kNow).allowed);
  CHECK(limiter.check("GET", "/b", "GET /b", "alice", kNow).allowed);
  CHECK(limiter.check("GET", "/a", "GET /a", "bob", kNow).allowed);
  CHECK_FALSE(limiter.check("GET", "/a", "GET /a", "alice", kNow).allowed);
  CHECK(limiter.check("GET", "/a", "GET /a", "alice", kNow).bucket == bucket_id("GET /a"));
}

TEST_CASE("the global limit of N per second passes N and rejects N+1 across routes") {
  RateLimiter limiter(settings(100, 1000, 3));
  CHECK(limiter.check("GET", "/a", "GET /a", "alice", kNow).allowed);
  CHECK(limiter.check("GET", "/b", "GET /b", "alice", kNow).allowed);
  CHECK(limiter.check("GET", "/c", "GET /c", "alice", kNow).allowed);
  const auto rejected = limiter.check("GET", "/d", "GET /d", "alice", kNow + 400);
  CHECK_FALSE(rejected.allowed);
  CHECK(rejected.global);
  CHECK(rejected.retry_after_ms == 600);
  CHECK(limiter.check("GET", "/d", "GET /d", "bob", kNow).allowed);
  CHECK(limiter.check("GET", "/d", "GET /d", "alice", kNow + 1000).allowed);

  limiter.set_global_per_second(0);  // off
  for (int i = 0; i < 10; ++i)
    CHECK(limiter.check("GET", "/e", "GET /e", "alice", kNow + 1000).allowed);
}

TEST_CASE("rules group routes into a shared configured bucket; reset restores defaults") {
  RateLimiter limiter(settings(50, 1000, 0));
  limiter.add_rule({*RoutePattern::parse("* /lobbies/**"), 2, 300});
  const auto first = limiter.check("POST", "/lobbies", "POST /lobbies", "alice", kNow);
  CHECK(first.limit == 2);
  CHECK(first.reset_after_ms == 300);
  CHECK(limiter.check("PUT", "/lobbies/1/members/2", "PUT /lobbies/{id}/members/{user}", "alice", kNow)
            .allowed);
  const auto third = limiter.check("GET", "/lobbies/1", "GET /lobbies/{id}", "alice", kNow);
  CHECK_FALSE(third.allowed);
  CHECK(third.bucket == first.bucket);
  CHECK(limiter.rules().size() == 1);

  limiter.add_rule({*RoutePattern::parse("* /lobbies/**"), 10, 300});  // replaces the same route
  CHECK(limiter.rules().size() == 1);
  CHECK(limiter.check("GET", "/lobbies/1", "GET /lobbies/{id}", "alice", kNow).allowed);

  limiter.reset_to_defaults();
  CHECK(limiter.rules().empty());
  CHECK(limiter.check("GET", "/lobbies/1", "GET /lobbies/{id}", "alice", kNow).limit == 50);
}

TEST_CASE("seconds are formatted with three decimals") {
  CHECK(format_seconds(300) == "0.300");
  CHECK(format_seconds(1500) == "1.500");
  CHECK(format_seconds(1'800'000'000'123) == "1800000000.123");
  CHECK(format_seconds(0) == "0.000");
}

}  // namespace rate_limiter_test
