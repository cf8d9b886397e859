#include "voice/jitter_buffer.hpp"

#include "voice/opus_toc.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace platformpp::voice {

namespace {

constexpr double kFrameMs = 20.0;
constexpr double kSamplesPerMs = 48.0;

// Signed distance from b to a on the 16-bit sequence circle.
int SequenceDelta(uint16_t a, uint16_t b) noexcept {
  return static_cast<int16_t>(static_cast<uint16_t>(a - b));
}

}  // namespace

JitterBuffer::JitterBuffer(JitterBufferOptions options) noexcept : options_(options) {
  options_.minFrames = std::clamp(options_.minFrames, 1, static_cast<int>(kCapacity) / 2);
  options_.maxFrames = std::clamp(options_.maxFrames, options_.minFrames, static_cast<int>(kCapacity) / 2);
  options_.initialFrames = std::clamp(options_.initialFrames, options_.minFrames, options_.maxFrames);
  options_.shrinkAfterTicks = std::max(options_.shrinkAfterTicks, 1);
  targetFrames_ = options_.initialFrames;
}

void JitterBuffer::Reset() noexcept {
  for (auto& slot : slots_)
    slot.used = false;
  count_ = 0;
  playing_ = false;
  havePlayed_ = false;
  lastWasSilence_ = false;
  underrunRun_ = 0;
  aboveTargetTicks_ = 0;
  unconfirmed_ = 0;
  anyPacket_ = false;
  haveTransit_ = false;
  jitterMs_ = 0;
  targetFrames_ = options_.initialFrames;
  ++counters_.resets;
}

int JitterBuffer::DepthFrames() const noexcept {
  if (count_ == 0) return 0;
  return SequenceDelta(newestSequence_, nextSequence_) + 1;
}

void JitterBuffer::UpdateJitter(uint32_t timestamp, uint64_t nowMs) noexcept {
  if (haveTransit_) {
    const auto timestampDelta = static_cast<int32_t>(timestamp - lastTimestamp_);
    // A gap of more than a second is a pause in speech, not network jitter.
    if (std::abs(timestampDelta) <= 48000) {
      const double arrivalDelta = static_cast<double>(static_cast<int64_t>(nowMs - lastArrivalMs_));
      const double d = arrivalDelta - timestampDelta / kSamplesPerMs;
      jitterMs_ += (std::abs(d) - jitterMs_) / 16.0;
    }
  }
  haveTransit_ = true;
  lastArrivalMs_ = nowMs;
  lastTimestamp_ = timestamp;
  const int extra = static_cast<int>(std::floor(2.0 * jitterMs_ / kFrameMs));
  targetFrames_ = std::clamp(options_.initialFrames + extra, options_.minFrames, options_.maxFrames);
}

void JitterBuffer::ConfirmLosses(uint16_t arrived) noexcept {
  if (unconfirmed_ == 0) return;
  // The sender numbers every packet it sends: one numbered at or after a sequence concealed as an underrun
  // shows that that one was sent too. A jump of a window or more is a new numbering, which shows nothing.
  const int delta = SequenceDelta(arrived, unconfirmedFrom_);
  if (delta < 0 || delta >= static_cast<int>(kCapacity)) return;
  const int confirmed = std::min(delta + 1, unconfirmed_);
  counters_.lost += static_cast<uint64_t>(confirmed);
  unconfirmedFrom_ = static_cast<uint16_t>(unconfirmedFrom_ + confirmed);
  unconfirmed_ -= confirmed;
}

JitterBuffer::PushResult JitterBuffer::Push(uint16_t sequence, uint32_t timestamp,
                                            std::span<const uint8_t> payload, uint64_t nowMs) noexcept {
  if (payload.empty() || payload.size() > kMaxPayloadSize) {
    ++counters_.invalid;
    return PushResult::Invalid;
  }
  if (anyPacket_ && nowMs - lastPacketMs_ > options_.resetAfterSilenceMs) Reset();
  ConfirmLosses(sequence);
  const constexpr int kWindow = static_cast<int>(kCapacity);

  if (playing_) {
    const int ahead = SequenceDelta(sequence, nextSequence_);
    if (ahead < 0) {
      ++counters_.late;
      return PushResult::Late;
    }
    if (ahead >= kWindow) Reset();  // the sender jumped far ahead: start over from this packet
  } else if (count_ > 0) {
    if (havePlayed_ && SequenceDelta(sequence, lastPlayed_) <= 0) {
      ++counters_.late;
      return PushResult::Late;
    }
    const int ahead = SequenceDelta(sequence, nextSequence_);
    if (ahead < 0) {
      if (SequenceDelta(newestSequence_, sequence) >= kWindow) {
        ++counters_.late;
        return PushResult::Late;
      }
      nextSequence_ = sequence;  // a new oldest while buffering
    } else if (ahead >= kWindow) {
      Reset();
    }
  } else if (havePlayed_ && SequenceDelta(sequence, lastPlayed_) <= 0) {
    ++counters_.late;
    return PushResult::Late;
  }

  if (count_ == 0 && !playing_) {
    nextSequence_ = sequence;
    newestSequence_ = sequence;
    bufferingSinceMs_ = nowMs;
  }
  Slot& slot = SlotFor(sequence);
  if (slot.used) {
    // Inside the window a used slot holds this very sequence.
    ++counters_.duplicate;
    return PushResult::Duplicate;
  }
  anyPacket_ = true;
  lastPacketMs_ = nowMs;
  UpdateJitter(timestamp, nowMs);
  slot.used = true;
  slot.sequence = sequence;
  slot.size = static_cast<uint16_t>(payload.size());
  std::memcpy(slot.data.data(), payload.data(), payload.size());
  if (count_ == 0 || SequenceDelta(sequence, newestSequence_) > 0) newestSequence_ = sequence;
  ++count_;
  ++counters_.accepted;
  return PushResult::Accepted;
}

void JitterBuffer::Release(Slot& slot) noexcept {
  slot.used = false;
  --count_;
}

JitterBuffer::Playout JitterBuffer::Pop(uint64_t nowMs) noexcept {
  Playout out;
  if (anyPacket_ && count_ == 0 && nowMs - lastPacketMs_ > options_.resetAfterSilenceMs) {
    Reset();
    return out;
  }
  if (!playing_) {
    if (count_ == 0) return out;
    const bool deepEnough = DepthFrames() >= targetFrames_;
    const bool waitedEnough = nowMs - bufferingSinceMs_ >= static_cast<uint64_t>(targetFrames_) * 20;
    if (!deepEnough && !waitedEnough) return out;
    playing_ = true;
    underrunRun_ = 0;
    aboveTargetTicks_ = 0;
  }

  if (count_ == 0) {
    // Nothing buffered during a talk spurt: it ended (its silence frame was played, or too long without
    // packets), or the next packet is lost or late.
    if (lastWasSilence_ || underrunRun_ >= options_.maxFrames) {
      playing_ = false;
      lastPlayed_ = lastReceived_;  // concealed sequences stay open for the next spurt
      unconfirmed_ = 0;             // and were not lost: the stream stopped, or its next spurt plays them
      return out;
    }
    ++underrunRun_;
    ++counters_.underruns;
    out.kind = Playout::Kind::Missing;
    out.sequence = nextSequence_;
    if (targetFrames_ > options_.initialFrames) {
      // Under measured jitter the packet is probably late: conceal without advancing, which adds a frame of
      // delay, and play it when it comes.
      out.underrun = true;
    } else {
      // Low jitter: it is more likely lost; conceal it and keep the timing. A loss once a later packet
      // shows it was sent (ConfirmLosses).
      if (unconfirmed_ == 0) unconfirmedFrom_ = nextSequence_;
      ++unconfirmed_;
      havePlayed_ = true;
      lastPlayed_ = nextSequence_;
      ++nextSequence_;
    }
    return out;
  }
  underrunRun_ = 0;

  if (DepthFrames() > targetFrames_) {
    if (++aboveTargetTicks_ >= options_.shrinkAfterTicks && SlotFor(nextSequence_).used) {
      // Steadily above target: drop one frame to bring the delay down.
      Release(SlotFor(nextSequence_));
      havePlayed_ = true;
      lastPlayed_ = nextSequence_;
      ++nextSequence_;
      ++counters_.dropped;
      aboveTargetTicks_ = 0;
    }
  } else {
    aboveTargetTicks_ = 0;
  }

  Slot& slot = SlotFor(nextSequence_);
  out.sequence = nextSequence_;
  havePlayed_ = true;
  lastPlayed_ = nextSequence_;
  if (slot.used && slot.sequence == nextSequence_) {
    out.kind = Playout::Kind::Frame;
    out.payload = std::span<const uint8_t>(slot.data.data(), slot.size);
    lastWasSilence_ = IsOpusSilenceFrame(out.payload);
    lastReceived_ = nextSequence_;
    Release(slot);  // the bytes stay valid until a Push reuses the slot
  } else {
    out.kind = Playout::Kind::Missing;
    ++counters_.lost;
    lastWasSilence_ = false;
    const Slot& next = SlotFor(static_cast<uint16_t>(nextSequence_ + 1));
    if (next.used && next.sequence == static_cast<uint16_t>(nextSequence_ + 1))
      out.next = std::span<const uint8_t>(next.data.data(), next.size);
  }
  ++nextSequence_;
  return out;
}

}  // namespace platformpp::voice
