// The HTTP(S) listener and sessions, the WebSocket sessions of the Gateway and the voice gateway, and
// run_server, which runs the service with the IPC listener (ipc_server.cpp), the forwarding unit's UDP socket
// (voice/voice_udp_server.cpp) and the webhook events client (webhook_client.cpp) on one io_context, and the
// TCP connections on the I/O threads (server/io_threads.hpp), which hand all service work to it. The only
// translation unit that instantiates Boost.Beast's server templates (they are slow to compile); the webhook
// client instantiates its client side, the other two Asio's for their sockets alone.
#include "server/asio_prelude.hpp"

#include "server/server.hpp"

#include <openssl/ssl.h>
#include <sys/socket.h>

#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "console/console_stream.hpp"
#include "core/api_error.hpp"
#include "gateway/gateway_deflater.hpp"
#include "server/io_threads.hpp"
#include "server/step_handler.hpp"
#include "server/turn_gate.hpp"
#include "server/webhook_client.hpp"
#include "voice/voice_gateway.hpp"
#include "voice/voice_udp_server.hpp"

namespace platformpp::emulator {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

constexpr std::uint64_t kBodyLimit = std::uint64_t{1024} * 1024;
constexpr std::uint32_t kHeaderLimit = 16 * 1024;
constexpr auto kHandshakeTimeout = std::chrono::seconds(10);
constexpr auto kWriteTimeout = std::chrono::seconds(30);

using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

bool is_http_parse_error(const beast::error_code& ec) {
  return &ec.category() == &http::make_error_code(http::error::bad_target).category();
}

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

// The Gateway on a WebSocket: JSON text frames, or with zlib-stream compression every message deflated into
// one zlib stream and sent as a binary frame.
class GatewayEndpoint final : public WebSocketEndpoint, public GatewayPeer {
 public:
  GatewayEndpoint(EmulatorService& service, WebSocketChannel& channel)
      : service_(service), channel_(channel) {}
  ~GatewayEndpoint() override {
    if (opened_) service_.gateway_disconnected(id_, std::nullopt);
  }
  GatewayEndpoint(const GatewayEndpoint&) = delete;
  GatewayEndpoint& operator=(const GatewayEndpoint&) = delete;

  void opened(std::string_view target) override {
    opened_ = true;
    id_ = service_.gateway_opened(*this, target);
  }
  void received(std::string_view message, bool text) override {
    service_.gateway_received(id_, message, text);
  }
  void disconnected(std::optional<int> close_code) override {
    service_.gateway_disconnected(id_, close_code);
  }

  void enable_compression() override { compress_ = true; }
  void send(std::string json) override {
    if (channel_.closing()) return;
    if (!compress_) return channel_.send_frame(std::move(json), false);
    std::string frame = stream_start();
    frame += thread_gateway_deflater().deflate(json);
    channel_.send_frame(std::move(frame), true);
  }
  void send_dispatch(const SharedDispatchBody& body, std::string_view tail) override {
    if (channel_.closing()) return;
    if (!compress_) {
      return channel_.send_frame(
          OutgoingFrame{{}, std::shared_ptr<const std::string>(body, &body->text), std::string(tail), false});
    }
    std::string head = stream_start();
    const std::string* bytes = &body->text;
    auto& deflater = thread_gateway_deflater();
    if (deflater.stores(body->text)) {
      // A small body goes out as it is, in one stored block: no copy of it per body or per connection.
      GatewayDeflater::append_stored_header(head, body->text.size());
    } else {
      // A large one is deflated once for every connection it goes to.
      if (body->deflated.empty()) body->deflated = deflater.deflate(body->text);
      bytes = &body->deflated;
    }
    std::string stored_tail;  // the per-session tail, as it is
    stored_tail.reserve(tail.size() + 10);
    GatewayDeflater::append_stored(stored_tail, tail);
    channel_.send_frame(OutgoingFrame{std::move(head), std::shared_ptr<const std::string>(body, bytes),
                                      std::move(stored_tail), true});
  }
  void close(int code, std::string reason) override { channel_.close(code, std::move(reason)); }
  void drop() override { channel_.drop(); }

 private:
  // The zlib header before the connection's first message (gateway/gateway_deflater.hpp).
  std::string stream_start() {
    if (header_sent_) return {};
    header_sent_ = true;
    return std::string(GatewayDeflater::kStreamHeader);
  }

  EmulatorService& service_;
  WebSocketChannel& channel_;
  std::uint64_t id_ = 0;
  bool opened_ = false;
  bool compress_ = false;
  bool header_sent_ = false;
};

// The voice gateway on a WebSocket: JSON text frames and DAVE binary frames.
class VoiceEndpoint final : public WebSocketEndpoint, public VoiceGatewayPeer {
 public:
  VoiceEndpoint(EmulatorService& service, WebSocketChannel& channel) : service_(service), channel_(channel) {}
  ~VoiceEndpoint() override {
    if (opened_) service_.voice_disconnected(id_, std::nullopt);
  }
  VoiceEndpoint(const VoiceEndpoint&) = delete;
  VoiceEndpoint& operator=(const VoiceEndpoint&) = delete;

  void opened(std::string_view target) override {
    opened_ = true;
    id_ = service_.voice_opened(*this, target);
  }
  void received(std::string_view message, bool text) override { service_.voice_received(id_, message, text); }
  void disconnected(std::optional<int> close_code) override { service_.voice_disconnected(id_, close_code); }

  void send_text(std::string json) override { channel_.send_frame(std::move(json), false); }
  void send_binary(std::string bytes) override { channel_.send_frame(std::move(bytes), true); }
  void close(int code, std::string reason) override { channel_.close(code, std::move(reason)); }
  void drop() override { channel_.drop(); }

 private:
  EmulatorService& service_;
  WebSocketChannel& channel_;
  std::uint64_t id_ = 0;
  bool opened_ = false;
};

// The web console's live socket (/_emulator/ui/live, console/console_stream.hpp): a snapshot of the
// documents on open, then each committed turn's changes. The page only listens.
class ConsoleEndpoint final : public WebSocketEndpoint {
 public:
  ConsoleEndpoint(EmulatorService& service, WebSocketChannel& channel)
      : service_(service), channel_(channel) {}
  ~ConsoleEndpoint() override { stop_watching(); }
  ConsoleEndpoint(const ConsoleEndpoint&) = delete;
  ConsoleEndpoint& operator=(const ConsoleEndpoint&) = delete;

  void opened(std::string_view /*target*/) override {
    watch_ = service_.state_store().watch([this](const std::vector<DocumentChange>& changes) {
      if (console_changes_replace_all(changes)) {
        channel_.send_frame(console_snapshot_json(service_.changes()), false);
      } else if (auto json = console_changes_json(changes)) {
        channel_.send_frame(std::move(*json), false);
      }
    });
    channel_.send_frame(console_snapshot_json(service_.changes()), false);
  }
  void received(std::string_view /*message*/, bool /*text*/) override {}
  void disconnected(std::optional<int> /*close_code*/) override { stop_watching(); }

 private:
  void stop_watching() {
    if (watch_ != 0) service_.state_store().unwatch(watch_);
    watch_ = 0;
  }

  EmulatorService& service_;
  WebSocketChannel& channel_;
  std::uint64_t watch_ = 0;
};

// Whether a browser's request comes from a page of this emulator: no Origin (not a browser), or an Origin
// naming the Host it was sent to. Another site's page open in the same browser gets no live socket.
template <class Request>
bool same_origin(const Request& request) {
  const auto origin = request[http::field::origin];
  if (origin.empty()) return true;
  const auto host = request[http::field::host];
  const auto scheme_end = origin.find("://");
  return scheme_end != std::string_view::npos && !host.empty() && origin.substr(scheme_end + 3) == host;
}

// One server WebSocket (taken over from a Session after an upgrade request on "/" or on "/voice" with a valid
// `v`), on the stream's I/O thread: reads messages and hands them to its endpoint on the service thread,
// writes text and binary frames, one write at a time. Every asynchronous operation completes into the same
// handler type (each distinct handler type instantiates Beast's composed operations again).
template <class Stream>
class WebSocketSession final : public std::enable_shared_from_this<WebSocketSession<Stream>>,
                               public WebSocketIo {
 public:
  WebSocketSession(Stream&& stream, IoLane& lane)
      : ws_(std::move(stream)), close_timer_(ws_.get_executor()), lane_(lane) {}
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
    ws_.read_message_max(64 * 1024);
    ws_.async_accept(request_, handler(Step::accepted));
  }

  // What the gate lets out (server/turn_gate.hpp), on this stream's thread.
  void enqueue(OutgoingFrame frame) override {
    if (dropped_ || close_released_) return;
    queue_.push_back(std::move(frame));
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
  Handler handler(Step step) { return Handler{this->shared_from_this(), step}; }

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
    if (!queue_.empty()) queue_.pop_front();
    if (ec || dropped_) {
      queue_.clear();
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

  void finish() {
    beast::error_code ec;
    close_timer_.cancel();
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
  }

  websocket::stream<Stream> ws_;
  net::steady_timer close_timer_;
  IoLane& lane_;
  std::shared_ptr<WebSocketLink> link_;  // used on the service thread only
  http::request<http::string_body> request_;
  beast::flat_buffer buffer_;
  std::deque<OutgoingFrame> queue_;
  bool writing_ = false;
  bool close_released_ = false;  // the gate let the close out: it follows the last queued frame
  bool dropped_ = false;
  websocket::close_reason close_reason_;
};

// One connection, on its I/O thread: reads requests one at a time (keep-alive), has the service on its
// thread plan and complete each (waiting out a fault's delay on a timer without blocking other
// connections), then writes the outcome.
template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
 public:
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

  template <class... StreamArgs>
  Session(EmulatorService& service, IoLane& lane, TurnGate& gate, tcp::socket socket,
          StreamArgs&... stream_args)
      : stream_(std::move(socket), stream_args...),
        service_(service),
        lane_(lane),
        gate_(gate),
        delay_timer_(stream_.get_executor()) {
    beast::error_code ec;
    const auto endpoint = lowest().socket().remote_endpoint(ec);
    client_address_ = ec ? "unknown" : endpoint.address().to_string();
  }

  void start(std::chrono::milliseconds idle_timeout) {
    idle_timeout_ = idle_timeout;
    if constexpr (kTls) {
      lowest().expires_after(kHandshakeTimeout);
      stream_.async_handshake(ssl::stream_base::server, handler(Step::handshake));
    } else {
      read_request();
    }
  }

 private:
  enum class Step { handshake, read, delay, written, truncated, shut_down };

  using Handler = StepHandler<Session, Step>;
  friend Handler;
  Handler handler(Step step) { return Handler{this->shared_from_this(), step}; }

  void on(Step step, beast::error_code ec, std::size_t /*bytes*/) {
    switch (step) {
      case Step::handshake:
        if (ec) return close();  // TLS garbage or a plain-HTTP client: nothing sensible to answer
        return read_request();
      case Step::read:
        return on_read(ec);
      case Step::delay:
        if (!ec) lane_.to_service([self = this->shared_from_this()] { self->finish_request(); });
        return;
      case Step::written:
        if (ec) return close();
        if (!response_->keep_alive()) return shutdown();
        response_.reset();
        return read_request();
      case Step::truncated:
      case Step::shut_down:
        return close();
    }
  }

  beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }

  void read_request() {
    parser_.emplace();
    parser_->body_limit(kBodyLimit);
    parser_->header_limit(kHeaderLimit);
    lowest().expires_after(idle_timeout_);
    http::async_read(stream_, buffer_, *parser_, handler(Step::read));
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::body_limit) return send_error(413);
    if (ec == http::error::header_limit) return send_error(431);
    if (ec == http::error::end_of_stream || ec == http::error::partial_message) return close();
    if (ec && is_http_parse_error(ec)) return send_error(400);
    if (ec) return close();  // timeout, reset, TLS error

    // The Gateway: a WebSocket upgrade on "/" hands the stream over.
    if (websocket::is_upgrade(parser_->get())) {
      const auto target = parser_->get().target();
      const auto path = target.substr(0, target.find('?'));
      if (path == "/" || path.empty()) return upgrade<GatewayEndpoint>();
      if (path == "/_emulator/ui/live") {
        if (!same_origin(parser_->get())) return send_error(403);
        return upgrade<ConsoleEndpoint>();
      }
      // The voice gateway; without a valid `v` the request is answered as plain HTTP (400).
      if (is_voice_gateway_path(std::string_view(path.data(), path.size())) &&
          voice_gateway_version(std::string_view(target.data(), target.size()))) {
        return upgrade<VoiceEndpoint>();
      }
    }

    auto& message = parser_->get();
    request_ = HttpRequest{};
    request_.method = std::string(message.method_string());
    request_.target = std::string(message.target());
    for (const auto& field : message) {
      request_.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    request_.body = std::move(message.body());
    request_.client_address = client_address_;
    keep_alive_ = message.keep_alive();
    version_ = message.version();
    // The stream waits (no operation on it) while the service thread has the request.
    lane_.to_service([self = this->shared_from_this()] { self->plan_request(); });
  }

  // On the service thread.
  void plan_request() {
    try {
      plan_ = service_.plan(request_);
    } catch (const std::exception&) {
      plan_ = RequestPlan{};
    }
    if (plan_.delay.count() > 0) {
      on_stream([](Session& self) {
        self.delay_timer_.expires_after(self.plan_.delay);
        self.delay_timer_.async_wait(self.handler(Step::delay));
      });
    } else {
      finish_request();
    }
  }

  // Runs `work` on this connection's I/O thread.
  template <class Work>
  void on_stream(Work work) {
    lane_.to_stream([self = this->shared_from_this(), work = std::move(work)]() mutable { work(*self); });
  }

  // Hands the stream over to a WebSocket serving `Endpoint`.
  template <class Endpoint>
  void upgrade() {
    lowest().expires_never();
    auto socket = std::make_shared<WebSocketSession<Stream>>(std::move(stream_), lane_);
    auto link = std::make_shared<WebSocketLink>(gate_, lane_, socket);
    link->attach(std::make_unique<Endpoint>(service_, *link));
    socket->start(std::move(link), parser_->release());
  }

  // On the service thread.
  void finish_request() {
    Outcome outcome;
    try {
      outcome = service_.complete(request_, plan_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "platformpp-emulator: internal error on %s %s: %s\n", request_.method.c_str(),
                   request_.target.c_str(), e.what());
      outcome = Outcome{Outcome::Delivery::respond, status_error(500)};
    }
    switch (outcome.delivery) {
      case Outcome::Delivery::drop:
        return on_stream([](Session& self) { self.close(); });
      case Outcome::Delivery::truncate:
        // Half an answer acknowledges as much as a whole one: it waits for the turn's commit too.
        return gate_.send(
            [self = this->shared_from_this(), response = std::move(outcome.response)]() mutable {
              self->on_stream(
                  [response = std::move(response)](Session& session) { session.write_truncated(response); });
            });
      case Outcome::Delivery::respond:
        if (const auto deferred = outcome.response.deferred) {
          // The answer comes later (a webhook events URL's PING); other connections are served meanwhile.
          return deferred->wait([self = this->shared_from_this()](HttpResponse response) {
            self->respond(std::move(response));
          });
        }
        return respond(std::move(outcome.response));
    }
  }

  void send_error(int status) {
    keep_alive_ = false;
    version_ = 11;
    auto response = status_error(status);
    response.close_connection = true;
    write_response(std::move(response));
  }

  // An answer, once what it acknowledges is committed (server/turn_gate.hpp). On the service thread.
  void respond(HttpResponse response) {
    gate_.send([self = this->shared_from_this(), response = std::move(response)]() mutable {
      self->on_stream([response = std::move(response)](Session& session) mutable {
        session.write_response(std::move(response));
      });
    });
  }

  void write_response(HttpResponse response) {
    auto message = std::make_shared<http::response<http::string_body>>();
    message->version(version_);
    message->result(static_cast<unsigned>(response.status));
    message->set(http::field::server, "platformpp-emulator");
    for (auto& [name, value] : response.headers)
      message->set(name, value);
    message->body() = std::move(response.body);
    message->keep_alive(keep_alive_ && !response.close_connection);
    message->prepare_payload();
    response_ = message;
    lowest().expires_after(kWriteTimeout);
    http::async_write(stream_, *response_, handler(Step::written));
  }

  // Headers announce the full body, but only half of it is sent before the connection closes.
  void write_truncated(const HttpResponse& response) {
    const auto status = static_cast<unsigned>(response.status);
    raw_ = "HTTP/1.1 " + std::to_string(status) + " " +
           std::string(http::obsolete_reason(http::int_to_status(status))) + "\r\n";
    for (const auto& [name, value] : response.headers)
      raw_ += name + ": " + value + "\r\n";
    const std::size_t announced = response.body.empty() ? 64 : response.body.size();
    raw_ += "Content-Length: " + std::to_string(announced) + "\r\nConnection: close\r\n\r\n";
    raw_ += response.body.substr(0, response.body.size() / 2);
    lowest().expires_after(kWriteTimeout);
    net::async_write(stream_, net::buffer(raw_), handler(Step::truncated));
  }

  void shutdown() {
    if constexpr (kTls) {
      lowest().expires_after(std::chrono::seconds(2));
      stream_.async_shutdown(handler(Step::shut_down));
    } else {
      beast::error_code ec;
      lowest().socket().shutdown(tcp::socket::shutdown_send, ec);
      close();
    }
  }

  void close() {
    beast::error_code ec;
    delay_timer_.cancel();
    lowest().socket().close(ec);
  }

  Stream stream_;
  EmulatorService& service_;
  IoLane& lane_;
  TurnGate& gate_;
  net::steady_timer delay_timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string client_address_;
  HttpRequest request_;
  RequestPlan plan_;
  bool keep_alive_ = true;
  unsigned version_ = 11;
  std::chrono::milliseconds idle_timeout_{60000};
  std::shared_ptr<http::response<http::string_body>> response_;
  std::string raw_;
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(tcp::acceptor& acceptor, EmulatorService& service, TurnGate& gate, IoThreads& io_threads,
           ssl::context* tls, std::chrono::milliseconds idle_timeout)
      : acceptor_(acceptor),
        service_(service),
        gate_(gate),
        io_threads_(io_threads),
        tls_(tls),
        idle_timeout_(idle_timeout),
        retry_timer_(acceptor.get_executor()) {}

  void accept() {
    // The socket belongs to its lane's io_context from the start; this handler runs on the service's.
    auto& lane = io_threads_.next();
    acceptor_.async_accept(lane.context(),
                           [self = shared_from_this(), &lane](beast::error_code ec, tcp::socket socket) {
                             self->on_accept(ec, lane, std::move(socket));
                           });
  }

 private:
  void on_accept(beast::error_code ec, IoLane& lane, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec) {
      // E.g. out of file descriptors: back off briefly instead of spinning.
      retry_timer_.expires_after(std::chrono::milliseconds(100));
      retry_timer_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
        if (!wait_ec) self->accept();
      });
      return;
    }
    service_.note_connection_accepted();
    beast::error_code option_ec;
    socket.set_option(tcp::no_delay(true), option_ec);
    if (tls_ != nullptr) {
      auto session = std::make_shared<Session<TlsStream>>(service_, lane, gate_, std::move(socket), *tls_);
      lane.to_stream([session, timeout = idle_timeout_] { session->start(timeout); });
    } else {
      auto session = std::make_shared<Session<PlainStream>>(service_, lane, gate_, std::move(socket));
      lane.to_stream([session, timeout = idle_timeout_] { session->start(timeout); });
    }
    accept();
  }

  tcp::acceptor& acceptor_;
  EmulatorService& service_;
  TurnGate& gate_;
  IoThreads& io_threads_;
  ssl::context* tls_;
  std::chrono::milliseconds idle_timeout_;
  net::steady_timer retry_timer_;
};

// Webhook events leave through the gate too: a game server told of an entitlement must find it after a
// restart.
class GatedWebhookTransport final : public WebhookTransport {
 public:
  GatedWebhookTransport(WebhookTransport& inner, TurnGate& gate) : inner_(inner), gate_(gate) {}
  void post(WebhookPost post, std::function<void(WebhookPostResult)> done) override {
    gate_.send([this, post = std::move(post), done = std::move(done)]() mutable {
      inner_.post(std::move(post), std::move(done));
    });
  }

 private:
  WebhookTransport& inner_;
  TurnGate& gate_;
};

void configure_tls(ssl::context& context, const GeneratedCertificates& certificates) {
  context.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                      ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  SSL_CTX_set_min_proto_version(context.native_handle(), TLS1_2_VERSION);
  const std::string chain = certificates.server_certificate_pem + certificates.ca_certificate_pem;
  context.use_certificate_chain(net::buffer(chain));
  context.use_private_key(net::buffer(certificates.server_private_key_pem), ssl::context::pem);
}

}  // namespace

void run_server(const ServerSettings& settings, const ServiceFactory& make_service) {
  // Declared before the io_context so they outlive every session destroyed with it.
  std::unique_ptr<EmulatorService> service;
  std::optional<TurnGate> gate;
  std::optional<ssl::context> tls;
  if (settings.certificates != nullptr) {
    tls.emplace(ssl::context::tls_server);
    configure_tls(*tls, *settings.certificates);
  }
  // The connections' threads: destroyed after the io_context (its queued handlers, which may hold
  // connections, go before the connections do) and before the TLS context, the gate and the service, which
  // connections use to the end.
  std::optional<IoThreads> io_threads;

  net::io_context io_context(1);
  io_threads.emplace(io_context, settings.io_threads);
  const auto address = settings.host == "localhost" ? net::ip::make_address("127.0.0.1")
                                                    : net::ip::make_address(settings.host);
  const tcp::endpoint endpoint(address, settings.port);
  tcp::acceptor acceptor(io_context);
  try {
    acceptor.open(endpoint.protocol());
    acceptor.set_option(net::socket_base::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen(net::socket_base::max_listen_connections);
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on " + settings.host + ":" + std::to_string(settings.port) +
                             ": " + e.code().message());
  }

  // Destroyed before the io_context (and the service): stops listening and unlinks the socket file.
  std::optional<IpcServer> ipc;
  if (settings.ipc) ipc.emplace(io_context, *settings.ipc);

  // The forwarding unit's UDP socket (destroyed before the io_context, after detaching from the unit).
  VoiceUdpServer voice_udp(io_context, settings.host);
  // Webhook events' POSTs (its exchanges live in the io_context's handlers).
  WebhookClient webhook_client(io_context);

  // Installed before the connection file is published, so a SIGTERM sent as soon as it appears exits cleanly.
  net::signal_set signals(io_context, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) {
    beast::error_code ec;
    acceptor.close(ec);
    if (ipc) ipc->stop();
    voice_udp.close();
    io_context.stop();
  });

  service = make_service(
      BoundAddresses{acceptor.local_endpoint().port(), ipc ? ipc->path() : std::string(), voice_udp.port()});
  // The end of each turn that changed something commits it before its answers leave. A state file that
  // cannot be written stops the emulator: answering would acknowledge what is not durable.
  std::optional<std::string> fatal_error;
  gate.emplace(
      *service, [&](std::function<void()> end_turn) { net::post(io_context, std::move(end_turn)); },
      [&](const std::exception& e) {
        fatal_error = std::string("cannot write the state file: ") + e.what();
        beast::error_code ec;
        acceptor.close(ec);
        if (ipc) ipc->stop();
        io_context.stop();
      });
  voice_udp.start(service->forwarding_unit());
  GatedWebhookTransport gated_webhooks(webhook_client, *gate);
  service->set_webhook_transport(&gated_webhooks);
  if (ipc) {
    service->set_ipc_listener(&*ipc);
    ipc->serve(*service, *gate);
  }

  std::make_shared<Listener>(acceptor, *service, *gate, *io_threads, tls ? &*tls : nullptr,
                             settings.idle_timeout)
      ->accept();
  // The Gateway's clocks: zombie connections and expired resumable sessions.
  net::steady_timer gateway_timer(io_context);
  std::function<void()> schedule_gateway_tick = [&] {
    gateway_timer.expires_after(std::chrono::milliseconds(25));
    gateway_timer.async_wait([&](beast::error_code ec) {
      if (ec) return;
      service->gateway_tick();
      schedule_gateway_tick();
    });
  };
  schedule_gateway_tick();
  run_until_stopped(io_context);
  // Nothing runs on the connections' threads from here on; what they hand the service thread now waits in
  // its io_context and is destroyed with it.
  io_threads->stop();
  if (ipc) ipc->stop();
  voice_udp.close();
  service->set_ipc_listener(nullptr);
  // While the io_context still exists: PUTs waiting for a PING let go of their sessions.
  service->set_webhook_transport(nullptr);
  // What changed since the last turn (e.g. webhook deliveries interrupted by the transport's detaching) is
  // committed before a clean exit.
  if (!fatal_error) {
    try {
      service->end_turn();
    } catch (const std::exception& e) {
      fatal_error = std::string("cannot write the state file: ") + e.what();
    }
  }
  // Sessions destroyed with the io_context say goodbye to the service; nothing they send goes out now.
  gate->close();
  if (fatal_error) throw std::runtime_error(*fatal_error);
}

}  // namespace platformpp::emulator
