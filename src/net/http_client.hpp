#pragma once
// HTTPS (and plain HTTP, for the emulator's debug mode) to the platform: keep-alive connection pools per
// origin, shared by the HTTP clients of one IoContext, TLS with peer and host name verification, the
// platform's rate limits, and bounded retries where a retry cannot duplicate an effect. All I/O runs on one
// strand of the IoContext, the same for all its HTTP clients; the header stays free of Asio.

#include "net/http_types.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>

namespace platformpp {
class IoContext;
}

namespace platformpp::core {
class Logger;
}

namespace platformpp::net {

struct HttpClientOptions {
  std::string caFile;                 ///< extra PEM CAs to trust
  bool useSystemCertificates = true;  ///< also trust the system store
  std::string userAgent = "platformpp";
  std::chrono::milliseconds timeout{30000};
  /// For all the HTTP clients of the IoContext together (they share their connections); a client's requests
  /// wait for a connection beyond that.
  int maxConnectionsPerOrigin = 8;
  /// A keep-alive connection idle this long is closed. Below the idle timeouts servers commonly use (60 s and
  /// more), so that we close first and never send on a connection the server is closing.
  std::chrono::milliseconds idleTimeout{50000};
  int maxAttempts = 3;  ///< network attempts for retry-safe requests (network errors, 5xx)
  std::chrono::milliseconds backoffInitial{250};
  std::chrono::milliseconds backoffMaximum{4000};
  int maxRateLimitRetries = 5;     ///< 429s absorbed before the 429 is reported
  double maxRateLimitWait = 60.0;  ///< seconds; a longer retry_after is reported instead of waited out
  std::size_t maxResponseBytes = std::size_t{16} << 20;  // 16 MiB
};

class HttpClient {
 public:
  /// Called exactly once on the network thread, or never if the client shuts down first (then it is destroyed
  /// there, which is how a Completion it owns learns of the shutdown).
  using Handler = std::function<void(HttpResponse)>;

  HttpClient(IoContext& context, std::shared_ptr<core::Logger> logger, HttpClientOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  /// Thread-safe. Invalid requests (bad URL, header injection) end at once with a ValidationError response.
  void Send(HttpRequest request, Handler handler);

  /// Sees every request any client of the process sends, on the sending thread, before it is queued (tests
  /// check the bodies against the platform's published request schemas). Set it before any client exists and
  /// clear it after the last is gone; not part of the public API.
  using RequestObserver = std::function<void(const HttpRequest&)>;
  static void SetRequestObserver(RequestObserver observer);

  void SetTimeout(std::chrono::milliseconds timeout);
  std::chrono::milliseconds Timeout() const;

  /// Cancels every request and closes every connection, then waits until the network side holds nothing of
  /// this client any more. Handlers of unfinished requests are destroyed, not called. Must not run on the
  /// network thread.
  void Shutdown();

 private:
  class Impl;
  /// The client while it runs; none once shut down. Guarded: the network thread sends (a handler starting the
  /// next request of a chain) while the destroying thread shuts down.
  std::shared_ptr<Impl> Current() const;

  IoContext& context_;
  mutable std::mutex implMutex_;
  std::shared_ptr<Impl> impl_;
  std::future<void> stopped_;
};

}  // namespace platformpp::net
