// The Gateway URL shared by the Clients of one IoContext: one fetch at a time, waiters woken once when it
// ends, a failed or abandoned fetch handed on, a URL that failed forgotten.
#include "core/asio_prelude.hpp"

#include "gateway/gateway_url_cache.hpp"

#include <boost/asio/io_context.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace gateway_url_cache_test {

using platformpp::gateway::GatewayUrlCache;

constexpr const char* kApi = "https://api.example/api/v10";

TEST_CASE("GatewayUrlCache: the first Client fetches, the others wait and are woken once by its answer") {
  GatewayUrlCache cache;
  int woken = 0;
  auto first = cache.Find(kApi, [&] { ++woken; });
  REQUIRE(first.fetch);
  CHECK_FALSE(first.url);
  CHECK(woken == 0);  // the fetcher's own wake-up is dropped

  auto second = cache.Find(kApi, [&] { ++woken; });
  auto third = cache.Find(kApi, [&] { ++woken; });
  CHECK_FALSE(second.fetch);
  CHECK_FALSE(second.url);
  CHECK_FALSE(third.fetch);

  first.fetch.Store("wss://gateway.example");
  CHECK_FALSE(first.fetch);
  CHECK(woken == 2);
  first.fetch = {};  // a stored Fetch gives nothing up again
  CHECK(woken == 2);

  auto later = cache.Find(kApi, [&] { ++woken; });
  REQUIRE(later.url);
  CHECK(*later.url == "wss://gateway.example");
  CHECK_FALSE(later.fetch);
  CHECK(woken == 2);

  // Another API base is another entry.
  auto other = cache.Find("https://other.example/api/v10", {});
  CHECK(other.fetch);
  CHECK_FALSE(other.url);
}

TEST_CASE("GatewayUrlCache: a fetch that ends without an answer wakes the waiters; the next one fetches") {
  GatewayUrlCache cache;
  int woken = 0;
  {
    auto fetcher = cache.Find(kApi, {});
    REQUIRE(fetcher.fetch);
    CHECK_FALSE(cache.Find(kApi, [&] { ++woken; }).fetch);
    CHECK(woken == 0);
  }  // the fetching Client failed, disconnected or was destroyed
  CHECK(woken == 1);
  auto next = cache.Find(kApi, [&] { ++woken; });
  CHECK(next.fetch);
  CHECK_FALSE(next.url);

  // Moving the right to fetch moves it, and only the last holder gives it up.
  GatewayUrlCache::Fetch moved = std::move(next.fetch);
  CHECK_FALSE(next.fetch);
  CHECK(moved);
  CHECK_FALSE(cache.Find(kApi, [&] { ++woken; }).fetch);
  moved = GatewayUrlCache::Fetch{};
  CHECK(woken == 2);
}

TEST_CASE("GatewayUrlCache: Forget drops the URL that failed, not a newer one") {
  GatewayUrlCache cache;
  cache.Find(kApi, {}).fetch.Store("wss://old.example");
  cache.Forget(kApi, "wss://elsewhere.example");  // not the cached one: kept
  REQUIRE(cache.Find(kApi, {}).url);
  cache.Forget(kApi, "wss://old.example");
  auto again = cache.Find(kApi, {});
  CHECK_FALSE(again.url);
  REQUIRE(again.fetch);
  again.fetch.Store("wss://new.example");
  cache.Forget(kApi, "wss://old.example");  // a late report about the old URL
  auto current = cache.Find(kApi, {});
  REQUIRE(current.url);
  CHECK(*current.url == "wss://new.example");
  cache.Forget("https://unknown.example", "wss://x");  // nothing to forget
}

TEST_CASE("GatewayUrlCache: one per Asio context, made on first use") {
  boost::asio::io_context a;
  boost::asio::io_context b;
  CHECK(&GatewayUrlCache::Of(a) == &GatewayUrlCache::Of(a));
  CHECK(&GatewayUrlCache::Of(a) != &GatewayUrlCache::Of(b));
  GatewayUrlCache::Of(a).Find(kApi, {}).fetch.Store("wss://a.example");
  CHECK(GatewayUrlCache::Of(a).Find(kApi, {}).url);
  CHECK_FALSE(GatewayUrlCache::Of(b).Find(kApi, {}).url);
}

TEST_CASE("GatewayUrlCache: Clients on several threads: never two fetches at once, every waiter woken") {
  GatewayUrlCache cache;
  std::atomic<int> fetching{0};
  std::atomic<int> overlaps{0};
  std::atomic<int> fetches{0};
  constexpr int kThreads = 8;
  constexpr int kRounds = 2000;
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRounds; ++i) {
        std::atomic<bool> woken{false};
        auto lookup = cache.Find(kApi, [&] { woken = true; });
        if (lookup.fetch) {
          if (fetching.fetch_add(1) != 0) ++overlaps;
          ++fetches;
          fetching.fetch_sub(1);
          if ((i + t) % 3 == 0) {
            lookup.fetch.Store("wss://g.example");
          } else {
            lookup.fetch = {};  // failed
          }
        } else if (lookup.url) {
          if (i % 5 == 0) cache.Forget(kApi, *lookup.url);
        } else {
          while (!woken)  // the fetch in flight ends on another thread
            std::this_thread::yield();
        }
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  CHECK(overlaps == 0);
  CHECK(fetches > 0);
}

}  // namespace gateway_url_cache_test
