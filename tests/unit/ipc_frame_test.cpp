// IPC framing: the byte layout, the 64 KiB limit crossed by one, and a decoder fed the way sockets deliver.
#include "ipc/ipc_frame.hpp"

#include <doctest/doctest.h>

#include <string>

namespace ipc_frame_test {

using namespace platformpp::ipc;

namespace {

std::string Header(uint32_t opcode, uint32_t length) {
  std::string out;
  for (uint32_t value : {opcode, length}) {
    for (int i = 0; i < 4; ++i)
      out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  }
  return out;
}

}  // namespace

TEST_CASE("ipc frame: encoding is a little-endian opcode and length, then the payload") {
  std::string frame = EncodeIpcFrame(IpcOpcode::Close, "{\"a\":1}");
  REQUIRE(frame.size() == 8 + 7);
  CHECK(frame.substr(0, 8) == std::string("\x02\x00\x00\x00\x07\x00\x00\x00", 8));
  CHECK(frame.substr(8) == "{\"a\":1}");

  std::string big = EncodeIpcFrame(IpcOpcode::Frame, std::string(0x010203, 'x'));
  CHECK(big.substr(0, 8) == std::string("\x01\x00\x00\x00\x03\x02\x01\x00", 8));
  CHECK(std::string(IpcOpcodeName(IpcOpcode::Pong)) == "PONG");
}

TEST_CASE("ipc frame: every opcode round-trips through the decoder") {
  for (IpcOpcode opcode :
       {IpcOpcode::Handshake, IpcOpcode::Frame, IpcOpcode::Close, IpcOpcode::Ping, IpcOpcode::Pong}) {
    IpcFrameDecoder decoder;
    REQUIRE(decoder.Feed(EncodeIpcFrame(opcode, "{\"v\":1}")));
    auto frame = decoder.Next();
    REQUIRE(frame);
    CHECK(frame->opcode == opcode);
    CHECK(frame->payload == "{\"v\":1}");
    CHECK_FALSE(decoder.Next());
    CHECK(decoder.Finish());
    CHECK_FALSE(decoder.Truncated());
  }
  IpcFrameDecoder empty;
  REQUIRE(empty.Feed(EncodeIpcFrame(IpcOpcode::Ping, "")));
  auto frame = empty.Next();
  REQUIRE(frame);
  CHECK(frame->payload.empty());
}

TEST_CASE(
    "ipc frame: exactly 64 KiB of payload is accepted, 64 KiB + 1 refused as soon as the header is read") {
  IpcFrameDecoder atLimit;
  REQUIRE(atLimit.Feed(EncodeIpcFrame(IpcOpcode::Frame, std::string(kMaxIpcFrameBytes, 'a'))));
  auto frame = atLimit.Next();
  REQUIRE(frame);
  CHECK(frame->payload.size() == 64 * 1024);

  IpcFrameDecoder over;
  CHECK_FALSE(over.Feed(Header(1, kMaxIpcFrameBytes + 1)));  // no payload byte needed to refuse it
  CHECK(over.Failed());
  CHECK(over.Error().find("65537") != std::string::npos);
  CHECK(over.Buffered() == 0);
  CHECK_FALSE(over.Feed("more"));  // sticky
  CHECK_FALSE(over.Next());
  CHECK_FALSE(over.Finish());
  CHECK_FALSE(over.Truncated());

  IpcFrameDecoder huge;
  CHECK_FALSE(huge.Feed(Header(1, 0xFFFFFFFFu)));
}

TEST_CASE("ipc frame: a header split over chunks, and a payload byte by byte") {
  std::string wire = EncodeIpcFrame(IpcOpcode::Frame, "{\"cmd\":\"DISPATCH\"}");
  IpcFrameDecoder decoder;
  for (std::size_t i = 0; i + 1 < wire.size(); ++i) {
    REQUIRE(decoder.Feed(wire.substr(i, 1)));
    CHECK_FALSE(decoder.Next());
    CHECK(decoder.Buffered() == i + 1);
  }
  REQUIRE(decoder.Feed(wire.substr(wire.size() - 1)));
  auto frame = decoder.Next();
  REQUIRE(frame);
  CHECK(frame->payload == "{\"cmd\":\"DISPATCH\"}");
  CHECK(decoder.Buffered() == 0);
  CHECK(decoder.Finish());
}

TEST_CASE("ipc frame: several frames in one chunk, the last one incomplete") {
  std::string wire = EncodeIpcFrame(IpcOpcode::Ping, "1") + EncodeIpcFrame(IpcOpcode::Frame, "{}") +
                     EncodeIpcFrame(IpcOpcode::Close, "{\"code\":4000}");
  IpcFrameDecoder decoder;
  REQUIRE(decoder.Feed(wire.substr(0, wire.size() - 3)));
  auto a = decoder.Next();
  auto b = decoder.Next();
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->opcode == IpcOpcode::Ping);
  CHECK(a->payload == "1");
  CHECK(b->opcode == IpcOpcode::Frame);
  CHECK_FALSE(decoder.Next());
  REQUIRE(decoder.Feed(wire.substr(wire.size() - 3)));
  auto c = decoder.Next();
  REQUIRE(c);
  CHECK(c->opcode == IpcOpcode::Close);
  CHECK(c->payload == "{\"code\":4000}");
}

TEST_CASE("ipc frame: an unknown opcode is an error; frames before it are still delivered") {
  IpcFrameDecoder decoder;
  CHECK_FALSE(decoder.Feed(EncodeIpcFrame(IpcOpcode::Pong, "{}") + Header(5, 2) + "{}"));
  CHECK(decoder.Failed());
  CHECK(decoder.Error() == "unknown opcode 5");
  auto frame = decoder.Next();
  REQUIRE(frame);
  CHECK(frame->opcode == IpcOpcode::Pong);
  CHECK_FALSE(decoder.Next());
}

TEST_CASE("ipc frame: a length that lies is found when the stream ends") {
  IpcFrameDecoder lying;
  REQUIRE(lying.Feed(Header(1, 100) + std::string(10, 'x')));
  CHECK_FALSE(lying.Next());
  CHECK_FALSE(lying.Failed());
  CHECK_FALSE(lying.Finish());
  CHECK(lying.Truncated());
  CHECK(lying.Failed());
  CHECK(lying.Error().find("100") != std::string::npos);
  CHECK(lying.Error().find("10 arrived") != std::string::npos);

  IpcFrameDecoder halfHeader;
  REQUIRE(halfHeader.Feed(std::string("\x01\x00\x00", 3)));
  CHECK_FALSE(halfHeader.Finish());
  CHECK(halfHeader.Truncated());

  IpcFrameDecoder clean;
  CHECK(clean.Finish());
}

}  // namespace ipc_frame_test
