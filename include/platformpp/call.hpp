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
  Uninit = 0,  ///< no mode: what a null Call reports; Call::SetAudioMode ignores it
  VAD = 1,     ///< voice activity detection: sends while the player speaks (the default)
  PTT = 2,     ///< push-to-talk: sends while Call::SetPTTActive(true), then for the release delay
};

/// A microphone or speaker as the audio system names it. The null device (machines without sound) has the ids
/// "null/input" and "null/output".
class AudioDevice {
 public:
  /// An empty device: empty id and name, not the default.
  AudioDevice() = default;
  /// A device with these values; the SDK makes them.
  AudioDevice(std::string id, std::string name, bool isDefault)
      : id_(std::move(id)), name_(std::move(name)), isDefault_(isDefault) {}
  /// The device's id, which Client::SetInputDevice and SetOutputDevice take.
  const std::string& Id() const { return id_; }
  /// The device's name, to show to the player.
  const std::string& Name() const { return name_; }
  /// Whether this is the system's default device of its direction.
  bool IsDefault() const { return isDefault_; }
  /// Whether both have the same id, name and default flag.
  bool operator==(const AudioDevice&) const = default;

 private:
  std::string id_;
  std::string name_;
  bool isDefault_ = false;
};

/// A participant's own mute and deafen switches, as the platform reports them.
class VoiceStateHandle {
 public:
  /// Neither muted nor deafened.
  VoiceStateHandle() = default;
  /// A voice state with these switches; the SDK makes them.
  VoiceStateHandle(bool selfMute, bool selfDeaf) : selfMute_(selfMute), selfDeaf_(selfDeaf) {}
  /// Whether the participant muted their microphone.
  bool SelfMute() const { return selfMute_; }
  /// Whether the participant deafened themselves (hears nothing of the call).
  bool SelfDeaf() const { return selfDeaf_; }

 private:
  bool selfMute_ = false;
  bool selfDeaf_ = false;
};

/// What a call's media did since the call started, across voice servers and reconnections
/// (Call::GetMediaStatistics): for a network-quality display, or a test that counts what a key change cost.
/// A platformpp extension; the platform's SDK has no such call. Updated every 20 ms while media flows.
struct CallMediaStatistics {
  uint64_t framesSent = 0;           ///< Opus frames sent, the silence frames that end speech included
  uint64_t framesEncrypted = 0;      ///< of those, end-to-end encrypted (DAVE)
  uint64_t framesWithheld = 0;       ///< not sent: end-to-end encryption is on and this member has no key yet
  uint64_t packetsReceived = 0;      ///< media datagrams received
  uint64_t framesDecrypted = 0;      ///< received frames end-to-end decrypted
  uint64_t framesInClear = 0;        ///< received frames without end-to-end encryption (the call is plain)
  uint64_t framesUndecryptable = 0;  ///< received frames dropped: no key of their epoch, bad tag, replayed...
  uint64_t framesLost = 0;           ///< missing from a sender's sequence when due to play
  uint64_t framesConcealed = 0;  ///< made up by loss concealment (losses, and a sender's stream running dry)
  uint64_t framesDecoded = 0;    ///< Opus frames decoded
};

/// One voice call of the player, in one lobby. A cheap copyable handle; every method is safe on the game
/// thread and never blocks. A default-constructed (or moved-from) Call is null: `if (call)` tells. Once its
/// status reaches Disconnected the call is over: end it (Client::EndCall) and start a new one to rejoin.
class Call {
 public:
  /// Where the call is in its life, from Joining to Disconnected (GetStatus, SetStatusChangedCallback).
  enum class Status {
    Disconnected = 0,        ///< not in the call: over (ended, failed), or a null Call
    Joining = 1,             ///< asked the platform for a place in the lobby's call
    Connecting = 2,          ///< connecting to the voice server
    SignalingConnected = 3,  ///< voice server session ready; media path being set up
    Connected = 4,           ///< audio flows
    Reconnecting = 5,        ///< the voice server connection dropped; resuming the session
    Disconnecting = 6,       ///< being ended (Client::EndCall): leaving the call
  };
  /// Why a call reached Disconnected without being asked to (the `error` of OnStatusChanged).
  enum class Error {
    None = 0,                       ///< no error: the call was ended, or has not failed
    SignalingConnectionFailed = 1,  ///< the voice server could not be reached (or never became ready)
    SignalingUnexpectedClose = 2,   ///< the voice server closed the session, or resuming it failed
    VoiceConnectionFailed = 3,      ///< the media path could not be set up
    JoinTimeout = 4,                ///< the call was not set up within the join timeout (15 s)
    /// Refused: the voice server refused authentication or requires E2EE, or the lobby went away.
    Forbidden = 5,
  };

  /// SetStatusChangedCallback: the new status, and for an unrequested Disconnected the error and its
  /// detail (a voice gateway close code, or 0).
  using OnStatusChanged = std::function<void(Status status, Error error, int32_t errorDetail)>;
  /// SetParticipantChangedCallback: `userId` joined (`added` true) or left the call.
  using OnParticipantChanged = std::function<void(uint64_t userId, bool added)>;
  /// SetSpeakingStatusChangedCallback: `userId` started (true) or stopped (false) sending sound.
  using OnSpeakingStatusChanged = std::function<void(uint64_t userId, bool isPlayingSound)>;
  /// SetOnVoiceStateChangedCallback: the voice state (GetVoiceStateHandle) of `userId` changed.
  using OnVoiceStateChanged = std::function<void(uint64_t userId)>;
  /// SetE2eeStatusChangedCallback: the new value of GetE2eeActive().
  using OnE2eeStatusChanged = std::function<void(bool e2eeActive)>;
  /// GetPairwiseVerificationCode: the 45 digits, or "" when there is no code.
  using OnPairwiseVerificationCode = std::function<void(std::string code)>;

  /// A null Call, whose methods do nothing and whose getters return defaults.
  Call() = default;
  /// A handle of `session`; the Client makes them (Client::StartCall).
  explicit Call(std::shared_ptr<voice::CallSession> session) : session_(std::move(session)) {}

  /// Whether the Call is not null (it has a call, over or not).
  explicit operator bool() const noexcept { return session_ != nullptr; }

  /// The lobby's id (lobby calls use it as their channel).
  uint64_t GetChannelId() const;
  /// 0: lobby calls belong to no guild.
  uint64_t GetGuildId() const;
  /// The call's current status; Disconnected for a null Call.
  Status GetStatus() const;
  /// The users in the call now, the player included once joined.
  std::vector<uint64_t> GetParticipants() const;
  /// The mute and deafen switches of participant `userId`; empty when they are not in the call.
  std::optional<VoiceStateHandle> GetVoiceStateHandle(uint64_t userId) const;

  /// A status change, inside RunCallbacks, in order. `error`/`errorDetail` (a voice gateway close code, or 0)
  /// explain a Disconnected that was not asked for.
  void SetStatusChangedCallback(OnStatusChanged callback);
  /// Someone joined or left the call, inside RunCallbacks.
  void SetParticipantChangedCallback(OnParticipantChanged callback);
  /// Someone started or stopped sending sound (the player included).
  void SetSpeakingStatusChangedCallback(OnSpeakingStatusChanged callback);
  /// A participant's mute or deafen switch changed, inside RunCallbacks.
  void SetOnVoiceStateChangedCallback(OnVoiceStateChanged callback);

  /// Stops sending the microphone (others see self_mute).
  void SetSelfMute(bool mute);
  /// Whether the player's microphone is muted (SetSelfMute); false for a null Call.
  bool GetSelfMute() const;
  /// Stops playing the call and sending (others see self_deaf; the server stops forwarding to the player).
  void SetSelfDeaf(bool deaf);
  /// Whether the player is deafened (SetSelfDeaf); false for a null Call.
  bool GetSelfDeaf() const;
  /// Silences one participant for this player only.
  void SetLocalMute(uint64_t userId, bool mute);
  /// Whether `userId` is silenced for this player (SetLocalMute); false by default.
  bool GetLocalMute(uint64_t userId) const;
  /// Playback volume of one participant for this player, 0 to 200 (percent; 100 = unchanged). Clamped.
  void SetParticipantVolume(uint64_t userId, float volume);
  /// The playback volume of `userId` (SetParticipantVolume), 0 to 200; 100 by default.
  float GetParticipantVolume(uint64_t userId) const;

  /// VAD (default) or PTT. Uninit is refused (ignored).
  void SetAudioMode(AudioModeType audioMode);
  /// The microphone's mode (SetAudioMode); Uninit for a null Call.
  AudioModeType GetAudioMode() const;
  /// While PTT is active the microphone is sent; after release it keeps going for the release delay.
  void SetPTTActive(bool active);
  /// Whether push-to-talk is pressed now (SetPTTActive).
  bool GetPTTActive() const;
  /// Milliseconds to keep sending after PTT release (default 20, at most 2000), honoured within one 20 ms
  /// frame.
  void SetPTTReleaseDelay(uint32_t releaseDelayMs);
  /// The push-to-talk release delay in milliseconds (SetPTTReleaseDelay); 0 for a null Call.
  uint32_t GetPTTReleaseDelay() const;
  /// Voice activity threshold: automatic (adapts to the noise floor) or a level in dBFS, -100 to 0 (default
  /// -60). Out-of-range levels are clamped.
  void SetVADThreshold(bool automatic, float threshold);
  /// Whether the voice activity threshold adapts automatically (SetVADThreshold); false by default.
  bool GetVADThresholdAutomatic() const;
  /// The fixed voice activity threshold in dBFS (SetVADThreshold), -100 to 0; -60 by default.
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

  /// What the call's media did since it started (CallMediaStatistics); all zero for a null Call.
  CallMediaStatistics GetMediaStatistics() const;

  /// The enumerator's name (e.g. "Connected"), for logs; "Unknown" for a value outside the enum.
  static std::string StatusToString(Status status);
  /// The enumerator's name (e.g. "JoinTimeout"), for logs; "Unknown" for a value outside the enum.
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
