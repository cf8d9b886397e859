// run_server: runs the service with the IPC listener (ipc_server.cpp), the forwarding unit's UDP socket
// (voice/voice_udp_server.cpp) and the webhook events client (webhook_client.cpp) on one io_context, and the
// TCP connections on the I/O threads (server/io_threads.hpp), which hand all service work to it. The
// connections are Beast's, one file per kind as in Beast's examples: listener.hpp accepts, http_session.hpp
// serves HTTP(S) and upgrades to websocket_session.hpp, whose endpoints (websocket_endpoints.hpp) are the
// Gateway, the voice gateway and the console. This is the only translation unit that instantiates Beast's
// server templates (they are slow to compile); the webhook client instantiates its client side, the other two
// Asio's for their sockets alone.
#include "server/asio_prelude.hpp"

#include "server/server.hpp"

#include <openssl/ssl.h>

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#ifdef _WIN32
#include <windows.h>

#include <boost/asio/windows/object_handle.hpp>
#include <mutex>

#include "server/stop_event.hpp"
#else
#include <boost/asio/signal_set.hpp>
#include <csignal>
#endif

#include "server/io_threads.hpp"
#include "server/listener.hpp"
#include "server/turn_gate.hpp"
#include "server/webhook_client.hpp"
#include "voice/voice_udp_server.hpp"

namespace platformpp::emulator {

namespace {

namespace net = server_detail::net;
namespace beast = server_detail::beast;
namespace ssl = server_detail::ssl;
using server_detail::Listener;
using server_detail::tcp;

// Webhook events leave through the gate too: a game server told of an entitlement must find it after a
// restart.
class GatedWebhookTransport final : public WebhookTransport {
 public:
  GatedWebhookTransport(WebhookTransport& inner, TurnGate& gate) : inner_(inner), gate_(gate) {}
  void post(WebhookPost post, std::function<void(WebhookPostResult)> done) override {
    gate_.send([this, post = std::move(post), done = std::move(done)]() mutable {
      inner_.post(std::move(post), std::move(done));
    });
  }

 private:
  WebhookTransport& inner_;
  TurnGate& gate_;
};

void configure_tls(ssl::context& context, const GeneratedCertificates& certificates) {
  context.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                      ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  SSL_CTX_set_min_proto_version(context.native_handle(), TLS1_2_VERSION);
  const std::string chain = certificates.server_certificate_pem + certificates.ca_certificate_pem;
  context.use_certificate_chain(net::buffer(chain));
  context.use_private_key(net::buffer(certificates.server_private_key_pem), ssl::context::pem);
}

#ifdef _WIN32
// Windows has no SIGTERM: console control events (Ctrl+C, Ctrl+Break, the console closing, logoff, shutdown)
// stop the emulator as SIGINT and SIGTERM do on POSIX. Windows calls the handler on a thread of its own; it
// posts the stop to the io_context.
class ConsoleStop {
 public:
  ConsoleStop(net::io_context& io, std::function<void()> stop) : io_(io), stop_(std::move(stop)) {
    const std::lock_guard lock(mutex());
    current() = this;
    ::SetConsoleCtrlHandler(&ConsoleStop::on_event, TRUE);
  }
  ~ConsoleStop() {
    ::SetConsoleCtrlHandler(&ConsoleStop::on_event, FALSE);
    const std::lock_guard lock(mutex());
    current() = nullptr;
  }
  ConsoleStop(const ConsoleStop&) = delete;
  ConsoleStop& operator=(const ConsoleStop&) = delete;

 private:
  static BOOL WINAPI on_event(DWORD event) {
    {
      const std::lock_guard lock(mutex());
      ConsoleStop* self = current();
      if (self == nullptr) return FALSE;
      if (!self->fired_) {
        self->fired_ = true;
        net::post(self->io_, self->stop_);
      }
    }
    // After these Windows ends the process as soon as the handler returns: give the clean exit (the state
    // file's last commit, the temporary data dir's removal) time to finish first; the process's end stops
    // this thread.
    if (event == CTRL_CLOSE_EVENT || event == CTRL_LOGOFF_EVENT || event == CTRL_SHUTDOWN_EVENT)
      ::Sleep(5000);
    return TRUE;
  }
  static std::mutex& mutex() {
    static std::mutex instance;
    return instance;
  }
  static ConsoleStop*& current() {
    static ConsoleStop* instance = nullptr;
    return instance;
  }

  net::io_context& io_;
  std::function<void()> stop_;
  bool fired_ = false;
};
#endif

}  // namespace

void run_server(const ServerSettings& settings, const ServiceFactory& make_service) {
  // Declared before the io_context so they outlive every session destroyed with it.
  std::unique_ptr<EmulatorService> service;
  std::optional<TurnGate> gate;
  std::optional<ssl::context> tls;
  if (settings.certificates != nullptr) {
    tls.emplace(ssl::context::tls_server);
    configure_tls(*tls, *settings.certificates);
  }
  // The connections' threads: destroyed after the io_context (its queued handlers, which may hold
  // connections, go before the connections do) and before the TLS context, the gate and the service, which
  // connections use to the end.
  std::optional<IoThreads> io_threads;

  net::io_context io_context(1);
  io_threads.emplace(io_context, settings.io_threads);
  const auto address = settings.host == "localhost" ? net::ip::make_address("127.0.0.1")
                                                    : net::ip::make_address(settings.host);
  const tcp::endpoint endpoint(address, settings.port);
  tcp::acceptor acceptor(io_context);
  try {
    acceptor.open(endpoint.protocol());
#ifdef _WIN32
    // Windows' SO_REUSEADDR would let this bind a port another process listens on (and another process
    // bind ours): exclusive use instead.
    using exclusive_address_use = net::detail::socket_option::boolean<SOL_SOCKET, SO_EXCLUSIVEADDRUSE>;
    acceptor.set_option(exclusive_address_use(true));
#else
    acceptor.set_option(net::socket_base::reuse_address(true));
#endif
    acceptor.bind(endpoint);
    acceptor.listen(net::socket_base::max_listen_connections);
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on " + settings.host + ":" + std::to_string(settings.port) +
                             ": " + e.code().message());
  }

  // Destroyed before the io_context (and the service): stops listening and unlinks the socket file.
  std::optional<IpcServer> ipc;
  if (settings.ipc) ipc.emplace(io_context, *settings.ipc);

  // The forwarding unit's UDP socket (destroyed before the io_context, after detaching from the unit).
  VoiceUdpServer voice_udp(io_context, settings.host);
  // Webhook events' POSTs (its exchanges live in the io_context's handlers).
  WebhookClient webhook_client(io_context);

  // Installed before the connection file is published, so a SIGTERM (Windows: a console control event) sent
  // as soon as it appears exits cleanly.
  auto stop_on_signal = [&] {
    beast::error_code ec;
    acceptor.close(ec);
    if (ipc) ipc->stop();
    voice_udp.close();
    io_context.stop();
  };
#ifdef _WIN32
  ConsoleStop console_stop(io_context, stop_on_signal);
  // The named stop event (stop_event.hpp): set by the testkit, and by anyone of this user who wants a clean
  // stop.
  std::optional<net::windows::object_handle> stop_event;
  if (HANDLE event = ::CreateEventW(nullptr, TRUE, FALSE, stop_event_name(::GetCurrentProcessId()).c_str())) {
    stop_event.emplace(io_context, event);
    stop_event->async_wait([&](beast::error_code ec) {
      if (!ec) stop_on_signal();
    });
  }
#else
  net::signal_set signals(io_context, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) { stop_on_signal(); });
#endif

  service = make_service(
      BoundAddresses{acceptor.local_endpoint().port(), ipc ? ipc->path() : std::string(), voice_udp.port()});
  // The end of each turn that changed something commits it before its answers leave. A state file that
  // cannot be written stops the emulator: answering would acknowledge what is not durable.
  std::optional<std::string> fatal_error;
  gate.emplace(
      *service, [&](std::function<void()> end_turn) { net::post(io_context, std::move(end_turn)); },
      [&](const std::exception& e) {
        fatal_error = std::string("cannot write the state file: ") + e.what();
        beast::error_code ec;
        acceptor.close(ec);
        if (ipc) ipc->stop();
        io_context.stop();
      });
  voice_udp.start(service->forwarding_unit());
  GatedWebhookTransport gated_webhooks(webhook_client, *gate);
  service->set_webhook_transport(&gated_webhooks);
  if (ipc) {
    service->set_ipc_listener(&*ipc);
    ipc->serve(*service, *gate);
  }

  std::make_shared<Listener>(acceptor, *service, *gate, *io_threads, tls ? &*tls : nullptr,
                             settings.idle_timeout, settings.send_queue_limit, settings.max_connections)
      ->accept();
  // The Gateway's clocks: zombie connections and expired resumable sessions.
  net::steady_timer gateway_timer(io_context);
  std::function<void()> schedule_gateway_tick = [&] {
    gateway_timer.expires_after(std::chrono::milliseconds(25));
    gateway_timer.async_wait([&](beast::error_code ec) {
      if (ec) return;
      service->gateway_tick();
      schedule_gateway_tick();
    });
  };
  schedule_gateway_tick();
  run_until_stopped(io_context);
  // Nothing runs on the connections' threads from here on; what they hand the service thread now waits in
  // its io_context and is destroyed with it.
  io_threads->stop();
  if (ipc) ipc->stop();
  voice_udp.close();
  service->set_ipc_listener(nullptr);
  // While the io_context still exists: PUTs waiting for a PING let go of their sessions.
  service->set_webhook_transport(nullptr);
  // What changed since the last turn (e.g. webhook deliveries interrupted by the transport's detaching) is
  // committed before a clean exit.
  if (!fatal_error) {
    try {
      service->end_turn();
    } catch (const std::exception& e) {
      fatal_error = std::string("cannot write the state file: ") + e.what();
    }
  }
  if (!fatal_error && settings.on_clean_stop) {
    try {
      settings.on_clean_stop(*service);
    } catch (const std::exception& e) {
      fatal_error = e.what();
    }
  }
  // Sessions destroyed with the io_context say goodbye to the service; nothing they send goes out now.
  gate->close();
  if (fatal_error) throw std::runtime_error(*fatal_error);
}

}  // namespace platformpp::emulator
