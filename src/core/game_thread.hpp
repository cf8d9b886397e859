#pragma once
// One owner's RunCallbacks and WaitForCallbacks run on one thread at a time. Both touch state that only one
// thread may (the callback queue's drain position, a threadless IoContext's pump), so a second thread that
// calls either while a first is inside is refused, with an error in the log, rather than left to race it. The
// same thread's nested call (a callback calling RunCallbacks) goes through. docs/architecture.md, "Threads".

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <thread>

namespace platformpp::core {

class CallbackQueue;
class Logger;

/// Which thread is inside the callbacks of one queue's owner. It lives in the queue, which outlives an owner
/// that a callback destroys.
class GameThreadLatch {
 public:
  enum class Entry { First, Nested, Refused };

  /// First: the calling thread is now inside; Nested: it already was; Refused: another thread is.
  Entry Enter() noexcept;
  /// Only after an Enter that returned First.
  void Leave() noexcept;
  /// Counts a refusal and returns how many there have been, this one included.
  std::uint64_t CountRefusal() noexcept { return refusals_.fetch_add(1, std::memory_order_relaxed) + 1; }

 private:
  std::atomic<std::thread::id> inside_{};
  std::atomic<std::uint64_t> refusals_{0};
};

/// Counts a refusal of `call` on `latch` and logs it at Error through `logger`: the first refusal, then one
/// line per 1,000. Never throws. (GameThreadClaim calls it; the C ABI's run_callbacks, which has a latch of
/// its own, too.)
void LogRefusal(GameThreadLatch& latch, Logger& logger, std::string_view call) noexcept;

/// A RunCallbacks' or WaitForCallbacks' hold on its queue's game thread, let go when the call ends (also when
/// a callback throws).
class GameThreadClaim {
 public:
  /// Enters `queue`'s latch. When another thread is inside, the claim is Refused and LogRefusal reports it.
  GameThreadClaim(CallbackQueue& queue, Logger& logger, std::string_view call) noexcept;
  ~GameThreadClaim();
  GameThreadClaim(const GameThreadClaim&) = delete;
  GameThreadClaim& operator=(const GameThreadClaim&) = delete;
  GameThreadClaim(GameThreadClaim&&) = delete;
  GameThreadClaim& operator=(GameThreadClaim&&) = delete;

  /// The call must return without touching the owner's game-thread state.
  bool Refused() const noexcept { return entry_ == GameThreadLatch::Entry::Refused; }
  /// Keeps the queue alive until the claim ends: a callback about to run may destroy the queue's owner.
  void KeepAlive(std::shared_ptr<CallbackQueue> queue) noexcept { keepAlive_ = std::move(queue); }

 private:
  std::shared_ptr<CallbackQueue> keepAlive_;  // declared first: let go after the latch is left
  CallbackQueue& queue_;
  GameThreadLatch::Entry entry_;
};

}  // namespace platformpp::core
