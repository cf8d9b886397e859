#pragma once
// The DAVE media transforms of one call: they turn Opus frames into DAVE frames (dave/frame.hpp) with this
// member's sender key, and back with the other members' keys. Both live on the voice thread; the DAVE
// session (network thread) hands them new keys as voice-engine commands, which run between frames, so the
// per-frame calls need no lock.
//
// The sender switches keys when a transition is executed (op 22). The receiver takes a new epoch's keys as
// soon as the group has moved (commit or welcome processed: other senders may switch first) and keeps the
// older epochs for 10 s (docs/dave.md, "Group key agreement"), trying the newest first. Clear (non-DAVE)
// frames are taken only in passthrough: protocol version 0, or for 10 s after an upgrade, while senders still
// switch. A member that is not in the group yet sends nothing and plays nothing: a call that must be
// end-to-end encrypted never carries clear audio.

#include "voice/dave/frame.hpp"
#include "voice/dave/keys.hpp"
#include "voice/frame_transform.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace platformpp::voice::dave {

/// Old epochs' receive keys (and passthrough after an upgrade) stay usable this long.
constexpr uint64_t kRetentionMs = 10'000;

/// The receive keys of one epoch: a ratchet and replay window per other member.
struct ReceiveEpoch {
  uint64_t epoch = 0;
  std::unordered_map<uint64_t, ReceiverKeys> senders;  // by user id
};

class DaveFrameEncryptor final : public FrameEncryptor {
 public:
  enum class Mode {
    Withhold,     ///< E2EE required but no key yet: frames are dropped
    PassThrough,  ///< protocol version 0: frames go out as they are
    Encrypt,
  };

  /// Starts in Withhold: nothing leaves the client until the session says how.
  DaveFrameEncryptor() = default;

  void UseKeys(std::unique_ptr<SenderKeys> keys) noexcept;
  void UsePassThrough() noexcept;
  void Withhold() noexcept;
  Mode CurrentMode() const noexcept { return mode_; }

  std::size_t MaxOverhead() const noexcept override { return kMaxAudioOverhead; }
  std::size_t Encrypt(uint32_t ssrc, std::span<const uint8_t> frame,
                      std::span<uint8_t> out) noexcept override;

  struct Counters {
    uint64_t encrypted = 0;
    uint64_t passedThrough = 0;
    uint64_t withheld = 0;
    uint64_t failed = 0;  // the epoch's nonces ran out, or the cipher failed
  };
  const Counters& GetCounters() const noexcept { return counters_; }

 private:
  Mode mode_ = Mode::Withhold;
  std::unique_ptr<SenderKeys> keys_;
  FrameCipher cipher_;
  Counters counters_;
};

class DaveFrameDecryptor final : public FrameDecryptor {
 public:
  static constexpr std::size_t kMaxEpochs = 4;

  /// The newest epoch's keys; the previous newest expires kRetentionMs after `nowMs`.
  void AddEpoch(std::unique_ptr<ReceiveEpoch> keys, uint64_t nowMs);
  /// Passthrough on at once; off leaves clear frames accepted for kRetentionMs more (senders switch when the
  /// upgrade executes, so their last clear frames are still in flight).
  void SetPassThrough(bool on, uint64_t nowMs) noexcept;
  /// Forgets every epoch (the session was reset). Passthrough is unchanged.
  void Clear() noexcept;
  std::size_t EpochCount() const noexcept { return epochs_.size(); }

  std::size_t Decrypt(uint32_t ssrc, uint64_t userId, uint64_t nowMs, std::span<const uint8_t> frame,
                      std::span<uint8_t> out) noexcept override;
  /// A DAVE frame (its marker) with keys to try: which key is the sender's.
  bool NeedsSender(std::span<const uint8_t> frame) const noexcept override;

  /// Each dropped frame counts once, under the reason that stopped it.
  struct Drops {
    uint64_t notEncrypted = 0;   ///< a clear frame while E2EE is required
    uint64_t malformed = 0;      ///< a DAVE trailer that does not parse, or ranges in audio
    uint64_t unknownSender = 0;  ///< no keys for the sender in any live epoch (or its SSRC is unmapped)
    uint64_t replayed = 0;
    uint64_t tooFarAhead = 0;     ///< a generation more than 250 beyond the newest seen
    uint64_t expired = 0;         ///< a generation the receiver has already erased
    uint64_t authentication = 0;  ///< the tag did not verify under any live epoch's key
  };
  struct Counters {
    uint64_t decrypted = 0;
    uint64_t passedThrough = 0;
    Drops drops;
  };
  const Counters& GetCounters() const noexcept { return counters_; }

 private:
  struct Entry {
    std::unique_ptr<ReceiveEpoch> keys;
    uint64_t expiresAtMs = UINT64_MAX;  // set when a newer epoch arrives
  };
  bool PassThroughAllowed(uint64_t nowMs) const noexcept {
    return passThrough_ || nowMs < passThroughUntilMs_;
  }
  void DropExpired(uint64_t nowMs) noexcept;

  std::vector<Entry> epochs_;  // oldest first
  bool passThrough_ = false;
  uint64_t passThroughUntilMs_ = 0;
  FrameCipher cipher_;
  Counters counters_;
};

/// The receive keys of `group`'s current epoch for every member but `selfUserId` (identity = big-endian u64
/// user id). Each sender's first generation is derived here, on the calling thread, not on the voice thread.
std::unique_ptr<ReceiveEpoch> MakeReceiveEpoch(const mls::Group& group, uint64_t selfUserId);
/// This member's sender keys in `group`'s current epoch.
std::unique_ptr<SenderKeys> MakeSenderKeys(const mls::Group& group, uint64_t selfUserId);

}  // namespace platformpp::voice::dave
