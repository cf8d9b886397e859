// The lock-free hand-off between the audio device thread and the voice thread (src/audio/spsc_ring.hpp):
// power-of-two capacity, wraparound, full and empty with their counters, and two threads at once (TSan runs
// this binary).
#include "audio/spsc_ring.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

namespace audio_ring_test {

using platformpp::audio::SpscRing;

TEST_CASE("the ring's capacity is rounded up to a power of two") {
  CHECK(SpscRing<int16_t>(5).Capacity() == 8);
  CHECK(SpscRing<int16_t>(8).Capacity() == 8);
  CHECK(SpscRing<int16_t>(9).Capacity() == 16);
  CHECK(SpscRing<int16_t>(0).Capacity() == 2);
  CHECK(SpscRing<int16_t>(std::size_t{1920} * 8).Capacity() == 16384);
}

TEST_CASE("samples come out in order across the wraparound") {
  SpscRing<int16_t> ring(8);
  std::vector<int16_t> in(6);
  std::iota(in.begin(), in.end(), int16_t{1});
  std::vector<int16_t> out(6);
  for (int round = 0; round < 5; ++round) {  // 30 samples through 8 slots: every offset wraps
    for (auto& v : in)
      v = static_cast<int16_t>(v + 6);
    REQUIRE(ring.Write(in) == 6);
    CHECK(ring.ReadAvailable() == 6);
    CHECK(ring.WriteAvailable() == 2);
    REQUIRE(ring.Read(out) == 6);
    CHECK(out == in);
  }
  CHECK(ring.OverflowCount() == 0);
  CHECK(ring.UnderflowCount() == 0);
}

TEST_CASE("a full ring drops the newest samples and counts them") {
  SpscRing<int16_t> ring(8);
  std::vector<int16_t> seven(7, 1);
  CHECK(ring.Write(seven) == 7);
  CHECK(ring.OverflowCount() == 0);
  std::vector<int16_t> two = {2, 3};
  CHECK(ring.Write(two) == 1);  // one slot left: one over
  CHECK(ring.OverflowCount() == 1);
  CHECK(ring.WriteAvailable() == 0);
  std::vector<int16_t> one = {9};
  CHECK_FALSE(ring.WriteAll(one));
  CHECK(ring.OverflowCount() == 2);
  std::vector<int16_t> out(8);
  CHECK(ring.Read(out) == 8);
  CHECK(out.back() == 2);     // the first of the pair fitted, 3 and 9 were dropped
  CHECK(ring.WriteAll(one));  // room again
}

TEST_CASE("WriteAll fits exactly at capacity and refuses one more") {
  SpscRing<int16_t> ring(8);
  std::vector<int16_t> eight(8, 5);
  CHECK(ring.WriteAll(eight));
  ring.Clear();
  std::vector<int16_t> nine(9, 5);
  CHECK_FALSE(ring.WriteAll(nine));
  CHECK(ring.ReadAvailable() == 0);
  CHECK(ring.OverflowCount() == 9);
}

TEST_CASE("an empty ring reads silence and counts the shortfall") {
  SpscRing<int16_t> ring(8);
  std::vector<int16_t> out(4, 7);
  CHECK(ring.Read(out) == 0);
  CHECK(out == std::vector<int16_t>(4, 0));
  CHECK(ring.UnderflowCount() == 4);
  std::vector<int16_t> three = {1, 2, 3};
  ring.Write(three);
  std::fill(out.begin(), out.end(), int16_t{7});
  CHECK(ring.Read(out) == 3);
  CHECK(out == std::vector<int16_t>{1, 2, 3, 0});
  CHECK(ring.UnderflowCount() == 5);
}

TEST_CASE("TryReadAll takes a whole block or nothing, without counting underflow") {
  SpscRing<int16_t> ring(16);
  std::vector<int16_t> three = {1, 2, 3};
  ring.Write(three);
  std::array<int16_t, 4> block{};
  CHECK_FALSE(ring.TryReadAll(block));
  CHECK(ring.ReadAvailable() == 3);
  CHECK(ring.UnderflowCount() == 0);
  std::vector<int16_t> one = {4};
  ring.Write(one);
  CHECK(ring.TryReadAll(block));
  CHECK(block == std::array<int16_t, 4>{1, 2, 3, 4});
}

TEST_CASE("a ring of fixed frames") {
  using Frame = std::array<int16_t, 4>;
  SpscRing<Frame> ring(3);
  CHECK(ring.Capacity() == 4);
  std::array<Frame, 2> in{Frame{1, 2, 3, 4}, Frame{5, 6, 7, 8}};
  CHECK(ring.Write(in) == 2);
  std::array<Frame, 1> out{};
  CHECK(ring.TryReadAll(out));
  CHECK(out[0] == in[0]);
}

TEST_CASE("two threads: every sample arrives once, in order") {
  // A producer and a consumer with uneven chunk sizes over a small ring, so that both full and empty happen
  // constantly; the values are a running counter, so a lost, repeated or torn sample shows.
  constexpr uint32_t kTotal = 400000;
  SpscRing<int16_t> ring(64);
  std::thread producer([&] {
    std::mt19937 rng(1);
    std::vector<int16_t> chunk;
    uint32_t next = 0;
    while (next < kTotal) {
      const uint32_t n = std::min<uint32_t>(1 + rng() % 50, kTotal - next);
      chunk.resize(n);
      for (uint32_t i = 0; i < n; ++i)
        chunk[i] = static_cast<int16_t>(next + i);
      std::span<const int16_t> rest(chunk);
      while (!rest.empty()) {
        const std::size_t written = ring.Write(rest);
        rest = rest.subspan(written);
        if (!rest.empty()) std::this_thread::yield();
      }
      next += n;
    }
  });
  std::mt19937 rng(2);
  std::vector<int16_t> chunk;
  uint32_t expected = 0;
  bool inOrder = true;
  while (expected < kTotal) {
    const uint32_t n = std::min<uint32_t>(1 + rng() % 40, kTotal - expected);
    chunk.resize(n);
    if (!ring.TryReadAll(chunk)) {
      std::this_thread::yield();
      continue;
    }
    for (uint32_t i = 0; i < n; ++i)
      inOrder = inOrder && chunk[i] == static_cast<int16_t>(expected + i);
    expected += n;
  }
  producer.join();
  CHECK(inOrder);
  CHECK(ring.ReadAvailable() == 0);
  CHECK(ring.UnderflowCount() == 0);  // TryReadAll never counts
}

}  // namespace audio_ring_test
