// The backend endpoints' HTTP(S) server (endpoint_server.hpp), one of the library's few Beast server
// translation units. The listener, its connections and their requests run on one strand; an answer given
// from another thread crosses to it with dispatch.
#include "core/asio_prelude.hpp"

#include "backend/endpoint_server.hpp"
#include "beast_stream/maybe_tls_stream.hpp"
#include "core/io_context_access.hpp"

#include <platformpp/io_context.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <future>
#include <set>
#include <utility>

namespace platformpp::backend::endpoint {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using Strand = asio::strand<asio::io_context::executor_type>;

constexpr std::size_t kMaxHeaderBytes = std::size_t{16} * 1024;

std::string_view PathOf(std::string_view target) {
  return target.substr(0, target.find('?'));
}

std::optional<std::string_view> HeaderOf(const http::request<http::string_body>& request,
                                         std::string_view name) {
  auto field = request.find(beast::string_view(name.data(), name.size()));
  if (field == request.end()) return std::nullopt;
  return std::string_view(field->value().data(), field->value().size());
}

// One request's answer: given once, on the strand; the connection's coroutine waits on the timer until then.
struct PendingAnswer {
  explicit PendingAnswer(Strand& strand) : timer(strand) {}
  asio::steady_timer timer;
  std::optional<Answer> answer;
};

struct Shared {
  ServerSettings settings;
  Handler handler;
  std::shared_ptr<core::Logger> logger;
  std::shared_ptr<ssl::context> tls;  // null: plain HTTP
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& io, std::shared_ptr<const Shared> shared)
      : strand_(asio::make_strand(io)), acceptor_(strand_), shared_(std::move(shared)) {}
  ~Listener() {
    // The handler and what it holds (an endpoint's shared state, its IoContext) go before Stop returns, so
    // that nothing of them is released on this thread once the owner moved on.
    shared_.reset();
    stopped_.set_value();
  }
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
      for (PendingAnswer* pending : self->waiting_)
        pending->timer.cancel();
    });
  }

 private:
  const std::string& Name() const { return shared_->settings.name; }

  static asio::awaitable<void> Accept(std::shared_ptr<Listener> self) {
    while (!self->closed_) {
      beast::error_code ec;
      tcp::socket socket(self->strand_);
      co_await self->acceptor_.async_accept(socket, asio::redirect_error(asio::use_awaitable, ec));
      if (self->closed_) break;
      if (ec) {
        // Out of descriptors and the like: the listener stays; the next accept may succeed.
        self->shared_->logger->Warning(self->Name() + ": accept failed: " + ec.message());
        continue;
      }
      if (self->streams_.size() >= self->shared_->settings.maxConnections) {
        self->shared_->logger->Warning(self->Name() + ": too many connections; one closed at accept");
        socket.close(ec);
        continue;
      }
      asio::co_spawn(self->strand_, Serve(self, std::move(socket)), asio::detached);
    }
  }

  static asio::awaitable<void> Serve(std::shared_ptr<Listener> self, tcp::socket socket) {
    if (self->closed_) co_return;
    const auto timeout = self->shared_->settings.requestTimeout;
    // One stream type for HTTP and HTTPS: Beast's HTTP templates and the stream layers under them are then
    // compiled once (beast_stream/maybe_tls_stream.hpp).
    beast_stream::MaybeTlsStream stream =
        self->shared_->tls ? beast_stream::MaybeTlsStream(std::move(socket), *self->shared_->tls)
                           : beast_stream::MaybeTlsStream(std::move(socket));
    Registration registration(*self, beast::get_lowest_layer(stream));
    if (stream.Secure()) {
      beast::get_lowest_layer(stream).expires_after(timeout);
      beast::error_code ec;
      co_await stream.Tls().async_handshake(ssl::stream_base::server,
                                            asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        self->shared_->logger->Verbose(self->Name() + ": TLS handshake failed: " + ec.message());
        co_return;
      }
    }
    co_await self->Exchanges(stream);
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
  asio::awaitable<void> Exchanges(beast_stream::MaybeTlsStream& stream) {
    const ServerSettings& settings = shared_->settings;
    beast::flat_buffer buffer;
    while (!closed_) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(kMaxHeaderBytes);
      parser.body_limit(settings.maxBodyBytes);
      beast::get_lowest_layer(stream).expires_after(settings.requestTimeout);
      beast::error_code ec;
      co_await http::async_read(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
      if (closed_) co_return;
      Answer answer;
      bool keepAlive = false;
      if (!ec) {
        keepAlive = parser.get().keep_alive();
        std::optional<Answer> given = co_await Handle(parser.get());
        if (closed_ || !given) co_return;
        answer = std::move(*given);
      } else if (ec == http::error::body_limit) {
        answer.status = static_cast<int>(http::status::payload_too_large);
      } else if (ec.category() == http::make_error_code(http::error::bad_target).category() &&
                 ec != http::error::end_of_stream && ec != http::error::partial_message) {
        answer.status = static_cast<int>(http::status::bad_request);
      } else {
        // The client went away or was too slow: nothing to answer.
        if (ec != http::error::end_of_stream)
          shared_->logger->Verbose(Name() + ": connection closed: " + ec.message());
        co_return;
      }
      http::response<http::string_body> response;
      response.version(11);
      response.result(static_cast<http::status>(answer.status));
      if (!answer.body.empty()) {
        response.set(http::field::content_type, answer.contentType);
        response.body() = std::move(answer.body);
      }
      response.keep_alive(keepAlive);
      response.prepare_payload();
      beast::get_lowest_layer(stream).expires_after(settings.requestTimeout);
      co_await http::async_write(stream, response, asio::redirect_error(asio::use_awaitable, ec));
      if (ec || !keepAlive) co_return;
    }
  }

  // The request's answer: at once for the server's own refusals, else whenever the handler gives it (or 500
  // after the request timeout). Empty when the server closed meanwhile.
  asio::awaitable<std::optional<Answer>> Handle(const http::request<http::string_body>& request) {
    if (PathOf(request.target()) != shared_->settings.path)
      co_return Answer{static_cast<int>(http::status::not_found), {}, {}};
    if (request.method() != http::verb::post)
      co_return Answer{static_cast<int>(http::status::method_not_allowed), {}, {}};
    auto pending = std::make_shared<PendingAnswer>(strand_);
    Reply reply = [pending, strand = strand_](Answer answer) mutable {
      asio::dispatch(strand, [pending, answer = std::move(answer)]() mutable {
        if (pending->answer) return;
        pending->answer = std::move(answer);
        pending->timer.cancel();
      });
    };
    SignedRequest signedRequest;
    signedRequest.signature = HeaderOf(request, "X-Signature-Ed25519");
    signedRequest.timestamp = HeaderOf(request, "X-Signature-Timestamp");
    signedRequest.body = request.body();
    std::optional<Deadline> deadline = shared_->handler(signedRequest, reply);
    const auto arrived = std::chrono::steady_clock::now();
    const auto giveUp = arrived + shared_->settings.requestTimeout;
    while (!pending->answer) {
      const bool expiring = deadline && deadline->expire && arrived + deadline->after < giveUp;
      pending->timer.expires_at(expiring ? arrived + deadline->after : giveUp);
      waiting_.insert(pending.get());
      beast::error_code ec;
      co_await pending->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      waiting_.erase(pending.get());
      if (closed_) co_return std::nullopt;
      if (pending->answer || ec) continue;  // answered (the timer cancelled), or woken early: wait on
      if (expiring) {
        auto expire = std::move(deadline->expire);
        deadline.reset();
        expire();
        continue;
      }
      shared_->logger->Warning(Name() + ": a request was left unanswered; answered 500");
      pending->answer = Answer{static_cast<int>(http::status::internal_server_error), {}, {}};
    }
    co_return std::move(*pending->answer);
  }

  std::promise<void> stopped_;
  Strand strand_;
  tcp::acceptor acceptor_;
  std::shared_ptr<const Shared> shared_;
  std::set<beast::tcp_stream*> streams_;
  std::set<PendingAnswer*> waiting_;
  bool closed_ = false;
};

ClientResult Invalid(const std::string& name, std::string why) {
  return ClientResult::Failure(ErrorType::ValidationError, name + ": " + std::move(why));
}

}  // namespace

class Server::Impl {
 public:
  Impl(std::shared_ptr<IoContext> io, std::shared_ptr<core::Logger> logger)
      : io_(std::move(io)), logger_(std::move(logger)) {}

  ClientResult Start(const ServerSettings& settings, Handler handler) {
    if (listener_) return {};
    const std::string& name = settings.name;
    if (settings.path.empty() || settings.path.front() != '/' ||
        settings.path.find_first_of("? \r\n") != std::string::npos)
      return Invalid(name, "path: must start with '/' and hold no query");
    if (settings.tlsCertificateChainFile.empty() != settings.tlsPrivateKeyFile.empty())
      return Invalid(name, "tls: give both the certificate chain and the private key, or neither");
    auto shared = std::make_shared<Shared>();
    shared->settings = settings;
    shared->handler = std::move(handler);
    shared->logger = logger_;
    if (!settings.tlsCertificateChainFile.empty()) {
      try {
        auto tls = std::make_shared<ssl::context>(ssl::context::tls_server);
        tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
        SSL_CTX_set_min_proto_version(tls->native_handle(), TLS1_2_VERSION);
        tls->use_certificate_chain_file(settings.tlsCertificateChainFile);
        tls->use_private_key_file(settings.tlsPrivateKeyFile, ssl::context::pem);
        shared->tls = std::move(tls);
      } catch (const boost::system::system_error& e) {
        return Invalid(name,
                       std::string("tls: cannot load the certificate chain or private key: ") + e.what());
      }
    }
    beast::error_code ec;
    auto address = asio::ip::make_address(settings.address, ec);
    if (ec) return Invalid(name, "address: not an IP address");
    auto listener = std::make_shared<Listener>(core::IoContextAccess::Get(*io_), std::move(shared));
    try {
      port_ = listener->Open(tcp::endpoint(address, settings.port));
    } catch (const boost::system::system_error& e) {
      return ClientResult::Failure(ErrorType::NetworkError, "cannot listen on " + settings.address + ":" +
                                                                std::to_string(settings.port) + ": " +
                                                                e.code().message());
    }
    stopped_ = listener->StoppedFuture();
    listener->Start();
    listener_ = std::move(listener);
    running_.store(true);
    logger_->Info(name + ": listening on " + settings.address + ":" + std::to_string(port_.load()) +
                  settings.path + (settings.tlsCertificateChainFile.empty() ? " (HTTP)" : " (HTTPS)"));
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

  std::shared_ptr<IoContext> io_;
  std::shared_ptr<core::Logger> logger_;
  std::shared_ptr<Listener> listener_;
  std::future<void> stopped_;
  std::atomic<bool> running_{false};
  std::atomic<uint16_t> port_{0};
};

Server::Server(std::shared_ptr<IoContext> io, std::shared_ptr<core::Logger> logger)
    : impl_(std::make_unique<Impl>(std::move(io), std::move(logger))) {}

Server::~Server() {
  impl_->Stop();
}

ClientResult Server::Start(const ServerSettings& settings, Handler handler) {
  return impl_->Start(settings, std::move(handler));
}

void Server::Stop() {
  impl_->Stop();
}

bool Server::Running() const noexcept {
  return impl_->running_.load();
}

uint16_t Server::Port() const noexcept {
  return impl_->port_.load();
}

}  // namespace platformpp::backend::endpoint
