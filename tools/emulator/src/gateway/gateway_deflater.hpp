// zlib-stream compression for the Gateway (docs/gateway-protocol.md, "Connecting"): one zlib stream per
// connection, each message ending with 00 00 ff ff. Every message is deflated on its own, ending with a full
// flush, so its bytes refer to nothing sent before them and any connection's stream can carry them: a
// dispatch to the ten members of a lobby is compressed once, and no connection keeps a deflate window (256
// KiB each at zlib's defaults, most of the emulator's memory per connection). Messages under `compress_from`
// bytes (most dispatches) go out as stored blocks: on loopback their bytes cost nothing, while deflating each
// one (a Huffman tree per message) was 7% of the emulator's CPU with 1,000 Clients chatting. READY and other
// large payloads are compressed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <boost/beast/zlib/deflate_stream.hpp>

namespace platformpp::emulator {

class GatewayDeflater {
 public:
  // What starts each connection's stream (zlib's own header: a 32 KiB window, the default level).
  static constexpr std::string_view kStreamHeader{"\x78\x9c", 2};

  static constexpr std::size_t kCompressFrom = 2048;
  static constexpr std::size_t kMaxStoredBlock = 65535;  // LEN is 16 bits

  explicit GatewayDeflater(std::size_t compress_from = kCompressFrom);

  // `text` deflated (stored when shorter than `compress_from`), ending with a full flush (its last four
  // bytes 00 00 ff ff).
  [[nodiscard]] std::string deflate(std::string_view text);
  // Appends `bytes` as stored (uncompressed) blocks, then an empty one, so `out` again ends with 00 00 ff ff.
  // For the few bytes that differ per connection after a shared deflated part (a dispatch's `,"s":N}`).
  static void append_stored(std::string& out, std::string_view bytes);
  // Whether `text` goes out stored rather than compressed (shorter than `compress_from`), in one block.
  [[nodiscard]] bool stores(std::string_view text) const noexcept {
    return text.size() < compress_from_ && text.size() <= kMaxStoredBlock;
  }
  // The header of one stored block of `size` bytes (at most 65,535): followed by those bytes as they are, it
  // is what deflate() makes of a text it stores, less the closing empty block. A dispatch body goes out from
  // where it is, with no stored copy of it.
  static void append_stored_header(std::string& out, std::size_t size);

 private:
  boost::beast::zlib::deflate_stream stream_;
  std::size_t compress_from_;
};

// The one deflater of the calling thread (dispatches are built and deflated on the service's one thread).
GatewayDeflater& thread_gateway_deflater();

}  // namespace platformpp::emulator
