#pragma once
// A stand-in for the desktop client that a test drives step by step: a Unix socket in a private mkdtemp
// directory, plain POSIX calls on the test thread, frames read and written one at a time. For the cases the
// emulator's stand-in cannot produce (protocol errors, wrong answers, a client that vanishes mid-command).

#include "ipc/ipc_frame.hpp"
#include "json/json.hpp"

#include <doctest/doctest.h>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace itest::fake_desktop {

using namespace std::chrono_literals;
using platformpp::ipc::EncodeIpcFrame;
using platformpp::ipc::IpcFrame;
using platformpp::ipc::IpcFrameDecoder;
using platformpp::ipc::IpcOpcode;
namespace json = platformpp::json;
using Clock = std::chrono::steady_clock;

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/ppipc-XXXXXX";
    REQUIRE(::mkdtemp(pattern) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& Path() const { return path_; }
  std::string Socket(int slot) const { return path_ + "/discord-ipc-" + std::to_string(slot); }

 private:
  std::string path_;
};

inline std::string Header(uint32_t opcode, uint32_t length) {
  std::string out;
  for (uint32_t value : {opcode, length}) {
    for (int i = 0; i < 4; ++i)
      out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  }
  return out;
}

inline int Remaining(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

// A command as the desktop client received it.
struct Received {
  std::string cmd;
  std::string nonce;
  std::optional<std::string> evt;
  std::string argsJson;
};

// One accepted connection, seen from the desktop client's side.
class Peer {
 public:
  explicit Peer(int fd) : fd_(fd) {}
  ~Peer() { Close(); }

  void Write(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return;  // the SDK closed first: some tests expect that
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  void WriteFrame(IpcOpcode opcode, std::string_view json) { Write(EncodeIpcFrame(opcode, json)); }

  std::optional<IpcFrame> ReadFrame(std::chrono::milliseconds timeout = 2s) {
    auto deadline = Clock::now() + timeout;
    for (;;) {
      if (auto frame = decoder_.Next()) return frame;
      if (!Receive(deadline)) return std::nullopt;
    }
  }

  Received ReadCommand() {
    auto frame = ReadFrame();
    REQUIRE(frame);
    REQUIRE(frame->opcode == IpcOpcode::Frame);
    json::Document document;
    REQUIRE(json::Parse(frame->payload, document));
    Received out;
    out.cmd = std::string(json::GetString(document, "cmd").value_or(""));
    out.nonce = std::string(json::GetString(document, "nonce").value_or(""));
    if (auto evt = json::GetString(document, "evt")) out.evt = std::string(*evt);
    if (const json::Value* args = json::Member(document, "args")) out.argsJson = json::Serialize(*args);
    return out;
  }

  void Reply(const Received& command, std::string_view dataJson) {
    WriteFrame(IpcOpcode::Frame, "{\"cmd\":\"" + command.cmd + "\",\"evt\":null,\"nonce\":\"" +
                                     command.nonce + "\",\"data\":" + std::string(dataJson) + "}");
  }

  void SendReady(std::string_view userId = "42") {
    WriteFrame(
        IpcOpcode::Frame,
        R"({"cmd":"DISPATCH","evt":"READY","nonce":null,"data":{"v":1,"config":{"cdn_host":"cdn.example",)"
        R"("api_endpoint":"//api.example","environment":"production"},"user":{"id":")" +
            std::string(userId) + R"(","username":"desk"}}})");
  }

  /// True when the SDK closed its end within `timeout` (whatever it sent before is discarded).
  bool WaitClosed(std::chrono::milliseconds timeout = 2s) {
    auto deadline = Clock::now() + timeout;
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, Remaining(deadline)) <= 0) return false;
      char buffer[4096];
      ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) return true;
    }
  }

  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  bool Receive(Clock::time_point deadline) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, Remaining(deadline)) <= 0) return false;
    char buffer[4096];
    ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    decoder_.Feed(std::string_view(buffer, static_cast<std::size_t>(n)));
    return true;
  }

  int fd_;
  IpcFrameDecoder decoder_;
};

inline int Listen(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 16) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The desktop client's listening socket.
class FakeDesktop {
 public:
  explicit FakeDesktop(std::string path) : path_(std::move(path)), fd_(Listen(path_)) { REQUIRE(fd_ >= 0); }
  ~FakeDesktop() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }

  std::unique_ptr<Peer> Accept(std::chrono::milliseconds timeout = 2s) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return nullptr;
    int fd = ::accept(fd_, nullptr, nullptr);
    if (fd < 0) return nullptr;
    return std::make_unique<Peer>(fd);
  }

  /// Accepts the next connection, checks its HANDSHAKE and answers READY.
  std::unique_ptr<Peer> AcceptReady() {
    auto peer = Accept();
    REQUIRE(peer);
    auto handshake = peer->ReadFrame();
    REQUIRE(handshake);
    CHECK(handshake->opcode == IpcOpcode::Handshake);
    peer->SendReady();
    return peer;
  }

 private:
  std::string path_;
  int fd_;
};

}  // namespace itest::fake_desktop
