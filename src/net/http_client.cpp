// The library's one Beast HTTP translation unit: connection pools, TLS, rate limits, retries.
#include "core/asio_prelude.hpp"

#include "net/http_client.hpp"

#include <platformpp/io_context.hpp>

#include "core/io_context_access.hpp"
#include "core/logger.hpp"
#include "core/random.hpp"
#include "core/redaction.hpp"
#include "json/json.hpp"
#include "net/backoff.hpp"
#include "net/cancel_registry.hpp"
#include "net/client_tls.hpp"
#include "net/http_connection.hpp"
#include "net/http_result.hpp"
#include "net/rate_limiter.hpp"
#include "net/url.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/read_size.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#ifdef _WIN32
#include <winsock2.h>
#else
#include <sys/socket.h>
#endif

#include <cerrno>

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace platformpp::net {
namespace {

using namespace http_detail;  // NOLINT: the exchange pieces of http_connection.hpp

constexpr asio::use_awaitable_t<Strand> kAwait;

bool IEquals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool HasLineBreak(std::string_view text) {
  // Not find_first_of("\r\n"): that costs a memchr call per character, and header values (tokens) are long.
  return text.find('\r') != std::string_view::npos || text.find('\n') != std::string_view::npos;
}

ClientResult NetworkFailure(std::string message, bool retryable) {
  ClientResult::Details details;
  details.type = ErrorType::NetworkError;
  details.error = std::move(message);
  details.retryable = retryable;
  return ClientResult(std::move(details));
}

}  // namespace

class HttpClient::Impl : public std::enable_shared_from_this<Impl> {
 public:
  Impl(asio::io_context& io, std::shared_ptr<core::Logger> logger, HttpClientOptions options)
      : shared_(asio::use_service<SharedPools>(static_cast<asio::execution_context&>(io))),
        strand_(shared_.strand),
        logger_(std::move(logger)),
        options_(std::move(options)) {
    timeoutMs_.store(options_.timeout.count());
  }

  ~Impl() { stopped_.set_value(); }

  std::future<void> StoppedFuture() { return stopped_.get_future(); }

  void Send(HttpRequest request, Handler handler) {
    // Execute is the spawned coroutine itself (no wrapper frame to allocate and resume); its response goes to
    // the handler on the strand. The frame only holds the request until the strand runs it.
    asio::co_spawn(
        strand_, Execute(std::move(request)),
        [self = shared_from_this(), handler = std::move(handler)](const std::exception_ptr& error,
                                                                  HttpResponse response) mutable {
          if (!error) {
            // After a shutdown the handler is destroyed instead; its owner reports the shutdown.
            if (!self->shutdown_) handler(std::move(response));
            return;
          }
          try {
            std::rethrow_exception(error);
          } catch (const std::exception& e) {
            self->logger_->Error(std::string("HTTP: request failed with an exception: ") + e.what());
          } catch (...) {
            self->logger_->Error("HTTP: request failed with an unknown exception");
          }
        });
  }

  // The idle connections stay in the shared pools for the other clients of the context (and are reaped in
  // their time); what this client is doing (connecting, exchanging, waiting) is cancelled.
  void Shutdown() {
    asio::dispatch(strand_, [self = shared_from_this()] {
      self->shutdown_ = true;
      self->cancels_.CancelAll();
    });
  }

  std::atomic<int64_t> timeoutMs_{30000};

 private:
  Task<void> SleepUntil(SteadyClock::time_point until) {
    Timer timer(strand_, until);
    ScopedCancel cancel(cancels_, [&timer] { timer.cancel(); });
    error_code ec;
    co_await timer.async_wait(asio::redirect_error(kAwait, ec));
  }

  // GCC 12 pairs this coroutine frame's class operator delete with the ::operator new inside Asio's frame
  // recycling allocator once that is inlined, and reports a mismatch: a false positive (the class's own new
  // and delete are a pair). Whether it shows depends on inlining budgets, hence on unrelated code here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
  Task<HttpResponse> Execute(HttpRequest request) {
    HttpResponse response;
    // Requests in a row mostly go to the same URL: parse it (and build its strings) once.
    if (request.url != parsedText_) {
      parsedText_ = request.url;
      std::optional<Url> parsed = ParseUrl(request.url);
      parsed_ = parsed ? std::make_shared<const Endpoint>(*parsed, trustKey_) : nullptr;
    }
    const std::shared_ptr<const Endpoint> endpoint = parsed_;
    const Url* url = endpoint ? &endpoint->url : nullptr;
    if (!url || (url->scheme != "https" && url->scheme != "http")) {
      response.transport = ClientResult::Failure(ErrorType::ValidationError, "invalid request URL");
      co_return response;
    }
    if (HasLineBreak(request.method) || HasLineBreak(request.contentType) ||
        std::any_of(request.headers.begin(), request.headers.end(),
                    [](const HttpHeader& h) { return HasLineBreak(h.first) || HasLineBreak(h.second); })) {
      response.transport = ClientResult::Failure(ErrorType::ValidationError, "line break in an HTTP header");
      co_return response;
    }
    // Certificate stores are loaded on the first https request (on the network thread), not when the Client
    // is created, and once for every Client with the same trust settings (ClientTls).
    if (url->Secure() && !tls_.Get(*logger_)) {
      response.transport = NetworkFailure(tls_.Error(), false);
      co_return response;
    }

    // Like the URL, the route key mostly repeats.
    if (request.method != routeMethod_ || endpoint != routeEndpoint_) {
      routeMethod_ = request.method;
      routeEndpoint_ = endpoint;
      routeKey_ = RateLimiter::RouteKey(request.method, url->Path());
    }
    const std::string routeKey = routeKey_;
    const bool retrySafe = request.retrySafe || IsIdempotentMethod(request.method);
    const auto timeout = request.timeout.value_or(std::chrono::milliseconds(timeoutMs_.load()));
    Backoff backoff(options_.backoffInitial, options_.backoffMaximum, random_);
    int rateLimited = 0;
    bool staleRetried = false;
    const auto started = SteadyClock::now();

    for (;;) {
      // Rate limits: wait while the route's bucket (or the global limit) is exhausted.
      while (auto until = limiter_.TryAcquire(routeKey, SteadyClock::now())) {
        const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(*until - SteadyClock::now());
        const double seconds = std::chrono::duration<double>(wait).count();
        if (seconds > options_.maxRateLimitWait) {
          // A bucket empty for longer than a 429's retry_after would be waited out (e.g. a limit of two
          // hours): the request fails now as rate limited, with the wait left, rather than hanging that long.
          logger_->Warning("HTTP: " + routeKey + " is rate limited for " +
                           std::to_string(wait.count() / 1000) + " s more; not sent");
          response.status = 429;
          response.headers.emplace_back("Retry-After", std::to_string(seconds));
          response.body = R"({"message":"You are being rate limited.","retry_after":)" +
                          std::to_string(seconds) + R"(,"global":false})";
          co_return response;
        }
        if (logger_->Enabled(LoggingSeverity::Verbose)) {
          logger_->Verbose("HTTP: " + routeKey + " waits " + std::to_string(wait.count()) +
                           " ms for its rate limit");
        }
        co_await SleepUntil(*until);
        if (shutdown_) co_return response;
      }

      ++response.attempts;
      LogRequest(request, *url);
      Attempt attempt = co_await Exchange(request, *endpoint, timeout);
      if (shutdown_) co_return response;

      if (attempt.ec) {
        bool timedOut = attempt.ec == beast::error::timeout;
        std::string message = timedOut ? "request timed out after " + std::to_string(timeout.count()) + " ms"
                                       : attempt.failure + " failed: " + attempt.ec.message();
        // A keep-alive connection the server closed while it sat idle: try once more on a fresh one.
        bool stale = attempt.reused && !attempt.gotBytes && !timedOut && (retrySafe || !attempt.sent);
        if (stale && !staleRetried) {
          staleRetried = true;
          --response.attempts;
          logger_->Verbose("HTTP: " + routeKey + " reused connection was closed; retrying on a new one");
          continue;
        }
        bool retry = !timedOut && (retrySafe || !attempt.sent) && response.attempts < options_.maxAttempts &&
                     !attempt.tlsRefused;
        if (retry) {
          auto delay = backoff.Next();
          logger_->Warning("HTTP: " + routeKey + " " + message + "; retry in " +
                           std::to_string(delay.count()) + " ms");
          co_await SleepUntil(SteadyClock::now() + delay);
          if (shutdown_) co_return response;
          continue;
        }
        logger_->Warning("HTTP: " + routeKey + " " + message);
        response.transport = NetworkFailure(message, !attempt.tlsRefused);
        co_return response;
      }

      response.status = attempt.status;
      response.headers = std::move(attempt.headers);
      response.body = std::move(attempt.body);
      LogResponse(request, routeKey, response, started);

      RateLimitHeaders limits = ReadRateLimitHeaders(response);
      limiter_.Update(routeKey, limits, SteadyClock::now());

      if (response.status == 429) {
        bool global = limits.global;
        double retryAfter = RetryAfterSeconds(response, limits, global);
        limiter_.OnTooManyRequests(routeKey, global, retryAfter, SteadyClock::now());
        if (++rateLimited <= options_.maxRateLimitRetries && retryAfter <= options_.maxRateLimitWait) {
          logger_->Info("HTTP: " + routeKey + " rate limited" + (global ? " (global)" : "") + "; retry in " +
                        std::to_string(static_cast<int>(retryAfter * 1000)) + " ms");
          continue;
        }
        co_return response;
      }
      if (response.status >= 500 && retrySafe && response.attempts < options_.maxAttempts) {
        auto delay = backoff.Next();
        logger_->Warning("HTTP: " + routeKey + " answered " + std::to_string(response.status) +
                         "; retry in " + std::to_string(delay.count()) + " ms");
        co_await SleepUntil(SteadyClock::now() + delay);
        if (shutdown_) co_return response;
        continue;
      }
      co_return response;
    }
  }
#pragma GCC diagnostic pop

  // One network attempt: a pooled or new connection, the request written, the response read.
  Task<Attempt> Exchange(const HttpRequest& request, const Endpoint& endpoint,
                         std::chrono::milliseconds timeout) {
    Attempt attempt;
    const Url& url = endpoint.url;
    const std::string& origin = endpoint.pool;
    const auto deadline = SteadyClock::now() + timeout;
    // A warm keep-alive connection needs no coroutine of its own to be taken from the pool.
    std::unique_ptr<Connection> connection = TakeIdle(shared_.pools[origin]);
    if (!connection) connection = co_await Acquire(origin, url, deadline, attempt);
    if (!connection) co_return attempt;
    ScopedCancel cancel(cancels_, [c = connection.get()] { c->Close(); });
    attempt.reused = connection->uses > 0;
    connection->Guard(deadline);

    Serialize(request, endpoint, connection->wire);
    ResponseReader parser(attempt.status, attempt.headers, attempt.body);
    parser.header_limit(64 * 1024);
    parser.body_limit(options_.maxResponseBytes);
    attempt.sent = true;
    attempt.failure = "request";
    // The request written and the response read, in this frame: the parser is fed straight from the
    // connection's buffer, with no Beast composed operation (and its own work tracking and post) per layer.
    Connection& c = *connection;
    error_code& ec = attempt.ec;
    if (c.tls) {
      // The request is one buffer: one composed write on the TLS stream, one record for a typical request.
      co_await asio::async_write(*c.tls, asio::buffer(c.wire), asio::redirect_error(kAwait, ec));
    } else {
      // Plain http: what the (non-blocking) socket takes at once is sent right here; only the rest is
      // awaited.
      std::size_t sent = c.plain->send(asio::buffer(c.wire), 0, ec);
      if (ec == asio::error::would_block || ec == asio::error::try_again) {
        ec = {};
        sent = 0;
      }
      if (!ec && sent < c.wire.size()) {
        co_await asio::async_write(*c.plain, asio::buffer(c.wire.data() + sent, c.wire.size() - sent),
                                   asio::redirect_error(kAwait, ec));
      }
    }
    if (!ec) {  // the request was sent: read the response
      attempt.failure = "response";
      beast::flat_buffer& buffer = c.buffer;
      for (;;) {
        if (buffer.size() > 0) {
          std::size_t used = parser.put(buffer.data(), ec);
          buffer.consume(used);
          if (ec == http::error::need_more) {
            ec = {};
          } else if (ec || parser.is_done()) {
            break;
          } else if (used > 0 && buffer.size() > 0) {
            continue;
          }
        }
        std::size_t size = beast::read_size(buffer, 65536);
        if (size == 0) {
          ec = http::error::buffer_overflow;
          break;
        }
        auto into = buffer.prepare(size);
        std::size_t n = 0;
        // A TLS close without close_notify comes back as ssl::error::stream_truncated; with it, as eof.
        if (c.tls) {
          n = co_await c.tls->async_read_some(into, asio::redirect_error(kAwait, ec));
        } else {
          n = co_await c.plain->async_read_some(into, asio::redirect_error(kAwait, ec));
        }
        buffer.commit(n);
        if (ec == asio::error::eof) {
          if (!parser.got_some()) {
            ec = http::error::end_of_stream;
            break;
          }
          ec = {};
          parser.put_eof(ec);
          break;
        }
        if (ec) break;
      }
      attempt.gotBytes = parser.got_some();
    }
    connection->Unguard();
    if (attempt.ec) {
      if (connection->TimedOut()) attempt.ec = beast::error::timeout;
      ReleaseBroken(origin);
      co_return attempt;
    }
    attempt.keepAlive = parser.keep_alive();
    ++connection->uses;
    if (attempt.keepAlive && !shutdown_) {
      Release(origin, std::move(connection));
    } else {
      connection->Close();
      ReleaseBroken(origin);
    }
    co_return attempt;
  }

  // The request head and body in one buffer: one TLS record and one send, where Beast's serializer hands the
  // stream a buffer sequence that takes a composed operation per layer to flatten. Same fields as Beast's
  // message::set and prepare_payload would send: a caller's header replaces Host or User-Agent, and a body
  // (or a POST, PUT or OPTIONS) gets its Content-Length.
  void Serialize(const HttpRequest& request, const Endpoint& endpoint, std::string& out) const {
    const Url& url = endpoint.url;
    out.clear();
    out.append(request.method).append(" ").append(url.target).append(" HTTP/1.1\r\n");
    auto overridden = [&request](std::string_view name) {
      return std::any_of(request.headers.begin(), request.headers.end(),
                         [name](const HttpHeader& h) { return IEquals(h.first, name); });
    };
    bool withBody = !request.body.empty() || request.method == "POST" || request.method == "PUT" ||
                    request.method == "PATCH";
    bool withType = withBody && !request.contentType.empty();
    bool withLength = withBody && (!request.body.empty() || request.method == "POST" ||
                                   request.method == "PUT" || request.method == "OPTIONS");
    auto field = [&out](std::string_view name, std::string_view value) {
      out.append(name).append(": ").append(value).append("\r\n");
    };
    if (!overridden("Host")) field("Host", endpoint.authority);
    if (!overridden("User-Agent")) field("User-Agent", options_.userAgent);
    for (std::size_t i = 0; i < request.headers.size(); ++i) {
      const HttpHeader& header = request.headers[i];
      // set() semantics: the last header of a name wins, and ours replace the caller's framing fields.
      bool later =
          std::any_of(request.headers.begin() + static_cast<std::ptrdiff_t>(i) + 1, request.headers.end(),
                      [&](const HttpHeader& h) { return IEquals(h.first, header.first); });
      if (later || (withType && IEquals(header.first, "Content-Type")) ||
          (withLength && IEquals(header.first, "Content-Length"))) {
        continue;
      }
      field(header.first, header.second);
    }
    if (withType) field("Content-Type", request.contentType);
    if (withLength) {
      char digits[24];
      auto end = std::to_chars(digits, digits + sizeof digits, request.body.size()).ptr;
      field("Content-Length", std::string_view(digits, static_cast<std::size_t>(end - digits)));
    }
    out.append("\r\n");
    if (withBody) out.append(request.body);
  }

  // An idle keep-alive connection, or a new one (connected and, for https, handshaken) when the pool has
  // room.
  Task<std::unique_ptr<Connection>> Acquire(const std::string& origin, const Url& url,
                                            SteadyClock::time_point deadline, Attempt& attempt) {
    for (;;) {
      Pool& pool = shared_.pools[origin];
      if (auto connection = TakeIdle(pool)) co_return connection;
      if (pool.open < options_.maxConnectionsPerOrigin) {
        ++pool.open;
        auto connection = co_await Connect(url, deadline, attempt);
        if (!connection) ReleaseBroken(origin);
        co_return connection;
      }
      // Full (the pool serves every client of the context): wait until a connection comes back (or the
      // deadline passes).
      Timer waiter(strand_, deadline);
      pool.waiters.push_back(&waiter);
      error_code ec;
      {
        ScopedCancel cancel(cancels_, [&waiter] { waiter.cancel(); });
        co_await waiter.async_wait(asio::redirect_error(kAwait, ec));
      }
      Pool& after = shared_.pools[origin];
      std::erase(after.waiters, &waiter);
      if (shutdown_) {
        WakeWaiter(after);  // what woke this one may have been meant for a client that still wants it
        co_return nullptr;
      }
      if (!ec) {
        attempt.ec = beast::error::timeout;
        attempt.failure = "waiting for a connection";
        co_return nullptr;
      }
    }
  }

  Task<std::unique_ptr<Connection>> Connect(const Url& url, SteadyClock::time_point deadline,
                                            Attempt& attempt) {
    auto connection = std::make_unique<Connection>(strand_);
    Resolver resolver(strand_);
    tcp::resolver::results_type endpoints;
    {
      ScopedCancel cancel(cancels_, [&resolver] { resolver.cancel(); });
      attempt.failure = "resolve " + url.host;
      endpoints = co_await resolver.async_resolve(url.host, std::to_string(url.port),
                                                  asio::redirect_error(kAwait, attempt.ec));
      if (attempt.ec || shutdown_) co_return nullptr;
    }
    if (url.Secure()) {
      connection->tls = std::make_unique<TlsStream>(strand_, *tls_.Get(*logger_));
    } else {
      connection->plain = std::make_unique<Socket>(strand_);
    }
    ScopedCancel cancel(cancels_, [c = connection.get()] { c->Close(); });
    connection->Guard(deadline);
    auto timedOut = [&] {
      if (connection->TimedOut()) attempt.ec = beast::error::timeout;
      return nullptr;
    };
    attempt.failure = "connect to " + url.Authority();
    co_await asio::async_connect(connection->Tcp(), endpoints, asio::redirect_error(kAwait, attempt.ec));
    if (attempt.ec || shutdown_) co_return timedOut();
    error_code ignored;
    connection->Tcp().set_option(tcp::no_delay(true), ignored);
    if (connection->plain) {
      // The request's first send is tried right away and must never block the network thread.
      connection->plain->non_blocking(true, attempt.ec);
      if (attempt.ec) co_return nullptr;
    }
    if (connection->tls) {
      SSL* ssl = connection->tls->native_handle();
      ExpectPeerName(ssl, url.host);
      attempt.failure = "TLS handshake";
      co_await connection->tls->async_handshake(ssl::stream_base::client,
                                                asio::redirect_error(kAwait, attempt.ec));
      if (attempt.ec && connection->TimedOut()) co_return timedOut();
      if (attempt.ec) {
        attempt.tlsRefused = true;
        long verify = SSL_get_verify_result(ssl);
        if (verify != X509_V_OK) {
          attempt.failure =
              std::string("TLS handshake (certificate: ") + X509_verify_cert_error_string(verify) + ")";
        }
        co_return nullptr;
      }
      if (shutdown_) co_return nullptr;
    }
    co_return connection;
  }

  // The most recently used idle connection that is still open, checked out; null when there is none.
  static std::unique_ptr<Connection> TakeIdle(Pool& pool) {
    while (!pool.idle.empty()) {
      auto connection = std::move(pool.idle.back());
      pool.idle.pop_back();
      if (!StillOpen(*connection)) continue;
      ++pool.open;
      return connection;
    }
    return nullptr;
  }

  // Servers close idle keep-alive connections. Sending on one that is gone fails in a way that cannot be
  // retried safely for a POST, so look first: too long idle, or a FIN (or anything at all) waiting, and it is
  // dropped.
  static bool StillOpen(Connection& connection) {
    if (SteadyClock::now() > connection.idleUntil) return false;
#ifdef _WIN32
    // Winsock has no MSG_DONTWAIT (and Asio leaves the socket itself blocking): ask whether a read would
    // return at once, which data, a FIN and an error all make true.
    fd_set readable;
    FD_ZERO(&readable);
    FD_SET(connection.Tcp().native_handle(), &readable);
    timeval now{0, 0};
    return ::select(0, &readable, nullptr, nullptr, &now) == 0;
#else
    char byte;
    ssize_t n = ::recv(connection.Tcp().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
#endif
  }

  void Release(const std::string& origin, std::unique_ptr<Connection> connection) {
    connection->idleUntil = SteadyClock::now() + options_.idleTimeout;
    Pool& pool = shared_.pools[origin];
    --pool.open;
    if (static_cast<int>(pool.idle.size()) < options_.maxConnectionsPerOrigin) {
      pool.idle.push_back(std::move(connection));
      shared_.ArmReaper();
    }
    WakeWaiter(pool);
  }

  void ReleaseBroken(const std::string& origin) {
    Pool& pool = shared_.pools[origin];
    --pool.open;
    WakeWaiter(pool);
  }

  static void WakeWaiter(Pool& pool) {
    if (pool.waiters.empty()) return;
    pool.waiters.front()->cancel();
    pool.waiters.pop_front();
  }

  void LogRequest(const HttpRequest& request, const Url& url) {
    if (!logger_->Enabled(LoggingSeverity::Verbose)) return;
    std::ostringstream out;
    out << "HTTP -> " << request.method << " " << url.scheme << "://" << url.Authority() << url.target;
    for (const HttpHeader& header : request.headers) {
      out << "\n  " << header.first << ": "
          << (core::IsSensitiveHeader(header.first) ? core::kRedacted : std::string_view(header.second));
    }
    if (!request.body.empty()) out << "\n  body: " << request.body;
    logger_->Verbose(out.str());
  }

  void LogResponse(const HttpRequest& request, const std::string& routeKey, const HttpResponse& response,
                   SteadyClock::time_point started) {
    if (!logger_->Enabled(LoggingSeverity::Verbose)) return;
    auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(SteadyClock::now() - started);
    std::ostringstream out;
    out << "HTTP <- " << response.status << " " << request.method << " " << routeKey << " in "
        << static_cast<double>(elapsed.count()) / 1000.0 << " ms";
    for (HttpHeaders::Field header : response.headers) {
      out << "\n  " << header.first << ": "
          << (core::IsSensitiveHeader(header.first) ? core::kRedacted : std::string_view(header.second));
    }
    if (!response.body.empty()) out << "\n  body: " << response.body;
    logger_->Verbose(out.str());
  }

  std::promise<void> stopped_;
  SharedPools& shared_;  // owned by the io_context, which outlives this client
  Strand strand_;
  std::shared_ptr<core::Logger> logger_;
  HttpClientOptions options_;
  ClientTls tls_{TlsTrust{options_.caFile, options_.useSystemCertificates}, "HTTP"};
  // A pooled connection was verified under its maker's trust settings: it serves only clients with the same.
  const std::string trustKey_ = (options_.useSystemCertificates ? "1 " : "0 ") + options_.caFile;
  RateLimiter limiter_;
  core::Random random_ = core::Random::Seeded();
  std::string parsedText_;
  std::shared_ptr<const Endpoint> parsed_;
  std::string routeMethod_;  // routeKey_ is the key of routeMethod_ on routeEndpoint_
  std::shared_ptr<const Endpoint> routeEndpoint_;
  std::string routeKey_;
  CancelRegistry cancels_;
  bool shutdown_ = false;
};

HttpClient::HttpClient(IoContext& context, std::shared_ptr<core::Logger> logger, HttpClientOptions options)
    : context_(context),
      impl_(
          std::make_shared<Impl>(core::IoContextAccess::Get(context), std::move(logger), std::move(options))),
      stopped_(impl_->StoppedFuture()) {}

HttpClient::~HttpClient() {
  Shutdown();
}

namespace {
HttpClient::RequestObserver& RequestObserverSlot() {
  static HttpClient::RequestObserver observer;
  return observer;
}
}  // namespace

void HttpClient::SetRequestObserver(RequestObserver observer) {
  RequestObserverSlot() = std::move(observer);
}

std::shared_ptr<HttpClient::Impl> HttpClient::Current() const {
  std::lock_guard lock(implMutex_);
  return impl_;
}

void HttpClient::Send(HttpRequest request, Handler handler) {
  // A request sent while the client shuts down is spawned after the shutdown and ends at once (Execute sees
  // it); its handler is destroyed, not called.
  auto impl = Current();
  if (!impl) return;  // shut down: the handler is destroyed here
  if (const auto& observer = RequestObserverSlot()) observer(request);
  impl->Send(std::move(request), std::move(handler));
}

void HttpClient::SetTimeout(std::chrono::milliseconds timeout) {
  if (auto impl = Current()) impl->timeoutMs_.store(timeout.count());
}

std::chrono::milliseconds HttpClient::Timeout() const {
  auto impl = Current();
  return std::chrono::milliseconds(impl ? impl->timeoutMs_.load() : 0);
}

void HttpClient::Shutdown() {
  std::shared_ptr<Impl> impl;
  {
    std::lock_guard lock(implMutex_);
    impl = std::move(impl_);
  }
  if (!impl) return;
  impl->Shutdown();
  impl.reset();
  core::IoContextAccess::WaitFor(context_, stopped_);
}

}  // namespace platformpp::net
