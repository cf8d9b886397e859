// The DAVE media frame: ULEB128, the trailer, AES-128-GCM with the 8-byte tag, and refusals of bad frames.
#include "voice/dave/frame.hpp"

#include <openssl/evp.h>

#include <doctest/doctest.h>

#include <array>
#include <vector>

namespace dave_frame_test {

using namespace platformpp::voice::dave;
using Bytes = std::vector<uint8_t>;

const std::array<uint8_t, kKeySize> kKey = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

// The full 16-byte GCM tag straight from OpenSSL, for a known answer independent of FrameCipher.
std::array<uint8_t, 16> FullTag(const Bytes& plaintext, uint32_t nonce, Bytes& ciphertext) {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  const auto iv = GcmNonce(nonce);
  EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), nullptr, kKey.data(), iv.data());
  ciphertext.resize(plaintext.size());
  int n = 0;
  EVP_EncryptUpdate(ctx, ciphertext.data(), &n, plaintext.data(), static_cast<int>(plaintext.size()));
  EVP_EncryptFinal_ex(ctx, ciphertext.data() + n, &n);
  std::array<uint8_t, 16> tag{};
  EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag.data());
  EVP_CIPHER_CTX_free(ctx);
  return tag;
}

TEST_CASE("DAVE ULEB128: values, sizes and refusals") {
  for (auto [value, size] : {std::pair<uint64_t, std::size_t>{0, 1},
                             {127, 1},
                             {128, 2},
                             {16383, 2},
                             {16384, 3},
                             {UINT32_MAX, 5},
                             {UINT64_MAX, 10}}) {
    std::array<uint8_t, 10> buffer{};
    CHECK(WriteUleb128(value, buffer) == size);
    std::size_t at = 0;
    uint64_t back = 0;
    CHECK(ReadUleb128(std::span<const uint8_t>(buffer.data(), size), at, back));
    CHECK(back == value);
    CHECK(at == size);
    // One byte short does not read.
    at = 0;
    CHECK_FALSE(ReadUleb128(std::span<const uint8_t>(buffer.data(), size - 1), at, back));
  }
  std::array<uint8_t, 1> tooSmall{};
  CHECK(WriteUleb128(128, tooSmall) == 0);
  // Eleven bytes, and a tenth byte carrying more than the 64th bit.
  const Bytes eleven(11, 0x80);
  std::size_t at = 0;
  uint64_t value = 0;
  CHECK_FALSE(ReadUleb128(eleven, at, value));
  Bytes overflow(9, 0xff);
  overflow.push_back(0x02);
  at = 0;
  CHECK_FALSE(ReadUleb128(overflow, at, value));
  overflow.back() = 0x01;
  at = 0;
  CHECK(ReadUleb128(overflow, at, value));
  CHECK(value == UINT64_MAX);
}

TEST_CASE("DAVE frame: sealed as the protocol lays it out, opened back, tag truncated to 8 bytes") {
  FrameCipher cipher;
  const Bytes opus = {0x78, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  for (uint32_t nonce : {1u, 300u, 0x01000002u, UINT32_MAX}) {
    INFO("nonce " << nonce);
    Bytes frame(opus.size() + kMaxAudioOverhead);
    const std::size_t size = cipher.Seal(kKey, nonce, opus, frame);
    REQUIRE(size > opus.size());
    frame.resize(size);
    // Trailer: tag, ULEB128 nonce, size byte, FA FA.
    CHECK(frame[size - 1] == 0xFA);
    CHECK(frame[size - 2] == 0xFA);
    std::array<uint8_t, 5> uleb{};
    const std::size_t nonceSize = WriteUleb128(nonce, uleb);
    CHECK(frame[size - 3] == kTagSize + nonceSize + 3);
    CHECK(size == opus.size() + kTagSize + nonceSize + 3);
    // Known answer: the ciphertext and the first 8 bytes of OpenSSL's full tag.
    Bytes ciphertext;
    const auto tag = FullTag(opus, nonce, ciphertext);
    CHECK(Bytes(frame.begin(), frame.begin() + static_cast<long>(opus.size())) == ciphertext);
    CHECK(Bytes(frame.begin() + static_cast<long>(opus.size()),
                frame.begin() + static_cast<long>(opus.size() + 8)) == Bytes(tag.begin(), tag.begin() + 8));

    ParsedFrame parsed;
    REQUIRE(ParseFrame(frame, parsed) == FrameError::None);
    CHECK(parsed.nonce == nonce);
    CHECK(parsed.body.size() == opus.size());
    CHECK(parsed.rangeCount == 0);
    CHECK(GenerationOf(parsed.nonce) == nonce >> 24);
    Bytes clear(parsed.body.size());
    CHECK(cipher.Open(kKey, parsed, clear) == static_cast<long>(opus.size()));
    CHECK(clear == opus);

    // A flipped byte of the body or the tag, or another key: refused.
    for (std::size_t flip : {std::size_t{0}, opus.size(), opus.size() + 7}) {
      Bytes bad = frame;
      bad[flip] ^= 1;
      ParsedFrame badParsed;
      REQUIRE(ParseFrame(bad, badParsed) == FrameError::None);
      CHECK(cipher.Open(kKey, badParsed, clear) == -1);
    }
    std::array<uint8_t, kKeySize> otherKey = kKey;
    otherKey[0] ^= 1;
    CHECK(cipher.Open(otherKey, parsed, clear) == -1);
  }
}

Bytes Trailer(const Bytes& body, const Bytes& fields) {
  Bytes frame = body;
  frame.insert(frame.end(), kTagSize, 0xAA);
  frame.insert(frame.end(), fields.begin(), fields.end());
  frame.push_back(static_cast<uint8_t>(kTagSize + fields.size() + 3));
  frame.push_back(0xFA);
  frame.push_back(0xFA);
  return frame;
}

TEST_CASE("DAVE frame: malformed trailers are refused by reason") {
  ParsedFrame parsed;
  const Bytes body(20, 1);
  CHECK(ParseFrame(Bytes{}, parsed) == FrameError::NoMarker);
  CHECK(ParseFrame(Bytes{1, 2, 3, 0xFA}, parsed) == FrameError::NoMarker);
  CHECK(ParseFrame(Bytes{0xF8, 0xFF, 0xFE}, parsed) ==
        FrameError::NoMarker);  // the silence frame is not DAVE
  // The size byte: below the minimum (tag + 1-byte nonce + 3), and larger than the frame.
  Bytes small = Trailer(body, {5});
  small[small.size() - 3] = kTagSize + 1 + 3 - 1;
  CHECK(ParseFrame(small, parsed) == FrameError::BadTrailer);
  Bytes large = Trailer(body, {5});
  large[large.size() - 3] = static_cast<uint8_t>(large.size() + 1);
  CHECK(ParseFrame(large, parsed) == FrameError::BadTrailer);
  large[large.size() - 3] = static_cast<uint8_t>(large.size());  // the whole frame is trailer: no body
  CHECK(ParseFrame(large, parsed) != FrameError::None);
  // The nonce: truncated, and over 32 bits.
  CHECK(ParseFrame(Trailer(body, {0x80}), parsed) == FrameError::BadNonce);
  CHECK(ParseFrame(Trailer(body, {0xff, 0xff, 0xff, 0xff, 0x10}), parsed) == FrameError::BadNonce);
  CHECK(ParseFrame(Trailer(body, {0xff, 0xff, 0xff, 0xff, 0x0f}), parsed) == FrameError::None);
  CHECK(parsed.nonce == UINT32_MAX);
  // Ranges: in order and within the body parse; overlapping, past the end, or too many do not.
  CHECK(ParseFrame(Trailer(body, {7, 0, 4, 10, 2}), parsed) == FrameError::None);
  CHECK(parsed.rangeCount == 2);
  CHECK(parsed.ranges[1].offset == 10);
  CHECK(ParseFrame(Trailer(body, {7, 0, 4, 3, 2}), parsed) == FrameError::BadRanges);
  CHECK(ParseFrame(Trailer(body, {7, 18, 2}), parsed) == FrameError::None);
  CHECK(ParseFrame(Trailer(body, {7, 18, 3}), parsed) == FrameError::BadRanges);
  CHECK(ParseFrame(Trailer(body, {7, 18}), parsed) == FrameError::BadRanges);  // half a pair
  Bytes many = {7};
  for (uint8_t i = 0; i <= kMaxRanges; ++i) {
    many.push_back(i);
    many.push_back(1);
  }
  CHECK(ParseFrame(Trailer(body, many), parsed) == FrameError::BadRanges);
  many.resize(many.size() - 2);
  CHECK(ParseFrame(Trailer(body, many), parsed) == FrameError::None);
  // A frame with clear ranges is not an audio frame: Open refuses it.
  FrameCipher cipher;
  Bytes out(body.size());
  CHECK(cipher.Open(kKey, parsed, out) == -1);
}

}  // namespace dave_frame_test
