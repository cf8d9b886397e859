// A server WebSocket split in two: the stream on its I/O thread (WebSocketIo, websocket_session.hpp) and,
// on the service thread, the link its endpoint (the Gateway, the voice gateway, the console) writes to.
// Included by server/server.cpp alone: the one translation unit that instantiates Boost.Beast's server
// templates (they are slow to compile), so each session kind has a file of its own without costing a
// compilation of its own.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "server/beast_server.hpp"
#include "server/io_threads.hpp"
#include "server/turn_gate.hpp"

namespace platformpp::emulator::server_detail {

// One WebSocket message as written: `head`, then the `shared` bytes (a dispatch body that goes to many
// connections, written from where it is rather than copied per connection), then `tail`.
struct OutgoingFrame {
  std::string head;
  std::shared_ptr<const std::string> shared;
  std::string tail;
  bool binary = false;
};

// The transport side of a server WebSocket, as its endpoint sees it: frames queued and written one at a time,
// a close handshake, a drop. Non-template, so the Gateway and the voice gateway share one socket template.
class WebSocketChannel {
 public:
  virtual ~WebSocketChannel() = default;
  // Queues one frame (dropped once closing).
  virtual void send_frame(OutgoingFrame frame) = 0;
  void send_frame(std::string frame, bool binary) {
    send_frame(OutgoingFrame{std::move(frame), nullptr, {}, binary});
  }
  // Writes what is queued, then a close frame with `code` and `reason`; later frames are dropped.
  virtual void close(int code, std::string reason) = 0;
  // Cuts the TCP connection at once: no close frame.
  virtual void drop() = 0;
  [[nodiscard]] virtual bool closing() const = 0;
};

// The protocol side of a server WebSocket (the Gateway or the voice gateway): what happens to what arrives.
class WebSocketEndpoint {
 public:
  virtual ~WebSocketEndpoint() = default;
  // The upgrade was accepted.
  virtual void opened(std::string_view target) = 0;
  virtual void received(std::string_view message, bool text) = 0;
  // The connection ended: `close_code` when the peer sent a close frame.
  virtual void disconnected(std::optional<int> close_code) = 0;
};

// A server WebSocket's stream, as its link on the service thread drives it. Called on the stream's own
// (I/O) thread only.
class WebSocketIo {
 public:
  virtual ~WebSocketIo() = default;
  virtual void enqueue(OutgoingFrame frame) = 0;
  // Writes what is queued, then the close frame.
  virtual void release_close(websocket::close_reason reason) = 0;
  virtual void drop() = 0;
};

// The service thread's side of a server WebSocket: owns the endpoint, and is the channel it writes to,
// which hands each frame to the stream's thread once the gate lets it out (server/turn_gate.hpp). Created on
// the stream's thread, used and destroyed on the service thread only.
class WebSocketLink final : public WebSocketChannel {
 public:
  WebSocketLink(TurnGate& gate, IoLane& lane, std::weak_ptr<WebSocketIo> stream)
      : gate_(gate), lane_(lane), stream_(std::move(stream)) {}
  ~WebSocketLink() override { endpoint_.reset(); }  // its goodbye to the service, while the link exists
  WebSocketLink(const WebSocketLink&) = delete;
  WebSocketLink& operator=(const WebSocketLink&) = delete;

  void attach(std::unique_ptr<WebSocketEndpoint> endpoint) { endpoint_ = std::move(endpoint); }
  [[nodiscard]] WebSocketEndpoint& endpoint() const { return *endpoint_; }

  using WebSocketChannel::send_frame;
  void send_frame(OutgoingFrame frame) override {
    if (closing_ || gate_.closed()) return;
    auto write = [&lane = lane_, stream = stream_, frame = std::move(frame)]() mutable {
      on_stream(lane, stream,
                [frame = std::move(frame)](WebSocketIo& io) mutable { io.enqueue(std::move(frame)); });
    };
    if (!gate_.holding()) return write();  // the common case in memory mode, once per Gateway frame
    gate_.send(std::move(write));
  }

  void close(int code, std::string reason) override {
    if (closing_) return;
    closing_ = true;  // later frames are refused now; those before it still go out, then the close frame
    websocket::close_reason close_reason;
    close_reason.code = static_cast<std::uint16_t>(code);
    close_reason.reason = std::move(reason);
    gate_.send([&lane = lane_, stream = stream_, close_reason = std::move(close_reason)] {
      on_stream(lane, stream, [close_reason](WebSocketIo& io) { io.release_close(close_reason); });
    });
  }

  void drop() override {
    closing_ = true;
    on_stream(lane_, stream_, [](WebSocketIo& io) { io.drop(); });
  }

  [[nodiscard]] bool closing() const override { return closing_; }

 private:
  // Runs `work` on the stream's thread, if the stream is still there then. Static: a gate may release the
  // work after this link is gone.
  template <class Work>
  static void on_stream(IoLane& lane, std::weak_ptr<WebSocketIo> stream, Work work) {
    lane.to_stream([stream = std::move(stream), work = std::move(work)]() mutable {
      if (auto alive = stream.lock()) work(*alive);
    });
  }

  TurnGate& gate_;
  IoLane& lane_;
  std::weak_ptr<WebSocketIo> stream_;
  std::unique_ptr<WebSocketEndpoint> endpoint_;
  bool closing_ = false;  // close() or drop() was called: no more frames are taken
};

}  // namespace platformpp::emulator::server_detail
