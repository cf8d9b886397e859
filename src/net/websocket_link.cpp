// The SDK's one translation unit that compiles Beast's WebSocket templates: the link, over a stream that
// speaks TLS or not (one instantiation of the templates for both), and the connect sequence the Gateway and
// the voice gateway share.
#include "core/asio_prelude.hpp"

#include "net/websocket_link.hpp"

#include "beast_stream/maybe_tls_stream.hpp"
#include "net/tls_setup.hpp"
#include "net/url.hpp"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <deque>

namespace platformpp::net::ws {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;

constexpr auto kAwait = asio::use_awaitable;

using Ws = websocket::stream<beast_stream::MaybeTlsStream>;

class WsLink final : public Link, public std::enable_shared_from_this<WsLink> {
 public:
  WsLink(std::unique_ptr<Ws> ws, const Strand& strand)
      : ws_(std::move(ws)), strand_(strand), timer_(strand) {}

  asio::awaitable<void> Read(error_code& ec) override {
    buffer_.consume(buffer_.size());
    co_await ws_->async_read(buffer_, asio::redirect_error(kAwait, ec));
  }
  std::string_view Message() const override {
    return std::string_view(static_cast<const char*>(buffer_.data().data()), buffer_.size());
  }
  bool GotText() const override { return ws_->got_text(); }

  void Send(std::string text) override { Queue(std::move(text), false); }
  void SendBinary(std::string bytes) override { Queue(std::move(bytes), true); }

  void Close(uint16_t code) override {
    if (closing || tornDown_) return;
    closing = true;
    closeCode_ = code;
    timer_.expires_after(kCloseGrace);
    timer_.async_wait([self = shared_from_this()](error_code ec) {
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
  struct Write {
    std::string data;
    bool binary = false;
  };

  void Queue(std::string data, bool binary) {
    if (closing || tornDown_) return;
    writes_.push_back({std::move(data), binary});
    if (!writing_) WriteNext();
  }

  void WriteNext() {
    writing_ = true;
    ws_->binary(writes_.front().binary);
    ws_->async_write(asio::buffer(writes_.front().data),
                     asio::bind_executor(strand_, [self = shared_from_this()](error_code ec, std::size_t) {
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
        asio::bind_executor(strand_, [self = shared_from_this()](error_code) { self->Teardown(); }));
  }

  std::unique_ptr<Ws> ws_;
  Strand strand_;
  asio::steady_timer timer_;
  beast::flat_buffer buffer_;
  std::deque<Write> writes_;
  bool writing_ = false;
  bool closeSent_ = false;
  bool tornDown_ = false;
  uint16_t closeCode_ = 1000;
};

// Clears the caller's abort hook however the coroutine leaves its scope.
struct ClearOnExit {
  std::function<void()>& f;
  ~ClearOnExit() { f = nullptr; }
};

asio::awaitable<ConnectResult> Handshake(std::unique_ptr<Ws> ws, const Strand& strand, const Url& url,
                                         const tcp::resolver::results_type& endpoints,
                                         const ConnectOptions& options, std::function<void()>& abort,
                                         const std::function<bool()>& stopped) {
  ConnectResult result;
  auto& tcpStream = beast::get_lowest_layer(*ws);
  abort = [&tcpStream] { tcpStream.close(); };
  ClearOnExit clear{abort};
  tcpStream.expires_after(options.connectTimeout);
  error_code ec;
  co_await tcpStream.async_connect(endpoints, asio::redirect_error(kAwait, ec));
  if (ec || stopped()) {
    result.stage = ConnectStage::TcpConnect;
    result.failure = "connect to " + url.Authority() + ": " + ec.message();
    co_return result;
  }
  tcpStream.socket().set_option(tcp::no_delay(true), ec);
  if (ws->next_layer().Secure()) {
    SSL* ssl = ws->next_layer().Tls().native_handle();
    ExpectPeerName(ssl, url.host);
    co_await ws->next_layer().Tls().async_handshake(ssl::stream_base::client,
                                                    asio::redirect_error(kAwait, ec));
    if (ec || stopped()) {
      long verify = SSL_get_verify_result(ssl);
      result.stage = ConnectStage::TlsHandshake;
      result.failure = verify != X509_V_OK ? std::string("TLS handshake (certificate: ") +
                                                 X509_verify_cert_error_string(verify) + ")"
                                           : "TLS handshake: " + ec.message();
      co_return result;
    }
  }
  ws->set_option(websocket::stream_base::decorator([agent = options.userAgent](websocket::request_type& req) {
    req.set(beast::http::field::user_agent, agent);
  }));
  ws->read_message_max(options.maxMessageBytes);
  const std::string host = url.Authority();
  co_await ws->async_handshake(host, url.target, asio::redirect_error(kAwait, ec));
  if (ec || stopped()) {
    result.stage = ConnectStage::WebSocketHandshake;
    result.failure = "WebSocket handshake with " + url.Authority() + ": " + ec.message();
    co_return result;
  }
  tcpStream.expires_never();
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = options.connectTimeout;
  timeouts.idle_timeout = websocket::stream_base::none();
  timeouts.keep_alive_pings = false;
  ws->set_option(timeouts);
  result.link = std::make_shared<WsLink>(std::move(ws), strand);
  co_return result;
}

}  // namespace

bool IsCloseFrame(const error_code& ec) {
  return ec == websocket::error::closed;
}

asio::awaitable<ConnectResult> Connect(const Strand& strand, ssl::context* tls, const Url& url,
                                       const ConnectOptions& options, std::function<void()>& abort,
                                       const std::function<bool()>& stopped) {
  tcp::resolver resolver(strand);
  abort = [&resolver] { resolver.cancel(); };
  error_code ec;
  const std::string port = std::to_string(url.port);
  auto endpoints = co_await resolver.async_resolve(url.host, port, asio::redirect_error(kAwait, ec));
  abort = nullptr;
  if (ec || stopped()) {
    ConnectResult result;
    result.stage = ConnectStage::Resolve;
    result.failure = "resolve " + url.host + ": " + ec.message();
    co_return result;
  }
  auto ws = url.Secure() ? std::make_unique<Ws>(strand, *tls) : std::make_unique<Ws>(strand);
  ConnectResult result = co_await Handshake(std::move(ws), strand, url, endpoints, options, abort, stopped);
  co_return result;
}

}  // namespace platformpp::net::ws
