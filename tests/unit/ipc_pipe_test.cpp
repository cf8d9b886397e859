// Windows: IpcConnection over a named pipe against an in-test pipe server standing in for the desktop client
// (one instance of \\.\pipe\<name>-ipc-0, served with overlapped calls on a thread of its own), while the
// connection runs on a real IoContext thread: the handshake and READY, a command answered by nonce, a pipe
// that accepts and never answers, a pipe served by a user other than the trusted one, and the owner check.
#ifdef _WIN32

#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "core/win32.hpp"
#include "ipc/ipc_connection.hpp"
#include "ipc/ipc_frame.hpp"
#include "ipc/ipc_message.hpp"
#include "ipc/ipc_pipe_owner.hpp"

#include <platformpp/io_context.hpp>

#include <doctest/doctest.h>

#include "test_portability.hpp"  // <windows.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ipc_pipe_test {

using namespace platformpp;
using namespace platformpp::ipc;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kClientId = "1234567890";
// A user no test runs as: the local system account.
constexpr const char* kForeignSid = "S-1-5-18";

std::string UniqueName() {
  static std::atomic<int> counter{0};
  return "platformpp-test-" + std::to_string(::GetCurrentProcessId()) + "-" + std::to_string(++counter);
}

std::wstring PipePath(const std::string& name) {
  return core::win32::Widen(R"(\\.\pipe\)" + name + "-ipc-0");
}

// One pipe instance served on a thread. Answer: replies READY to the handshake and {"ok":true} to every
// command. Silent: accepts and never writes a byte.
class PipeServer {
 public:
  enum class Mode { Answer, Silent };

  PipeServer(const std::string& name, Mode mode) : mode_(mode) {
    pipe_ = ::CreateNamedPipeW(PipePath(name).c_str(),
                               PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED | FILE_FLAG_FIRST_PIPE_INSTANCE,
                               PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS,
                               1, 1 << 16, 1 << 16, 0, nullptr);
    REQUIRE(pipe_ != INVALID_HANDLE_VALUE);
    stop_ = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
    io_ = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
    thread_ = std::thread([this] { Serve(); });
  }
  ~PipeServer() {
    ::SetEvent(stop_);
    thread_.join();
    ::CloseHandle(pipe_);
    ::CloseHandle(io_);
    ::CloseHandle(stop_);
  }
  PipeServer(const PipeServer&) = delete;
  PipeServer& operator=(const PipeServer&) = delete;

  int Connections() const { return connections_.load(); }
  std::vector<std::string> Handshakes() {
    std::lock_guard lock(mutex_);
    return handshakes_;
  }
  std::vector<std::string> Commands() {
    std::lock_guard lock(mutex_);
    return commands_;
  }

 private:
  // Starts an overlapped call and waits for it or for the stop event. False when stopped or failed.
  bool Complete(BOOL started, OVERLAPPED& overlapped, DWORD* transferred) {
    if (!started && ::GetLastError() != ERROR_IO_PENDING) return false;
    HANDLE waits[] = {overlapped.hEvent, stop_};
    if (::WaitForMultipleObjects(2, waits, FALSE, INFINITE) != WAIT_OBJECT_0) {
      ::CancelIo(pipe_);
      ::GetOverlappedResult(pipe_, &overlapped, transferred, TRUE);
      return false;
    }
    return ::GetOverlappedResult(pipe_, &overlapped, transferred, FALSE) != FALSE;
  }

  OVERLAPPED Fresh() {
    OVERLAPPED overlapped{};
    ::ResetEvent(io_);
    overlapped.hEvent = io_;
    return overlapped;
  }

  void Serve() {
    for (;;) {
      OVERLAPPED connect = Fresh();
      DWORD ignored = 0;
      if (!::ConnectNamedPipe(pipe_, &connect) && ::GetLastError() == ERROR_PIPE_CONNECTED) {
        // A client arrived between CreateNamedPipe and this call: connected already.
      } else if (!Complete(FALSE, connect, &ignored)) {
        return;
      }
      ++connections_;
      const bool stopped = !Session();
      ::DisconnectNamedPipe(pipe_);
      if (stopped) return;
    }
  }

  // One client until it goes (true) or the server stops (false).
  bool Session() {
    if (mode_ == Mode::Silent) {
      // Wait for the stop event or for the client to go (a read fails then): never write.
      char byte = 0;
      for (;;) {
        OVERLAPPED read = Fresh();
        DWORD got = 0;
        if (!Complete(::ReadFile(pipe_, &byte, 1, nullptr, &read), read, &got))
          return ::WaitForSingleObject(stop_, 0) != WAIT_OBJECT_0;
      }
    }
    IpcFrameDecoder decoder;
    char buffer[4096];
    for (;;) {
      OVERLAPPED read = Fresh();
      DWORD got = 0;
      if (!Complete(::ReadFile(pipe_, buffer, sizeof buffer, nullptr, &read), read, &got) || got == 0)
        return ::WaitForSingleObject(stop_, 0) != WAIT_OBJECT_0;
      decoder.Feed(std::string_view(buffer, got));
      while (std::optional<IpcFrame> frame = decoder.Next()) {
        if (frame->opcode == IpcOpcode::Handshake) {
          {
            std::lock_guard lock(mutex_);
            handshakes_.push_back(frame->payload);
          }
          Write(EncodeIpcFrame(
              IpcOpcode::Frame,
              R"({"cmd":"DISPATCH","evt":"READY","nonce":null,"data":{"v":1,"config":{"cdn_host":"cdn.example",)"
              R"("api_endpoint":"//api.example","environment":"production"},"user":{"id":"42","username":"desk"}}})"));
        } else if (frame->opcode == IpcOpcode::Frame) {
          std::string error;
          std::optional<IpcMessage> message = ParseIpcMessage(frame->payload, &error);
          if (!message || !message->nonce) continue;
          {
            std::lock_guard lock(mutex_);
            commands_.push_back(message->cmd);
          }
          Write(EncodeIpcFrame(IpcOpcode::Frame, R"({"cmd":")" + message->cmd + R"(","nonce":")" +
                                                     *message->nonce +
                                                     R"(","evt":null,"data":{"ok":true}})"));
        }
      }
    }
  }

  void Write(const std::string& bytes) {
    OVERLAPPED write = Fresh();
    DWORD sent = 0;
    Complete(::WriteFile(pipe_, bytes.data(), static_cast<DWORD>(bytes.size()), nullptr, &write), write,
             &sent);
  }

  Mode mode_;
  HANDLE pipe_ = INVALID_HANDLE_VALUE;
  HANDLE stop_ = nullptr;
  HANDLE io_ = nullptr;
  std::atomic<int> connections_{0};
  std::mutex mutex_;
  std::vector<std::string> handshakes_;
  std::vector<std::string> commands_;
  std::thread thread_;
};

// An IpcConnection on a real one-thread IoContext, with what the log reports.
class Harness {
 public:
  Harness(const std::string& name, std::chrono::milliseconds connectTimeout, std::string trustedSid = {}) {
    logger_->AddCallback(
        [this](std::string message, LoggingSeverity severity) {
          logs_.emplace_back(severity, std::move(message));
        },
        LoggingSeverity::Verbose);
    IpcConnectionOptions options;
    options.name = name;
    options.clientId = kClientId;
    options.backoffInitial = 10ms;
    options.backoffMaximum = 40ms;
    options.connectTimeout = connectTimeout;
    options.trustedPipeUserSid = std::move(trustedSid);
    connection = std::make_unique<IpcConnection>(io_, logger_, options);
  }
  ~Harness() {
    connection->Shutdown();
    queue_->Shutdown();
  }

  bool WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout = 5s) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
      queue_->Drain();
      if (done()) return true;
      if (Clock::now() > deadline) return false;
      std::this_thread::sleep_for(1ms);
    }
  }
  bool HasLog(LoggingSeverity severity, std::string_view needle) {
    queue_->Drain();
    for (auto& [s, message] : logs_)
      if (s == severity && message.find(needle) != std::string::npos) return true;
    return false;
  }
  std::string AllLogs() {
    queue_->Drain();
    std::string out;
    for (auto& [s, message] : logs_)
      out += std::string(LoggingSeverityToString(s)) + ": " + message + "\n";
    return out;
  }
  std::future<bool> Settled() {
    auto promise = std::make_shared<std::promise<bool>>();
    auto future = promise->get_future();
    connection->WhenSettled([promise](bool ready) { promise->set_value(ready); });
    return future;
  }

 private:
  std::shared_ptr<core::CallbackQueue> queue_ = std::make_shared<core::CallbackQueue>();
  std::shared_ptr<core::Logger> logger_ = std::make_shared<core::Logger>(queue_);
  IoContext io_{1};
  std::vector<std::pair<LoggingSeverity, std::string>> logs_;  // test thread only

 public:
  std::unique_ptr<IpcConnection> connection;  // declared last: shut down before the context goes
};

}  // namespace

TEST_CASE(
    "ipc pipe: the handshake goes over the named pipe, READY makes it ready, a reply matches its nonce") {
  const std::string name = UniqueName();
  PipeServer server(name, PipeServer::Mode::Answer);
  Harness harness(name, 2000ms);
  harness.connection->Start();
  REQUIRE_MESSAGE(harness.WaitFor([&] { return harness.connection->IsReady(); }), harness.AllLogs());
  REQUIRE(server.Handshakes().size() == 1);
  CHECK(server.Handshakes()[0].find(R"("client_id":"1234567890")") != std::string::npos);
  CHECK(server.Handshakes()[0].find(R"("v":1)") != std::string::npos);
  CHECK(harness.HasLog(LoggingSeverity::Info, R"(connected to \\?\pipe\)" + name + "-ipc-0"));

  std::promise<IpcReply> replied;
  harness.connection->Send("GET_SELECTED_VOICE_CHANNEL", "{}", std::nullopt, 2s,
                           [&](IpcReply reply) { replied.set_value(std::move(reply)); });
  auto future = replied.get_future();
  REQUIRE(future.wait_for(5s) == std::future_status::ready);
  IpcReply reply = future.get();
  CHECK(reply.ok);
  CHECK(reply.dataJson == R"({"ok":true})");
  CHECK(server.Commands() == std::vector<std::string>{"GET_SELECTED_VOICE_CHANNEL"});
}

TEST_CASE("ipc pipe: a pipe that accepts and never answers times out waiting for READY, then is retried") {
  const std::string name = UniqueName();
  PipeServer server(name, PipeServer::Mode::Silent);
  Harness harness(name, 300ms);
  const auto start = Clock::now();
  auto settled = harness.Settled();
  REQUIRE(settled.wait_for(5s) == std::future_status::ready);
  CHECK_FALSE(settled.get());
  CHECK(Clock::now() - start >= 250ms);
  CHECK_MESSAGE(harness.HasLog(LoggingSeverity::Warning, "no READY within 300 ms of the handshake"),
                harness.AllLogs());
  CHECK_FALSE(harness.connection->IsReady());
  // The connection backs off and comes back to the same pipe.
  CHECK(harness.WaitFor([&] { return server.Connections() >= 2; }));
}

TEST_CASE("ipc pipe: a pipe served by a user other than the trusted one is refused before anything is sent") {
  // Wine runs every process as one user, so "another user" is made by trusting a different one: the check
  // then sees this test's own server as foreign, exactly as a squatter's pipe would be seen.
  const std::string name = UniqueName();
  PipeServer server(name, PipeServer::Mode::Answer);
  Harness harness(name, 300ms, kForeignSid);
  auto settled = harness.Settled();
  REQUIRE(settled.wait_for(5s) == std::future_status::ready);
  CHECK_FALSE(settled.get());
  CHECK_MESSAGE(harness.HasLog(LoggingSeverity::Warning, "not by this user; skipped"), harness.AllLogs());
  // (The server's thread counts the connection once its connect completes, which may be after the refusal.)
  CHECK(harness.WaitFor([&] { return server.Connections() >= 1; }));
  CHECK(server.Handshakes().empty());  // not even the client id went out
  CHECK_FALSE(harness.connection->IsReady());
}

TEST_CASE("ipc pipe: without any pipe the attempt ends quickly and quietly") {
  Harness harness(UniqueName(), 2000ms);
  const auto start = Clock::now();
  auto settled = harness.Settled();
  REQUIRE(settled.wait_for(5s) == std::future_status::ready);
  CHECK_FALSE(settled.get());
  CHECK(Clock::now() - start < 1500ms);
  CHECK_FALSE(harness.HasLog(LoggingSeverity::Warning, "IPC"));
}

TEST_CASE(
    "ipc pipe owner: this process's own pipe is its user's; a foreign SID or an unknown owner is refused") {
  const std::optional<core::win32::Sid> me = core::win32::CurrentUserSid();
  REQUIRE(me);
  const std::optional<core::win32::Sid> foreign = core::win32::SidFromString(kForeignSid);
  REQUIRE(foreign);
  CHECK(core::win32::SidToString(*foreign) == kForeignSid);

  const std::string name = UniqueName();
  PipeServer server(name, PipeServer::Mode::Silent);
  HANDLE client = ::CreateFileW(PipePath(name).c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr,
                                OPEN_EXISTING, FILE_FLAG_OVERLAPPED, nullptr);
  REQUIRE(client != INVALID_HANDLE_VALUE);
  const std::optional<core::win32::Sid> owner = PipeServerUser(client);
  ::CloseHandle(client);
  REQUIRE(owner);
  CHECK(*owner == *me);
  CHECK_FALSE(PipeOwnerMismatch(owner, *me));
  const std::optional<std::string> refused = PipeOwnerMismatch(owner, *foreign);
  REQUIRE(refused);
  CHECK(*refused == "served by " + core::win32::SidToString(*me));
  CHECK(PipeOwnerMismatch(foreign, *me) == std::optional<std::string>("served by S-1-5-18"));
  CHECK(PipeOwnerMismatch(std::nullopt, *me) == std::optional<std::string>("served by an unknown user"));
}

}  // namespace ipc_pipe_test

#endif  // _WIN32
