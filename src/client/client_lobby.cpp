// Client's lobbies: the state comes from the LobbyStore (kept by the Gateway), the calls are the
// LobbyService's (docs/social-protocol.md, "Lobbies and messages") and their effects come back as Gateway
// dispatches.
#include "client/client_core.hpp"
#include "lobby/lobby_service.hpp"
#include "lobby/lobby_store.hpp"

#include <platformpp/client.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace platformpp {

void Client::CreateOrJoinLobby(const std::string& secret, CreateOrJoinLobbyCallback callback) {
  core_->LobbyCalls().CreateOrJoin(secret, nullptr, nullptr, std::move(callback));
}

void Client::CreateOrJoinLobbyWithMetadata(const std::string& secret, const Metadata& lobbyMetadata,
                                           const Metadata& memberMetadata,
                                           CreateOrJoinLobbyCallback callback) {
  core_->LobbyCalls().CreateOrJoin(secret, &lobbyMetadata, &memberMetadata, std::move(callback));
}

void Client::LeaveLobby(uint64_t lobbyId, LeaveLobbyCallback callback) {
  core_->LobbyCalls().Leave(lobbyId, std::move(callback));
}

std::optional<LobbyHandle> Client::GetLobbyHandle(uint64_t lobbyId) const {
  return core_->Lobbies().Get(lobbyId);
}

std::vector<uint64_t> Client::GetLobbyIds() const {
  return core_->Lobbies().Ids();
}

void Client::LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, LinkOrUnlinkChannelCallback callback) {
  core_->LobbyCalls().LinkChannel(lobbyId, channelId, std::move(callback));
}

void Client::UnlinkChannelFromLobby(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback) {
  core_->LobbyCalls().UnlinkChannel(lobbyId, std::move(callback));
}

void Client::JoinLinkedLobbyGuild(uint64_t lobbyId,
                                  ProvisionalUserMergeRequiredCallback provisionalUserMergeRequiredCallback,
                                  JoinLinkedLobbyGuildCallback callback) {
  core_->LobbyCalls().JoinLinkedGuild(lobbyId, std::move(provisionalUserMergeRequiredCallback),
                                      std::move(callback));
}

void Client::SetLobbyCreatedCallback(LobbyCreatedCallback callback) {
  core_->Lobbies().callbacks.created.Set(std::move(callback));
}

void Client::SetLobbyUpdatedCallback(LobbyUpdatedCallback callback) {
  core_->Lobbies().callbacks.updated.Set(std::move(callback));
}

void Client::SetLobbyDeletedCallback(LobbyDeletedCallback callback) {
  core_->Lobbies().callbacks.deleted.Set(std::move(callback));
}

void Client::SetLobbyMemberAddedCallback(LobbyMemberAddedCallback callback) {
  core_->Lobbies().callbacks.memberAdded.Set(std::move(callback));
}

void Client::SetLobbyMemberUpdatedCallback(LobbyMemberUpdatedCallback callback) {
  core_->Lobbies().callbacks.memberUpdated.Set(std::move(callback));
}

void Client::SetLobbyMemberRemovedCallback(LobbyMemberRemovedCallback callback) {
  core_->Lobbies().callbacks.memberRemoved.Set(std::move(callback));
}

}  // namespace platformpp
