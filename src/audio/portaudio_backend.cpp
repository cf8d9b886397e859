#include "audio/portaudio_backend.hpp"

#include <portaudio.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

namespace platformpp::audio {

namespace {

// PortAudio's global API (initialise, enumerate, open, close) is not thread-safe; engines of several Clients
// may be created on different threads.
std::mutex& PortAudioMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

struct PortAudioBackend::Stream {
  PaStream* stream = nullptr;
  AudioStreamSink* sink = nullptr;
  int inputChannels = 0;  // 0: no input on this stream
  int outputChannels = 0;
  std::size_t scratchFrames = 0;
  std::unique_ptr<int16_t[]> inScratch;  // stereo, for a mono input
  std::unique_ptr<int16_t[]> outScratch;

  // The device's real-time thread: no locks, no allocation.
  static int Callback(const void* input, void* output, unsigned long frames, const PaStreamCallbackTimeInfo*,
                      PaStreamCallbackFlags, void* user) {
    auto* self = static_cast<Stream*>(user);
    if (self->inputChannels > 0) self->Capture(static_cast<const int16_t*>(input), frames);
    if (self->outputChannels > 0) self->Playback(static_cast<int16_t*>(output), frames);
    return paContinue;
  }

  void Capture(const int16_t* in, std::size_t frames) noexcept {
    if (in == nullptr) return;  // input underflow reported by the host: nothing captured
    if (inputChannels == kChannels) {
      sink->OnCapture({in, frames * kChannels});
      return;
    }
    while (frames > 0) {
      const std::size_t n = std::min(frames, scratchFrames);
      for (std::size_t i = 0; i < n; ++i)
        inScratch[2 * i] = inScratch[2 * i + 1] = in[i];
      sink->OnCapture({inScratch.get(), n * kChannels});
      in += n;
      frames -= n;
    }
  }

  void Playback(int16_t* out, std::size_t frames) noexcept {
    if (outputChannels == kChannels) {
      sink->OnPlayback({out, frames * kChannels});
      return;
    }
    while (frames > 0) {
      const std::size_t n = std::min(frames, scratchFrames);
      sink->OnPlayback({outScratch.get(), n * kChannels});
      for (std::size_t i = 0; i < n; ++i) {
        out[i] = static_cast<int16_t>((static_cast<int>(outScratch[2 * i]) + outScratch[2 * i + 1]) / 2);
      }
      out += n;
      frames -= n;
    }
  }
};

std::unique_ptr<PortAudioBackend> PortAudioBackend::CreateAnyway() {
  std::unique_ptr<PortAudioBackend> backend(new PortAudioBackend());
  {
    std::lock_guard lock(PortAudioMutex());
    if (Pa_Initialize() != paNoError) return nullptr;
    backend->initialized_ = true;
  }
  backend->Scan();
  return backend;
}

std::unique_ptr<PortAudioBackend> PortAudioBackend::Create() {
  auto backend = CreateAnyway();
  if (!backend || !backend->HasDefaultDevices()) return nullptr;
  return backend;
}

PortAudioBackend::~PortAudioBackend() {
  Close();
  std::lock_guard lock(PortAudioMutex());
  if (initialized_) Pa_Terminate();
}

bool PortAudioBackend::HasDefaultDevices() const {
  auto hasDefault = [](const std::vector<Device>& devices) {
    return std::any_of(devices.begin(), devices.end(), [](const Device& d) { return d.info.isDefault; });
  };
  return hasDefault(inputs_) && hasDefault(outputs_);
}

void PortAudioBackend::Scan() {
  inputs_.clear();
  outputs_.clear();
  std::lock_guard lock(PortAudioMutex());
  if (!initialized_) return;
  const PaDeviceIndex defaultIn = Pa_GetDefaultInputDevice();
  const PaDeviceIndex defaultOut = Pa_GetDefaultOutputDevice();
  std::map<std::string, int> seen;
  const PaDeviceIndex count = Pa_GetDeviceCount();
  for (PaDeviceIndex i = 0; i < count; ++i) {
    const PaDeviceInfo* info = Pa_GetDeviceInfo(i);
    if (info == nullptr) continue;
    const PaHostApiInfo* api = Pa_GetHostApiInfo(info->hostApi);
    const std::string name = info->name != nullptr ? info->name : "";
    std::string id = std::string(api != nullptr && api->name != nullptr ? api->name : "?") + "/" + name;
    if (const int n = ++seen[id]; n > 1) id += " #" + std::to_string(n);
    if (info->maxInputChannels > 0) {
      inputs_.push_back({{id, name, i == defaultIn}, i, info->maxInputChannels});
    }
    if (info->maxOutputChannels > 0) {
      outputs_.push_back({{id, name, i == defaultOut}, i, info->maxOutputChannels});
    }
  }
}

namespace {

std::vector<AudioDeviceInfo> Infos(const std::vector<PortAudioBackend::Device>& devices) {
  std::vector<AudioDeviceInfo> out;
  out.reserve(devices.size());
  for (const auto& d : devices)
    out.push_back(d.info);
  return out;
}

const PortAudioBackend::Device* Find(const std::vector<PortAudioBackend::Device>& devices,
                                     const std::string& id) {
  for (const auto& d : devices) {
    if (id.empty() ? d.info.isDefault : d.info.id == id) return &d;
  }
  return nullptr;
}

PaStreamParameters Parameters(const PortAudioBackend::Device& device, bool input) {
  PaStreamParameters p{};
  p.device = device.index;
  p.channelCount = std::min(device.maxChannels, kChannels);
  p.sampleFormat = paInt16;
  const PaDeviceInfo* info = Pa_GetDeviceInfo(device.index);
  p.suggestedLatency =
      info == nullptr ? 0.02 : (input ? info->defaultLowInputLatency : info->defaultLowOutputLatency);
  return p;
}

}  // namespace

std::vector<AudioDeviceInfo> PortAudioBackend::InputDevices() {
  return Infos(inputs_);
}
std::vector<AudioDeviceInfo> PortAudioBackend::OutputDevices() {
  return Infos(outputs_);
}

bool PortAudioBackend::IsOpen() const noexcept {
  return !streams_.empty();
}

bool PortAudioBackend::Open(const AudioStreamConfig& config, AudioStreamSink& sink, std::string& error) {
  if (IsOpen()) {
    error = "the audio stream is already open";
    return false;
  }
  if (!initialized_) {
    error = "PortAudio is not initialised";
    return false;
  }
  if (config.periodFrames == 0 || (!config.input && !config.output)) {
    error = "nothing to open";
    return false;
  }
  const Device* in = nullptr;
  const Device* out = nullptr;
  if (config.input && (in = Find(inputs_, config.inputDeviceId)) == nullptr) {
    error = config.inputDeviceId.empty() ? "no default input device" : "unknown input device";
    return false;
  }
  if (config.output && (out = Find(outputs_, config.outputDeviceId)) == nullptr) {
    error = config.outputDeviceId.empty() ? "no default output device" : "unknown output device";
    return false;
  }

  std::lock_guard lock(PortAudioMutex());
  auto open = [&](const Device* inDevice, const Device* outDevice) -> bool {
    auto stream = std::make_unique<Stream>();
    stream->sink = &sink;
    stream->scratchFrames = config.periodFrames;
    stream->inScratch = std::make_unique<int16_t[]>(config.periodFrames * kChannels);
    stream->outScratch = std::make_unique<int16_t[]>(config.periodFrames * kChannels);
    PaStreamParameters inParams{};
    PaStreamParameters outParams{};
    if (inDevice != nullptr) {
      inParams = Parameters(*inDevice, true);
      stream->inputChannels = inParams.channelCount;
    }
    if (outDevice != nullptr) {
      outParams = Parameters(*outDevice, false);
      stream->outputChannels = outParams.channelCount;
    }
    PaError rc = Pa_OpenStream(&stream->stream, inDevice != nullptr ? &inParams : nullptr,
                               outDevice != nullptr ? &outParams : nullptr, kSampleRate, config.periodFrames,
                               paClipOff | paDitherOff, &Stream::Callback, stream.get());
    if (rc == paNoError) {
      rc = Pa_StartStream(stream->stream);
      if (rc != paNoError) Pa_CloseStream(stream->stream);
    }
    if (rc != paNoError) {
      error = std::string("PortAudio: ") + Pa_GetErrorText(rc);
      return false;
    }
    streams_.push_back(std::move(stream));
    return true;
  };
  auto closeAll = [&] {
    for (auto& s : streams_) {
      Pa_StopStream(s->stream);
      Pa_CloseStream(s->stream);
    }
    streams_.clear();
  };

  // One duplex stream only on one device (one clock); two devices keep their own streams and clocks, and the
  // engine's rings absorb the drift between them.
  if (in != nullptr && out != nullptr && in->index == out->index && open(in, out)) return true;
  if (in != nullptr && !open(in, nullptr)) {
    closeAll();
    return false;
  }
  if (out != nullptr && !open(nullptr, out)) {
    closeAll();
    return false;
  }
  error.clear();
  return true;
}

void PortAudioBackend::Close() noexcept {
  if (streams_.empty()) return;
  std::lock_guard lock(PortAudioMutex());
  // Pa_StopStream returns after the last callback has finished, so the sink is no longer called.
  for (auto& s : streams_) {
    Pa_StopStream(s->stream);
    Pa_CloseStream(s->stream);
  }
  streams_.clear();
}

bool PortAudioBackend::RefreshDevices() {
  if (IsOpen()) return false;
  auto inputs = InputDevices();
  auto outputs = OutputDevices();
  {
    std::lock_guard lock(PortAudioMutex());
    if (initialized_) Pa_Terminate();
    initialized_ = Pa_Initialize() == paNoError;
  }
  Scan();
  return inputs != InputDevices() || outputs != OutputDevices();
}

}  // namespace platformpp::audio
