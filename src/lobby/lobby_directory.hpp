#pragma once
// The lobbies the player is in, as messages and voice calls read them: a lobby's handle and who is in its
// call, and the changes a feature built on them follows (voice follows these instead of reading LOBBY_*
// dispatches itself). Implemented by the lobby store; the features that read lobbies depend on this and not
// on the store.

#include "lobby/lobby_json.hpp"

#include <platformpp/lobby.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace platformpp::lobby {

/// What the lobby store tells a feature built on its state, on the network thread, after it applied a
/// dispatch and released its lock (so a listener may read the directory), in the order of the dispatches.
class LobbyChangeListener {
 public:
  virtual ~LobbyChangeListener() = default;
  /// A lobby object (READY, LOBBY_CREATE, LOBBY_UPDATE) was applied: its voice states are what
  /// LobbyDirectory::VoiceStates says now.
  virtual void OnLobbyVoiceStates(uint64_t lobbyId) = 0;
  /// LOBBY_VOICE_STATE_UPDATE changed one user's voice state in a known lobby.
  virtual void OnLobbyVoiceStateChanged(const VoiceStateEvent& event) = 0;
  /// LOBBY_MEMBER_REMOVE removed a member of a known lobby (the player too).
  virtual void OnLobbyMemberRemoved(uint64_t lobbyId, uint64_t userId) = 0;
  /// The lobby is gone: LOBBY_DELETE, or a new session's READY no longer has it.
  virtual void OnLobbyDeleted(uint64_t lobbyId) = 0;

 protected:
  LobbyChangeListener() = default;
  LobbyChangeListener(const LobbyChangeListener&) = default;
  LobbyChangeListener& operator=(const LobbyChangeListener&) = default;
};

class LobbyDirectory {
 public:
  virtual ~LobbyDirectory() = default;
  /// The lobby when the player is a member of it. Any thread.
  virtual std::optional<LobbyHandle> Get(uint64_t lobbyId) const = 0;
  /// Who is in the lobby's call (LOBBY_VOICE_STATE_UPDATE); empty when the lobby is unknown. Any thread.
  virtual std::optional<std::vector<VoiceStateRecord>> VoiceStates(uint64_t lobbyId) const = 0;

 protected:
  LobbyDirectory() = default;
  LobbyDirectory(const LobbyDirectory&) = default;
  LobbyDirectory& operator=(const LobbyDirectory&) = default;
};

}  // namespace platformpp::lobby
