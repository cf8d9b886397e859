// A raw IPC client for tests: connects to a Unix socket, writes frames, reads whole frames (POSIX only).
#pragma once

#include <doctest/doctest.h>
#include <poll.h>
#include <rapidjson/document.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "ipc/ipc_codec.hpp"

namespace platformpp::emulator::test {

inline rapidjson::Document parse_ipc_json(std::string_view text) {
  rapidjson::Document document;
  REQUIRE_MESSAGE(parse_json(text, document), "not JSON: " << text);
  return document;
}

// Waits up to `timeout_ms` for `fd` to become readable; false on timeout.
inline bool wait_readable(int fd, int timeout_ms) {
  pollfd entry{fd, POLLIN, 0};
  return ::poll(&entry, 1, timeout_ms) > 0;
}

inline void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const auto n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the peer closed: reads will tell
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

// A connection to the IPC socket that reads whole frames.
class IpcClient {
 public:
  explicit IpcClient(const std::string& path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd_ >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    REQUIRE(path.size() < sizeof(address.sun_path));
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    connected_ = ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0;
    connect_errno_ = connected_ ? 0 : errno;
  }
  ~IpcClient() { ::close(fd_); }
  IpcClient(const IpcClient&) = delete;
  IpcClient& operator=(const IpcClient&) = delete;

  [[nodiscard]] bool connected() const { return connected_; }
  [[nodiscard]] int connect_errno() const { return connect_errno_; }

  void send_raw(std::string_view bytes) { write_all(fd_, bytes); }
  void send(IpcOpcode opcode, std::string_view payload) { send_raw(encode_ipc_frame(opcode, payload)); }

  // The next frame, or nullopt when the server closed the connection (or nothing came within 10 s).
  std::optional<IpcFrame> receive(int timeout_ms = 10000) {
    for (;;) {
      if (auto frame = decoder_.next()) return frame;
      if (!wait_readable(fd_, timeout_ms)) return std::nullopt;
      char chunk[8192];
      const auto n = ::recv(fd_, chunk, sizeof(chunk), 0);
      if (n <= 0) return std::nullopt;
      decoder_.feed(std::string_view(chunk, static_cast<std::size_t>(n)));
    }
  }
  rapidjson::Document receive_json(IpcOpcode expected = IpcOpcode::frame) {
    auto frame = receive();
    REQUIRE(frame);
    REQUIRE(frame->opcode == expected);
    return parse_ipc_json(frame->payload);
  }
  // True when the server closed the connection (end of stream) within the timeout.
  bool closed_by_server() {
    for (;;) {
      auto frame = receive();
      if (!frame) return true;
    }
  }
  rapidjson::Document handshake(const std::string& client_id) {
    send(IpcOpcode::handshake, R"({"v":1,"client_id":")" + client_id + R"("})");
    auto ready = receive_json();
    REQUIRE(ready["evt"].IsString());
    REQUIRE(std::string(ready["evt"].GetString()) == "READY");
    return ready;
  }
  rapidjson::Document command(const std::string& json) {
    send(IpcOpcode::frame, json);
    return receive_json();
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
  int connect_errno_ = 0;
  IpcFrameDecoder decoder_;
};

}  // namespace platformpp::emulator::test
