#pragma once
// The HTTP client's pieces of one exchange: a pooled connection with its watchdog timer, the pools shared by
// the HTTP clients of an io_context, and the outcome of an attempt (which the response reader of
// http_response_reader.hpp parses into).
// Beast and Asio types: included by http_client.cpp only (the library's one Beast HTTP translation unit).
#include "core/asio_prelude.hpp"

#include "net/http_response_reader.hpp"
#include "net/http_types.hpp"
#include "net/url.hpp"

#include <boost/asio/execution_context.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::net::http_detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using Strand = asio::strand<asio::io_context::executor_type>;
using SteadyClock = std::chrono::steady_clock;
// Everything is typed on the strand rather than any_io_executor: no type-erased executor is copied, compared
// or dispatched through on each step of a request.
template <class T>
using Task = asio::awaitable<T, Strand>;
using Timer = asio::basic_waitable_timer<SteadyClock, asio::wait_traits<SteadyClock>, Strand>;
using Socket = asio::basic_stream_socket<tcp, Strand>;
using Resolver = asio::ip::basic_resolver<tcp, Strand>;
using TlsStream = ssl::stream<Socket>;

// A connection's timeout: one timer per connection rather than Beast's per-operation expiry, which arms and
// cancels a timer around every read and write (timer syscalls and extra handler runs on each request). The
// timer sleeps until the current deadline; a later request only moves the deadline forward, and when the
// connection is idle at the deadline the timer simply lapses.
struct Watchdog {
  SteadyClock::time_point deadline;
  bool busy = false;   // an exchange (or the connect) is running under `deadline`
  bool armed = false;  // a wait is pending
  bool fired = false;  // the deadline passed while busy: the socket was closed
};

struct Connection {
  explicit Connection(const Strand& strand) : timer(strand) {}
  ~Connection() { watch.reset(); }  // a wait still pending finds nothing to look after

  std::unique_ptr<TlsStream> tls;  // https
  std::unique_ptr<Socket> plain;   // http
  beast::flat_buffer buffer;
  std::string wire;  // the request being sent; kept to reuse its capacity
  int uses = 0;
  SteadyClock::time_point idleUntil;  // while pooled: not reused after this, and closed then
  std::shared_ptr<Watchdog> watch = std::make_shared<Watchdog>();
  Timer timer;

  Socket& Tcp() { return tls ? tls->next_layer() : *plain; }
  void Close() {
    error_code ignored;
    Tcp().shutdown(tcp::socket::shutdown_both, ignored);
    Tcp().close(ignored);
  }

  /// Work under `deadline` starts now (strand only).
  void Guard(SteadyClock::time_point deadline) {
    watch->deadline = deadline;
    watch->busy = true;
    watch->fired = false;
    Arm();
  }
  /// The work is done; the pending wait, if any, lapses at its deadline.
  void Unguard() { watch->busy = false; }
  bool TimedOut() const { return watch->fired; }

 private:
  void Arm() {
    if (watch->armed) return;  // the pending wait re-arms itself for the moved deadline
    watch->armed = true;
    timer.expires_at(watch->deadline);
    timer.async_wait([weak = std::weak_ptr<Watchdog>(watch), self = this](error_code) {
      auto w = weak.lock();
      if (!w) return;  // the connection is gone
      w->armed = false;
      if (!w->busy) return;
      if (SteadyClock::now() >= w->deadline) {
        w->fired = true;
        self->Close();
        return;
      }
      self->Arm();
    });
  }
};

// A request URL with the strings each exchange needs from it.
struct Endpoint {
  Endpoint(Url parsed, std::string_view trustKey)
      : url(std::move(parsed)),
        authority(url.Authority()),
        origin(url.scheme + "://" + authority),
        pool(origin + " " + std::string(trustKey)) {}
  Url url;
  std::string authority;  // the Host header
  std::string origin;
  std::string pool;  // the connection pool: the origin under one client's trust settings
};

struct Pool {
  std::deque<std::unique_ptr<Connection>> idle;  // the most recently used last
  int open = 0;                                  // connections checked out, connecting included
  std::deque<Timer*> waiters;
};

// The keep-alive pools of every HTTP client of one io_context (the Clients sharing an IoContext), by origin
// and trust settings, and the one strand all those clients run on. Shared as a browser shares its pool among
// tabs: a Client reuses a warm connection another one left, and an origin has at most
// maxConnectionsPerOrigin connections open for all of them. Per Client, the loads every Client makes after
// READY had left one idle TLS connection each (about 90 KiB, Asio's TLS stream alone 78) for the idle
// timeout.
class SharedPools final : public asio::execution_context::service {
 public:
  static inline asio::execution_context::id id;  // NOLINT(readability-identifier-naming): Asio's name
  // The strand and the reaper's timer are made here, so that Asio registers their services before this one
  // and destroys them after it.
  explicit SharedPools(asio::execution_context& context)
      : asio::execution_context::service(context),
        strand(asio::make_strand(static_cast<asio::io_context&>(context))),  // only made on an io_context
        reaper_(std::in_place, strand) {}

  const Strand strand;
  std::map<std::string, Pool> pools;  // by Endpoint::pool

  // Idle connections are closed once they could not be reused anyway (their idleUntil): an idle TLS
  // connection holds about 90 KiB and a socket, and Clients that sit on their Gateway sessions may not send a
  // request for hours. One timer for all the pools, set for the first to lapse. Strand only.
  void ArmReaper() {
    if (reaperArmed_ || !reaper_) return;
    std::optional<SteadyClock::time_point> first;
    for (auto& [key, pool] : pools) {
      for (const auto& connection : pool.idle) {
        if (!first || connection->idleUntil < *first) first = connection->idleUntil;
      }
    }
    if (!first) return;
    reaperArmed_ = true;
    reaper_->expires_at(*first);
    // The service outlives every handler of its context (Asio destroys handlers first).
    reaper_->async_wait([this](error_code ec) {
      reaperArmed_ = false;
      if (ec == asio::error::operation_aborted) return;
      Reap(SteadyClock::now());
      ArmReaper();
    });
  }

 private:
  void Reap(SteadyClock::time_point now) {
    for (auto& [key, pool] : pools) {
      std::erase_if(pool.idle, [now](const std::unique_ptr<Connection>& connection) {
        if (now < connection->idleUntil) return false;
        connection->Close();
        return true;
      });
    }
  }

  // The context is going: its sockets and timers go now, while the services they belong to still exist.
  void shutdown() override {
    pools.clear();
    reaper_.reset();
  }

  std::optional<Timer> reaper_;
  bool reaperArmed_ = false;
};

// The outcome of one network attempt.
struct Attempt {
  error_code ec;
  std::string failure;      // what failed, for messages: "connect", "TLS handshake", ...
  bool sent = false;        // request bytes may have reached the server
  bool reused = false;      // on a keep-alive connection that served an earlier request
  bool gotBytes = false;    // any response byte arrived
  bool tlsRefused = false;  // the handshake failed: retrying cannot help
  // The response, when one was read.
  int status = 0;
  HttpHeaders headers;
  std::string body;
  bool keepAlive = false;
};

}  // namespace platformpp::net::http_detail
