#include "voice/voice_activity.hpp"

#include <algorithm>
#include <cmath>

namespace platformpp::voice {

float FrameLevelDbfs(std::span<const int16_t> pcm) noexcept {
  if (pcm.empty()) return kSilenceDbfs;
  double sum = 0;
  for (int16_t sample : pcm)
    sum += static_cast<double>(sample) * sample;
  if (sum == 0) return kSilenceDbfs;
  const double rms = std::sqrt(sum / static_cast<double>(pcm.size())) / 32768.0;
  return std::max(kSilenceDbfs, static_cast<float>(20.0 * std::log10(rms)));
}

bool VoiceActivityDetector::SetThreshold(bool automatic, float thresholdDb) noexcept {
  if (!(thresholdDb >= kMinThresholdDb && thresholdDb <= kMaxThresholdDb)) return false;  // NaN fails too
  automatic_ = automatic;
  thresholdDb_ = thresholdDb;
  return true;
}

float VoiceActivityDetector::EffectiveThresholdDb() const noexcept {
  if (!automatic_) return thresholdDb_;
  return std::clamp(noiseFloorDb_ + kAutomaticMarginDb, kMinThresholdDb, kMaxThresholdDb);
}

bool VoiceActivityDetector::Process(std::span<const int16_t> pcm) noexcept {
  lastLevelDb_ = FrameLevelDbfs(pcm);
  // The noise floor follows quiet frames quickly and creeps up slowly (5 dB/s), so speech, which comes in
  // bursts, does not lift it, while a steady louder background does within seconds.
  const float level = std::max(lastLevelDb_, kMinThresholdDb);
  if (level < noiseFloorDb_)
    noiseFloorDb_ += (level - noiseFloorDb_) * 0.5f;
  else
    noiseFloorDb_ += std::min(level - noiseFloorDb_, 0.1f);
  const bool above = lastLevelDb_ > EffectiveThresholdDb();
  if (above) {
    hangoverLeft_ = hangoverFrames_;
    return true;
  }
  if (hangoverLeft_ > 0) {
    --hangoverLeft_;
    return true;
  }
  return false;
}

void TransmitGate::SetPttActive(bool active) noexcept {
  if (pttActive_ && !active) releaseFramesLeft_ = (pttReleaseDelayMs_ + kFrameMs - 1) / kFrameMs;
  if (active) releaseFramesLeft_ = 0;
  pttActive_ = active;
}

TransmitGate::Decision TransmitGate::Process(std::span<const int16_t> pcm) noexcept {
  // The detector runs on every frame so that the automatic noise floor keeps tracking while muted or in PTT.
  const bool voice = vad_.Process(pcm);
  bool transmit = false;
  switch (mode_) {
    case AudioMode::VAD:
      transmit = voice;
      break;
    case AudioMode::PTT:
      if (pttActive_) {
        transmit = true;
      } else if (releaseFramesLeft_ > 0) {
        --releaseFramesLeft_;
        transmit = true;
      }
      break;
    case AudioMode::Uninit:
      break;
  }
  if (selfMute_) transmit = false;

  Decision decision;
  if (transmit) {
    decision.action = Action::Audio;
    decision.speakingStarted = !speaking_;
    speaking_ = true;
    silenceLeft_ = kSilenceFramesAfterSpeech;
  } else if (speaking_ && silenceLeft_ > 0) {
    decision.action = Action::Silence;
    if (--silenceLeft_ == 0) {
      decision.speakingStopped = true;
      speaking_ = false;
    }
  }
  return decision;
}

}  // namespace platformpp::voice
