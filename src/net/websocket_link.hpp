#pragma once
// One WebSocket connection over Beast, plain or TLS, as the Gateway and the voice gateway connections use it:
// writes queued and sent one at a time in order, a close frame after the write in progress (with a grace
// period, after which the socket is simply closed: a zombie never answers), or an immediate teardown. Include
// only from the translation units that already compile Beast's WebSocket templates.
#include "core/asio_prelude.hpp"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>

namespace platformpp::net::ws {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using Strand = asio::strand<asio::io_context::executor_type>;

inline constexpr auto kAwait = asio::use_awaitable;
// How long a close handshake may take before the socket is simply closed.
inline constexpr auto kCloseGrace = std::chrono::milliseconds(1000);

// Handlers of a closed link find `closing` set and do nothing more.
class Link {
 public:
  virtual ~Link() = default;
  virtual asio::awaitable<void> Read(beast::flat_buffer& buffer, error_code& ec) = 0;
  virtual bool GotText() const = 0;
  /// Queued; frames go out one at a time, in order.
  virtual void Send(std::string text) = 0;
  /// A close frame with `code` (after the write in progress), then the socket closes.
  virtual void Close(uint16_t code) = 0;
  /// Closes the socket at once, without a close frame: to the server, a drop.
  virtual void Teardown() = 0;
  /// The code of the server's close frame, if one arrived.
  virtual std::optional<int> CloseCode() const = 0;

  bool closing = false;  // we sent (or are about to send) a close frame, or tore the socket down
  bool gotHello = false;
};

template <class Ws>
class WsLink : public Link, public std::enable_shared_from_this<WsLink<Ws>> {
 public:
  WsLink(std::unique_ptr<Ws> ws, const Strand& strand)
      : ws_(std::move(ws)), strand_(strand), timer_(strand) {}

  asio::awaitable<void> Read(beast::flat_buffer& buffer, error_code& ec) override {
    co_await ws_->async_read(buffer, asio::redirect_error(kAwait, ec));
  }
  bool GotText() const override { return ws_->got_text(); }

  void Send(std::string text) override {
    if (closing || tornDown_) return;
    writes_.push_back(std::move(text));
    if (!writing_) WriteNext();
  }

  void Close(uint16_t code) override {
    if (closing || tornDown_) return;
    closing = true;
    closeCode_ = code;
    timer_.expires_after(kCloseGrace);
    timer_.async_wait([self = this->shared_from_this()](error_code ec) {
      if (!ec) self->Teardown();
    });
    if (!writing_) DoClose();
  }

  void Teardown() override {
    if (tornDown_) return;
    tornDown_ = true;
    closing = true;
    timer_.cancel();
    error_code ignored;
    auto& lowest = beast::get_lowest_layer(*ws_);
    lowest.socket().shutdown(tcp::socket::shutdown_both, ignored);
    lowest.close();
  }

  std::optional<int> CloseCode() const override {
    int code = ws_->reason().code;
    if (code == 0) return std::nullopt;
    return code;
  }

 private:
  void WriteNext() {
    writing_ = true;
    ws_->text(true);
    ws_->async_write(
        asio::buffer(writes_.front()),
        asio::bind_executor(strand_, [self = this->shared_from_this()](error_code ec, std::size_t) {
          self->writing_ = false;
          if (self->tornDown_) return;
          if (ec) {
            self->Teardown();
            return;
          }
          self->writes_.pop_front();
          if (self->closing) {
            self->DoClose();
          } else if (!self->writes_.empty()) {
            self->WriteNext();
          }
        }));
  }

  void DoClose() {
    if (closeSent_ || tornDown_) return;
    closeSent_ = true;
    ws_->async_close(
        websocket::close_reason(closeCode_),
        asio::bind_executor(strand_, [self = this->shared_from_this()](error_code) { self->Teardown(); }));
  }

  std::unique_ptr<Ws> ws_;
  Strand strand_;
  asio::steady_timer timer_;
  std::deque<std::string> writes_;
  bool writing_ = false;
  bool closeSent_ = false;
  bool tornDown_ = false;
  uint16_t closeCode_ = 1000;
};

using PlainWs = websocket::stream<beast::tcp_stream>;
using TlsWs = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

}  // namespace platformpp::net::ws
