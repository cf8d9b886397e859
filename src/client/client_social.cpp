// Client's relationships, users and guilds: the state comes from the SocialStore (kept by the Gateway), the
// calls are the RelationshipService's (docs/social-protocol.md) and their effects come back as Gateway
// dispatches.
#include "client/client_core.hpp"
#include "social/relationship_service.hpp"
#include "social/social_store.hpp"

#include <platformpp/client.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace platformpp {

using social::RelationshipKind;

// --- Relationships ---------------------------------------------------------------------------------------

std::vector<RelationshipHandle> Client::GetRelationships() const {
  return core_->Social().Relationships();
}

std::vector<RelationshipHandle> Client::GetRelationshipsByGroup(RelationshipGroupType group) const {
  return core_->Social().RelationshipsByGroup(group);
}

RelationshipHandle Client::GetRelationshipHandle(uint64_t userId) const {
  return core_->Social().Relationship(userId);
}

void Client::SendDiscordFriendRequest(const std::string& username, RelationshipCallback callback) {
  core_->Relationships().SendFriendRequest(RelationshipKind::Platform, username, std::move(callback));
}

void Client::SendDiscordFriendRequestById(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().SendFriendRequest(RelationshipKind::Platform, userId, std::move(callback));
}

void Client::SendGameFriendRequest(const std::string& username, RelationshipCallback callback) {
  core_->Relationships().SendFriendRequest(RelationshipKind::Game, username, std::move(callback));
}

void Client::SendGameFriendRequestById(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().SendFriendRequest(RelationshipKind::Game, userId, std::move(callback));
}

void Client::AcceptDiscordFriendRequest(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().SendFriendRequest(RelationshipKind::Platform, userId, std::move(callback));
}

void Client::AcceptGameFriendRequest(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().SendFriendRequest(RelationshipKind::Game, userId, std::move(callback));
}

void Client::RejectDiscordFriendRequest(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().Remove(RelationshipKind::Platform, userId, std::move(callback));
}

void Client::RejectGameFriendRequest(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().Remove(RelationshipKind::Game, userId, std::move(callback));
}

void Client::CancelDiscordFriendRequest(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().Remove(RelationshipKind::Platform, userId, std::move(callback));
}

void Client::CancelGameFriendRequest(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().Remove(RelationshipKind::Game, userId, std::move(callback));
}

void Client::RemoveDiscordAndGameFriend(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().RemovePlatformAndGame(userId, std::move(callback));
}

void Client::RemoveGameFriend(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().Remove(RelationshipKind::Game, userId, std::move(callback));
}

void Client::BlockUser(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().Block(userId, std::move(callback));
}

void Client::UnblockUser(uint64_t userId, RelationshipCallback callback) {
  core_->Relationships().Remove(RelationshipKind::Platform, userId, std::move(callback));
}

std::vector<UserHandle> Client::SearchFriendsByUsername(const std::string& searchStr) const {
  return core_->Social().SearchFriends(searchStr);
}

void Client::SetRelationshipCreatedCallback(RelationshipCreatedCallback callback) {
  core_->Social().callbacks.created.Set(std::move(callback));
}

void Client::SetRelationshipDeletedCallback(RelationshipDeletedCallback callback) {
  core_->Social().callbacks.deleted.Set(std::move(callback));
}

void Client::SetRelationshipGroupsUpdatedCallback(RelationshipGroupsUpdatedCallback callback) {
  core_->Social().callbacks.groupsUpdated.Set(std::move(callback));
}

// --- Users and guilds ------------------------------------------------------------------------------------

std::optional<UserHandle> Client::GetCurrentUserV2() const {
  return core_->Social().CurrentUser();
}

UserHandle Client::GetCurrentUser() const {
  return core_->Social().CurrentUser().value_or(UserHandle());
}

std::optional<UserHandle> Client::GetUser(uint64_t userId) const {
  return core_->Social().User(userId);
}

void Client::SetUserUpdatedCallback(UserUpdatedCallback callback) {
  core_->Social().callbacks.userUpdated.Set(std::move(callback));
}

void Client::GetUserGuilds(GetUserGuildsCallback callback) {
  core_->Relationships().GetUserGuilds(std::move(callback));
}

void Client::GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback) {
  core_->Relationships().GetGuildChannels(guildId, std::move(callback));
}

std::vector<UserApplicationProfileHandle> Client::GetUserApplicationProfiles() const {
  return core_->Social().ApplicationProfiles();
}

std::vector<UserApplicationProfileHandle> Client::GetUserApplicationProfilesNoLock() const {
  return core_->Social().ApplicationProfiles();
}

}  // namespace platformpp
