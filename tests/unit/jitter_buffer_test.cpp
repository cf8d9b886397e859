// The per-SSRC jitter buffer without a network: ordering on the 16-bit sequence (wraparound included),
// duplicates, late packets, missing frames with the next packet for FEC, the start-up delay, adaptation of
// the target delay to measured jitter (up and back down), idling after silence frames and the long-silence
// reset.
#include "voice/jitter_buffer.hpp"
#include "voice/opus_toc.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace jitter_buffer_test {

using namespace platformpp::voice;
using Kind = JitterBuffer::Playout::Kind;

namespace {

// A payload that names its sequence, to check what comes out.
std::vector<uint8_t> PayloadFor(uint16_t sequence) {
  return {0x78, static_cast<uint8_t>(sequence >> 8), static_cast<uint8_t>(sequence)};
}

uint16_t SequenceOf(std::span<const uint8_t> payload) {
  REQUIRE(payload.size() == 3);
  return static_cast<uint16_t>(payload[1] << 8 | payload[2]);
}

JitterBuffer::PushResult PushSeq(JitterBuffer& buffer, uint16_t sequence, uint64_t nowMs) {
  return buffer.Push(sequence, static_cast<uint32_t>(sequence) * 960u, PayloadFor(sequence), nowMs);
}

}  // namespace

TEST_CASE("the jitter buffer starts after its target delay and plays in order") {
  JitterBuffer buffer;
  CHECK(buffer.TargetFrames() == 2);
  CHECK(PushSeq(buffer, 10, 0) == JitterBuffer::PushResult::Accepted);
  CHECK(buffer.Pop(0).kind == Kind::None);  // one frame buffered, target two
  CHECK(PushSeq(buffer, 11, 20) == JitterBuffer::PushResult::Accepted);
  auto out = buffer.Pop(20);
  REQUIRE(out.kind == Kind::Frame);
  CHECK(SequenceOf(out.payload) == 10);
  CHECK(PushSeq(buffer, 12, 40) == JitterBuffer::PushResult::Accepted);
  out = buffer.Pop(40);
  REQUIRE(out.kind == Kind::Frame);
  CHECK(SequenceOf(out.payload) == 11);
}

TEST_CASE("a lone first packet plays once it has waited the target delay") {
  JitterBuffer buffer;
  PushSeq(buffer, 1, 0);
  CHECK(buffer.Pop(20).kind == Kind::None);
  auto out = buffer.Pop(40);
  CHECK(out.kind == Kind::Frame);
}

TEST_CASE("reordered packets come out in order across the sequence wraparound at 65535") {
  JitterBuffer buffer(JitterBufferOptions{.initialFrames = 4});
  const uint16_t arrival[] = {65534, 0, 65535, 65533, 1};
  for (uint16_t sequence : arrival)
    CHECK(PushSeq(buffer, sequence, 0) == JitterBuffer::PushResult::Accepted);
  const uint16_t expected[] = {65533, 65534, 65535, 0, 1};
  for (uint16_t sequence : expected) {
    auto out = buffer.Pop(20);
    REQUIRE(out.kind == Kind::Frame);
    CHECK(SequenceOf(out.payload) == sequence);
  }
  CHECK(buffer.GetCounters().lost == 0);
  CHECK(buffer.GetCounters().late == 0);
}

TEST_CASE("duplicates and packets whose turn has passed are dropped") {
  JitterBuffer buffer;
  PushSeq(buffer, 100, 0);
  PushSeq(buffer, 101, 0);
  CHECK(PushSeq(buffer, 101, 1) == JitterBuffer::PushResult::Duplicate);
  CHECK(buffer.Pop(20).kind == Kind::Frame);  // 100
  CHECK(PushSeq(buffer, 100, 21) == JitterBuffer::PushResult::Late);
  CHECK(PushSeq(buffer, 99, 21) == JitterBuffer::PushResult::Late);
  CHECK(PushSeq(buffer, 102, 22) == JitterBuffer::PushResult::Accepted);
  CHECK(buffer.GetCounters().duplicate == 1);
  CHECK(buffer.GetCounters().late == 2);
  CHECK(buffer.Push(103, 0, {}, 23) == JitterBuffer::PushResult::Invalid);
  CHECK(buffer.Push(103, 0, std::vector<uint8_t>(JitterBuffer::kMaxPayloadSize + 1), 23) ==
        JitterBuffer::PushResult::Invalid);
  CHECK(buffer.Push(103, 0, std::vector<uint8_t>(JitterBuffer::kMaxPayloadSize), 23) ==
        JitterBuffer::PushResult::Accepted);
}

TEST_CASE("a missing frame is reported with the next packet for FEC, or alone for PLC") {
  JitterBuffer buffer;
  PushSeq(buffer, 1, 0);
  PushSeq(buffer, 2, 0);
  PushSeq(buffer, 4, 0);
  PushSeq(buffer, 7, 0);
  CHECK(SequenceOf(buffer.Pop(20).payload) == 1);
  CHECK(SequenceOf(buffer.Pop(40).payload) == 2);
  auto out = buffer.Pop(60);
  REQUIRE(out.kind == Kind::Missing);
  CHECK(out.sequence == 3);
  CHECK(SequenceOf(out.next) == 4);  // FEC
  CHECK(SequenceOf(buffer.Pop(80).payload) == 4);
  out = buffer.Pop(100);
  REQUIRE(out.kind == Kind::Missing);
  CHECK(out.next.empty());  // 6 is not there either: PLC
  out = buffer.Pop(120);
  REQUIRE(out.kind == Kind::Missing);
  CHECK(SequenceOf(out.next) == 7);
  CHECK(buffer.GetCounters().lost == 3);
  CHECK_FALSE(out.underrun);
}

TEST_CASE("the buffer idles after a silence frame and after too many underruns") {
  JitterBuffer buffer;
  PushSeq(buffer, 1, 0);
  buffer.Push(2, 960 * 2, kOpusSilenceFrame, 0);
  CHECK(buffer.Pop(20).kind == Kind::Frame);
  CHECK(buffer.Pop(40).kind == Kind::Frame);  // the silence frame
  CHECK(buffer.Pop(60).kind == Kind::None);   // no concealment after the spurt's end
  CHECK_FALSE(buffer.Playing());
  CHECK(buffer.GetCounters().underruns == 0);

  // Without a silence frame: conceal up to maxFrames ticks, then idle.
  JitterBuffer other(JitterBufferOptions{.maxFrames = 3});
  PushSeq(other, 1, 0);
  PushSeq(other, 2, 0);
  other.Pop(20);
  other.Pop(40);
  for (int i = 0; i < 3; ++i) {
    auto out = other.Pop(60 + 20 * static_cast<uint64_t>(i));
    CHECK(out.kind == Kind::Missing);
  }
  CHECK(other.Pop(120).kind == Kind::None);
  // The next talk spurt continues the sequence.
  CHECK(PushSeq(other, 3, 140) == JitterBuffer::PushResult::Accepted);
  CHECK(PushSeq(other, 2, 140) == JitterBuffer::PushResult::Late);
}

TEST_CASE("underruns are losses only once a later packet shows they were sent") {
  // A sender that stops without a silence frame (it left the call, or moved): its stream is concealed
  // until the buffer idles, and nothing was lost: those sequence numbers were never sent.
  JitterBuffer stopped(JitterBufferOptions{.maxFrames = 10});
  PushSeq(stopped, 1, 0);
  PushSeq(stopped, 2, 0);
  uint64_t now = 20;
  for (; stopped.Pop(now).kind != Kind::None || stopped.Playing(); now += 20) {
  }
  CHECK(stopped.GetCounters().underruns == 10);
  CHECK(stopped.GetCounters().lost == 0);
  // Its next talk spurt (the numbering goes on from 3) plays from its first packet: still nothing lost.
  CHECK(PushSeq(stopped, 3, now + 20) == JitterBuffer::PushResult::Accepted);
  CHECK(stopped.GetCounters().lost == 0);

  // A sender that pauses 60 ms mid-spurt and goes on (3, 4, 5 in a burst, then 6): the three concealed
  // frames were sent and came too late, one lost each as it arrives; 6 plays.
  JitterBuffer paused;
  PushSeq(paused, 1, 0);
  PushSeq(paused, 2, 0);
  paused.Pop(20);
  paused.Pop(40);
  for (uint64_t t = 60; t <= 100; t += 20)
    CHECK(paused.Pop(t).kind == Kind::Missing);
  CHECK(paused.GetCounters().lost == 0);
  CHECK(PushSeq(paused, 3, 105) == JitterBuffer::PushResult::Late);
  CHECK(paused.GetCounters().lost == 1);
  CHECK(PushSeq(paused, 4, 105) == JitterBuffer::PushResult::Late);
  CHECK(PushSeq(paused, 5, 105) == JitterBuffer::PushResult::Late);
  CHECK(paused.GetCounters().lost == 3);
  CHECK(PushSeq(paused, 6, 110) == JitterBuffer::PushResult::Accepted);
  CHECK(paused.GetCounters().lost == 3);
  auto out = paused.Pop(120);
  REQUIRE(out.kind == Kind::Frame);
  CHECK(SequenceOf(out.payload) == 6);

  // Two underruns, then a packet two past them (the two were lost on the way): both lost at once.
  JitterBuffer gap;
  PushSeq(gap, 1, 0);
  PushSeq(gap, 2, 0);
  gap.Pop(20);
  gap.Pop(40);
  gap.Pop(60);
  gap.Pop(80);
  CHECK(PushSeq(gap, 5, 90) == JitterBuffer::PushResult::Accepted);
  CHECK(gap.GetCounters().lost == 2);
}

TEST_CASE("an empty buffer with low jitter is a loss; under jitter it holds for the late packet") {
  JitterBuffer calm;
  PushSeq(calm, 1, 0);
  PushSeq(calm, 2, 20);
  calm.Pop(20);
  calm.Pop(40);
  auto out = calm.Pop(60);
  CHECK(out.kind == Kind::Missing);
  CHECK_FALSE(out.underrun);
  CHECK(calm.GetCounters().lost == 0);  // not yet known to have been sent
  CHECK(PushSeq(calm, 3, 70) == JitterBuffer::PushResult::Late);
  CHECK(calm.GetCounters().lost == 1);  // it was, and came too late
  CHECK(PushSeq(calm, 4, 75) == JitterBuffer::PushResult::Accepted);
  CHECK(calm.GetCounters().lost == 1);

  // Arrivals alternating 0 and 40 ms apart: about 20 ms of jitter, a target of 4 frames.
  JitterBuffer jittery;
  uint64_t now = 0;
  uint16_t sequence = 0;
  for (; sequence < 40; ++sequence) {
    now += sequence % 2 ? 0 : 40;
    PushSeq(jittery, sequence, now);
    jittery.Pop(now);
  }
  REQUIRE(jittery.TargetFrames() > 2);
  while (jittery.DepthFrames() > 0)
    jittery.Pop(now += 20);
  out = jittery.Pop(now += 20);
  CHECK(out.kind == Kind::Missing);
  CHECK(out.underrun);
  CHECK(PushSeq(jittery, sequence, now + 5) == JitterBuffer::PushResult::Accepted);
  out = jittery.Pop(now += 20);
  REQUIRE(out.kind == Kind::Frame);
  CHECK(SequenceOf(out.payload) == sequence);
}

TEST_CASE("a long silence resets the stream") {
  JitterBufferOptions options;
  options.resetAfterSilenceMs = 1000;
  JitterBuffer buffer(options);
  PushSeq(buffer, 500, 0);
  PushSeq(buffer, 501, 0);
  buffer.Pop(20);
  buffer.Pop(40);
  // 1000 ms later a lower sequence (a restarted sender) would be late...
  CHECK(PushSeq(buffer, 10, 1000) == JitterBuffer::PushResult::Late);
  // ...but after more than 1000 ms without packets the stream starts over.
  CHECK(PushSeq(buffer, 10, 2001) == JitterBuffer::PushResult::Accepted);
  CHECK(buffer.GetCounters().resets == 1);
}

TEST_CASE("the target delay adapts up under jitter and back down when it stops") {
  JitterBuffer buffer;
  std::mt19937 random(42);
  std::uniform_int_distribution<int> jitter(0, 80);
  struct Arrival {
    uint64_t at;
    uint16_t sequence;
  };
  std::vector<Arrival> arrivals;
  constexpr int kJittered = 150, kSteady = 150;
  for (int i = 0; i < kJittered + kSteady; ++i) {
    const uint64_t sent = 1000 + 20 * static_cast<uint64_t>(i);
    arrivals.push_back(
        {sent + (i < kJittered ? static_cast<uint64_t>(jitter(random)) : 100), static_cast<uint16_t>(i)});
  }
  std::stable_sort(arrivals.begin(), arrivals.end(), [](auto& a, auto& b) { return a.at < b.at; });
  int maxTarget = 0, maxDepth = 0;
  std::size_t next = 0;
  int framesPlayed = 0;
  for (uint64_t now = 1000; now < 1000 + 20 * (kJittered + kSteady) + 400; ++now) {
    while (next < arrivals.size() && arrivals[next].at <= now) {
      PushSeq(buffer, arrivals[next].sequence, now);
      ++next;
    }
    if (now % 20 == 0) {
      if (buffer.Pop(now).kind == Kind::Frame) ++framesPlayed;
      if (now < 1000 + 20 * kJittered) {
        maxTarget = std::max(maxTarget, buffer.TargetFrames());
        maxDepth = std::max(maxDepth, buffer.DepthFrames());
      }
    }
    if (now == 1000 + 20 * (kJittered + kSteady) + 80) {
      // After the steady stretch the estimate has decayed and the delay came back down.
      CHECK(buffer.TargetFrames() == 2);
      CHECK(buffer.JitterMs() < 5.0);
      CHECK(buffer.DepthFrames() <= 3);
    }
  }
  CHECK(maxTarget >= 4);
  CHECK(maxDepth >= 4);
  CHECK(framesPlayed > (kJittered + kSteady) * 8 / 10);
}

TEST_CASE("the target delay stays within its limits") {
  JitterBufferOptions options;
  options.minFrames = 1;
  options.maxFrames = 5;
  options.initialFrames = 1;
  JitterBuffer buffer(options);
  CHECK(buffer.TargetFrames() == 1);
  // Wild jitter: arrivals alternate 0 and 200 ms apart.
  uint64_t now = 0;
  for (int i = 0; i < 100; ++i) {
    now += (i % 2) ? 0 : 200;
    PushSeq(buffer, static_cast<uint16_t>(i), now);
    buffer.Pop(now);
  }
  CHECK(buffer.TargetFrames() == 5);
}

}  // namespace jitter_buffer_test
