// A TCP stream that speaks TLS or not, as chosen when it is made, so that Beast's WebSocket and HTTP
// templates over it are instantiated once instead of once per stream type. Its reads and writes take one
// handler type and one buffer type whatever Beast passes (erased_handler.hpp, buffer_list.hpp), so the TLS
// and TCP layers under Beast compile once per direction instead of once per Beast operation: with both, the
// three units that used it first compile in half their old time (142 to 74 CPU-s, docs/ci.md). Transport
// plumbing under Beast, no protocol of the platform's: the SDK's WebSocket link and backend endpoint server,
// the emulator's server sessions and its webhook client use it. Include core/asio_prelude.hpp (or the
// emulator's server/asio_prelude.hpp) first, as for any Asio header.
#pragma once

#include <boost/asio/async_result.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/beast/websocket/teardown.hpp>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "beast_stream/buffer_list.hpp"
#include "beast_stream/erased_handler.hpp"

namespace platformpp::beast_stream {

/// A Beast stream (AsyncReadStream, AsyncWriteStream, a WebSocket's next layer) over a `beast::tcp_stream`,
/// with or without `beast::ssl_stream` on top. `beast::get_lowest_layer` reaches the TCP stream either way.
class MaybeTlsStream {
 public:
  using TcpStream = boost::beast::tcp_stream;
  using TlsStream = boost::beast::ssl_stream<TcpStream>;
  using executor_type = TcpStream::executor_type;

  /// Plain TCP over a stream made from `arg` (an executor, an execution context or a connected socket).
  /// (Not a MaybeTlsStream: that is the move constructor's. enable_if rather than requires: clang-tidy's
  /// forwarding-reference check reads the one, not the other.)
  template <class Arg, std::enable_if_t<!std::is_same_v<std::remove_cvref_t<Arg>, MaybeTlsStream>, int> = 0>
  explicit MaybeTlsStream(Arg&& arg) : tcp_(std::in_place, std::forward<Arg>(arg)) {}

  /// TLS with `context`'s settings over a stream made from `arg`; the TLS handshake is the owner's to run
  /// (`Tls().async_handshake`).
  template <class Arg>
  explicit MaybeTlsStream(Arg&& arg, boost::asio::ssl::context& context)
      : tls_(std::in_place, std::forward<Arg>(arg), context) {}

  MaybeTlsStream(MaybeTlsStream&&) = default;
  MaybeTlsStream& operator=(MaybeTlsStream&&) = delete;
  MaybeTlsStream(const MaybeTlsStream&) = delete;
  MaybeTlsStream& operator=(const MaybeTlsStream&) = delete;
  ~MaybeTlsStream() = default;

  /// Whether this stream speaks TLS.
  [[nodiscard]] bool Secure() const noexcept { return tls_.has_value(); }
  /// The TLS layer, for its handshake, its shutdown and its `SSL*`. Only when `Secure()`.
  TlsStream& Tls() noexcept { return *tls_; }

  /// The TCP stream, under the TLS layer if there is one (what `beast::get_lowest_layer` follows).
  TcpStream& next_layer() noexcept { return tls_ ? tls_->next_layer() : *tcp_; }
  /// The TCP stream (const).
  [[nodiscard]] const TcpStream& next_layer() const noexcept { return tls_ ? tls_->next_layer() : *tcp_; }

  /// The TCP stream's executor.
  executor_type get_executor() noexcept { return next_layer().get_executor(); }

  /// Reads some bytes, decrypted if this stream speaks TLS.
  template <class MutableBufferSequence, class ReadToken>
  BOOST_ASIO_INITFN_RESULT_TYPE(ReadToken, void(boost::system::error_code, std::size_t))
  async_read_some(const MutableBufferSequence& buffers, ReadToken&& token) {
    return boost::asio::async_initiate<ReadToken, void(boost::system::error_code, std::size_t)>(
        [this](auto&& handler, const MutableBufferSequence& to) {
          StartRead(BufferList<boost::asio::mutable_buffer>(to),
                    ErasedHandler(std::forward<decltype(handler)>(handler), get_executor()));
        },
        token, buffers);
  }

  /// Writes some bytes, encrypted if this stream speaks TLS.
  template <class ConstBufferSequence, class WriteToken>
  BOOST_ASIO_INITFN_RESULT_TYPE(WriteToken, void(boost::system::error_code, std::size_t))
  async_write_some(const ConstBufferSequence& buffers, WriteToken&& token) {
    return boost::asio::async_initiate<WriteToken, void(boost::system::error_code, std::size_t)>(
        [this](auto&& handler, const ConstBufferSequence& from) {
          StartWrite(BufferList<boost::asio::const_buffer>(from),
                     ErasedHandler(std::forward<decltype(handler)>(handler), get_executor()));
        },
        token, buffers);
  }

  /// A WebSocket's closing of its stream (found by argument-dependent lookup), as Beast does it for each
  /// layer: over TLS, the close_notify exchange; over plain TCP, the shutdown of sending and the drain of
  /// what is left to read. Only the asynchronous operations are provided: Beast's synchronous ones
  /// (`ws.read`, `ws.close`...) do not compile over this stream.
  template <class TeardownHandler>
  friend void async_teardown(boost::beast::role_type role, MaybeTlsStream& stream,
                             TeardownHandler&& handler) {
    using boost::beast::websocket::async_teardown;
    if (stream.tls_) {
      async_teardown(role, *stream.tls_, std::forward<TeardownHandler>(handler));
    } else {
      async_teardown(role, *stream.tcp_, std::forward<TeardownHandler>(handler));
    }
  }

 private:
  // Every read and write of every Beast operation comes here with the same two types, so the TLS and TCP
  // layers below are compiled once per direction, not once per operation (erased_handler.hpp).
  void StartRead(const BufferList<boost::asio::mutable_buffer>& buffers, ErasedHandler handler) {
    if (tls_) {
      tls_->async_read_some(buffers, std::move(handler));
    } else {
      tcp_->async_read_some(buffers, std::move(handler));
    }
  }

  void StartWrite(const BufferList<boost::asio::const_buffer>& buffers, ErasedHandler handler) {
    if (tls_) {
      tls_->async_write_some(buffers, std::move(handler));
    } else {
      tcp_->async_write_some(buffers, std::move(handler));
    }
  }

  std::optional<TcpStream> tcp_;  // plain (exactly one of the two is engaged)
  std::optional<TlsStream> tls_;  // TLS
};

}  // namespace platformpp::beast_stream
