#pragma once
// The SDK's connection to the local desktop client over IPC (docs/ipc-protocol.md): finds its socket,
// checks it belongs to this user, handshakes, waits for READY, matches command replies to requests by nonce,
// answers PINGs, and reconnects with jittered exponential backoff whenever the connection fails or drops. All
// I/O runs on one strand of the Client's IoContext; the header stays free of Asio.

#include "ipc/ipc_message.hpp"
#include "ipc/ipc_socket_path.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>

namespace platformpp {
class IoContext;
}

namespace platformpp::core {
class Logger;
}

namespace platformpp::ipc {

struct IpcConnectionOptions {
  std::string name = "discord";  ///< the desktop client's socket name prefix: <name>-ipc-<n>
  std::string directory;         ///< overrides the runtime directory when non-empty
  std::string clientId;          ///< the application id, in decimal, sent in the handshake
  std::chrono::milliseconds backoffInitial{500};
  std::chrono::milliseconds backoffMaximum{60000};
  /// Bounds each socket connect, and then the wait for READY after the handshake.
  std::chrono::milliseconds connectTimeout{2000};
  EnvLookup env;  ///< empty: the process environment
  /// Windows: the user whose pipes are trusted, as a SID string ("S-1-5-21-..."); empty (the default): the
  /// user this process runs as. Tests set another to see a pipe of "another user" refused.
  std::string trustedPipeUserSid;
};

/// The outcome of one command: the reply's data, an RPC error from the desktop client (`evt: "ERROR"`, code
/// from docs/ipc-protocol.md, "Error and close codes": 4000, 5000, ...), or one of the local codes below.
struct IpcReply {
  static constexpr int kNotConnected = -1;    ///< no READY connection when the command was to be sent
  static constexpr int kTimeout = -2;         ///< no reply within the command's timeout
  static constexpr int kConnectionLost = -3;  ///< the connection ended before the reply
  static constexpr int kInvalidRequest = -4;  ///< args not a JSON object, or the command over 64 KiB

  bool ok = false;
  int errorCode = 0;
  std::string message;
  std::string dataJson;  ///< the reply's `data` when ok; empty when it had none
};

class IpcConnection {
 public:
  /// Called exactly once on the network thread, or never if the connection shuts down first (then it is
  /// destroyed there, which is how a Completion it owns learns of the shutdown).
  using ReplyHandler = std::function<void(IpcReply)>;

  IpcConnection(IoContext& context, std::shared_ptr<core::Logger> logger, IpcConnectionOptions options);
  ~IpcConnection();  ///< Shutdown()
  IpcConnection(const IpcConnection&) = delete;
  IpcConnection& operator=(const IpcConnection&) = delete;

  /// Handlers run on the network thread. Set them before Start (or the first WhenSettled); not thread-safe.
  /// onReady: every READY, i.e. after every (re)connect (the place to re-SUBSCRIBE).
  void SetOnReady(std::function<void(const IpcReady&)> onReady);
  /// A READY connection ended (the desktop client closed it, went away, or broke the protocol).
  void SetOnDisconnected(std::function<void(const std::string& reason)> onDisconnected);
  /// DISPATCH events other than READY, on a READY connection.
  void SetOnEvent(std::function<void(const IpcMessage&)> onEvent);

  /// Starts connecting (on the network thread) and keeps a connection up from then on. Idempotent;
  /// thread-safe.
  void Start();

  /// Thread-safe. True while a connection has passed READY.
  bool IsReady() const noexcept;

  /// Calls `settled` on the network thread once the current connection attempt has concluded: at once when
  /// READY (true) or when the last attempt failed and a retry waits in backoff (false); when never started,
  /// starts and waits for the first attempt. Thread-safe. Destroyed unrun at shutdown.
  void WhenSettled(std::function<void(bool ready)> settled);

  /// Sends `{"cmd", "args", "evt"?, "nonce"}` and calls `handler` with the reply whose nonce matches, or with
  /// kTimeout after `timeout`, or kConnectionLost when the connection ends first. Without a READY connection
  /// it ends at once with kNotConnected (posted, never inside Send). Thread-safe.
  void Send(std::string cmd, std::string argsJson, std::optional<std::string> evt,
            std::chrono::milliseconds timeout, ReplyHandler handler);

  /// Closes the connection and cancels every wait, then waits until the network side holds nothing of this
  /// connection any more. Pending reply handlers and WhenSettled callbacks are destroyed, not called. Must
  /// not run on the network thread. Idempotent.
  void Shutdown();

 private:
  class Impl;
  IoContext& context_;
  std::shared_ptr<std::atomic<bool>> ready_;  // outlives impl_, so IsReady is safe during Shutdown
  std::shared_ptr<Impl> impl_;
  std::future<void> stopped_;
};

}  // namespace platformpp::ipc
