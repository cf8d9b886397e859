#include "server/asio_prelude.hpp"

#include "server/io_threads.hpp"

#include <boost/asio/post.hpp>
#include <cstdio>
#include <exception>
#include <utility>

namespace platformpp::emulator {

namespace net = boost::asio;

namespace {

// One failing piece of work must not take the rest of its batch with it.
void run_logged(const std::function<void()>& work) {
  try {
    work();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "platformpp-emulator: internal error: %s\n", e.what());
  }
}

}  // namespace

void run_until_stopped(net::io_context& io) {
  while (!io.stopped()) {
    try {
      io.run();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "platformpp-emulator: internal error: %s\n", e.what());
    }
  }
}

void Handoff::add(std::function<void()> work) {
  pending_.push_back(std::move(work));
  // The first of a batch schedules its flush behind the handlers already queued on this thread.
  if (pending_.size() == 1) net::post(from_, [this] { flush(); });
}

void Handoff::flush() {
  if (pending_.empty()) return;
  ++batches_;
  net::post(to_, [batch = std::exchange(pending_, {})] {
    for (const auto& work : batch)
      run_logged(work);
  });
}

IoLane::IoLane(net::io_context& service, std::unique_ptr<net::io_context> own)
    : service_(service), own_(std::move(own)), inline_(!own_) {
  if (!own_) return;
  to_stream_ = std::make_unique<Handoff>(service_, *own_);
  to_service_ = std::make_unique<Handoff>(*own_, service_);
  keep_running_.emplace(own_->get_executor());
  thread_ = std::thread([&io = *own_] { run_until_stopped(io); });
}

IoLane::~IoLane() {
  stop();
  // What is still queued goes first, while the connections' io_context exists (their sockets and timers
  // must go before it); the connections themselves go with it.
  to_stream_.reset();
  own_.reset();
  to_service_.reset();
}

void IoLane::stop() {
  if (stopped_) return;
  if (own_) {
    keep_running_.reset();
    own_->stop();
    if (thread_.joinable()) thread_.join();
  }
  stopped_ = true;
}

void IoLane::to_stream(std::function<void()> work) {
  if (inline_) return work();
  if (stopped_) return;
  to_stream_->add(std::move(work));
}

void IoLane::to_service(std::function<void()> work) {
  if (inline_ || stopped_) return work();
  to_service_->add(std::move(work));
}

IoThreads::IoThreads(net::io_context& service, unsigned count) : service_(service) {
  if (count == 0) {
    lanes_.push_back(std::make_unique<IoLane>(service_, nullptr));
    return;
  }
  for (unsigned i = 0; i < count; ++i)
    lanes_.push_back(std::make_unique<IoLane>(service_, std::make_unique<net::io_context>(1)));
}

IoThreads::~IoThreads() {
  stop();
  lanes_.clear();
}

IoLane& IoThreads::next() {
  return *lanes_[next_++ % lanes_.size()];
}

std::size_t IoThreads::threads() const {
  return lanes_.front()->inline_ ? 0 : lanes_.size();
}

void IoThreads::stop() {
  for (auto& lane : lanes_)
    lane->stop();
}

}  // namespace platformpp::emulator
