// One HTTP(S) connection, on its I/O thread: requests in, the service's answers out, and the upgrade to a
// WebSocket (the Gateway, the voice gateway, the console).
// Included by server/server.cpp alone: the one translation unit that instantiates Boost.Beast's server
// templates (they are slow to compile), so each session kind has a file of its own without costing a
// compilation of its own.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "core/api_error.hpp"
#include "server/connection_places.hpp"
#include "server/step_handler.hpp"
#include "server/websocket_endpoints.hpp"
#include "server/websocket_session.hpp"
#include "service/emulator_service.hpp"
#include "voice/voice_gateway.hpp"

namespace platformpp::emulator::server_detail {

// Whether a browser's request comes from a page of this emulator: no Origin (not a browser), or an Origin
// naming the Host it was sent to. Another site's page open in the same browser gets no live socket.
template <class Request>
bool same_origin(const Request& request) {
  const auto origin = request[http::field::origin];
  if (origin.empty()) return true;
  const auto host = request[http::field::host];
  const auto scheme_end = origin.find("://");
  return scheme_end != std::string_view::npos && !host.empty() && origin.substr(scheme_end + 3) == host;
}

// One connection, on its I/O thread: reads requests one at a time (keep-alive), has the service on its
// thread plan and complete each (waiting out a fault's delay on a timer without blocking other
// connections), then writes the outcome.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  // `stream_args`: the TLS context, for a TLS listener's connection; nothing for plain HTTP.
  template <class... StreamArgs>
  HttpSession(EmulatorService& service, IoLane& lane, TurnGate& gate, tcp::socket socket,
              StreamArgs&... stream_args)
      : stream_(std::move(socket), stream_args...),
        service_(service),
        lane_(lane),
        gate_(gate),
        delay_timer_(stream_.get_executor()) {
    beast::error_code ec;
    const auto endpoint = lowest().socket().remote_endpoint(ec);
    client_address_ = ec ? "unknown" : endpoint.address().to_string();
  }

  // `place`: the connection's place under --max-connections, held while it is served (then by its WebSocket).
  void start(std::chrono::milliseconds idle_timeout, std::size_t send_queue_limit,
             std::shared_ptr<const ConnectionPlace> place) {
    idle_timeout_ = idle_timeout;
    send_queue_limit_ = send_queue_limit;
    place_ = std::move(place);
    if (stream_.Secure()) {
      lowest().expires_after(kHandshakeTimeout);
      stream_.Tls().async_handshake(ssl::stream_base::server, handler(Step::handshake));
    } else {
      read_request();
    }
  }

 private:
  enum class Step { handshake, read, delay, written, truncated, shut_down };

  using Handler = StepHandler<HttpSession, Step>;
  friend Handler;
  Handler handler(Step step) { return Handler{shared_from_this(), step}; }

  void on(Step step, beast::error_code ec, std::size_t /*bytes*/) {
    switch (step) {
      case Step::handshake:
        if (ec) return close();  // TLS garbage or a plain-HTTP client: nothing sensible to answer
        return read_request();
      case Step::read:
        return on_read(ec);
      case Step::delay:
        if (!ec) lane_.to_service([self = shared_from_this()] { self->finish_request(); });
        return;
      case Step::written:
        if (ec) return close();
        if (!response_->keep_alive()) return shutdown();
        response_.reset();
        return read_request();
      case Step::truncated:
      case Step::shut_down:
        return close();
    }
  }

  beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }

  void read_request() {
    parser_.emplace();
    parser_->body_limit(kBodyLimit);
    parser_->header_limit(kHeaderLimit);
    lowest().expires_after(idle_timeout_);
    http::async_read(stream_, buffer_, *parser_, handler(Step::read));
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::body_limit) return send_error(413);
    if (ec == http::error::header_limit) return send_error(431);
    if (ec == http::error::end_of_stream || ec == http::error::partial_message) return close();
    if (ec && is_http_parse_error(ec)) return send_error(400);
    if (ec) return close();  // timeout, reset, TLS error

    // The Gateway: a WebSocket upgrade on "/" hands the stream over.
    if (websocket::is_upgrade(parser_->get())) {
      const auto target = parser_->get().target();
      const auto path = target.substr(0, target.find('?'));
      if (path == "/" || path.empty()) return upgrade<GatewayEndpoint>();
      if (path == "/_emulator/ui/live") {
        if (!same_origin(parser_->get())) return send_error(403);
        return upgrade<ConsoleEndpoint>();
      }
      // The voice gateway; without a valid `v` the request is answered as plain HTTP (400).
      if (is_voice_gateway_path(std::string_view(path.data(), path.size())) &&
          voice_gateway_version(std::string_view(target.data(), target.size()))) {
        return upgrade<VoiceEndpoint>();
      }
    }

    auto& message = parser_->get();
    request_ = HttpRequest{};
    request_.method = std::string(message.method_string());
    request_.target = std::string(message.target());
    for (const auto& field : message) {
      request_.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    request_.body = std::move(message.body());
    request_.client_address = client_address_;
    keep_alive_ = message.keep_alive();
    version_ = message.version();
    // The stream waits (no operation on it) while the service thread has the request.
    lane_.to_service([self = shared_from_this()] { self->plan_request(); });
  }

  // On the service thread.
  void plan_request() {
    try {
      plan_ = service_.plan(request_);
    } catch (const std::exception&) {
      plan_ = RequestPlan{};
    }
    if (plan_.delay.count() > 0) {
      on_stream([](HttpSession& self) {
        self.delay_timer_.expires_after(self.plan_.delay);
        self.delay_timer_.async_wait(self.handler(Step::delay));
      });
    } else {
      finish_request();
    }
  }

  // Runs `work` on this connection's I/O thread.
  template <class Work>
  void on_stream(Work work) {
    lane_.to_stream([self = shared_from_this(), work = std::move(work)]() mutable { work(*self); });
  }

  // Hands the stream over to a WebSocket serving `Endpoint`.
  template <class Endpoint>
  void upgrade() {
    lowest().expires_never();
    auto socket = std::make_shared<WebSocketSession>(std::move(stream_), lane_, send_queue_limit_,
                                                     client_address_, std::move(place_));
    auto link = std::make_shared<WebSocketLink>(gate_, lane_, socket);
    link->attach(std::make_unique<Endpoint>(service_, *link));
    socket->start(std::move(link), parser_->release());
  }

  // On the service thread.
  void finish_request() {
    Outcome outcome;
    try {
      outcome = service_.complete(request_, plan_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "platformpp-emulator: internal error on %s %s: %s\n", request_.method.c_str(),
                   request_.target.c_str(), e.what());
      outcome = Outcome{Outcome::Delivery::respond, status_error(500)};
    }
    switch (outcome.delivery) {
      case Outcome::Delivery::drop:
        return on_stream([](HttpSession& self) { self.close(); });
      case Outcome::Delivery::truncate:
        // Half an answer acknowledges as much as a whole one: it waits for the turn's commit too.
        return gate_.send([self = shared_from_this(), response = std::move(outcome.response)]() mutable {
          self->on_stream(
              [response = std::move(response)](HttpSession& session) { session.write_truncated(response); });
        });
      case Outcome::Delivery::respond:
        if (const auto deferred = outcome.response.deferred) {
          // The answer comes later (a webhook events URL's PING); other connections are served meanwhile.
          return deferred->wait(
              [self = shared_from_this()](HttpResponse response) { self->respond(std::move(response)); });
        }
        return respond(std::move(outcome.response));
    }
  }

  void send_error(int status) {
    keep_alive_ = false;
    version_ = 11;
    auto response = status_error(status);
    response.close_connection = true;
    write_response(std::move(response));
  }

  // An answer, once what it acknowledges is committed (server/turn_gate.hpp). On the service thread.
  void respond(HttpResponse response) {
    gate_.send([self = shared_from_this(), response = std::move(response)]() mutable {
      self->on_stream([response = std::move(response)](HttpSession& session) mutable {
        session.write_response(std::move(response));
      });
    });
  }

  void write_response(HttpResponse response) {
    auto message = std::make_shared<http::response<http::string_body>>();
    message->version(version_);
    message->result(static_cast<unsigned>(response.status));
    message->set(http::field::server, "platformpp-emulator");
    for (auto& [name, value] : response.headers)
      message->set(name, value);
    message->body() = std::move(response.body);
    message->keep_alive(keep_alive_ && !response.close_connection);
    message->prepare_payload();
    response_ = message;
    lowest().expires_after(kWriteTimeout);
    http::async_write(stream_, *response_, handler(Step::written));
  }

  // Headers announce the full body, but only half of it is sent before the connection closes.
  void write_truncated(const HttpResponse& response) {
    const auto status = static_cast<unsigned>(response.status);
    raw_ = "HTTP/1.1 " + std::to_string(status) + " " +
           std::string(http::obsolete_reason(http::int_to_status(status))) + "\r\n";
    for (const auto& [name, value] : response.headers)
      raw_ += name + ": " + value + "\r\n";
    const std::size_t announced = response.body.empty() ? 64 : response.body.size();
    raw_ += "Content-Length: " + std::to_string(announced) + "\r\nConnection: close\r\n\r\n";
    raw_ += response.body.substr(0, response.body.size() / 2);
    lowest().expires_after(kWriteTimeout);
    net::async_write(stream_, net::buffer(raw_), handler(Step::truncated));
  }

  void shutdown() {
    if (stream_.Secure()) {
      lowest().expires_after(std::chrono::seconds(2));
      stream_.Tls().async_shutdown(handler(Step::shut_down));
    } else {
      beast::error_code ec;
      lowest().socket().shutdown(tcp::socket::shutdown_send, ec);
      close();
    }
  }

  void close() {
    beast::error_code ec;
    delay_timer_.cancel();
    lowest().socket().close(ec);
  }

  SessionStream stream_;
  EmulatorService& service_;
  IoLane& lane_;
  TurnGate& gate_;
  net::steady_timer delay_timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string client_address_;
  HttpRequest request_;
  RequestPlan plan_;
  bool keep_alive_ = true;
  unsigned version_ = 11;
  std::chrono::milliseconds idle_timeout_{60000};
  std::size_t send_queue_limit_ = 0;
  std::shared_ptr<const ConnectionPlace> place_;
  std::shared_ptr<http::response<http::string_body>> response_;
  std::string raw_;
};

}  // namespace platformpp::emulator::server_detail
