#pragma once
// The HTTP(S) server under the backend's signed endpoints (WebhookEvents, InteractionsEndpoint): it listens,
// bounds connections, headers, bodies and slow clients, answers 404 and 405 itself, and hands each POST to
// the path, with its signature headers, to the endpoint's handler. The handler answers once, at once or later
// from any thread (an interaction's answer waits for the game), and may name a deadline at which it answers
// by itself; a request left unanswered for the request timeout is answered 500. Everything network-side runs
// on one strand.

#include "core/logger.hpp"

#include <platformpp/client_result.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp {
class IoContext;
}

namespace platformpp::backend::endpoint {

/// Where and how the server listens (the endpoints' options, as far as HTTP goes).
struct ServerSettings {
  /// Names the endpoint in log messages ("webhook events", "interactions").
  std::string name;
  std::string address;
  uint16_t port = 0;
  std::string path;
  std::string tlsCertificateChainFile;
  std::string tlsPrivateKeyFile;
  std::size_t maxBodyBytes = 0;
  std::chrono::milliseconds requestTimeout{10000};
  std::size_t maxConnections = 64;
};

/// A POST to the path. The views live until the handler returns.
struct SignedRequest {
  /// X-Signature-Ed25519; unset when absent.
  std::optional<std::string_view> signature;
  /// X-Signature-Timestamp; unset when absent.
  std::optional<std::string_view> timestamp;
  std::string_view body;
};

/// What to answer.
struct Answer {
  int status = 204;
  std::string body;
  /// Sent as Content-Type when the body is not empty.
  std::string contentType = "application/json";
};

/// Answers the request; only the first call counts. Any thread.
using Reply = std::function<void(Answer answer)>;

/// When a request still unanswered `after` its arrival is to be answered by the endpoint itself: `expire`
/// runs then, on the network thread (an interaction's deferral), and is expected to reply.
struct Deadline {
  std::chrono::milliseconds after{0};
  std::function<void()> expire;
};

/// Called on the network thread for each POST to the path; answers through `reply`, at once or later, and
/// may name a deadline.
using Handler = std::function<std::optional<Deadline>(const SignedRequest& request, Reply reply)>;

/// One listening server; Start and Stop on the owner's thread.
class Server {
 public:
  Server(std::shared_ptr<IoContext> io, std::shared_ptr<core::Logger> logger);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Checks the settings (ValidationError for a bad path, address or TLS files), binds (NetworkError) and
  /// starts accepting. Starting a running server does nothing and succeeds.
  ClientResult Start(const ServerSettings& settings, Handler handler);
  /// Closes the listener and every connection (waiting answers are dropped) and waits until the network side
  /// holds nothing of them.
  void Stop();
  bool Running() const noexcept;
  uint16_t Port() const noexcept;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp::backend::endpoint
