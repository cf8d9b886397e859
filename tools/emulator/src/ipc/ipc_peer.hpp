// The desktop-client stand-in on IPC, seen from the socket-free side: the server implements IpcPeer (one
// accepted socket) and IpcListenerControl (the listening socket); IpcModule keeps an IpcConnection per
// peer and answers through the peer. Everything runs on the emulator's single I/O thread.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "ipc/ipc_codec.hpp"

namespace platformpp::emulator {

class IpcPeer {
 public:
  virtual ~IpcPeer() = default;
  // Queues bytes (an encoded frame) to write. Never calls back into the module synchronously.
  virtual void send(std::string bytes) = 0;
  // Writes what is queued, then closes the socket; later sends are dropped. Never calls back synchronously.
  virtual void close() = 0;
};

class IpcListenerControl {
 public:
  virtual ~IpcListenerControl() = default;
  [[nodiscard]] virtual bool listening() const = 0;
  [[nodiscard]] virtual const std::string& path() const = 0;
  // Stops accepting and unlinks the socket file (the desktop client quit). Idempotent.
  virtual void stop() = 0;
  // Listens again on path(); the reason when it cannot. Idempotent.
  virtual std::optional<std::string> restore() = 0;
};

struct IpcConnection {
  IpcPeer* peer = nullptr;
  IpcFrameDecoder decoder;
  std::optional<std::string> client_id;  // set by a successful handshake
  std::set<std::string> subscriptions;   // event names
  std::optional<std::string> activity;   // JSON text of the last SET_ACTIVITY activity, none when cleared
};

}  // namespace platformpp::emulator
