#pragma once
// The Client's voice thread (ClientThread::Voice): every 20 ms it takes one microphone frame from the audio
// engine's capture ring, runs the calls' captured-audio callbacks and the audio processing (echo
// cancellation, noise suppression, gain control), feeds each call's send pipeline and UDP socket, reads the
// calls' datagrams into their receive pipelines, mixes what they play out and queues it on the playback ring.
// The device callback thread talks to it only through those lock-free rings; the network and game threads
// only through a command queue whose lock the voice thread never waits for (it tries it once per tick), so
// a busy network thread never stalls audio. Allocation-free per frame in steady state.
//
// Everything about devices (enumerate, open, switch) also runs here: PortAudio wants one thread.

#include "audio/audio_device.hpp"
#include "audio/audio_processing.hpp"
#include "core/registered_callback.hpp"
#include "core/runtime.hpp"
#include "media_wire/ip_discovery.hpp"
#include "media_wire/transport_cipher.hpp"
#include "voice/dave/frame_transforms.hpp"

#include <platformpp/call.hpp>
#include <platformpp/client_status.hpp>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace platformpp::voice {

/// What a call's media reports back; called on the voice thread (keep them short, no blocking).
struct MediaEvents {
  /// IP discovery finished: the address and port the server saw, or nullopt (with a reason) on failure.
  std::function<void(std::optional<media_wire::DiscoveredAddress> address, std::string error)> discovered;
  /// The player's transmit gate opened (true) or closed (false): send op 5 Speaking, then announce it.
  std::function<void(bool speaking)> speakingChanged;
};

struct MediaCounters {
  uint64_t framesSent = 0;
  uint64_t silenceFramesSent = 0;
  uint64_t packetsReceived = 0;
  uint64_t packetsAccepted = 0;
  uint64_t tampered = 0;
  uint64_t replayed = 0;
  uint64_t malformed = 0;
  uint64_t lost = 0;
  uint64_t concealed = 0;
  uint64_t framesDecoded = 0;
  dave::DaveFrameEncryptor::Counters e2eeSend;
  dave::DaveFrameDecryptor::Counters e2eeReceive;
};

/// The player's transmit settings of one call (self mute, audio mode, PTT, VAD).
struct TransmitSettings {
  bool selfMute = false;
  bool selfDeaf = false;
  AudioModeType mode = AudioModeType::VAD;
  bool pttActive = false;
  uint32_t pttReleaseDelayMs = 20;
  bool vadAutomatic = false;
  float vadThresholdDb = -60.0f;
};

class VoiceEngine {
 public:
  explicit VoiceEngine(core::Runtime& runtime);
  ~VoiceEngine();  ///< Stop()
  VoiceEngine(const VoiceEngine&) = delete;
  VoiceEngine& operator=(const VoiceEngine&) = delete;

  /// Ends the thread (closing sockets and devices); nothing it reports runs after this returns. Idempotent.
  void Stop();

  // --- calls (any thread; applied on the voice thread in call order) ---
  /// Connects the call's UDP socket to the forwarding unit and runs IP discovery; events.discovered reports.
  void OpenMedia(uint64_t callId, std::string ip, uint16_t port, uint32_t ssrc, MediaEvents events);
  /// Starts sending and receiving with the Session Description's mode and key.
  void StartMedia(uint64_t callId, media_wire::TransportMode mode, const media_wire::TransportKey& key);
  /// Changes the call's DAVE transforms on the voice thread, between frames, in call order (`nowMs` is the
  /// voice thread's clock, as frames see it). Dropped when the call's media has not started.
  using E2eeUpdate =
      std::function<void(dave::DaveFrameEncryptor&, dave::DaveFrameDecryptor&, uint64_t nowMs)>;
  void UpdateE2ee(uint64_t callId, E2eeUpdate update);
  /// Stops the call's media and closes its socket. `closed` runs (on the voice thread, or here when the
  /// thread is gone) once the call's audio callbacks can no longer run.
  void CloseMedia(uint64_t callId, std::function<void()> closed = {});
  /// Stops the call's media transport (socket, pipelines, SSRCs: they belong to one voice server) and keeps
  /// what the player set for the call (audio callbacks, transmit settings, local mutes, volumes), so that
  /// OpenMedia on a new voice server carries on with them.
  void ResetTransport(uint64_t callId);
  void SetAudioCallbacks(uint64_t callId, UserAudioReceivedCallback received,
                         UserAudioCapturedCallback captured);
  void MapSsrc(uint64_t callId, uint32_t ssrc, uint64_t userId);
  void UnmapUser(uint64_t callId, uint64_t userId);
  void SetLocalMute(uint64_t callId, uint64_t userId, bool mute);
  void SetUserVolume(uint64_t callId, uint64_t userId, int percent);
  void SetTransmit(uint64_t callId, const TransmitSettings& settings);
  /// The latest counters of the call's media (updated every tick); zeros for an unknown call.
  MediaCounters Counters(uint64_t callId) const;

  // --- audio (any thread) ---
  void GetDevices(bool input, std::function<void(std::vector<AudioDevice>)> done);
  void GetCurrentDevice(bool input, std::function<void(AudioDevice)> done);
  void SetDevice(bool input, std::string id, std::function<void(bool ok, std::string error)> done);
  void SetDeviceChangeCallback(DeviceChangeCallback callback);
  void SetNoAudioInputCallback(NoAudioInputCallback callback);
  void SetNoAudioInputThreshold(float dbfs);
  void SetInputVolume(float volume);
  void SetOutputVolume(float volume);
  float InputVolume() const { return inputVolume_.load(); }
  float OutputVolume() const { return outputVolume_.load(); }
  void SetEchoCancellation(bool on);
  void SetNoiseSuppression(bool on);
  void SetAutomaticGainControl(bool on);
  bool EchoCancellation() const { return aec_.load(); }
  bool NoiseSuppression() const { return ns_.load(); }
  bool AutomaticGainControl() const { return agc_.load(); }
  /// Starts (into `directory`) or stops the echo canceller's dump.
  void SetAecDump(bool on, std::filesystem::path directory);
  void SetThreadPriority(int32_t priority);

 private:
  struct State;  // the voice thread's own
  using Command = std::function<void(State&)>;
  /// False (and `command` dropped) once Stop has begun.
  bool Post(Command command);
  void EnsureThread();
  void Run();
  audio::AudioEngine& EnsureAudio(State& state);  // voice thread

  core::Runtime& runtime_;
  core::RegisteredCallback<DeviceChangeCallback> deviceChangeCallback_;
  core::RegisteredCallback<NoAudioInputCallback> noInputCallback_;
  std::mutex commandsMutex_;  // guards commands_ and thread_ start; the voice thread only try_locks it
  std::vector<Command> commands_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  bool stopped_ = false;
  std::unique_ptr<State> state_;

  mutable std::mutex countersMutex_;  // the voice thread publishes with try_lock
  std::vector<std::pair<uint64_t, MediaCounters>> counters_;

  std::atomic<float> inputVolume_{100.0f};
  std::atomic<float> outputVolume_{100.0f};
  std::atomic<bool> aec_{true};
  std::atomic<bool> ns_{true};
  std::atomic<bool> agc_{true};
};

}  // namespace platformpp::voice
