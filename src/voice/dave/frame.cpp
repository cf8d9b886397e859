#include "voice/dave/frame.hpp"

#include <openssl/evp.h>

#include <cstring>

namespace platformpp::voice::dave {

std::size_t WriteUleb128(uint64_t value, std::span<uint8_t> out) noexcept {
  std::size_t at = 0;
  do {
    if (at >= out.size()) return 0;
    uint8_t byte = static_cast<uint8_t>(value & 0x7f);
    value >>= 7;
    if (value != 0) byte |= 0x80;
    out[at++] = byte;
  } while (value != 0);
  return at;
}

bool ReadUleb128(std::span<const uint8_t> in, std::size_t& at, uint64_t& value) noexcept {
  value = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (at >= in.size()) return false;
    const uint8_t byte = in[at++];
    const uint64_t bits = byte & 0x7f;
    if (shift == 63 && bits > 1) return false;  // over 64 bits
    value |= bits << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;  // more than 10 bytes
}

FrameError ParseFrame(std::span<const uint8_t> frame, ParsedFrame& out) noexcept {
  const std::size_t size = frame.size();
  if (size < 2 || frame[size - 1] != kMarkerByte || frame[size - 2] != kMarkerByte)
    return FrameError::NoMarker;
  if (size < 3) return FrameError::BadTrailer;
  const std::size_t trailerSize = frame[size - 3];
  // At least the tag, a one-byte nonce, the size byte and the marker.
  if (trailerSize < kTagSize + 1 + 1 + 2 || trailerSize > size) return FrameError::BadTrailer;
  const std::span<const uint8_t> trailer = frame.last(trailerSize);
  out.body = frame.first(size - trailerSize);
  out.tag = trailer.first(kTagSize);
  // The nonce and ranges lie between the tag and the size byte.
  const std::span<const uint8_t> fields = trailer.subspan(kTagSize, trailerSize - kTagSize - 3);
  std::size_t at = 0;
  uint64_t nonce = 0;
  if (!ReadUleb128(fields, at, nonce) || nonce > UINT32_MAX) return FrameError::BadNonce;
  out.nonce = static_cast<uint32_t>(nonce);
  out.rangeCount = 0;
  uint64_t end = 0;  // where the previous range ended
  while (at < fields.size()) {
    Range range;
    if (out.rangeCount == kMaxRanges) return FrameError::BadRanges;
    if (!ReadUleb128(fields, at, range.offset) || !ReadUleb128(fields, at, range.size))
      return FrameError::BadRanges;
    if (range.offset < end || range.offset > out.body.size() || range.size > out.body.size() - range.offset)
      return FrameError::BadRanges;
    end = range.offset + range.size;
    out.ranges[out.rangeCount++] = range;
  }
  return FrameError::None;
}

std::array<uint8_t, 12> GcmNonce(uint32_t nonce) noexcept {
  std::array<uint8_t, 12> full{};
  for (int i = 0; i < 4; ++i)
    full[8 + i] = static_cast<uint8_t>(nonce >> (8 * i));
  return full;
}

struct FrameCipher::Context {
  EVP_CIPHER_CTX* ctx = nullptr;
};

FrameCipher::FrameCipher() : context_(new Context) {
  context_->ctx = EVP_CIPHER_CTX_new();
}

FrameCipher::~FrameCipher() {
  EVP_CIPHER_CTX_free(context_->ctx);
  delete context_;
}

std::size_t FrameCipher::Seal(std::span<const uint8_t, kKeySize> key, uint32_t nonce,
                              std::span<const uint8_t> frame, std::span<uint8_t> out) noexcept {
  EVP_CIPHER_CTX* ctx = context_->ctx;
  if (!ctx || frame.size() > INT32_MAX || out.size() < frame.size() + kMaxAudioOverhead) return 0;
  const std::array<uint8_t, 12> iv = GcmNonce(nonce);
  int written = 0;
  int final = 0;
  uint8_t tag[16];
  if (EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), nullptr, key.data(), iv.data()) != 1) return 0;
  if (!frame.empty() &&
      EVP_EncryptUpdate(ctx, out.data(), &written, frame.data(), static_cast<int>(frame.size())) != 1)
    return 0;
  if (EVP_EncryptFinal_ex(ctx, out.data() + written, &final) != 1) return 0;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, sizeof tag, tag) != 1) return 0;
  std::size_t at = frame.size();
  std::memcpy(out.data() + at, tag, kTagSize);
  at += kTagSize;
  const std::size_t nonceSize = WriteUleb128(nonce, out.subspan(at));
  if (nonceSize == 0) return 0;
  at += nonceSize;
  out[at++] = static_cast<uint8_t>(kTagSize + nonceSize + 1 + 2);
  out[at++] = kMarkerByte;
  out[at++] = kMarkerByte;
  return at;
}

long FrameCipher::Open(std::span<const uint8_t, kKeySize> key, const ParsedFrame& frame,
                       std::span<uint8_t> out) noexcept {
  EVP_CIPHER_CTX* ctx = context_->ctx;
  if (!ctx || frame.rangeCount != 0 || frame.tag.size() != kTagSize || out.size() < frame.body.size() ||
      frame.body.size() > INT32_MAX)
    return -1;
  const std::array<uint8_t, 12> iv = GcmNonce(frame.nonce);
  int written = 0;
  int final = 0;
  if (EVP_DecryptInit_ex(ctx, EVP_aes_128_gcm(), nullptr, key.data(), iv.data()) != 1) return -1;
  if (!frame.body.empty() && EVP_DecryptUpdate(ctx, out.data(), &written, frame.body.data(),
                                               static_cast<int>(frame.body.size())) != 1)
    return -1;
  // GCM verifies a truncated tag against the leading bytes of the full one.
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagSize),
                          const_cast<uint8_t*>(frame.tag.data())) != 1)
    return -1;
  if (EVP_DecryptFinal_ex(ctx, out.data() + written, &final) != 1) return -1;
  return written + final;
}

}  // namespace platformpp::voice::dave
