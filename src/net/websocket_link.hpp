#pragma once
// One WebSocket connection, plain or TLS, as the Gateway and the voice gateway connections use it: writes
// queued and sent one at a time in order, a close frame after the write in progress (with a grace period,
// after which the socket is simply closed: a zombie never answers), or an immediate teardown; and the one
// way to open it. Beast's WebSocket templates are compiled only in websocket_link.cpp (they cost minutes of
// compile time per translation unit), so this header includes none of them.
#include "core/asio_prelude.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace boost::asio::ssl {
class context;
}

namespace platformpp::net {
struct Url;
}

namespace platformpp::net::ws {

using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;

/// How long a close handshake may take before the socket is simply closed.
inline constexpr auto kCloseGrace = std::chrono::milliseconds(1000);

/// Used on its strand only. Handlers of a closed link find `closing` set and do nothing more.
class Link {
 public:
  virtual ~Link() = default;
  /// Reads the next whole message; Message() and GotText() describe it until the next Read. `ec` is set when
  /// the connection ended (IsCloseFrame tells a close frame from a drop).
  virtual boost::asio::awaitable<void> Read(boost::system::error_code& ec) = 0;
  virtual std::string_view Message() const = 0;
  virtual bool GotText() const = 0;
  /// Queued; frames go out one at a time, in order.
  virtual void Send(std::string text) = 0;
  /// A binary frame (the voice gateway's DAVE messages), queued with the text frames.
  virtual void SendBinary(std::string bytes) = 0;
  /// A close frame with `code` (after the write in progress), then the socket closes.
  virtual void Close(uint16_t code) = 0;
  /// Closes the socket at once, without a close frame: to the server, a drop.
  virtual void Teardown() = 0;
  /// The code of the server's close frame, if one arrived.
  virtual std::optional<int> CloseCode() const = 0;

  bool closing = false;  // we sent (or are about to send) a close frame, or tore the socket down
  bool gotHello = false;
};

/// Whether a Read error is the close handshake (rather than a drop).
bool IsCloseFrame(const boost::system::error_code& ec);

struct ConnectOptions {
  std::string userAgent;            ///< the User-Agent header of the upgrade request
  std::size_t maxMessageBytes = 0;  ///< a bigger incoming message ends the connection
  /// Bounds TCP connect + TLS handshake + WebSocket handshake (and a close handshake later). Once open, the
  /// link has no idle timeout and sends no keep-alive pings: the protocols' heartbeats detect zombies.
  std::chrono::milliseconds connectTimeout{10000};
};

enum class ConnectStage { Resolve, TcpConnect, TlsHandshake, WebSocketHandshake, Done };

struct ConnectResult {
  std::shared_ptr<Link> link;               ///< null when the connection failed or `stopped` turned true
  ConnectStage stage = ConnectStage::Done;  ///< the stage that failed
  /// e.g. "connect to host:443: Connection refused", "TLS handshake (certificate: ...)"; log-safe.
  std::string failure;
};

/// Resolves, connects TCP (no delay), for wss:// does the TLS handshake against `tls` with SNI and
/// host-name verification, then the WebSocket handshake to `url.target`. All I/O runs on `strand`; the link
/// uses it too. While a stage waits, `abort` holds what cancels it (the caller's interruption calls it); it
/// is cleared on return. After each stage, `stopped()` true ends the attempt as a failure of that stage.
/// `url` is ws:// or wss://; `tls` is used (and must be non-null) for wss:// only and must outlive the link.
boost::asio::awaitable<ConnectResult> Connect(const Strand& strand, boost::asio::ssl::context* tls,
                                              const Url& url, const ConnectOptions& options,
                                              std::function<void()>& abort,
                                              const std::function<bool()>& stopped);

}  // namespace platformpp::net::ws
