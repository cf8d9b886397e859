#include "core/callback_queue.hpp"

#include <algorithm>

namespace platformpp::core {

CallbackQueue::~CallbackQueue() {
  // Normally Shutdown already ran; this only frees what a queue that was never shut down still holds.
  if (!closed_) {
    TakePending();
    RunDraining(CallbackMode::Discard);
  }
}

CallbackSlot& CallbackQueue::Slot() {
  if (pending_.empty() || pending_.back()->count == pending_.back()->capacity) {
    if (!spare_.empty()) {
      pending_.push_back(std::move(spare_.back()));
      spare_.pop_back();
    } else {
      const std::size_t previous = pending_.empty() ? 0 : pending_.back()->capacity;
      pending_.push_back(std::make_unique<Chunk>(std::clamp(2 * previous, kMinChunkSlots, kMaxChunkSlots)));
    }
  }
  Chunk& chunk = *pending_.back();
  return chunk.slots[chunk.count];
}

bool CallbackQueue::TakePending() {
  // Most calls find nothing (a game polls every frame; a bot process polls many Clients): no lock for those.
  // A callback posted right after this load waits for the next call, as it would after the lock.
  if (!hasPending_.load(std::memory_order_acquire)) return false;
  std::lock_guard lock(mutex_);
  if (pending_.empty()) return false;
  for (auto& chunk : pending_)
    draining_.push_back(std::move(chunk));
  pending_.clear();
  pendingCount_ = 0;
  hasPending_.store(false, std::memory_order_relaxed);
  return true;
}

void CallbackQueue::RunDraining(CallbackMode mode) {
  while (drainChunk_ < draining_.size()) {
    Chunk& chunk = *draining_[drainChunk_];
    while (drainSlot_ < chunk.count) {
      CallbackSlot& slot = chunk.slots[drainSlot_++];
      slot.Run(mode);
      // A callback may have shut the queue down (the Client was destroyed); Shutdown ran the rest.
      if (mode == CallbackMode::Deliver && shuttingDown_.load(std::memory_order_relaxed)) return;
    }
    ++drainChunk_;
    drainSlot_ = 0;
  }
}

void CallbackQueue::Recycle() {
  std::lock_guard lock(mutex_);
  for (auto& chunk : draining_) {
    chunk->count = 0;
    // Keep a few chunks for the next bursts; free the rest so one burst doesn't pin memory forever.
    if (spare_.size() < 4) spare_.push_back(std::move(chunk));
  }
  draining_.clear();
  drainChunk_ = 0;
  drainSlot_ = 0;
}

void CallbackQueue::Drain() {
  if (running_ || shuttingDown_.load(std::memory_order_relaxed)) return;
  // Only what was queued before this call runs now; what callbacks queue waits for the next RunCallbacks.
  if (drainChunk_ == draining_.size() && !TakePending()) return;
  running_ = true;
  struct Reset {
    bool& running;
    ~Reset() { running = false; }
  } reset{running_};
  RunDraining(CallbackMode::Deliver);
  // After a shutdown from inside a callback the chunks stay put: the callback that shut down was still
  // running from one of them. The destructor frees them.
  if (!shuttingDown_.load(std::memory_order_relaxed)) Recycle();
}

void CallbackQueue::Shutdown() noexcept {
  if (shutdownStarted_) return;
  shutdownStarted_ = true;
  BeginShutdown();
  bool wasRunning = running_;
  running_ = true;  // a RunCallbacks from inside a cancelled callback must not deliver anything
  for (;;) {
    try {
      RunDraining(CallbackMode::Cancel);
    } catch (...) {
      // A user callback threw while the Client is being destroyed: there is no one to hand it to. Keep going
      // so every other operation still ends exactly once.
      continue;
    }
    if (!TakePending()) break;
  }
  if (!wasRunning) Recycle();
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  running_ = wasRunning;
}

bool CallbackQueue::Wait(std::chrono::nanoseconds timeout) {
  std::unique_lock lock(mutex_);
  if (drainChunk_ < draining_.size()) return true;  // left over from a drain a callback interrupted
  ++waiters_;
  bool ready = ready_.wait_for(lock, timeout, [&] { return pendingCount_ > 0 || closed_; });
  --waiters_;
  return ready && pendingCount_ > 0;
}

std::size_t CallbackQueue::PendingCount() const {
  std::lock_guard lock(mutex_);
  std::size_t left = pendingCount_;
  for (std::size_t c = drainChunk_; c < draining_.size(); ++c) {
    left += draining_[c]->count - (c == drainChunk_ ? drainSlot_ : 0);
  }
  return left;
}

}  // namespace platformpp::core
