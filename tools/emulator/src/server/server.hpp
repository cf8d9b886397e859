// The network front end: accepts loopback connections (TLS or plain), parses HTTP with Beast and feeds
// requests to an EmulatorService; runs the IPC listener (ipc_server.hpp) and the forwarding unit's UDP socket
// on the same io_context. This header is Asio-free so only server.cpp compiles Beast's templates.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "server/ipc_server.hpp"
#include "server/tls_certificates.hpp"
#include "service/emulator_service.hpp"

namespace platformpp::emulator {

struct ServerSettings {
  std::string host;                                     // 127.0.0.1, ::1 or localhost
  std::uint16_t port = 0;                               // 0 = any free port
  const GeneratedCertificates* certificates = nullptr;  // null = plain HTTP
  std::chrono::milliseconds idle_timeout{60000};        // an idle keep-alive connection is closed after this
  std::optional<IpcSettings> ipc;                       // none = no IPC listener (--no-ipc)
  // Threads for the TCP connections' TLS, HTTP parsing and WebSocket framing; the service, the IPC listener
  // and the forwarding unit stay on the thread that calls run_server. 0: that thread runs it all.
  unsigned io_threads = 2;
  // Bytes of frames a WebSocket peer may leave unread in the emulator's queue for it (past the kernel's
  // buffers); past this its connection is cut, so a client that stops reading cannot make it hold without
  // end.
  std::size_t send_queue_limit = std::size_t{16} * 1024 * 1024;
  // TCP connections (HTTP and the WebSockets upgraded from them) open at once; one more is closed as it is
  // accepted, so that a client that opens without end cannot take every file descriptor from the others.
  std::size_t max_connections = 4096;
  // Called at a clean stop (SIGINT, SIGTERM, Windows' stop events), after the last turn is committed and
  // before the service goes: --export-on-exit. What it throws makes run_server throw.
  std::function<void(EmulatorService&)> on_clean_stop{};
};

struct BoundAddresses {
  std::uint16_t port = 0;
  std::string ipc_path;              // empty without IPC
  std::uint16_t voice_udp_port = 0;  // the forwarding unit's UDP socket, on the same host
};

// Called once the listeners are bound, with their actual addresses; builds the service to serve (and may
// publish the connection file). Exceptions it throws abort the start.
using ServiceFactory = std::function<std::unique_ptr<EmulatorService>(const BoundAddresses& bound)>;

// Binds, calls `make_service`, then serves (the service on the calling thread) until SIGINT or SIGTERM, and
// returns after closing the listeners (unlinking the IPC socket) and all sessions. Throws std::runtime_error
// if it cannot start (e.g. the port is in use, or no IPC socket path is free).
void run_server(const ServerSettings& settings, const ServiceFactory& make_service);

}  // namespace platformpp::emulator
