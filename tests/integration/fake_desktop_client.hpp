#pragma once
// A stand-in for the desktop client that a test drives step by step: a Unix socket in a private mkdtemp
// directory (on Windows, a named pipe \\.\pipe\<unique name>-ipc-0 served with overlapped calls), on the test
// thread, frames read and written one at a time. For the cases the emulator's stand-in cannot produce
// (protocol errors, wrong answers, a client that vanishes mid-command).

#include "ipc/ipc_frame.hpp"
#include "json/json.hpp"

#include <doctest/doctest.h>

#ifdef _WIN32
#include "core/win32.hpp"

#include <windows.h>

#include <atomic>
#else
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#endif

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

// Where the fake desktop client listens, and the ClientOptions::ipcName / ipcDirectory that find it: a
// private directory with the platform's socket name in it, or on Windows (where pipe names are global and no
// directory applies) a name no other test or process uses.
class TempDir {
 public:
#ifdef _WIN32
  TempDir() {
    static std::atomic<int> counter{0};
    name_ = "platformpp-fake-desktop-" + std::to_string(::GetCurrentProcessId()) + "-" +
            std::to_string(++counter);
  }
  const std::string& Path() const {
    return path_;
  }
  const std::string& IpcName() const {
    return name_;
  }
  std::string Socket(int slot) const {
    return R"(\\.\pipe\)" + name_ + "-ipc-" + std::to_string(slot);
  }
#else
  TempDir() {
    char pattern[] = "/tmp/ppipc-XXXXXX";
    REQUIRE(::mkdtemp(pattern) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& Path() const {
    return path_;
  }
  const std::string& IpcName() const {
    return name_;
  }
  std::string Socket(int slot) const {
    return path_ + "/discord-ipc-" + std::to_string(slot);
  }
#endif
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

 private:
  std::string path_;
  std::string name_ = "discord";
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

enum class ReadResult { Data, Closed, TimedOut };

#ifdef _WIN32
// One connection's bytes: a pipe instance, read and written with overlapped calls bounded by a deadline.
class Channel {
 public:
  explicit Channel(HANDLE pipe) : pipe_(pipe), event_(::CreateEventW(nullptr, TRUE, FALSE, nullptr)) {}
  ~Channel() {
    Close();
    ::CloseHandle(event_);
  }
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // As much as the SDK takes within 2 s; stops when it has closed its end.
  void Write(std::string_view bytes) {
    while (!bytes.empty() && pipe_ != INVALID_HANDLE_VALUE) {
      OVERLAPPED overlapped = Fresh();
      DWORD sent = 0;
      if (!Complete(::WriteFile(pipe_, bytes.data(), static_cast<DWORD>(bytes.size()), nullptr, &overlapped),
                    overlapped, Clock::now() + 2s, &sent) ||
          sent == 0)
        return;
      bytes.remove_prefix(sent);
    }
  }

  ReadResult Read(char* buffer, std::size_t size, Clock::time_point deadline, std::size_t* got) {
    if (pipe_ == INVALID_HANDLE_VALUE) return ReadResult::Closed;
    OVERLAPPED overlapped = Fresh();
    DWORD n = 0;
    if (Complete(::ReadFile(pipe_, buffer, static_cast<DWORD>(size), nullptr, &overlapped), overlapped,
                 deadline, &n) &&
        n > 0) {
      *got = n;
      return ReadResult::Data;
    }
    const DWORD error = ::GetLastError();
    if (error == ERROR_BROKEN_PIPE || error == ERROR_PIPE_NOT_CONNECTED || error == ERROR_NO_DATA)
      return ReadResult::Closed;
    return Clock::now() >= deadline ? ReadResult::TimedOut : ReadResult::Closed;
  }

  void Close() {
    if (pipe_ != INVALID_HANDLE_VALUE) ::CloseHandle(pipe_);
    pipe_ = INVALID_HANDLE_VALUE;
  }

 private:
  OVERLAPPED Fresh() {
    OVERLAPPED overlapped{};
    ::ResetEvent(event_);
    overlapped.hEvent = event_;
    return overlapped;
  }

  // Waits for an overlapped call until the deadline; one that has not completed by then is cancelled (what it
  // transferred before the cancel still counts).
  bool Complete(BOOL started, OVERLAPPED& overlapped, Clock::time_point deadline, DWORD* transferred) {
    if (!started && ::GetLastError() != ERROR_IO_PENDING) return false;
    if (::WaitForSingleObject(event_, static_cast<DWORD>(Remaining(deadline))) != WAIT_OBJECT_0) {
      ::CancelIoEx(pipe_, &overlapped);
      return ::GetOverlappedResult(pipe_, &overlapped, transferred, TRUE) != FALSE && *transferred > 0;
    }
    return ::GetOverlappedResult(pipe_, &overlapped, transferred, FALSE) != FALSE;
  }

  HANDLE pipe_;
  HANDLE event_;
};
#else
// One connection's bytes: an accepted Unix socket, polled against a deadline.
class Channel {
 public:
  explicit Channel(int fd) : fd_(fd) {}
  ~Channel() { Close(); }
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // As much as the SDK takes; stops when it has closed its end.
  void Write(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }

  ReadResult Read(char* buffer, std::size_t size, Clock::time_point deadline, std::size_t* got) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, Remaining(deadline)) <= 0) return ReadResult::TimedOut;
    ssize_t n = ::recv(fd_, buffer, size, 0);
    if (n <= 0) return ReadResult::Closed;
    *got = static_cast<std::size_t>(n);
    return ReadResult::Data;
  }

  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};
#endif

// One accepted connection, seen from the desktop client's side.
class Peer {
 public:
#ifdef _WIN32
  explicit Peer(HANDLE pipe) : channel_(pipe) {}
#else
  explicit Peer(int fd) : channel_(fd) {}
#endif

  void Write(std::string_view bytes) {
    channel_.Write(bytes);
  }  // the SDK may have closed first: tests expect it
  void WriteFrame(IpcOpcode opcode, std::string_view json) {
    Write(EncodeIpcFrame(opcode, json));
  }

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
      char buffer[4096];
      std::size_t got = 0;
      switch (channel_.Read(buffer, sizeof buffer, deadline, &got)) {
        case ReadResult::Data:
          continue;
        case ReadResult::Closed:
          return true;
        case ReadResult::TimedOut:
          return false;
      }
    }
  }

  void Close() {
    channel_.Close();
  }

 private:
  bool Receive(Clock::time_point deadline) {
    char buffer[4096];
    std::size_t got = 0;
    if (channel_.Read(buffer, sizeof buffer, deadline, &got) != ReadResult::Data) return false;
    decoder_.Feed(std::string_view(buffer, got));
    return true;
  }

  Channel channel_;
  IpcFrameDecoder decoder_;
};

// A connection just accepted, once its HANDSHAKE is checked and READY answered.
inline std::unique_ptr<Peer> ReadyPeer(std::unique_ptr<Peer> peer) {
  REQUIRE(peer);
  auto handshake = peer->ReadFrame();
  REQUIRE(handshake);
  CHECK(handshake->opcode == IpcOpcode::Handshake);
  peer->SendReady();
  return peer;
}

#ifdef _WIN32
// The desktop client's pipe: one instance waits for a client at all times (a client that finds none would
// take the desktop client for absent), the next one made as each is accepted.
class FakeDesktop {
 public:
  explicit FakeDesktop(std::string path)
      : path_(platformpp::core::win32::Widen(path)), event_(::CreateEventW(nullptr, TRUE, FALSE, nullptr)) {
    NewInstance();
    REQUIRE(waiting_ != INVALID_HANDLE_VALUE);
  }
  ~FakeDesktop() {
    if (waiting_ != INVALID_HANDLE_VALUE) {
      ::CancelIoEx(waiting_, nullptr);
      ::CloseHandle(waiting_);
    }
    ::CloseHandle(event_);
  }
  FakeDesktop(const FakeDesktop&) = delete;
  FakeDesktop& operator=(const FakeDesktop&) = delete;

  std::unique_ptr<Peer> Accept(std::chrono::milliseconds timeout = 2s) {
    if (waiting_ == INVALID_HANDLE_VALUE) return nullptr;
    if (!connecting_) {
      overlapped_ = OVERLAPPED{};
      ::ResetEvent(event_);
      overlapped_.hEvent = event_;
      if (::ConnectNamedPipe(waiting_, &overlapped_) || ::GetLastError() == ERROR_PIPE_CONNECTED) {
        return Hand();
      }
      if (::GetLastError() != ERROR_IO_PENDING) return nullptr;
      connecting_ = true;
    }
    // A connect still pending at the timeout stays pending: the next Accept waits for it again.
    if (::WaitForSingleObject(event_, static_cast<DWORD>(timeout.count())) != WAIT_OBJECT_0) return nullptr;
    connecting_ = false;
    DWORD ignored = 0;
    if (!::GetOverlappedResult(waiting_, &overlapped_, &ignored, FALSE)) return nullptr;
    return Hand();
  }

  /// Accepts the next connection, checks its HANDSHAKE and answers READY.
  std::unique_ptr<Peer> AcceptReady() { return ReadyPeer(Accept()); }

 private:
  std::unique_ptr<Peer> Hand() {
    auto peer = std::make_unique<Peer>(waiting_);
    NewInstance();
    return peer;
  }
  void NewInstance() {
    waiting_ =
        ::CreateNamedPipeW(path_.c_str(), PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED,
                           PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS,
                           PIPE_UNLIMITED_INSTANCES, 1 << 16, 1 << 16, 0, nullptr);
    connecting_ = false;
  }

  std::wstring path_;
  HANDLE event_;
  HANDLE waiting_ = INVALID_HANDLE_VALUE;
  OVERLAPPED overlapped_{};
  bool connecting_ = false;
};

#else
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
  std::unique_ptr<Peer> AcceptReady() { return ReadyPeer(Accept()); }

 private:
  std::string path_;
  int fd_;
};
#endif

}  // namespace itest::fake_desktop
