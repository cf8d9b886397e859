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

/// The kind of a relationship between the player and another user, the platform's numbering.
enum class RelationshipType : int32_t {
  None = 0,             ///< no relationship
  Friend = 1,           ///< friends
  Blocked = 2,          ///< the player blocked the user
  PendingIncoming = 3,  ///< the user sent the player a friend request
  PendingOutgoing = 4,  ///< the player sent the user a friend request
  Implicit = 5,         ///< an implicit relationship, as the platform reports it
  Suggestion = 6,       ///< a friend suggestion, as the platform reports it
};

/// How the friends list groups friends (GetRelationshipsByGroup).
enum class RelationshipGroupType : int32_t {
  OnlinePlayingGame = 0,  ///< online with an activity of this application (Client::SetApplicationId)
  OnlineElsewhere = 1,    ///< online, but not playing this game
  Offline = 2,            ///< offline, invisible or with no known presence
};

/// A user the Client knows (the player, a relationship, a lobby member, a message author), as a snapshot.
class UserHandle {
 public:
  /// An image format of the avatar CDN (AvatarUrl).
  enum class AvatarType : int32_t {
    Gif = 0,   ///< GIF, the only animated one
    Webp = 1,  ///< WebP
    Png = 2,   ///< PNG
    Jpeg = 3,  ///< JPEG (extension "jpg")
  };

  /// The user's id (a platform snowflake); 0 only in an empty handle.
  uint64_t Id() const { return id_; }
  /// The user's unique username.
  std::string Username() const { return username_; }
  /// The global display name when set, else the username.
  std::string DisplayName() const { return globalName_.empty() ? username_ : globalName_; }
  /// The user's global display name; empty when they have none.
  std::optional<std::string> GlobalName() const {
    return globalName_.empty() ? std::nullopt : std::optional(globalName_);
  }
  /// The user's avatar hash ("a_" first for an animated one); empty when they use the default avatar.
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
  /// Whether this is a provisional account (one made for a player without a platform login).
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
  /// The values of a UserHandle, which the SDK fills; each member is what the getter of the same name returns
  /// (an empty string there reads as an empty optional).
  struct Data {
    uint64_t id = 0;  ///< Id()
    /// Username().
    std::string username, globalName, avatar, primaryGuildTag;
    /// @var globalName
    /// GlobalName(); empty when the user has none.
    /// @var avatar
    /// Avatar(); empty when the user has none.
    /// @var primaryGuildTag
    /// PrimaryGuildTag(); empty when the user has none.
    StatusType status = StatusType::Offline;                 ///< Status()
    std::optional<Activity> gameActivity;                    ///< GameActivity()
    bool provisional = false;                                ///< IsProvisional()
    int32_t premiumType = 0;                                 ///< PremiumType()
    RelationshipType relationship = RelationshipType::None;  ///< Relationship()
  };
  /// An empty handle: Id() 0, every string empty, Offline.
  UserHandle() = default;
  /// A handle with the values of `data`; the SDK makes them.
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
  /// The other user's id.
  uint64_t Id() const { return id_; }
  /// The relationship on the platform (across games); None when there is none.
  RelationshipType DiscordRelationshipType() const { return discordType_; }
  /// The relationship in this game only; None when there is none.
  RelationshipType GameRelationshipType() const { return gameType_; }
  /// An incoming request the platform flagged as likely spam; games should not surface it prominently.
  bool IsSpamRequest() const { return spamRequest_; }
  /// The other user, when the Client knows them.
  std::optional<UserHandle> User() const { return user_; }

  // Filled by the SDK.
  /// An empty handle: Id() 0, both types None.
  RelationshipHandle() = default;
  /// A handle with these values; the SDK makes them.
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

/// A guild (server) the player is in, as Client::GetUserGuilds lists it.
class GuildMinimal {
 public:
  /// The guild's id.
  uint64_t Id() const { return id_; }
  /// The guild's name.
  std::string Name() const { return name_; }
  /// The guild's banner hash; empty when it has none.
  std::string Banner() const { return banner_; }

  /// An empty guild: id 0, empty name and banner.
  GuildMinimal() = default;
  /// A guild with these values; the SDK makes them.
  GuildMinimal(uint64_t id, std::string name, std::string banner)
      : id_(id), name_(std::move(name)), banner_(std::move(banner)) {}

 private:
  uint64_t id_ = 0;
  std::string name_, banner_;
};

/// A channel of a guild, as Client::GetGuildChannels lists it.
class GuildChannel {
 public:
  /// The channel's id.
  uint64_t Id() const { return id_; }
  /// The channel's name.
  std::string Name() const { return name_; }
  /// The platform's channel type (0 text, 2 voice, 4 category, 5 announcement, 13 stage, 15 forum, ...).
  int32_t Type() const { return type_; }
  /// The channel's sort position among its siblings, as the platform sets it (0 when it sent none).
  int32_t Position() const { return position_; }
  /// The category the channel sits in, if any.
  std::optional<uint64_t> ParentCategoryId() const { return parentId_; }
  /// A voice or stage channel's status, as its members set it ("Ranked, join us"). Unset when it has none,
  /// for other channels, and when it could not be read: the SDK asks the player's Gateway session (op 43), so
  /// the statuses come only while the Client is Ready (Client::GetGuildChannels).
  std::optional<std::string> VoiceStatus() const { return voiceStatus_; }

  /// An empty channel: id 0, type 0, position 0, no category.
  GuildChannel() = default;
  /// A channel with these values; the SDK makes them.
  GuildChannel(uint64_t id, std::string name, int32_t type, int32_t position,
               std::optional<uint64_t> parentId, std::optional<std::string> voiceStatus = std::nullopt)
      : id_(id),
        name_(std::move(name)),
        type_(type),
        position_(position),
        parentId_(parentId),
        voiceStatus_(std::move(voiceStatus)) {}

 private:
  uint64_t id_ = 0;
  std::string name_;
  int32_t type_ = 0, position_ = 0;
  std::optional<uint64_t> parentId_;
  std::optional<std::string> voiceStatus_;
};

/// An identity the player has in this game outside the platform (the external account of a provisional or
/// merged account).
class UserApplicationProfileHandle {
 public:
  /// The profile's avatar hash; empty when it has none.
  std::string AvatarHash() const { return avatarHash_; }
  /// The profile's free-form metadata as the platform sent it (a string as is, anything else as JSON text);
  /// empty when there is none.
  std::string Metadata() const { return metadata_; }
  /// The id of the identity provider; empty when the platform sent none.
  std::optional<std::string> ProviderId() const { return providerId_; }
  /// The player's user id at the identity provider.
  std::string ProviderIssuedUserId() const { return providerIssuedUserId_; }
  /// The external auth type's wire name as the platform reports it (e.g. "OIDC").
  std::string ProviderType() const { return providerType_; }
  /// The player's name in that identity; empty when the platform sent none.
  std::string Username() const { return username_; }

  /// The values of a UserApplicationProfileHandle, which the SDK fills; each member is what the getter of
  /// the same name returns.
  struct Data {
    /// AvatarHash().
    std::string avatarHash, metadata, providerIssuedUserId, providerType, username;
    /// @var metadata
    /// Metadata().
    /// @var providerIssuedUserId
    /// ProviderIssuedUserId().
    /// @var providerType
    /// ProviderType().
    /// @var username
    /// Username().
    std::optional<std::string> providerId;  ///< ProviderId()
  };
  /// An empty profile: every string empty.
  UserApplicationProfileHandle() = default;
  /// A profile with the values of `data`; the SDK makes them.
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
