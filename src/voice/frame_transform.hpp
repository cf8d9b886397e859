#pragma once
// Where end-to-end encryption (the platform's DAVE protocol, next issue) plugs into the media path. It works
// on whole Opus frames, inside the transport encryption:
//
//   send:    PCM -> gate -> Opus encode -> FrameEncryptor::Encrypt -> RTP header ->
//   media_wire::TransportSealer -> UDP receive: UDP -> media_wire::TransportOpener -> RTP parse ->
//   FrameDecryptor::Decrypt -> jitter buffer -> Opus decode
//
// The pipelines never pass the silence frame F8 FF FE to a transform: it travels unencrypted (docs/dave.md,
// "Frame format"), so the transforms need not know about it. The DAVE transforms are in
// dave/frame_transforms.hpp. Both calls are on the per-frame path of the voice thread: they must not
// allocate, block or throw. A null transform in a pipeline means pass-through, which is also what
// PassThroughFrameEncryptor / PassThroughFrameDecryptor do (for tests and as the documented default).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace platformpp::voice {

class FrameEncryptor {
 public:
  virtual ~FrameEncryptor() = default;
  /// Bytes an encrypted frame may have beyond the clear frame (DAVE: tag, nonce, ranges, trailer).
  virtual std::size_t MaxOverhead() const noexcept = 0;
  /// Encrypts the Opus frame `frame` of the stream `ssrc` into `out` (frame.size() + MaxOverhead() bytes);
  /// returns the bytes written, or 0 to drop the frame (no key yet, say).
  virtual std::size_t Encrypt(uint32_t ssrc, std::span<const uint8_t> frame,
                              std::span<uint8_t> out) noexcept = 0;
};

class FrameDecryptor {
 public:
  virtual ~FrameDecryptor() = default;
  /// Decrypts a frame of `ssrc` (the sender `userId`, 0 when the SSRC is not mapped yet) that arrived at
  /// `nowMs` (the voice thread's monotonic milliseconds) into `out`, which holds frame.size() bytes (a clear
  /// frame is never longer); returns the bytes written, or 0 when the frame does not decrypt (it is dropped
  /// and counted).
  virtual std::size_t Decrypt(uint32_t ssrc, uint64_t userId, uint64_t nowMs, std::span<const uint8_t> frame,
                              std::span<uint8_t> out) noexcept = 0;
  /// Whether decrypting `frame` needs its sender's user id (an end-to-end encrypted frame: the key is the
  /// sender's). The receive pipeline holds such a frame of an SSRC not mapped yet until op 5 maps it.
  virtual bool NeedsSender(std::span<const uint8_t> /*frame*/) const noexcept { return false; }
};

class PassThroughFrameEncryptor final : public FrameEncryptor {
 public:
  std::size_t MaxOverhead() const noexcept override { return 0; }
  std::size_t Encrypt(uint32_t, std::span<const uint8_t> frame, std::span<uint8_t> out) noexcept override {
    if (out.size() < frame.size()) return 0;
    std::memcpy(out.data(), frame.data(), frame.size());
    return frame.size();
  }
};

class PassThroughFrameDecryptor final : public FrameDecryptor {
 public:
  std::size_t Decrypt(uint32_t, uint64_t, uint64_t, std::span<const uint8_t> frame,
                      std::span<uint8_t> out) noexcept override {
    if (out.size() < frame.size()) return 0;
    std::memcpy(out.data(), frame.data(), frame.size());
    return frame.size();
  }
};

}  // namespace platformpp::voice
