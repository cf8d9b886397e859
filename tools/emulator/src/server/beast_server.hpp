// What the server's Beast sessions share: the namespaces, the stream (TLS or plain TCP, chosen per listener)
// and the limits on what a peer may send.
// Included by server/server.cpp alone: the one translation unit that instantiates Boost.Beast's server
// templates (they are slow to compile), so each session kind has a file of its own without costing a
// compilation of its own.
#pragma once

#include "server/asio_prelude.hpp"

#include "beast_stream/maybe_tls_stream.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <chrono>
#include <cstdint>

namespace platformpp::emulator::server_detail {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

inline constexpr std::uint64_t kBodyLimit = std::uint64_t{1024} * 1024;
inline constexpr std::uint32_t kHeaderLimit = 16 * 1024;
inline constexpr auto kHandshakeTimeout = std::chrono::seconds(10);
inline constexpr auto kWriteTimeout = std::chrono::seconds(30);

// One stream type for plain and TLS connections: Beast's HTTP and WebSocket templates are instantiated once.
using SessionStream = ::platformpp::beast_stream::MaybeTlsStream;

inline bool is_http_parse_error(const beast::error_code& ec) {
  return &ec.category() == &http::make_error_code(http::error::bad_target).category();
}

}  // namespace platformpp::emulator::server_detail
