#pragma once
// platformpp::backend: what a game's own server does for lobbies and messaging with the application's bot
// token: lobbies it owns (players cannot join or leave them from the game), their members with metadata,
// flags and additional names, moderation metadata on lobby and direct messages, invites to a lobby's linked
// channel, provisional accounts for its players, and the Game Stats Widget's data (Application Identity
// Profiles).
//
// Same threading contract as platformpp::Client: every callback runs inside RunCallbacks on the caller's
// thread, each operation ends exactly once, destroying the BackendClient ends pending operations with
// ClientDestroyed. The bot token never appears in logs.

#include <platformpp/client_result.hpp>
#include <platformpp/lobby.hpp>
#include <platformpp/logging.hpp>
#include <platformpp/premium.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {
class IoContext;
}

namespace platformpp::backend {

struct BackendOptions {
  /// Base address of the HTTP API, version included.
  std::string apiBase = "https://discord.com/api/v10";
  /// PEM file of extra certificate authorities to trust (e.g. the emulator's `ca_file`).
  std::string caFile;
  bool useSystemCertificates = true;
  /// The application's bot token (sent as `Authorization: Bot <token>`).
  std::string botToken;
  /// The id of the application the bot token belongs to: the premium and Game Stats Widget calls name it in
  /// their paths (ValidationError while it is 0).
  uint64_t applicationId = 0;
  /// Share network threads with Clients or other BackendClients; null gives this one a thread of its own.
  std::shared_ptr<IoContext> ioContext;
  std::string userAgentSuffix;
  /// Timeout of one HTTP exchange.
  std::chrono::milliseconds httpTimeout{30000};
};

/// A lobby member as the backend sees it.
struct LobbyMember {
  uint64_t id = 0;
  Metadata metadata;
  uint32_t flags = 0;
  /// Shown with the member's messages (MessageHandle::AdditionalName); empty when unset.
  std::string additionalName;
};

struct Lobby {
  uint64_t id = 0;
  uint64_t applicationId = 0;
  Metadata metadata;
  std::vector<LobbyMember> members;
  /// The linked guild channel, if any.
  std::optional<uint64_t> linkedChannelId;
  uint32_t flags = 0;
};

/// A member to add, update or (bulk only) remove. Unset fields keep their value on an update.
struct LobbyMemberArgs {
  uint64_t id = 0;
  std::optional<Metadata> metadata;
  std::optional<uint32_t> flags;  ///< LobbyMemberFlags bits
  /// 1 to 80 characters.
  std::optional<std::string> additionalName;
  /// Bulk updates only: remove this member.
  bool remove = false;
};

struct LobbyArgs {
  std::optional<Metadata> metadata;
  /// How long the lobby lives with no member connected: 5 to 604800 seconds (the platform's default: 300).
  std::optional<int32_t> idleTimeoutSeconds;
  std::optional<uint32_t> flags;
  /// Members to add with the lobby (at most 25).
  std::vector<LobbyMemberArgs> members;
};

/// A provisional account's token for one of the game's players (/partner-sdk/token/bot).
struct ProvisionalToken {
  std::string accessToken;
  std::string tokenType;
  int32_t expiresIn = 0;
  std::string scopes;
  std::string idToken;
};

/// Game Stats Widget: the pre-defined fields shown on a player's profile. Unset fields are not sent. Limits
/// (docs/premium-protocol.md, "Game Stats Widget"): names 1 to 100 characters, image URLs http(s) of at most
/// 2048 characters, counts 0 to 2^53-1.
struct GameStatsPrimary {
  std::optional<std::string> season;
  std::optional<std::string> rankName;
  std::optional<std::string> rankImageUrl;
  std::optional<std::string> highestRank;
  std::optional<std::string> highestRankImageUrl;
  std::optional<std::string> featuredPlayedCharacter;
  std::optional<std::string> featuredPlayedCharacterImageUrl;
  /// Decimals allowed (e.g. 69.41).
  std::optional<double> playtimeHours;
  std::optional<int64_t> totalWins;
  std::optional<int64_t> currentPeriodWins;
  std::optional<int64_t> totalGames;
  std::optional<int64_t> currentPeriodGames;
  std::optional<int64_t> totalKills;
  std::optional<int64_t> currentPeriodKills;
  std::optional<int64_t> totalAssists;
  std::optional<int64_t> currentPeriodAssists;
  std::optional<int64_t> totalDeaths;
  std::optional<int64_t> currentPeriodDeaths;
};

/// A developer-defined stat, referenced by `name` in the widget editor (never shown to players).
struct GameStatsDynamicField {
  enum class Type : int32_t { String = 1, Number = 2, Media = 3 };
  Type type = Type::String;
  /// 1 to 64 characters of A-Z, a-z, 0-9 and '_'.
  std::string name;
  /// The value of a String field (1 to 100 characters), or the image URL of a Media field.
  std::string text;
  /// The value of a Number field: finite, within ±(2^53-1).
  double number = 0;
};

struct GameStatsData {
  GameStatsPrimary primary;
  /// At most 30. The whole `data` object, serialized, is at most 10,240 bytes.
  std::vector<GameStatsDynamicField> dynamic;
};

/// A player's Application Identity Profile as the game writes it.
struct GameStatsProfile {
  /// The player's name in the game: 1 to 1024 characters; unset keeps the stored one.
  std::optional<std::string> username;
  /// Replaces every stored stat when set (the platform keeps no field of an earlier write); unset keeps them.
  std::optional<GameStatsData> data;
};

/// Filters of ListEntitlements (GET /applications/{app}/entitlements). Unset ones are not sent and take the
/// platform's default. Ids are exclusive bounds; with `after` the answer is in ascending id order, otherwise
/// descending.
struct EntitlementFilters {
  std::optional<uint64_t> userId;
  std::vector<uint64_t> skuIds;
  std::optional<uint64_t> guildId;
  std::optional<uint64_t> before;
  std::optional<uint64_t> after;
  /// 1 to 100 (the platform's default: 100).
  std::optional<int32_t> limit;
  std::optional<bool> excludeEnded;
  /// The platform's default: true.
  std::optional<bool> excludeDeleted;
};

/// Filters of ListSkuSubscriptions (GET /skus/{sku}/subscriptions).
struct SubscriptionFilters {
  std::optional<uint64_t> before;
  std::optional<uint64_t> after;
  /// 1 to 100 (the platform's default: 50).
  std::optional<int32_t> limit;
  std::optional<uint64_t> userId;
};

/// Who owns a test entitlement.
enum class EntitlementOwnerType : int32_t {
  Guild = 1,
  User = 2,
};

class BackendClient {
 public:
  using ResultCallback = std::function<void(ClientResult result)>;
  using LobbyCallback = std::function<void(ClientResult result, Lobby lobby)>;
  using MemberCallback = std::function<void(ClientResult result, LobbyMember member)>;
  using MembersCallback = std::function<void(ClientResult result, std::vector<LobbyMember> members)>;
  using InviteCallback = std::function<void(ClientResult result, std::string code)>;
  using ProvisionalTokenCallback = std::function<void(ClientResult result, ProvisionalToken token)>;
  using SkusCallback = std::function<void(ClientResult result, std::vector<Sku> skus)>;
  using EntitlementCallback = std::function<void(ClientResult result, Entitlement entitlement)>;
  using EntitlementsCallback =
      std::function<void(ClientResult result, std::vector<Entitlement> entitlements)>;
  using SubscriptionCallback = std::function<void(ClientResult result, Subscription subscription)>;
  using SubscriptionsCallback =
      std::function<void(ClientResult result, std::vector<Subscription> subscriptions)>;
  using GameStatsProfileCallback = std::function<void(ClientResult result, GameStatsProfile profile)>;

  explicit BackendClient(const BackendOptions& options);
  ~BackendClient();
  BackendClient(BackendClient&&) noexcept;
  BackendClient& operator=(BackendClient&&) noexcept;
  BackendClient(const BackendClient&) = delete;
  BackendClient& operator=(const BackendClient&) = delete;

  void RunCallbacks();
  bool WaitForCallbacks(int32_t timeoutMilliseconds);
  void AddLogCallback(LogCallback callback, LoggingSeverity minSeverity);

  void CreateLobby(const LobbyArgs& args, LobbyCallback callback);
  void GetLobby(uint64_t lobbyId, LobbyCallback callback);
  /// Changes metadata, idle timeout or flags (`args.members` must be empty here; use the member calls).
  void UpdateLobby(uint64_t lobbyId, const LobbyArgs& args, LobbyCallback callback);
  void DeleteLobby(uint64_t lobbyId, ResultCallback callback);
  /// Adds the member, or updates it when already in the lobby.
  void AddLobbyMember(uint64_t lobbyId, const LobbyMemberArgs& member, MemberCallback callback);
  void RemoveLobbyMember(uint64_t lobbyId, uint64_t userId, ResultCallback callback);
  /// 1 to 25 member operations in one request (add, update or remove).
  void BulkUpdateLobbyMembers(uint64_t lobbyId, std::vector<LobbyMemberArgs> members,
                              MembersCallback callback);
  /// Links a guild channel to the lobby (or unlinks it: nullopt).
  void SetLobbyLinkedChannel(uint64_t lobbyId, std::optional<uint64_t> channelId, LobbyCallback callback);
  /// A single-use invite, valid for one hour, to the lobby's linked channel's guild for `userId`.
  void CreateLinkedLobbyGuildInviteForUser(uint64_t lobbyId, uint64_t userId, InviteCallback callback);
  /// Replaces a lobby message's moderation metadata (at most 5 pairs, values up to 2000 characters).
  void SetLobbyMessageModerationMetadata(uint64_t lobbyId, uint64_t messageId, const Metadata& metadata,
                                         ResultCallback callback);
  /// The same for a DM between `userId1` and `userId2`.
  void SetUserMessageModerationMetadata(uint64_t userId1, uint64_t userId2, uint64_t messageId,
                                        const Metadata& metadata, ResultCallback callback);
  /// A provisional account for the game's player `externalUserId` (1 to 1024 characters), created on first
  /// use; `preferredGlobalName` (1 to 32) names a new account.
  void GetProvisionalToken(const std::string& externalUserId, std::optional<std::string> preferredGlobalName,
                           ProvisionalTokenCallback callback);

  /// Writes the Game Stats Widget's data of player `userId`, known to the game as `providerIssuedUserId` (1
  /// to 256 characters of A-Z, a-z, 0-9 and "._~:@-"), to their Application Identity Profile. The game must
  /// be claimed on the platform and the player must have linked their account. Every limit is checked first.
  void UpdateGameStatsProfile(uint64_t userId, const std::string& providerIssuedUserId,
                              const GameStatsProfile& profile, ResultCallback callback);
  /// Reads the profile back (the data the widget shows).
  void GetGameStatsProfile(uint64_t userId, const std::string& providerIssuedUserId,
                           GameStatsProfileCallback callback);

  // Premium apps (docs/premium-protocol.md). Ids must not be 0 and limits are checked before anything is
  // sent (else ValidationError naming the field).

  /// The application's SKUs.
  void ListSkus(SkusCallback callback);
  /// The application's entitlements, filtered and paginated as the platform does.
  void ListEntitlements(const EntitlementFilters& filters, EntitlementsCallback callback);
  void GetEntitlement(uint64_t entitlementId, EntitlementCallback callback);
  /// Marks a one-time consumable as used (ENTITLEMENT_UPDATE with `consumed` follows); consuming it again, or
  /// anything but an unconsumed consumable, is refused by the platform (HTTPError 400).
  void ConsumeEntitlement(uint64_t entitlementId, ResultCallback callback);
  /// A test entitlement to `skuId` for a user or a guild: granted without payment, indefinite.
  void CreateTestEntitlement(uint64_t skuId, uint64_t ownerId, EntitlementOwnerType ownerType,
                             EntitlementCallback callback);
  /// Deletes a test entitlement (others cannot be deleted).
  void DeleteTestEntitlement(uint64_t entitlementId, ResultCallback callback);
  /// The subscriptions to a subscription SKU.
  void ListSkuSubscriptions(uint64_t skuId, const SubscriptionFilters& filters,
                            SubscriptionsCallback callback);
  void GetSkuSubscription(uint64_t skuId, uint64_t subscriptionId, SubscriptionCallback callback);

  /// False once moved from; calls on a moved-from BackendClient do nothing (their callbacks never run).
  explicit operator bool() const noexcept { return impl_ != nullptr; }

 private:
  friend class BackendAccess;
  class Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace platformpp::backend
