// A small synchronous Gateway client for tests: a Beast WebSocket over TLS (verified with the emulator's CA)
// that reads with a deadline, inflates zlib-stream transport compression with Beast's inflate_stream, and
// can drop its TCP connection without a close frame. Plus HTTPS admin calls. Include asio_prelude.hpp first.
#pragma once

#include <doctest/doctest.h>

#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/beast/zlib/inflate_stream.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "emulator_process.hpp"
#include "json.hpp"

namespace platformpp::emulator::test {

namespace gw {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
}  // namespace gw

struct AdminResult {
  int status = 0;
  std::string body;
};

// One HTTPS request to the emulator on its own connection.
inline AdminResult https_request(const EmulatorProcess& emulator, gw::http::verb method,
                                 const std::string& target, const std::string& body = {},
                                 const std::string& authorization = {}) {
  using namespace gw;
  net::io_context io;
  ssl::context context(ssl::context::tls_client);
  context.load_verify_file(emulator.ca_file());
  beast::ssl_stream<beast::tcp_stream> stream(io, context);
  stream.set_verify_mode(ssl::verify_peer);
  stream.set_verify_callback(ssl::host_name_verification("127.0.0.1"));
  beast::get_lowest_layer(stream).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), emulator.port()));
  stream.handshake(ssl::stream_base::client);
  http::request<http::string_body> request(method, target, 11);
  request.set(http::field::host, "127.0.0.1");
  if (!authorization.empty()) request.set(http::field::authorization, authorization);
  if (!body.empty()) {
    request.set(http::field::content_type, "application/json");
    request.body() = body;
  }
  request.prepare_payload();
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  beast::error_code ec;
  beast::get_lowest_layer(stream).socket().close(ec);
  return {static_cast<int>(response.result_int()), response.body()};
}

class GatewayClient {
 public:
  struct Message {
    bool closed = false;     // the server closed (close_code, close_reason) or the connection ended
    bool timed_out = false;  // nothing within the deadline (the connection is then cut)
    int close_code = 0;
    std::string close_reason;
    std::string text;  // the JSON message (inflated)
    std::string raw;   // the frame's bytes as received
  };

  GatewayClient(const EmulatorProcess& emulator, const std::string& target = "/?v=10&encoding=json")
      : GatewayClient(emulator.ca_file(), emulator.port(), target) {}

  // TLS to 127.0.0.1:port, verified against `ca_file`.
  GatewayClient(const std::string& ca_file, unsigned short port, const std::string& target)
      : context_(gw::ssl::context::tls_client), ws_(io_, context_) {
    using namespace gw;
    compress_ = target.find("compress=zlib-stream") != std::string::npos;
    context_.load_verify_file(ca_file);
    ws_.next_layer().set_verify_mode(ssl::verify_peer);
    ws_.next_layer().set_verify_callback(ssl::host_name_verification("127.0.0.1"));
    beast::get_lowest_layer(ws_).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    ws_.next_layer().handshake(ssl::stream_base::client);
    ws_.handshake("127.0.0.1:" + std::to_string(port), target);
  }

  void send(const std::string& text) {
    ws_.text(true);
    ws_.write(gw::net::buffer(text));
  }

  Message receive(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    using namespace gw;
    Message message;
    if (gone_) {
      message.closed = true;
      return message;
    }
    bool done = false;
    beast::error_code ec;
    ws_.async_read(buffer_, [&](beast::error_code read_ec, std::size_t) {
      ec = read_ec;
      done = true;
    });
    io_.restart();
    io_.run_for(timeout);
    if (!done) {
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().close(ignored);
      io_.restart();
      io_.run();
      gone_ = true;
      message.timed_out = true;
      return message;
    }
    if (ec) {
      gone_ = true;
      message.closed = true;
      if (ec == websocket::error::closed) {
        message.close_code = ws_.reason().code;
        message.close_reason = std::string(ws_.reason().reason.c_str());
      }
      return message;
    }
    message.raw = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    message.text = compress_ ? inflate(message.raw) : message.raw;
    return message;
  }

  // The next message as JSON; fails the test on a close or timeout.
  rapidjson::Document next(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    const auto message = receive(timeout);
    REQUIRE_MESSAGE(!message.closed, "closed with " << message.close_code << " " << message.close_reason);
    REQUIRE_MESSAGE(!message.timed_out, "no message in time");
    rapidjson::Document document;
    REQUIRE_MESSAGE(parse_json(message.text, document), message.text);
    return document;
  }

  // Skips messages until a dispatch of type `t`.
  rapidjson::Document next_dispatch(const std::string& t, int max_skip = 20) {
    for (int i = 0; i <= max_skip; ++i) {
      auto document = next();
      if (document["op"].GetInt() == 0 && t == document["t"].GetString()) return document;
    }
    FAIL("no " << t << " dispatch");
    return {};
  }

  // Expects the server to close; returns the close code (0 if the connection just ended).
  int expect_close(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    for (int i = 0; i < 200; ++i) {
      const auto message = receive(timeout);
      REQUIRE_MESSAGE(!message.timed_out, "no close in time");
      if (message.closed) return message.close_code;
    }
    FAIL("no close");
    return 0;
  }

  void close(int code) {
    gw::beast::error_code ec;
    ws_.close(gw::websocket::close_reason(static_cast<std::uint16_t>(code)), ec);
    gone_ = true;
  }

  // Cuts the TCP connection without a close frame.
  void drop() {
    gw::beast::error_code ec;
    gw::beast::get_lowest_layer(ws_).socket().close(ec);
    gone_ = true;
  }

  // Every raw (compressed) frame seen so far must end with a sync flush; the first starts with a zlib header.
  bool saw_zlib_header() const { return saw_header_; }

 private:
  std::string inflate(const std::string& raw) {
    using namespace gw;
    REQUIRE_MESSAGE(raw.size() >= 4, "short compressed message");
    REQUIRE(raw.substr(raw.size() - 4) == std::string("\x00\x00\xff\xff", 4));
    std::string_view input(raw);
    if (!header_checked_) {
      // zlib's header (CMF 0x78, FLG 0x9c); Beast's inflate_stream reads raw deflate data.
      REQUIRE(input.size() >= 2);
      saw_header_ =
          static_cast<unsigned char>(input[0]) == 0x78 && static_cast<unsigned char>(input[1]) == 0x9c;
      input.remove_prefix(2);
      header_checked_ = true;
    }
    beast::zlib::z_params zs;
    zs.next_in = input.data();
    zs.avail_in = input.size();
    std::string out;
    std::array<char, 4096> chunk{};
    do {
      zs.next_out = chunk.data();
      zs.avail_out = chunk.size();
      beast::error_code ec;
      inflater_.write(zs, beast::zlib::Flush::sync, ec);
      out.append(chunk.data(), chunk.size() - zs.avail_out);
      if (ec == beast::zlib::error::need_buffers || ec == beast::zlib::error::end_of_stream) break;
      REQUIRE_MESSAGE(!ec, ec.message());
    } while (zs.avail_in > 0 || zs.avail_out == 0);
    return out;
  }

  gw::net::io_context io_;
  gw::ssl::context context_;
  gw::websocket::stream<gw::beast::ssl_stream<gw::beast::tcp_stream>> ws_;
  gw::beast::flat_buffer buffer_;
  bool compress_ = false;
  bool header_checked_ = false;
  bool saw_header_ = false;
  bool gone_ = false;
  gw::beast::zlib::inflate_stream inflater_;
};

}  // namespace platformpp::emulator::test
