// The TCP listener: accepts loopback connections and starts an HTTP session for each on an I/O thread.
// Included by server/server.cpp alone: the one translation unit that instantiates Boost.Beast's server
// templates (they are slow to compile), so each session kind has a file of its own without costing a
// compilation of its own.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>

#include "server/connection_places.hpp"
#include "server/http_session.hpp"
#include "server/io_threads.hpp"
#include "server/turn_gate.hpp"
#include "service/emulator_service.hpp"

namespace platformpp::emulator::server_detail {

// Accepts on the service thread; each connection goes to the next I/O thread (io_threads.hpp).
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(tcp::acceptor& acceptor, EmulatorService& service, TurnGate& gate, IoThreads& io_threads,
           ssl::context* tls, std::chrono::milliseconds idle_timeout, std::size_t send_queue_limit,
           std::size_t max_connections)
      : acceptor_(acceptor),
        service_(service),
        gate_(gate),
        io_threads_(io_threads),
        tls_(tls),
        idle_timeout_(idle_timeout),
        send_queue_limit_(send_queue_limit),
        places_(max_connections, "TCP"),
        retry_timer_(acceptor.get_executor()) {}

  void accept() {
    // The socket belongs to its lane's io_context from the start; this handler runs on the service's.
    auto& lane = io_threads_.next();
    acceptor_.async_accept(lane.context(),
                           [self = shared_from_this(), &lane](beast::error_code ec, tcp::socket socket) {
                             self->on_accept(ec, lane, std::move(socket));
                           });
  }

 private:
  void on_accept(beast::error_code ec, IoLane& lane, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec) {
      // E.g. out of file descriptors: back off briefly instead of spinning.
      retry_timer_.expires_after(std::chrono::milliseconds(100));
      retry_timer_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
        if (!wait_ec) self->accept();
      });
      return;
    }
    service_.note_connection_accepted();
    auto place = places_.take();
    if (!place) {
      beast::error_code close_ec;
      socket.close(close_ec);
      accept();
      return;
    }
    beast::error_code option_ec;
    socket.set_option(tcp::no_delay(true), option_ec);
    auto session = tls_ != nullptr
                       ? std::make_shared<HttpSession>(service_, lane, gate_, std::move(socket), *tls_)
                       : std::make_shared<HttpSession>(service_, lane, gate_, std::move(socket));
    lane.to_stream([session, timeout = idle_timeout_, limit = send_queue_limit_, place] {
      session->start(timeout, limit, place);
    });
    accept();
  }

  tcp::acceptor& acceptor_;
  EmulatorService& service_;
  TurnGate& gate_;
  IoThreads& io_threads_;
  ssl::context* tls_;
  std::chrono::milliseconds idle_timeout_;
  std::size_t send_queue_limit_;
  ConnectionPlaces places_;  // the accepting (service) thread's
  net::steady_timer retry_timer_;
};

}  // namespace platformpp::emulator::server_detail
