#include "voice/voice_manager.hpp"

#include "core/completion.hpp"
#include "json/json.hpp"
#include "lobby/lobby_json.hpp"
#include "lobby/lobby_store.hpp"
#include "social/social_store.hpp"

#include <filesystem>

namespace platformpp::voice {

VoiceManager::VoiceManager(core::Runtime& runtime, gateway::GatewayConnection& gateway,
                           const social::UserDirectory& users, const lobby::LobbyDirectory& lobbies)
    : runtime_(runtime),
      gateway_(gateway),
      users_(users),
      lobbies_(lobbies),
      engine_(runtime),
      timer_(runtime.Io()) {}

VoiceManager::~VoiceManager() {
  Shutdown();
}

uint64_t VoiceManager::SelfId() const {
  auto user = users_.CurrentUser();
  return user ? user->Id() : 0;
}

std::shared_ptr<CallSession> VoiceManager::Find(uint64_t lobbyId) const {
  std::lock_guard lock(mutex_);
  auto it = calls_.find(lobbyId);
  return it == calls_.end() ? nullptr : it->second;
}

namespace {
constexpr gateway::DispatchClaim kClaims[] = {{"LOBBY_VOICE_SERVER_UPDATE", "voice server"}};
}  // namespace

std::span<const gateway::DispatchClaim> VoiceManager::DispatchClaims() noexcept {
  return kClaims;
}

void VoiceManager::OnDispatch(const gateway::Dispatch& dispatch) {
  if (!gateway::FindClaim(kClaims, dispatch.type)) return;
  const json::Value* document = dispatch.Data();
  if (document == nullptr) {
    runtime_.Log().Warning("LOBBY_VOICE_SERVER_UPDATE: ignored, `d` is not a JSON object");
    return;
  }
  auto lobbyId = json::GetSnowflake(*document, "lobby_id");
  auto token = json::GetString(*document, "token");
  auto endpoint = json::GetString(*document, "endpoint");
  if (!lobbyId || !token || !endpoint || token->empty() || endpoint->empty()) {
    runtime_.Log().Warning("LOBBY_VOICE_SERVER_UPDATE: ignored, malformed");  // never the token itself
    return;
  }
  if (auto call = Find(*lobbyId)) call->OnVoiceServerDispatch(std::string(*token), std::string(*endpoint));
}

void VoiceManager::OnLobbyVoiceStates(uint64_t lobbyId) {
  auto call = Find(lobbyId);
  if (!call) return;  // the common case
  // The store applied the lobby object a moment ago: its voice states are the payload's, or what the store
  // knew when the payload did not say.
  if (auto states = lobbies_.VoiceStates(lobbyId)) call->OnLobbyVoiceStates(*states);
}

void VoiceManager::OnLobbyVoiceStateChanged(const lobby::VoiceStateEvent& event) {
  if (auto call = Find(event.lobbyId)) call->OnVoiceStateDispatch(event);
}

void VoiceManager::OnLobbyMemberRemoved(uint64_t lobbyId, uint64_t userId) {
  if (userId != SelfId()) return;
  if (auto call = Find(lobbyId)) call->OnLobbyGone();
}

void VoiceManager::OnLobbyDeleted(uint64_t lobbyId) {
  if (auto call = Find(lobbyId)) call->OnLobbyGone();
}

Call VoiceManager::StartCall(uint64_t lobbyId, UserAudioReceivedCallback received,
                             UserAudioCapturedCallback captured) {
  const uint64_t self = SelfId();
  if (gateway_.CurrentStatus() != ClientStatus::Ready || self == 0) {
    runtime_.Log().Warning("StartCall: the Client is not Ready");
    return Call();
  }
  auto lobby = lobbies_.Get(lobbyId);
  if (!lobby || !lobby->GetLobbyMemberHandle(self)) {
    runtime_.Log().Warning("StartCall: the player is not a member of lobby " + std::to_string(lobbyId));
    return Call();
  }
  std::shared_ptr<CallSession> session;
  {
    std::lock_guard lock(mutex_);
    if (shutdown_ || calls_.count(lobbyId)) return Call();  // already in it (GetCall has it)
    session = std::make_shared<CallSession>(runtime_, gateway_, fingerprints_, engine_, timer_, lobbyId, self,
                                            nextMediaId_++);
    calls_.emplace(lobbyId, session);
  }
  // Registered first, then the store read: a dispatch that the snapshot misses reaches the session, and one
  // it has may reach it too (the session keeps the dispatch's word over the snapshot's).
  session->SeedParticipants(lobbies_.VoiceStates(lobbyId).value_or(std::vector<lobby::VoiceStateRecord>{}));
  TransmitSettings settings;
  settings.selfMute = muteAll_.load();
  settings.selfDeaf = deafAll_.load();
  session->Start(settings, std::move(received), std::move(captured));
  return Call(session);
}

void VoiceManager::EndCall(uint64_t lobbyId, EndCallCallback callback) {
  std::shared_ptr<CallSession> session;
  {
    std::lock_guard lock(mutex_);
    auto it = calls_.find(lobbyId);
    if (it != calls_.end()) {
      session = std::move(it->second);
      calls_.erase(it);
    }
  }
  // Ends exactly once, also when the Client is destroyed before the platform heard of it.
  auto completion = std::make_shared<core::PlainCompletion<>>(runtime_.QueuePtr(), std::move(callback));
  auto done = [completion] { (*completion)(); };
  if (!session) {
    done();
    return;
  }
  session->End(std::move(done));
}

void VoiceManager::EndCalls(EndCallsCallback callback) {
  std::map<uint64_t, std::shared_ptr<CallSession>> calls;
  {
    std::lock_guard lock(mutex_);
    calls.swap(calls_);
  }
  // The callback once every call has told the platform.
  auto remaining = std::make_shared<std::atomic<std::size_t>>(calls.size());
  auto completion = std::make_shared<core::PlainCompletion<>>(runtime_.QueuePtr(), std::move(callback));
  auto finish = [completion] { (*completion)(); };
  if (calls.empty()) {
    finish();
    return;
  }
  for (auto& [id, session] : calls) {
    session->End([remaining, finish] {
      if (remaining->fetch_sub(1) == 1) finish();
    });
  }
}

Call VoiceManager::GetCall(uint64_t lobbyId) const {
  auto session = Find(lobbyId);
  return session ? Call(session) : Call();
}

std::vector<Call> VoiceManager::GetCalls() const {
  std::lock_guard lock(mutex_);
  std::vector<Call> calls;
  for (const auto& [id, session] : calls_)
    calls.emplace_back(session);
  return calls;
}

void VoiceManager::SetSelfMuteAll(bool mute) {
  muteAll_.store(mute);
  for (Call call : GetCalls())
    call.SetSelfMute(mute);
}

void VoiceManager::SetSelfDeafAll(bool deaf) {
  deafAll_.store(deaf);
  for (Call call : GetCalls())
    call.SetSelfDeaf(deaf);
}

void VoiceManager::Shutdown() {
  std::map<uint64_t, std::shared_ptr<CallSession>> calls;
  {
    std::lock_guard lock(mutex_);
    if (shutdown_) return;
    shutdown_ = true;
    calls.swap(calls_);
  }
  for (auto& [id, session] : calls)
    session->Shutdown();
  timer_.Shutdown();
  fingerprints_.Shutdown();  // its dropped requests queue their "" for the queue's shutdown to deliver
  engine_.Stop();
}

bool VoiceManager::SetEngineManagedAudioSession(bool isEngineManaged) {
  runtime_.VoiceLog().Info(std::string("voice: engine-managed audio session ") +
                           (isEngineManaged ? "on" : "off"));
  return true;
}

void VoiceManager::SetAecDump(bool on) {
  std::filesystem::path directory = runtime_.VoiceLogDir();
  if (directory.empty()) directory = std::filesystem::temp_directory_path() / "platformpp-aec-dump";
  engine_.SetAecDump(on, std::move(directory));
}

bool VoiceManager::SetVoiceLogDir(const std::string& path, LoggingSeverity minSeverity) {
  if (!runtime_.VoiceLog().SetLogDir(path, minSeverity)) return false;
  runtime_.SetVoiceLogDir(path);
  return true;
}

void VoiceManager::SetThreadPriority(ClientThread thread, int32_t priority) {
  if (thread == ClientThread::Voice) engine_.SetThreadPriority(priority);
}

}  // namespace platformpp::voice
