#pragma once
// The Client's one connection to the local desktop client, created on first use (its handshake names the
// application, which the game may set late) and closed for good when the Client is destroyed. Features that
// speak RPC (account linking, rich presence over IPC) receive this link; the composition sets the handlers
// that route its events to them.

#include "ipc/ipc_connection.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace platformpp::ipc {

struct IpcLinkOptions {
  bool enabled = true;    ///< ClientOptions::ipcEnabled
  std::string name;       ///< ClientOptions::ipcName
  std::string directory;  ///< ClientOptions::ipcDirectory
};

class IpcLink {
 public:
  IpcLink(IoContext& context, std::shared_ptr<core::Logger> logger, IpcLinkOptions options);
  ~IpcLink();  ///< Shutdown()
  IpcLink(const IpcLink&) = delete;
  IpcLink& operator=(const IpcLink&) = delete;

  /// The handlers of the connection (network thread; they end before Shutdown returns). Set during
  /// composition, before anything can create the connection.
  void SetHandlers(std::function<void(const IpcReady&)> onReady,
                   std::function<void(const IpcMessage&)> onEvent);

  /// The connection, created (not started) on first use for `applicationId`. Null when IPC is disabled, the
  /// id is 0, or the link is shut down. Thread-safe.
  IpcConnection* Connection(uint64_t applicationId);
  /// The connection if one was created. Thread-safe.
  IpcConnection* Existing();

  /// Closes the connection (if any) and refuses new ones. Idempotent.
  void Shutdown();

 private:
  IoContext& context_;
  std::shared_ptr<core::Logger> logger_;
  IpcLinkOptions options_;
  std::function<void(const IpcReady&)> onReady_;
  std::function<void(const IpcMessage&)> onEvent_;
  std::mutex mutex_;
  std::unique_ptr<IpcConnection> connection_;  // mutex_
  bool closed_ = false;                        // mutex_
};

}  // namespace platformpp::ipc
