// IpcConnection against an in-test stand-in for the desktop client: a Unix socket in a private mkdtemp
// directory, driven with plain POSIX calls from the test thread, while the connection runs on a real
// IoContext thread. Small backoffs keep every reconnect within milliseconds.
#include "ipc/ipc_connection.hpp"
#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "fake_desktop_client.hpp"
#include "ipc/ipc_frame.hpp"
#include "json/json.hpp"

#include <platformpp/io_context.hpp>

#include <doctest/doctest.h>

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <thread>

namespace ipc_connection_test {

using namespace platformpp;
using namespace platformpp::ipc;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

using namespace itest::fake_desktop;

namespace {

constexpr const char* kClientId = "1234567890";

// An IpcConnection on a real one-thread IoContext, with everything its handlers and the log report.
class Harness {
 public:
  explicit Harness(const std::string& directory, std::chrono::milliseconds connectTimeout = 500ms) {
    logger_->AddCallback(
        [this](std::string message, LoggingSeverity severity) {
          logs_.emplace_back(severity, std::move(message));
        },
        LoggingSeverity::Verbose);
    IpcConnectionOptions options;
    options.directory = directory;
    options.clientId = kClientId;
    options.backoffInitial = 10ms;
    options.backoffMaximum = 40ms;
    options.connectTimeout = connectTimeout;
    connection = std::make_unique<IpcConnection>(io_, logger_, options);
    connection->SetOnReady([this](const IpcReady& ready) {
      std::lock_guard lock(mutex_);
      readies_.push_back(ready);
    });
    connection->SetOnDisconnected([this](const std::string& reason) {
      std::lock_guard lock(mutex_);
      disconnects_.push_back(reason);
    });
    connection->SetOnEvent([this](const IpcMessage& message) {
      std::lock_guard lock(mutex_);
      events_.push_back(message);
    });
  }
  ~Harness() {
    connection->Shutdown();
    queue_->Shutdown();
  }

  std::future<IpcReply> Send(std::string cmd, std::string args = "{}", std::chrono::milliseconds timeout = 2s,
                             std::optional<std::string> evt = std::nullopt) {
    auto promise = std::make_shared<std::promise<IpcReply>>();
    auto future = promise->get_future();
    connection->Send(std::move(cmd), std::move(args), std::move(evt), timeout,
                     [promise](IpcReply reply) { promise->set_value(std::move(reply)); });
    return future;
  }

  /// Drains the log callbacks (this is the "game thread") until `done()` or the timeout.
  bool WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout = 2s) {
    auto deadline = Clock::now() + timeout;
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
  bool WaitForLog(LoggingSeverity severity, std::string_view needle) {
    return WaitFor([&] { return HasLog(severity, needle); });
  }
  std::string AllLogs() {
    queue_->Drain();
    std::string out;
    for (auto& [s, message] : logs_)
      out += std::string(LoggingSeverityToString(s)) + ": " + message + "\n";
    return out;
  }

  std::size_t ReadyCount() {
    std::lock_guard lock(mutex_);
    return readies_.size();
  }
  std::vector<IpcReady> Readies() {
    std::lock_guard lock(mutex_);
    return readies_;
  }
  std::vector<std::string> Disconnects() {
    std::lock_guard lock(mutex_);
    return disconnects_;
  }
  std::vector<IpcMessage> Events() {
    std::lock_guard lock(mutex_);
    return events_;
  }

  /// Start, accept, check the handshake, READY, and wait until the connection says it is ready.
  std::unique_ptr<Peer> Connect(FakeDesktop& desktop) {
    connection->Start();
    auto peer = desktop.AcceptReady();
    REQUIRE(WaitFor([&] { return connection->IsReady() && ReadyCount() >= 1; }));
    return peer;
  }

 private:
  std::shared_ptr<core::CallbackQueue> queue_ = std::make_shared<core::CallbackQueue>();
  std::shared_ptr<core::Logger> logger_ = std::make_shared<core::Logger>(queue_);
  IoContext io_{1};
  std::vector<std::pair<LoggingSeverity, std::string>> logs_;  // test thread only
  std::mutex mutex_;
  std::vector<IpcReady> readies_;
  std::vector<std::string> disconnects_;
  std::vector<IpcMessage> events_;

 public:
  std::unique_ptr<IpcConnection> connection;  // declared last: shut down before the context goes
};

IpcReply Get(std::future<IpcReply>& future, std::chrono::milliseconds timeout = 2s) {
  REQUIRE(future.wait_for(timeout) == std::future_status::ready);
  return future.get();
}

std::future<bool> Settled(IpcConnection& connection) {
  auto promise = std::make_shared<std::promise<bool>>();
  auto future = promise->get_future();
  connection.WhenSettled([promise](bool ready) { promise->set_value(ready); });
  return future;
}

}  // namespace

TEST_CASE("ipc connection: handshake carries v 1 and the client id; READY makes it ready") {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path());
  CHECK_FALSE(h.connection->IsReady());
  h.connection->Start();
  h.connection->Start();  // idempotent
  auto peer = desktop.Accept();
  REQUIRE(peer);
  auto handshake = peer->ReadFrame();
  REQUIRE(handshake);
  CHECK(handshake->opcode == IpcOpcode::Handshake);
  json::Document document;
  REQUIRE(json::Parse(handshake->payload, document));
  CHECK(json::GetInt(document, "v") == 1);
  CHECK(json::GetString(document, "client_id") == kClientId);
  CHECK_FALSE(h.connection->IsReady());  // connected is not ready: READY is

  peer->SendReady("4242");
  REQUIRE(h.WaitFor([&] { return h.connection->IsReady() && h.ReadyCount() == 1; }));
  auto ready = h.Readies().front();
  CHECK(ready.version == 1);
  CHECK(ready.userJson.find("\"4242\"") != std::string::npos);
  CHECK(ready.configJson.find("cdn.example") != std::string::npos);
  auto settled = Settled(*h.connection);
  REQUIRE(settled.wait_for(1s) == std::future_status::ready);
  CHECK(settled.get());
  CHECK(h.HasLog(LoggingSeverity::Info, "IPC: connected to " + dir.Socket(0)));
  CHECK(!desktop.Accept(50ms));  // one connection only
}

TEST_CASE("ipc connection: the first candidate that accepts and is this user's (SO_PEERCRED) is used") {
  TempDir dir;
  // Slot 0: not a socket. Slot 1: a socket nobody listens on any more. Slot 2: the desktop client.
  std::ofstream(dir.Socket(0)) << "not a socket";
  ::close(Listen(dir.Socket(1)));
  FakeDesktop desktop(dir.Socket(2));
  Harness h(dir.Path());
  auto peer = h.Connect(desktop);
  CHECK(h.HasLog(LoggingSeverity::Info, "IPC: connected to " + dir.Socket(2)));
  CHECK_FALSE(h.HasLog(LoggingSeverity::Warning, "not by this user"));
}

TEST_CASE("ipc connection: a socket served by another user is refused with a warning and the next is tried") {
  if (::geteuid() != 0) {
    MESSAGE("skipped: needs root to serve a socket as another user");
    return;
  }
  TempDir dir;
  REQUIRE(::chmod(dir.Path().c_str(), 0777) == 0);
  int toParent[2];
  int toChild[2];
  REQUIRE(::pipe(toParent) == 0);
  REQUIRE(::pipe(toChild) == 0);
  const std::string foreignPath = dir.Socket(0);
  // Forked before this test starts any thread; the child makes async-signal-safe calls only.
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(toParent[0]);
    ::close(toChild[1]);
    char ok = 0;
    if (::setgid(65534) == 0 && ::setuid(65534) == 0) {
      int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
      sockaddr_un address{};
      address.sun_family = AF_UNIX;
      std::memcpy(address.sun_path, foreignPath.c_str(), foreignPath.size() + 1);
      if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
          ::listen(fd, 16) == 0)
        ok = 1;
    }
    (void)!::write(toParent[1], &ok, 1);
    char until;
    (void)!::read(toChild[0], &until, 1);  // returns when the parent closes its end
    ::_exit(0);
  }
  ::close(toParent[1]);
  ::close(toChild[0]);
  char served = 0;
  (void)!::read(toParent[0], &served, 1);
  ::close(toParent[0]);
  auto stopChild = [&] {
    ::close(toChild[1]);
    ::waitpid(child, nullptr, 0);
  };
  if (!served) {
    stopChild();
    MESSAGE("skipped: cannot serve a socket as another user here");
    return;
  }
  {
    FakeDesktop desktop(dir.Socket(1));
    Harness h(dir.Path());
    auto peer = h.Connect(desktop);
    CHECK(h.HasLog(LoggingSeverity::Warning,
                   foreignPath + " is served by user 65534, not by this user; skipped"));
    CHECK(h.HasLog(LoggingSeverity::Info, "IPC: connected to " + dir.Socket(1)));
  }
  stopChild();
}

TEST_CASE("ipc connection: replies are matched by nonce, also out of order; SUBSCRIBE carries evt") {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path());
  auto peer = h.Connect(desktop);

  auto first = h.Send("GET_A", R"({"which":"a"})");
  auto second = h.Send("GET_B", R"({"which":"b"})");
  auto a = peer->ReadCommand();
  auto b = peer->ReadCommand();
  CHECK(a.cmd == "GET_A");
  CHECK(a.argsJson == R"({"which":"a"})");
  CHECK(b.cmd == "GET_B");
  CHECK_FALSE(a.nonce.empty());
  CHECK(a.nonce != b.nonce);
  peer->Reply(b, R"({"answer":"b"})");
  peer->Reply(a, R"({"answer":"a"})");
  auto replyA = Get(first);
  auto replyB = Get(second);
  CHECK(replyA.ok);
  CHECK(replyA.dataJson == R"({"answer":"a"})");
  CHECK(replyB.ok);
  CHECK(replyB.dataJson == R"({"answer":"b"})");

  auto subscribed = h.Send("SUBSCRIBE", "{}", 2s, "ACTIVITY_JOIN");
  auto subscribe = peer->ReadCommand();
  CHECK(subscribe.cmd == "SUBSCRIBE");
  CHECK(subscribe.evt == "ACTIVITY_JOIN");
  // A reply nobody waits for is logged and ignored; the real one still lands.
  peer->WriteFrame(IpcOpcode::Frame, R"({"cmd":"SUBSCRIBE","nonce":"no-such-nonce","data":{}})");
  peer->Reply(subscribe, R"({"evt":"ACTIVITY_JOIN"})");
  CHECK(Get(subscribed).ok);
  CHECK(h.WaitForLog(LoggingSeverity::Warning, "reply matches no pending command"));
  CHECK(h.connection->IsReady());
}

TEST_CASE("ipc connection: an ERROR reply carries the RPC error code and message") {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path());
  auto peer = h.Connect(desktop);
  auto pending = h.Send("AUTHORIZE", R"({"client_id":"1234567890","scopes":["identify"]})");
  auto command = peer->ReadCommand();
  peer->WriteFrame(IpcOpcode::Frame,
                   R"({"cmd":"AUTHORIZE","evt":"ERROR","nonce":")" + command.nonce +
                       R"(","data":{"code":5000,"message":"OAuth2 Error: access_denied"}})");
  auto reply = Get(pending);
  CHECK_FALSE(reply.ok);
  CHECK(reply.errorCode == 5000);
  CHECK(reply.message == "OAuth2 Error: access_denied");
  CHECK(h.WaitForLog(LoggingSeverity::Info, "AUTHORIZE failed with RPC error 5000"));
  CHECK(h.connection->IsReady());
}

TEST_CASE("ipc connection: without a READY connection a command ends at once with not-connected") {
  TempDir dir;
  Harness h(dir.Path());
  const auto caller = std::this_thread::get_id();
  std::atomic<bool> inline_{false};
  auto promise = std::make_shared<std::promise<IpcReply>>();
  auto future = promise->get_future();
  // "At once" is shown by the code, not a stopwatch: a command that waited would end with kTimeout, after its
  // minute; this one ends with kNotConnected well within it. Not inline: a reply given inside Send would run
  // on this thread (the network thread may well answer before Send has returned here, which is fine).
  h.connection->Send("SET_ACTIVITY", "{}", std::nullopt, 60s, [&, promise](IpcReply reply) {
    if (std::this_thread::get_id() == caller) inline_ = true;
    promise->set_value(std::move(reply));
  });
  auto reply = Get(future, 30s);
  CHECK_FALSE(inline_);
  CHECK_FALSE(reply.ok);
  CHECK(reply.errorCode == IpcReply::kNotConnected);

  // Started, but nobody listens: still not connected.
  h.connection->Start();
  auto again = h.Send("SET_ACTIVITY", "{}", 60s);
  CHECK(Get(again, 30s).errorCode == IpcReply::kNotConnected);
}

TEST_CASE("ipc connection: a command without a reply times out; its late reply is ignored") {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path());
  auto peer = h.Connect(desktop);
  auto start = Clock::now();
  auto pending = h.Send("GET_SLOW", "{}", 50ms);
  auto command = peer->ReadCommand();
  auto reply = Get(pending);
  CHECK(Clock::now() - start >= 50ms);
  CHECK(reply.errorCode == IpcReply::kTimeout);
  peer->Reply(command, "{}");
  CHECK(h.WaitForLog(LoggingSeverity::Warning, "GET_SLOW reply matches no pending command"));
  CHECK(h.connection->IsReady());
}

TEST_CASE("ipc connection: a PING is answered with a PONG echoing its payload") {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path());
  auto peer = h.Connect(desktop);
  peer->WriteFrame(IpcOpcode::Ping, R"({"t":12345,"x":"echo me"})");
  auto pong = peer->ReadFrame();
  REQUIRE(pong);
  CHECK(pong->opcode == IpcOpcode::Pong);
  CHECK(pong->payload == R"({"t":12345,"x":"echo me"})");
  CHECK(h.connection->IsReady());
}

TEST_CASE("ipc connection: DISPATCH events other than READY reach onEvent") {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path());
  auto peer = h.Connect(desktop);
  peer->WriteFrame(IpcOpcode::Frame, R"({"cmd":"DISPATCH","evt":"ACTIVITY_JOIN","data":{"secret":"s3"}})");
  REQUIRE(h.WaitFor([&] { return h.Events().size() == 1; }));
  auto event = h.Events().front();
  CHECK(event.evt == "ACTIVITY_JOIN");
  CHECK(event.dataJson == R"({"secret":"s3"})");
  CHECK(h.ReadyCount() == 1);
}

TEST_CASE("ipc connection: a CLOSE from the desktop client disconnects, then it reconnects (onReady twice)") {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path());
  auto peer = h.Connect(desktop);
  auto pending = h.Send("GET_X");
  peer->ReadCommand();
  peer->WriteFrame(IpcOpcode::Close, R"({"code":4000,"message":"Invalid Client ID"})");
  CHECK(Get(pending).errorCode == IpcReply::kConnectionLost);
  CHECK(peer->WaitClosed());
  CHECK(h.WaitForLog(LoggingSeverity::Warning, "code 4000 (Invalid Client ID)"));
  REQUIRE(h.WaitFor([&] { return h.Disconnects().size() == 1; }));
  CHECK(h.Disconnects().front().find("4000") != std::string::npos);

  auto second = desktop.AcceptReady();
  REQUIRE(h.WaitFor([&] { return h.ReadyCount() == 2 && h.connection->IsReady(); }));
  auto after = h.Send("GET_Y");
  auto command = second->ReadCommand();
  second->Reply(command, R"({"ok":true})");
  CHECK(Get(after).ok);
}

namespace {

// The desktop client breaks the protocol with `bytes` (then hangs up when `hangUp`): the SDK must log an
// Error, fail the pending command with connection-lost, close, and reconnect.
void ExpectProtocolErrorThenReconnect(const std::string& bytes, bool hangUp, std::string_view logged) {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path());
  auto peer = h.Connect(desktop);
  auto pending = h.Send("GET_X", "{}", 5s);
  peer->ReadCommand();
  peer->Write(bytes);
  if (hangUp) peer->Close();

  auto reply = Get(pending);
  CHECK_FALSE(reply.ok);
  CHECK(reply.errorCode == IpcReply::kConnectionLost);
  CHECK_MESSAGE(h.WaitForLog(LoggingSeverity::Error, logged), h.AllLogs());
  if (!hangUp) CHECK(peer->WaitClosed());
  REQUIRE(h.WaitFor([&] { return h.Disconnects().size() == 1; }));

  auto second = desktop.AcceptReady();
  REQUIRE(h.WaitFor([&] { return h.ReadyCount() == 2 && h.connection->IsReady(); }));
}

}  // namespace

TEST_CASE("ipc connection: a frame over 64 KiB closes the connection, fails pending commands, reconnects") {
  ExpectProtocolErrorThenReconnect(Header(1, kMaxIpcFrameBytes + 1), false,
                                   "IPC: protocol error: frame of 65537 bytes is over the 65536-byte limit");
}

TEST_CASE("ipc connection: a frame length that lies is caught when the stream ends, then it reconnects") {
  ExpectProtocolErrorThenReconnect(Header(1, 100) + std::string(10, '{'), true,
                                   "IPC: protocol error: stream ended inside a frame");
}

TEST_CASE("ipc connection: bad JSON closes the connection, fails pending commands, reconnects") {
  ExpectProtocolErrorThenReconnect(EncodeIpcFrame(IpcOpcode::Frame, "{not json"), false,
                                   "IPC: protocol error: message is not JSON");
}

TEST_CASE("ipc connection: a HANDSHAKE from the desktop client is a protocol error, then it reconnects") {
  ExpectProtocolErrorThenReconnect(EncodeIpcFrame(IpcOpcode::Handshake, R"({"v":1,"client_id":"1"})"), false,
                                   "IPC: protocol error: the desktop client sent a HANDSHAKE");
}

TEST_CASE("ipc connection: an unknown opcode is a protocol error, then it reconnects") {
  ExpectProtocolErrorThenReconnect(Header(7, 2) + "{}", false, "IPC: protocol error: unknown opcode 7");
}

TEST_CASE("ipc connection: WhenSettled with no desktop client answers false quickly, and true once ready") {
  TempDir dir;
  // A connect timeout of a minute: an answer that waited for it could not come within the waits below, so
  // "quickly" is shown without a stopwatch.
  Harness h(dir.Path(), 60s);
  auto first = Settled(*h.connection);  // never started: starts and waits for the first attempt
  REQUIRE(first.wait_for(30s) == std::future_status::ready);
  CHECK_FALSE(first.get());
  auto again = Settled(*h.connection);  // waiting in backoff: at once
  REQUIRE(again.wait_for(30s) == std::future_status::ready);
  CHECK_FALSE(again.get());

  FakeDesktop desktop(dir.Socket(0));
  auto peer = desktop.AcceptReady();  // the next retry finds it
  REQUIRE(h.WaitFor([&] { return h.connection->IsReady(); }));
  auto ready = Settled(*h.connection);
  REQUIRE(ready.wait_for(1s) == std::future_status::ready);
  CHECK(ready.get());
}

TEST_CASE("ipc connection: no READY within the timeout closes the connection and retries") {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path(), 150ms);
  h.connection->Start();
  auto settled = Settled(*h.connection);
  auto silent = desktop.Accept();
  REQUIRE(silent);
  REQUIRE(silent->ReadFrame());  // the handshake, never answered
  REQUIRE(settled.wait_for(1s) == std::future_status::ready);
  CHECK_FALSE(settled.get());
  CHECK(silent->WaitClosed());
  CHECK(h.HasLog(LoggingSeverity::Warning, "no READY within 150 ms"));
  CHECK(h.Disconnects().empty());  // it never was ready

  auto peer = desktop.AcceptReady();
  REQUIRE(h.WaitFor([&] { return h.connection->IsReady(); }));
}

TEST_CASE("ipc connection: Shutdown with a command pending destroys its handler without calling it") {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path());
  auto peer = h.Connect(desktop);
  struct Sentinel {
    explicit Sentinel(std::atomic<bool>* flag) : destroyed(flag) {}
    ~Sentinel() { *destroyed = true; }
    std::atomic<bool>* destroyed;
  };
  std::atomic<bool> destroyed{false};
  std::atomic<bool> called{false};
  auto sentinel = std::make_shared<Sentinel>(&destroyed);
  h.connection->Send("AUTHORIZE", "{}", std::nullopt, 10s,
                     [sentinel, &called](const IpcReply&) { called = true; });
  sentinel.reset();
  peer->ReadCommand();  // it is on the wire, so pending
  CHECK_FALSE(destroyed);
  h.connection->Shutdown();
  CHECK(destroyed);
  CHECK_FALSE(called);
  CHECK_FALSE(h.connection->IsReady());
  CHECK(peer->WaitClosed());
  // After shutdown, calls are harmless and call nothing.
  h.connection->Send("X", "{}", std::nullopt, 1s, [&called](const IpcReply&) { called = true; });
  h.connection->Start();
  h.connection->Shutdown();
  CHECK_FALSE(called);
}

TEST_CASE("ipc connection: logs name commands and codes, never args or reply data") {
  TempDir dir;
  FakeDesktop desktop(dir.Socket(0));
  Harness h(dir.Path());
  auto peer = h.Connect(desktop);
  auto authenticate = h.Send("AUTHENTICATE", R"({"access_token":"tok-SECRET-a1","note":"PLAIN-SECRET-b2"})");
  auto command = peer->ReadCommand();
  CHECK(command.argsJson.find("tok-SECRET-a1") != std::string::npos);  // it did go to the desktop client
  peer->Reply(command, R"({"code":"CODE-SECRET-c3","extra":"PLAIN-SECRET-d4"})");
  CHECK(Get(authenticate).ok);
  peer->WriteFrame(IpcOpcode::Frame,
                   R"({"cmd":"DISPATCH","evt":"ACTIVITY_JOIN","data":{"secret":"PLAIN-SECRET-e5"}})");
  REQUIRE(h.WaitFor([&] { return h.Events().size() == 1; }));
  std::string logs = h.AllLogs();
  CHECK(logs.find("AUTHENTICATE") != std::string::npos);
  CHECK(logs.find("SECRET") == std::string::npos);
}

}  // namespace ipc_connection_test
