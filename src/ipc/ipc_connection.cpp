// The IPC layer's one Asio translation unit: the Unix socket (on Windows, the named pipe) to the local
// desktop client.
#include "core/asio_prelude.hpp"

#include "ipc/ipc_connection.hpp"

#include <platformpp/io_context.hpp>

#include "core/guarded_call.hpp"
#include "core/io_context_access.hpp"
#include "core/logger.hpp"
#include "core/random.hpp"
#include "ipc/ipc_frame.hpp"
#include "net/backoff.hpp"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#ifndef _WIN32
#include <boost/asio/local/stream_protocol.hpp>
#endif
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#ifdef _WIN32
#include "core/win32.hpp"
#include "ipc/ipc_pipe_owner.hpp"

#include <boost/asio/windows/stream_handle.hpp>

#include <windows.h>
#else
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>
#endif

#include <array>
#include <cstdio>
#include <deque>
#include <limits>
#include <random>
#include <unordered_map>
#include <vector>

namespace platformpp::ipc {
namespace {

namespace asio = boost::asio;
using boost::system::error_code;
using Strand = asio::strand<asio::io_context::executor_type>;
#ifdef _WIN32
using Socket = asio::windows::stream_handle;  // the client end of a named pipe, opened overlapped
#else
using Socket = asio::local::stream_protocol::socket;
#endif

constexpr auto kAwait = asio::use_awaitable;
constexpr std::size_t kReadChunk = std::size_t{16} << 10;  // 16 KiB
constexpr int kRpcUnknownError = 1000;                     // docs/ipc-protocol.md, "Error and close codes"

// One connection to one socket. Handlers of a closed session find `closed` set and do nothing more, so a new
// session starts clean whatever of the old one is still in flight.
struct Session {
  Session(Socket s, const Strand& strand, std::string p)
      : socket(std::move(s)), readyTimer(strand), path(std::move(p)) {}

  Socket socket;
  asio::steady_timer readyTimer;
  std::string path;
  IpcFrameDecoder decoder;
  std::deque<std::string> writes;  // the front one is on the wire while `writing`
  bool writing = false;
  bool ready = false;
  bool closed = false;
  std::array<char, kReadChunk> buffer{};
};

#ifndef _WIN32
// The user owning the listening end: sockets in /tmp may belong to anybody, and a command (AUTHENTICATE
// carries a token) must only reach this user's desktop client.
std::optional<uid_t> PeerUid(int fd) {
#if defined(SO_PEERCRED)
  struct ucred credentials {};
  socklen_t length = sizeof credentials;
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return std::nullopt;
  return credentials.uid;
#else
  uid_t uid = 0;
  gid_t gid = 0;
  if (::getpeereid(fd, &uid, &gid) != 0) return std::nullopt;
  return uid;
#endif
}
#endif

std::string RandomHex(core::Random& random) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(random()));
  return text;
}

int ClampCode(int64_t code) {
  if (code < std::numeric_limits<int>::min() || code > std::numeric_limits<int>::max())
    return kRpcUnknownError;
  return static_cast<int>(code);
}

IpcReply Failure(int code, std::string message) {
  IpcReply reply;
  reply.errorCode = code;
  reply.message = std::move(message);
  return reply;
}

}  // namespace

class IpcConnection::Impl : public std::enable_shared_from_this<Impl> {
 public:
  Impl(asio::io_context& io, std::shared_ptr<core::Logger> logger, IpcConnectionOptions options,
       std::shared_ptr<std::atomic<bool>> readyFlag)
      : strand_(asio::make_strand(io)),
        logger_(std::move(logger)),
        options_(std::move(options)),
        readyFlag_(std::move(readyFlag)),
        backoff_(options_.backoffInitial, options_.backoffMaximum, random_),
        backoffTimer_(strand_),
        connectTimer_(strand_),
        noncePrefix_(RandomHex(random_)) {}
  ~Impl() { stopped_.set_value(); }

  std::future<void> StoppedFuture() { return stopped_.get_future(); }

  // Set before Start; read only on the strand afterwards.
  std::function<void(const IpcReady&)> onReady_;
  std::function<void(const std::string&)> onDisconnected_;
  std::function<void(const IpcMessage&)> onEvent_;

  void Start() {
    asio::dispatch(strand_, [self = shared_from_this()] { self->StartOnStrand(); });
  }

  void WhenSettled(std::function<void(bool)> settled) {
    asio::post(strand_, [self = shared_from_this(), settled = std::move(settled)]() mutable {
      if (self->shutdown_) return;  // destroyed unrun
      switch (self->phase_) {
        case Phase::Ready:
          self->Invoke("WhenSettled", settled, true);
          return;
        case Phase::Backoff:
          self->Invoke("WhenSettled", settled, false);
          return;
        case Phase::Idle:
        case Phase::Connecting:
          self->settleWaiters_.push_back(std::move(settled));
          self->StartOnStrand();
          return;
      }
    });
  }

  void Send(std::string cmd, std::string argsJson, std::optional<std::string> evt,
            std::chrono::milliseconds timeout, ReplyHandler handler) {
    // Always posted: the handler never runs inside Send, even when the answer is known at once.
    asio::post(strand_, [self = shared_from_this(), cmd = std::move(cmd), argsJson = std::move(argsJson),
                         evt = std::move(evt), timeout, handler = std::move(handler)]() mutable {
      self->SendOnStrand(std::move(cmd), argsJson, evt, timeout, std::move(handler));
    });
  }

  void Shutdown() {
    asio::dispatch(strand_, [self = shared_from_this()] {
      self->shutdown_ = true;
      self->readyFlag_->store(false);
      self->backoffTimer_.cancel();
      self->connectTimer_.cancel();
      error_code ignored;
      if (self->connecting_) self->connecting_->close(ignored);
      if (auto session = std::move(self->session_)) {
        session->closed = true;
        session->socket.close(ignored);
        session->readyTimer.cancel();
      }
      for (auto& [nonce, pending] : self->pending_)
        pending.timer->cancel();
      // Destroyed, not called: whoever owns a Completion in them learns of the shutdown that way.
      self->pending_.clear();
      self->settleWaiters_.clear();
      self->onReady_ = nullptr;
      self->onDisconnected_ = nullptr;
      self->onEvent_ = nullptr;
    });
  }

 private:
  enum class Phase { Idle, Connecting, Ready, Backoff };

  struct Pending {
    std::string cmd;
    ReplyHandler handler;
    std::shared_ptr<asio::steady_timer> timer;
    std::chrono::milliseconds timeout;
  };

  void StartOnStrand() {
    if (started_ || shutdown_) return;
    started_ = true;
    phase_ = Phase::Connecting;
    asio::co_spawn(
        strand_, [self = shared_from_this()]() -> asio::awaitable<void> { co_await self->Run(); },
        [self = shared_from_this()](const std::exception_ptr& error) {
          if (!error) return;
          try {
            std::rethrow_exception(error);
          } catch (const std::exception& e) {
            self->logger_->Error(std::string("IPC: the connection loop failed with an exception: ") +
                                 e.what());
          } catch (...) {
            self->logger_->Error("IPC: the connection loop failed with an unknown exception");
          }
        });
  }

  // Connect, handshake, serve the connection until it ends, back off, again; until shutdown.
  asio::awaitable<void> Run() {
    while (!shutdown_) {
      phase_ = Phase::Connecting;
      std::shared_ptr<Session> session = co_await ConnectAny();
      if (session) co_await RunSession(session);
      if (shutdown_) co_return;
      phase_ = Phase::Backoff;
      Settle(false);
      auto delay = backoff_.Next();
      logger_->Verbose("IPC: next connection attempt in " + std::to_string(delay.count()) + " ms");
      backoffTimer_.expires_after(delay);
      error_code ec;
      co_await backoffTimer_.async_wait(asio::redirect_error(kAwait, ec));
    }
  }

#ifdef _WIN32
  // The first pipe that exists and is served by this user (or by options_.trustedPipeUserSid's). A pipe
  // whose every instance is busy is asked again every 20 ms until connectTimeout; WaitNamedPipeW would do
  // that wait blocking the network thread.
  asio::awaitable<std::shared_ptr<Session>> ConnectAny() {
    std::optional<core::win32::Sid> trusted = options_.trustedPipeUserSid.empty()
                                                  ? core::win32::CurrentUserSid()
                                                  : core::win32::SidFromString(options_.trustedPipeUserSid);
    if (!trusted) {
      logger_->Error("IPC: cannot read this process's user, so no pipe can be trusted");
      co_return nullptr;
    }
    for (const std::string& path : IpcCandidatePaths(options_.name, options_.directory, options_.env)) {
      if (shutdown_) co_return nullptr;
      const std::wstring wide = core::win32::Widen(path);
      const auto deadline = std::chrono::steady_clock::now() + options_.connectTimeout;
      HANDLE pipe = INVALID_HANDLE_VALUE;
      DWORD failure = ERROR_SUCCESS;
      for (;;) {
        // SECURITY_IDENTIFICATION: the server may learn who we are, never act as us.
        pipe = ::CreateFileW(wide.c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                             FILE_FLAG_OVERLAPPED | SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION, nullptr);
        if (pipe != INVALID_HANDLE_VALUE) break;
        failure = ::GetLastError();
        const auto left = deadline - std::chrono::steady_clock::now();
        if (failure != ERROR_PIPE_BUSY || left <= std::chrono::steady_clock::duration::zero()) break;
        connectTimer_.expires_after(
            std::min<std::chrono::steady_clock::duration>(left, std::chrono::milliseconds(20)));
        error_code ec;
        co_await connectTimer_.async_wait(asio::redirect_error(kAwait, ec));
        if (shutdown_) co_return nullptr;
      }
      if (pipe == INVALID_HANDLE_VALUE) {
        if (failure == ERROR_PIPE_BUSY) {
          logger_->Warning("IPC: " + path + " did not accept within " +
                           std::to_string(options_.connectTimeout.count()) + " ms");
        } else if (failure != ERROR_FILE_NOT_FOUND) {
          logger_->Verbose("IPC: cannot connect to " + path + ": " + core::win32::ErrorText(failure));
        }
        continue;
      }
      if (std::optional<std::string> why = PipeOwnerMismatch(PipeServerUser(pipe), *trusted)) {
        logger_->Warning("IPC: " + path + " is " + *why + ", not by this user; skipped");
        ::CloseHandle(pipe);
        continue;
      }
      Socket socket(strand_);
      error_code ec;
      socket.assign(pipe, ec);
      if (ec) {
        logger_->Warning("IPC: cannot use " + path + ": " + ec.message());
        ::CloseHandle(pipe);
        continue;
      }
      logger_->Info("IPC: connected to " + path);
      co_return std::make_shared<Session>(std::move(socket), strand_, path);
    }
    logger_->Verbose("IPC: no desktop client is listening on \\\\?\\pipe\\" + options_.name + "-ipc-0..9");
    co_return nullptr;
  }
#else
  // The first candidate path that accepts and belongs to this user.
  asio::awaitable<std::shared_ptr<Session>> ConnectAny() {
    std::vector<std::string> paths = IpcCandidatePaths(options_.name, options_.directory, options_.env);
    for (const std::string& path : paths) {
      if (shutdown_) co_return nullptr;
      if (path.size() >= sizeof(sockaddr_un::sun_path)) {
        logger_->Verbose("IPC: " + path + " is too long for a Unix socket path; skipped");
        continue;
      }
      connecting_ = std::make_shared<Socket>(strand_);
      const uint64_t attempt = ++connectAttempt_;
      bool timedOut = false;
      connectTimer_.expires_after(options_.connectTimeout);
      connectTimer_.async_wait([self = shared_from_this(), attempt, &timedOut](error_code ec) {
        if (ec || attempt != self->connectAttempt_ || !self->connecting_) return;
        timedOut = true;
        error_code ignored;
        self->connecting_->close(ignored);
      });
      error_code ec;
      co_await connecting_->async_connect(asio::local::stream_protocol::endpoint(path),
                                          asio::redirect_error(kAwait, ec));
      ++connectAttempt_;  // a timer handler already queued must not touch the next attempt's socket
      connectTimer_.cancel();
      std::shared_ptr<Socket> socket = std::move(connecting_);
      if (shutdown_) co_return nullptr;
      if (ec) {
        if (timedOut) {
          logger_->Warning("IPC: " + path + " did not accept within " +
                           std::to_string(options_.connectTimeout.count()) + " ms");
        } else if (ec != asio::error::connection_refused &&
                   ec != error_code(ENOENT, boost::system::system_category())) {
          logger_->Verbose("IPC: cannot connect to " + path + ": " + ec.message());
        }
        continue;
      }
      std::optional<uid_t> owner = PeerUid(socket->native_handle());
      if (!owner || *owner != ::geteuid()) {
        logger_->Warning("IPC: " + path + " is served by " +
                         (owner ? "user " + std::to_string(*owner) : std::string("an unknown user")) +
                         ", not by this user; skipped");
        error_code ignored;
        socket->close(ignored);
        continue;
      }
      logger_->Info("IPC: connected to " + path);
      co_return std::make_shared<Session>(std::move(*socket), strand_, path);
    }
    logger_->Verbose("IPC: no desktop client is listening in " +
                     IpcRuntimeDirectory(options_.directory, options_.env));
    co_return nullptr;
  }
#endif

  // Handshake, then read until the session closes (for whatever reason, by either side).
  asio::awaitable<void> RunSession(std::shared_ptr<Session> session) {
    session_ = session;
    Write(session, EncodeIpcFrame(IpcOpcode::Handshake, BuildIpcHandshake(options_.clientId)));
    session->readyTimer.expires_after(options_.connectTimeout);
    session->readyTimer.async_wait([self = shared_from_this(), session](error_code ec) {
      if (ec || session->ready || session->closed) return;
      self->CloseSession(session, LoggingSeverity::Warning,
                         "no READY within " + std::to_string(self->options_.connectTimeout.count()) +
                             " ms of the handshake");
    });
    while (!session->closed) {
      error_code ec;
      std::size_t n = co_await session->socket.async_read_some(asio::buffer(session->buffer),
                                                               asio::redirect_error(kAwait, ec));
      if (session->closed) break;
      if (ec) {
        // The end of the stream is where a frame length that promised more than was sent shows.
        if (!session->decoder.Finish()) {
          CloseSession(session, LoggingSeverity::Error, "protocol error: " + session->decoder.Error());
        } else if (ec == asio::error::eof || ec == asio::error::broken_pipe) {
          CloseSession(session, LoggingSeverity::Warning, "the desktop client closed the connection");
        } else {
          CloseSession(session, LoggingSeverity::Warning, "read failed: " + ec.message());
        }
        break;
      }
      session->decoder.Feed(std::string_view(session->buffer.data(), n));
      while (!session->closed) {
        std::optional<IpcFrame> frame = session->decoder.Next();
        if (!frame) break;
        HandleFrame(session, *frame);
      }
      if (!session->closed && session->decoder.Failed()) {
        CloseSession(session, LoggingSeverity::Error, "protocol error: " + session->decoder.Error());
      }
    }
  }

  void HandleFrame(const std::shared_ptr<Session>& session, const IpcFrame& frame) {
    switch (frame.opcode) {
      case IpcOpcode::Handshake:
        CloseSession(session, LoggingSeverity::Error, "protocol error: the desktop client sent a HANDSHAKE");
        return;
      case IpcOpcode::Ping:
        Write(session, EncodeIpcFrame(IpcOpcode::Pong, frame.payload));
        return;
      case IpcOpcode::Pong:
        return;
      case IpcOpcode::Close: {
        std::string error;
        std::optional<IpcErrorInfo> close = ParseIpcClose(frame.payload, &error);
        std::string reason = "the desktop client closed the connection";
        if (close) {
          reason += ": code " + std::to_string(close->code);
          if (!close->message.empty()) reason += " (" + close->message + ")";
        } else {
          reason += " (" + error + ")";
        }
        CloseSession(session, LoggingSeverity::Warning, reason);
        return;
      }
      case IpcOpcode::Frame:
        HandleMessage(session, frame.payload);
        return;
    }
  }

  void HandleMessage(const std::shared_ptr<Session>& session, std::string_view payload) {
    std::string error;
    std::optional<IpcMessage> message = ParseIpcMessage(payload, &error);
    if (!message) {
      CloseSession(session, LoggingSeverity::Error, "protocol error: " + error);
      return;
    }
    if (message->IsDispatch()) {
      const std::string evt = message->evt.value_or("");
      if (evt == "READY") return HandleReady(session, *message);
      if (!session->ready) {
        logger_->Verbose("IPC: " + evt + " dispatched before READY; ignored");
        return;
      }
      logger_->Verbose("IPC <- DISPATCH " + evt);
      Invoke("event", onEvent_, *message);
      return;
    }
    if (!message->nonce) {
      logger_->Verbose("IPC: " + message->cmd + " without a nonce; ignored");
      return;
    }
    auto it = pending_.find(*message->nonce);
    if (it == pending_.end()) {
      logger_->Warning("IPC: a " + message->cmd + " reply matches no pending command; ignored");
      return;
    }
    Pending pending = std::move(it->second);
    pending_.erase(it);
    pending.timer->cancel();
    IpcReply reply;
    if (message->IsError()) {
      std::optional<IpcErrorInfo> info = ParseIpcError(message->dataJson);
      reply = Failure(info ? ClampCode(info->code) : kRpcUnknownError,
                      info ? info->message : std::string("malformed ERROR reply"));
      // The code only: messages may quote what was sent.
      logger_->Info("IPC <- " + pending.cmd + " failed with RPC error " + std::to_string(reply.errorCode));
    } else {
      reply.ok = true;
      reply.dataJson = std::move(message->dataJson);
      logger_->Verbose("IPC <- " + pending.cmd + " succeeded");
    }
    Invoke(pending.cmd.c_str(), pending.handler, std::move(reply));
  }

  void HandleReady(const std::shared_ptr<Session>& session, const IpcMessage& message) {
    if (session->ready) {
      logger_->Verbose("IPC: a second READY on one connection; ignored");
      return;
    }
    std::string error;
    std::optional<IpcReady> ready = ParseIpcReady(message.dataJson, &error);
    if (!ready) {
      CloseSession(session, LoggingSeverity::Error, "protocol error: " + error);
      return;
    }
    session->ready = true;
    session->readyTimer.cancel();
    phase_ = Phase::Ready;
    readyFlag_->store(true);
    backoff_.Reset();
    logger_->Info("IPC: ready");
    Invoke("ready", onReady_, *ready);
    Settle(true);
  }

  void SendOnStrand(std::string cmd, const std::string& argsJson, const std::optional<std::string>& evt,
                    std::chrono::milliseconds timeout, ReplyHandler handler) {
    if (shutdown_) return;  // destroyed unrun
    if (!session_ || !session_->ready) {
      Invoke(cmd.c_str(), handler, Failure(IpcReply::kNotConnected, "not connected to the desktop client"));
      return;
    }
    std::string nonce = noncePrefix_ + "-" + std::to_string(++nonceCounter_);
    std::string error;
    std::optional<std::string> payload = BuildIpcCommand(
        cmd, argsJson, nonce, evt ? std::optional<std::string_view>(*evt) : std::nullopt, &error);
    if (!payload || payload->size() > kMaxIpcFrameBytes) {
      if (payload) error = "the command is over the 64 KiB frame limit";
      logger_->Warning("IPC: " + cmd + " not sent: " + error);
      Invoke(cmd.c_str(), handler, Failure(IpcReply::kInvalidRequest, error));
      return;
    }
    auto timer = std::make_shared<asio::steady_timer>(strand_, timeout);
    timer->async_wait([self = shared_from_this(), nonce](error_code ec) {
      if (!ec) self->TimedOut(nonce);
    });
    logger_->Verbose("IPC -> " + cmd + (evt ? " " + *evt : std::string()) + " (nonce " + nonce + ")");
    pending_.emplace(nonce, Pending{std::move(cmd), std::move(handler), std::move(timer), timeout});
    Write(session_, EncodeIpcFrame(IpcOpcode::Frame, *payload));
  }

  void TimedOut(const std::string& nonce) {
    auto it = pending_.find(nonce);
    if (it == pending_.end()) return;  // answered (or failed) just before
    Pending pending = std::move(it->second);
    pending_.erase(it);
    std::string message = "no reply within " + std::to_string(pending.timeout.count()) + " ms";
    logger_->Warning("IPC: " + pending.cmd + ": " + message);
    Invoke(pending.cmd.c_str(), pending.handler, Failure(IpcReply::kTimeout, std::move(message)));
  }

  // One async_write at a time per session; frames go out in the order they were queued.
  void Write(const std::shared_ptr<Session>& session, std::string frame) {
    if (session->closed) return;
    session->writes.push_back(std::move(frame));
    if (!session->writing) WriteNext(session);
  }

  void WriteNext(const std::shared_ptr<Session>& session) {
    session->writing = true;
    asio::async_write(
        session->socket, asio::buffer(session->writes.front()),
        asio::bind_executor(strand_, [self = shared_from_this(), session](error_code ec, std::size_t) {
          session->writing = false;
          if (session->closed) return;
          if (ec) {
            self->CloseSession(session, LoggingSeverity::Warning, "write failed: " + ec.message());
            return;
          }
          session->writes.pop_front();
          if (!session->writes.empty()) self->WriteNext(session);
        }));
  }

  // Ends a session once: logs why, fails its pending commands, and tells the owner if it was READY. Run then
  // backs off and reconnects.
  void CloseSession(const std::shared_ptr<Session>& session, LoggingSeverity severity,
                    const std::string& reason) {
    if (session->closed) return;
    session->closed = true;
    logger_->Log(severity, "IPC: " + reason);
    error_code ignored;
#ifndef _WIN32
    session->socket.shutdown(Socket::shutdown_both, ignored);
#endif
    session->socket.close(ignored);
    session->readyTimer.cancel();
    if (session_ == session) session_.reset();
    if (!session->ready) return;
    phase_ = Phase::Connecting;
    readyFlag_->store(false);
    auto pending = std::move(pending_);
    pending_.clear();
    for (auto& [nonce, entry] : pending) {
      entry.timer->cancel();
      Invoke(entry.cmd.c_str(), entry.handler,
             Failure(IpcReply::kConnectionLost, "the connection to the desktop client was lost: " + reason));
    }
    Invoke("disconnect", onDisconnected_, reason);
  }

  void Settle(bool ready) {
    auto waiters = std::move(settleWaiters_);
    settleWaiters_.clear();
    for (auto& waiter : waiters)
      Invoke("WhenSettled", waiter, ready);
  }

  template <class F, class... Args>
  void Invoke(const char* what, F& f, Args&&... args) {
    core::GuardedCall(*logger_, "IPC", what, f, std::forward<Args>(args)...);
  }

  std::promise<void> stopped_;
  Strand strand_;
  std::shared_ptr<core::Logger> logger_;
  IpcConnectionOptions options_;
  std::shared_ptr<std::atomic<bool>> readyFlag_;
  core::Random random_ = core::Random::Seeded();
  net::Backoff backoff_;
  asio::steady_timer backoffTimer_;
  asio::steady_timer connectTimer_;
  std::shared_ptr<Socket> connecting_;
  uint64_t connectAttempt_ = 0;
  std::shared_ptr<Session> session_;
  std::unordered_map<std::string, Pending> pending_;
  std::vector<std::function<void(bool)>> settleWaiters_;
  std::string noncePrefix_;
  uint64_t nonceCounter_ = 0;
  Phase phase_ = Phase::Idle;
  bool started_ = false;
  bool shutdown_ = false;
};

IpcConnection::IpcConnection(IoContext& context, std::shared_ptr<core::Logger> logger,
                             IpcConnectionOptions options)
    : context_(context),
      ready_(std::make_shared<std::atomic<bool>>(false)),
      impl_(std::make_shared<Impl>(core::IoContextAccess::Get(context), std::move(logger), std::move(options),
                                   ready_)),
      stopped_(impl_->StoppedFuture()) {}

IpcConnection::~IpcConnection() {
  Shutdown();
}

void IpcConnection::SetOnReady(std::function<void(const IpcReady&)> onReady) {
  if (impl_) impl_->onReady_ = std::move(onReady);
}

void IpcConnection::SetOnDisconnected(std::function<void(const std::string&)> onDisconnected) {
  if (impl_) impl_->onDisconnected_ = std::move(onDisconnected);
}

void IpcConnection::SetOnEvent(std::function<void(const IpcMessage&)> onEvent) {
  if (impl_) impl_->onEvent_ = std::move(onEvent);
}

void IpcConnection::Start() {
  if (impl_) impl_->Start();
}

bool IpcConnection::IsReady() const noexcept {
  return ready_->load();
}

void IpcConnection::WhenSettled(std::function<void(bool)> settled) {
  if (!impl_) return;  // shut down: destroyed here
  impl_->WhenSettled(std::move(settled));
}

void IpcConnection::Send(std::string cmd, std::string argsJson, std::optional<std::string> evt,
                         std::chrono::milliseconds timeout, ReplyHandler handler) {
  if (!impl_) return;  // shut down: the handler is destroyed here
  impl_->Send(std::move(cmd), std::move(argsJson), std::move(evt), timeout, std::move(handler));
}

void IpcConnection::Shutdown() {
  if (!impl_) return;
  impl_->Shutdown();
  impl_.reset();
  core::IoContextAccess::WaitFor(context_, stopped_);
}

}  // namespace platformpp::ipc
