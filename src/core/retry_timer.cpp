#include "core/retry_timer.hpp"

#include "core/io_context_access.hpp"

#include <boost/asio/steady_timer.hpp>

#include <condition_variable>
#include <mutex>
#include <unordered_map>

namespace platformpp::core {

struct RetryTimer::Impl {
  explicit Impl(boost::asio::io_context& io) : io(io) {}
  boost::asio::io_context& io;
  std::mutex mutex;
  bool closed = false;
  int running = 0;  // tasks running now; Shutdown waits for them
  std::condition_variable idle;
  uint64_t nextId = 1;
  // The pending timers; a handler removes its own under the mutex, so Shutdown never touches a timer whose
  // handler runs.
  std::unordered_map<uint64_t, std::shared_ptr<boost::asio::steady_timer>> timers;
};

RetryTimer::RetryTimer(IoContext& context)
    : impl_(std::make_shared<Impl>(core::IoContextAccess::Get(context))) {}

RetryTimer::~RetryTimer() {
  Shutdown();
}

void RetryTimer::After(std::chrono::milliseconds delay, std::function<void()> task) {
  std::lock_guard lock(impl_->mutex);
  if (impl_->closed) return;
  uint64_t id = impl_->nextId++;
  auto timer = std::make_shared<boost::asio::steady_timer>(impl_->io, delay);
  impl_->timers.emplace(id, timer);
  timer->async_wait([impl = impl_, id, timer, task = std::move(task)](const boost::system::error_code&) {
    {
      std::lock_guard guard(impl->mutex);
      if (impl->closed || impl->timers.erase(id) == 0) return;
      ++impl->running;
    }
    task();
    std::lock_guard guard(impl->mutex);
    if (--impl->running == 0) impl->idle.notify_all();
  });
}

void RetryTimer::Shutdown() {
  std::unique_lock lock(impl_->mutex);
  impl_->closed = true;
  for (auto& [id, timer] : impl_->timers)
    timer->cancel();
  impl_->timers.clear();
  // A task that started before this returns may still use what its owner is about to tear down.
  impl_->idle.wait(lock, [this] { return impl_->running == 0; });
}

}  // namespace platformpp::core
