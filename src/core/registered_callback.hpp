#pragma once
// A callback the game registers for an event (the Set*Callback methods), and the one rule every feature
// follows for it: an event is queued with a reference to the registration, not a copy of the callback, so the
// callback that runs inside RunCallbacks is the one registered when the event is delivered. Replacing it
// affects every event still queued; clearing it drops them. Thread-safe; the lock is never held while the
// callback runs, so a callback may register callbacks itself.

#include "core/completion.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>

namespace platformpp::core {

template <class Callback>
class RegisteredCallback {
 public:
  RegisteredCallback() : state_(std::make_shared<State>()) {}
  RegisteredCallback(const RegisteredCallback&) = delete;
  RegisteredCallback& operator=(const RegisteredCallback&) = delete;

  /// Registers `callback` (an empty one clears the registration). Any thread.
  void Set(Callback callback) {
    auto shared = callback ? std::make_shared<Callback>(std::move(callback)) : nullptr;
    std::lock_guard lock(state_->mutex);
    state_->set.store(shared != nullptr, std::memory_order_release);
    state_->callback = std::move(shared);
  }

  /// Whether an event posted now would call anything: features skip building events nobody listens to.
  /// A flag, not the lock: stores ask for every change they find, on the network thread's hot path.
  bool IsSet() const { return state_->set.load(std::memory_order_acquire); }

  /// Post, only when a callback is registered now: what a store calls for each change it finds, so that
  /// nothing is queued for an event nobody listens to.
  template <class... Args>
  void PostIfSet(CallbackQueue& queue, Args&&... args) const {
    if (IsSet()) Post(queue, std::forward<Args>(args)...);
  }

  /// Queues one event with `args`; inside RunCallbacks it calls the callback registered at that moment, if
  /// any. Dropped, like every plain event, when the Client is destroyed first.
  template <class... Args>
  void Post(CallbackQueue& queue, Args&&... args) const {
    PostEvent(queue, [state = state_, args = std::make_tuple(std::forward<Args>(args)...)]() mutable {
      if (std::shared_ptr<Callback> callback = state->Current()) std::apply(*callback, std::move(args));
    });
  }

  /// Post, and `after()` on the game thread once the callback returned (or at once when none is registered):
  /// for a feature that keeps what the event names readable until the game has heard of it. Not called when
  /// the Client is destroyed first.
  template <class After, class... Args>
  void PostThen(CallbackQueue& queue, After after, Args&&... args) const {
    PostEvent(queue, [state = state_, after = std::move(after),
                      args = std::make_tuple(std::forward<Args>(args)...)]() mutable {
      struct Finally {
        After& run;
        ~Finally() { run(); }
      } finally{after};
      if (std::shared_ptr<Callback> callback = state->Current()) std::apply(*callback, std::move(args));
    });
  }

 private:
  // Shared with the queued events, so that an event never points into a feature that is gone.
  struct State {
    mutable std::mutex mutex;
    std::shared_ptr<Callback> callback;
    std::atomic<bool> set{false};  // callback != nullptr, readable without the lock
    std::shared_ptr<Callback> Current() const {
      std::lock_guard lock(mutex);
      return callback;
    }
  };
  std::shared_ptr<State> state_;
};

}  // namespace platformpp::core
