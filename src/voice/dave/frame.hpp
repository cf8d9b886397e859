#pragma once
// The DAVE v1 media frame (docs/dave.md, "Frame format"): an Opus frame encrypted whole with AES-128-GCM
// under the sender's key of the generation, followed by its trailer:
//
//   ciphertext | 8-byte truncated tag | ULEB128(nonce) | ULEB128 (offset, length) pairs | u8 size | FA FA
//
// `size` counts every trailer byte after the body (tag, nonce, ranges, itself and the marker). The 12-byte
// GCM nonce is zeros with the u32 nonce little-endian in bytes 8..11; the generation of the sender key is
// nonce >> 24. Unencrypted ranges (other codecs' headers left in clear) are parsed, so that such a frame is
// read correctly, but audio frames have none.
//
// Everything here runs per frame on the voice thread: no allocation, no exception, bounded work.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace platformpp::voice::dave {

constexpr std::size_t kTagSize = 8;
constexpr std::size_t kKeySize = 16;
constexpr uint8_t kMarkerByte = 0xFA;
/// Unencrypted ranges a frame may list (the platform's video codecs use a few; audio none).
constexpr std::size_t kMaxRanges = 8;
/// tag + the longest nonce (5 bytes) + the longest ranges (2 x 10 bytes each) + size byte + marker.
constexpr std::size_t kMaxTrailer = kTagSize + 5 + kMaxRanges * 20 + 1 + 2;
/// The trailer of an audio frame: tag, nonce (up to 5 bytes), size byte, marker.
constexpr std::size_t kMaxAudioOverhead = kTagSize + 5 + 1 + 2;
/// A generation is the top byte of the nonce.
constexpr uint32_t GenerationOf(uint32_t nonce) {
  return nonce >> 24;
}

struct Range {
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct ParsedFrame {
  std::span<const uint8_t> body;  // everything before the trailer (ciphertext, and any clear ranges)
  std::span<const uint8_t> tag;   // kTagSize bytes
  uint32_t nonce = 0;
  std::array<Range, kMaxRanges> ranges{};
  std::size_t rangeCount = 0;
};

/// Why a frame was not accepted (counted by reason by the decryptor).
enum class FrameError {
  None,
  NoMarker,    ///< not a DAVE frame (no FA FA at the end)
  BadTrailer,  ///< a trailer size or field that does not fit the frame
  BadNonce,    ///< the nonce is not a valid ULEB128 u32
  BadRanges,   ///< ranges that overlap, run past the body or are too many
};

/// Reads the trailer of `frame`. The ranges must be in order, not overlap and lie within the body.
FrameError ParseFrame(std::span<const uint8_t> frame, ParsedFrame& out) noexcept;

/// Writes an unsigned LEB128 value; returns the bytes written (0 when `out` is too short).
std::size_t WriteUleb128(uint64_t value, std::span<uint8_t> out) noexcept;
/// Reads an unsigned LEB128 value of at most 64 bits from `in` at `at` (advanced); false if it runs out, is
/// longer than 10 bytes, overflows or is not minimal (a trailing zero group).
bool ReadUleb128(std::span<const uint8_t> in, std::size_t& at, uint64_t& value) noexcept;

/// The 12-byte AES-GCM nonce of a frame nonce.
std::array<uint8_t, 12> GcmNonce(uint32_t nonce) noexcept;

/// AES-128-GCM with a truncated 8-byte tag, over whole frames, with one OpenSSL context kept for the
/// stream (the key is set per frame: it changes with the generation).
class FrameCipher {
 public:
  FrameCipher();
  ~FrameCipher();
  FrameCipher(const FrameCipher&) = delete;
  FrameCipher& operator=(const FrameCipher&) = delete;

  /// Encrypts `frame` into a whole DAVE frame in `out` (frame.size() + kMaxAudioOverhead bytes suffice);
  /// returns its size, or 0 on failure.
  std::size_t Seal(std::span<const uint8_t, kKeySize> key, uint32_t nonce, std::span<const uint8_t> frame,
                   std::span<uint8_t> out) noexcept;
  /// Decrypts a parsed frame without clear ranges into `out` (body size bytes); returns the bytes written,
  /// or -1 when the tag does not verify (or the frame has ranges, which audio never has).
  long Open(std::span<const uint8_t, kKeySize> key, const ParsedFrame& frame,
            std::span<uint8_t> out) noexcept;

 private:
  struct Context;
  Context* context_;
};

}  // namespace platformpp::voice::dave
