#include "audio/audio_device.hpp"

#include "audio/null_audio_backend.hpp"
#include "audio/portaudio_backend.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <utility>

namespace platformpp::audio {

std::unique_ptr<AudioBackend> MakeAudioBackend(bool preferNull) {
  const char* env = std::getenv("PLATFORMPP_AUDIO");
  if (preferNull || (env != nullptr && std::string_view(env) == "null")) {
    return std::make_unique<NullAudioBackend>();
  }
  if (auto portAudio = PortAudioBackend::Create()) return portAudio;
  return std::make_unique<NullAudioBackend>();
}

AudioEngine::AudioEngine(std::unique_ptr<AudioBackend> backend, AudioEngineOptions options)
    : backend_(std::move(backend)),
      capture_(options.captureRingSamples),
      playback_(options.playbackRingSamples),
      noInput_(options.noInputHoldSamples),
      captureScratchSize_(std::max<std::size_t>(options.periodFrames * kChannels, kFrameSamples)) {
  config_.periodFrames = options.periodFrames;
  captureScratch_ = std::make_unique<int16_t[]>(captureScratchSize_);
}

AudioEngine::~AudioEngine() {
  Stop();
}

bool AudioEngine::Start(std::string& error) {
  if (backend_->IsOpen()) return true;
  // No device callback runs now, so this thread may act as the playback ring's consumer and drop what was
  // queued for a closed device. The capture ring is left alone: its consumer, the voice thread, may be
  // reading.
  playback_.Clear();
  noInput_.Reset();
  return backend_->Open(config_, *this, error);
}

void AudioEngine::Stop() noexcept {
  backend_->Close();
}

bool AudioEngine::Reopen(std::string& error) {
  backend_->Close();
  return Start(error);
}

namespace {

bool Known(const std::vector<AudioDeviceInfo>& devices, const std::string& id) {
  return id.empty() || std::any_of(devices.begin(), devices.end(), [&](const auto& d) { return d.id == id; });
}

}  // namespace

bool AudioEngine::SetInputDevice(const std::string& id, std::string& error) {
  if (!Known(backend_->InputDevices(), id)) {
    error = "unknown input device";
    return false;
  }
  if (id == config_.inputDeviceId) return true;
  std::string previous = std::exchange(config_.inputDeviceId, id);
  if (!backend_->IsOpen() || Reopen(error)) return true;
  config_.inputDeviceId = std::move(previous);
  std::string ignored;
  Start(ignored);
  return false;
}

bool AudioEngine::SetOutputDevice(const std::string& id, std::string& error) {
  if (!Known(backend_->OutputDevices(), id)) {
    error = "unknown output device";
    return false;
  }
  if (id == config_.outputDeviceId) return true;
  std::string previous = std::exchange(config_.outputDeviceId, id);
  if (!backend_->IsOpen() || Reopen(error)) return true;
  config_.outputDeviceId = std::move(previous);
  std::string ignored;
  Start(ignored);
  return false;
}

float AudioEngine::VolumeToGain(float volume) noexcept {
  if (std::isnan(volume)) return 1.0f;
  return std::clamp(volume, 0.0f, kMaxVolume) / kMaxVolume;
}

void AudioEngine::SetInputVolume(float volume) noexcept {
  if (std::isnan(volume)) return;
  inputVolume_.store(std::clamp(volume, 0.0f, kMaxVolume), std::memory_order_relaxed);
}

void AudioEngine::SetOutputVolume(float volume) noexcept {
  if (std::isnan(volume)) return;
  outputVolume_.store(std::clamp(volume, 0.0f, kMaxVolume), std::memory_order_relaxed);
}

void AudioEngine::ApplyGain(std::span<int16_t> samples, float gain) noexcept {
  if (gain == 1.0f) return;  // unity is bit-exact
  if (gain <= 0.0f) {
    std::fill(samples.begin(), samples.end(), int16_t{0});
    return;
  }
  for (int16_t& s : samples) {
    const float v = std::nearbyint(static_cast<float>(s) * gain);
    s = static_cast<int16_t>(std::clamp(v, -32768.0f, 32767.0f));
  }
}

void AudioEngine::OnCapture(std::span<const int16_t> samples) noexcept {
  noInput_.Process(samples, kChannels);
  const bool mute = selfMute_.load(std::memory_order_relaxed);
  const float gain = VolumeToGain(inputVolume_.load(std::memory_order_relaxed));
  // Chunked through the preallocated scratch buffer, so that any period size works without allocating.
  while (!samples.empty()) {
    const std::size_t n = std::min(samples.size(), captureScratchSize_);
    std::span<int16_t> chunk(captureScratch_.get(), n);
    if (mute) {
      std::fill(chunk.begin(), chunk.end(), int16_t{0});
    } else {
      std::copy_n(samples.begin(), n, chunk.begin());
      ApplyGain(chunk, gain);
    }
    capture_.Write(chunk);
    samples = samples.subspan(n);
  }
}

void AudioEngine::OnPlayback(std::span<int16_t> samples) noexcept {
  // Always drain the ring, deafened or not, so that undeafening does not replay stale audio.
  playback_.Read(samples);
  if (selfDeaf_.load(std::memory_order_relaxed)) {
    std::fill(samples.begin(), samples.end(), int16_t{0});
    return;
  }
  ApplyGain(samples, VolumeToGain(outputVolume_.load(std::memory_order_relaxed)));
}

bool AudioEngine::ReadCaptureFrame(std::span<int16_t, kFrameSamples> frame) noexcept {
  return capture_.TryReadAll(frame);
}

bool AudioEngine::WritePlaybackFrame(std::span<const int16_t, kFrameSamples> frame) noexcept {
  return playback_.WriteAll(frame);
}

}  // namespace platformpp::audio
