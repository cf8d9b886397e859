#pragma once
// One call of the player, in one lobby: what a public Call handle points at. It joins through the main
// Gateway (op 4, then LOBBY_VOICE_STATE_UPDATE and LOBBY_VOICE_SERVER_UPDATE), runs the voice gateway session
// (VoiceGatewayConnection, whose sink it is), and hands media to the Client's voice thread (VoiceEngine).
//
// Status: Joining (op 4 sent) -> Connecting (voice server known) -> SignalingConnected (Ready; IP discovery)
// -> Connected (Session Description: audio flows) <-> Reconnecting (voice gateway resuming). Disconnected
// ends it, with an error when it was not asked for; a Disconnected call is over: EndCall it and start a new
// one.
//
// Threads: the game thread calls the public methods; the network thread delivers Gateway dispatches and voice
// gateway events; the voice thread reports IP discovery and the player's speaking edges, which are moved to
// the network thread. One mutex guards the state; it is never held while calling the voice gateway connection
// (whose sink methods take it) or a user callback. State is updated before the callback announcing it is
// queued.

#include "lobby/lobby_json.hpp"
#include "messaging/retry_timer.hpp"
#include "voice/voice_engine.hpp"
#include "voice/voice_gateway_connection.hpp"

#include <platformpp/call.hpp>
#include <platformpp/client.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace platformpp::core {
class ClientCore;
}

namespace platformpp::voice {

class CallSession final : public VoiceGatewaySink, public std::enable_shared_from_this<CallSession> {
 public:
  /// How long Joining may last before the call ends with JoinTimeout (no voice server from the platform).
  static constexpr std::chrono::milliseconds kJoinTimeout{15000};
  static constexpr uint32_t kMaxPttReleaseDelayMs = 2000;
  /// After the platform ends the player's voice state, how long to wait for the voice server's close code.
  static constexpr std::chrono::milliseconds kCloseReasonWait{1000};

  CallSession(core::ClientCore& core, VoiceEngine& engine, messaging::RetryTimer& timer, uint64_t lobbyId,
              uint64_t selfId, uint64_t mediaId);
  ~CallSession() override;

  uint64_t LobbyId() const noexcept { return lobbyId_; }

  // --- game thread ---
  /// Sends op 4 (Joining). `settings` carries the Client-wide mute/deafen.
  void Start(TransmitSettings settings, Client::UserAudioReceivedCallback received,
             Client::UserAudioCapturedCallback captured);
  /// Leaves: op 4 with channel_id null, closes the voice gateway and the media. Disconnecting, then
  /// Disconnected (no error). `done` runs on the network thread once op 4 went out (or could not).
  void End(std::function<void()> done);

  Call::Status Status() const;
  std::vector<uint64_t> Participants() const;
  std::optional<VoiceStateHandle> VoiceState(uint64_t userId) const;
  void SetStatusChangedCallback(Call::OnStatusChanged callback);
  void SetParticipantChangedCallback(Call::OnParticipantChanged callback);
  void SetSpeakingStatusChangedCallback(Call::OnSpeakingStatusChanged callback);
  void SetOnVoiceStateChangedCallback(Call::OnVoiceStateChanged callback);

  void SetSelfMute(bool mute);
  void SetSelfDeaf(bool deaf);
  TransmitSettings Transmit() const;
  void SetLocalMute(uint64_t userId, bool mute);
  bool LocalMute(uint64_t userId) const;
  void SetParticipantVolume(uint64_t userId, float volume);
  float ParticipantVolume(uint64_t userId) const;
  void SetAudioMode(AudioModeType mode);
  void SetPTTActive(bool active);
  void SetPTTReleaseDelay(uint32_t ms);
  void SetVADThreshold(bool automatic, float threshold);

  /// Media counters (tests, diagnostics).
  MediaCounters Counters() const { return engine_.Counters(mediaId_); }

  // --- network thread: the Gateway, through VoiceManager ---
  void OnVoiceStateDispatch(const lobby::VoiceStateEvent& event);
  void OnVoiceServerDispatch(std::string token, std::string endpoint);
  /// The lobby was deleted or the player is no longer a member.
  void OnLobbyGone();

  // --- VoiceGatewaySink (network thread) ---
  void OnVoiceReady(const VoiceReady& ready, TransportMode mode) override;
  void OnVoiceSessionDescription(const VoiceSessionDescription& description) override;
  void OnVoiceSpeaking(const VoiceSpeaking& speaking) override;
  void OnVoiceClientDisconnect(const VoiceClientDisconnect& disconnect) override;
  void OnVoiceResuming() override;
  void OnVoiceResumed() override;
  void OnVoiceEnded(CallError error, int32_t detail) override;

  /// Client destroy: closes the voice gateway; nothing more is reported. Idempotent.
  void Shutdown();

 private:
  struct Participant {
    lobby::VoiceStateRecord state;
    bool speaking = false;
  };

  // mutex_ held:
  void SetStatusLocked(Call::Status status, Call::Error error = Call::Error::None, int32_t detail = 0);
  /// Makes the voice gateway connection once the session id, token and endpoint are known; the caller
  /// starts it after unlocking.
  std::shared_ptr<VoiceGatewayConnection> ConnectIfReadyLocked();
  std::string VoiceStatePayloadLocked(bool inCall) const;

  void Fail(Call::Error error, int32_t detail);  // Disconnected with an error; closes what is open
  void SendVoiceState(bool inCall);
  void PostSpeaking(uint64_t userId, bool speaking);
  void PushTransmit();

  core::ClientCore& core_;
  VoiceEngine& engine_;
  messaging::RetryTimer& timer_;
  const uint64_t lobbyId_;
  const uint64_t selfId_;
  const uint64_t mediaId_;
  const bool plain_;

  mutable std::mutex mutex_;
  Call::Status status_ = Call::Status::Disconnected;
  bool ended_ = false;  // End or Shutdown: nothing more starts
  std::string sessionId_, token_, endpoint_;
  std::shared_ptr<VoiceGatewayConnection> gateway_;
  TransmitSettings transmit_;
  std::map<uint64_t, Participant> participants_;
  std::map<uint64_t, bool> localMutes_;
  std::map<uint64_t, float> volumes_;
  bool selfSpeaking_ = false;
  std::shared_ptr<Call::OnStatusChanged> statusCallback_;
  std::shared_ptr<Call::OnParticipantChanged> participantCallback_;
  std::shared_ptr<Call::OnSpeakingStatusChanged> speakingCallback_;
  std::shared_ptr<Call::OnVoiceStateChanged> voiceStateCallback_;
};

}  // namespace platformpp::voice
