// The TLS presentation codec on bad bytes: every limit crossed by one gives an mls::Error, never an
// over-read (this file also runs under ASan in CI).
#include "vectors.hpp"

#include "mls/tls_codec.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <string>

namespace tls_codec_test {

using namespace platformpp::mls;

// Reads `bytes` (kept alive for the read) with `read`.
template <class F>
void Read(const Bytes& bytes, F read) {
  Reader reader(bytes);
  read(reader);
}

Bytes B(std::initializer_list<int> values) {
  Bytes out;
  for (int v : values)
    out.push_back(static_cast<uint8_t>(v));
  return out;
}

TEST_CASE("TLS codec: integers and vectors round-trip") {
  Writer w;
  w.U8(0xab);
  w.U16(0x1234);
  w.U32(0xdeadbeef);
  w.U64(0x0102030405060708ull);
  w.Vector(std::string_view("hello"));
  w.Vector(Bytes(100, 7));  // a 2-byte length
  w.Optional<uint16_t>(std::optional<uint16_t>(9), [](Writer& out, const uint16_t& v) { out.U16(v); });
  w.Optional<uint16_t>(std::nullopt, [](Writer& out, const uint16_t& v) { out.U16(v); });
  w.Nested([](Writer& inner) {
    inner.U16(1);
    inner.U16(2);
  });
  Reader r(w.Data());
  CHECK(r.U8() == 0xab);
  CHECK(r.U16() == 0x1234);
  CHECK(r.U32() == 0xdeadbeef);
  CHECK(r.U64() == 0x0102030405060708ull);
  CHECK(r.Vector() == Bytes{'h', 'e', 'l', 'l', 'o'});
  CHECK(r.Vector(100) == Bytes(100, 7));
  CHECK(r.Present());
  CHECK(r.U16() == 9);
  CHECK_FALSE(r.Present());
  std::vector<uint16_t> items;
  r.Items([&](Reader& item) { items.push_back(item.U16()); });
  CHECK(items == std::vector<uint16_t>{1, 2});
  CHECK(r.Done());
  CHECK_NOTHROW(r.ExpectDone());
}

TEST_CASE("TLS codec: varint limits, each crossed by one") {
  Writer top;
  top.Varint(kMaxVarint);
  CHECK(top.Data() == B({0xbf, 0xff, 0xff, 0xff}));
  Writer over;
  CHECK_THROWS_AS(over.Varint(std::size_t{kMaxVarint} + 1), Error);
  // 63 fits one byte, 64 needs two; 16383 two, 16384 four.
  for (auto [value, size] : {std::pair<std::size_t, std::size_t>{63, 1}, {64, 2}, {16383, 2}, {16384, 4}}) {
    Writer w;
    w.Varint(value);
    CHECK(w.Data().size() == size);
    Reader r(w.Data());
    CHECK(r.Varint() == value);
  }
  // Non-minimal encodings are refused: 63 in two bytes, 16383 in four.
  CHECK_THROWS_AS(Read(B({0x40, 0x3f}), [](Reader& r) { r.Varint(); }), Error);
  CHECK_NOTHROW(Read(B({0x40, 0x40}), [](Reader& r) { r.Varint(); }));
  CHECK_THROWS_AS(Read(B({0x80, 0x00, 0x3f, 0xff}), [](Reader& r) { r.Varint(); }), Error);
  CHECK_NOTHROW(Read(B({0x80, 0x00, 0x40, 0x00}), [](Reader& r) { r.Varint(); }));
  // The prefix 11 is reserved.
  CHECK_THROWS_AS(Read(B({0xc0}), [](Reader& r) { r.Varint(); }), Error);
  // Truncated lengths.
  CHECK_THROWS_AS(Read(B({0x40}), [](Reader& r) { r.Varint(); }), Error);
  CHECK_THROWS_AS(Read(B({0x80, 0, 0}), [](Reader& r) { r.Varint(); }), Error);
  CHECK_THROWS_AS(Read(Bytes{}, [](Reader& r) { r.Varint(); }), Error);
}

TEST_CASE("TLS codec: a length is checked against what remains, before anything is read") {
  // A vector announcing one byte more than there is.
  CHECK_THROWS_AS(Read(B({0x03, 1, 2}), [](Reader& r) { r.Vector(); }), Error);
  CHECK_NOTHROW(Read(B({0x02, 1, 2}), [](Reader& r) { r.Vector(); }));
  // A 4-byte length near 2^30 with nothing behind it: refused, nothing allocated.
  CHECK_THROWS_AS(Read(B({0xbf, 0xff, 0xff, 0xff}), [](Reader& r) { r.Vector(); }), Error);
  // Fixed sizes: one short, one long.
  CHECK_THROWS_AS(Read(B({0x02, 1, 2}), [](Reader& r) { r.Vector(3); }), Error);
  CHECK_THROWS_AS(Read(B({0x02, 1, 2}), [](Reader& r) { r.Vector(1); }), Error);
  CHECK_THROWS_AS(Read(B({1, 2}), [](Reader& r) { r.Raw(3); }), Error);
  CHECK_THROWS_AS(Read(B({1}), [](Reader& r) { r.U16(); }), Error);
  CHECK_THROWS_AS(Read(B({1, 2, 3}), [](Reader& r) { r.U32(); }), Error);
  CHECK_THROWS_AS(Read(B({1, 2, 3, 4, 5, 6, 7}), [](Reader& r) { r.U64(); }), Error);
  // An item running past the end of its vector (the vector says 3 bytes, the item reads 4).
  CHECK_THROWS_AS(Read(B({0x03, 0, 1, 0, 9}), [](Reader& r) { r.Items([](Reader& item) { item.U32(); }); }),
                  Error);
  // A struct that does not use all of its vector.
  CHECK_THROWS_AS(Read(B({0x03, 0, 1, 2}), [](Reader& r) { r.Within([](Reader& inner) { inner.U16(); }); }),
                  Error);
  // Presence bytes other than 0 and 1.
  CHECK_THROWS_AS(Read(B({2}), [](Reader& r) { r.Present(); }), Error);
  // Bytes left over.
  const Bytes two = B({1, 2});
  Reader left(two);
  left.U8();
  CHECK_THROWS_AS(left.ExpectDone(), Error);
}

TEST_CASE("TLS codec: nesting depth and message size are capped") {
  auto nested = [](int depth) {
    Bytes inner;
    for (int i = 0; i < depth; ++i) {
      Writer w;
      w.Vector(inner);
      inner = std::move(w).Take();
    }
    return inner;
  };
  std::function<void(Reader&)> descend = [&](Reader& r) {
    if (!r.Done()) r.Within(descend);
  };
  Bytes ok = nested(kMaxDepth);
  Reader fine(ok);
  CHECK_NOTHROW(descend(fine));
  Bytes deep = nested(kMaxDepth + 1);
  Reader tooDeep(deep);
  CHECK_THROWS_AS(descend(tooDeep), Error);

  Bytes big(kMaxMessageBytes + 1);
  CHECK_THROWS_AS(Reader{big}, Error);
  Bytes limit(kMaxMessageBytes);
  CHECK_NOTHROW(Reader{limit});
}

TEST_CASE("TLS codec: an error names what was read and where") {
  try {
    const Bytes truncated = B({0x05, 1, 2});
    Reader r(truncated, "KeyPackage");
    r.Vector();
    FAIL("no error");
  } catch (const Error& e) {
    const std::string message = e.what();
    CHECK(message.find("KeyPackage") != std::string::npos);
    CHECK(message.find("at byte 1") != std::string::npos);
  }
}

}  // namespace tls_codec_test
