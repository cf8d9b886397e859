// A small synchronous Gateway client for tests: a WebSocket over TLS (verified with the emulator's CA) that
// reads with a deadline, inflates zlib-stream transport compression, and can drop its TCP connection without
// a close frame. Plus the HTTPS helpers (http_test_client.hpp). Beast-free: the Beast/Asio templates are
// compiled once, in gateway_test_client.cpp (emulator_test_support).
#pragma once

#include <rapidjson/document.h>

#include <chrono>
#include <memory>
#include <string>

#include "emulator_process.hpp"
#include "http_test_client.hpp"

namespace platformpp::emulator::test {

class GatewayClient {
 public:
  struct Message {
    bool closed = false;     // the server closed (close_code, close_reason) or the connection ended
    bool timed_out = false;  // nothing within the deadline (the connection is then cut)
    int close_code = 0;
    std::string close_reason;
    std::string text;  // the JSON message (inflated)
    std::string raw;   // the frame's bytes as received
  };

  // `receive_buffer` > 0: the socket's receive buffer in bytes (a small one makes a client that stops reading
  // leave its frames in the emulator's queue rather than in the kernel's).
  GatewayClient(const EmulatorProcess& emulator, const std::string& target = "/?v=10&encoding=json",
                int receive_buffer = 0);
  // TLS to 127.0.0.1:port, verified against `ca_file`.
  GatewayClient(const std::string& ca_file, unsigned short port, const std::string& target,
                int receive_buffer = 0);
  ~GatewayClient();
  GatewayClient(const GatewayClient&) = delete;
  GatewayClient& operator=(const GatewayClient&) = delete;

  void send(const std::string& text);
  Message receive(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // The next message as JSON; fails the test on a close or timeout.
  rapidjson::Document next(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // Skips messages until a dispatch of type `t`.
  rapidjson::Document next_dispatch(const std::string& t, int max_skip = 20);
  // Expects the server to close; returns the close code (0 if the connection just ended).
  int expect_close(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  void close(int code);
  // Cuts the TCP connection without a close frame.
  void drop();
  // Every raw (compressed) frame seen so far must end with a sync flush; the first starts with a zlib header.
  [[nodiscard]] bool saw_zlib_header() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A plain (ws://) WebSocket to 127.0.0.1:port with blocking calls and Beast's defaults (text frames).
class PlainWebSocketClient {
 public:
  // Connects and sends the upgrade request with `host` as the Host header.
  PlainWebSocketClient(unsigned short port, const std::string& host, const std::string& target);
  ~PlainWebSocketClient();
  PlainWebSocketClient(const PlainWebSocketClient&) = delete;
  PlainWebSocketClient& operator=(const PlainWebSocketClient&) = delete;

  // The next message; throws on an error or a close.
  std::string read();
  void write(const std::string& text);
  // Sends a close frame with `code` and waits for the server's.
  void close(int code);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp::emulator::test
