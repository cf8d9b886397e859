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
// queued. The game's callbacks are read when their event is delivered, not when it is queued: a Call's
// callbacks are set after StartCall returns, and StartCall itself queues the first events (Joining, the
// participants already in the call), which the game must not miss.

#include "core/registered_callback.hpp"
#include "core/retry_timer.hpp"
#include "core/runtime.hpp"
#include "gateway/gateway_connection.hpp"
#include "lobby/lobby_json.hpp"
#include "voice/call_participants.hpp"
#include "voice/dave/session.hpp"
#include "voice/dave/verification.hpp"
#include "voice/voice_engine.hpp"
#include "voice/voice_gateway_connection.hpp"

#include <platformpp/call.hpp>
#include <platformpp/client_options.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace platformpp::voice {

class CallSession final : public VoiceGatewaySink, public std::enable_shared_from_this<CallSession> {
 public:
  /// How long Joining may last before the call ends with JoinTimeout (no voice server from the platform).
  static constexpr std::chrono::milliseconds kJoinTimeout{15000};
  static constexpr uint32_t kMaxPttReleaseDelayMs = 2000;
  /// After the platform ends the player's voice state, how long to wait for the voice server's close code.
  static constexpr std::chrono::milliseconds kCloseReasonWait{1000};

  CallSession(core::Runtime& runtime, gateway::GatewayConnection& mainGateway,
              dave::FingerprintWorker& fingerprints, VoiceEngine& engine, core::RetryTimer& timer,
              uint64_t lobbyId, uint64_t selfId, uint64_t mediaId);
  ~CallSession() override;

  uint64_t LobbyId() const noexcept { return lobbyId_; }

  /// The lobby's voice states when the call starts (the lobby store's), right after the session is
  /// registered for dispatches: users no dispatch has spoken of since then are in the call already.
  void SeedParticipants(const std::vector<lobby::VoiceStateRecord>& states);

  // --- game thread ---
  /// Sends op 4 (Joining). `settings` carries the Client-wide mute/deafen.
  void Start(TransmitSettings settings, UserAudioReceivedCallback received,
             UserAudioCapturedCallback captured);
  /// Leaves: op 4 with channel_id null, closes the voice gateway and the media. Disconnecting, then
  /// Disconnected (no error). `done` runs on the network thread once op 4 went out (or could not).
  void End(std::function<void()> done);

  Call::Status Status() const;
  std::vector<uint64_t> Participants() const;
  std::optional<VoiceStateHandle> VoiceState(uint64_t userId) const;
  /// The game's callbacks (Call::Set*Callback).
  struct Callbacks {
    core::RegisteredCallback<Call::OnStatusChanged> status;
    core::RegisteredCallback<Call::OnParticipantChanged> participant;
    core::RegisteredCallback<Call::OnSpeakingStatusChanged> speaking;
    core::RegisteredCallback<Call::OnVoiceStateChanged> voiceState;
    core::RegisteredCallback<Call::OnE2eeStatusChanged> e2ee;
  };
  Callbacks callbacks;

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
  /// The lobby's whole `voice_states`, from a lobby object the store just applied (READY, LOBBY_CREATE,
  /// LOBBY_UPDATE).
  void OnLobbyVoiceStates(const std::vector<lobby::VoiceStateRecord>& states);
  void OnVoiceServerDispatch(std::string token, std::string endpoint);
  /// The lobby was deleted or the player is no longer a member.
  void OnLobbyGone();

  // --- VoiceGatewaySink (network thread) ---
  void OnVoiceReady(const VoiceReady& ready, media_wire::TransportMode mode) override;
  void OnVoiceSessionDescription(const VoiceSessionDescription& description) override;
  void OnVoiceSpeaking(const VoiceSpeaking& speaking) override;
  void OnVoiceClientsConnect(const VoiceClientsConnect& connect) override;
  void OnVoiceClientDisconnect(const VoiceClientDisconnect& disconnect) override;
  void OnVoiceResuming() override;
  void OnVoiceResumed() override;
  void OnVoiceEnded(CallError error, int32_t detail) override;
  void OnVoiceDavePrepareTransition(const VoiceDavePrepareTransition& prepare) override;
  void OnVoiceDaveExecuteTransition(const VoiceDaveExecuteTransition& execute) override;
  void OnVoiceDavePrepareEpoch(const VoiceDavePrepareEpoch& epoch) override;
  void OnVoiceBinary(uint8_t op, std::span<const uint8_t> payload) override;

  /// Whether the call's media is end-to-end encrypted now (DAVE), and the epoch authenticator of its group
  /// (empty when there is none) and its 30-digit code. Any thread.
  bool E2eeActive() const;
  std::vector<uint8_t> EpochAuthenticator() const;
  std::string EpochVerificationCode() const;
  /// The pairwise code of the player and `userId`, computed on the VoiceManager's FingerprintWorker;
  /// `callback` runs once inside RunCallbacks ("" when there is none, also when the Client is destroyed
  /// first). Game thread.
  void PairwiseVerificationCode(uint64_t userId, Call::OnPairwiseVerificationCode callback);

  /// Client destroy: closes the voice gateway; nothing more is reported. Idempotent.
  void Shutdown();

 private:
  /// Queues the callbacks of participant changes and forgets the SSRCs of those who left. mutex_ not held.
  void Announce(const CallParticipants::Changes& changes);

  // mutex_ held:
  void SetStatusLocked(Call::Status status, Call::Error error = Call::Error::None, int32_t detail = 0);
  /// Makes the voice gateway connection once the session id, token and endpoint are known; the caller
  /// starts it after unlocking.
  std::shared_ptr<VoiceGatewayConnection> ConnectIfReadyLocked();
  std::string VoiceStatePayloadLocked(bool inCall) const;

  /// Runs `apply` on the participants (mutex_ held), then announces what changed, starts the voice gateway
  /// once the player's own join gave the session id, and ends the call when the player is no longer in it.
  void ApplyVoiceStates(const std::function<void(CallParticipants::Changes&)>& apply);
  /// Disconnected with an error; closes what is open, and tells the platform the player left unless the
  /// platform ended the stay itself.
  void Fail(Call::Error error, int32_t detail);
  void SendVoiceState(bool inCall);
  void PostSpeaking(uint64_t userId, bool speaking);  // mutex_ not held
  void PushTransmit();

  class DaveBridge;  // the DAVE session's sink: the voice gateway connection and the voice engine
  /// Runs `f` on the DAVE session (network thread), if there is one.
  template <class F>
  void WithDave(F&& f);
  /// Sets e2eeActive_ and, when it changed, queues the game's callback. daveMutex_ held.
  void SetE2eeLocked(bool active);
  /// The call is over (Disconnected): its DAVE session goes, E2EE is off. Neither mutex held.
  void EndDave();

  core::Runtime& runtime_;
  gateway::GatewayConnection& mainGateway_;  // the platform Gateway: op 4 voice state updates
  dave::FingerprintWorker& fingerprints_;
  VoiceEngine& engine_;
  core::RetryTimer& timer_;
  const uint64_t lobbyId_;
  const uint64_t selfId_;
  const uint64_t mediaId_;
  const bool plain_;

  mutable std::mutex mutex_;
  Call::Status status_ = Call::Status::Disconnected;
  bool ended_ = false;              // End or Shutdown: nothing more starts
  bool platformEndedStay_ = false;  // the platform took the player out of the call (its voice state left)
  std::string sessionId_, token_, endpoint_;
  std::shared_ptr<VoiceGatewayConnection> gateway_;
  TransmitSettings transmit_;
  CallParticipants participants_;
  std::map<uint64_t, bool> localMutes_;
  std::map<uint64_t, float> volumes_;

  // DAVE: created at each Session Description; used on the network thread, read by the game's getters.
  mutable std::mutex daveMutex_;
  std::unique_ptr<DaveBridge> daveBridge_;
  std::unique_ptr<dave::DaveSession> dave_;
  bool e2eeActive_ = false;             // daveMutex_
  std::vector<uint8_t> authenticator_;  // daveMutex_
};

}  // namespace platformpp::voice
