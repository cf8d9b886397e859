#pragma once
// Transport encryption of RTP packets between a client and the voice server (docs/voice-protocol.md,
// "Transport encryption"), in the two modes the platform still supports (seed: every xsalsa20_poly1305* mode
// and plain aead_aes256_gcm were discontinued on 18 November 2024 and are never negotiated):
//   aead_aes256_gcm_rtpsize          (OpenSSL; preferred when the server offers it)
//   aead_xchacha20_poly1305_rtpsize  (libsodium; always offered, always supported)
// A sealed packet is `clear RTP part | ciphertext | 16-byte tag | u32 BE nonce`. The clear part (fixed
// header, CSRCs, extension preamble) is the additional data; the extension body is encrypted with the
// payload. The nonce is a per-sender counter written big-endian into bytes 0..3 of a zeroed 12- (GCM) or
// 24-byte (XChaCha) nonce and appended to the packet. Both directions are allocation-free: callers pass the
// output buffer.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::media_wire {

enum class TransportMode {
  AeadAes256GcmRtpsize,
  AeadXChaCha20Poly1305Rtpsize,
};

inline constexpr std::size_t kTransportKeySize = 32;
inline constexpr std::size_t kTransportTagSize = 16;
inline constexpr std::size_t kTransportNonceSuffixSize = 4;
/// Bytes a sealed packet has beyond the RTP packet it carries.
inline constexpr std::size_t kTransportOverhead = kTransportTagSize + kTransportNonceSuffixSize;

using TransportKey = std::array<uint8_t, kTransportKeySize>;

/// "aead_aes256_gcm_rtpsize" / "aead_xchacha20_poly1305_rtpsize".
std::string_view TransportModeName(TransportMode mode) noexcept;
/// A supported mode by its wire name; nullopt for every other name, the deprecated ones included.
std::optional<TransportMode> ParseTransportMode(std::string_view name) noexcept;
/// The mode to select from a server's Ready `modes`: AES-256-GCM when offered, else XChaCha20-Poly1305 when
/// offered; nullopt when neither is (deprecated modes are never chosen, whatever else is offered).
std::optional<TransportMode> ChooseTransportMode(const std::vector<std::string>& offered) noexcept;

/// Seals the packets of one sender. Not thread-safe; one per sending stream.
class TransportSealer {
 public:
  TransportSealer(TransportMode mode, const TransportKey& key);
  ~TransportSealer();
  TransportSealer(const TransportSealer&) = delete;
  TransportSealer& operator=(const TransportSealer&) = delete;

  TransportMode Mode() const noexcept { return mode_; }

  /// Seals `rtp` (a complete RTP packet: header as ParseRtpHeader reads it, then extension body and payload)
  /// into `out`, which must hold rtp.size() + kTransportOverhead bytes. Returns the bytes written, or 0 when
  /// `rtp` is not an RTP media packet or `out` is too small. Each call uses the next nonce.
  std::size_t Seal(std::span<const uint8_t> rtp, std::span<uint8_t> out) noexcept;

  /// The nonce the next Seal uses (starts at 0; wraps after 2^32 packets, about 2.7 years of 20 ms frames).
  uint32_t NextNonce() const noexcept { return nextNonce_; }
  void SetNextNonce(uint32_t nonce) noexcept { nextNonce_ = nonce; }

 private:
  struct Impl;
  TransportMode mode_;
  uint32_t nextNonce_ = 0;
  std::unique_ptr<Impl> impl_;
};

enum class OpenResult {
  Ok,
  Malformed,             // a runt, RTCP, not RTP, or an extension longer than the payload
  AuthenticationFailed,  // wrong key, or a byte of the packet was changed
  Replayed,              // a nonce already accepted, or older than the replay window
};

/// Opens the packets of one sender (one nonce sequence) and rejects replays with a sliding window over the
/// nonce, so reordered packets within the window still pass. Not thread-safe.
class TransportOpener {
 public:
  /// Nonces this far behind the newest accepted one are refused as replays.
  static constexpr uint32_t kReplayWindow = 1024;

  TransportOpener(TransportMode mode, const TransportKey& key);
  ~TransportOpener();
  TransportOpener(const TransportOpener&) = delete;
  TransportOpener& operator=(const TransportOpener&) = delete;

  TransportMode Mode() const noexcept { return mode_; }

  /// Opens `packet` into `out` (which must hold packet.size() - kTransportOverhead bytes): the clear RTP part
  /// followed by the decrypted extension body and payload, i.e. the RTP packet the sender sealed. `written`
  /// gets its size when the result is Ok. Only an authentic packet moves the replay window.
  OpenResult Open(std::span<const uint8_t> packet, std::span<uint8_t> out, std::size_t& written) noexcept;

  struct Counters {
    uint64_t opened = 0;
    uint64_t malformed = 0;
    uint64_t authenticationFailed = 0;
    uint64_t replayed = 0;
  };
  const Counters& GetCounters() const noexcept { return counters_; }

 private:
  bool AcceptNonce(uint32_t nonce) const noexcept;
  void RecordNonce(uint32_t nonce) noexcept;

  struct Impl;
  TransportMode mode_;
  bool anyAccepted_ = false;
  uint32_t newestNonce_ = 0;
  std::array<uint64_t, kReplayWindow / 64> seen_{};  // bit i: newestNonce_ - i was accepted
  Counters counters_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp::media_wire
