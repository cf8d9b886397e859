#include "core/io_context_access.hpp"

#include <platformpp/io_context.hpp>

#include <boost/asio/executor_work_guard.hpp>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include <pthread.h>  // winpthreads on MinGW-w64

#ifdef _WIN32
#include <windows.h>
#else
#include <sched.h>
#endif

namespace platformpp {

struct IoContext::Impl {
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
  std::vector<std::thread> threads;
  std::chrono::microseconds spin{0};
};

namespace {

bool RunsOnOneCpu() {
#ifdef _WIN32
  DWORD_PTR process = 0;
  DWORD_PTR system = 0;
  if (!::GetProcessAffinityMask(::GetCurrentProcess(), &process, &system)) return false;
  return process != 0 && (process & (process - 1)) == 0;  // one bit set
#else
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  return sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) <= 1;
#endif
}

// run(), except that after handlers ran the thread polls for `spin` before blocking again, so that the next
// step of a request/response burst needs no wake-up.
void RunWithSpin(boost::asio::io_context& io, std::chrono::microseconds spin) {
  if (spin.count() <= 0) {
    io.run();
    return;
  }
  using Clock = std::chrono::steady_clock;
  auto lastWork = Clock::now();
  while (!io.stopped()) {
    if (io.poll() > 0) {
      lastWork = Clock::now();
      continue;
    }
    if (Clock::now() - lastWork < spin) continue;
    if (io.run_one() == 0) break;
    lastWork = Clock::now();
  }
}

}  // namespace

IoContext::IoContext(int32_t threads, int32_t spinMicroseconds) : impl_(std::make_unique<Impl>()) {
  int32_t count = std::max<int32_t>(threads, 0);
  auto spin = std::chrono::microseconds(std::max<int32_t>(spinMicroseconds, 0));
  // On a single CPU nothing can make progress while we poll: the peer (or the game thread) that would answer
  // needs this very CPU, so spinning only delays it. Sleep at once instead.
  if (RunsOnOneCpu()) spin = std::chrono::microseconds(0);
  impl_->spin = spin;
  impl_->threads.reserve(static_cast<std::size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    impl_->threads.emplace_back([io = &impl_->io, spin] {
      pthread_setname_np(pthread_self(), "platformpp-net");
      RunWithSpin(*io, spin);
    });
  }
}

IoContext::~IoContext() {
  // Clients hold this context until their own network work is gone, so nothing of theirs is left to run here.
  impl_->work.reset();
  impl_->io.stop();
  for (std::thread& thread : impl_->threads)
    thread.join();
}

int32_t IoContext::ThreadCount() const noexcept {
  return static_cast<int32_t>(impl_->threads.size());
}

namespace core {
boost::asio::io_context& IoContextAccess::Get(IoContext& context) noexcept {
  return context.impl_->io;
}

std::chrono::microseconds IoContextAccess::Spin(IoContext& context) noexcept {
  return context.impl_->spin;
}

void IoContextAccess::WaitFor(IoContext& context, std::future<void>& done) noexcept {
  if (context.Pumped()) {
    while (done.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      context.impl_->io.run_one_for(std::chrono::milliseconds(10));
    }
  }
  done.wait();
}
}  // namespace core

}  // namespace platformpp
