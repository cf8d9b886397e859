#pragma once
// The SDK's Gateway session (docs/gateway-protocol.md) over a TLS WebSocket (plain ws:// when the API base is
// http://, the emulator's --plain-http): GET {apiBase}/gateway through the Client's HttpClient (once per
// IoContext and API base: gateway_url_cache.hpp), Hello,
// heartbeats, Identify/Resume, READY/RESUMED, replay with duplicates dropped, zlib-stream transport
// compression, and reconnection with jittered capped backoff as session_policy.hpp decides. All I/O runs on
// one strand of the Client's IoContext; the header stays free of Asio.
//
// The dispatch sink: every dispatch (op 0), READY and RESUMED included, reaches the sink on the network
// thread exactly once per sequence number, in order, as a Dispatch (dispatch.hpp: `d` parsed once, shared by
// every consumer). It is valid only during the call: a consumer reads it there, updates its state, then
// queues its user callbacks (the threading contract: state before callback). The sink must not block.

#include <platformpp/client_status.hpp>

#include "gateway/dispatch.hpp"
#include "gateway/gateway_payload.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp {
class IoContext;
}

namespace platformpp::core {
class Logger;
}

namespace platformpp::net {
class HttpClient;
}

namespace platformpp::gateway {

using DispatchSink = std::function<void(const Dispatch&)>;

/// errorDetail values that are not close codes or HTTP statuses.
constexpr int32_t kErrorDetailNoToken = 401;  ///< Connect without a token (as the platform's 401)

struct GatewayOptions {
  std::string apiBase;  ///< "https://host/api/v10": GET {apiBase}/gateway gives the URL
  std::string caFile;
  bool useSystemCertificates = true;
  std::string userAgent = "platformpp";
  bool compress = true;  ///< `compress=zlib-stream`
  int64_t intents = kSocialIntents;
  int64_t capabilities = 0;  ///< Identify's capability bits (kCapabilityChannelObfuscation when opted in)
  std::chrono::milliseconds backoffInitial{1000};
  std::chrono::milliseconds backoffMaximum{60000};
  /// Bounds TCP connect + TLS + WebSocket handshake, and then the wait for Hello.
  std::chrono::milliseconds connectTimeout{15000};
  std::size_t maxMessageBytes = std::size_t{8} << 20;  // 8 MiB
  /// The token as Identify/Resume send it ("Bearer <token>"); empty: none. Called on the network thread.
  std::function<std::string()> token;
};

class GatewayConnection {
 public:
  using Status = ClientStatus;
  using Error = ClientError;
  /// Every status change, on the network thread, in order.
  using StatusHandler = std::function<void(Status, Error, int32_t errorDetail)>;

  GatewayConnection(IoContext& context, std::shared_ptr<core::Logger> logger, net::HttpClient& http,
                    GatewayOptions options);
  ~GatewayConnection();  ///< Shutdown()
  GatewayConnection(const GatewayConnection&) = delete;
  GatewayConnection& operator=(const GatewayConnection&) = delete;

  /// Set before Connect; not thread-safe. Handlers run on the network thread.
  void SetStatusHandler(StatusHandler handler);
  void SetDispatchSink(DispatchSink sink);
  void SetReadyHandler(std::function<void(const ReadyInfo&)> handler);

  /// Starts the session (Disconnected -> HttpWait -> Connecting -> Connected -> Ready) and keeps it up until
  /// Disconnect or a close code that forbids reconnecting. Does nothing while already connecting or
  /// connected. Thread-safe.
  void Connect();
  /// Closes with 1000 (which ends the session on the server) and stops reconnecting: Disconnecting ->
  /// Disconnected. Thread-safe.
  void Disconnect();
  /// The token changed: when connected, close and identify afresh with the new one. Thread-safe.
  void Reidentify();

  /// Sends one client payload (e.g. op 3 Presence Update, as JSON text) on the current session if it is
  /// Ready, after what is already queued; dropped otherwise (not Ready, over kMaxClientPayloadBytes, shut
  /// down). `done` (optional) runs on the network thread with true once the payload was handed to the socket,
  /// false when it was dropped; destroyed unrun at shutdown. Never runs `done` inside Send. A sink that calls
  /// Send while handling READY or RESUMED gets its payload out right after that dispatch, as the first of the
  /// new session. Thread-safe.
  void Send(std::string payload, std::function<void(bool sent)> done = {});
  /// As Send, but the payload is what `build` returns when the send runs on the network thread (nullopt:
  /// nothing to send, `done` hears false). A sink's resend on READY or RESUMED then carries the state of the
  /// moment the session is Ready: a game thread that changed that state just before, and saw the session not
  /// Ready yet, is not left behind. `build` is not called once the connection is shut down.
  void SendLatest(std::function<std::optional<std::string>()> build,
                  std::function<void(bool sent)> done = {});

  /// The session's status, current before the status handler hears of a change. Any thread.
  Status CurrentStatus() const noexcept { return status_.load(std::memory_order_acquire); }

  /// Closes everything and waits until the network side holds nothing of this connection. Handlers are not
  /// called any more. Must not run on the network thread. Idempotent.
  void Shutdown();

 private:
  class Impl;
  IoContext& context_;
  std::atomic<Status> status_{Status::Disconnected};
  std::shared_ptr<Impl> impl_;
  std::future<void> stopped_;
};

}  // namespace platformpp::gateway
