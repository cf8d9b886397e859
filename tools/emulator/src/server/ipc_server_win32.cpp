// The desktop-client stand-in's named pipe on Windows (see ipc_server.hpp; ipc_server.cpp is the Unix
// socket): the first free "\\?\pipe\<prefix>-ipc-<n>", n = 0..9, whose instances only the current user may
// open, and its connections, with the same framing as on POSIX (server/ipc_session.hpp). Asio's Windows
// stream handles (I/O completion ports) only; no Beast.
#include "server/asio_prelude.hpp"

#include "server/ipc_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/windows/overlapped_ptr.hpp>
#include <boost/asio/windows/stream_handle.hpp>
#include <chrono>
#include <optional>
#include <stdexcept>

#include "core/win32_security.hpp"
#include "server/connection_file.hpp"

namespace platformpp::emulator {

namespace {

namespace net = boost::asio;
using PipeStream = net::windows::stream_handle;

// A pipe has no half-close: closing the handle lets the client read what was written, then see the end.
void close_ipc_stream(PipeStream& pipe, boost::system::error_code& ec) {
  pipe.close(ec);
}

}  // namespace

}  // namespace platformpp::emulator

#include "server/ipc_session.hpp"  // after close_ipc_stream(), which it calls

namespace platformpp::emulator {

namespace {

using IpcSession = ipc_detail::IpcSession<PipeStream>;

constexpr DWORD kPipeBufferSize = 64 * 1024;

}  // namespace

// The pipe's listening side: one instance at a time waits in ConnectNamedPipe; a connected instance becomes a
// session and a new one takes its place, so the name exists as long as we listen. stop() closes the waiting
// instance (connected sessions keep theirs, as accepted Unix sockets outlive an unlinked path); restore()
// creates one again.
class IpcServer::Listener final {
 public:
  Listener(net::io_context& io, std::size_t send_queue_limit, std::size_t max_connections)
      : io_(io), retry_timer_(io), send_queue_limit_(send_queue_limit), places_(max_connections, "IPC") {}
  ~Listener() { stop(); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // Creates the first free \\?\pipe\<prefix>-ipc-<n>, n = 0..9. Throws std::runtime_error when none is.
  void bind_first_free(const IpcSettings& settings) {
    std::string reasons;
    for (int n = 0; n < 10; ++n) {
      auto candidate = ipc_socket_path(settings.directory, settings.prefix, n);
      const auto error = create_instance(candidate, true);
      if (!error) {
        path_ = std::move(candidate);
        open_ = true;
        return;
      }
      if (n == 0 || reasons.size() < 300)
        reasons += (reasons.empty() ? "" : "; ") + candidate + ": " + *error;
    }
    throw std::runtime_error("cannot listen on an IPC named pipe (" + reasons + ")");
  }

  void serve(EmulatorService& service, TurnGate& gate) {
    service_ = &service;
    gate_ = &gate;
    accept();
  }

  [[nodiscard]] bool listening() const { return open_; }
  [[nodiscard]] const std::string& path() const { return path_; }

  void stop() {
    if (!open_) return;
    open_ = false;
    if (waiting_) {
      boost::system::error_code ec;
      waiting_->close(ec);  // its pending ConnectNamedPipe completes, aborted, into a stale generation
      waiting_.reset();
    }
    retry_timer_.cancel();
    ++generation_;
  }

  std::optional<std::string> restore() {
    if (open_) return std::nullopt;
    // The name is free again unless our connected sessions still hold instances of it; then a further
    // instance of our own pipe (whose security lets only this user add one) is what a client will find.
    auto error = create_instance(path_, true);
    if (error && ::GetLastError() == ERROR_ACCESS_DENIED) error = create_instance(path_, false);
    if (error) return "cannot listen on " + path_ + ": " + *error;
    open_ = true;
    ++generation_;
    accept();
    return std::nullopt;
  }

 private:
  // A new waiting instance. The first one of a name must be ours from the start
  // (FILE_FLAG_FIRST_PIPE_INSTANCE fails when the name exists, whoever created it); remote clients are
  // refused; only the current user may open it (the DACL).
  std::optional<std::string> create_instance(const std::string& name, bool first) {
    // Wine ignores FILE_FLAG_FIRST_PIPE_INSTANCE (it would add an instance to another server's pipe, whose
    // clients would then reach either server): a name that answers, or is busy or refused, is in use. The
    // flag still closes the race on Windows.
    if (first && name_in_use(name)) {
      ::SetLastError(ERROR_ACCESS_DENIED);
      return std::string("in use");
    }
    const DWORD open_mode = PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED |
                            (first ? static_cast<DWORD>(FILE_FLAG_FIRST_PIPE_INSTANCE) : 0U);
    HANDLE pipe = ::CreateNamedPipeW(
        widen(name).c_str(), open_mode,
        PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS,
        PIPE_UNLIMITED_INSTANCES, kPipeBufferSize, kPipeBufferSize, 0, security_.attributes());
    if (pipe == INVALID_HANDLE_VALUE) {
      const DWORD code = ::GetLastError();
      std::string reason = code == ERROR_ACCESS_DENIED ? std::string("in use") : win32_error_message(code);
      ::SetLastError(code);
      return reason;
    }
    boost::system::error_code ec;
    waiting_.emplace(io_);
    waiting_->assign(pipe, ec);  // onto the io_context's completion port
    if (ec) {
      ::CloseHandle(pipe);
      waiting_.reset();
      return ec.message();
    }
    return std::nullopt;
  }

  // Whether a pipe of that name exists: connecting (and leaving at once, as the Unix socket's probe does)
  // finds out; only "not found" means free.
  static bool name_in_use(const std::string& name) {
    HANDLE probe = ::CreateFileW(widen(name).c_str(), GENERIC_READ, 0, nullptr, OPEN_EXISTING, 0, nullptr);
    if (probe != INVALID_HANDLE_VALUE) {
      ::CloseHandle(probe);
      return true;
    }
    return ::GetLastError() != ERROR_FILE_NOT_FOUND;
  }

  void accept() {
    if (!waiting_) return;
    net::windows::overlapped_ptr overlapped(
        io_, [this, generation = generation_](boost::system::error_code ec, std::size_t) {
          connected(generation, ec);
        });
    const BOOL done = ::ConnectNamedPipe(waiting_->native_handle(), overlapped.get());
    const DWORD code = ::GetLastError();
    if (done == 0 && code == ERROR_PIPE_CONNECTED) {
      overlapped.complete(boost::system::error_code(), 0);  // connected before we asked: no completion packet
    } else if (done == 0 && code != ERROR_IO_PENDING) {
      overlapped.complete(boost::system::error_code(static_cast<int>(code), boost::system::system_category()),
                          0);
    } else {
      overlapped.release();  // the completion port reports it
    }
  }

  void connected(std::uint64_t generation, boost::system::error_code ec) {
    // Stopped (and perhaps restored, with a new instance and wait) since: this wait ends here.
    if (generation != generation_ || !waiting_) return;
    if (ec) {
      // E.g. a client that connected and left at once: drop the instance and make another.
      boost::system::error_code ignored;
      waiting_->close(ignored);
      waiting_.reset();
      return renew(generation);
    }
    PipeStream pipe = std::move(*waiting_);
    waiting_.reset();
    renew(generation);  // the next instance first, so the name never lapses while a client is served
    if (auto place = places_.take()) {
      std::make_shared<IpcSession>(*service_, *gate_, std::move(pipe), send_queue_limit_, std::move(place))
          ->start();
    }  // else the pipe closes here
  }

  // A new waiting instance and its wait; on failure (e.g. out of handles) again after a short pause rather
  // than spinning.
  void renew(std::uint64_t generation) {
    if (generation != generation_) return;
    if (!create_instance(path_, false)) return accept();
    retry_timer_.expires_after(std::chrono::milliseconds(100));
    retry_timer_.async_wait([this, generation](boost::system::error_code wait_ec) {
      if (!wait_ec) renew(generation);
    });
  }

  net::io_context& io_;
  net::steady_timer retry_timer_;
  UserOnlySecurity security_;
  std::optional<PipeStream> waiting_;  // the instance waiting for a client
  EmulatorService* service_ = nullptr;
  TurnGate* gate_ = nullptr;
  std::size_t send_queue_limit_;
  ConnectionPlaces places_;
  std::string path_;
  bool open_ = false;  // between a successful bind (or restore) and stop()
  std::uint64_t generation_ = 0;
};

IpcServer::IpcServer(boost::asio::io_context& io, const IpcSettings& settings)
    : listener_(std::make_unique<Listener>(io, settings.send_queue_limit, settings.max_connections)) {
  listener_->bind_first_free(settings);
}

IpcServer::~IpcServer() = default;

void IpcServer::serve(EmulatorService& service, TurnGate& gate) {
  listener_->serve(service, gate);
}

bool IpcServer::listening() const {
  return listener_->listening();
}

const std::string& IpcServer::path() const {
  return listener_->path();
}

void IpcServer::stop() {
  listener_->stop();
}

std::optional<std::string> IpcServer::restore() {
  return listener_->restore();
}

}  // namespace platformpp::emulator
