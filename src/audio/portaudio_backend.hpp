#pragma once
// The PortAudio device layer. Each backend holds one Pa_Initialize (PortAudio counts them itself and tears
// down at the last Pa_Terminate), so engines in one process do not share any state of ours; a process-wide
// mutex in the .cpp only serialises the calls into PortAudio's non-thread-safe global API.
//
// Device ids are "<host API>/<device name>" with " #2", " #3"... appended to later duplicates, in PortAudio's
// order: stable across enumerations and runs while the set of devices is the same, unlike PortAudio's
// indices.
//
// Device changes: PortAudio 19.6 scans devices only in Pa_Initialize, so noticing a plugged or removed device
// takes a Pa_Terminate + Pa_Initialize, which would invalidate open streams. RefreshDevices() therefore
// re-scans only while no stream of this backend is open (the owner calls it on request or on a timer between
// calls) and reports whether the lists changed; during a call it returns false. The re-scan is real only when
// no other PortAudio user in the process holds an initialisation at that moment (PortAudio's reference
// count); otherwise the lists are re-read from the current scan.
//
// Streams: 48 kHz, int16, stereo, or mono when a device has one channel (then up- or down-mixed here in
// preallocated buffers). Input and output on the same device (e.g. "ALSA/default", "ALSA/pulse") open as one
// duplex stream (one clock, capture and playback in step, which suits echo cancellation); otherwise as two
// streams, each on its device's clock.

#include "audio/audio_device.hpp"

#include <memory>
#include <string>
#include <vector>

namespace platformpp::audio {

class PortAudioBackend final : public AudioBackend {
 public:
  /// Null when PortAudio cannot initialise or there is no default input or output device.
  static std::unique_ptr<PortAudioBackend> Create();
  /// Null when PortAudio cannot initialise; devices may be missing.
  static std::unique_ptr<PortAudioBackend> CreateAnyway();
  ~PortAudioBackend() override;

  std::string_view Name() const noexcept override { return "portaudio"; }
  std::vector<AudioDeviceInfo> InputDevices() override;
  std::vector<AudioDeviceInfo> OutputDevices() override;
  bool Open(const AudioStreamConfig& config, AudioStreamSink& sink, std::string& error) override;
  void Close() noexcept override;
  bool IsOpen() const noexcept override;
  bool RefreshDevices() override;

  /// True when both a default input and a default output device exist.
  bool HasDefaultDevices() const;

  struct Device {
    AudioDeviceInfo info;
    int index = -1;  // PortAudio's, valid for the current scan only
    int maxChannels = 0;
  };
  struct Stream;  // one open PaStream and its conversion buffers

 private:
  PortAudioBackend() = default;
  void Scan();

  bool initialized_ = false;
  std::vector<Device> inputs_;
  std::vector<Device> outputs_;
  std::vector<std::unique_ptr<Stream>> streams_;
};

}  // namespace platformpp::audio
