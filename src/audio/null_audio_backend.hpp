#pragma once
// The backend for machines without sound (servers, CI, headless bots): one thread paces real time and calls
// the sink once per period with silence as capture, and discards what the sink plays. It offers one input and
// one output device, both the default. Deadlines are absolute (start + n periods), so the average rate is
// exact however late a wake-up is; after a stall of more than kMaxCatchUpPeriods it resynchronises instead of
// bursting.

#include "audio/audio_device.hpp"

#include <atomic>
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

 private:
  void Run(const AudioStreamConfig& config, AudioStreamSink* sink);

  std::thread thread_;
  std::mutex mutex_;  // for the stop wait only, never taken in a sink call
  std::condition_variable stopSignal_;
  bool stop_ = false;
  std::atomic<uint64_t> periods_{0};
};

}  // namespace platformpp::audio
