#include "core/io_context_access.hpp"

#include <platformpp/io_context.hpp>

#include <boost/asio/executor_work_guard.hpp>

#include <algorithm>
#include <thread>
#include <vector>

#include <pthread.h>

namespace platformpp {

struct IoContext::Impl {
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
  std::vector<std::thread> threads;
};

IoContext::IoContext(int32_t threads) : impl_(std::make_unique<Impl>()) {
  int32_t count = std::max<int32_t>(threads, 1);
  impl_->threads.reserve(static_cast<std::size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    impl_->threads.emplace_back([io = &impl_->io] {
      pthread_setname_np(pthread_self(), "platformpp-net");
      io->run();
    });
  }
}

IoContext::~IoContext() {
  // Clients hold this context until their own network work is gone, so nothing of theirs is left to run here.
  impl_->work.reset();
  impl_->io.stop();
  for (std::thread& thread : impl_->threads) thread.join();
}

int32_t IoContext::ThreadCount() const noexcept { return static_cast<int32_t>(impl_->threads.size()); }

namespace core {
boost::asio::io_context& IoContextAccess::Get(IoContext& context) noexcept { return context.impl_->io; }
}  // namespace core

}  // namespace platformpp
