// The emulator's I/O threads (server/io_threads.hpp): what crosses between the service's thread and a
// lane's, in which order, in how many batches, and what happens once they are stopped.
#include "server/asio_prelude.hpp"

#include "server/io_threads.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <boost/asio/post.hpp>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

namespace io_threads_test {

using platformpp::emulator::IoThreads;
namespace net = boost::asio;

// Runs the service's io_context on this thread until `done` or 10 s.
void run_until(net::io_context& service, const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    service.restart();
    service.run_for(std::chrono::milliseconds(5));
  }
}

TEST_CASE("io threads: none: one lane on the service's io_context, whose handoffs run at once") {
  net::io_context service;
  IoThreads threads(service, 0);
  CHECK(threads.threads() == 0);
  auto& lane = threads.next();
  CHECK(&lane.context() == &service);
  int ran = 0;
  lane.to_stream([&] { ++ran; });
  lane.to_service([&] { ++ran; });
  CHECK(ran == 2);
}

TEST_CASE("io threads: what the service hands a lane during one handler runs there in order, as one batch") {
  net::io_context service;
  IoThreads threads(service, 2);
  REQUIRE(threads.threads() == 2);
  auto& first = threads.next();
  auto& second = threads.next();
  CHECK(&first != &second);
  CHECK(&threads.next() == &first);  // round robin
  CHECK(&first.context() != &service);

  std::vector<int> order;  // written on the lane's thread only
  std::thread::id lane_thread;
  std::promise<void> finished;
  net::post(service, [&] {
    for (int i = 0; i < 100; ++i) {
      first.to_stream([&, i] {
        order.push_back(i);
        lane_thread = std::this_thread::get_id();
        if (i == 99) finished.set_value();
      });
    }
  });
  auto done = finished.get_future();
  run_until(service, [&] { return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready; });
  REQUIRE(done.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
  CHECK(lane_thread != std::this_thread::get_id());
  REQUIRE(order.size() == 100);
  for (int i = 0; i < 100; ++i)
    CHECK(order[static_cast<std::size_t>(i)] == i);
  CHECK(first.stream_handoff()->batches() == 1);
}

TEST_CASE("io threads: what a lane hands the service runs on the service's thread, in order") {
  net::io_context service;
  IoThreads threads(service, 1);
  auto& lane = threads.next();
  std::vector<int> order;  // written on the service's thread (this one) only
  std::atomic<bool> wrong_thread = false;
  const auto main_thread = std::this_thread::get_id();
  net::post(service, [&] {
    lane.to_stream([&] {
      for (int i = 0; i < 50; ++i) {
        lane.to_service([&, i] {
          if (std::this_thread::get_id() != main_thread) wrong_thread = true;
          order.push_back(i);
        });
      }
    });
  });
  run_until(service, [&] { return order.size() == 50; });
  REQUIRE(order.size() == 50);
  for (int i = 0; i < 50; ++i)
    CHECK(order[static_cast<std::size_t>(i)] == i);
  CHECK_FALSE(wrong_thread);
}

TEST_CASE("io threads: once stopped, nothing more goes to a lane and what a lane hands over runs at once") {
  net::io_context service;
  IoThreads threads(service, 1);
  auto& lane = threads.next();
  threads.stop();
  bool streamed = false;
  bool served = false;
  lane.to_stream([&] { streamed = true; });
  lane.to_service([&] { served = true; });
  CHECK_FALSE(streamed);
  CHECK(served);
  service.restart();
  service.poll();  // nothing was queued for later either
  CHECK_FALSE(streamed);
}

}  // namespace io_threads_test
