#pragma once
// How the stores keep the game's event callbacks: shared, so that an event queued with the callback of its
// moment still runs it after the game replaced it; null when the game cleared it. Replacing takes the
// owner's mutex only to swap the pointer (the copy is made before the lock).

#include <memory>
#include <mutex>
#include <utility>

namespace platformpp::core {

template <class Callback>
std::shared_ptr<Callback> ShareCallback(Callback callback) {
  return callback ? std::make_shared<Callback>(std::move(callback)) : nullptr;
}

template <class Callback>
void ReplaceCallback(std::mutex& mutex, std::shared_ptr<Callback>& slot, Callback callback) {
  auto shared = ShareCallback(std::move(callback));
  std::lock_guard lock(mutex);
  slot = std::move(shared);
}

}  // namespace platformpp::core
