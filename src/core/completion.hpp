#pragma once
// The one way an SDK operation ends. A Completion owns the user's callback from the moment the operation
// starts; calling it queues the result for RunCallbacks, and dropping it unfinished queues a terminal result
// instead (ClientDestroyed while the Client is being destroyed, Aborted otherwise). So every operation ends
// exactly once by construction, whatever path the network side takes.

#include "core/callback_queue.hpp"

#include <platformpp/client_result.hpp>

#include <functional>
#include <memory>
#include <tuple>
#include <utility>

namespace platformpp::core {

ClientResult DestroyedResult();
ClientResult DroppedResult();

template <class... Args>
class Completion {
 public:
  using Callback = std::function<void(ClientResult, Args...)>;

  Completion() = default;
  Completion(std::shared_ptr<CallbackQueue> queue, Callback callback)
      : queue_(std::move(queue)), callback_(std::move(callback)) {}
  Completion(Completion&& other) noexcept
      : queue_(std::move(other.queue_)), callback_(std::move(other.callback_)) {}
  Completion& operator=(Completion&& other) noexcept {
    if (this != &other) {
      Abandon();
      queue_ = std::move(other.queue_);
      callback_ = std::move(other.callback_);
    }
    return *this;
  }
  Completion(const Completion&) = delete;
  Completion& operator=(const Completion&) = delete;
  ~Completion() { Abandon(); }

  /// True until the operation has been completed (or moved from).
  explicit operator bool() const noexcept { return queue_ != nullptr; }

  /// Queues `result` and `args` for the user's callback. Any thread; later calls do nothing.
  void operator()(ClientResult result, Args... args) {
    if (!queue_) return;
    auto queue = std::move(queue_);
    queue->Push([callback = std::move(callback_), result = std::move(result),
                 args = std::make_tuple(std::move(args)...)](CallbackMode mode) mutable {
      if (!callback || mode == CallbackMode::Discard) return;
      if (mode == CallbackMode::Deliver) {
        std::apply([&](auto&... values) { callback(std::move(result), std::move(values)...); }, args);
      } else {
        callback(DestroyedResult(), Args{}...);
      }
    });
  }

 private:
  void Abandon() noexcept {
    if (!queue_) return;
    try {
      (*this)(queue_->ShuttingDown() ? DestroyedResult() : DroppedResult(), Args{}...);
    } catch (...) {
      // Allocation failure while queueing: nothing left that could report it.
    }
  }

  std::shared_ptr<CallbackQueue> queue_;
  Callback callback_;
};

/// An operation whose callback carries no ClientResult (ending a call, listing audio devices): it ends
/// exactly once like a Completion, with its values inside RunCallbacks, or, when the Client is destroyed
/// first or the work is dropped on the way, with default values (no devices, a default device).
template <class... Args>
class PlainCompletion {
 public:
  using Callback = std::function<void(Args...)>;

  PlainCompletion(std::shared_ptr<CallbackQueue> queue, Callback callback)
      : queue_(std::move(queue)), callback_(std::move(callback)) {}
  PlainCompletion(PlainCompletion&& other) noexcept
      : queue_(std::move(other.queue_)), callback_(std::move(other.callback_)) {}
  PlainCompletion& operator=(PlainCompletion&& other) noexcept {
    if (this != &other) {
      Abandon();
      queue_ = std::move(other.queue_);
      callback_ = std::move(other.callback_);
    }
    return *this;
  }
  PlainCompletion(const PlainCompletion&) = delete;
  PlainCompletion& operator=(const PlainCompletion&) = delete;
  ~PlainCompletion() { Abandon(); }

  /// Queues `args` for the user's callback. Any thread; later calls do nothing.
  void operator()(Args... args) {
    if (!queue_) return;
    auto queue = std::move(queue_);
    queue->Push([callback = std::move(callback_),
                 args = std::make_tuple(std::move(args)...)](CallbackMode mode) mutable {
      if (!callback || mode == CallbackMode::Discard) return;
      if (mode == CallbackMode::Deliver) {
        std::apply([&](auto&... values) { callback(std::move(values)...); }, args);
      } else {
        callback(Args{}...);
      }
    });
  }

 private:
  void Abandon() noexcept {
    if (!queue_) return;
    try {
      (*this)(Args{}...);
    } catch (...) {
      // Allocation failure while queueing: nothing left that could report it.
    }
  }

  std::shared_ptr<CallbackQueue> queue_;
  Callback callback_;
};

/// Queues a plain event (no result): delivered inside RunCallbacks, dropped when the Client is destroyed.
template <class F>
void PostEvent(CallbackQueue& queue, F&& event) {
  queue.Push([event = std::forward<F>(event)](CallbackMode mode) mutable {
    if (mode == CallbackMode::Deliver) event();
  });
}

}  // namespace platformpp::core
