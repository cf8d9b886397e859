#pragma once
// The lobbies the player is in, as messages and voice calls read them: a lobby's handle and who is in its
// call. Implemented by the lobby store; the features that read lobbies depend on this and not on the store.

#include "lobby/lobby_json.hpp"

#include <platformpp/lobby.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace platformpp::lobby {

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
