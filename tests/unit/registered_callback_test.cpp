// The one rule of the game's event callbacks (core::RegisteredCallback): the callback that runs is the one
// registered when the event is delivered inside RunCallbacks, not when it was queued.
#include "core/registered_callback.hpp"
#include "core/callback_queue.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace registered_callback_test {

using platformpp::core::CallbackQueue;
using platformpp::core::RegisteredCallback;
using Callback = std::function<void(int, std::string)>;

TEST_CASE("an event runs the callback registered at delivery, not the one of its moment") {
  CallbackQueue queue;
  RegisteredCallback<Callback> registered;
  std::vector<std::string> seen;
  CHECK_FALSE(registered.IsSet());
  registered.Set([&](int n, const std::string& s) { seen.push_back("first " + std::to_string(n) + s); });
  CHECK(registered.IsSet());
  registered.Post(queue, 1, std::string("a"));
  registered.Post(queue, 2, std::string("b"));
  registered.Set([&](int n, const std::string& s) { seen.push_back("second " + std::to_string(n) + s); });
  CHECK(seen.empty());  // nothing runs outside the drain
  queue.Drain();
  CHECK(seen == std::vector<std::string>{"second 1a", "second 2b"});
}

TEST_CASE("clearing the registration drops the events still queued") {
  CallbackQueue queue;
  RegisteredCallback<Callback> registered;
  int calls = 0;
  registered.Set([&](int, const std::string&) { ++calls; });
  registered.Post(queue, 1, std::string());
  registered.Set(nullptr);
  CHECK_FALSE(registered.IsSet());
  queue.Drain();
  CHECK(calls == 0);
  // Registering again later affects only what is delivered from then on.
  registered.Set([&](int, const std::string&) { ++calls; });
  registered.Post(queue, 2, std::string());
  queue.Drain();
  CHECK(calls == 1);
}

TEST_CASE("an event outlives the feature that queued it, and a callback may register callbacks") {
  CallbackQueue queue;
  std::vector<int> seen;
  auto registered = std::make_unique<RegisteredCallback<std::function<void(int)>>>();
  registered->Set([&](int n) { seen.push_back(n); });
  registered->Post(queue, 7);
  registered.reset();  // the feature is gone; its queued event still has the registration it was queued with
  queue.Drain();
  CHECK(seen == std::vector<int>{7});

  RegisteredCallback<std::function<void()>> self;
  int runs = 0;
  self.Set([&] {
    ++runs;
    self.Set(nullptr);  // no deadlock: the lock is not held while the callback runs
  });
  self.Post(queue);
  self.Post(queue);
  queue.Drain();
  CHECK(runs == 1);
}

TEST_CASE("arguments are moved into the callback, not copied per reader") {
  CallbackQueue queue;
  RegisteredCallback<std::function<void(std::vector<int>)>> registered;
  std::vector<int> got;
  registered.Set([&](std::vector<int> v) { got = std::move(v); });
  registered.Post(queue, std::vector<int>(1000, 3));
  queue.Drain();
  CHECK(got.size() == 1000);
}

TEST_CASE("events of a destroyed Client are dropped, never delivered") {
  CallbackQueue queue;
  RegisteredCallback<std::function<void()>> registered;
  int calls = 0;
  registered.Set([&] { ++calls; });
  registered.Post(queue);
  queue.BeginShutdown();
  queue.Shutdown();
  queue.Drain();
  CHECK(calls == 0);
}

}  // namespace registered_callback_test
