// The Beast/Asio side of http_test_client.hpp: compiled once for every emulator test executable.
#include "server/asio_prelude.hpp"

#include "http_test_client.hpp"

#include <doctest/doctest.h>
#include <strings.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <chrono>
#include <deque>

namespace platformpp::emulator::test {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

http::verb to_verb(HttpMethod method) {
  switch (method) {
    case HttpMethod::get:
      return http::verb::get;
    case HttpMethod::post:
      return http::verb::post;
    case HttpMethod::put:
      return http::verb::put;
    case HttpMethod::patch:
      return http::verb::patch;
    case HttpMethod::delete_:
      return http::verb::delete_;
  }
  return http::verb::get;
}

http::request<http::string_body> make_message(const HttpRequestSpec& spec) {
  http::request<http::string_body> request(to_verb(spec.method), spec.target, 11);
  request.set(http::field::host, "127.0.0.1");
  if (!spec.user_agent.empty()) request.set(http::field::user_agent, spec.user_agent);
  if (!spec.authorization.empty()) request.set(http::field::authorization, spec.authorization);
  if (!spec.body.empty()) {
    request.set(http::field::content_type, "application/json");
    request.body() = spec.body;
  }
  request.prepare_payload();
  return request;
}

HttpResult to_result(http::response<http::string_body>& response) {
  HttpResult result;
  result.status = static_cast<int>(response.result_int());
  for (const auto& field : response)
    result.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  result.body = std::move(response.body());
  return result;
}

// One response, under the stream's 20-second deadline. Asynchronous, so that the deadline applies (a
// synchronous read has none): under Wine an emulator killed with TerminateProcess now and then leaves its
// connection open without a byte or a reset, and a synchronous read then waited until CTest's time limit.
beast::error_code read_with_deadline(net::io_context& io, beast::ssl_stream<beast::tcp_stream>& stream,
                                     beast::flat_buffer& buffer,
                                     http::response<http::string_body>& response) {
  beast::error_code ec;
  beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(20));
  http::async_read(stream, buffer, response,
                   [&ec](const beast::error_code& error, std::size_t) { ec = error; });
  io.restart();
  io.run();
  return ec;
}

tcp::endpoint loopback(unsigned short port) {
  return tcp::endpoint(net::ip::make_address("127.0.0.1"), port);
}

}  // namespace

std::string HttpResult::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() && ::strncasecmp(key.data(), name.data(), name.size()) == 0) return value;
  }
  return {};
}

struct HttpsConnection::Impl {
  Impl(const std::string& ca_file, unsigned short port)
      : context(ssl::context::tls_client), stream(io, context) {
    context.load_verify_file(ca_file);
    stream.set_verify_mode(ssl::verify_peer);
    stream.set_verify_callback(ssl::host_name_verification("127.0.0.1"));
    beast::get_lowest_layer(stream).connect(loopback(port));
    beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(20));
    stream.handshake(ssl::stream_base::client);
  }

  net::io_context io;
  ssl::context context;
  beast::ssl_stream<beast::tcp_stream> stream;
  beast::flat_buffer buffer;
};

HttpsConnection::HttpsConnection(const EmulatorProcess& emulator)
    : impl_(std::make_unique<Impl>(emulator.ca_file(), emulator.port())),
      admin_authorization_(emulator.admin_authorization()) {}
HttpsConnection::~HttpsConnection() = default;

void HttpsConnection::send(const HttpRequestSpec& request) {
  if (request.authorization.empty() && is_admin_target(request.target)) {
    HttpRequestSpec with_token = request;
    with_token.authorization = admin_authorization_;
    http::write(impl_->stream, make_message(with_token));
    return;
  }
  http::write(impl_->stream, make_message(request));
}

std::optional<HttpResult> HttpsConnection::receive() {
  http::response<http::string_body> response;
  if (read_with_deadline(impl_->io, impl_->stream, impl_->buffer, response)) return std::nullopt;
  return to_result(response);
}

bool HttpsConnection::nothing_received() {
  if (impl_->buffer.size() != 0) return false;
  // One read that must not wait: TLS records that carry no application data (TLS 1.3 session tickets) are
  // consumed; "would block" then means no byte of an answer has come.
  auto& socket = beast::get_lowest_layer(impl_->stream).socket();
  socket.non_blocking(true);
  char byte = 0;
  beast::error_code ec;
  const auto read = impl_->stream.read_some(net::buffer(&byte, 1), ec);
  socket.non_blocking(false);
  if (read == 1) impl_->buffer.commit(net::buffer_copy(impl_->buffer.prepare(1), net::buffer(&byte, 1)));
  return read == 0 && ec == net::error::would_block;
}

HttpResult HttpsConnection::exchange(const HttpRequestSpec& request) {
  send(request);
  auto response = receive();
  REQUIRE_MESSAGE(response.has_value(), "no answer within 20 s, or the connection failed");
  return std::move(*response);
}

HttpResult https_request(const std::string& ca_file, unsigned short port, HttpMethod method,
                         const std::string& target, const std::string& body,
                         const std::string& authorization) {
  net::io_context io;
  ssl::context context(ssl::context::tls_client);
  context.load_verify_file(ca_file);
  beast::ssl_stream<beast::tcp_stream> stream(io, context);
  stream.set_verify_mode(ssl::verify_peer);
  stream.set_verify_callback(ssl::host_name_verification("127.0.0.1"));
  beast::get_lowest_layer(stream).connect(loopback(port));
  stream.handshake(ssl::stream_base::client);
  HttpRequestSpec spec;
  spec.method = method;
  spec.target = target;
  spec.body = body;
  spec.authorization = authorization;
  http::write(stream, make_message(spec));
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  if (const auto failed = read_with_deadline(io, stream, buffer, response)) throw beast::system_error(failed);
  beast::error_code ec;
  beast::get_lowest_layer(stream).socket().close(ec);
  return to_result(response);
}

HttpResult https_request(const EmulatorProcess& emulator, HttpMethod method, const std::string& target,
                         const std::string& body, const std::string& authorization) {
  const bool add_token = authorization.empty() && is_admin_target(target);
  return https_request(emulator.ca_file(), emulator.port(), method, target, body,
                       add_token ? emulator.admin_authorization() : authorization);
}

namespace {

// Everything the server sends until it closes or the stream's deadline passes.
std::string read_until_closed(beast::tcp_stream& stream, std::string received = {}) {
  beast::error_code ec;
  char chunk[4096];
  while (!ec) {
    const auto n = stream.read_some(net::buffer(chunk), ec);
    received.append(chunk, n);
  }
  return received;
}

}  // namespace

std::string raw_exchange(unsigned short port, const std::string& bytes) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(loopback(port));
  stream.expires_after(std::chrono::seconds(20));
  // A server that closes before reading everything has answered too: a failed write is not an error here.
  beast::error_code ec;
  net::write(stream, net::buffer(bytes), ec);
  return read_until_closed(stream);
}

std::string raw_exchange_after_head(unsigned short port, const std::string& request,
                                    const std::string& then) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(loopback(port));
  stream.expires_after(std::chrono::seconds(20));
  net::write(stream, net::buffer(request));
  std::string received;
  beast::error_code ec;
  char chunk[4096];
  while (received.find("\r\n\r\n") == std::string::npos && !ec) {
    const auto n = stream.read_some(net::buffer(chunk), ec);
    received.append(chunk, n);
  }
  if (ec) return received;
  net::write(stream, net::buffer(then), ec);  // the server may cut the connection mid-write
  return read_until_closed(stream, std::move(received));
}

struct PlainConnections::Impl {
  net::io_context io;
  std::deque<beast::tcp_stream> streams;  // a deque: streams never move once connected
};

PlainConnections::PlainConnections() : impl_(std::make_unique<Impl>()) {}
PlainConnections::~PlainConnections() = default;

std::size_t PlainConnections::connect(unsigned short port) {
  impl_->streams.emplace_back(impl_->io);
  impl_->streams.back().connect(loopback(port));
  return impl_->streams.size() - 1;
}

void PlainConnections::write(std::size_t index, const std::string& bytes) {
  net::write(impl_->streams.at(index), net::buffer(bytes));
}

std::optional<HttpResult> PlainConnections::read_response(std::size_t index) {
  auto& stream = impl_->streams.at(index);
  stream.expires_after(std::chrono::seconds(20));
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  beast::error_code ec;
  http::read(stream, buffer, response, ec);
  if (ec) return std::nullopt;
  return to_result(response);
}

void PlainConnections::close(std::size_t index) {
  beast::error_code ec;
  impl_->streams.at(index).socket().shutdown(net::ip::tcp::socket::shutdown_both, ec);
  impl_->streams.at(index).close();
}

std::size_t PlainConnections::size() const {
  return impl_->streams.size();
}

}  // namespace platformpp::emulator::test
