// The zlib-stream transport: one inflate stream per connection, messages end in 00 00 ff ff.
#include "core/asio_prelude.hpp"

#include "gateway/zlib_stream.hpp"

#include <boost/beast/zlib/deflate_stream.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace gateway_zlib_stream_test {

using namespace platformpp::gateway;
namespace zlib = boost::beast::zlib;

namespace {

// What the server does: one deflate stream for the connection, a sync flush after each message, the zlib
// header (78 9c) before the first.
class Compressor {
 public:
  Compressor() { stream_.reset(6, 15, 8, zlib::Strategy::normal); }
  std::string Message(const std::string& text) {
    std::string out = first_ ? std::string("\x78\x9c", 2) : std::string();
    first_ = false;
    zlib::z_params zs;
    zs.next_in = text.data();
    zs.avail_in = text.size();
    std::vector<char> buffer(text.size() + 1024);
    for (;;) {
      zs.next_out = buffer.data();
      zs.avail_out = buffer.size();
      boost::system::error_code ec;
      stream_.write(zs, zlib::Flush::sync, ec);
      out.append(buffer.data(), buffer.size() - zs.avail_out);
      if (zs.avail_out != 0) break;
      REQUIRE((!ec || ec == zlib::error::need_buffers));
    }
    return out;
  }

 private:
  zlib::deflate_stream stream_;
  bool first_ = true;
};

std::string Suffix(const std::string& s) {
  return s.substr(s.size() - 4);
}

}  // namespace

TEST_CASE("zlib-stream: each flushed message inflates on its own, with the state carried over") {
  Compressor compressor;
  ZlibStreamDecoder decoder;
  std::string out;
  std::vector<std::string> messages = {R"({"op":10,"d":{"heartbeat_interval":41250}})", R"({"op":11})",
                                       std::string(10000, 'a') + "tail",
                                       R"({"op":0,"s":1,"t":"READY","d":{"session_id":"x"}})"};
  for (const std::string& message : messages) {
    std::string compressed = compressor.Message(message);
    CHECK(Suffix(compressed) == std::string("\x00\x00\xff\xff", 4));
    REQUIRE(decoder.Feed(compressed, out) == ZlibStreamDecoder::Result::Message);
    CHECK(out == message);
  }
}

TEST_CASE("zlib-stream: a message split over WebSocket frames completes only at 00 00 ff ff") {
  Compressor compressor;
  ZlibStreamDecoder decoder;
  std::string message =
      R"({"op":0,"s":2,"t":"MESSAGE_CREATE","d":{"content":")" + std::string(3000, 'z') + "\"}}";
  std::string first = compressor.Message("{\"op\":11}");
  std::string out;
  REQUIRE(decoder.Feed(first, out) == ZlibStreamDecoder::Result::Message);
  std::string compressed = compressor.Message(message);
  for (std::size_t at = 0; at + 1 < compressed.size(); ++at) {
    CHECK(decoder.Feed(compressed.substr(at, 1), out) == ZlibStreamDecoder::Result::NeedMore);
  }
  REQUIRE(decoder.Feed(compressed.substr(compressed.size() - 1), out) == ZlibStreamDecoder::Result::Message);
  CHECK(out == message);
}

TEST_CASE("zlib-stream: without the zlib header the stream is taken as raw deflate") {
  Compressor compressor;
  std::string compressed = compressor.Message("hello gateway").substr(2);
  ZlibStreamDecoder decoder;
  std::string out;
  REQUIRE(decoder.Feed(compressed, out) == ZlibStreamDecoder::Result::Message);
  CHECK(out == "hello gateway");
}

TEST_CASE("zlib-stream: garbage is an error, sticky until Reset, never a crash") {
  ZlibStreamDecoder decoder;
  std::string out;
  std::string garbage =
      std::string("\x78\x9c\xff\xff\xff\xff\x12\x34", 8) + std::string("\x00\x00\xff\xff", 4);
  CHECK(decoder.Feed(garbage, out) == ZlibStreamDecoder::Result::Failed);
  CHECK(decoder.Failed());
  CHECK(!decoder.Error().empty());
  Compressor compressor;
  CHECK(decoder.Feed(compressor.Message("x"), out) == ZlibStreamDecoder::Result::Failed);
  decoder.Reset();
  Compressor fresh;
  REQUIRE(decoder.Feed(fresh.Message("again"), out) == ZlibStreamDecoder::Result::Message);
  CHECK(out == "again");
}

TEST_CASE("zlib-stream: output and buffered input are bounded") {
  {
    Compressor compressor;
    ZlibStreamDecoder decoder(1000);
    std::string out;
    // Compresses to a few bytes, inflates to 1001: over.
    CHECK(decoder.Feed(compressor.Message(std::string(1001, 'a')), out) == ZlibStreamDecoder::Result::Failed);
    CHECK(decoder.Error().find("1000") != std::string::npos);
  }
  {
    Compressor compressor;
    ZlibStreamDecoder decoder(1000);
    std::string out;
    REQUIRE(decoder.Feed(compressor.Message(std::string(1000, 'a')), out) ==
            ZlibStreamDecoder::Result::Message);
    CHECK(out.size() == 1000);
  }
  {
    ZlibStreamDecoder decoder(16);
    std::string out;
    CHECK(decoder.Feed(std::string(16, 'x'), out) == ZlibStreamDecoder::Result::NeedMore);
    CHECK(decoder.Feed("y", out) == ZlibStreamDecoder::Result::Failed);
  }
}

}  // namespace gateway_zlib_stream_test
