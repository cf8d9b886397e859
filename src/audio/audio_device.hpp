#pragma once
// Audio devices and the engine that connects them to the voice thread.
//
// AudioBackend is what a device layer offers (PortAudio, or the null backend on machines without sound):
// enumerate devices, open one duplex or an input and an output stream, and call an AudioStreamSink once per
// device period on the backend's real-time thread(s). AudioEngine owns a backend, the two lock-free rings
// (capture: device -> voice thread; playback: voice thread -> device), the volumes, mute/deafen and the
// no-audio-input detector. Its device-side code takes no lock, allocates nothing and never touches the SDK's
// callback queue: the voice thread polls the engine (frames, counters, the no-input state) instead.
//
// Pacing: the device clock drives everything. The voice thread should drain every ready capture frame per
// tick (while ReadCaptureFrame() returns true) and keep about one or two frames queued for playback
// (PlaybackSamplesQueued()); the rings then absorb period mismatch and the drift between two devices' clocks,
// and what they cannot absorb is dropped and counted, never blocked on.
//
// Threads: the owner (the Client) calls Start/Stop/SetInputDevice/SetOutputDevice/RefreshDevices; the voice
// thread calls ReadCaptureFrame/WritePlaybackFrame; the setters of volumes, mute and threshold are atomics,
// callable from any thread.

#include "audio/audio_format.hpp"
#include "audio/no_input_detector.hpp"
#include "audio/spsc_ring.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::audio {

struct AudioDeviceInfo {
  /// Stable across enumerations and runs while the device exists (e.g. "ALSA/USB Headset #0").
  std::string id;
  /// Human-readable name.
  std::string name;
  bool isDefault = false;

  friend bool operator==(const AudioDeviceInfo&, const AudioDeviceInfo&) = default;
};

/// Called on the backend's real-time thread(s). Implementations must not block, lock or allocate. With
/// separate input and output streams the two functions may run on two different threads, concurrently.
class AudioStreamSink {
 public:
  /// `samples`: frames * kChannels interleaved samples from the microphone.
  virtual void OnCapture(std::span<const int16_t> samples) noexcept = 0;
  /// Fill `samples` (frames * kChannels interleaved) for the speakers.
  virtual void OnPlayback(std::span<int16_t> samples) noexcept = 0;

 protected:
  ~AudioStreamSink() = default;
};

struct AudioStreamConfig {
  /// Device ids from InputDevices()/OutputDevices(); empty means the system default.
  std::string inputDeviceId;
  std::string outputDeviceId;
  bool input = true;
  bool output = true;
  /// Device period in frames (per channel): 480 = 10 ms.
  std::size_t periodFrames = kDefaultDevicePeriodFrames;
};

class AudioBackend {
 public:
  virtual ~AudioBackend() = default;

  /// "portaudio" or "null".
  virtual std::string_view Name() const noexcept = 0;
  virtual std::vector<AudioDeviceInfo> InputDevices() = 0;
  virtual std::vector<AudioDeviceInfo> OutputDevices() = 0;

  /// Opens and starts the stream(s) at 48 kHz stereo int16; `sink` must outlive Close(). On failure returns
  /// false with a reason in `error` and nothing open. One open set of streams per backend at a time.
  virtual bool Open(const AudioStreamConfig& config, AudioStreamSink& sink, std::string& error) = 0;
  /// Stops and closes; when it returns, no sink call runs or will run. Safe when nothing is open.
  virtual void Close() noexcept = 0;
  virtual bool IsOpen() const noexcept = 0;

  /// Re-scans the devices when the backend can (see the implementation); true when the lists changed since
  /// the previous scan.
  virtual bool RefreshDevices() = 0;
};

/// The backend to use: the null backend when `preferNull`, when the environment variable PLATFORMPP_AUDIO is
/// "null", or when PortAudio fails to initialise or has no default input or output device; PortAudio
/// otherwise.
std::unique_ptr<AudioBackend> MakeAudioBackend(bool preferNull = false);

struct AudioEngineOptions {
  /// Ring capacities in samples (rounded up to a power of two): about 170 ms each by default.
  std::size_t captureRingSamples = 8 * kFrameSamples;
  std::size_t playbackRingSamples = 8 * kFrameSamples;
  std::size_t periodFrames = kDefaultDevicePeriodFrames;
  /// How long the input must stay below the threshold before "no audio input" (per channel samples).
  std::size_t noInputHoldSamples = 5 * static_cast<std::size_t>(kSampleRate);
};

class AudioEngine final : private AudioStreamSink {
 public:
  static constexpr float kMaxVolume = 100.0f;

  explicit AudioEngine(std::unique_ptr<AudioBackend> backend, AudioEngineOptions options = {});
  ~AudioEngine();
  AudioEngine(const AudioEngine&) = delete;
  AudioEngine& operator=(const AudioEngine&) = delete;

  AudioBackend& Backend() noexcept { return *backend_; }

  // Owner thread.
  std::vector<AudioDeviceInfo> InputDevices() { return backend_->InputDevices(); }
  std::vector<AudioDeviceInfo> OutputDevices() { return backend_->OutputDevices(); }
  /// Empty id = system default. Unknown ids are refused (false). While running, reopens the streams; if that
  /// fails, the previous device is restored and reopened, and false is returned with `error`.
  bool SetInputDevice(const std::string& id, std::string& error);
  bool SetOutputDevice(const std::string& id, std::string& error);
  const std::string& InputDeviceId() const noexcept { return config_.inputDeviceId; }
  const std::string& OutputDeviceId() const noexcept { return config_.outputDeviceId; }
  /// Opens the devices; the rings are emptied first.
  bool Start(std::string& error);
  void Stop() noexcept;
  bool IsRunning() const noexcept { return backend_->IsOpen(); }
  /// Forwards to the backend; the owner polls it and reports device changes.
  bool RefreshDevices() { return backend_->RefreshDevices(); }

  // Voice thread.
  /// One 20 ms capture frame (after input volume and mute), or false when a whole frame is not there yet.
  bool ReadCaptureFrame(std::span<int16_t, kFrameSamples> frame) noexcept;
  /// Queues one 20 ms frame for the speakers; false (frame dropped, counted) when the ring is full.
  bool WritePlaybackFrame(std::span<const int16_t, kFrameSamples> frame) noexcept;
  std::size_t CaptureFramesReady() const noexcept { return capture_.ReadAvailable() / kFrameSamples; }
  std::size_t PlaybackSamplesQueued() const noexcept { return playback_.ReadAvailable(); }

  // Any thread.
  /// 0..100 (clamped; NaN ignored), 100 = unity gain, linear in amplitude.
  void SetInputVolume(float volume) noexcept;
  void SetOutputVolume(float volume) noexcept;
  float InputVolume() const noexcept { return inputVolume_.load(std::memory_order_relaxed); }
  float OutputVolume() const noexcept { return outputVolume_.load(std::memory_order_relaxed); }
  /// Mute: the capture frames are silence (still paced). Deafen: the speakers get silence.
  void SetSelfMute(bool mute) noexcept { selfMute_.store(mute, std::memory_order_relaxed); }
  void SetSelfDeaf(bool deaf) noexcept { selfDeaf_.store(deaf, std::memory_order_relaxed); }
  bool SelfMute() const noexcept { return selfMute_.load(std::memory_order_relaxed); }
  bool SelfDeaf() const noexcept { return selfDeaf_.load(std::memory_order_relaxed); }

  void SetNoAudioInputThreshold(float dbfs) noexcept { noInput_.SetThresholdDbfs(dbfs); }
  float NoAudioInputThreshold() const noexcept { return noInput_.ThresholdDbfs(); }
  const NoInputDetector& NoInputState() const noexcept { return noInput_; }

  uint64_t CaptureOverflowSamples() const noexcept { return capture_.OverflowCount(); }
  uint64_t PlaybackUnderflowSamples() const noexcept { return playback_.UnderflowCount(); }
  uint64_t PlaybackOverflowSamples() const noexcept { return playback_.OverflowCount(); }

  /// The gain a volume stands for (volume / 100, clamped to [0, 1]).
  static float VolumeToGain(float volume) noexcept;
  /// In place, saturating: what the engine applies to capture and playback.
  static void ApplyGain(std::span<int16_t> samples, float gain) noexcept;

 private:
  void OnCapture(std::span<const int16_t> samples) noexcept override;
  void OnPlayback(std::span<int16_t> samples) noexcept override;
  bool Reopen(std::string& error);

  std::unique_ptr<AudioBackend> backend_;
  AudioStreamConfig config_;
  SpscRing<int16_t> capture_;
  SpscRing<int16_t> playback_;
  NoInputDetector noInput_;
  // The capture callback scales a copy; sized once for the largest period it accepts at a time.
  std::unique_ptr<int16_t[]> captureScratch_;
  std::size_t captureScratchSize_;
  std::atomic<float> inputVolume_{kMaxVolume};
  std::atomic<float> outputVolume_{kMaxVolume};
  std::atomic<bool> selfMute_{false};
  std::atomic<bool> selfDeaf_{false};
};

}  // namespace platformpp::audio
