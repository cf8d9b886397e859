// platformpp::backend::WebhookEvents: the webhook events endpoint, one of the library's few Beast server
// translation units. Everything network-side runs on one strand (the listener, its connections and their
// requests); events cross to the user's thread through the callback queue, as everywhere in the SDK.
#include "core/asio_prelude.hpp"

#include "backend/backend_access.hpp"
#include "backend/webhook_delivered_ids.hpp"
#include "core/callback_queue.hpp"
#include "core/io_context_access.hpp"
#include "core/logger.hpp"

#include <platformpp/io_context.hpp>
#include <platformpp/webhook_events.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <atomic>
#include <future>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

namespace platformpp::backend {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using Strand = asio::strand<asio::io_context::executor_type>;

constexpr std::size_t kMaxHeaderBytes = std::size_t{16} * 1024;

// The user's event callback, read on the user's thread when an event is delivered.
class Delivery {
 public:
  void Set(WebhookEvents::EventCallback callback) {
    auto next = std::make_shared<WebhookEvents::EventCallback>(std::move(callback));
    std::shared_ptr<WebhookEvents::EventCallback> previous;
    {
      std::lock_guard lock(mutex_);
      previous = std::exchange(callback_, std::move(next));
    }
    // Released outside the lock: what the old callback holds (a C caller's user_data) may call back in.
  }
  std::shared_ptr<WebhookEvents::EventCallback> Get() const {
    std::lock_guard lock(mutex_);
    return callback_;
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<WebhookEvents::EventCallback> callback_;
};

// What the network side shares with the WebhookEvents that started it, and keeps across Stop and Start.
struct Shared {
  WebhookEventsOptions options;
  std::shared_ptr<core::CallbackQueue> queue;
  std::shared_ptr<core::Logger> logger;
  std::shared_ptr<Delivery> delivery;
  std::shared_ptr<WebhookDeliveredIds> delivered;
  std::shared_ptr<ssl::context> tls;  // null: plain HTTP

  std::chrono::system_clock::time_point Now() const {
    return options.clock ? options.clock() : std::chrono::system_clock::now();
  }
};

bool IsHex(std::string_view text) {
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  }
  return true;
}

std::string_view PathOf(std::string_view target) {
  return target.substr(0, target.find('?'));
}

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& io, std::shared_ptr<const Shared> shared)
      : strand_(asio::make_strand(io)), acceptor_(strand_), shared_(std::move(shared)) {}
  ~Listener() { stopped_.set_value(); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  std::future<void> StoppedFuture() { return stopped_.get_future(); }

  /// Binds; throws boost::system::system_error.
  uint16_t Open(const tcp::endpoint& endpoint) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(asio::socket_base::max_listen_connections);
    return acceptor_.local_endpoint().port();
  }

  void Start() { asio::co_spawn(strand_, Accept(shared_from_this()), asio::detached); }

  void Close() {
    asio::dispatch(strand_, [self = shared_from_this()] {
      self->closed_ = true;
      beast::error_code ignored;
      self->acceptor_.close(ignored);
      for (beast::tcp_stream* stream : self->streams_)
        stream->socket().close(ignored);
    });
  }

 private:
  static asio::awaitable<void> Accept(std::shared_ptr<Listener> self) {
    while (!self->closed_) {
      beast::error_code ec;
      tcp::socket socket(self->strand_);
      co_await self->acceptor_.async_accept(socket, asio::redirect_error(asio::use_awaitable, ec));
      if (self->closed_) break;
      if (ec) {
        // Out of descriptors and the like: the listener stays; the next accept may succeed.
        self->shared_->logger->Warning("webhook events: accept failed: " + ec.message());
        continue;
      }
      if (self->streams_.size() >= self->shared_->options.maxConnections) {
        self->shared_->logger->Warning("webhook events: too many connections; one closed at accept");
        socket.close(ec);
        continue;
      }
      asio::co_spawn(self->strand_, Serve(self, std::move(socket)), asio::detached);
    }
  }

  static asio::awaitable<void> Serve(std::shared_ptr<Listener> self, tcp::socket socket) {
    if (self->closed_) co_return;
    const auto timeout = self->shared_->options.requestTimeout;
    if (self->shared_->tls) {
      beast::ssl_stream<beast::tcp_stream> stream(beast::tcp_stream(std::move(socket)), *self->shared_->tls);
      Registration registration(*self, beast::get_lowest_layer(stream));
      beast::get_lowest_layer(stream).expires_after(timeout);
      beast::error_code ec;
      co_await stream.async_handshake(ssl::stream_base::server,
                                      asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        self->shared_->logger->Verbose("webhook events: TLS handshake failed: " + ec.message());
        co_return;
      }
      co_await self->Exchanges(stream);
    } else {
      beast::tcp_stream stream(std::move(socket));
      Registration registration(*self, stream);
      co_await self->Exchanges(stream);
    }
  }

  // The connection is known to Close while it lives.
  struct Registration {
    Registration(Listener& listener, beast::tcp_stream& stream) : listener(listener), stream(&stream) {
      listener.streams_.insert(this->stream);
    }
    ~Registration() {
      listener.streams_.erase(stream);
      beast::error_code ignored;
      stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
      stream->socket().close(ignored);
    }
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;
    Listener& listener;
    beast::tcp_stream* stream;
  };

  // Requests on one connection, kept alive as long as the client asks and stays within the timeout.
  template <class Stream>
  asio::awaitable<void> Exchanges(Stream& stream) {
    const WebhookEventsOptions& options = shared_->options;
    beast::flat_buffer buffer;
    while (!closed_) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(kMaxHeaderBytes);
      parser.body_limit(options.maxBodyBytes);
      beast::get_lowest_layer(stream).expires_after(options.requestTimeout);
      beast::error_code ec;
      co_await http::async_read(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
      if (closed_) co_return;
      http::response<http::string_body> response;
      response.version(11);
      bool keepAlive = false;
      if (!ec) {
        response.result(Handle(parser.get()));
        keepAlive = parser.get().keep_alive();
      } else if (ec == http::error::body_limit) {
        response.result(http::status::payload_too_large);
      } else if (ec.category() == http::make_error_code(http::error::bad_target).category() &&
                 ec != http::error::end_of_stream && ec != http::error::partial_message) {
        response.result(http::status::bad_request);
      } else {
        // The client went away or was too slow: nothing to answer.
        if (ec != http::error::end_of_stream)
          shared_->logger->Verbose("webhook events: connection closed: " + ec.message());
        co_return;
      }
      response.keep_alive(keepAlive);
      response.prepare_payload();
      beast::get_lowest_layer(stream).expires_after(options.requestTimeout);
      co_await http::async_write(stream, response, asio::redirect_error(asio::use_awaitable, ec));
      if (ec || !keepAlive) co_return;
    }
  }

  http::status Handle(const http::request<http::string_body>& request) {
    const WebhookEventsOptions& options = shared_->options;
    if (PathOf(request.target()) != options.path) return http::status::not_found;
    if (request.method() != http::verb::post) return http::status::method_not_allowed;
    auto signature = request.find("X-Signature-Ed25519");
    auto timestamp = request.find("X-Signature-Timestamp");
    if (signature == request.end() || timestamp == request.end()) {
      shared_->logger->Warning("webhook events: a request without its signature headers, refused (401)");
      return http::status::unauthorized;
    }
    const auto now = shared_->Now();
    WebhookVerification verdict = VerifyWebhookEvent(options.publicKeyHex, signature->value(),
                                                     timestamp->value(), request.body(), now, options.maxAge);
    if (verdict.status != 204 || !verdict.event) {
      shared_->logger->Warning("webhook events: request refused (" + std::to_string(verdict.status) +
                               "): " + verdict.error);
      return static_cast<http::status>(verdict.status);
    }
    WebhookEvent& event = *verdict.event;
    if (event.type == WebhookEvent::Type::Ping) return http::status::no_content;
    if (!shared_->delivered->FirstTime(event.eventId, now)) {
      shared_->logger->Info("webhook events: " + event.eventType + " " + event.eventId +
                            " delivered before; this retry is acknowledged only");
      return http::status::no_content;
    }
    shared_->queue->Push([delivery = shared_->delivery, logger = shared_->logger,
                          event = std::move(event)](core::CallbackMode mode) {
      if (mode != core::CallbackMode::Deliver) return;
      auto callback = delivery->Get();
      if (!callback || !*callback) {
        logger->Warning("webhook events: " + event.eventType + " received with no event callback set");
        return;
      }
      (*callback)(event);
    });
    return http::status::no_content;
  }

  std::promise<void> stopped_;
  Strand strand_;
  tcp::acceptor acceptor_;
  std::shared_ptr<const Shared> shared_;
  std::set<beast::tcp_stream*> streams_;
  bool closed_ = false;
};

}  // namespace

class WebhookEvents::Impl {
 public:
  explicit Impl(WebhookEventsOptions options)
      : options_(std::move(options)),
        io_(options_.ioContext ? options_.ioContext : std::make_shared<IoContext>(1)),
        queue_(std::make_shared<core::CallbackQueue>()),
        logger_(std::make_shared<core::Logger>(queue_)),
        delivery_(std::make_shared<Delivery>()),
        delivered_(
            std::make_shared<WebhookDeliveredIds>(options_.deliveredMemory, options_.deliveredCapacity)) {}

  ~Impl() {
    Stop();
    queue_->BeginShutdown();
    queue_->Shutdown();
  }

  ClientResult Start() {
    if (listener_) return {};
    if (options_.publicKeyHex.size() != 64 || !IsHex(options_.publicKeyHex))
      return Invalid("publicKeyHex: must be 64 hex digits");
    if (options_.path.empty() || options_.path.front() != '/' ||
        options_.path.find_first_of("? \r\n") != std::string::npos)
      return Invalid("path: must start with '/' and hold no query");
    if (options_.tlsCertificateChainFile.empty() != options_.tlsPrivateKeyFile.empty())
      return Invalid("tls: give both the certificate chain and the private key, or neither");
    auto shared = std::make_shared<Shared>();
    shared->options = options_;
    shared->options.ioContext.reset();  // the network side must not own the context it runs on
    shared->queue = queue_;
    shared->logger = logger_;
    shared->delivery = delivery_;
    shared->delivered = delivered_;
    if (!options_.tlsCertificateChainFile.empty()) {
      try {
        auto tls = std::make_shared<ssl::context>(ssl::context::tls_server);
        tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
        SSL_CTX_set_min_proto_version(tls->native_handle(), TLS1_2_VERSION);
        tls->use_certificate_chain_file(options_.tlsCertificateChainFile);
        tls->use_private_key_file(options_.tlsPrivateKeyFile, ssl::context::pem);
        shared->tls = std::move(tls);
      } catch (const boost::system::system_error& e) {
        return Invalid(std::string("tls: cannot load the certificate chain or private key: ") + e.what());
      }
    }
    beast::error_code ec;
    auto address = asio::ip::make_address(options_.address, ec);
    if (ec) return Invalid("address: not an IP address");
    auto listener = std::make_shared<Listener>(core::IoContextAccess::Get(*io_), std::move(shared));
    try {
      port_ = listener->Open(tcp::endpoint(address, options_.port));
    } catch (const boost::system::system_error& e) {
      return ClientResult::Failure(ErrorType::NetworkError, "cannot listen on " + options_.address + ":" +
                                                                std::to_string(options_.port) + ": " +
                                                                e.code().message());
    }
    stopped_ = listener->StoppedFuture();
    listener->Start();
    listener_ = std::move(listener);
    running_.store(true);
    logger_->Info("webhook events: listening on " + options_.address + ":" + std::to_string(port_) +
                  options_.path + (options_.tlsCertificateChainFile.empty() ? " (HTTP)" : " (HTTPS)"));
    return {};
  }

  void Stop() {
    if (!listener_) return;
    listener_->Close();
    listener_.reset();
    core::IoContextAccess::WaitFor(*io_, stopped_);
    running_.store(false);
    port_ = 0;
  }

  void RunCallbacks() {
    if (io_->Pumped()) core::IoContextAccess::Get(*io_).poll();
    queue_->Drain();
  }

  bool WaitForCallbacks(std::chrono::milliseconds timeout) {
    bool ready = false;
    if (io_->Pumped()) {
      auto deadline = std::chrono::steady_clock::now() + timeout;
      auto& io = core::IoContextAccess::Get(*io_);
      while (!(ready = queue_->HasPending()) && std::chrono::steady_clock::now() < deadline)
        io.run_one_until(deadline);
    } else {
      ready = queue_->Wait(timeout);
    }
    queue_->Drain();
    return ready;
  }

  WebhookEventsOptions options_;
  std::shared_ptr<IoContext> io_;
  std::shared_ptr<core::CallbackQueue> queue_;
  std::shared_ptr<core::Logger> logger_;
  std::shared_ptr<Delivery> delivery_;
  std::shared_ptr<WebhookDeliveredIds> delivered_;
  std::shared_ptr<Listener> listener_;
  std::future<void> stopped_;
  std::atomic<bool> running_{false};
  std::atomic<uint16_t> port_{0};

 private:
  static ClientResult Invalid(std::string why) {
    return ClientResult::Failure(ErrorType::ValidationError, "webhook events: " + std::move(why));
  }
};

WebhookEvents::WebhookEvents(WebhookEventsOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

WebhookEvents::~WebhookEvents() = default;

std::shared_ptr<core::Logger> BackendAccess::LoggerOf(const WebhookEvents& events) noexcept {
  return events.impl_->logger_;
}

void WebhookEvents::SetEventCallback(EventCallback callback) {
  impl_->delivery_->Set(std::move(callback));
}

void WebhookEvents::AddLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
  impl_->logger_->AddCallback(std::move(callback), minSeverity);
}

ClientResult WebhookEvents::Start() {
  return impl_->Start();
}

void WebhookEvents::Stop() {
  impl_->Stop();
}

bool WebhookEvents::Running() const noexcept {
  return impl_->running_.load();
}

uint16_t WebhookEvents::Port() const noexcept {
  return impl_->port_.load();
}

void WebhookEvents::RunCallbacks() {
  impl_->RunCallbacks();
}

bool WebhookEvents::WaitForCallbacks(int32_t timeoutMilliseconds) {
  return impl_->WaitForCallbacks(std::chrono::milliseconds(std::max(timeoutMilliseconds, 0)));
}

}  // namespace platformpp::backend
