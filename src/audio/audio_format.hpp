#pragma once
// The one PCM format of the voice path: 48 kHz, 2 channels interleaved, int16, 20 ms frames (the Opus frame
// the voice thread encodes and decodes). Devices may run another period (10 ms is common); the engine's rings
// absorb the difference.

#include <cstddef>
#include <cstdint>

namespace platformpp::audio {

inline constexpr int kSampleRate = 48000;
inline constexpr int kChannels = 2;
inline constexpr std::size_t kFrameSamplesPerChannel = 960;  // 20 ms
inline constexpr std::size_t kFrameSamples = kFrameSamplesPerChannel * kChannels;
inline constexpr std::size_t kDefaultDevicePeriodFrames = 480;  // 10 ms

}  // namespace platformpp::audio
