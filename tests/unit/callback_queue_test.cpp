// The callback queue and Completion: the core of "callbacks only inside RunCallbacks, each operation ends
// once".
#include "core/callback_queue.hpp"
#include "core/completion.hpp"
#include "core/game_thread.hpp"
#include "core/logger.hpp"

#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace callback_queue_test {

using platformpp::ClientResult;
using platformpp::ErrorType;
using platformpp::core::CallbackQueue;
using platformpp::core::Completion;
using platformpp::core::PostEvent;

TEST_CASE("events run only when drained, in order, on the draining thread") {
  CallbackQueue queue;
  std::vector<int> seen;
  auto drainer = std::this_thread::get_id();
  for (int i = 0; i < 3000; ++i) {  // spans several chunks
    PostEvent(queue, [&seen, i, drainer] {
      CHECK(std::this_thread::get_id() == drainer);
      seen.push_back(i);
    });
  }
  CHECK(seen.empty());
  CHECK(queue.PendingCount() == 3000);
  queue.Drain();
  REQUIRE(seen.size() == 3000);
  for (int i = 0; i < 3000; ++i)
    CHECK(seen[static_cast<std::size_t>(i)] == i);
  CHECK(queue.PendingCount() == 0);
}

TEST_CASE("what a callback queues waits for the next drain, and nested drains do nothing") {
  CallbackQueue queue;
  int runs = 0;
  PostEvent(queue, [&] {
    ++runs;
    PostEvent(queue, [&] { ++runs; });
    queue.Drain();  // nested: returns at once
  });
  queue.Drain();
  CHECK(runs == 1);
  queue.Drain();
  CHECK(runs == 2);
}

TEST_CASE("pushes from another thread are delivered on the draining thread") {
  CallbackQueue queue;
  std::atomic<int> pushed{0};
  int delivered = 0;
  std::thread producer([&] {
    for (int i = 0; i < 10000; ++i) {
      PostEvent(queue, [&delivered] { ++delivered; });
      ++pushed;
    }
  });
  while (pushed.load() < 10000)
    queue.Drain();
  producer.join();
  queue.Drain();
  CHECK(delivered == 10000);
}

TEST_CASE(
    "the game-thread latch: a nested entry goes through, a second thread is refused until the first leaves") {
  using Entry = platformpp::core::GameThreadLatch::Entry;
  CallbackQueue queue;
  auto& latch = queue.GameThread();
  REQUIRE(latch.Enter() == Entry::First);
  CHECK(latch.Enter() == Entry::Nested);
  Entry other = Entry::First;
  std::thread([&] { other = latch.Enter(); }).join();
  CHECK(other == Entry::Refused);
  latch.Leave();
  std::thread([&] {
    other = latch.Enter();
    latch.Leave();
  }).join();
  CHECK(other == Entry::First);  // turns may be taken
}

TEST_CASE("a refused claim logs one error for the first refusal, then one per 1,000") {
  auto queue = std::make_shared<CallbackQueue>();
  platformpp::core::Logger logger(queue);
  std::vector<std::string> errors;
  logger.AddCallback(
      [&](std::string message, platformpp::LoggingSeverity) { errors.push_back(std::move(message)); },
      platformpp::LoggingSeverity::Error);
  {
    platformpp::core::GameThreadClaim held(*queue, logger, "RunCallbacks");
    REQUIRE_FALSE(held.Refused());
    std::thread([&] {
      for (int i = 0; i < 2000; ++i) {
        platformpp::core::GameThreadClaim refused(*queue, logger, "WaitForCallbacks");
        CHECK(refused.Refused());
      }
    }).join();
  }
  queue->Drain();
  REQUIRE(errors.size() == 3);  // the 1st, the 1,000th and the 2,000th
  CHECK(errors[0].find("WaitForCallbacks was called while another thread was inside") != std::string::npos);
  CHECK(errors[2].find("(2000 so far)") != std::string::npos);
  // Released: this thread (or another) may claim again.
  const platformpp::core::GameThreadClaim again(*queue, logger, "RunCallbacks");
  CHECK_FALSE(again.Refused());
}

TEST_CASE("a completion delivers its result exactly once") {
  auto queue = std::make_shared<CallbackQueue>();
  int calls = 0;
  std::string got;
  Completion<std::string> completion(queue, [&](const ClientResult& result, std::string value) {
    ++calls;
    CHECK(result.Successful());
    got = std::move(value);
  });
  CHECK(static_cast<bool>(completion));
  completion({}, "first");
  completion({}, "second");  // ignored
  CHECK_FALSE(static_cast<bool>(completion));
  CHECK(calls == 0);  // not before RunCallbacks
  queue->Drain();
  CHECK(calls == 1);
  CHECK(got == "first");
}

TEST_CASE("a completion dropped unfinished reports Aborted, or ClientDestroyed during shutdown") {
  auto queue = std::make_shared<CallbackQueue>();
  std::vector<ErrorType> types;
  {
    Completion<int> dropped(queue, [&](const ClientResult& r, int) { types.push_back(r.Type()); });
  }
  queue->Drain();
  REQUIRE(types.size() == 1);
  CHECK(types[0] == ErrorType::Aborted);

  queue->BeginShutdown();
  {
    Completion<int> dropped(queue, [&](const ClientResult& r, int) { types.push_back(r.Type()); });
  }
  queue->Shutdown();
  REQUIRE(types.size() == 2);
  CHECK(types[1] == ErrorType::ClientDestroyed);
}

TEST_CASE("shutdown completes queued operations with ClientDestroyed and drops events") {
  auto queue = std::make_shared<CallbackQueue>();
  int events = 0;
  std::vector<ErrorType> results;
  PostEvent(*queue, [&] { ++events; });
  Completion<> succeeded(queue, [&](const ClientResult& r) { results.push_back(r.Type()); });
  succeeded({});  // succeeded but not delivered yet: the Client goes away first
  queue->Shutdown();
  CHECK(events == 0);
  REQUIRE(results.size() == 1);
  CHECK(results[0] == ErrorType::ClientDestroyed);

  // Closed: nothing runs any more, not even for completions dropped later.
  {
    Completion<> late(queue, [&](const ClientResult& r) { results.push_back(r.Type()); });
  }
  queue->Drain();
  CHECK(results.size() == 1);
}

TEST_CASE("a callback that shuts the queue down mid-drain: the rest end as ClientDestroyed, nothing after") {
  auto queue = std::make_shared<CallbackQueue>();
  std::vector<std::string> log;
  Completion<> first(queue, [&](const ClientResult& r) {
    log.push_back("first:" + std::string(platformpp::ErrorTypeToString(r.Type())));
    queue->Shutdown();  // what destroying the Client does
    log.emplace_back("after-shutdown");
  });
  Completion<> second(queue, [&](const ClientResult& r) {
    log.push_back("second:" + std::string(platformpp::ErrorTypeToString(r.Type())));
    // Operations started from a cancelled callback also end, once.
    Completion<> third(queue, [&](const ClientResult& r3) {
      log.push_back("third:" + std::string(platformpp::ErrorTypeToString(r3.Type())));
    });
  });
  first({});
  second({});
  queue->Drain();
  std::vector<std::string> expected = {"first:None", "second:ClientDestroyed", "third:ClientDestroyed",
                                       "after-shutdown"};
  CHECK(log == expected);
  queue->Drain();
  CHECK(log.size() == expected.size());
}

TEST_CASE("an exception from a callback leaves the rest queued in order") {
  CallbackQueue queue;
  std::vector<int> seen;
  PostEvent(queue, [&] { seen.push_back(1); });
  PostEvent(queue, [&] { throw std::runtime_error("game bug"); });
  PostEvent(queue, [&] { seen.push_back(3); });
  CHECK_THROWS_AS(queue.Drain(), std::runtime_error);
  CHECK(seen == std::vector<int>{1});
  queue.Drain();
  CHECK(seen == std::vector<int>{1, 3});
}

TEST_CASE("large callables are stored out of line and still run once") {
  CallbackQueue queue;
  std::string big(1000, 'x');
  std::array<char, 200> payload{};
  payload[199] = 'z';
  std::string got;
  PostEvent(queue, [&got, big, payload] { got = big + payload[199]; });
  queue.Drain();
  CHECK(got.size() == 1001);
  CHECK(got.back() == 'z');
}

}  // namespace callback_queue_test
