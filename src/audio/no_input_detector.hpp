#pragma once
// "No audio input": the microphone's level stayed below a threshold (dBFS) for a while. Runs on the device's
// capture callback (no locks, no allocation); the state is an atomic any thread reads. The level of a period
// is its RMS over both channels in dBFS (full scale = 32768), digital silence being -infinity, so any
// threshold catches a dead device. The level is measured before the input volume: the detector tells about
// the device, not about the user's own volume setting.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

namespace platformpp::audio {

class NoInputDetector {
 public:
  static constexpr float kMinThresholdDbfs = -100.0f;
  static constexpr float kMaxThresholdDbfs = 0.0f;
  static constexpr float kDefaultThresholdDbfs = -100.0f;

  /// `holdSamples`: how many samples per channel the level must stay below the threshold before the state
  /// turns to "no input" (it turns back at the first period at or above it).
  explicit NoInputDetector(std::size_t holdSamples) noexcept : holdSamples_(holdSamples) {}

  /// Any thread; clamped to [-100, 0] dBFS.
  void SetThresholdDbfs(float dbfs) noexcept;
  float ThresholdDbfs() const noexcept { return threshold_.load(std::memory_order_relaxed); }

  /// Capture thread: one period of interleaved samples (`channels` per frame).
  void Process(std::span<const int16_t> interleaved, int channels) noexcept;

  /// Any thread: true once the input has been below the threshold for the hold time.
  bool NoInput() const noexcept { return noInput_.load(std::memory_order_acquire); }
  /// Any thread: how many times NoInput() changed (a reader compares it with the last value it saw).
  uint64_t Changes() const noexcept { return changes_.load(std::memory_order_acquire); }
  /// Any thread: the level of the last period in dBFS (-infinity for digital silence).
  float LastLevelDbfs() const noexcept { return lastLevel_.load(std::memory_order_relaxed); }

  /// Capture side only (or while no stream runs): back to "input present", timer restarted.
  void Reset() noexcept;

  /// RMS level of interleaved int16 samples in dBFS; -infinity when all are zero.
  static float LevelDbfs(std::span<const int16_t> samples) noexcept;

 private:
  void SetState(bool noInput) noexcept;

  const std::size_t holdSamples_;
  std::atomic<float> threshold_{kDefaultThresholdDbfs};
  std::atomic<float> lastLevel_{0.0f};
  std::atomic<bool> noInput_{false};
  std::atomic<uint64_t> changes_{0};
  std::size_t quietSamples_ = 0;  // capture thread only
};

}  // namespace platformpp::audio
