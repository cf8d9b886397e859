// The desktop-client stand-in's Unix socket (see ipc_server.hpp): the listener and its connections. Asio's
// local-socket templates only; no Beast.
#include "server/asio_prelude.hpp"

#include "server/ipc_server.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "server/connection_file.hpp"

namespace platformpp::emulator {

namespace {

namespace net = boost::asio;
using local = net::local::stream_protocol;

void close_ipc_stream(local::socket& socket, boost::system::error_code& ec) {
  socket.shutdown(local::socket::shutdown_both, ec);
  socket.close(ec);
}

}  // namespace

}  // namespace platformpp::emulator

#include "server/ipc_session.hpp"  // after close_ipc_stream(), which it calls

namespace platformpp::emulator {

namespace {

using IpcSession = ipc_detail::IpcSession<local::socket>;

enum class PathState { free, in_use, stale, not_a_socket, unusable };

// What is at `path`: nothing, a socket something accepts on (a full backlog counts as in use), a stale
// socket that refuses connections, or something else.
PathState probe_socket_path(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return errno == ENOENT ? PathState::free : PathState::unusable;
  if (!S_ISSOCK(info.st_mode)) return PathState::not_a_socket;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof(address.sun_path)) return PathState::unusable;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return PathState::unusable;
  const int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address));
  const int error = errno;
  ::close(fd);
  if (rc == 0 || error == EAGAIN || error == EINPROGRESS) return PathState::in_use;
  if (error == ECONNREFUSED) return PathState::stale;
  if (error == ENOENT) return PathState::free;
  return PathState::in_use;  // e.g. another user's socket (EACCES): not ours to replace
}

}  // namespace

// The listening Unix socket, created 0600. stop() unlinks it (the desktop client quit); restore() binds the
// same path again.
class IpcServer::Listener final {
 public:
  Listener(net::io_context& io, std::size_t send_queue_limit, std::size_t max_connections)
      : acceptor_(io),
        retry_timer_(io),
        send_queue_limit_(send_queue_limit),
        places_(max_connections, "IPC") {}
  ~Listener() { stop(); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // Binds the first free <dir>/<prefix>-ipc-<n>, n = 0..9. Throws std::runtime_error when none is.
  void bind_first_free(const IpcSettings& settings) {
    std::string reasons;
    for (int n = 0; n < 10; ++n) {
      auto candidate = ipc_socket_path(settings.directory, settings.prefix, n);
      const auto error = bind(candidate);
      if (!error) {
        path_ = std::move(candidate);
        return;
      }
      if (n == 0 || reasons.size() < 300)
        reasons += (reasons.empty() ? "" : "; ") + candidate + ": " + *error;
    }
    throw std::runtime_error("cannot listen on an IPC socket in " + settings.directory + " (" + reasons +
                             ")");
  }

  void serve(EmulatorService& service, TurnGate& gate) {
    service_ = &service;
    gate_ = &gate;
    accept();
  }

  [[nodiscard]] bool listening() const { return acceptor_.is_open(); }
  [[nodiscard]] const std::string& path() const { return path_; }

  void stop() {
    if (!acceptor_.is_open()) return;
    boost::system::error_code ec;
    acceptor_.close(ec);
    retry_timer_.cancel();
    ++generation_;
    // Only our own socket file: another process may have bound the path since.
    struct stat info {};
    if (::lstat(path_.c_str(), &info) == 0 && info.st_ino == inode_ && info.st_dev == device_) {
      ::unlink(path_.c_str());
    }
  }

  std::optional<std::string> restore() {
    if (acceptor_.is_open()) return std::nullopt;
    if (auto error = bind(path_)) return "cannot listen on " + path_ + ": " + *error;
    accept();
    return std::nullopt;
  }

 private:
  std::optional<std::string> bind(const std::string& path) {
    switch (probe_socket_path(path)) {
      case PathState::in_use:
        return "in use";
      case PathState::not_a_socket:
        return "exists and is not a socket";
      case PathState::unusable:
        return "not usable";
      case PathState::stale:
        ::unlink(path.c_str());  // a previous run's leftover that refuses connections
        break;
      case PathState::free:
        break;
    }
    local::endpoint endpoint;
    try {
      endpoint = local::endpoint(path);
    } catch (const boost::system::system_error& e) {
      return e.code().message();  // longer than sun_path
    }
    boost::system::error_code ec;
    acceptor_.open(local(), ec);
    if (ec) return ec.message();
    // Born 0600 (the umask covers the window before chmod): only this user may connect.
    const mode_t old_mask = ::umask(0177);
    acceptor_.bind(endpoint, ec);
    ::umask(old_mask);
    bool bound = !ec;
    if (bound && ::chmod(path.c_str(), 0600) != 0) ec.assign(errno, boost::system::system_category());
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    struct stat info {};
    if (!ec && ::lstat(path.c_str(), &info) != 0) ec.assign(errno, boost::system::system_category());
    if (ec) {
      boost::system::error_code ignored;
      acceptor_.close(ignored);
      if (bound) ::unlink(path.c_str());
      return ec.message();
    }
    inode_ = info.st_ino;
    device_ = info.st_dev;
    ++generation_;
    return std::nullopt;
  }

  void accept() {
    acceptor_.async_accept(
        [this, generation = generation_](boost::system::error_code ec, local::socket socket) {
          // Stopped (and perhaps restored, with a new accept loop) since: this loop ends here.
          if (generation != generation_ || !acceptor_.is_open()) return;
          if (ec) {
            // E.g. out of file descriptors: back off briefly instead of spinning.
            retry_timer_.expires_after(std::chrono::milliseconds(100));
            retry_timer_.async_wait([this, generation](boost::system::error_code wait_ec) {
              if (!wait_ec && generation == generation_) accept();
            });
            return;
          }
          if (auto place = places_.take()) {
            std::make_shared<IpcSession>(*service_, *gate_, std::move(socket), send_queue_limit_,
                                         std::move(place))
                ->start();
          }  // else the socket closes here
          accept();
        });
  }

  local::acceptor acceptor_;
  net::steady_timer retry_timer_;
  EmulatorService* service_ = nullptr;
  TurnGate* gate_ = nullptr;
  std::size_t send_queue_limit_;
  ConnectionPlaces places_;
  std::string path_;
  ino_t inode_ = 0;
  dev_t device_ = 0;
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
