#pragma once
// What the microphone path transmits, decided once per 20 ms frame:
//   - VoiceActivityDetector: frame energy (RMS, dBFS) against a threshold in -100..0 dB (default -60), or an
//     automatic threshold a margin above an adaptive noise floor; a hangover keeps a trailing quiet syllable.
//   - TransmitGate: the audio mode (VAD or PTT; the values of the SDK's AudioModeType), the PTT key and its
//     release delay (frames keep going for ceil(delay / 20 ms) frames after release, so the delay is honoured
//     within one frame), self mute, and the end-of-speech rule (docs/voice-protocol.md, "RTP"): after speech,
//     five silence frames F8 FF FE, then nothing. It reports the Speaking edges: the caller sends voice
//     gateway op 5 Speaking (speaking: 1) before the packet of the frame that starts speech, and speaking: 0
//     with the last silence frame.
// Both are allocation-free and not thread-safe (the voice thread owns them).

#include <cstdint>
#include <span>

namespace platformpp::voice {

enum class AudioMode : int { Uninit = 0, VAD = 1, PTT = 2 };

/// The level of digital silence.
inline constexpr float kSilenceDbfs = -120.0f;

/// RMS level of int16 samples relative to full scale (a full-scale square wave is 0 dBFS); kSilenceDbfs for
/// all-zero or empty input.
float FrameLevelDbfs(std::span<const int16_t> pcm) noexcept;

class VoiceActivityDetector {
 public:
  static constexpr float kMinThresholdDb = -100.0f;
  static constexpr float kMaxThresholdDb = 0.0f;
  static constexpr float kDefaultThresholdDb = -60.0f;
  /// Automatic mode: voice is this far above the noise floor.
  static constexpr float kAutomaticMarginDb = 12.0f;
  /// 200 ms of hangover after the level falls below the threshold.
  static constexpr int kDefaultHangoverFrames = 10;

  /// The SDK's SetVADThreshold(automatic, threshold): false (nothing changes) when `thresholdDb` is outside
  /// -100..0 or not a number; the threshold is kept for when automatic is turned off.
  bool SetThreshold(bool automatic, float thresholdDb) noexcept;
  bool Automatic() const noexcept { return automatic_; }
  float ThresholdDb() const noexcept { return thresholdDb_; }
  /// The threshold in use: the manual one, or the noise floor plus the margin.
  float EffectiveThresholdDb() const noexcept;
  float NoiseFloorDb() const noexcept { return noiseFloorDb_; }
  void SetHangoverFrames(int frames) noexcept { hangoverFrames_ = frames < 0 ? 0 : frames; }

  /// One frame: whether it counts as voice (above the threshold, or within the hangover after it).
  bool Process(std::span<const int16_t> pcm) noexcept;
  float LastLevelDb() const noexcept { return lastLevelDb_; }

 private:
  bool automatic_ = false;
  float thresholdDb_ = kDefaultThresholdDb;
  float noiseFloorDb_ = -70.0f;
  int hangoverFrames_ = kDefaultHangoverFrames;
  int hangoverLeft_ = 0;
  float lastLevelDb_ = kSilenceDbfs;
};

class TransmitGate {
 public:
  static constexpr int kSilenceFramesAfterSpeech = 5;
  static constexpr uint32_t kFrameMs = 20;

  enum class Action {
    None,     // send nothing
    Audio,    // encode and send this frame
    Silence,  // send the silence frame F8 FF FE instead
  };
  struct Decision {
    Action action = Action::None;
    bool speakingStarted = false;  // send op 5 speaking: 1 before this frame's packet
    bool speakingStopped = false;  // send op 5 speaking: 0 (this is the last silence frame)
  };

  void SetAudioMode(AudioMode mode) noexcept { mode_ = mode; }
  AudioMode Mode() const noexcept { return mode_; }
  /// Releasing the key starts the release delay; pressing it again cancels what is left of it.
  void SetPttActive(bool active) noexcept;
  bool PttActive() const noexcept { return pttActive_; }
  void SetPttReleaseDelayMs(uint32_t ms) noexcept { pttReleaseDelayMs_ = ms; }
  uint32_t PttReleaseDelayMs() const noexcept { return pttReleaseDelayMs_; }
  void SetSelfMute(bool mute) noexcept { selfMute_ = mute; }
  bool SelfMute() const noexcept { return selfMute_; }
  VoiceActivityDetector& Vad() noexcept { return vad_; }
  const VoiceActivityDetector& Vad() const noexcept { return vad_; }
  /// Between a speakingStarted and its speakingStopped.
  bool Speaking() const noexcept { return speaking_; }

  /// Decides what to do with one captured 20 ms frame.
  Decision Process(std::span<const int16_t> pcm) noexcept;

 private:
  AudioMode mode_ = AudioMode::VAD;
  bool pttActive_ = false;
  uint32_t pttReleaseDelayMs_ = 20;
  uint32_t releaseFramesLeft_ = 0;
  bool selfMute_ = false;
  bool speaking_ = false;
  int silenceLeft_ = 0;
  VoiceActivityDetector vad_;
};

}  // namespace platformpp::voice
