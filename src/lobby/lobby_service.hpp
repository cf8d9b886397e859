#pragma once
// The player's lobby calls over HTTP (docs/social-protocol.md, "Lobbies and messages"): create or join by
// secret, leave, link and unlink a guild channel, join the linked channel's guild. Each is refused before
// anything is sent when its arguments break a rule (ValidationError naming the fields), without a token, or
// without the application id (ClientNotReady). The new state comes back as Gateway dispatches to the
// LobbyStore.
//
// CreateOrJoin applies the lobby of its answer to the store itself (LobbyStore::ApplyJoined) before its
// callback is queued, so GetLobbyHandle works inside the callback whichever of the answer and the
// LOBBY_CREATE arrives first; waiting for the LOBBY_CREATE instead would hold the operation on a dispatch
// that a dropped connection may never deliver.

#include "api/api_session.hpp"
#include "lobby/lobby_store.hpp"
#include "social/user_directory.hpp"

#include <platformpp/lobby.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace platformpp::lobby {

class LobbyService {
 public:
  /// Opens a guild invite's URL for the player (queued for RunCallbacks, before the operation's callback).
  using OpenInvite = std::function<void(const std::string& url)>;
  /// Whether the realtime session is Ready now: a joined lobby is applied to the store only then (otherwise
  /// the READY that follows brings it).
  using SessionReady = std::function<bool()>;

  LobbyService(api::ApiSession& api, LobbyStore& store, const social::UserDirectory& users,
               SessionReady sessionReady, OpenInvite openInvite);

  /// PUT /lobbies: the lobby of `secret`, created when there is none; the metadata (when given) replaces the
  /// lobby's and the player's member metadata.
  void CreateOrJoin(const std::string& secret, const Metadata* lobbyMetadata, const Metadata* memberMetadata,
                    CreateOrJoinLobbyCallback callback);
  /// DELETE /lobbies/{id}/members/@me; on success the lobby is gone from the store before the callback runs
  /// (LobbyStore::ApplyLeft).
  void Leave(uint64_t lobbyId, LeaveLobbyCallback callback);
  void LinkChannel(uint64_t lobbyId, uint64_t channelId, LinkOrUnlinkChannelCallback callback);
  void UnlinkChannel(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback);
  /// A single-use invite to the guild of the lobby's linked channel, opened for the player. A provisional
  /// account cannot join a guild: `mergeRequired` runs instead and the operation ends as ValidationError.
  void JoinLinkedGuild(uint64_t lobbyId, ProvisionalUserMergeRequiredCallback mergeRequired,
                       JoinLinkedLobbyGuildCallback callback);

 private:
  /// A lobby route: besides the token (the session checks it), the lobby routes need the application id.
  api::ApiRequest Request(std::string method, std::string path, std::optional<std::string> body,
                          std::vector<FieldError> violations) const;
  /// Whether the player's account is provisional: from READY when known, else from GET /users/@me.
  void IsProvisional(std::function<void(ClientResult, bool)> then);

  api::ApiSession& api_;
  LobbyStore& store_;
  const social::UserDirectory& users_;
  SessionReady sessionReady_;
  OpenInvite openInvite_;
};

}  // namespace platformpp::lobby
