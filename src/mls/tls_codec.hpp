#pragma once
// The TLS presentation language as MLS uses it (RFC 9420 section 2.1.2): big-endian integers, variable-size
// vectors with a 1, 2 or 4 byte varint length, optionals as a presence byte.
//
// The Reader is for untrusted bytes: every length is checked against what remains before anything is read
// or allocated, vectors nest at most kMaxDepth deep, a message is at most kMaxMessageBytes long, and a
// violation throws mls::Error naming what was being read. It never reads past its input.

#include "mls/bytes.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace platformpp::mls {

/// The largest value a varint holds (30 bits).
constexpr uint32_t kMaxVarint = (1u << 30) - 1;
/// No MLS message DAVE handles comes near this (a 25-member Welcome is ~10 KiB).
constexpr std::size_t kMaxMessageBytes = 1 << 20;
constexpr int kMaxDepth = 16;

class Writer {
 public:
  void U8(uint8_t value) { out_.push_back(value); }
  void U16(uint16_t value);
  void U32(uint32_t value);
  void U64(uint64_t value);
  void Varint(std::size_t value);
  /// opaque data<V>
  void Vector(ByteView bytes);
  void Vector(std::string_view text) { Vector(AsBytes(text)); }
  /// Raw bytes, no length (a fixed-size field, or a nested struct already encoded).
  void Raw(ByteView bytes) { out_.insert(out_.end(), bytes.begin(), bytes.end()); }

  /// A vector of items: `write` appends the items; their total length goes in front.
  template <class F>
  void Nested(F&& write) {
    Writer inner;
    write(inner);
    Vector(inner.out_);
  }
  template <class T>
  void Optional(const std::optional<T>& value, void (*write)(Writer&, const T&)) {
    U8(value ? 1 : 0);
    if (value) write(*this, *value);
  }

  const Bytes& Data() const& noexcept { return out_; }
  Bytes Take() && noexcept { return std::move(out_); }

 private:
  Bytes out_;
};

class Reader {
 public:
  explicit Reader(ByteView input, std::string_view what = "message");
  /// A Reader only views its input: a temporary would be gone before the first read.
  explicit Reader(Bytes&& input, std::string_view what = "message") = delete;

  uint8_t U8();
  uint16_t U16();
  uint32_t U32();
  uint64_t U64();
  std::size_t Varint();
  /// opaque data<V>
  Bytes Vector();
  /// opaque data<V> that must be exactly `size` bytes long (a hash, a key).
  Bytes Vector(std::size_t size);
  /// Raw fixed-size bytes.
  Bytes Raw(std::size_t size);
  /// A presence byte: 0 or 1, anything else is an error.
  bool Present();

  /// The body of a vector of items: `read` is called with a Reader limited to the vector's bytes until they
  /// are used up; an item that runs past the end is an error.
  template <class F>
  void Items(F&& read) {
    Reader inner = Sub();
    while (!inner.Done())
      read(inner);
  }
  /// A vector whose bytes are read as one struct (`read` must use them all).
  template <class F>
  void Within(F&& read) {
    Reader inner = Sub();
    read(inner);
    inner.ExpectDone();
  }

  bool Done() const noexcept { return position_ == input_.size(); }
  std::size_t Remaining() const noexcept { return input_.size() - position_; }
  std::size_t Position() const noexcept { return position_; }
  /// The bytes read so far from `from` on (for a signature or hash over what was parsed).
  ByteView Since(std::size_t from) const { return input_.subspan(from, position_ - from); }
  /// Fails unless every byte was read.
  void ExpectDone() const;
  [[noreturn]] void Fail(std::string_view why) const;

 private:
  Reader(ByteView input, std::string_view what, int depth, std::size_t base)
      : input_(input), what_(what), depth_(depth), base_(base) {}
  Reader Sub();
  ByteView Take(std::size_t size);

  ByteView input_;
  std::size_t position_ = 0;
  std::string_view what_;
  int depth_ = 0;
  std::size_t base_ = 0;  // where input_ starts in the outermost message (for error messages)
};

}  // namespace platformpp::mls
