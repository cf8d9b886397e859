// The IPC frame codec, byte by byte: limits, lying lengths, unknown opcodes and frames split across reads.
#include <doctest/doctest.h>

#include <string>

#include "ipc/ipc_codec.hpp"

namespace ipc_frame_test {

using namespace platformpp::emulator;

namespace {

std::string header(std::uint32_t opcode, std::uint32_t length) {
  std::string out;
  for (const auto value : {opcode, length}) {
    for (int shift = 0; shift < 32; shift += 8)
      out.push_back(static_cast<char>((value >> shift) & 0xFFU));
  }
  return out;
}

}  // namespace

TEST_CASE("frames encode as little-endian opcode and length, then the payload") {
  const auto bytes = encode_ipc_frame(IpcOpcode::ping, "{}");
  CHECK(bytes == std::string("\x03\x00\x00\x00\x02\x00\x00\x00{}", 10));
  IpcFrameDecoder decoder;
  decoder.feed(encode_ipc_frame(IpcOpcode::handshake, R"({"v":1})") + encode_ipc_frame(IpcOpcode::frame, ""));
  auto first = decoder.next();
  REQUIRE(first);
  CHECK(first->opcode == IpcOpcode::handshake);
  CHECK(first->payload == R"({"v":1})");
  auto second = decoder.next();
  REQUIRE(second);
  CHECK(second->opcode == IpcOpcode::frame);
  CHECK(second->payload.empty());
  CHECK_FALSE(decoder.next());
  CHECK(decoder.buffered() == 0);
  CHECK(decoder.error() == IpcFrameDecoder::Error::none);
}

TEST_CASE("a 64 KiB payload is accepted, 64 KiB + 1 is refused from its header alone") {
  IpcFrameDecoder accepted;
  accepted.feed(encode_ipc_frame(IpcOpcode::frame, std::string(kIpcMaxPayload, 'a')));
  const auto frame = accepted.next();
  REQUIRE(frame);
  CHECK(frame->payload.size() == 65536);
  CHECK(accepted.error() == IpcFrameDecoder::Error::none);

  IpcFrameDecoder refused;
  refused.feed(header(1, kIpcMaxPayload + 1));  // the payload never needs to arrive
  CHECK_FALSE(refused.next());
  CHECK(refused.error() == IpcFrameDecoder::Error::too_large);
  refused.feed(std::string(10, 'x'));  // errors are final
  CHECK_FALSE(refused.next());
  CHECK(refused.error() == IpcFrameDecoder::Error::too_large);

  IpcFrameDecoder huge;
  huge.feed(header(1, 0xFFFFFFFFU));
  CHECK_FALSE(huge.next());
  CHECK(huge.error() == IpcFrameDecoder::Error::too_large);
}

TEST_CASE("a length that lies leaves an incomplete frame, never a frame") {
  IpcFrameDecoder decoder;
  decoder.feed(header(1, 100) + std::string(50, 'a'));
  CHECK_FALSE(decoder.next());
  CHECK(decoder.error() == IpcFrameDecoder::Error::none);
  CHECK(decoder.buffered() == 58);  // at end of stream: a truncated frame

  IpcFrameDecoder short_header;
  short_header.feed(std::string("\x01\x00\x00", 3));
  CHECK_FALSE(short_header.next());
  CHECK(short_header.buffered() == 3);
}

TEST_CASE("unknown opcodes are refused") {
  for (const std::uint32_t opcode : {5U, 6U, 255U, 0x80000000U}) {
    IpcFrameDecoder decoder;
    decoder.feed(header(opcode, 2) + "{}");
    CHECK_FALSE(decoder.next());
    CHECK(decoder.error() == IpcFrameDecoder::Error::unknown_opcode);
  }
  // A good frame, then a bad one: the good one is still delivered.
  IpcFrameDecoder decoder;
  decoder.feed(encode_ipc_frame(IpcOpcode::pong, "x") + header(9, 0));
  REQUIRE(decoder.next());
  CHECK_FALSE(decoder.next());
  CHECK(decoder.error() == IpcFrameDecoder::Error::unknown_opcode);
}

TEST_CASE("frames split across reads at every byte boundary") {
  const std::string stream = encode_ipc_frame(IpcOpcode::handshake, R"({"v":1,"client_id":"1"})") +
                             encode_ipc_frame(IpcOpcode::frame, R"({"cmd":"X","nonce":"n"})") +
                             encode_ipc_frame(IpcOpcode::ping, "");
  for (std::size_t split = 0; split <= stream.size(); ++split) {
    IpcFrameDecoder decoder;
    int frames = 0;
    decoder.feed(stream.substr(0, split));
    while (decoder.next())
      ++frames;
    decoder.feed(stream.substr(split));
    while (decoder.next())
      ++frames;
    CHECK(frames == 3);
    CHECK(decoder.buffered() == 0);
  }
  // One byte at a time.
  IpcFrameDecoder decoder;
  std::string payloads;
  for (const char byte : stream) {
    decoder.feed(std::string_view(&byte, 1));
    while (auto frame = decoder.next())
      payloads += frame->payload + "|";
  }
  CHECK(payloads == R"({"v":1,"client_id":"1"}|{"cmd":"X","nonce":"n"}||)");
}

}  // namespace ipc_frame_test
