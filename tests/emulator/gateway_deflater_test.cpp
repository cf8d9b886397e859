#include <doctest/doctest.h>

#include <array>
#include <boost/beast/zlib/inflate_stream.hpp>
#include <string>
#include <string_view>

#include "gateway/gateway_deflater.hpp"

namespace gateway_deflater_test {

using platformpp::emulator::GatewayDeflater;
namespace zlib = boost::beast::zlib;

// One connection as a zlib-stream client sees it: a single inflater for the whole connection, fed one
// WebSocket message at a time, each of which must end with 00 00 ff ff.
struct ClientStream {
  std::string receive(std::string_view message) {
    REQUIRE(message.size() >= 4);
    REQUIRE(message.substr(message.size() - 4) == std::string_view("\x00\x00\xff\xff", 4));
    if (first) {
      REQUIRE(message.substr(0, 2) == GatewayDeflater::kStreamHeader);
      message.remove_prefix(2);
      first = false;
    }
    zlib::z_params zs;
    zs.next_in = message.data();
    zs.avail_in = message.size();
    std::string out;
    std::array<char, 4096> chunk{};
    do {
      zs.next_out = chunk.data();
      zs.avail_out = chunk.size();
      boost::beast::error_code ec;
      inflater.write(zs, zlib::Flush::sync, ec);
      out.append(chunk.data(), chunk.size() - zs.avail_out);
      if (ec == zlib::error::need_buffers) break;
      REQUIRE_MESSAGE(!ec, ec.message());
    } while (zs.avail_in > 0 || zs.avail_out == 0);
    return out;
  }
  zlib::inflate_stream inflater;
  bool first = true;
};

std::string with_header(const std::string& bytes) {
  return std::string(GatewayDeflater::kStreamHeader) + bytes;
}

TEST_CASE("deflated messages refer to nothing before them: any connection's stream can carry them") {
  GatewayDeflater deflater{0};  // every message compressed, however small
  const std::string hello = R"({"op":10,"d":{"heartbeat_interval":41250}})";
  const std::string body =
      R"({"op":0,"t":"LOBBY_MESSAGE_CREATE","d":{"id":"1","content":"hello hello hello"})";
  // Each message repeats the one before it, which a deflater keeping its history would encode as a reference.
  const auto first = deflater.deflate(hello);
  const auto second = deflater.deflate(hello);
  const auto shared = deflater.deflate(body);

  // A fresh client stream decodes a message made after others: no back-reference reaches before it.
  ClientStream fresh;
  CHECK(fresh.receive(with_header(second)) == hello);
  ClientStream fresh_shared;
  CHECK(fresh_shared.receive(with_header(shared)) == body);

  // Two connections with different histories carry the same bytes, each with its own stored tail.
  ClientStream a;
  ClientStream b;
  CHECK(a.receive(with_header(first)) == hello);
  CHECK(b.receive(with_header(deflater.deflate(R"({"op":11})"))) == R"({"op":11})");
  CHECK(b.receive(second) == hello);
  for (const auto& [client, tail] :
       {std::pair{&a, std::string(R"(,"s":1})")}, {&b, std::string(R"(,"s":42})")}}) {
    std::string message = shared;
    GatewayDeflater::append_stored(message, tail);
    CHECK(client->receive(message) == body + tail);
  }
  CHECK(a.receive(deflater.deflate(hello)) == hello);
}

TEST_CASE("stored blocks hold at most 65,535 bytes each; an empty tail is only the sync marker") {
  std::string big(70'000, 'x');
  big[69'999] = 'y';
  GatewayDeflater deflater{0};
  ClientStream client;
  std::string message = with_header(deflater.deflate("{"));
  GatewayDeflater::append_stored(message, big);
  CHECK(client.receive(message) == "{" + big);

  std::string empty_tail = deflater.deflate("[]");
  GatewayDeflater::append_stored(empty_tail, "");
  CHECK(empty_tail.substr(empty_tail.size() - 5) == std::string_view("\x00\x00\x00\xff\xff", 5));
  CHECK(client.receive(empty_tail) == "[]");
}

TEST_CASE("a large message compresses") {
  std::string ready = R"({"op":0,"t":"READY","d":{"guilds":[)";
  for (int i = 0; i < 2000; ++i)
    ready += R"({"id":")" + std::to_string(1000000 + i) + R"(","unavailable":true},)";
  ready += R"({}]}})";
  GatewayDeflater deflater;
  const auto deflated = deflater.deflate(ready);
  CHECK(deflated.size() < ready.size() / 4);
  ClientStream client;
  CHECK(client.receive(with_header(deflated)) == ready);
}

TEST_CASE("a message under the threshold is stored as it is; from the threshold on it is compressed") {
  GatewayDeflater deflater;
  const std::string small(GatewayDeflater::kCompressFrom - 1, 'a');
  const std::string large(GatewayDeflater::kCompressFrom, 'a');
  const auto stored = deflater.deflate(small);
  const auto compressed = deflater.deflate(large);
  // One stored block (5 header bytes) and the empty one: the text is in it byte for byte.
  CHECK(stored.size() == small.size() + 10);
  CHECK(stored.find(small) == 5);
  CHECK(compressed.size() < large.size() / 10);
  ClientStream client;
  CHECK(client.receive(with_header(stored)) == small);
  CHECK(client.receive(compressed) == large);
  CHECK(client.receive(deflater.deflate("{}")) == "{}");
}

TEST_CASE("a stored body sent from where it is: header, the text as it is, then the stored tail") {
  GatewayDeflater deflater;
  const std::string body = R"({"op":0,"t":"LOBBY_MESSAGE_CREATE","d":{"id":"1","content":"hi"})";
  REQUIRE(deflater.stores(body));
  CHECK_FALSE(deflater.stores(std::string(GatewayDeflater::kCompressFrom, 'a')));
  CHECK_FALSE(GatewayDeflater(1'000'000).stores(std::string(GatewayDeflater::kMaxStoredBlock + 1, 'a')));
  std::string message;
  GatewayDeflater::append_stored_header(message, body.size());
  message += body;
  GatewayDeflater::append_stored(message, R"(,"s":7})");
  // The same bytes deflate() makes of the body, with the tail's block where its closing empty block was.
  const auto deflated = deflater.deflate(body);
  CHECK(message.substr(0, deflated.size() - 5) == deflated.substr(0, deflated.size() - 5));
  ClientStream client;
  CHECK(client.receive(with_header(message)) == body + R"(,"s":7})");
  CHECK(client.receive(deflater.deflate("{}")) == "{}");
}

}  // namespace gateway_deflater_test
