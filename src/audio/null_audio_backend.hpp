#pragma once
// The backend for machines without sound (servers, CI, headless bots): one thread paces real time and calls
// the sink once per period with silence as capture, and discards what the sink plays. It offers one input and
// one output device, both the default. Deadlines are absolute (start + n periods), so the average rate is
// exact however late a wake-up is; after a stall of more than kMaxCatchUpPeriods it resynchronises instead of
// bursting. Tests can run it on test time (ManualTime) to check that pacing exactly, without a stopwatch.

#include "audio/audio_device.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace platformpp::audio {

class NullAudioBackend final : public AudioBackend {
 public:
  static constexpr int kMaxCatchUpPeriods = 10;
  static constexpr const char* kInputId = "null/input";
  static constexpr const char* kOutputId = "null/output";

  NullAudioBackend() = default;
  /// Paced by test time instead of the steady clock: periods fall due only as AdvanceTestTime moves it.
  struct ManualTime {};
  explicit NullAudioBackend(ManualTime) : manual_(true) {}
  ~NullAudioBackend() override;

  std::string_view Name() const noexcept override { return "null"; }
  std::vector<AudioDeviceInfo> InputDevices() override;
  std::vector<AudioDeviceInfo> OutputDevices() override;
  bool Open(const AudioStreamConfig& config, AudioStreamSink& sink, std::string& error) override;
  void Close() noexcept override;
  bool IsOpen() const noexcept override { return thread_.joinable(); }
  /// The null devices never change.
  bool RefreshDevices() override { return false; }

  /// Periods delivered since Open (any thread).
  uint64_t Periods() const noexcept { return periods_.load(std::memory_order_relaxed); }

  /// Moves test time on by `by` (a backend made with ManualTime, with its stream open) and returns once the
  /// device has delivered every period that fell due and waits again.
  void AdvanceTestTime(std::chrono::nanoseconds by);

 private:
  using Clock = std::chrono::steady_clock;
  void Run(const AudioStreamConfig& config, Clock::time_point start, AudioStreamSink* sink);
  /// The time the device paces itself by (mutex_ held when manual).
  Clock::time_point Now() const;

  std::thread thread_;
  std::mutex mutex_;  // for the stop wait only, never taken in a sink call
  std::condition_variable stopSignal_;
  bool stop_ = false;
  std::atomic<uint64_t> periods_{0};
  const bool manual_ = false;
  Clock::time_point manualNow_{};       // test time (ManualTime), under mutex_
  Clock::time_point idleAt_{};          // the test time at which the device last went back to waiting
  bool idle_ = false;                   // it waits for test time to move (ManualTime)
  std::condition_variable idleSignal_;  // AdvanceTestTime waits on it
};

}  // namespace platformpp::audio
