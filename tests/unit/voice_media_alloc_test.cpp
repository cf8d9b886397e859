// The per-frame media path allocates nothing in steady state: SendPipeline::ProcessFrame,
// ReceivePipeline::OnDatagram and PlayoutTick run under a counting global operator new (its own executable,
// so that the replacement affects no other test), with losses, reordering, silence frames and the per-user
// callback on the way.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
// GCC cannot see that the replaced operator new is malloc-based and flags its free() as mismatched.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#include "voice/receive_pipeline.hpp"
#include "voice/send_pipeline.hpp"

#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <numbers>
#include <vector>

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  return operator new(size);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

using namespace platformpp::voice;
namespace media_wire = platformpp::media_wire;

namespace {

struct Counting {
  Counting() {
    allocations = 0;
    counting = true;
  }
  ~Counting() { counting = false; }
};

std::array<int16_t, kOpusFrameSamples> Tone(int frame, bool on) {
  std::array<int16_t, kOpusFrameSamples> pcm{};
  if (!on) return pcm;
  for (int i = 0; i < kOpusFrameSamplesPerChannel; ++i) {
    const double t = static_cast<double>(frame * kOpusFrameSamplesPerChannel + i) / kOpusSampleRate;
    const auto sample =
        static_cast<int16_t>(std::lround(8000 * (0.55 + 0.45 * std::sin(2 * std::numbers::pi * 2 * t)) *
                                         std::sin(2 * std::numbers::pi * 440 * t)));
    pcm[2 * static_cast<std::size_t>(i)] = sample;
    pcm[2 * static_cast<std::size_t>(i) + 1] = sample;
  }
  return pcm;
}

}  // namespace

TEST_CASE("the counting operator new sees an allocation") {
  Counting scope;
  auto* p = new std::vector<int>(10);
  delete p;
  CHECK(allocations.load() >= 1);
}

TEST_CASE("send and receive allocate nothing per frame") {
  for (media_wire::TransportMode mode : {media_wire::TransportMode::AeadAes256GcmRtpsize,
                                         media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize}) {
    CAPTURE(media_wire::TransportModeName(mode));
    media_wire::TransportKey key{};
    key.fill(0x42);
    SendPipeline send(0xABCD, mode, key);
    send.Gate().Vad().SetHangoverFrames(0);
    ReceivePipeline receive(mode, key);
    receive.MapSsrc(0xABCD, 99);
    CHECK(receive.SetUserVolume(99, 150));
    long calls = 0;
    receive.SetUserAudioCallback([&calls](uint64_t, int16_t*, int, int, int, bool&) { ++calls; });
    std::array<uint8_t, SendPipeline::kMaxDatagramSize> datagram{}, held{};
    std::size_t heldSize = 0;
    std::array<int16_t, kOpusFrameSamples> mix{};
    auto run = [&](int from, int to) {
      for (int i = from; i < to; ++i) {
        const uint64_t now = 20 * static_cast<uint64_t>(i);
        // Talk spurts of 2 s with 0.4 s pauses (silence frames, idle jitter buffer).
        const bool on = i % 120 < 100;
        auto result = send.ProcessFrame(Tone(i, on), datagram);
        if (result.size) {
          if (i % 11 == 5) {
            // lost
          } else if (i % 13 == 4 && heldSize == 0) {
            held = datagram;  // reordered: delivered after the next one
            heldSize = result.size;
          } else {
            receive.OnDatagram(std::span<const uint8_t>(datagram.data(), result.size), now);
            if (heldSize) {
              receive.OnDatagram(std::span<const uint8_t>(held.data(), heldSize), now);
              heldSize = 0;
            }
          }
        }
        receive.PlayoutTick(now, mix);
      }
    };
    run(0, 100);  // warm-up: the first stream's setup may allocate
    {
      Counting scope;
      run(100, 700);
    }
    CHECK(allocations.load() == 0);
    CHECK(calls > 400);
    CHECK(send.GetCounters().silenceFramesSent >= 20);
    CHECK(receive.GetCounters().lost > 0);
    CHECK(receive.GetCounters().framesDecoded > 400);
  }
}
