#include "audio/no_input_detector.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace platformpp::audio {

void NoInputDetector::SetThresholdDbfs(float dbfs) noexcept {
  if (std::isnan(dbfs)) return;
  threshold_.store(std::clamp(dbfs, kMinThresholdDbfs, kMaxThresholdDbfs), std::memory_order_relaxed);
}

float NoInputDetector::LevelDbfs(std::span<const int16_t> samples) noexcept {
  if (samples.empty()) return -std::numeric_limits<float>::infinity();
  double sum = 0;
  for (int16_t s : samples)
    sum += static_cast<double>(s) * s;
  if (sum == 0) return -std::numeric_limits<float>::infinity();
  const double rms = std::sqrt(sum / static_cast<double>(samples.size()));
  return static_cast<float>(20.0 * std::log10(rms / 32768.0));
}

void NoInputDetector::Process(std::span<const int16_t> interleaved, int channels) noexcept {
  const float level = LevelDbfs(interleaved);
  lastLevel_.store(level, std::memory_order_relaxed);
  if (level >= threshold_.load(std::memory_order_relaxed)) {
    quietSamples_ = 0;
    SetState(false);
    return;
  }
  quietSamples_ += interleaved.size() / static_cast<std::size_t>(std::max(channels, 1));
  if (quietSamples_ >= holdSamples_) SetState(true);
}

void NoInputDetector::Reset() noexcept {
  quietSamples_ = 0;
  SetState(false);
}

void NoInputDetector::SetState(bool noInput) noexcept {
  if (noInput_.load(std::memory_order_relaxed) == noInput) return;
  noInput_.store(noInput, std::memory_order_release);
  changes_.store(changes_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

}  // namespace platformpp::audio
