#pragma once
// The lobbies of this game the player is a member of, kept current from the Gateway's READY and LOBBY_*
// dispatches. Written on the network thread (a Gateway sink), read from any thread under one mutex, which
// is never held while a callback runs. Callbacks of a dispatch are queued after its state is in place.
//
// Callbacks, each exactly once per change: LOBBY_CREATE of an unknown lobby -> created (its members come with
// it: no member callbacks); LOBBY_UPDATE -> updated, then member removed / added / updated for what changed
// in its member list; LOBBY_DELETE -> deleted; LOBBY_MEMBER_ADD -> member added (updated when already known),
// LOBBY_MEMBER_UPDATE -> member updated, LOBBY_MEMBER_REMOVE -> member removed, LOBBY_MEMBER_CONNECT and
// DISCONNECT -> member updated when `connected` changed. The first READY of a Client loads the state without
// callbacks; a later READY (a new session) announces what changed since the last one. Dispatches for
// unknown lobbies or of another application, and malformed ones, change nothing (malformed ones are logged
// as a Warning that names no content).

#include "core/registered_callback.hpp"
#include "core/runtime.hpp"
#include "gateway/dispatch_router.hpp"
#include "gateway/gateway_connection.hpp"
#include "json/json.hpp"
#include "lobby/lobby_directory.hpp"
#include "lobby/lobby_json.hpp"
#include "social/user_directory.hpp"

#include <platformpp/lobby.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace platformpp::lobby {

class LobbyStore final : public LobbyDirectory {
 public:
  LobbyStore(core::Runtime& runtime, const social::UserDirectory& users);
  ~LobbyStore() override;
  LobbyStore(const LobbyStore&) = delete;
  LobbyStore& operator=(const LobbyStore&) = delete;

  /// The events OnDispatch reads (gateway::DispatchRouter).
  static std::span<const gateway::DispatchClaim> DispatchClaims() noexcept;
  /// Who follows the store's changes (voice); null for nobody. Set before the Gateway connects.
  void SetChangeListener(LobbyChangeListener* listener) noexcept { listener_ = listener; }
  /// The Gateway sink (network thread): update the state, then queue the callbacks.
  void OnDispatch(const gateway::Dispatch& dispatch);

  std::optional<LobbyHandle> Get(uint64_t lobbyId) const override;
  /// Ids of the known lobbies, ascending.
  std::vector<uint64_t> Ids() const;
  /// Who is in the lobby's call now, as READY, the lobby objects and LOBBY_VOICE_STATE_UPDATE said (a call
  /// starts from it); nullopt for an unknown lobby, or while no payload has said.
  std::optional<std::vector<VoiceStateRecord>> VoiceStates(uint64_t lobbyId) const override;

  /// A counter of the dispatches and answers applied so far; take it before sending a request whose answer
  /// may be applied with ApplyJoined or ApplyLeft.
  uint64_t Generation() const;
  /// CreateOrJoinLobby's answer (any thread): stores `lobby` (and queues "created") when the store does not
  /// know it yet and no LOBBY_DELETE for it was applied since `generation`, so that the lobby is there when
  /// the operation's callback runs. The LOBBY_CREATE of the same join then replaces it without callbacks.
  /// Does nothing before the first READY (no session keeps the state current then).
  void ApplyJoined(LobbyRecord lobby, uint64_t generation);
  /// LeaveLobby's answer (network thread): forgets the lobby (and queues "deleted") unless it joined the
  /// store again since `generation`, so that it is gone when the operation's callback runs. The LOBBY_DELETE
  /// that follows then finds nothing to announce.
  void ApplyLeft(uint64_t lobbyId, uint64_t generation);

  /// The game's callbacks (Client::SetLobby*Callback).
  struct Callbacks {
    core::RegisteredCallback<LobbyCreatedCallback> created;
    core::RegisteredCallback<LobbyUpdatedCallback> updated;
    core::RegisteredCallback<LobbyDeletedCallback> deleted;
    core::RegisteredCallback<LobbyMemberAddedCallback> memberAdded;
    core::RegisteredCallback<LobbyMemberUpdatedCallback> memberUpdated;
    core::RegisteredCallback<LobbyMemberRemovedCallback> memberRemoved;
  };
  Callbacks callbacks;

 private:
  // mutex_ held by these:
  void OnReady(const json::Value& d);
  void OnLobbyUpsert(const json::Value& d, bool create);
  void OnLobbyDelete(const json::Value& d);
  /// LOBBY_VOICE_STATE_UPDATE: who is in the lobby's call (GetCallInfoHandle). No lobby callback: the
  /// Call's own callbacks announce participants.
  void OnVoiceState(const json::Value& d);
  void OnMember(const json::Value& d, std::string_view type);
  /// Queues what changed in the members of one lobby: removed, then added and updated in the new order.
  void CompareMembers(const LobbyRecord& before, const LobbyRecord& after) const;
  /// Remembers that `lobbyId` was deleted now (for ApplyJoined).
  void Forget(uint64_t lobbyId);
  bool OtherApplication(uint64_t applicationId) const;

  /// A change for the listener, noted under mutex_ and told after it is released.
  struct Change {
    enum class What { VoiceStates, VoiceStateChanged, MemberRemoved, Deleted } what = What::VoiceStates;
    uint64_t lobbyId = 0;
    uint64_t userId = 0;    // MemberRemoved
    VoiceStateEvent event;  // VoiceStateChanged
  };
  void Note(Change::What what, uint64_t lobbyId, uint64_t userId = 0, const VoiceStateEvent* event = nullptr);
  void Tell(const std::vector<Change>& changes) const;

  core::Runtime& runtime_;
  const social::UserDirectory& users_;
  LobbyChangeListener* listener_ = nullptr;
  std::vector<Change> changes_;  // of the dispatch being applied
  mutable std::mutex mutex_;
  bool ready_ = false;
  uint64_t generation_ = 0;
  std::unordered_map<uint64_t, LobbyRecord> lobbies_;
  std::unordered_set<uint64_t> fromAnswer_;           // stored by ApplyJoined, awaiting their LOBBY_CREATE
  std::unordered_map<uint64_t, uint64_t> deletedAt_;  // lobby id -> generation of its last LOBBY_DELETE
  std::unordered_map<uint64_t, uint64_t> joinedAt_;   // lobby id -> generation when it entered the store
};

}  // namespace platformpp::lobby
