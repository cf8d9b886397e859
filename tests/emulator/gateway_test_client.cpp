// The Beast/Asio side of gateway_test_client.hpp: compiled once for every emulator test executable.
#include "server/asio_prelude.hpp"

#include "gateway_test_client.hpp"

#include <doctest/doctest.h>

#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/beast/zlib/inflate_stream.hpp>
#include <string_view>

#include "core/json.hpp"

namespace platformpp::emulator::test {

namespace {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
}  // namespace

struct GatewayClient::Impl {
  Impl(const std::string& ca_file, unsigned short port, const std::string& target, int receive_buffer)
      : context(ssl::context::tls_client), ws(io, context) {
    compress = target.find("compress=zlib-stream") != std::string::npos;
    context.load_verify_file(ca_file);
    ws.next_layer().set_verify_mode(ssl::verify_peer);
    ws.next_layer().set_verify_callback(ssl::host_name_verification("127.0.0.1"));
    auto& socket = beast::get_lowest_layer(ws).socket();
    socket.open(tcp::v4());
    // Before connecting: the window the kernel offers the server follows from it.
    if (receive_buffer > 0) socket.set_option(net::socket_base::receive_buffer_size(receive_buffer));
    socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    ws.next_layer().handshake(ssl::stream_base::client);
    ws.handshake("127.0.0.1:" + std::to_string(port), target);
  }

  std::string inflate(const std::string& raw) {
    REQUIRE_MESSAGE(raw.size() >= 4, "short compressed message");
    REQUIRE(raw.substr(raw.size() - 4) == std::string("\x00\x00\xff\xff", 4));
    std::string_view input(raw);
    if (!header_checked) {
      // zlib's header (CMF 0x78, FLG 0x9c); Beast's inflate_stream reads raw deflate data.
      REQUIRE(input.size() >= 2);
      saw_header =
          static_cast<unsigned char>(input[0]) == 0x78 && static_cast<unsigned char>(input[1]) == 0x9c;
      input.remove_prefix(2);
      header_checked = true;
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
      inflater.write(zs, beast::zlib::Flush::sync, ec);
      out.append(chunk.data(), chunk.size() - zs.avail_out);
      if (ec == beast::zlib::error::need_buffers || ec == beast::zlib::error::end_of_stream) break;
      REQUIRE_MESSAGE(!ec, ec.message());
    } while (zs.avail_in > 0 || zs.avail_out == 0);
    return out;
  }

  net::io_context io;
  ssl::context context;
  websocket::stream<beast::ssl_stream<beast::tcp_stream>> ws;
  beast::flat_buffer buffer;
  bool compress = false;
  bool header_checked = false;
  bool saw_header = false;
  bool gone = false;
  beast::zlib::inflate_stream inflater;
};

GatewayClient::GatewayClient(const EmulatorProcess& emulator, const std::string& target, int receive_buffer)
    : GatewayClient(emulator.ca_file(), emulator.port(), target, receive_buffer) {}

GatewayClient::GatewayClient(const std::string& ca_file, unsigned short port, const std::string& target,
                             int receive_buffer)
    : impl_(std::make_unique<Impl>(ca_file, port, target, receive_buffer)) {}

GatewayClient::~GatewayClient() = default;

void GatewayClient::send(const std::string& text) {
  impl_->ws.text(true);
  impl_->ws.write(net::buffer(text));
}

GatewayClient::Message GatewayClient::receive(std::chrono::milliseconds timeout) {
  auto& impl = *impl_;
  Message message;
  if (impl.gone) {
    message.closed = true;
    return message;
  }
  bool done = false;
  beast::error_code ec;
  impl.ws.async_read(impl.buffer, [&](beast::error_code read_ec, std::size_t) {
    ec = read_ec;
    done = true;
  });
  impl.io.restart();
  impl.io.run_for(timeout);
  if (!done) {
    beast::error_code ignored;
    beast::get_lowest_layer(impl.ws).socket().close(ignored);
    impl.io.restart();
    impl.io.run();
    impl.gone = true;
    message.timed_out = true;
    return message;
  }
  if (ec) {
    impl.gone = true;
    message.closed = true;
    if (ec == websocket::error::closed) {
      message.close_code = impl.ws.reason().code;
      message.close_reason = std::string(impl.ws.reason().reason.c_str());
    }
    return message;
  }
  message.raw = beast::buffers_to_string(impl.buffer.data());
  impl.buffer.consume(impl.buffer.size());
  message.text = impl.compress ? impl.inflate(message.raw) : message.raw;
  return message;
}

rapidjson::Document GatewayClient::next(std::chrono::milliseconds timeout) {
  const auto message = receive(timeout);
  REQUIRE_MESSAGE(!message.closed, "closed with " << message.close_code << " " << message.close_reason);
  REQUIRE_MESSAGE(!message.timed_out, "no message in time");
  rapidjson::Document document;
  REQUIRE_MESSAGE(parse_json(message.text, document), message.text);
  return document;
}

rapidjson::Document GatewayClient::next_dispatch(const std::string& t, int max_skip) {
  for (int i = 0; i <= max_skip; ++i) {
    auto document = next();
    if (document["op"].GetInt() == 0 && t == document["t"].GetString()) return document;
  }
  FAIL("no " << t << " dispatch");
  return {};
}

int GatewayClient::expect_close(std::chrono::milliseconds timeout) {
  for (int i = 0; i < 200; ++i) {
    const auto message = receive(timeout);
    REQUIRE_MESSAGE(!message.timed_out, "no close in time");
    if (message.closed) return message.close_code;
  }
  FAIL("no close");
  return 0;
}

void GatewayClient::close(int code) {
  beast::error_code ec;
  impl_->ws.close(websocket::close_reason(static_cast<std::uint16_t>(code)), ec);
  impl_->gone = true;
}

void GatewayClient::drop() {
  beast::error_code ec;
  beast::get_lowest_layer(impl_->ws).socket().close(ec);
  impl_->gone = true;
}

bool GatewayClient::saw_zlib_header() const {
  return impl_->saw_header;
}

struct PlainWebSocketClient::Impl {
  net::io_context io;
  websocket::stream<beast::tcp_stream> ws{io};
  beast::flat_buffer buffer;
};

PlainWebSocketClient::PlainWebSocketClient(unsigned short port, const std::string& host,
                                           const std::string& target)
    : impl_(std::make_unique<Impl>()) {
  beast::get_lowest_layer(impl_->ws).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  beast::get_lowest_layer(impl_->ws).expires_after(std::chrono::seconds(5));
  impl_->ws.handshake(host, target);
}

PlainWebSocketClient::~PlainWebSocketClient() = default;

std::string PlainWebSocketClient::read() {
  impl_->ws.read(impl_->buffer);
  auto message = beast::buffers_to_string(impl_->buffer.data());
  impl_->buffer.consume(impl_->buffer.size());
  return message;
}

void PlainWebSocketClient::write(const std::string& text) {
  impl_->ws.write(net::buffer(text));
}

void PlainWebSocketClient::close(int code) {
  impl_->ws.close(websocket::close_reason(static_cast<std::uint16_t>(code)));
}

}  // namespace platformpp::emulator::test
