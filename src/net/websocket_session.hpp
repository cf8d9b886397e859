#pragma once
// What the two WebSocket protocols (the Gateway, the voice gateway) share, as one piece each of them owns:
// the strand, the TLS context, opening a link, reading it with a Hello watchdog, a heartbeat schedule, a wait
// the session can be interrupted in, and the session loop's spawn with its exception guard. The protocol
// keeps its own state and plugs in what differs: how a message is handled, what a missing Hello and a due
// heartbeat do. Used on the strand only. Beast stays in websocket_link.cpp; this holds Asio timers and
// coroutines only.
#include "core/asio_prelude.hpp"

#include "core/logger.hpp"
#include "net/client_tls.hpp"
#include "net/websocket_link.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::net::ws {

struct SessionOptions {
  std::string name;  ///< how the logs name the protocol: "Gateway", "Voice gateway"
  TlsTrust trust;
  ConnectOptions connect;

  /// From a protocol's own options, which carry the same connection fields (the Gateway's and the voice
  /// gateway's).
  template <class ProtocolOptions>
  static SessionOptions From(std::string name, const ProtocolOptions& options) {
    SessionOptions session;
    session.name = std::move(name);
    session.trust = TlsTrust{options.caFile, options.useSystemCertificates};
    session.connect.userAgent = options.userAgent;
    session.connect.maxMessageBytes = options.maxMessageBytes;
    session.connect.connectTimeout = options.connectTimeout;
    return session;
  }
};

class Session {
 public:
  using Clock = std::chrono::steady_clock;
  /// One whole message of the link; `text` false for a binary frame.
  using MessageHandler =
      std::function<void(const std::shared_ptr<Link>&, std::string_view message, bool text)>;
  /// A heartbeat is due on `link`: send it and return when the next one is, or nothing to stop beating.
  using Beat = std::function<std::optional<Clock::time_point>(const std::shared_ptr<Link>&)>;

  Session(boost::asio::io_context& io, std::shared_ptr<core::Logger> logger, SessionOptions options);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const Strand& GetStrand() const noexcept { return strand_; }
  core::Logger& Log() const noexcept { return *logger_; }
  const SessionOptions& Options() const noexcept { return options_; }

  /// Runs `loop` on the strand, keeping `owner` alive. An exception that escapes it is logged, then
  /// `onFailure` runs (on the strand).
  void Spawn(const std::shared_ptr<void>& owner, std::function<boost::asio::awaitable<void>()> loop,
             std::function<void()> onFailure);

  /// Opens `url` (ws:// or wss://; TLS with peer and host name verification). Null with `failure` set when it
  /// failed or `stopped()` turned true; Interrupt cancels a pending open.
  boost::asio::awaitable<std::shared_ptr<Link>> Open(std::string text, std::string& failure,
                                                     std::function<bool()> stopped);

  /// Reads `link` until it ends, or `stop()` is true after a message: `onMessage` for each message. Without a
  /// Hello (link->gotHello) within the connect timeout, `onNoHello(link)`. Afterwards the watchdog and the
  /// heartbeats are stopped and the link torn down. Returns the server's close code, if one came.
  boost::asio::awaitable<std::optional<int>> Serve(
      std::shared_ptr<void> owner, std::shared_ptr<Link> link, MessageHandler onMessage,
      std::function<void(const std::shared_ptr<Link>&)> onNoHello, std::function<bool()> stop);
  /// The Hello arrived: the watchdog stands down.
  void HelloReceived(const std::shared_ptr<Link>& link);

  /// Calls `beat` at `first`, then whenever it says, while `link` is open and no StopHeartbeats came.
  void StartHeartbeats(const std::shared_ptr<void>& owner, const std::shared_ptr<Link>& link,
                       Clock::time_point first, Beat beat);
  void StopHeartbeats();

  /// Waits `delay` (a backoff); Interrupt or CancelWait ends it early.
  boost::asio::awaitable<void> Wait(std::chrono::milliseconds delay);
  /// Waits until CancelWait or Interrupt (an answer the session waits for arrives).
  boost::asio::awaitable<void> WaitForWakeUp();
  void CancelWait();

  /// Cancels whatever the session waits for: a wait, an open, the Hello watchdog, the heartbeats.
  void Interrupt();

 private:
  void ArmHeartbeat(const std::shared_ptr<void>& owner, const std::shared_ptr<Link>& link,
                    Clock::time_point at);

  Strand strand_;
  std::shared_ptr<core::Logger> logger_;
  SessionOptions options_;
  ClientTls tls_;
  boost::asio::steady_timer waitTimer_;
  boost::asio::steady_timer helloTimer_;
  boost::asio::steady_timer heartbeatTimer_;
  std::function<void()> abortOpen_;
  Beat beat_;
  uint64_t heartbeatGeneration_ = 0;  // a StopHeartbeats or StartHeartbeats retires the beats armed before it
};

}  // namespace platformpp::net::ws
