#include "audio/null_audio_backend.hpp"

#include <chrono>
#include <memory>
#include <vector>

namespace platformpp::audio {

NullAudioBackend::~NullAudioBackend() {
  Close();
}

std::vector<AudioDeviceInfo> NullAudioBackend::InputDevices() {
  return {AudioDeviceInfo{kInputId, "No audio input (null device)", true}};
}

std::vector<AudioDeviceInfo> NullAudioBackend::OutputDevices() {
  return {AudioDeviceInfo{kOutputId, "No audio output (null device)", true}};
}

bool NullAudioBackend::Open(const AudioStreamConfig& config, AudioStreamSink& sink, std::string& error) {
  if (IsOpen()) {
    error = "the null audio stream is already open";
    return false;
  }
  if (!config.inputDeviceId.empty() && config.inputDeviceId != kInputId) {
    error = "unknown input device";
    return false;
  }
  if (!config.outputDeviceId.empty() && config.outputDeviceId != kOutputId) {
    error = "unknown output device";
    return false;
  }
  if (config.periodFrames == 0) {
    error = "the period must not be empty";
    return false;
  }
  Clock::time_point start;
  {
    std::lock_guard lock(mutex_);
    stop_ = false;
    idle_ = false;
    start = Now();  // here, not on the thread: test time moved after Open counts from Open
  }
  periods_.store(0, std::memory_order_relaxed);
  thread_ = std::thread([this, config, start, s = &sink] { Run(config, start, s); });
  return true;
}

void NullAudioBackend::Close() noexcept {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stopSignal_.notify_all();
  idleSignal_.notify_all();
  thread_.join();
}

NullAudioBackend::Clock::time_point NullAudioBackend::Now() const {
  return manual_ ? manualNow_ : Clock::now();
}

void NullAudioBackend::AdvanceTestTime(std::chrono::nanoseconds by) {
  std::unique_lock lock(mutex_);
  if (!manual_) return;
  manualNow_ += by;
  idle_ = false;
  stopSignal_.notify_all();
  if (!thread_.joinable()) return;
  idleSignal_.wait(lock, [this] { return stop_ || (idle_ && idleAt_ == manualNow_); });
}

void NullAudioBackend::Run(const AudioStreamConfig& config, Clock::time_point start, AudioStreamSink* sink) {
  const std::size_t samples = config.periodFrames * kChannels;
  // Both buffers are allocated before the first period, as a device driver's would be.
  std::vector<int16_t> silence(samples, 0);
  std::vector<int16_t> playback(samples, 0);
  const auto period = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(static_cast<double>(config.periodFrames) / kSampleRate));
  std::unique_lock lock(mutex_);
  uint64_t n = 0;
  for (;;) {
    const auto deadline = start + period * static_cast<int64_t>(n + 1);
    if (manual_) {
      while (!stop_ && manualNow_ < deadline) {
        // Nothing more is due until test time moves: say so to AdvanceTestTime (each time it moves).
        idle_ = true;
        idleAt_ = manualNow_;
        idleSignal_.notify_all();
        stopSignal_.wait(lock);
      }
      if (stop_) return;
    } else if (stopSignal_.wait_until(lock, deadline, [this] { return stop_; })) {
      return;
    }
    // A period is real time the device would have played: the sink runs without our lock held.
    lock.unlock();
    if (config.input) sink->OnCapture(silence);
    if (config.output) sink->OnPlayback(playback);
    periods_.store(periods_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    ++n;
    lock.lock();
    const auto now = Now();
    if (now - (start + period * static_cast<int64_t>(n)) > period * kMaxCatchUpPeriods) {
      start = now;  // stalled (suspend, debugger): resynchronise rather than burst
      n = 0;
    }
  }
}

}  // namespace platformpp::audio
