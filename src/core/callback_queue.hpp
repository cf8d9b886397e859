#pragma once
// The queue between the network side and the game thread. Anything may push (any thread); only RunCallbacks
// drains it, on the game thread. Destroying a Client shuts it down: every queued or later-dropped operation
// is completed with ClientDestroyed right there, plain events are dropped, and nothing runs afterwards.

#include "core/game_thread.hpp"
#include "core/queued_callback.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace platformpp::core {

class CallbackQueue {
 public:
  CallbackQueue() = default;
  ~CallbackQueue();
  CallbackQueue(const CallbackQueue&) = delete;
  CallbackQueue& operator=(const CallbackQueue&) = delete;

  /// Queues `f`, a callable taking CallbackMode. Thread-safe. After Shutdown has finished, `f` is destroyed
  /// with CallbackMode::Discard and never called for real.
  template <class F>
  void Push(F&& f) {
    bool queued = false;
    bool wake = false;
    {
      std::lock_guard lock(mutex_);
      if (!closed_) {
        // Counted only once filled: a callable too large for the slot is allocated, and if that throws, the
        // slot must not stay counted, empty, for Drain to call.
        Slot().Emplace(std::forward<F>(f));
        ++pending_.back()->count;
        ++pendingCount_;
        hasPending_.store(true, std::memory_order_release);
        queued = true;
        wake = waiters_ > 0;
      }
    }
    if (!queued) {
      f(CallbackMode::Discard);
      return;
    }
    // After unlocking: a woken waiter (on one CPU it runs at once) must not find the mutex still held and go
    // back to sleep on it. It checks the queue under the mutex, so no wake-up is lost.
    if (wake) ready_.notify_all();
  }

  /// Runs what was queued before the call, in order. Game thread only; a nested call from inside a callback
  /// returns at once. If a callback throws, the exception propagates and the rest stays queued, in order.
  void Drain();

  /// From now on operations that end report ClientDestroyed and RunCallbacks delivers nothing. Any thread.
  void BeginShutdown() noexcept { shuttingDown_.store(true, std::memory_order_release); }

  /// Blocks until something is queued or `timeout` passes; true when something is queued. For loops that have
  /// nothing else to do (bots, tools, tests): a game keeps calling Drain once a frame instead.
  bool Wait(std::chrono::nanoseconds timeout);

  /// Completes everything queued (also what callbacks queue meanwhile) in CallbackMode::Cancel, then closes.
  /// Game thread only; may be called from inside a callback that Drain is running.
  void Shutdown() noexcept;

  bool ShuttingDown() const noexcept { return shuttingDown_.load(std::memory_order_acquire); }
  /// Which thread is inside the owner's RunCallbacks or WaitForCallbacks (GameThreadClaim). Any thread.
  GameThreadLatch& GameThread() noexcept { return gameThread_; }
  /// Number of callbacks queued and not yet run (for diagnostics and tests).
  std::size_t PendingCount() const;
  /// PendingCount() > 0 without taking the lock, for the loops that pump a threadless context until a
  /// callback is ready. Game thread only.
  bool HasPending() const noexcept {
    return hasPending_.load(std::memory_order_acquire) || drainChunk_ < draining_.size();
  }

 private:
  // Chunks grow from 16 slots (about 1 KiB) to 1,024 (72 KiB) within a burst: an idle Client keeps a few
  // small ones, not the worst case (many Clients live in one process), and a burst of a million callbacks
  // still costs one allocation per 1,024.
  static constexpr std::size_t kMinChunkSlots = 16;
  static constexpr std::size_t kMaxChunkSlots = 1024;
  struct Chunk {
    explicit Chunk(std::size_t slotCount) : slots(new CallbackSlot[slotCount]), capacity(slotCount) {}
    std::unique_ptr<CallbackSlot[]> slots;
    std::size_t capacity;
    std::size_t count = 0;
  };
  using ChunkList = std::vector<std::unique_ptr<Chunk>>;

  CallbackSlot& Slot();  // mutex_ held; the next free slot, counted by the caller once filled
  bool TakePending();    // moves pending_ to the end of draining_; false when nothing was pending
  void RunDraining(CallbackMode mode);
  void Recycle();

  mutable std::mutex mutex_;
  ChunkList pending_;
  ChunkList spare_;
  std::size_t pendingCount_ = 0;
  std::atomic<bool> hasPending_{false};  // pendingCount_ > 0, readable without the lock
  int waiters_ = 0;
  std::condition_variable ready_;
  bool closed_ = false;
  std::atomic<bool> shuttingDown_{false};
  GameThreadLatch gameThread_;

  // Game thread only.
  ChunkList draining_;
  std::size_t drainChunk_ = 0;
  std::size_t drainSlot_ = 0;
  bool running_ = false;
  bool shutdownStarted_ = false;
};

}  // namespace platformpp::core
