// A raw IPC client for tests: connects to the emulator's Unix socket (Windows: its named pipe), writes
// frames, reads whole frames; plus the few plain-socket helpers the raw HTTP of the socket tests uses.
#pragma once

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#ifdef _WIN32
#include <windows.h>
#include <winsock2.h>

#include <chrono>
#include <thread>

#include "core/win32_security.hpp"
#else
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#endif

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

#ifdef _WIN32
using Socket = SOCKET;
inline constexpr Socket kInvalidSocket = INVALID_SOCKET;
inline constexpr int kSocketFlags = 0;  // handles are not inherited unless asked
inline void close_socket(Socket socket) {
  ::closesocket(socket);
}
// Waits up to `timeout_ms` for `socket` to become readable; false on timeout.
inline bool wait_readable(Socket socket, int timeout_ms) {
  WSAPOLLFD entry{socket, POLLRDNORM, 0};
  return ::WSAPoll(&entry, 1, timeout_ms) > 0;
}
inline void write_all(Socket socket, std::string_view bytes) {
  while (!bytes.empty()) {
    const int n = ::send(socket, bytes.data(), static_cast<int>(bytes.size()), 0);
    if (n <= 0) return;  // the peer closed: reads will tell
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}
#else
using Socket = int;
inline constexpr Socket kInvalidSocket = -1;
inline constexpr int kSocketFlags = SOCK_CLOEXEC;
inline void close_socket(Socket socket) {
  ::close(socket);
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
#endif

#ifdef _WIN32
// A connection to the IPC named pipe that reads whole frames.
class IpcClient {
 public:
  explicit IpcClient(const std::string& path) {
    pipe_ = ::CreateFileW(widen(path).c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING, 0,
                          nullptr);
    connected_ = pipe_ != INVALID_HANDLE_VALUE;
    connect_errno_ = connected_ ? 0 : static_cast<int>(::GetLastError());
  }
  ~IpcClient() {
    if (connected_) ::CloseHandle(pipe_);
  }
  IpcClient(const IpcClient&) = delete;
  IpcClient& operator=(const IpcClient&) = delete;

  [[nodiscard]] bool connected() const { return connected_; }
  // The Windows error code of a failed connection.
  [[nodiscard]] int connect_errno() const { return connect_errno_; }

  void send_raw(std::string_view bytes) {
    while (connected_ && !bytes.empty()) {
      DWORD n = 0;
      if (::WriteFile(pipe_, bytes.data(), static_cast<DWORD>(bytes.size()), &n, nullptr) == 0) return;
      bytes.remove_prefix(n);
    }
  }
  void send(IpcOpcode opcode, std::string_view payload) { send_raw(encode_ipc_frame(opcode, payload)); }

  // The next frame, or nullopt when the server closed the pipe (or nothing came within 10 s). A synchronous
  // pipe has no poll: PeekNamedPipe says what is there, and a broken pipe is the end.
  std::optional<IpcFrame> receive(int timeout_ms = 10000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      if (auto frame = decoder_.next()) return frame;
      if (!connected_) return std::nullopt;
      DWORD available = 0;
      // A pipe the server closed may still hold what it wrote last (a CLOSE frame): read on until ReadFile
      // fails.
      const bool peeked = ::PeekNamedPipe(pipe_, nullptr, 0, nullptr, &available, nullptr) != 0;
      if (peeked && available == 0) {
        if (std::chrono::steady_clock::now() > deadline) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      char chunk[8192];
      DWORD n = 0;
      if (::ReadFile(pipe_, chunk, sizeof(chunk), &n, nullptr) == 0 || n == 0) return std::nullopt;
      decoder_.feed(std::string_view(chunk, n));
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
  HANDLE pipe_ = INVALID_HANDLE_VALUE;
  bool connected_ = false;
  int connect_errno_ = 0;
  IpcFrameDecoder decoder_;
};
#else
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
#endif

}  // namespace platformpp::emulator::test
