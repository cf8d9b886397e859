// Client's voice calls and audio settings, and the Call handle: thin forwards to voice::VoiceManager,
// voice::CallSession and voice::VoiceEngine.
#include "client/client_core.hpp"
#include "voice/call_session.hpp"
#include "voice/voice_manager.hpp"

#include <platformpp/call.hpp>
#include <platformpp/client.hpp>

#include <algorithm>
#include <cmath>

namespace platformpp {

// --- Client
// -------------------------------------------------------------------------------------------------

Call Client::StartCall(uint64_t lobbyId) {
  return core_->Voice().StartCall(lobbyId, {}, {});
}

Call Client::StartCallWithAudioCallbacks(uint64_t lobbyId, UserAudioReceivedCallback receivedCb,
                                         UserAudioCapturedCallback capturedCb) {
  return core_->Voice().StartCall(lobbyId, std::move(receivedCb), std::move(capturedCb));
}

void Client::EndCall(uint64_t channelId, EndCallCallback callback) {
  core_->Voice().EndCall(channelId, std::move(callback));
}

void Client::EndCalls(EndCallsCallback callback) {
  core_->Voice().EndCalls(std::move(callback));
}

Call Client::GetCall(uint64_t channelId) {
  return core_->Voice().GetCall(channelId);
}

std::vector<Call> Client::GetCalls() {
  return core_->Voice().GetCalls();
}

void Client::GetInputDevices(GetAudioDevicesCallback callback) {
  core_->Voice().Engine().GetDevices(true, std::move(callback));
}

void Client::GetOutputDevices(GetAudioDevicesCallback callback) {
  core_->Voice().Engine().GetDevices(false, std::move(callback));
}

void Client::GetCurrentInputDevice(std::function<void(AudioDevice device)> callback) {
  core_->Voice().Engine().GetCurrentDevice(true, std::move(callback));
}

void Client::GetCurrentOutputDevice(std::function<void(AudioDevice device)> callback) {
  core_->Voice().Engine().GetCurrentDevice(false, std::move(callback));
}

namespace {
void SetDevice(client::ClientCore& core, bool input, std::string deviceId,
               Client::SetAudioDeviceCallback callback) {
  auto completion = std::make_shared<core::Completion<>>(core.MakeCompletion<>(std::move(callback)));
  if (core.Destroying()) return;
  core.Voice().Engine().SetDevice(input, std::move(deviceId), [completion](bool ok, std::string error) {
    if (ok) {
      (*completion)(ClientResult());
    } else {
      (*completion)(ClientResult::Failure(ErrorType::ValidationError, std::move(error)));
    }
  });
}
}  // namespace

void Client::SetInputDevice(std::string deviceId, SetAudioDeviceCallback callback) {
  SetDevice(*core_, true, std::move(deviceId), std::move(callback));
}

void Client::SetOutputDevice(std::string deviceId, SetAudioDeviceCallback callback) {
  SetDevice(*core_, false, std::move(deviceId), std::move(callback));
}

void Client::SetDeviceChangeCallback(DeviceChangeCallback callback) {
  core_->Voice().Engine().SetDeviceChangeCallback(std::move(callback));
}

void Client::SetInputVolume(float inputVolume) {
  if (!std::isnan(inputVolume)) core_->Voice().Engine().SetInputVolume(inputVolume);
}
float Client::GetInputVolume() const {
  return core_->Voice().Engine().InputVolume();
}
void Client::SetOutputVolume(float outputVolume) {
  if (!std::isnan(outputVolume)) core_->Voice().Engine().SetOutputVolume(outputVolume);
}
float Client::GetOutputVolume() const {
  return core_->Voice().Engine().OutputVolume();
}

void Client::SetSelfMuteAll(bool mute) {
  core_->Voice().SetSelfMuteAll(mute);
}
bool Client::GetSelfMuteAll() const {
  return core_->Voice().SelfMuteAll();
}
void Client::SetSelfDeafAll(bool deaf) {
  core_->Voice().SetSelfDeafAll(deaf);
}
bool Client::GetSelfDeafAll() const {
  return core_->Voice().SelfDeafAll();
}

void Client::SetNoAudioInputThreshold(float dBFSThreshold) {
  if (!std::isnan(dBFSThreshold))
    core_->Voice().Engine().SetNoAudioInputThreshold(std::clamp(dBFSThreshold, -100.0f, 0.0f));
}
void Client::SetNoAudioInputCallback(NoAudioInputCallback callback) {
  core_->Voice().Engine().SetNoAudioInputCallback(std::move(callback));
}

void Client::SetEchoCancellation(bool on) {
  core_->Voice().Engine().SetEchoCancellation(on);
}
bool Client::GetEchoCancellation() const {
  return core_->Voice().Engine().EchoCancellation();
}
void Client::SetNoiseSuppression(bool on) {
  core_->Voice().Engine().SetNoiseSuppression(on);
}
bool Client::GetNoiseSuppression() const {
  return core_->Voice().Engine().NoiseSuppression();
}
void Client::SetAutomaticGainControl(bool on) {
  core_->Voice().Engine().SetAutomaticGainControl(on);
}
bool Client::GetAutomaticGainControl() const {
  return core_->Voice().Engine().AutomaticGainControl();
}

bool Client::SetEngineManagedAudioSession(bool isEngineManaged) {
  return core_->Voice().SetEngineManagedAudioSession(isEngineManaged);
}

void Client::SetAecDump(bool on) {
  core_->Voice().SetAecDump(on);
}

bool Client::SetVoiceLogDir(const std::string& path, LoggingSeverity minSeverity) {
  return core_->Voice().SetVoiceLogDir(path, minSeverity);
}

void Client::AddVoiceLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
  core_->VoiceLog().AddCallback(std::move(callback), minSeverity);
}

void Client::SetThreadPriority(Thread thread, int32_t priority) {
  core_->Voice().SetThreadPriority(thread, priority);
}

// --- Call
// ---------------------------------------------------------------------------------------------------

uint64_t Call::GetChannelId() const {
  return session_ ? session_->LobbyId() : 0;
}
uint64_t Call::GetGuildId() const {
  return 0;
}
Call::Status Call::GetStatus() const {
  return session_ ? session_->Status() : Status::Disconnected;
}
std::vector<uint64_t> Call::GetParticipants() const {
  return session_ ? session_->Participants() : std::vector<uint64_t>{};
}
std::optional<VoiceStateHandle> Call::GetVoiceStateHandle(uint64_t userId) const {
  return session_ ? session_->VoiceState(userId) : std::nullopt;
}
void Call::SetStatusChangedCallback(OnStatusChanged callback) {
  if (session_) session_->callbacks.status.Set(std::move(callback));
}
void Call::SetParticipantChangedCallback(OnParticipantChanged callback) {
  if (session_) session_->callbacks.participant.Set(std::move(callback));
}
void Call::SetSpeakingStatusChangedCallback(OnSpeakingStatusChanged callback) {
  if (session_) session_->callbacks.speaking.Set(std::move(callback));
}
void Call::SetOnVoiceStateChangedCallback(OnVoiceStateChanged callback) {
  if (session_) session_->callbacks.voiceState.Set(std::move(callback));
}
void Call::SetSelfMute(bool mute) {
  if (session_) session_->SetSelfMute(mute);
}
bool Call::GetSelfMute() const {
  return session_ && session_->Transmit().selfMute;
}
void Call::SetSelfDeaf(bool deaf) {
  if (session_) session_->SetSelfDeaf(deaf);
}
bool Call::GetSelfDeaf() const {
  return session_ && session_->Transmit().selfDeaf;
}
void Call::SetLocalMute(uint64_t userId, bool mute) {
  if (session_) session_->SetLocalMute(userId, mute);
}
bool Call::GetLocalMute(uint64_t userId) const {
  return session_ && session_->LocalMute(userId);
}
void Call::SetParticipantVolume(uint64_t userId, float volume) {
  if (session_) session_->SetParticipantVolume(userId, volume);
}
float Call::GetParticipantVolume(uint64_t userId) const {
  return session_ ? session_->ParticipantVolume(userId) : 100.0f;
}
void Call::SetAudioMode(AudioModeType audioMode) {
  if (session_) session_->SetAudioMode(audioMode);
}
AudioModeType Call::GetAudioMode() const {
  return session_ ? session_->Transmit().mode : AudioModeType::Uninit;
}
void Call::SetPTTActive(bool active) {
  if (session_) session_->SetPTTActive(active);
}
bool Call::GetPTTActive() const {
  return session_ && session_->Transmit().pttActive;
}
void Call::SetPTTReleaseDelay(uint32_t releaseDelayMs) {
  if (session_) session_->SetPTTReleaseDelay(releaseDelayMs);
}
uint32_t Call::GetPTTReleaseDelay() const {
  return session_ ? session_->Transmit().pttReleaseDelayMs : 0;
}
void Call::SetVADThreshold(bool automatic, float threshold) {
  if (session_) session_->SetVADThreshold(automatic, threshold);
}
bool Call::GetVADThresholdAutomatic() const {
  return session_ && session_->Transmit().vadAutomatic;
}
float Call::GetVADThreshold() const {
  return session_ ? session_->Transmit().vadThresholdDb : -60.0f;
}
bool Call::GetE2eeActive() const {
  return session_ && session_->E2eeActive();
}
std::vector<uint8_t> Call::GetEpochAuthenticator() const {
  return session_ ? session_->EpochAuthenticator() : std::vector<uint8_t>{};
}
std::string Call::GetEpochVerificationCode() const {
  return session_ ? session_->EpochVerificationCode() : std::string();
}
void Call::GetPairwiseVerificationCode(uint64_t userId, OnPairwiseVerificationCode callback) {
  // A null Call has no Client whose RunCallbacks could deliver: the callback is dropped unrun.
  if (session_) session_->PairwiseVerificationCode(userId, std::move(callback));
}
void Call::SetE2eeStatusChangedCallback(OnE2eeStatusChanged callback) {
  if (session_) session_->callbacks.e2ee.Set(std::move(callback));
}
CallMediaStatistics Call::GetMediaStatistics() const {
  if (!session_) return {};
  const voice::MediaCounters counters = session_->Counters();
  const auto& drops = counters.e2eeReceive.drops;
  CallMediaStatistics statistics;
  statistics.framesSent = counters.framesSent;
  statistics.framesEncrypted = counters.e2eeSend.encrypted;
  statistics.framesWithheld = counters.e2eeSend.withheld;
  statistics.packetsReceived = counters.packetsReceived;
  statistics.framesDecrypted = counters.e2eeReceive.decrypted;
  statistics.framesInClear = counters.e2eeReceive.passedThrough;
  statistics.framesUndecryptable = drops.notEncrypted + drops.malformed + drops.unknownSender +
                                   drops.replayed + drops.tooFarAhead + drops.expired + drops.authentication;
  statistics.framesLost = counters.lost;
  statistics.framesConcealed = counters.concealed;
  statistics.framesDecoded = counters.framesDecoded;
  return statistics;
}

std::string Call::StatusToString(Status status) {
  switch (status) {
    case Status::Disconnected:
      return "Disconnected";
    case Status::Joining:
      return "Joining";
    case Status::Connecting:
      return "Connecting";
    case Status::SignalingConnected:
      return "SignalingConnected";
    case Status::Connected:
      return "Connected";
    case Status::Reconnecting:
      return "Reconnecting";
    case Status::Disconnecting:
      return "Disconnecting";
  }
  return "Unknown";
}

std::string Call::ErrorToString(Error error) {
  switch (error) {
    case Error::None:
      return "None";
    case Error::SignalingConnectionFailed:
      return "SignalingConnectionFailed";
    case Error::SignalingUnexpectedClose:
      return "SignalingUnexpectedClose";
    case Error::VoiceConnectionFailed:
      return "VoiceConnectionFailed";
    case Error::JoinTimeout:
      return "JoinTimeout";
    case Error::Forbidden:
      return "Forbidden";
  }
  return "Unknown";
}

}  // namespace platformpp
