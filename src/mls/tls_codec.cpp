#include "mls/tls_codec.hpp"

#include <string>

namespace platformpp::mls {

void Writer::U16(uint16_t value) {
  out_.push_back(static_cast<uint8_t>(value >> 8));
  out_.push_back(static_cast<uint8_t>(value));
}

void Writer::U32(uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out_.push_back(static_cast<uint8_t>(value >> shift));
}

void Writer::U64(uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8)
    out_.push_back(static_cast<uint8_t>(value >> shift));
}

void Writer::Varint(std::size_t value) {
  if (value < (1u << 6)) {
    U8(static_cast<uint8_t>(value));
  } else if (value < (1u << 14)) {
    U16(static_cast<uint16_t>(0x4000 | value));
  } else if (value <= kMaxVarint) {
    U32(static_cast<uint32_t>(0x80000000u | value));
  } else {
    throw Error("MLS encoding: a vector of " + std::to_string(value) + " bytes is over the varint limit");
  }
}

void Writer::Vector(ByteView bytes) {
  Varint(bytes.size());
  Raw(bytes);
}

Reader::Reader(ByteView input, std::string_view what) : input_(input), what_(what) {
  if (input.size() > kMaxMessageBytes) Fail("over " + std::to_string(kMaxMessageBytes) + " bytes");
}

void Reader::Fail(std::string_view why) const {
  throw Error("MLS: malformed " + std::string(what_) + " at byte " + std::to_string(base_ + position_) +
              ": " + std::string(why));
}

ByteView Reader::Take(std::size_t size) {
  if (size > Remaining()) {
    Fail("needs " + std::to_string(size) + " bytes, " + std::to_string(Remaining()) + " left");
  }
  ByteView out = input_.subspan(position_, size);
  position_ += size;
  return out;
}

uint8_t Reader::U8() {
  return Take(1)[0];
}

uint16_t Reader::U16() {
  ByteView b = Take(2);
  return static_cast<uint16_t>((b[0] << 8) | b[1]);
}

uint32_t Reader::U32() {
  ByteView b = Take(4);
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

uint64_t Reader::U64() {
  ByteView b = Take(8);
  uint64_t value = 0;
  for (uint8_t byte : b)
    value = (value << 8) | byte;
  return value;
}

std::size_t Reader::Varint() {
  if (Remaining() < 1) Fail("a length is missing");
  const uint8_t first = input_[position_];
  std::size_t value = 0;
  switch (first >> 6) {
    case 0:
      value = U8();
      break;
    case 1:
      value = U16() & 0x3fff;
      if (value < (1u << 6)) Fail("a length is not minimally encoded");
      break;
    case 2:
      value = U32() & 0x3fffffff;
      if (value < (1u << 14)) Fail("a length is not minimally encoded");
      break;
    default:
      Fail("a length has the reserved prefix 11");
  }
  return value;
}

Bytes Reader::Vector() {
  const std::size_t size = Varint();
  ByteView bytes = Take(size);
  return Bytes(bytes.begin(), bytes.end());
}

Bytes Reader::Vector(std::size_t size) {
  const std::size_t at = position_;
  Bytes bytes = Vector();
  if (bytes.size() != size) {
    position_ = at;
    Fail("expected " + std::to_string(size) + " bytes, got " + std::to_string(bytes.size()));
  }
  return bytes;
}

Bytes Reader::Raw(std::size_t size) {
  ByteView bytes = Take(size);
  return Bytes(bytes.begin(), bytes.end());
}

bool Reader::Present() {
  const uint8_t flag = U8();
  if (flag > 1) Fail("an optional's presence byte is " + std::to_string(flag));
  return flag == 1;
}

Reader Reader::Sub() {
  if (depth_ + 1 > kMaxDepth) Fail("vectors nested over " + std::to_string(kMaxDepth) + " deep");
  const std::size_t size = Varint();
  const std::size_t start = position_;
  Take(size);
  return Reader(input_.subspan(start, size), what_, depth_ + 1, base_ + start);
}

void Reader::ExpectDone() const {
  if (!Done()) Fail(std::to_string(Remaining()) + " bytes left over");
}

}  // namespace platformpp::mls
