// One IPC connection of the desktop-client stand-in, over any Asio stream (a Unix socket on POSIX, a named
// pipe instance on Windows): reads bytes into the service, writes what the service sends, one write at a
// time. Included by ipc_server.cpp and ipc_server_win32.cpp only, after server/asio_prelude.hpp; each defines
// close_ipc_stream() for its stream type before including this header.
#pragma once

#include <array>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

#include "ipc/ipc_peer.hpp"
#include "server/connection_places.hpp"
#include "server/send_queue_limit.hpp"
#include "server/step_handler.hpp"
#include "server/turn_gate.hpp"
#include "service/emulator_service.hpp"

namespace platformpp::emulator::ipc_detail {

// One IPC connection: reads bytes into the service, writes what the service sends, one write at a time.
template <class Stream>
class IpcSession final : public std::enable_shared_from_this<IpcSession<Stream>>, public IpcPeer {
 public:
  IpcSession(EmulatorService& service, TurnGate& gate, Stream socket, std::size_t send_queue_limit,
             std::shared_ptr<const ConnectionPlace> place)
      : socket_(std::move(socket)),
        service_(service),
        gate_(gate),
        close_timer_(socket_.get_executor()),
        send_queue_limit_(send_queue_limit),
        place_(std::move(place)) {}
  ~IpcSession() override { service_.ipc_disconnected(id_); }
  IpcSession(const IpcSession&) = delete;
  IpcSession& operator=(const IpcSession&) = delete;

  void start() {
    id_ = service_.ipc_connected(*this);
    read();
  }

  // Frames and the close wait for the turn's commit (server/turn_gate.hpp), in order.
  void send(std::string bytes) override {
    if (closing_) return;
    gate_.send([self = this->weak_from_this(), bytes = std::move(bytes)]() mutable {
      if (auto session = self.lock()) session->enqueue(std::move(bytes));
    });
  }

  void close() override {
    if (closing_) return;
    closing_ = true;
    gate_.send([self = this->weak_from_this()] {
      if (auto session = self.lock()) session->release_close();
    });
  }

 private:
  void enqueue(std::string bytes) {
    if (close_released_ || cut_) return;
    queued_bytes_ += bytes.size();
    queue_.push_back(std::move(bytes));
    if (queued_bytes_ > send_queue_limit_) {
      // A peer that stopped reading: a CLOSE frame would wait behind the rest, so the connection is cut.
      log_unread_cut("an IPC peer", queued_bytes_, send_queue_limit_);
      cut_ = true;
      finish();  // the read in flight fails: gone() tells the service
      return;
    }
    if (!writing_) write_next();
  }

  void release_close() {
    if (close_released_) return;
    close_released_ = true;
    if (!writing_) return finish();
    // Flush first (a CLOSE frame), but a peer that never reads must not hold the socket open.
    close_timer_.expires_after(std::chrono::seconds(5));
    close_timer_.async_wait(handler(Step::close_timer));
  }

  enum class Step { read, written, close_timer };

  using Handler = StepHandler<IpcSession, Step>;
  friend Handler;
  Handler handler(Step step) { return Handler{this->shared_from_this(), step}; }

  void on(Step step, boost::system::error_code ec, std::size_t n) {
    switch (step) {
      case Step::read:
        if (ec) return gone();  // end of stream (mid-frame too), reset, or closed by us
        service_.ipc_received(id_, std::string_view(buffer_.data(), n));
        if (!closing_) read();
        return;
      case Step::written:
        writing_ = false;
        queued_bytes_ -= queue_.front().size();
        queue_.pop_front();
        if (ec || cut_) return gone();
        if (!queue_.empty()) return write_next();
        if (close_released_) finish();
        return;
      case Step::close_timer:
        if (!ec) finish();
        return;
    }
  }

  void read() { socket_.async_read_some(boost::asio::buffer(buffer_), handler(Step::read)); }

  void write_next() {
    writing_ = true;
    boost::asio::async_write(socket_, boost::asio::buffer(queue_.front()), handler(Step::written));
  }

  void gone() {
    service_.ipc_disconnected(id_);
    closing_ = true;
    finish();
  }

  void finish() {
    boost::system::error_code ec;
    close_timer_.cancel();
    close_ipc_stream(socket_, ec);
  }

  Stream socket_;
  EmulatorService& service_;
  TurnGate& gate_;
  boost::asio::steady_timer close_timer_;
  std::uint64_t id_ = 0;
  std::array<char, std::size_t{16} * 1024> buffer_{};
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;  // of queue_, the frame being written included
  std::size_t send_queue_limit_;
  std::shared_ptr<const ConnectionPlace> place_;  // under --max-connections, given back with the session
  bool cut_ = false;                              // over the limit: nothing more is queued
  bool writing_ = false;
  bool closing_ = false;         // close() was called: nothing more is taken
  bool close_released_ = false;  // the gate let the close out: it follows the last queued frame
};

}  // namespace platformpp::emulator::ipc_detail
