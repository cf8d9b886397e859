#pragma once
// Voice calls in lobbies: the Call handle a Client's StartCall returns, the voice state of a participant, and
// audio devices. Names, callback shapes and enum values follow the platform's own Social SDK.

#include <platformpp/client_result.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {

namespace voice {
class CallSession;
}

/// How the microphone decides what to send: voice activity detection or push-to-talk.
enum class AudioModeType {
  Uninit = 0,
  VAD = 1,
  PTT = 2,
};

/// A microphone or speaker as the audio system names it. The null device (machines without sound) has the ids
/// "null/input" and "null/output".
class AudioDevice {
 public:
  AudioDevice() = default;
  AudioDevice(std::string id, std::string name, bool isDefault)
      : id_(std::move(id)), name_(std::move(name)), isDefault_(isDefault) {}
  const std::string& Id() const { return id_; }
  const std::string& Name() const { return name_; }
  bool IsDefault() const { return isDefault_; }
  bool operator==(const AudioDevice&) const = default;

 private:
  std::string id_;
  std::string name_;
  bool isDefault_ = false;
};

/// A participant's own mute and deafen switches, as the platform reports them.
class VoiceStateHandle {
 public:
  VoiceStateHandle() = default;
  VoiceStateHandle(bool selfMute, bool selfDeaf) : selfMute_(selfMute), selfDeaf_(selfDeaf) {}
  bool SelfMute() const { return selfMute_; }
  bool SelfDeaf() const { return selfDeaf_; }

 private:
  bool selfMute_ = false;
  bool selfDeaf_ = false;
};

/// One voice call of the player, in one lobby. A cheap copyable handle; every method is safe on the game
/// thread and never blocks. A default-constructed (or moved-from) Call is null: `if (call)` tells. Once its
/// status reaches Disconnected the call is over: end it (Client::EndCall) and start a new one to rejoin.
class Call {
 public:
  enum class Status {
    Disconnected = 0,
    Joining = 1,             // asked the platform for a place in the lobby's call
    Connecting = 2,          // connecting to the voice server
    SignalingConnected = 3,  // voice server session ready; media path being set up
    Connected = 4,           // audio flows
    Reconnecting = 5,        // the voice server connection dropped; resuming the session
    Disconnecting = 6,
  };
  enum class Error {
    None = 0,
    SignalingConnectionFailed = 1,
    SignalingUnexpectedClose = 2,
    VoiceConnectionFailed = 3,
    JoinTimeout = 4,
    Forbidden = 5,
  };

  using OnStatusChanged = std::function<void(Status status, Error error, int32_t errorDetail)>;
  using OnParticipantChanged = std::function<void(uint64_t userId, bool added)>;
  using OnSpeakingStatusChanged = std::function<void(uint64_t userId, bool isPlayingSound)>;
  using OnVoiceStateChanged = std::function<void(uint64_t userId)>;
  using OnE2eeStatusChanged = std::function<void(bool e2eeActive)>;
  using OnPairwiseVerificationCode = std::function<void(std::string code)>;

  Call() = default;
  explicit Call(std::shared_ptr<voice::CallSession> session) : session_(std::move(session)) {}

  explicit operator bool() const noexcept { return session_ != nullptr; }

  /// The lobby's id (lobby calls use it as their channel).
  uint64_t GetChannelId() const;
  /// 0: lobby calls belong to no guild.
  uint64_t GetGuildId() const;
  Status GetStatus() const;
  /// The users in the call now, the player included once joined.
  std::vector<uint64_t> GetParticipants() const;
  std::optional<VoiceStateHandle> GetVoiceStateHandle(uint64_t userId) const;

  /// A status change, inside RunCallbacks, in order. `error`/`errorDetail` (a voice gateway close code, or 0)
  /// explain a Disconnected that was not asked for.
  void SetStatusChangedCallback(OnStatusChanged callback);
  void SetParticipantChangedCallback(OnParticipantChanged callback);
  /// Someone started or stopped sending sound (the player included).
  void SetSpeakingStatusChangedCallback(OnSpeakingStatusChanged callback);
  void SetOnVoiceStateChangedCallback(OnVoiceStateChanged callback);

  /// Stops sending the microphone (others see self_mute).
  void SetSelfMute(bool mute);
  bool GetSelfMute() const;
  /// Stops playing the call and sending (others see self_deaf; the server stops forwarding to the player).
  void SetSelfDeaf(bool deaf);
  bool GetSelfDeaf() const;
  /// Silences one participant for this player only.
  void SetLocalMute(uint64_t userId, bool mute);
  bool GetLocalMute(uint64_t userId) const;
  /// Playback volume of one participant for this player, 0 to 200 (percent; 100 = unchanged). Clamped.
  void SetParticipantVolume(uint64_t userId, float volume);
  float GetParticipantVolume(uint64_t userId) const;

  /// VAD (default) or PTT. Uninit is refused (ignored).
  void SetAudioMode(AudioModeType audioMode);
  AudioModeType GetAudioMode() const;
  /// While PTT is active the microphone is sent; after release it keeps going for the release delay.
  void SetPTTActive(bool active);
  bool GetPTTActive() const;
  /// Milliseconds to keep sending after PTT release (default 20, at most 2000), honoured within one 20 ms
  /// frame.
  void SetPTTReleaseDelay(uint32_t releaseDelayMs);
  uint32_t GetPTTReleaseDelay() const;
  /// Voice activity threshold: automatic (adapts to the noise floor) or a level in dBFS, -100 to 0 (default
  /// -60). Out-of-range levels are clamped.
  void SetVADThreshold(bool automatic, float threshold);
  bool GetVADThresholdAutomatic() const;
  float GetVADThreshold() const;

  // End-to-end encryption (DAVE; docs/dave.md). The voice server forwards media it cannot read; these let
  // players check that nobody else holds the keys, with the same digits the platform's own clients show.

  /// Whether the call's media is end-to-end encrypted now: true from the first DAVE transition the voice
  /// server executes, false before it, after a downgrade to plain media, and once the call is over.
  bool GetE2eeActive() const;
  /// The current MLS epoch's authenticator (32 bytes), the same for every member of the group; empty when
  /// there is no group. It changes with every epoch (someone joins or leaves).
  std::vector<uint8_t> GetEpochAuthenticator() const;
  /// The epoch authenticator as 30 digits (libdave's displayable code); empty when there is no group.
  /// Everyone in the call sees the same digits, so players can compare them out loud; compare while
  /// GetE2eeActive() is true, and read it again after a participant change (a new epoch, new digits).
  std::string GetEpochVerificationCode() const;
  /// The 45-digit code of the player and `userId` (libdave's pairwise fingerprint: both members' signature
  /// keys through scrypt), the same on both sides. It survives new epochs and changes only with a key (a
  /// rejoin, or the call moving to another voice server). Two players compare it to rule out a substituted
  /// key. Computed on a thread of the SDK (scrypt takes about 100 ms); `callback` runs once, inside
  /// RunCallbacks, with "" when E2EE is off, `userId` is not in the group or is the player, or the Client
  /// is destroyed first. A null Call calls nothing.
  void GetPairwiseVerificationCode(uint64_t userId, OnPairwiseVerificationCode callback);
  /// GetE2eeActive() changed, inside RunCallbacks, in order. Only the flag: a new epoch with encryption
  /// still on calls nothing (see GetEpochVerificationCode).
  void SetE2eeStatusChangedCallback(OnE2eeStatusChanged callback);

  static std::string StatusToString(Status status);
  static std::string ErrorToString(Error error);

 private:
  std::shared_ptr<voice::CallSession> session_;
};

// The callbacks of Client's voice calls (also reachable as Client::<name>). The two audio callbacks run on
// the voice thread; the others inside RunCallbacks.

/// Runs on the voice thread, not inside RunCallbacks, once per 20 ms frame per speaking participant, with the
/// decoded samples before the SDK mixes them; set outShouldMute to keep the SDK from playing them. Keep it
/// short and lock-free: it is on the audio path.
using UserAudioReceivedCallback =
    std::function<void(uint64_t userId, int16_t* data, uint64_t samplesPerChannel, int32_t sampleRate,
                       uint64_t channels, bool& outShouldMute)>;
/// Runs on the voice thread once per 20 ms microphone frame, before processing and sending; it may change the
/// samples in place (what it leaves is what is sent). The same budget as above.
using UserAudioCapturedCallback =
    std::function<void(int16_t* data, uint64_t samplesPerChannel, int32_t sampleRate, uint64_t channels)>;
/// Client::EndCall: the platform was told and the call's audio callbacks have stopped for good.
using EndCallCallback = std::function<void()>;
/// Client::EndCalls: the same, for every call.
using EndCallsCallback = std::function<void()>;
/// Client::GetInputDevices and GetOutputDevices.
using GetAudioDevicesCallback = std::function<void(std::vector<AudioDevice> devices)>;
/// Client::SetInputDevice and SetOutputDevice.
using SetAudioDeviceCallback = std::function<void(ClientResult result)>;
/// Client::SetDeviceChangeCallback: the device lists changed.
using DeviceChangeCallback =
    std::function<void(std::vector<AudioDevice> inputDevices, std::vector<AudioDevice> outputDevices)>;
/// Client::SetNoAudioInputCallback: false when the microphone went silent for 5 s, true when sound came back.
using NoAudioInputCallback = std::function<void(bool inputDetected)>;

}  // namespace platformpp
