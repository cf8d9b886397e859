#include "lobby/lobby_store.hpp"

#include "social/social_store.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace platformpp::lobby {
namespace {

enum class Kind {
  Ready,
  Create,
  Update,
  Delete,
  MemberAdd,
  MemberUpdate,
  MemberRemove,
  MemberConnect,
  MemberDisconnect,
  VoiceState
};

// The events the store reads, in Kind's order.
constexpr gateway::DispatchClaim kClaims[] = {
    {"READY", "lobbies"},
    {"LOBBY_CREATE", "lobby"},
    {"LOBBY_UPDATE", "lobby"},
    {"LOBBY_DELETE", "lobby"},
    {"LOBBY_MEMBER_ADD", "lobby member"},
    {"LOBBY_MEMBER_UPDATE", "lobby member"},
    {"LOBBY_MEMBER_REMOVE", "lobby member"},
    {"LOBBY_MEMBER_CONNECT", "lobby member"},
    {"LOBBY_MEMBER_DISCONNECT", "lobby member"},
    {"LOBBY_VOICE_STATE_UPDATE", "lobby voice state"},
};
static_assert(std::size(kClaims) == static_cast<std::size_t>(Kind::VoiceState) + 1);

// LOBBY_DELETEs remembered for the answers of joins in flight (LobbyStore::ApplyJoined): beyond this many,
// those older than kDeletedKeptFor dispatches are forgotten.
constexpr std::size_t kMaxDeleted = 1024;
constexpr uint64_t kDeletedKeptFor = 10000;

UserHandle HandleOf(const social::UserRecord& user) {
  UserHandle::Data data;
  data.id = user.id;
  data.username = user.username;
  data.globalName = user.globalName;
  data.avatar = user.avatar;
  data.primaryGuildTag = user.primaryGuildTag;
  data.provisional = user.provisional;
  data.premiumType = user.premiumType;
  return UserHandle(std::move(data));
}

}  // namespace

LobbyStore::LobbyStore(core::Runtime& runtime, const social::UserDirectory& users)
    : runtime_(runtime), users_(users) {}
LobbyStore::~LobbyStore() = default;

std::span<const gateway::DispatchClaim> LobbyStore::DispatchClaims() noexcept {
  return kClaims;
}

void LobbyStore::OnDispatch(const gateway::Dispatch& dispatch) {
  std::optional<std::size_t> claim = gateway::FindClaim(kClaims, dispatch.type);
  if (!claim) return;
  const json::Value* data = dispatch.DataOrWarn(runtime_.Log());
  if (data == nullptr) return;
  const json::Value& document = *data;
  std::vector<Change> changes;
  {
    std::lock_guard lock(mutex_);
    ++generation_;
    switch (static_cast<Kind>(*claim)) {
      case Kind::Ready:
        OnReady(document);
        break;
      case Kind::Create:
        OnLobbyUpsert(document, true);
        break;
      case Kind::Update:
        OnLobbyUpsert(document, false);
        break;
      case Kind::Delete:
        OnLobbyDelete(document);
        break;
      case Kind::MemberAdd:
      case Kind::MemberUpdate:
      case Kind::MemberRemove:
      case Kind::MemberConnect:
      case Kind::MemberDisconnect:
        OnMember(document, dispatch.type);
        break;
      case Kind::VoiceState:
        OnVoiceState(document);
        break;
    }
    changes.swap(changes_);
  }
  Tell(changes);
}

void LobbyStore::Note(Change::What what, uint64_t lobbyId, uint64_t userId, const VoiceStateEvent* event) {
  if (listener_ == nullptr) return;
  Change& change = changes_.emplace_back();
  change.what = what;
  change.lobbyId = lobbyId;
  change.userId = userId;
  if (event != nullptr) change.event = *event;
}

void LobbyStore::Tell(const std::vector<Change>& changes) const {
  for (const Change& change : changes) {
    switch (change.what) {
      case Change::What::VoiceStates:
        listener_->OnLobbyVoiceStates(change.lobbyId);
        break;
      case Change::What::VoiceStateChanged:
        listener_->OnLobbyVoiceStateChanged(change.event);
        break;
      case Change::What::MemberRemoved:
        listener_->OnLobbyMemberRemoved(change.lobbyId, change.userId);
        break;
      case Change::What::Deleted:
        listener_->OnLobbyDeleted(change.lobbyId);
        break;
    }
  }
}

// --- Dispatches (network thread, mutex_ held) -----------------------------------------------------------

void LobbyStore::OnReady(const json::Value& d) {
  std::unordered_map<uint64_t, LobbyRecord> lobbies;
  std::vector<uint64_t> order;  // READY's order, for the callbacks of a later READY
  std::size_t skipped = 0;
  if (const json::Value* list = json::Member(d, "lobbies"); list && !list->IsNull()) {
    if (!list->IsArray()) {
      ++skipped;
    } else {
      for (const json::Value& item : list->GetArray()) {
        auto lobby = ParseLobby(item);
        if (!lobby || OtherApplication(lobby->applicationId) || lobbies.count(lobby->id)) {
          if (!lobby || lobbies.count(lobby->id)) ++skipped;
          continue;
        }
        order.push_back(lobby->id);
        uint64_t id = lobby->id;
        lobbies.emplace(id, std::move(*lobby));
      }
    }
  }
  if (skipped > 0) runtime_.Log().Warning("READY: skipped " + std::to_string(skipped) + " malformed lobbies");
  bool announce = ready_;
  ready_ = true;
  fromAnswer_.clear();
  std::unordered_map<uint64_t, LobbyRecord> previous = std::exchange(lobbies_, std::move(lobbies));
  joinedAt_.clear();
  for (uint64_t id : order) {
    joinedAt_[id] = generation_;
    Note(Change::What::VoiceStates, id);
  }
  if (!announce) return;
  // Lobbies gone since the last session first (ascending ids, for a stable order), then READY's.
  std::vector<uint64_t> gone;
  for (const auto& [id, lobby] : previous)
    if (!lobbies_.count(id)) gone.push_back(id);
  std::sort(gone.begin(), gone.end());
  for (uint64_t id : gone) {
    callbacks.deleted.PostIfSet(runtime_.Queue(), id);
    Note(Change::What::Deleted, id);
    Forget(id);
  }
  for (uint64_t id : order) {
    const LobbyRecord& now = lobbies_.at(id);
    auto was = previous.find(id);
    if (was == previous.end()) {
      callbacks.created.PostIfSet(runtime_.Queue(), id);
      continue;
    }
    if (!was->second.SameState(now)) callbacks.updated.PostIfSet(runtime_.Queue(), id);
    CompareMembers(was->second, now);
  }
}

void LobbyStore::OnLobbyUpsert(const json::Value& d, bool create) {
  const char* what = create ? "LOBBY_CREATE" : "LOBBY_UPDATE";
  auto lobby = ParseLobby(d);
  if (!lobby) {
    runtime_.Log().Warning(std::string(what) + ": ignored, malformed lobby");
    return;
  }
  if (OtherApplication(lobby->applicationId)) {
    runtime_.Log().Verbose(std::string(what) + ": ignored, another application's");
    return;
  }
  uint64_t id = lobby->id;
  Note(Change::What::VoiceStates, id);  // told once the lobby below is in place
  auto it = lobbies_.find(id);
  if (it == lobbies_.end()) {
    // An update of a lobby the store does not know introduces it all the same.
    lobbies_.emplace(id, std::move(*lobby));
    joinedAt_[id] = generation_;
    callbacks.created.PostIfSet(runtime_.Queue(), id);
    return;
  }
  bool answered = fromAnswer_.erase(id) > 0;
  if (!lobby->voiceStates) lobby->voiceStates = it->second.voiceStates;  // not said: unchanged
  LobbyRecord before = std::exchange(it->second, std::move(*lobby));
  // The LOBBY_CREATE of a join whose answer was applied already: the same lobby, announced once.
  if (create && answered) return;
  if (!create || !before.SameState(it->second)) callbacks.updated.PostIfSet(runtime_.Queue(), id);
  CompareMembers(before, it->second);
}

void LobbyStore::OnVoiceState(const json::Value& d) {
  auto event = ParseVoiceStateEvent(d);
  if (!event) {
    runtime_.Log().Warning("LOBBY_VOICE_STATE_UPDATE: ignored, malformed voice state");
    return;
  }
  auto lobby = lobbies_.find(event->lobbyId);
  if (lobby == lobbies_.end()) return;  // a call of a lobby this Client does not know (yet)
  Note(Change::What::VoiceStateChanged, event->lobbyId, 0, &*event);
  auto& states = lobby->second.voiceStates;
  if (!states) states.emplace();
  auto it = std::find_if(states->begin(), states->end(),
                         [&](const VoiceStateRecord& known) { return known.userId == event->state.userId; });
  if (!event->inCall) {
    if (it != states->end()) states->erase(it);
  } else if (it != states->end()) {
    *it = event->state;
  } else {
    states->push_back(event->state);
  }
}

void LobbyStore::OnLobbyDelete(const json::Value& d) {
  auto id = json::GetSnowflake(d, "id");
  if (!id || *id == 0) {
    runtime_.Log().Warning("LOBBY_DELETE: ignored, no valid `id`");
    return;
  }
  Forget(*id);
  fromAnswer_.erase(*id);
  joinedAt_.erase(*id);
  if (lobbies_.erase(*id) > 0) {
    callbacks.deleted.PostIfSet(runtime_.Queue(), *id);
    Note(Change::What::Deleted, *id);
  }
}

void LobbyStore::OnMember(const json::Value& d, std::string_view type) {
  auto event = ParseMemberEvent(d);
  if (!event) {
    runtime_.Log().Warning(std::string(type) + ": ignored, malformed lobby member");
    return;
  }
  if (OtherApplication(event->applicationId)) {
    runtime_.Log().Verbose(std::string(type) + ": ignored, another application's");
    return;
  }
  auto lobby = lobbies_.find(event->lobbyId);
  if (lobby == lobbies_.end()) {
    runtime_.Log().Verbose(std::string(type) + ": ignored, unknown lobby");
    return;
  }
  fromAnswer_.erase(event->lobbyId);
  LobbyRecord& record = lobby->second;
  uint64_t lobbyId = record.id;
  uint64_t memberId = event->member.id;
  MemberRecord* known = record.FindMember(memberId);
  if (type == "LOBBY_MEMBER_REMOVE") {
    if (!known) return;
    record.members.erase(record.members.begin() + (known - record.members.data()));
    callbacks.memberRemoved.PostIfSet(runtime_.Queue(), lobbyId, memberId);
    Note(Change::What::MemberRemoved, lobbyId, memberId);
    return;
  }
  if (type == "LOBBY_MEMBER_CONNECT" || type == "LOBBY_MEMBER_DISCONNECT") {
    bool connected = type == "LOBBY_MEMBER_CONNECT";
    if (!known) return;  // only a known member can connect; an add carries the whole member
    MemberRecord updated = std::move(event->member);
    updated.connected = connected;
    if (!updated.user) updated.user = known->user;
    bool changed = !known->SameState(updated);
    *known = std::move(updated);
    if (changed) callbacks.memberUpdated.PostIfSet(runtime_.Queue(), lobbyId, memberId);
    return;
  }
  // ADD or UPDATE: a member the store does not know is added, a known one updated.
  if (!known) {
    record.members.push_back(std::move(event->member));
    callbacks.memberAdded.PostIfSet(runtime_.Queue(), lobbyId, memberId);
    return;
  }
  if (!event->member.user) event->member.user = known->user;
  bool changed = !known->SameState(event->member);
  *known = std::move(event->member);
  // An UPDATE always says the member changed; an ADD of a known member only when it did.
  if (changed || type == "LOBBY_MEMBER_UPDATE")
    callbacks.memberUpdated.PostIfSet(runtime_.Queue(), lobbyId, memberId);
}

void LobbyStore::Forget(uint64_t lobbyId) {
  deletedAt_[lobbyId] = generation_;
  // Only answers of joins still in flight read these: entries many dispatches old can go.
  if (deletedAt_.size() > kMaxDeleted) {
    std::erase_if(deletedAt_,
                  [&](const auto& entry) { return entry.second + kDeletedKeptFor < generation_; });
  }
}

void LobbyStore::CompareMembers(const LobbyRecord& before, const LobbyRecord& after) const {
  for (const MemberRecord& member : before.members)
    if (!after.FindMember(member.id))
      callbacks.memberRemoved.PostIfSet(runtime_.Queue(), after.id, member.id);
  for (const MemberRecord& member : after.members) {
    const MemberRecord* was = before.FindMember(member.id);
    if (!was) {
      callbacks.memberAdded.PostIfSet(runtime_.Queue(), after.id, member.id);
    } else if (!was->SameState(member)) {
      callbacks.memberUpdated.PostIfSet(runtime_.Queue(), after.id, member.id);
    }
  }
}

bool LobbyStore::OtherApplication(uint64_t applicationId) const {
  uint64_t ours = runtime_.applicationId.load();
  return ours != 0 && applicationId != 0 && applicationId != ours;
}

// --- The answers of CreateOrJoinLobby and LeaveLobby (any thread) ----------------------------------------

uint64_t LobbyStore::Generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

void LobbyStore::ApplyJoined(LobbyRecord lobby, uint64_t generation) {
  // HTTP answers carry no `user`; the player's own membership is live while the session is.
  uint64_t self = 0;
  if (auto user = users_.CurrentUser()) self = user->Id();
  {
    std::lock_guard lock(mutex_);
    if (!ready_ || lobby.id == 0 || lobbies_.count(lobby.id) || OtherApplication(lobby.applicationId)) return;
    if (auto deleted = deletedAt_.find(lobby.id); deleted != deletedAt_.end() && deleted->second > generation)
      return;  // left or deleted after the request was sent: the answer is stale
    uint64_t id = lobby.id;
    if (MemberRecord* me = lobby.FindMember(self)) me->connected = true;
    lobbies_.emplace(id, std::move(lobby));
    fromAnswer_.insert(id);
    joinedAt_[id] = ++generation_;
    callbacks.created.PostIfSet(runtime_.Queue(), id);
  }
}

void LobbyStore::ApplyLeft(uint64_t lobbyId, uint64_t generation) {
  std::vector<Change> changes;
  {
    std::lock_guard lock(mutex_);
    auto it = lobbies_.find(lobbyId);
    if (it == lobbies_.end()) return;  // its LOBBY_DELETE came first
    if (auto joined = joinedAt_.find(lobbyId); joined != joinedAt_.end() && joined->second > generation)
      return;  // joined again after the leave was sent: the answer is stale
    ++generation_;
    lobbies_.erase(it);
    joinedAt_.erase(lobbyId);
    fromAnswer_.erase(lobbyId);
    Forget(lobbyId);
    callbacks.deleted.PostIfSet(runtime_.Queue(), lobbyId);
    Note(Change::What::Deleted, lobbyId);
    changes.swap(changes_);
  }
  Tell(changes);
}

// --- Queries (any thread) --------------------------------------------------------------------------------

std::optional<LobbyHandle> LobbyStore::Get(uint64_t lobbyId) const {
  LobbyRecord record;
  {
    std::lock_guard lock(mutex_);
    auto it = lobbies_.find(lobbyId);
    if (it == lobbies_.end()) return std::nullopt;
    record = it->second;
  }
  // Users from the social store, outside this store's lock.
  LobbyHandle::Data data;
  data.id = record.id;
  data.metadata = std::move(record.metadata);
  data.members.reserve(record.members.size());
  for (MemberRecord& member : record.members) {
    LobbyMemberHandle::Data m;
    m.id = member.id;
    m.metadata = std::move(member.metadata);
    m.flags = member.flags;
    m.connected = member.connected;
    m.user = users_.User(member.id);
    if (!m.user && member.user) m.user = HandleOf(*member.user);
    data.members.emplace_back(std::move(m));
  }
  if (record.linkedChannel) {
    data.linkedChannel =
        LinkedChannel(record.linkedChannel->id, record.linkedChannel->name, record.linkedChannel->guildId);
  }
  if (record.voiceStates && !record.voiceStates->empty()) {
    std::vector<uint64_t> participants;
    for (const VoiceStateRecord& state : *record.voiceStates)
      participants.push_back(state.userId);
    data.call = CallInfoHandle(record.id, 0, std::move(participants));
  }
  return LobbyHandle(std::move(data));
}

std::optional<std::vector<VoiceStateRecord>> LobbyStore::VoiceStates(uint64_t lobbyId) const {
  std::lock_guard lock(mutex_);
  auto it = lobbies_.find(lobbyId);
  if (it == lobbies_.end()) return std::nullopt;
  return it->second.voiceStates;
}

std::vector<uint64_t> LobbyStore::Ids() const {
  std::vector<uint64_t> ids;
  {
    std::lock_guard lock(mutex_);
    ids.reserve(lobbies_.size());
    for (const auto& [id, lobby] : lobbies_)
      ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace platformpp::lobby
