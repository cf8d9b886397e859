// The threads that run the emulator's TCP connections (TLS, HTTP parsing, WebSocket framing), apart from
// the service's thread, which keeps the platform's state, the gate, IPC and the forwarding unit. With
// --io-threads 0 the service's thread runs the connections too, as one lane whose handoffs run inline.
//
// Work crosses between the threads in batches: what the service hands a lane during one handler (a lobby
// message's ten frames, say) goes across as one posted handler once that handler is done, so a message
// wakes a lane once rather than once per frame; the lane does the same the other way. Each direction keeps
// its order (a frame before the HTTP answer that follows it, a request before the next one).
// Include after server/asio_prelude.hpp.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace platformpp::emulator {

// Runs `io` on the calling thread until it is stopped; a handler that throws is logged, and the rest keep
// being served rather than the whole emulator going down.
void run_until_stopped(boost::asio::io_context& io);

// Work queued on one thread and run on another, in order, a batch per handler of the queuing thread.
// Touched on the queuing thread only (and on the thread that stops the emulator, once the others are
// joined).
class Handoff {
 public:
  Handoff(boost::asio::io_context& from, boost::asio::io_context& to) : from_(from), to_(to) {}
  Handoff(const Handoff&) = delete;
  Handoff& operator=(const Handoff&) = delete;

  void add(std::function<void()> work);
  // How many batches have gone across (for tests and benchmarks).
  [[nodiscard]] std::size_t batches() const { return batches_; }

 private:
  void flush();

  boost::asio::io_context& from_;
  boost::asio::io_context& to_;
  std::vector<std::function<void()>> pending_;
  std::size_t batches_ = 0;
};

// One thread's share of the connections: its io_context, and the handoffs between it and the service.
class IoLane {
 public:
  // `own` null: the service's io_context is the lane's, and handoffs run inline.
  IoLane(boost::asio::io_context& service, std::unique_ptr<boost::asio::io_context> own);
  ~IoLane();
  IoLane(const IoLane&) = delete;
  IoLane& operator=(const IoLane&) = delete;

  [[nodiscard]] boost::asio::io_context& context() { return own_ ? *own_ : service_; }

  // From the service's thread: runs `work` on this lane's thread, after what was handed over before it.
  // Once stopped, dropped: nothing more is written.
  void to_stream(std::function<void()> work);
  // From this lane's thread: runs `work` on the service's thread, in order. Once stopped, at once, on the
  // calling thread (the emulator is stopping on it, and the service's io_context no longer runs).
  void to_service(std::function<void()> work);

  [[nodiscard]] const Handoff* stream_handoff() const { return to_stream_.get(); }

 private:
  friend class IoThreads;
  void stop();  // the thread joined first

  boost::asio::io_context& service_;
  std::unique_ptr<boost::asio::io_context> own_;
  const bool inline_;                    // no thread of its own: the service's runs it
  std::unique_ptr<Handoff> to_stream_;   // service -> lane
  std::unique_ptr<Handoff> to_service_;  // lane -> service
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> keep_running_;
  std::thread thread_;
  bool stopped_ = false;
};

class IoThreads {
 public:
  // `count` threads, each with a lane; none: one inline lane on `service`.
  IoThreads(boost::asio::io_context& service, unsigned count);
  ~IoThreads();
  IoThreads(const IoThreads&) = delete;
  IoThreads& operator=(const IoThreads&) = delete;

  [[nodiscard]] boost::asio::io_context& service() { return service_; }
  // Where the next connection goes: round robin.
  IoLane& next();
  [[nodiscard]] std::size_t threads() const;

  // Stops the threads and joins them. Their connections stay until this object goes, handing what they
  // still have for the service over inline.
  void stop();

 private:
  boost::asio::io_context& service_;
  std::vector<std::unique_ptr<IoLane>> lanes_;
  std::size_t next_ = 0;
};

}  // namespace platformpp::emulator
