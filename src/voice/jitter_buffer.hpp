#pragma once
// The adaptive jitter buffer of one incoming stream (one SSRC). Packets are keyed on their RTP sequence
// number (16 bits, wrapping: order is decided by the signed 16-bit difference) and stored in preallocated
// slots; a 20 ms playout tick pops the next frame in order. It
//   - reorders, drops duplicates and packets whose turn has passed (late);
//   - reports a missing frame, with the next packet when it is already there, so the decoder can use FEC
//     (else PLC);
//   - starts playing once it holds its target delay (or the first packet has waited that long), keeps the
//     delay near the target: an underrun (nothing buffered during a talk spurt) under measured jitter
//     conceals without advancing, which adds a frame of delay (the packet is probably late); with low jitter
//     it conceals the frame and moves on (keeping the timing), and counts it lost once a later packet shows
//     it was sent (a stream that stops is concealed for a while, not lost); a buffer above target for a
//     while drops one frame;
//   - measures interarrival jitter as RFC 3550 section 6.4.1 does (transit differences, gain 1/16) and sets
//     the target to `initialFrames + floor(2 * jitter / 20 ms)`, within [minFrames, maxFrames];
//   - goes idle after a talk spurt's silence frame (F8 FF FE) or a run of underruns, and forgets the stream
//     (sequence, jitter) after `resetAfterSilenceMs` without packets.
// The default target of 2 frames keeps the added latency at 20-40 ms over a loopback path (issue 6: <= 60
// ms). Times are caller-supplied milliseconds of a monotonic clock. Push and Pop never allocate. Not
// thread-safe.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace platformpp::voice {

struct JitterBufferOptions {
  int minFrames = 1;
  int maxFrames = 10;
  int initialFrames = 2;
  uint32_t resetAfterSilenceMs = 2000;
  /// Consecutive ticks above target before one frame is dropped to bring the delay down.
  int shrinkAfterTicks = 10;
};

class JitterBuffer {
 public:
  /// Frames the buffer can hold (1.28 s): more than maxFrames so that a burst after a stall still fits.
  static constexpr std::size_t kCapacity = 64;
  /// The largest payload (an Opus packet, after any end-to-end decryption) a slot holds.
  static constexpr std::size_t kMaxPayloadSize = 1500;

  explicit JitterBuffer(JitterBufferOptions options = {}) noexcept;

  enum class PushResult { Accepted, Duplicate, Late, Invalid };
  PushResult Push(uint16_t sequence, uint32_t timestamp, std::span<const uint8_t> payload,
                  uint64_t nowMs) noexcept;

  struct Playout {
    enum class Kind {
      None,     // nothing to play (buffering, idle)
      Frame,    // `payload` is the next frame
      Missing,  // a frame is missing: conceal it, or decode FEC from `next` when it is not empty
    };
    Kind kind = Kind::None;
    uint16_t sequence = 0;
    bool underrun = false;             // Missing because nothing is buffered (not a gap in the sequence)
    std::span<const uint8_t> payload;  // valid until the next Push or Pop
    std::span<const uint8_t> next;
  };
  /// One 20 ms playout tick.
  Playout Pop(uint64_t nowMs) noexcept;

  /// Forgets everything but the counters.
  void Reset() noexcept;

  int TargetFrames() const noexcept { return targetFrames_; }
  double JitterMs() const noexcept { return jitterMs_; }
  bool Playing() const noexcept { return playing_; }
  /// Frames from the next one to play to the newest buffered (0 when empty): the current delay in frames.
  int DepthFrames() const noexcept;
  /// Whether a packet arrived within resetAfterSilenceMs of `nowMs`.
  bool Active(uint64_t nowMs) const noexcept {
    return anyPacket_ && nowMs - lastPacketMs_ <= options_.resetAfterSilenceMs;
  }

  struct Counters {
    uint64_t accepted = 0;
    uint64_t duplicate = 0;
    uint64_t late = 0;
    uint64_t invalid = 0;
    // Frames missing when due to play that the sender did send: a gap before a buffered packet, or
    // underruns a later packet showed were a gap (it came late, or one after it came). The ticks a stream
    // that simply stopped was concealed for are not losses: those sequence numbers were never sent.
    uint64_t lost = 0;
    uint64_t underruns = 0;  // ticks with nothing buffered during a talk spurt (delay grew)
    uint64_t dropped = 0;    // frames dropped to shrink the delay
    uint64_t resets = 0;
  };
  const Counters& GetCounters() const noexcept { return counters_; }

 private:
  struct Slot {
    bool used = false;
    uint16_t sequence = 0;
    uint16_t size = 0;
    std::array<uint8_t, kMaxPayloadSize> data{};
  };

  Slot& SlotFor(uint16_t sequence) noexcept { return slots_[sequence % kCapacity]; }
  void UpdateJitter(uint32_t timestamp, uint64_t nowMs) noexcept;
  void ConfirmLosses(uint16_t arrived) noexcept;
  void Release(Slot& slot) noexcept;

  JitterBufferOptions options_;
  std::array<Slot, kCapacity> slots_{};
  int count_ = 0;
  bool playing_ = false;
  uint16_t nextSequence_ = 0;    // the next to play (while buffering: the oldest buffered)
  uint16_t newestSequence_ = 0;  // the newest buffered, valid when count_ > 0
  bool havePlayed_ = false;
  uint16_t lastPlayed_ = 0;    // the last sequence played or concealed
  uint16_t lastReceived_ = 0;  // the last sequence played from a packet
  bool lastWasSilence_ = false;
  uint64_t bufferingSinceMs_ = 0;
  int underrunRun_ = 0;
  int aboveTargetTicks_ = 0;
  // Underruns that moved on (low jitter) and that no packet has yet shown to be losses: from
  // `unconfirmedFrom_`, `unconfirmed_` sequences. Dropped when the talk spurt ends.
  uint16_t unconfirmedFrom_ = 0;
  int unconfirmed_ = 0;

  bool anyPacket_ = false;
  uint64_t lastPacketMs_ = 0;
  bool haveTransit_ = false;
  uint64_t lastArrivalMs_ = 0;
  uint32_t lastTimestamp_ = 0;
  double jitterMs_ = 0;
  int targetFrames_ = 2;

  Counters counters_;
};

}  // namespace platformpp::voice
