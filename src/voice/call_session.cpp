#include "voice/call_session.hpp"

#include "core/completion.hpp"
#include "core/registered_callback.hpp"
#include "voice/dave/verification.hpp"
#include "voice/voice_manager.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace platformpp::voice {

namespace {

Call::Error ToPublic(CallError error) {
  return static_cast<Call::Error>(static_cast<int32_t>(error));
}

using Kind = CallParticipants::Change::Kind;

}  // namespace

CallSession::CallSession(core::Runtime& runtime, gateway::GatewayConnection& mainGateway,
                         dave::FingerprintWorker& fingerprints, VoiceEngine& engine, core::RetryTimer& timer,
                         uint64_t lobbyId, uint64_t selfId, uint64_t mediaId)
    : runtime_(runtime),
      mainGateway_(mainGateway),
      fingerprints_(fingerprints),
      engine_(engine),
      timer_(timer),
      lobbyId_(lobbyId),
      selfId_(selfId),
      mediaId_(mediaId),
      plain_(runtime.Options().apiBase.rfind("http://", 0) == 0),
      participants_(selfId) {}

// The DAVE session's requests, carried out: messages through the current voice gateway connection, keys to
// the voice thread. Runs on the network thread with daveMutex_ held.
class CallSession::DaveBridge final : public dave::DaveSessionSink {
 public:
  explicit DaveBridge(CallSession& call) : call_(call) {}

  void SendBinary(dave::Opcode op, std::vector<uint8_t> payload) override {
    if (auto gateway = Gateway())
      gateway->SendDaveBinary(BuildVoiceBinary(static_cast<uint8_t>(op), payload));
  }
  void SendReadyForTransition(uint16_t id) override {
    if (auto gateway = Gateway()) gateway->SendDaveText(BuildVoiceDaveReadyForTransition(id));
  }
  void SendInvalidCommitWelcome(uint16_t id) override {
    if (auto gateway = Gateway()) gateway->SendDaveText(BuildVoiceDaveInvalidCommitWelcome(id));
  }
  void AddReceiveEpoch(std::unique_ptr<dave::ReceiveEpoch> keys) override {
    auto held = std::make_shared<std::unique_ptr<dave::ReceiveEpoch>>(std::move(keys));
    call_.engine_.UpdateE2ee(call_.mediaId_,
                             [held](auto&, dave::DaveFrameDecryptor& receive, uint64_t nowMs) {
                               receive.AddEpoch(std::move(*held), nowMs);
                             });
  }
  void SetReceivePassThrough(bool on) override {
    call_.engine_.UpdateE2ee(call_.mediaId_, [on](auto&, dave::DaveFrameDecryptor& receive, uint64_t nowMs) {
      receive.SetPassThrough(on, nowMs);
    });
  }
  void UseSendKeys(std::unique_ptr<dave::SenderKeys> keys) override {
    auto held = std::make_shared<std::unique_ptr<dave::SenderKeys>>(std::move(keys));
    call_.engine_.UpdateE2ee(call_.mediaId_, [held](dave::DaveFrameEncryptor& send, auto&, uint64_t) {
      send.UseKeys(std::move(*held));
    });
  }
  void UseSendPassThrough() override {
    call_.engine_.UpdateE2ee(call_.mediaId_,
                             [](dave::DaveFrameEncryptor& send, auto&, uint64_t) { send.UsePassThrough(); });
  }
  void E2eeChanged(bool encrypted) override {
    call_.SetE2eeLocked(encrypted);
    call_.runtime_.VoiceLog().Info(encrypted ? "voice: media is end-to-end encrypted (DAVE)"
                                             : "voice: media is not end-to-end encrypted");
  }
  void GroupChanged() override {
    if (call_.dave_) call_.authenticator_ = call_.dave_->EpochAuthenticator();
  }
  void Log(const std::string& message) override { call_.runtime_.VoiceLog().Warning("voice: " + message); }

 private:
  std::shared_ptr<VoiceGatewayConnection> Gateway() {
    std::lock_guard lock(call_.mutex_);
    return call_.gateway_;
  }
  CallSession& call_;
};

template <class F>
void CallSession::WithDave(F&& f) {
  std::lock_guard lock(daveMutex_);
  if (dave_) f(*dave_);
}

bool CallSession::E2eeActive() const {
  std::lock_guard lock(daveMutex_);
  return e2eeActive_;
}

std::vector<uint8_t> CallSession::EpochAuthenticator() const {
  std::lock_guard lock(daveMutex_);
  return authenticator_;
}

std::string CallSession::EpochVerificationCode() const {
  return dave::EpochVerificationCode(EpochAuthenticator());
}

void CallSession::PairwiseVerificationCode(uint64_t userId, Call::OnPairwiseVerificationCode callback) {
  // A Completion: the callback runs exactly once, with "" also when the job is dropped at Client destroy.
  auto done = std::make_shared<core::Completion<std::string>>(runtime_.MakeCompletion<std::string>(
      [callback = std::move(callback)](const ClientResult&, std::string code) {
        if (callback) callback(std::move(code));
      }));
  std::optional<mls::Bytes> selfKey, userKey;
  {
    std::lock_guard lock(daveMutex_);
    if (e2eeActive_ && dave_ && userId != selfId_) {
      selfKey = dave_->SignatureKeyOf(selfId_);
      userKey = dave_->SignatureKeyOf(userId);
    }
  }
  if (!selfKey || !userKey) return (*done)(ClientResult(), std::string());
  // scrypt: about 100 ms of CPU, on the worker rather than the game or network thread.
  fingerprints_.Post(
      [done, selfId = selfId_, userId, selfKey = std::move(*selfKey), userKey = std::move(*userKey)] {
        (*done)(ClientResult(), dave::PairwiseVerificationCode(selfKey, selfId, userKey, userId));
      });
}

void CallSession::SetE2eeLocked(bool active) {
  if (e2eeActive_ == active) return;
  e2eeActive_ = active;
  callbacks.e2ee.Post(runtime_.Queue(), active);
}

void CallSession::EndDave() {
  std::lock_guard lock(daveMutex_);
  dave_.reset();
  authenticator_.clear();
  SetE2eeLocked(false);
}

void CallSession::OnVoiceDavePrepareTransition(const VoiceDavePrepareTransition& prepare) {
  WithDave(
      [&](dave::DaveSession& d) { d.OnPrepareTransition(prepare.transitionId, prepare.protocolVersion); });
}

void CallSession::OnVoiceDaveExecuteTransition(const VoiceDaveExecuteTransition& execute) {
  WithDave([&](dave::DaveSession& d) { d.OnExecuteTransition(execute.transitionId); });
}

void CallSession::OnVoiceDavePrepareEpoch(const VoiceDavePrepareEpoch& epoch) {
  WithDave([&](dave::DaveSession& d) { d.OnPrepareEpoch(epoch.epoch, epoch.protocolVersion); });
}

void CallSession::OnVoiceBinary(uint8_t op, std::span<const uint8_t> payload) {
  WithDave([&](dave::DaveSession& d) {
    switch (static_cast<dave::Opcode>(op)) {
      case dave::Opcode::ExternalSenderPackage:
        return d.OnExternalSender(payload);
      case dave::Opcode::Proposals:
        return d.OnProposals(payload);
      case dave::Opcode::AnnounceCommitTransition:
        return d.OnAnnounceCommit(payload);
      case dave::Opcode::Welcome:
        return d.OnWelcome(payload);
      default:
        runtime_.VoiceLog().Verbose("voice: binary op " + std::to_string(op) + " ignored");
    }
  });
}

CallSession::~CallSession() {
  Shutdown();
}

void CallSession::SeedParticipants(const std::vector<lobby::VoiceStateRecord>& states) {
  CallParticipants::Changes changes;
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    participants_.Seed(states, changes);
  }
  Announce(changes);
}

void CallSession::Announce(const CallParticipants::Changes& changes) {
  for (const auto& change : changes) {
    switch (change.kind) {
      case Kind::Added:
        callbacks.participant.Post(runtime_.Queue(), change.userId, true);
        break;
      case Kind::Removed:
        engine_.UnmapUser(mediaId_, change.userId);
        callbacks.participant.Post(runtime_.Queue(), change.userId, false);
        break;
      case Kind::VoiceState:
        callbacks.voiceState.Post(runtime_.Queue(), change.userId);
        break;
      case Kind::Speaking:
        callbacks.speaking.Post(runtime_.Queue(), change.userId, change.speaking);
        break;
    }
  }
}

// --- game thread ------------------------------------------------------------------------------------------

void CallSession::Start(TransmitSettings settings, UserAudioReceivedCallback received,
                        UserAudioCapturedCallback captured) {
  {
    std::lock_guard lock(mutex_);
    transmit_ = settings;
    SetStatusLocked(Call::Status::Joining);
  }
  engine_.SetAudioCallbacks(mediaId_, std::move(received), std::move(captured));
  PushTransmit();
  SendVoiceState(true);
  std::weak_ptr<CallSession> weak = weak_from_this();
  timer_.After(kJoinTimeout, [weak] {
    auto self = weak.lock();
    if (!self) return;
    bool timedOut = false;
    {
      std::lock_guard lock(self->mutex_);
      timedOut = !self->ended_ &&
                 (self->status_ == Call::Status::Joining || self->status_ == Call::Status::Connecting);
    }
    if (timedOut) self->Fail(Call::Error::JoinTimeout, 0);
  });
}

void CallSession::End(std::function<void()> done) {
  std::shared_ptr<VoiceGatewayConnection> gateway;
  bool wasInCall = false;
  {
    std::lock_guard lock(mutex_);
    if (ended_) {
      if (done) done();
      return;
    }
    ended_ = true;
    wasInCall = status_ != Call::Status::Disconnected;
    if (wasInCall) SetStatusLocked(Call::Status::Disconnecting);
    gateway = std::move(gateway_);
  }
  if (gateway) gateway->Close();
  // `done` once both the platform was told and the audio callbacks stopped (so none runs after EndCall's
  // callback): the voice thread drops the media, the network thread sends op 4.
  auto pending = std::make_shared<std::atomic<int>>(wasInCall ? 2 : 1);
  auto finish = [self = shared_from_this(), done = std::move(done), pending](bool) {
    if (pending->fetch_sub(1) != 1) return;
    {
      std::lock_guard lock(self->mutex_);
      if (self->status_ != Call::Status::Disconnected) self->SetStatusLocked(Call::Status::Disconnected);
    }
    self->EndDave();
    if (done) done();
  };
  engine_.CloseMedia(mediaId_, [finish]() mutable { finish(true); });
  if (!wasInCall) return;
  std::string payload;
  {
    std::lock_guard lock(mutex_);
    payload = VoiceStatePayloadLocked(false);
  }
  mainGateway_.Send(std::move(payload), std::move(finish));
}

Call::Status CallSession::Status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

std::vector<uint64_t> CallSession::Participants() const {
  std::lock_guard lock(mutex_);
  return participants_.Ids();
}

std::optional<VoiceStateHandle> CallSession::VoiceState(uint64_t userId) const {
  std::lock_guard lock(mutex_);
  auto state = participants_.VoiceState(userId);
  if (!state) return std::nullopt;
  return VoiceStateHandle(state->selfMute, state->selfDeaf);
}

void CallSession::SetSelfMute(bool mute) {
  {
    std::lock_guard lock(mutex_);
    if (transmit_.selfMute == mute) return;
    transmit_.selfMute = mute;
  }
  PushTransmit();
  SendVoiceState(true);
}

void CallSession::SetSelfDeaf(bool deaf) {
  {
    std::lock_guard lock(mutex_);
    if (transmit_.selfDeaf == deaf) return;
    transmit_.selfDeaf = deaf;
  }
  PushTransmit();
  SendVoiceState(true);
}

TransmitSettings CallSession::Transmit() const {
  std::lock_guard lock(mutex_);
  return transmit_;
}

void CallSession::SetLocalMute(uint64_t userId, bool mute) {
  {
    std::lock_guard lock(mutex_);
    localMutes_[userId] = mute;
  }
  engine_.SetLocalMute(mediaId_, userId, mute);
}

bool CallSession::LocalMute(uint64_t userId) const {
  std::lock_guard lock(mutex_);
  auto it = localMutes_.find(userId);
  return it != localMutes_.end() && it->second;
}

void CallSession::SetParticipantVolume(uint64_t userId, float volume) {
  if (std::isnan(volume)) return;
  volume = std::clamp(volume, 0.0f, 200.0f);
  {
    std::lock_guard lock(mutex_);
    volumes_[userId] = volume;
  }
  engine_.SetUserVolume(mediaId_, userId, static_cast<int>(std::lround(volume)));
}

float CallSession::ParticipantVolume(uint64_t userId) const {
  std::lock_guard lock(mutex_);
  auto it = volumes_.find(userId);
  return it == volumes_.end() ? 100.0f : it->second;
}

void CallSession::SetAudioMode(AudioModeType mode) {
  if (mode != AudioModeType::VAD && mode != AudioModeType::PTT) return;
  {
    std::lock_guard lock(mutex_);
    transmit_.mode = mode;
  }
  PushTransmit();
}

void CallSession::SetPTTActive(bool active) {
  {
    std::lock_guard lock(mutex_);
    transmit_.pttActive = active;
  }
  PushTransmit();
}

void CallSession::SetPTTReleaseDelay(uint32_t ms) {
  {
    std::lock_guard lock(mutex_);
    transmit_.pttReleaseDelayMs = std::min(ms, kMaxPttReleaseDelayMs);
  }
  PushTransmit();
}

void CallSession::SetVADThreshold(bool automatic, float threshold) {
  if (std::isnan(threshold)) return;
  {
    std::lock_guard lock(mutex_);
    transmit_.vadAutomatic = automatic;
    transmit_.vadThresholdDb = std::clamp(threshold, -100.0f, 0.0f);
  }
  PushTransmit();
}

void CallSession::PushTransmit() {
  engine_.SetTransmit(mediaId_, Transmit());
}

// --- the main Gateway
// ---------------------------------------------------------------------------------------

std::string CallSession::VoiceStatePayloadLocked(bool inCall) const {
  const std::string id = std::to_string(lobbyId_);
  return std::string(R"({"op":4,"d":{"lobby_id":")") + id + R"(","channel_id":)" +
         (inCall ? "\"" + id + "\"" : std::string("null")) + R"(,"self_mute":)" +
         (transmit_.selfMute ? "true" : "false") + R"(,"self_deaf":)" +
         (transmit_.selfDeaf ? "true" : "false") + "}}";
}

void CallSession::SendVoiceState(bool inCall) {
  std::string payload;
  {
    std::lock_guard lock(mutex_);
    if (ended_ || status_ == Call::Status::Disconnected) return;
    payload = VoiceStatePayloadLocked(inCall);
  }
  std::weak_ptr<CallSession> weak = weak_from_this();
  mainGateway_.Send(std::move(payload), [weak](bool sent) {
    if (sent) return;
    if (auto self = weak.lock()) {
      bool joining = false;
      {
        std::lock_guard lock(self->mutex_);
        joining = self->status_ == Call::Status::Joining && !self->ended_;
      }
      // Not connected to the Gateway: the platform cannot place the player in the call.
      if (joining) self->Fail(Call::Error::SignalingConnectionFailed, 0);
    }
  });
}

void CallSession::OnVoiceStateDispatch(const lobby::VoiceStateEvent& event) {
  ApplyVoiceStates([&](CallParticipants::Changes& changes) {
    participants_.OnVoiceState(event.state, event.inCall, changes);
    // The player's own join: its session id lets the voice gateway connection start.
    if (event.inCall && event.state.userId == selfId_ && sessionId_.empty())
      sessionId_ = event.state.sessionId;
  });
}

void CallSession::OnLobbyVoiceStates(const std::vector<lobby::VoiceStateRecord>& states) {
  ApplyVoiceStates([&](CallParticipants::Changes& changes) { participants_.Sync(states, changes); });
}

void CallSession::ApplyVoiceStates(const std::function<void(CallParticipants::Changes&)>& apply) {
  std::shared_ptr<VoiceGatewayConnection> started;
  CallParticipants::Changes changes;
  bool selfLeft = false;
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    const bool wasIn = participants_.Contains(selfId_);
    apply(changes);
    if (status_ == Call::Status::Joining) started = ConnectIfReadyLocked();
    const bool left = wasIn && !participants_.Contains(selfId_);
    if (left) platformEndedStay_ = true;
    selfLeft = left && status_ != Call::Status::Disconnected;
  }
  Announce(changes);
  if (started) started->Start();
  // The platform took the player out of the call (another device joined it, a moderator, ...): it is over.
  // The voice server closes its connection right after, with a code that says why (4014, 4022, ...): give
  // that close a moment to arrive, so the status carries the code.
  if (selfLeft) {
    bool connected = false;
    {
      std::lock_guard lock(mutex_);
      connected = gateway_ != nullptr;
    }
    if (!connected) {
      Fail(Call::Error::SignalingUnexpectedClose, 0);
    } else {
      std::weak_ptr<CallSession> weak = weak_from_this();
      timer_.After(kCloseReasonWait, [weak] {
        if (auto self = weak.lock()) self->Fail(Call::Error::SignalingUnexpectedClose, 0);
      });
    }
  }
}

void CallSession::OnVoiceServerDispatch(std::string token, std::string endpoint) {
  // The voice token is a credential: filtered from both logs, whatever logs it by mistake.
  runtime_.Log().Secrets().AddSecret(token);
  runtime_.VoiceLog().Secrets().AddSecret(token);
  std::shared_ptr<VoiceGatewayConnection> old;
  {
    std::lock_guard lock(mutex_);
    if (ended_ || status_ == Call::Status::Disconnected) return;
    // A new voice server for a call in progress means the old session is gone: start over on the new one.
    if (gateway_) runtime_.VoiceLog().Info("voice: the voice server changed; reconnecting");
    old = std::move(gateway_);
    token_ = std::move(token);
    endpoint_ = std::move(endpoint);
  }
  if (old) {
    old->Close();
    // The player's settings of this call (mute, volumes, audio callbacks) carry over to the new server.
    engine_.ResetTransport(mediaId_);
  }
  std::shared_ptr<VoiceGatewayConnection> started;
  {
    std::lock_guard lock(mutex_);
    if (ended_ || status_ == Call::Status::Disconnected) return;
    started = ConnectIfReadyLocked();
  }
  if (started) started->Start();
}

std::shared_ptr<VoiceGatewayConnection> CallSession::ConnectIfReadyLocked() {
  if (gateway_ || sessionId_.empty() || token_.empty() || endpoint_.empty()) return nullptr;
  const ClientOptions& options = runtime_.Options();
  VoiceGatewayOptions gatewayOptions;
  gatewayOptions.endpoint = endpoint_;
  gatewayOptions.plain = plain_;
  gatewayOptions.caFile = options.caFile;
  gatewayOptions.useSystemCertificates = options.useSystemCertificates;
  gatewayOptions.serverId = lobbyId_;
  gatewayOptions.userId = selfId_;
  gatewayOptions.sessionId = sessionId_;
  gatewayOptions.token = token_;
  gateway_ = std::make_shared<VoiceGatewayConnection>(runtime_.Io(), runtime_.VoiceLoggerPtr(),
                                                      std::move(gatewayOptions), *this);
  SetStatusLocked(Call::Status::Connecting);
  return gateway_;
}

void CallSession::OnLobbyGone() {
  bool active = false;
  {
    std::lock_guard lock(mutex_);
    active = !ended_ && status_ != Call::Status::Disconnected;
  }
  if (active) Fail(Call::Error::Forbidden, 0);
}

// --- the voice gateway (network thread)
// ---------------------------------------------------------------------

void CallSession::OnVoiceReady(const VoiceReady& ready, media_wire::TransportMode mode) {
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    SetStatusLocked(Call::Status::SignalingConnected);
  }
  (void)mode;  // the connection selects it with SelectProtocol and checks the Session Description against it
  std::weak_ptr<CallSession> weak = weak_from_this();
  MediaEvents events;
  // Both run on the voice thread: move the work to the network thread, where the gateway connection lives.
  events.discovered = [weak, &timer = timer_](std::optional<media_wire::DiscoveredAddress> address,
                                              std::string error) {
    timer.After(std::chrono::milliseconds(0), [weak, address = std::move(address), error = std::move(error)] {
      auto self = weak.lock();
      if (!self) return;
      if (!address) {
        self->runtime_.VoiceLog().Warning("voice: IP discovery failed: " + error);
        self->Fail(Call::Error::VoiceConnectionFailed, 0);
        return;
      }
      std::shared_ptr<VoiceGatewayConnection> gateway;
      {
        std::lock_guard lock(self->mutex_);
        gateway = self->gateway_;
      }
      if (gateway) gateway->SelectProtocol(address->address, address->port);
    });
  };
  events.speakingChanged = [weak, &timer = timer_](bool speaking) {
    timer.After(std::chrono::milliseconds(0), [weak, speaking] {
      auto self = weak.lock();
      if (!self) return;
      std::shared_ptr<VoiceGatewayConnection> gateway;
      {
        std::lock_guard lock(self->mutex_);
        gateway = self->gateway_;
      }
      if (gateway) gateway->SetSpeaking(speaking ? 1u : 0u);
      self->PostSpeaking(self->selfId_, speaking);
    });
  };
  engine_.OpenMedia(mediaId_, ready.ip, ready.port, ready.ssrc, std::move(events));
}

void CallSession::OnVoiceSessionDescription(const VoiceSessionDescription& description) {
  if (!description.parsedMode) {
    Fail(Call::Error::VoiceConnectionFailed, 0);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
  }
  engine_.StartMedia(mediaId_, *description.parsedMode, description.secretKey);
  {
    // A new voice session, a new DAVE session; its first requests reach the media right after StartMedia.
    std::lock_guard lock(daveMutex_);
    if (!daveBridge_) daveBridge_ = std::make_unique<DaveBridge>(*this);
    dave_ = std::make_unique<dave::DaveSession>(*daveBridge_, selfId_, lobbyId_);
    authenticator_.clear();
    SetE2eeLocked(false);  // until the new session's group executes its first transition
    dave_->OnClientsConnect(Participants());
    dave_->Start(description.daveProtocolVersion);
  }
  std::lock_guard lock(mutex_);
  SetStatusLocked(Call::Status::Connected);
}

void CallSession::OnVoiceSpeaking(const VoiceSpeaking& speaking) {
  if (speaking.userId == 0 || speaking.userId == selfId_) return;
  if (speaking.ssrc != 0) engine_.MapSsrc(mediaId_, speaking.ssrc, speaking.userId);
  PostSpeaking(speaking.userId, (speaking.speaking & 1u) != 0);
}

void CallSession::OnVoiceClientsConnect(const VoiceClientsConnect& connect) {
  CallParticipants::Changes changes;
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    for (uint64_t userId : connect.userIds)
      participants_.OnVoiceServerConnect(userId, changes);
  }
  WithDave([&](dave::DaveSession& d) { d.OnClientsConnect(connect.userIds); });
  Announce(changes);
}

void CallSession::OnVoiceClientDisconnect(const VoiceClientDisconnect& disconnect) {
  if (disconnect.userId == selfId_) return;
  // Their voice session ended: whatever SSRC they had is gone with it.
  engine_.UnmapUser(mediaId_, disconnect.userId);
  WithDave([&](dave::DaveSession& d) { d.OnClientDisconnect(disconnect.userId); });
  CallParticipants::Changes changes;
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    participants_.OnVoiceServerDisconnect(disconnect.userId, changes);
  }
  Announce(changes);
}

void CallSession::OnVoiceResuming() {
  std::lock_guard lock(mutex_);
  if (!ended_) SetStatusLocked(Call::Status::Reconnecting);
}

void CallSession::OnVoiceResumed() {
  {
    std::lock_guard lock(mutex_);
    if (!ended_) SetStatusLocked(Call::Status::Connected);
  }
  // What this client sent just before the drop may never have arrived (resume replays the server's side
  // only).
  WithDave([](dave::DaveSession& d) { d.OnResumed(); });
}

void CallSession::OnVoiceEnded(CallError error, int32_t detail) {
  Fail(ToPublic(error), detail);
}

void CallSession::PostSpeaking(uint64_t userId, bool speaking) {
  CallParticipants::Changes changes;
  {
    std::lock_guard lock(mutex_);
    participants_.OnSpeaking(userId, speaking, changes);
  }
  Announce(changes);
}

// --- endings
// ----------------------------------------------------------------------------------------------------

void CallSession::Fail(Call::Error error, int32_t detail) {
  std::shared_ptr<VoiceGatewayConnection> gateway;
  std::string leave;
  {
    std::lock_guard lock(mutex_);
    if (status_ == Call::Status::Disconnected) return;
    SetStatusLocked(Call::Status::Disconnected, error, detail);
    gateway = std::move(gateway_);
    // The call failed here (media never set up, a join that timed out, a voice server given up on), but the
    // platform may still count the player in it: the others would keep a silent participant, and the
    // platform takes the game's next join from this Gateway session for the stay in place, with no new
    // voice server. Not when the platform ended the stay itself (the voice state left, or the voice server's
    // 4014 disconnected and 4022 call terminated): it may be another device's stay by now.
    const bool platformEnded = platformEndedStay_ || (error == Call::Error::SignalingUnexpectedClose &&
                                                      (detail == 4014 || detail == 4022));
    if (!platformEnded) leave = VoiceStatePayloadLocked(false);
  }
  runtime_.VoiceLog().Warning(std::string("voice: call ended: ") + Call::ErrorToString(error) +
                              (detail ? " (" + std::to_string(detail) + ")" : std::string()));
  if (!leave.empty()) mainGateway_.Send(std::move(leave), [](bool) {});
  if (gateway) gateway->Close();
  engine_.CloseMedia(mediaId_);
  EndDave();
}

void CallSession::Shutdown() {
  std::shared_ptr<VoiceGatewayConnection> gateway;
  {
    std::lock_guard lock(mutex_);
    ended_ = true;
    gateway = std::move(gateway_);
  }
  if (gateway) gateway->Close();
}

void CallSession::SetStatusLocked(Call::Status status, Call::Error error, int32_t detail) {
  if (status_ == status && error == Call::Error::None) return;
  status_ = status;
  callbacks.status.Post(runtime_.Queue(), status, error, detail);
}

}  // namespace platformpp::voice
