#pragma once
// A type-erased, move-only callable that is invoked at most once and stores small callables inline. The
// callback queue keeps these in fixed chunks so that draining a million of them costs one indirect call each,
// no allocation and no relocation.

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace platformpp::core {

/// How a queued callback is consumed: delivered to the user inside RunCallbacks; cancelled because the Client
/// is being destroyed (operations then report ClientDestroyed, plain events are dropped); or discarded
/// without any user code running (the queue is already closed).
enum class CallbackMode { Deliver, Cancel, Discard };

/// Raw storage for one queued callable. Trivially destructible on purpose: the owner consumes or destroys the
/// callable explicitly through `run`/`destroy`.
class CallbackSlot {
 public:
  static constexpr std::size_t kInlineSize = 56;

  template <class F>
  void Emplace(F&& f) {
    using Fn = std::decay_t<F>;
    if constexpr (sizeof(Fn) <= kInlineSize && alignof(Fn) <= alignof(std::max_align_t) &&
                  std::is_nothrow_move_constructible_v<Fn>) {
      ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
      run_ = [](CallbackSlot& self, CallbackMode mode) {
        Fn* fn = std::launder(reinterpret_cast<Fn*>(self.storage_));
        struct Destroy {
          Fn* fn;
          ~Destroy() { fn->~Fn(); }
        } destroy{fn};
        (*fn)(mode);
      };
    } else {
      Fn* heap = new Fn(std::forward<F>(f));
      ::new (static_cast<void*>(storage_)) Fn*(heap);
      run_ = [](CallbackSlot& self, CallbackMode mode) {
        Fn* fn = *std::launder(reinterpret_cast<Fn**>(self.storage_));
        struct Destroy {
          Fn* fn;
          ~Destroy() { delete fn; }
        } destroy{fn};
        (*fn)(mode);
      };
    }
  }

  /// Invokes the callable once and destroys it. The slot is empty afterwards.
  void Run(CallbackMode mode) {
    auto run = run_;
    run_ = nullptr;
    run(*this, mode);
  }

  bool Empty() const noexcept { return run_ == nullptr; }

 private:
  alignas(std::max_align_t) unsigned char storage_[kInlineSize];
  void (*run_)(CallbackSlot&, CallbackMode) = nullptr;
};

}  // namespace platformpp::core
