#include "core/game_thread.hpp"

#include "core/callback_queue.hpp"
#include "core/logger.hpp"

#include <string>

namespace platformpp::core {

GameThreadLatch::Entry GameThreadLatch::Enter() noexcept {
  const std::thread::id self = std::this_thread::get_id();
  std::thread::id inside;
  // Acquire: what the previous thread inside wrote is visible to this one (a hand-over between threads that
  // take turns is allowed; only overlapping is not).
  if (inside_.compare_exchange_strong(inside, self, std::memory_order_acquire, std::memory_order_relaxed))
    return Entry::First;
  return inside == self ? Entry::Nested : Entry::Refused;
}

void GameThreadLatch::Leave() noexcept {
  inside_.store(std::thread::id{}, std::memory_order_release);
}

void LogRefusal(GameThreadLatch& latch, Logger& logger, std::string_view call) noexcept {
  const std::uint64_t count = latch.CountRefusal();
  if (count != 1 && count % 1000 != 0) return;
  try {
    logger.Error(std::string(call) +
                 " was called while another thread was inside RunCallbacks or WaitForCallbacks of the same "
                 "object, and refused (" +
                 std::to_string(count) +
                 " so far): one object's callbacks run on one thread at a time; other methods may be called "
                 "from any thread");
  } catch (...) {
    // Out of memory while refusing: the refusal stands without its line.
  }
}

GameThreadClaim::GameThreadClaim(CallbackQueue& queue, Logger& logger, std::string_view call) noexcept
    : queue_(queue), entry_(queue.GameThread().Enter()) {
  if (entry_ == GameThreadLatch::Entry::Refused) LogRefusal(queue.GameThread(), logger, call);
}

GameThreadClaim::~GameThreadClaim() {
  if (entry_ == GameThreadLatch::Entry::First) queue_.GameThread().Leave();
}

}  // namespace platformpp::core
