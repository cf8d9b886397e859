// A server WebSocket's stream (after an HTTP session's upgrade), on its I/O thread.
// Included by server/server.cpp alone: the one translation unit that instantiates Boost.Beast's server
// templates (they are slow to compile), so each session kind has a file of its own without costing a
// compilation of its own.
#pragma once

#include <array>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "server/connection_places.hpp"
#include "server/send_queue_limit.hpp"
#include "server/step_handler.hpp"
#include "server/websocket_link.hpp"

namespace platformpp::emulator::server_detail {

// One server WebSocket (taken over from a Session after an upgrade request on "/" or on "/voice" with a valid
// `v`), on the stream's I/O thread: reads messages and hands them to its endpoint on the service thread,
// writes text and binary frames, one write at a time. Every asynchronous operation completes into the same
// handler type (each distinct handler type instantiates Beast's composed operations again).
class WebSocketSession final : public std::enable_shared_from_this<WebSocketSession>, public WebSocketIo {
 public:
  WebSocketSession(SessionStream&& stream, IoLane& lane, std::size_t send_queue_limit, std::string peer,
                   std::shared_ptr<const ConnectionPlace> place)
      : ws_(std::move(stream)),
        close_timer_(ws_.get_executor()),
        lane_(lane),
        send_queue_limit_(send_queue_limit),
        peer_(std::move(peer)),
        place_(std::move(place)) {}
  // The link goes back to the service thread, where its endpoint says goodbye to the service.
  ~WebSocketSession() override {
    if (link_) lane_.to_service([link = std::move(link_)] {});
  }
  WebSocketSession(const WebSocketSession&) = delete;
  WebSocketSession& operator=(const WebSocketSession&) = delete;

  void start(std::shared_ptr<WebSocketLink> link, http::request<http::string_body> request) {
    link_ = std::move(link);
    request_ = std::move(request);
    beast::get_lowest_layer(ws_).expires_never();
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& response) {
      response.set(http::field::server, "platformpp-emulator");
    }));
    // Larger than the Gateway's payload limit, so an oversized payload gets the platform's 4002.
    ws_.read_message_max(std::size_t{64} * 1024);
    ws_.async_accept(request_, handler(Step::accepted));
  }

  // What the gate lets out (server/turn_gate.hpp), on this stream's thread.
  void enqueue(OutgoingFrame frame) override {
    if (dropped_ || close_released_) return;
    queued_bytes_ += frame_size(frame);
    queue_.push_back(std::move(frame));
    if (queued_bytes_ > send_queue_limit_) {
      // A peer that stopped reading: a close frame would wait behind the rest, so the connection is cut (its
      // endpoint hears of it as of any lost connection: a Gateway session stays resumable).
      log_unread_cut("a WebSocket peer (" + peer_ + ")", queued_bytes_, send_queue_limit_);
      drop();
      return;
    }
    if (!writing_) write_next();
  }
  void release_close(websocket::close_reason reason) override {
    if (dropped_ || close_released_) return;
    close_released_ = true;
    close_reason_ = std::move(reason);
    if (!writing_) send_close();
  }
  void drop() override {
    dropped_ = true;
    finish();  // an in-flight write fails and its handler drops the rest of the queue
  }

 private:
  enum class Step { accepted, read, written, closed, close_timer };

  using Handler = StepHandler<WebSocketSession, Step>;
  friend Handler;
  Handler handler(Step step) { return Handler{shared_from_this(), step}; }

  void on(Step step, beast::error_code ec, std::size_t /*bytes*/) {
    switch (step) {
      case Step::accepted:
        if (ec) return finish();
        lane_.to_service(
            [link = link_, target = std::string(request_.target())] { link->endpoint().opened(target); });
        return read();
      case Step::read:
        return on_read(ec);
      case Step::written:
        return on_written(ec);
      case Step::closed:
        return finish();
      case Step::close_timer:
        if (!ec) finish();
        return;
    }
  }

  void read() { ws_.async_read(buffer_, handler(Step::read)); }

  void on_read(beast::error_code ec) {
    if (ec) {
      std::optional<int> code;
      if (ec == websocket::error::closed) code = ws_.reason().code;
      lane_.to_service([link = link_, code] { link->endpoint().disconnected(code); });
      return finish();
    }
    lane_.to_service([link = link_, message = beast::buffers_to_string(buffer_.data()),
                      text = ws_.got_text()] { link->endpoint().received(message, text); });
    buffer_.consume(buffer_.size());
    if (!dropped_) read();  // also while closing: the peer's close frame ends the handshake
  }

  void write_next() {
    writing_ = true;
    const auto& frame = queue_.front();  // deque elements stay put until popped: the buffers stay valid
    ws_.binary(frame.binary);
    const std::array<net::const_buffer, 3> parts{
        net::buffer(frame.head), frame.shared ? net::buffer(*frame.shared) : net::const_buffer{},
        net::buffer(frame.tail)};
    ws_.async_write(parts, handler(Step::written));
  }

  void on_written(beast::error_code ec) {
    writing_ = false;
    if (!queue_.empty()) {
      queued_bytes_ -= frame_size(queue_.front());
      queue_.pop_front();
    }
    if (ec || dropped_) {
      queue_.clear();
      queued_bytes_ = 0;
      return finish();
    }
    if (!queue_.empty()) return write_next();
    if (close_released_ && !dropped_) send_close();
  }

  void send_close() {
    // A peer that never answers the close frame must not hold the socket open.
    close_timer_.expires_after(std::chrono::seconds(5));
    close_timer_.async_wait(handler(Step::close_timer));
    ws_.async_close(close_reason_, handler(Step::closed));
  }

  static std::size_t frame_size(const OutgoingFrame& frame) {
    return frame.head.size() + (frame.shared ? frame.shared->size() : 0) + frame.tail.size();
  }

  void finish() {
    beast::error_code ec;
    close_timer_.cancel();
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
  }

  websocket::stream<SessionStream> ws_;
  net::steady_timer close_timer_;
  IoLane& lane_;
  std::shared_ptr<WebSocketLink> link_;  // used on the service thread only
  http::request<http::string_body> request_;
  beast::flat_buffer buffer_;
  std::deque<OutgoingFrame> queue_;
  std::size_t queued_bytes_ = 0;  // of queue_, the frame being written included
  std::size_t send_queue_limit_;
  std::string peer_;                              // the client's address, for the log
  std::shared_ptr<const ConnectionPlace> place_;  // under --max-connections, given back with the session
  bool writing_ = false;
  bool close_released_ = false;  // the gate let the close out: it follows the last queued frame
  bool dropped_ = false;
  websocket::close_reason close_reason_;
};

}  // namespace platformpp::emulator::server_detail
