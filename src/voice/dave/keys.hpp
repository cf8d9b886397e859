#pragma once
// DAVE v1 media keys (docs/dave.md, "Sender keys"): each sender's base secret comes from the MLS group's
// exporter, and a hash ratchet over it gives one 16-byte key per generation (the top byte of the frame
// nonce):
//
//   base    = MLS-Exporter("Discord Secure Frames v0", LE64(sender user id), 16)
//   key_g   = ExpandWithLabel(s_g, "key", u32be(g), 16)
//   s_{g+1} = ExpandWithLabel(s_g, "secret", u32be(g), 32),  s_0 = base
//
// A receiver takes each nonce of a sender once, refuses a generation more than 250 ahead of the newest it
// has seen, and forgets generations the sender has left. The per-frame calls allocate only when a new
// generation is derived (once per 2^24 frames).

#include "mls/bytes.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

namespace platformpp::mls {
class Group;
}

namespace platformpp::voice::dave {

using MediaKey = std::array<uint8_t, 16>;

constexpr std::string_view kExporterLabel = "Discord Secure Frames v0";
constexpr uint32_t kMaxGenerationGap = 250;

/// A member's basic-credential identity: its user id as 8 bytes big-endian.
mls::Bytes IdentityOf(uint64_t userId);
/// The user id of an identity, or nullopt when it is not 8 bytes.
std::optional<uint64_t> UserIdOf(mls::ByteView identity) noexcept;

/// The exporter context of a sender: its user id, 8 bytes little-endian.
std::array<uint8_t, 8> SenderContext(uint64_t userId) noexcept;
/// A sender's base secret in the group's current epoch.
mls::Secret SenderBaseSecret(const mls::Group& group, uint64_t userId);

/// One sender's keys in one epoch.
class KeyRatchet {
 public:
  explicit KeyRatchet(mls::Secret base);

  /// The key of `generation`, or null when it is below what was erased or more than kMaxGenerationGap ahead
  /// of the newest generation derived so far.
  const MediaKey* Key(uint32_t generation);
  /// Forgets the keys of generations below `generation` (the sender has moved on).
  void EraseBelow(uint32_t generation);
  uint32_t NextGeneration() const noexcept { return next_; }

 private:
  mls::Secret secret_;  // of generation next_
  uint32_t next_ = 0;   // the next generation to derive
  uint32_t floor_ = 0;  // generations below it are gone
  std::map<uint32_t, MediaKey> keys_;
};

/// Accepts each nonce once. Nonces more than kWindow below the highest accepted are refused as well: they
/// can no longer be told from replays.
class NonceWindow {
 public:
  static constexpr uint32_t kWindow = 128;
  /// Whether `nonce` would be accepted (nothing recorded).
  bool Fresh(uint32_t nonce) const noexcept;
  void Record(uint32_t nonce) noexcept;
  bool Accept(uint32_t nonce) noexcept {
    if (!Fresh(nonce)) return false;
    Record(nonce);
    return true;
  }

 private:
  bool any_ = false;
  uint32_t highest_ = 0;
  std::array<uint64_t, kWindow / 64> seen_{};  // bit i: highest_ - i was accepted

  bool Test(uint32_t back) const noexcept { return (seen_[back / 64] >> (back % 64)) & 1; }
  void Set(uint32_t back) noexcept { seen_[back / 64] |= uint64_t{1} << (back % 64); }
  void Shift(uint32_t by) noexcept;
};

/// A sender's side: nonces from 1 upwards (pre-incremented), the key of each nonce's generation.
class SenderKeys {
 public:
  explicit SenderKeys(mls::Secret base) : ratchet_(std::move(base)) {}
  /// The next frame's nonce and key; null key when the nonce space of the epoch is used up.
  std::pair<uint32_t, const MediaKey*> Next();

 private:
  KeyRatchet ratchet_;
  uint32_t nonce_ = 0;
};

/// A receiver's view of one sender in one epoch: the ratchet and the replay window together.
class ReceiverKeys {
 public:
  explicit ReceiverKeys(mls::Secret base) : ratchet_(std::move(base)) {}
  enum class Refusal { None, Replayed, TooFarAhead, Expired };
  /// The key for a frame with `nonce`, or why there is none. A nonce is consumed only by Commit, once the
  /// frame has decrypted: a forged frame cannot burn a nonce.
  const MediaKey* KeyFor(uint32_t nonce, Refusal& why);
  void Commit(uint32_t nonce);

 private:
  KeyRatchet ratchet_;
  NonceWindow window_;
};

}  // namespace platformpp::voice::dave
