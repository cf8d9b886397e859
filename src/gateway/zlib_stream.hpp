#pragma once
// The Gateway's `compress=zlib-stream` transport (docs/gateway-protocol.md, "Connecting"): the server
// compresses the whole connection as ONE zlib stream and flushes (Z_SYNC_FLUSH) after each message, so a
// message is complete when the bytes buffered so far end in 00 00 ff ff, and the inflate state carries over
// from one message to the next. Inflating uses Boost.Beast's zlib (header-only, no system zlib). Socket-free.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace platformpp::gateway {

class ZlibStreamDecoder {
 public:
  enum class Result {
    NeedMore,  ///< the bytes so far do not end a message (no 00 00 ff ff yet)
    Message,   ///< `out` holds one complete message
    Failed,    ///< corrupt stream or over a limit; Error() says why. Sticky until Reset().
  };

  /// `maxMessageBytes` bounds one inflated message and the compressed bytes buffered for it.
  explicit ZlibStreamDecoder(std::size_t maxMessageBytes = std::size_t{8} << 20);
  ~ZlibStreamDecoder();
  ZlibStreamDecoder(const ZlibStreamDecoder&) = delete;
  ZlibStreamDecoder& operator=(const ZlibStreamDecoder&) = delete;

  /// Feeds the bytes of one (binary) WebSocket message. On Message, `out` is replaced by the inflated text.
  Result Feed(std::string_view bytes, std::string& out);

  /// A new connection: a new stream.
  void Reset();

  bool Failed() const noexcept { return failed_; }
  const std::string& Error() const noexcept { return error_; }

 private:
  Result Fail(std::string error);
  Result Inflate(std::string& out);

  struct State;
  std::unique_ptr<State> state_;
  std::size_t maxMessageBytes_;
  std::string pending_;  // compressed bytes of the message being received
  bool headerDone_ = false;
  bool failed_ = false;
  std::string error_;
};

}  // namespace platformpp::gateway
