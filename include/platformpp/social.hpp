#pragma once
// Users, relationships (friends, requests, blocks; on the platform and in the game) and guilds, as the
// Client keeps them from the realtime connection. Handles are snapshots: each getter returns what the
// Client knew when the handle was made; ask the Client again after a callback to see a change. Names and
// numeric values match the platform's own Social SDK.

#include <platformpp/activity.hpp>
#include <platformpp/client_result.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {

enum class RelationshipType : int32_t {
  None = 0,
  Friend = 1,
  Blocked = 2,
  PendingIncoming = 3,
  PendingOutgoing = 4,
  Implicit = 5,
  Suggestion = 6,
};

/// How the friends list groups friends (GetRelationshipsByGroup).
enum class RelationshipGroupType : int32_t {
  OnlinePlayingGame = 0,
  OnlineElsewhere = 1,
  Offline = 2,
};

class UserHandle {
 public:
  enum class AvatarType : int32_t {
    Gif = 0,
    Webp = 1,
    Png = 2,
    Jpeg = 3,
  };

  uint64_t Id() const { return id_; }
  std::string Username() const { return username_; }
  /// The global display name when set, else the username.
  std::string DisplayName() const { return globalName_.empty() ? username_ : globalName_; }
  std::optional<std::string> GlobalName() const {
    return globalName_.empty() ? std::nullopt : std::optional(globalName_);
  }
  std::optional<std::string> Avatar() const {
    return avatar_.empty() ? std::nullopt : std::optional(avatar_);
  }
  /// The CDN URL of the avatar (animated avatars in `animatedType`, others in `staticType`), or of the
  /// default avatar when the user has none.
  std::string AvatarUrl(AvatarType animatedType, AvatarType staticType) const;
  /// The file extension of `type`: "gif", "webp", "png", "jpg".
  static std::string AvatarTypeToString(AvatarType type);
  /// Online status as this player may see it (Offline for invisible friends and users without a presence;
  /// the player's own status is Online while connected unless its presence says otherwise).
  StatusType Status() const { return status_; }
  /// The user's activity in the current game (the application of Client::SetApplicationId), if they are
  /// playing it.
  std::optional<Activity> GameActivity() const { return gameActivity_; }
  bool IsProvisional() const { return provisional_; }
  /// The guild tag shown beside the display name: 1 to 4 characters, or none.
  std::optional<std::string> PrimaryGuildTag() const {
    return primaryGuildTag_.empty() ? std::nullopt : std::optional(primaryGuildTag_);
  }
  /// The platform's `premium_type`: 0 unless the application is approved for `identify.premium`.
  int32_t PremiumType() const { return premiumType_; }
  /// The player's relationship with this user: the platform one, else the game one (None for the player).
  RelationshipType Relationship() const { return relationship_; }

  // Filled by the SDK.
  struct Data {
    uint64_t id = 0;
    std::string username, globalName, avatar, primaryGuildTag;
    StatusType status = StatusType::Offline;
    std::optional<Activity> gameActivity;
    bool provisional = false;
    int32_t premiumType = 0;
    RelationshipType relationship = RelationshipType::None;
  };
  UserHandle() = default;
  explicit UserHandle(Data data);

 private:
  uint64_t id_ = 0;
  std::string username_, globalName_, avatar_, primaryGuildTag_;
  StatusType status_ = StatusType::Offline;
  std::optional<Activity> gameActivity_;
  bool provisional_ = false;
  int32_t premiumType_ = 0;
  RelationshipType relationship_ = RelationshipType::None;
};

/// The player's relationship with one other user: on the platform ("Discord" friends, across games) and in
/// this game only (game friends).
class RelationshipHandle {
 public:
  uint64_t Id() const { return id_; }
  RelationshipType DiscordRelationshipType() const { return discordType_; }
  RelationshipType GameRelationshipType() const { return gameType_; }
  /// An incoming request the platform flagged as likely spam; games should not surface it prominently.
  bool IsSpamRequest() const { return spamRequest_; }
  /// The other user, when the Client knows them.
  std::optional<UserHandle> User() const { return user_; }

  // Filled by the SDK.
  RelationshipHandle() = default;
  RelationshipHandle(uint64_t id, RelationshipType discordType, RelationshipType gameType, bool spamRequest,
                     std::optional<UserHandle> user)
      : id_(id),
        discordType_(discordType),
        gameType_(gameType),
        spamRequest_(spamRequest),
        user_(std::move(user)) {}

 private:
  uint64_t id_ = 0;
  RelationshipType discordType_ = RelationshipType::None;
  RelationshipType gameType_ = RelationshipType::None;
  bool spamRequest_ = false;
  std::optional<UserHandle> user_;
};

class GuildMinimal {
 public:
  uint64_t Id() const { return id_; }
  std::string Name() const { return name_; }
  /// The guild's banner hash; empty when it has none.
  std::string Banner() const { return banner_; }

  GuildMinimal() = default;
  GuildMinimal(uint64_t id, std::string name, std::string banner)
      : id_(id), name_(std::move(name)), banner_(std::move(banner)) {}

 private:
  uint64_t id_ = 0;
  std::string name_, banner_;
};

class GuildChannel {
 public:
  uint64_t Id() const { return id_; }
  std::string Name() const { return name_; }
  /// The platform's channel type (0 text, 2 voice, 4 category, 5 announcement, 13 stage, 15 forum, ...).
  int32_t Type() const { return type_; }
  int32_t Position() const { return position_; }
  /// The category the channel sits in, if any.
  std::optional<uint64_t> ParentCategoryId() const { return parentId_; }

  GuildChannel() = default;
  GuildChannel(uint64_t id, std::string name, int32_t type, int32_t position,
               std::optional<uint64_t> parentId)
      : id_(id), name_(std::move(name)), type_(type), position_(position), parentId_(parentId) {}

 private:
  uint64_t id_ = 0;
  std::string name_;
  int32_t type_ = 0, position_ = 0;
  std::optional<uint64_t> parentId_;
};

/// An identity the player has in this game outside the platform (the external account of a provisional or
/// merged account).
class UserApplicationProfileHandle {
 public:
  std::string AvatarHash() const { return avatarHash_; }
  std::string Metadata() const { return metadata_; }
  std::optional<std::string> ProviderId() const { return providerId_; }
  std::string ProviderIssuedUserId() const { return providerIssuedUserId_; }
  /// The external auth type's wire name as the platform reports it (e.g. "OIDC").
  std::string ProviderType() const { return providerType_; }
  std::string Username() const { return username_; }

  struct Data {
    std::string avatarHash, metadata, providerIssuedUserId, providerType, username;
    std::optional<std::string> providerId;
  };
  UserApplicationProfileHandle() = default;
  explicit UserApplicationProfileHandle(Data data)
      : avatarHash_(std::move(data.avatarHash)),
        metadata_(std::move(data.metadata)),
        providerId_(std::move(data.providerId)),
        providerIssuedUserId_(std::move(data.providerIssuedUserId)),
        providerType_(std::move(data.providerType)),
        username_(std::move(data.username)) {}

 private:
  std::string avatarHash_, metadata_;
  std::optional<std::string> providerId_;
  std::string providerIssuedUserId_, providerType_, username_;
};

// The callbacks of Client's relationship, user and guild calls (also reachable as Client::<name>), inside
// RunCallbacks.

/// The calls that change a relationship (Send/Accept/Reject/Cancel...FriendRequest, Remove..., Block...).
using RelationshipCallback = std::function<void(ClientResult result)>;
/// A relationship of the given kind (platform when isDiscordRelationshipUpdate, else the game's) appeared or
/// changed type (a request accepted, a block).
using RelationshipCreatedCallback = std::function<void(uint64_t userId, bool isDiscordRelationshipUpdate)>;
/// A relationship of the given kind went away.
using RelationshipDeletedCallback = std::function<void(uint64_t userId, bool isDiscordRelationshipUpdate)>;
/// A user moved between (or into, out of, within) the groups of Client::GetRelationshipsByGroup.
using RelationshipGroupsUpdatedCallback = std::function<void(uint64_t userId)>;
/// A known user changed (name, avatar, status, activity, relationship).
using UserUpdatedCallback = std::function<void(uint64_t userId)>;
/// Client::GetUserGuilds: the player's guilds.
using GetUserGuildsCallback = std::function<void(ClientResult result, std::vector<GuildMinimal> guilds)>;
/// Client::GetGuildChannels: the channels of the guild the player may see, in the desktop client's order.
using GetGuildChannelsCallback =
    std::function<void(ClientResult result, std::vector<GuildChannel> guildChannels)>;

}  // namespace platformpp
