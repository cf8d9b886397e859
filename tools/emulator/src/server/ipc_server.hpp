// The desktop-client stand-in's Unix socket on the emulator's io_context: the listener (the first free
// "<directory>/<prefix>-ipc-<n>", created 0600) and its connections, which feed the service's IPC side.
// Asio-free header: only ipc_server.cpp compiles Asio's local-socket templates (and no Beast: the IPC framing
// is the emulator's own).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "ipc/ipc_peer.hpp"
#include "service/emulator_service.hpp"

namespace boost::asio {
class io_context;
}

namespace platformpp::emulator {

class TurnGate;

// The desktop-client stand-in's Unix socket: the first free "<directory>/<prefix>-ipc-<n>", n = 0..9.
struct IpcSettings {
  std::string directory;  // absolute
  std::string prefix;
  // Bytes of frames a peer may leave unread in the emulator's queue for it before its connection is cut
  // (--send-queue-limit, as for WebSockets).
  std::size_t send_queue_limit = std::size_t{16} * 1024 * 1024;
  // Connections open at once (--max-connections, counted apart from TCP's); one more is closed at once.
  std::size_t max_connections = 4096;
};

class IpcServer final : public IpcListenerControl {
 public:
  // Binds the first free <dir>/<prefix>-ipc-<n>, n = 0..9 (replacing a stale socket that refuses
  // connections). Throws std::runtime_error when none is.
  IpcServer(boost::asio::io_context& io, const IpcSettings& settings);
  ~IpcServer() override;  // stop()
  IpcServer(const IpcServer&) = delete;
  IpcServer& operator=(const IpcServer&) = delete;

  // Starts accepting; each connection talks to `service`, which must outlive the io_context's handlers.
  void serve(EmulatorService& service, TurnGate& gate);

  // IpcListenerControl: stop() unlinks the socket file (the desktop client quit); restore() binds the same
  // path again.
  [[nodiscard]] bool listening() const override;
  [[nodiscard]] const std::string& path() const override;
  void stop() override;
  std::optional<std::string> restore() override;

 private:
  class Listener;
  std::unique_ptr<Listener> listener_;
};

}  // namespace platformpp::emulator
