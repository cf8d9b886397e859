#pragma once
// Echo cancellation, noise suppression and automatic gain control for the microphone, on the voice thread,
// one 20 ms frame (48 kHz stereo int16) at a time, processed as two 10 ms blocks (the preprocessor delays its
// output by one block: 10 ms rather than 20).
//
// Why speexdsp and not webrtc-audio-processing: Debian's webrtc-audio-processing (0.3) is a 2016 snapshot
// whose C++ API has no stable ABI and which upstream no longer ships in that form, while speexdsp is a small,
// maintained C library with a stable API, and real-time safe once its states are created (no allocation, no
// locks while processing). Its echo canceller (MDF) and preprocessor (noise suppression, AGC, residual echo
// suppression) cover what the SDK exposes.
//
// Mono processing: speexdsp states are mono. Each frame's near end (microphone) and far end (what was sent to
// the speakers) are downmixed to mono, processed once, and the result is written to both channels.
// Per-channel states would double the echo canceller's cost (the dominant one: a 200 ms filter at 48 kHz) for
// no gain in a voice call, where microphones are mono or two nearly identical capsules, and two independent
// cancellers would make the channels diverge. With all three switched off the frame passes through untouched
// (stereo, bit-exact).
//
// Threads: the Set* switches are atomics, callable from any thread, applied at the next frame. Everything
// else (FeedFarEnd, ProcessCapture, the AEC dump) runs on the voice thread.

#include "audio/audio_format.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

struct SpeexEchoState_;
struct SpeexPreprocessState_;

namespace platformpp::audio {

/// Samples per channel speexdsp processes at a time (10 ms).
inline constexpr std::size_t kProcessingBlockSamples = kFrameSamplesPerChannel / 2;

struct AudioProcessingOptions {
  /// The echo path the canceller models, device latency included.
  int echoTailMs = 200;
  /// Noise attenuation in dB (negative), speexdsp's default is -15.
  int noiseSuppressDb = -25;
  /// AGC target RMS level in int16 units.
  float agcLevel = 8000.0f;
};

/// A mono 16-bit 48 kHz WAV file written through stdio's buffer; the header's sizes are fixed on Close.
class WavWriter {
 public:
  WavWriter() = default;
  ~WavWriter() { Close(); }
  WavWriter(const WavWriter&) = delete;
  WavWriter& operator=(const WavWriter&) = delete;

  bool Open(const std::filesystem::path& path);
  void Write(std::span<const int16_t> samples) noexcept;
  void Close() noexcept;
  bool IsOpen() const noexcept { return file_ != nullptr; }
  uint32_t Samples() const noexcept { return samples_; }

 private:
  std::FILE* file_ = nullptr;
  uint32_t samples_ = 0;
  std::array<unsigned char, kFrameSamplesPerChannel * 2> bytes_{};  // little-endian staging, one frame
};

class AudioProcessor {
 public:
  static constexpr const char* kFarEndFile = "far_end.wav";
  static constexpr const char* kNearEndFile = "near_end.wav";
  static constexpr const char* kProcessedFile = "processed.wav";
  static constexpr const char* kSummaryFile = "aec_summary.json";
  /// Far-end frames waiting for their capture frame; older ones are dropped.
  static constexpr std::size_t kFarEndQueueFrames = 8;

  explicit AudioProcessor(AudioProcessingOptions options = {});
  ~AudioProcessor();
  AudioProcessor(const AudioProcessor&) = delete;
  AudioProcessor& operator=(const AudioProcessor&) = delete;

  // Any thread; all on by default.
  void SetEchoCancellation(bool on) noexcept { aec_.store(on, std::memory_order_relaxed); }
  void SetNoiseSuppression(bool on) noexcept { ns_.store(on, std::memory_order_relaxed); }
  void SetAutomaticGainControl(bool on) noexcept { agc_.store(on, std::memory_order_relaxed); }
  bool EchoCancellation() const noexcept { return aec_.load(std::memory_order_relaxed); }
  bool NoiseSuppression() const noexcept { return ns_.load(std::memory_order_relaxed); }
  bool AutomaticGainControl() const noexcept { return agc_.load(std::memory_order_relaxed); }

  // Voice thread.
  /// The frame just queued for the speakers (after mixing and output volume): the echo reference.
  void FeedFarEnd(std::span<const int16_t, kFrameSamples> playback) noexcept;
  /// One microphone frame in, the processed frame out (`in` and `out` may be the same buffer).
  void ProcessCapture(std::span<const int16_t, kFrameSamples> in,
                      std::span<int16_t, kFrameSamples> out) noexcept;

  /// Starts writing far_end.wav, near_end.wav, processed.wav (mono, what the canceller sees and gives) into
  /// `directory` (created if missing); replaces a running dump. False with `error` if a file cannot be
  /// opened.
  bool StartAecDump(const std::filesystem::path& directory, std::string& error);
  /// Closes the WAV files and writes aec_summary.json: frame counts and the echo return loss enhancement
  /// (near-end energy over echo-cancelled energy while the far end is active, in dB). No-op when not dumping.
  void StopAecDump() noexcept;
  bool AecDumpActive() const noexcept { return dumping_; }

 private:
  void ApplySwitches() noexcept;

  const AudioProcessingOptions options_;
  SpeexEchoState_* echo_ = nullptr;
  SpeexPreprocessState_* preprocess_ = nullptr;
  std::atomic<bool> aec_{true};
  std::atomic<bool> ns_{true};
  std::atomic<bool> agc_{true};
  // What the states are set to (voice thread).
  bool aecApplied_ = true;
  bool nsApplied_ = true;
  bool agcApplied_ = true;

  using MonoFrame = std::array<int16_t, kFrameSamplesPerChannel>;
  std::array<MonoFrame, kFarEndQueueFrames> farQueue_{};
  std::size_t farHead_ = 0;
  std::size_t farCount_ = 0;
  MonoFrame near_{};
  MonoFrame far_{};
  MonoFrame cancelled_{};

  // AEC dump (voice thread).
  bool dumping_ = false;
  std::filesystem::path dumpDirectory_;
  WavWriter farWav_;
  WavWriter nearWav_;
  WavWriter processedWav_;
  uint64_t dumpFrames_ = 0;
  uint64_t dumpFarActiveFrames_ = 0;
  uint64_t dumpAecFrames_ = 0;
  double nearEnergy_ = 0;       // far-active frames with AEC on
  double cancelledEnergy_ = 0;  // the same frames after the canceller
};

}  // namespace platformpp::audio
