#pragma once
// The player's relationship, guild and guild-channel calls over HTTP (docs/social-protocol.md). Each call is
// refused before anything is sent when its argument is unusable (an empty username, a user id of 0 or the
// player's own) or without a token; the platform's answer ends it. The new relationship state comes back over
// the Gateway to the SocialStore, with its callbacks, to both players.

#include "api/api_session.hpp"
#include "social/user_directory.hpp"
#include "social/voice_channel_statuses.hpp"

#include <platformpp/social.hpp>

#include <cstdint>
#include <string>

namespace platformpp::social {

/// Which relationship a call is about: the platform's own (friends on the platform) or the game's.
enum class RelationshipKind {
  Platform,
  Game,
};

class RelationshipService {
 public:
  /// `statuses`: where GetGuildChannels reads the voice channels' statuses (none: left out).
  RelationshipService(api::ApiSession& api, const UserDirectory& users,
                      VoiceChannelStatuses* statuses = nullptr);

  /// A friend request to the user named `username` (trimmed; not empty).
  void SendFriendRequest(RelationshipKind kind, const std::string& username, RelationshipCallback callback);
  /// A friend request to `userId`; also how a request from them is accepted (the same route).
  void SendFriendRequest(RelationshipKind kind, uint64_t userId, RelationshipCallback callback);
  /// Ends the relationship of `kind` with `userId`: rejects or cancels a request, removes a friend, unblocks.
  void Remove(RelationshipKind kind, uint64_t userId, RelationshipCallback callback);
  /// Removes both relationships; succeeds when at least one was there (the other's 10070 is no error).
  void RemovePlatformAndGame(uint64_t userId, RelationshipCallback callback);
  /// Blocks `userId` on the platform (which ends a friendship or request of either kind).
  void Block(uint64_t userId, RelationshipCallback callback);

  /// The player's guilds (GET /users/@me/guilds; malformed entries are skipped and logged).
  void GetUserGuilds(GetUserGuildsCallback callback);
  /// The channels of `guildId` the player may see, in the desktop client's order; with a voice channel among
  /// them, their statuses from the Gateway session (VoiceChannelStatuses) before the call ends.
  void GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback);

 private:
  /// A call on one user's relationship of `kind`; refused for an unusable user id.
  api::ApiRequest OnUser(std::string method, RelationshipKind kind, uint64_t userId,
                         std::optional<std::string> body) const;

  api::ApiSession& api_;
  const UserDirectory& users_;
  VoiceChannelStatuses* statuses_ = nullptr;
};

}  // namespace platformpp::social
