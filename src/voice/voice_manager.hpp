#pragma once
// The Client's calls: one CallSession per lobby the player is in the call of; the lobby store's changes (who
// is in a call, the end of a lobby) and the one dispatch voice owns, LOBBY_VOICE_SERVER_UPDATE, routed to
// them; the Client-wide mute/deafen; and the voice thread (VoiceEngine) with the audio devices, made when
// first needed.

#include "core/retry_timer.hpp"
#include "core/runtime.hpp"
#include "gateway/dispatch_router.hpp"
#include "gateway/gateway_connection.hpp"
#include "lobby/lobby_directory.hpp"
#include "social/user_directory.hpp"
#include "voice/call_session.hpp"
#include "voice/dave/verification.hpp"
#include "voice/voice_engine.hpp"

#include <platformpp/call.hpp>
#include <platformpp/client_status.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace platformpp::voice {

class VoiceManager final : public lobby::LobbyChangeListener {
 public:
  VoiceManager(core::Runtime& runtime, gateway::GatewayConnection& gateway,
               const social::UserDirectory& users, const lobby::LobbyDirectory& lobbies);
  ~VoiceManager() override;
  VoiceManager(const VoiceManager&) = delete;
  VoiceManager& operator=(const VoiceManager&) = delete;

  /// The events OnDispatch reads (gateway::DispatchRouter): the voice server of a lobby's call.
  static std::span<const gateway::DispatchClaim> DispatchClaims() noexcept;
  /// The Gateway sink (network thread).
  void OnDispatch(const gateway::Dispatch& dispatch);

  // The lobby store's changes (network thread), which the calls follow.
  void OnLobbyVoiceStates(uint64_t lobbyId) override;
  void OnLobbyVoiceStateChanged(const lobby::VoiceStateEvent& event) override;
  void OnLobbyMemberRemoved(uint64_t lobbyId, uint64_t userId) override;
  void OnLobbyDeleted(uint64_t lobbyId) override;

  // Game thread.
  Call StartCall(uint64_t lobbyId, UserAudioReceivedCallback received, UserAudioCapturedCallback captured);
  void EndCall(uint64_t lobbyId, EndCallCallback callback);
  void EndCalls(EndCallsCallback callback);
  Call GetCall(uint64_t lobbyId) const;
  std::vector<Call> GetCalls() const;
  void SetSelfMuteAll(bool mute);
  void SetSelfDeafAll(bool deaf);
  bool SelfMuteAll() const { return muteAll_.load(); }
  bool SelfDeafAll() const { return deafAll_.load(); }

  /// Desktop platforms have no audio session to hand over: the choice is recorded in the voice log.
  bool SetEngineManagedAudioSession(bool isEngineManaged);
  /// Echo-canceller dumps into the voice log directory (or a temporary one when none is set).
  void SetAecDump(bool on);
  /// The voice log's file, and where AEC dumps go; false when the directory cannot be used.
  bool SetVoiceLogDir(const std::string& path, LoggingSeverity minSeverity);
  /// The voice thread's priority. The network thread may be shared among Clients (IoContext): it keeps the
  /// priority its owner gives it, and the Client thread is the game's.
  void SetThreadPriority(ClientThread thread, int32_t priority);

  VoiceEngine& Engine() noexcept { return engine_; }
  /// Where the calls compute DAVE pairwise fingerprints (scrypt), one at a time.
  dave::FingerprintWorker& Fingerprints() noexcept { return fingerprints_; }

  /// Client destroy: closes every call's voice gateway, stops the voice thread, the timers and the
  /// fingerprint worker (its pending requests end with ""); nothing runs afterwards. Before the Gateway and
  /// the network thread stop.
  void Shutdown();

 private:
  std::shared_ptr<CallSession> Find(uint64_t lobbyId) const;
  uint64_t SelfId() const;

  core::Runtime& runtime_;
  gateway::GatewayConnection& gateway_;
  const social::UserDirectory& users_;
  const lobby::LobbyDirectory& lobbies_;
  VoiceEngine engine_;
  core::RetryTimer timer_;
  dave::FingerprintWorker fingerprints_;
  mutable std::mutex mutex_;
  std::map<uint64_t, std::shared_ptr<CallSession>> calls_;
  bool shutdown_ = false;
  uint64_t nextMediaId_ = 1;
  std::atomic<bool> muteAll_{false};
  std::atomic<bool> deafAll_{false};
};

}  // namespace platformpp::voice
