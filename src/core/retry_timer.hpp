#pragma once
// Runs tasks after a delay on the Client's network context: the outbox's retries, the voice reconnects. The
// header stays free of Asio (the one small translation unit behind it holds the timer).

#include <chrono>
#include <functional>
#include <memory>

namespace platformpp {
class IoContext;
}

namespace platformpp::core {

class RetryTimer {
 public:
  explicit RetryTimer(IoContext& context);
  ~RetryTimer();
  RetryTimer(const RetryTimer&) = delete;
  RetryTimer& operator=(const RetryTimer&) = delete;

  /// Runs `task` on the network thread after `delay`, unless Shutdown came first. Thread-safe.
  void After(std::chrono::milliseconds delay, std::function<void()> task);
  /// Cancels every pending task: none runs from now on (their functions are destroyed, not called), and a
  /// task already running has returned. Not from inside a task.
  void Shutdown();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace platformpp::core
