#pragma once
// platformpp::backend: what a game's own server does for lobbies and messaging with the application's bot
// token: lobbies it owns (players cannot join or leave them from the game), their members with metadata,
// flags and additional names, moderation metadata on lobby and direct messages, invites to a lobby's linked
// channel, provisional accounts for its players, the Game Stats Widget's data (Application Identity
// Profiles), and the bot's messages in guild text channels and DMs.
//
// Same threading contract as platformpp::Client: every callback runs inside RunCallbacks on the caller's
// thread, each operation ends exactly once, destroying the BackendClient ends pending operations with
// ClientDestroyed. The bot token never appears in logs.

#include <platformpp/application_commands.hpp>
#include <platformpp/application_emoji.hpp>
#include <platformpp/channel_pins.hpp>
#include <platformpp/client_result.hpp>
#include <platformpp/guild_audit_log.hpp>
#include <platformpp/guild_automod.hpp>
#include <platformpp/guild_channels.hpp>
#include <platformpp/guild_invites.hpp>
#include <platformpp/guild_members.hpp>
#include <platformpp/guild_roles.hpp>
#include <platformpp/guild_soundboard.hpp>
#include <platformpp/interactions.hpp>
#include <platformpp/lobby.hpp>
#include <platformpp/logging.hpp>
#include <platformpp/message_search.hpp>
#include <platformpp/premium.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace platformpp {
class IoContext;
}

/// What a game's own server does with the application's bot token: BackendClient (lobbies, moderation
/// metadata, provisional accounts, the Game Stats Widget, premium apps) and the webhook events receiver
/// (webhook_events.hpp: VerifyWebhookEvent, WebhookEvents).
namespace platformpp::backend {

/// Settings of a BackendClient: where the platform's HTTP API is, what TLS trusts, and the bot token and
/// application it acts for.
struct BackendOptions {
  /// Base address of the HTTP API, version included.
  std::string apiBase = "https://discord.com/api/v10";
  /// PEM file of extra certificate authorities to trust (e.g. the emulator's `ca_file`).
  std::string caFile;
  /// Trust the system's certificate store as well as `caFile` (default: true).
  bool useSystemCertificates = true;
  /// The application's bot token (sent as `Authorization: Bot <token>`).
  std::string botToken;
  /// The id of the application the bot token belongs to: the premium and Game Stats Widget calls name it in
  /// their paths (ValidationError while it is 0).
  uint64_t applicationId = 0;
  /// Share network threads with Clients or other BackendClients; null gives this one a thread of its own.
  std::shared_ptr<IoContext> ioContext;
  /// Appended to the SDK's own User-Agent on every request.
  std::string userAgentSuffix;
  /// Timeout of one HTTP exchange.
  std::chrono::milliseconds httpTimeout{30000};

  // The guild calls (issue 36).

  /// The wall clock ModifyMember's check reads (a timeout ends at most 28 days from now); empty: the system
  /// clock. A game on the emulator's fake clock gives the emulator's time here.
  std::function<std::chrono::system_clock::time_point()> clock{};
};

/// A lobby member as the backend sees it.
struct LobbyMember {
  /// The member's user id.
  uint64_t id = 0;
  /// The member's metadata (`metadata`); empty when it has none.
  Metadata metadata;
  /// LobbyMemberFlags bits (`flags`), e.g. CanLinkLobby.
  uint32_t flags = 0;
  /// Shown with the member's messages (MessageHandle::AdditionalName); empty when unset.
  std::string additionalName;
};

/// A lobby as the backend sees it: what the lobby calls answer with.
struct Lobby {
  /// The lobby's id.
  uint64_t id = 0;
  /// The application the lobby belongs to (`application_id`).
  uint64_t applicationId = 0;
  /// The lobby's metadata (`metadata`); empty when it has none.
  Metadata metadata;
  /// Every member of the lobby, with their metadata, flags and additional names.
  std::vector<LobbyMember> members;
  /// The linked guild channel, if any.
  std::optional<uint64_t> linkedChannelId;
  /// The lobby's flags as the platform sends them (`flags`); 0 when none.
  uint32_t flags = 0;
};

/// A member to add, update or (bulk only) remove. Unset fields keep their value on an update.
struct LobbyMemberArgs {
  /// The member's user id; must not be 0 (ValidationError).
  uint64_t id = 0;
  /// The member's metadata, sent when set: at most 25 pairs and 1000 code points of keys and values
  /// together.
  std::optional<Metadata> metadata;
  std::optional<uint32_t> flags;  ///< LobbyMemberFlags bits
  /// 1 to 80 characters.
  std::optional<std::string> additionalName;
  /// Bulk updates only: remove this member.
  bool remove = false;
};

/// What CreateLobby and UpdateLobby send; unset fields are not sent.
struct LobbyArgs {
  /// The lobby's metadata, sent when set: at most 25 pairs and 1000 code points of keys and values together.
  std::optional<Metadata> metadata;
  /// How long the lobby lives with no member connected: 5 to 604800 seconds (the platform's default: 300).
  std::optional<int32_t> idleTimeoutSeconds;
  /// The lobby's flags (`flags`), sent when set.
  std::optional<uint32_t> flags;
  /// Members to add with the lobby (at most 25).
  std::vector<LobbyMemberArgs> members;
};

/// A provisional account's token for one of the game's players (/partner-sdk/token/bot).
struct ProvisionalToken {
  /// The access token the player's game client uses (`access_token`; never empty on success). This
  /// BackendClient masks it in its log messages.
  std::string accessToken;
  /// `token_type` as the platform sends it; empty when absent.
  std::string tokenType;
  /// Seconds until the access token expires (`expires_in`); 0 when absent or out of range.
  int32_t expiresIn = 0;
  /// The granted scopes as the platform sends them (`scope`); empty when absent.
  std::string scopes;
  /// The OpenID Connect ID token (`id_token`); empty when absent. Masked in log messages too.
  std::string idToken;
};

/// Game Stats Widget: the pre-defined fields shown on a player's profile. Unset fields are not sent. Limits
/// (docs/premium-protocol.md, "Game Stats Widget"): names 1 to 100 characters, image URLs http(s) of at most
/// 2048 characters, counts 0 to 2^53-1.
struct GameStatsPrimary {
  /// The current season's name (`season`).
  std::optional<std::string> season;
  /// The player's current rank (`rank_name`).
  std::optional<std::string> rankName;
  /// Image of the current rank (sent as `rank_image.url`).
  std::optional<std::string> rankImageUrl;
  /// The highest rank the player reached (`highest_rank`).
  std::optional<std::string> highestRank;
  /// Image of the highest rank (sent as `highest_rank_image.url`).
  std::optional<std::string> highestRankImageUrl;
  /// The played character the widget features (`featured_played_character`).
  std::optional<std::string> featuredPlayedCharacter;
  /// Image of that character (sent as `featured_played_character_image.url`).
  std::optional<std::string> featuredPlayedCharacterImageUrl;
  /// Hours played (`playtime_hours`), 0 to 2^53-1; decimals allowed (e.g. 69.41).
  std::optional<double> playtimeHours;
  /// Wins in total (`total_wins`).
  std::optional<int64_t> totalWins;
  /// Wins in the current period (`current_period_wins`).
  std::optional<int64_t> currentPeriodWins;
  /// Games played in total (`total_games`).
  std::optional<int64_t> totalGames;
  /// Games played in the current period (`current_period_games`).
  std::optional<int64_t> currentPeriodGames;
  /// Kills in total (`total_kills`).
  std::optional<int64_t> totalKills;
  /// Kills in the current period (`current_period_kills`).
  std::optional<int64_t> currentPeriodKills;
  /// Assists in total (`total_assists`).
  std::optional<int64_t> totalAssists;
  /// Assists in the current period (`current_period_assists`).
  std::optional<int64_t> currentPeriodAssists;
  /// Deaths in total (`total_deaths`).
  std::optional<int64_t> totalDeaths;
  /// Deaths in the current period (`current_period_deaths`).
  std::optional<int64_t> currentPeriodDeaths;
};

/// A developer-defined stat, referenced by `name` in the widget editor (never shown to players).
struct GameStatsDynamicField {
  /// What the field's value is (its `type` on the wire).
  enum class Type : int32_t { String = 1, Number = 2, Media = 3 };
  /// \var String
  /// Text, held in `text`.
  /// \var Number
  /// A number, held in `number`.
  /// \var Media
  /// An image, its http(s) URL held in `text` (sent as `value.url`).

  /// Which of `text` and `number` holds the value (default String).
  Type type = Type::String;
  /// 1 to 64 characters of A-Z, a-z, 0-9 and '_'.
  std::string name;
  /// The value of a String field (1 to 100 characters), or the image URL of a Media field.
  std::string text;
  /// The value of a Number field: finite, within ±(2^53-1).
  double number = 0;
};

/// The `data` of an Application Identity Profile: the widget's pre-defined fields and the game's own.
struct GameStatsData {
  /// The pre-defined fields; unset ones are not sent.
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
  /// Only this user's entitlements (`user_id`; must not be 0).
  std::optional<uint64_t> userId;
  /// Only entitlements to these SKUs (`sku_ids`, comma-separated; none may be 0); empty: every SKU.
  std::vector<uint64_t> skuIds;
  /// Only this guild's entitlements (`guild_id`; must not be 0).
  std::optional<uint64_t> guildId;
  /// Entitlements with a smaller id than this one (`before`).
  std::optional<uint64_t> before;
  /// Entitlements with a larger id than this one (`after`); the answer is then in ascending id order.
  std::optional<uint64_t> after;
  /// 1 to 100 (the platform's default: 100).
  std::optional<int32_t> limit;
  /// Leave out entitlements that have ended (`exclude_ended`).
  std::optional<bool> excludeEnded;
  /// Leave out deleted entitlements (`exclude_deleted`; the platform's default: true).
  std::optional<bool> excludeDeleted;
};

/// Filters of ListSkuSubscriptions (GET /skus/{sku}/subscriptions).
struct SubscriptionFilters {
  /// Subscriptions with a smaller id than this one (`before`).
  std::optional<uint64_t> before;
  /// Subscriptions with a larger id than this one (`after`).
  std::optional<uint64_t> after;
  /// 1 to 100 (the platform's default: 50).
  std::optional<int32_t> limit;
  /// Only this user's subscriptions (`user_id`; must not be 0).
  std::optional<uint64_t> userId;
};

/// Which page of a channel's messages GetMessages reads (GET /channels/{channel}/messages). At most one of
/// `before`, `after` and `around` may be set (the platform takes only one); none: the newest messages.
struct MessageQuery {
  /// Messages older than this message id.
  std::optional<uint64_t> before;
  /// Messages newer than this message id.
  std::optional<uint64_t> after;
  /// Messages around this message id (it included, when it exists).
  std::optional<uint64_t> around;
  /// How many messages, 1 to 100 (always sent; the platform's default is also 50).
  int32_t limit = 50;
};

/// Who owns a test entitlement.
enum class EntitlementOwnerType : int32_t {
  Guild = 1,  ///< `ownerId` is a guild's id.
  User = 2,   ///< `ownerId` is a user's id.
};

/// The game server's client of the platform's HTTP API, acting with the application's bot token.
///
/// Each call checks its arguments first (a broken rule ends it with ValidationError and nothing is sent),
/// then sends one request; its callback runs exactly once, inside RunCallbacks, on the thread calling it. An
/// answer that cannot be read ends with HTTPError "malformed response: ...". Calls on a moved-from client do
/// nothing.
class BackendClient {
 public:
  /// The end of a call that answers nothing but its outcome.
  using ResultCallback = std::function<void(ClientResult result)>;
  /// The end of a call that answers a lobby (a default Lobby on failure).
  using LobbyCallback = std::function<void(ClientResult result, Lobby lobby)>;
  /// The end of a call that answers one lobby member (a default LobbyMember on failure).
  using MemberCallback = std::function<void(ClientResult result, LobbyMember member)>;
  /// The end of BulkUpdateLobbyMembers: the members added and updated (empty on failure).
  using MembersCallback = std::function<void(ClientResult result, std::vector<LobbyMember> members)>;
  /// The end of CreateLinkedLobbyGuildInviteForUser: the invite code (empty on failure).
  using InviteCallback = std::function<void(ClientResult result, std::string code)>;
  /// The end of GetProvisionalToken: the player's tokens (a default ProvisionalToken on failure).
  using ProvisionalTokenCallback = std::function<void(ClientResult result, ProvisionalToken token)>;
  /// The end of ListSkus: the application's SKUs (empty on failure).
  using SkusCallback = std::function<void(ClientResult result, std::vector<Sku> skus)>;
  /// The end of a call that answers one entitlement (a default Entitlement on failure).
  using EntitlementCallback = std::function<void(ClientResult result, Entitlement entitlement)>;
  /// The end of ListEntitlements: one page of entitlements (empty on failure).
  using EntitlementsCallback =
      std::function<void(ClientResult result, std::vector<Entitlement> entitlements)>;
  /// The end of GetSkuSubscription: the subscription (a default Subscription on failure).
  using SubscriptionCallback = std::function<void(ClientResult result, Subscription subscription)>;
  /// The end of ListSkuSubscriptions: one page of subscriptions (empty on failure).
  using SubscriptionsCallback =
      std::function<void(ClientResult result, std::vector<Subscription> subscriptions)>;
  /// The end of GetGameStatsProfile: the stored profile (a default GameStatsProfile on failure).
  using GameStatsProfileCallback = std::function<void(ClientResult result, GameStatsProfile profile)>;
  /// The end of a call that answers one command (a default ApplicationCommand on failure).
  using CommandCallback = std::function<void(ClientResult result, ApplicationCommand command)>;
  /// The end of a call that answers the scope's commands (empty on failure).
  using CommandsCallback = std::function<void(ClientResult result, std::vector<ApplicationCommand> commands)>;
  /// The end of a call that answers a message (a default ChannelMessage on failure).
  using MessageCallback = std::function<void(ClientResult result, ChannelMessage message)>;
  /// The end of GetMessages: one page of messages, newest first (empty on failure).
  using MessagesCallback = std::function<void(ClientResult result, std::vector<ChannelMessage> messages)>;
  /// The end of a call that answers one role (a default Role on failure).
  using RoleCallback = std::function<void(ClientResult result, Role role)>;
  /// The end of a call that answers the guild's roles, sorted by position (empty on failure).
  using RolesCallback = std::function<void(ClientResult result, std::vector<Role> roles)>;
  /// The end of GetRoleMemberCounts: role id to member count, \@everyone left out (empty on failure).
  using RoleMemberCountsCallback =
      std::function<void(ClientResult result, std::map<uint64_t, uint64_t> counts)>;
  /// The end of a call that answers one member (a default GuildMember on failure).
  using GuildMemberCallback = std::function<void(ClientResult result, GuildMember member)>;
  /// The end of ListMembers: one page of members (empty on failure).
  using GuildMembersCallback = std::function<void(ClientResult result, std::vector<GuildMember> members)>;
  /// The end of GetPruneCount and BeginPrune: how many members (would) go; -1 when not computed (0 on
  /// failure).
  using PruneCallback = std::function<void(ClientResult result, int64_t pruned)>;
  /// The end of GetChannelPins: one page of pins (empty on failure).
  using PinsCallback = std::function<void(ClientResult result, ChannelPinsPage page)>;
  /// The end of GetAuditLog: one page of the audit log (empty on failure).
  using AuditLogCallback = std::function<void(ClientResult result, AuditLog log)>;

  /// Creates the client: it sends nothing until the first call. Without `options.ioContext` it starts a
  /// network thread of its own.
  explicit BackendClient(const BackendOptions& options);
  /// Ends every pending operation with ClientDestroyed, inside the destructor on the destroying thread, and
  /// joins its network thread (or lets go of a shared IoContext).
  ~BackendClient();
  /// Takes over the other client's pending operations; the other one is left empty (operator bool false).
  BackendClient(BackendClient&&) noexcept;
  /// Shuts this client down as the destructor does, then takes over the other one's pending operations.
  BackendClient& operator=(BackendClient&&) noexcept;
  BackendClient(const BackendClient&) = delete;
  BackendClient& operator=(const BackendClient&) = delete;

  /// Runs every callback queued so far, on this thread (on a threadless IoContext, it does the pending
  /// network work first). Never blocks.
  void RunCallbacks();
  /// Blocks until a callback is ready or `timeoutMilliseconds` pass (negative counts as 0); true when
  /// RunCallbacks has something to run. Runs no callback itself. False at once on a moved-from client.
  bool WaitForCallbacks(int32_t timeoutMilliseconds);
  /// Adds a log sink; messages at `minSeverity` and above reach `callback` inside RunCallbacks. The bot token
  /// never appears in them.
  void AddLogCallback(LogCallback callback, LoggingSeverity minSeverity);

  /// Creates a lobby owned by the application (POST /lobbies), with `args.members` (at most 25) in it.
  void CreateLobby(const LobbyArgs& args, LobbyCallback callback);
  /// Reads one of the application's lobbies (GET /lobbies/{id}).
  void GetLobby(uint64_t lobbyId, LobbyCallback callback);
  /// Changes metadata, idle timeout or flags (`args.members` must be empty here; use the member calls).
  void UpdateLobby(uint64_t lobbyId, const LobbyArgs& args, LobbyCallback callback);
  /// Deletes the lobby (DELETE /lobbies/{id}).
  void DeleteLobby(uint64_t lobbyId, ResultCallback callback);
  /// Adds the member, or updates it when already in the lobby.
  void AddLobbyMember(uint64_t lobbyId, const LobbyMemberArgs& member, MemberCallback callback);
  /// Removes the user from the lobby (DELETE /lobbies/{id}/members/{user}).
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
  /// One of the application's entitlements, by id.
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
  /// One subscription to a subscription SKU, by id.
  void GetSkuSubscription(uint64_t skuId, uint64_t subscriptionId, SubscriptionCallback callback);

  // Application commands (application_commands.hpp) of BackendOptions::applicationId: global ones, or one
  // guild's when `guildId` is set (the application must be in that guild). Each command is checked with
  // CheckApplicationCommand before anything is sent (ValidationError naming every broken rule).

  /// The scope's commands, oldest first.
  void ListCommands(std::optional<uint64_t> guildId, CommandsCallback callback);
  /// One command of the scope.
  void GetCommand(std::optional<uint64_t> guildId, uint64_t commandId, CommandCallback callback);
  /// Creates the command, or replaces the scope's command of the same name and type (keeping its id). The
  /// platform refuses a 101st CHAT_INPUT, 16th USER or MESSAGE command, or a second entry point (HTTPError).
  void CreateCommand(std::optional<uint64_t> guildId, const ApplicationCommand& command,
                     CommandCallback callback);
  /// Replaces every field of the command with `command`'s (its id, application and version are ignored).
  void EditCommand(std::optional<uint64_t> guildId, uint64_t commandId, const ApplicationCommand& command,
                   CommandCallback callback);
  /// Deletes the command.
  void DeleteCommand(std::optional<uint64_t> guildId, uint64_t commandId, ResultCallback callback);
  /// Makes `commands` the scope's whole list (what a deploy script does): commands of the same name and type
  /// keep their ids, the others are created, the scope's other commands deleted. Every command is checked,
  /// each error's path starting with its index.
  void BulkOverwriteCommands(std::optional<uint64_t> guildId, const std::vector<ApplicationCommand>& commands,
                             CommandsCallback callback);

  // Interactions (interactions.hpp). The interaction's token authenticates these calls: no bot token is
  // needed or sent, and the token never appears in logs. It is valid for 15 minutes; the initial response
  // must come within 3 seconds of the interaction (InteractionsEndpoint answers it in the HTTP reply
  // instead, which is what the platform prefers). The webhook routes name BackendOptions::applicationId.
  // Tokens are checked to be URL-safe text and responses and messages with CheckInteractionResponse and
  // CheckMessagePayload before anything is sent (ValidationError naming every broken rule); files go as
  // multipart/form-data.

  /// Answers the interaction (POST /interactions/{id}/{token}/callback), once.
  void CreateInteractionResponse(uint64_t interactionId, const std::string& interactionToken,
                                 const InteractionResponse& response, ResultCallback callback);
  /// The original response (GET /webhooks/{application}/{token}/messages/\@original).
  void GetOriginalResponse(const std::string& interactionToken, MessageCallback callback);
  /// Edits the original response, or gives a deferred one its message (PATCH .../messages/\@original).
  void EditOriginalResponse(const std::string& interactionToken, const MessagePayload& changes,
                            MessageCallback callback);
  /// Deletes the original response (not an ephemeral one: the platform refuses it).
  void DeleteOriginalResponse(const std::string& interactionToken, ResultCallback callback);
  /// Sends a follow-up message (POST /webhooks/{application}/{token}); Ephemeral may be set. A
  /// user-installed application may send 5 follow-ups per interaction (HTTPError beyond).
  void CreateFollowup(const std::string& interactionToken, const MessagePayload& message,
                      MessageCallback callback);
  /// One follow-up message (GET /webhooks/{application}/{token}/messages/{id}).
  void GetFollowup(const std::string& interactionToken, uint64_t messageId, MessageCallback callback);
  /// Edits a follow-up message.
  void EditFollowup(const std::string& interactionToken, uint64_t messageId, const MessagePayload& changes,
                    MessageCallback callback);
  /// Deletes a follow-up message.
  void DeleteFollowup(const std::string& interactionToken, uint64_t messageId, ResultCallback callback);

  // Messages in guild text channels and DMs, as the bot (Authorization: Bot). Ids must not be 0, and messages
  // are checked with CheckMessagePayload as channel messages before anything is sent (ValidationError naming
  // every broken rule: Ephemeral is refused here); files go as multipart/form-data. The bot needs the
  // channel's permissions (VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY, ...): HTTPError 403 otherwise.

  /// Sends a message to the channel (POST /channels/{channel}/messages): text, embeds, components, files, a
  /// reply (`messageReference` Default) or a forward (see ForwardMessage).
  void CreateMessage(uint64_t channelId, const MessagePayload& message, MessageCallback callback);
  /// Forwards message `messageId` of channel `sourceChannelId` to channel `channelId`: a message carrying
  /// only the reference, which the platform answers with a snapshot of the forwarded message.
  void ForwardMessage(uint64_t channelId, uint64_t sourceChannelId, uint64_t messageId,
                      MessageCallback callback);
  /// One message of the channel (GET /channels/{channel}/messages/{message}).
  void GetMessage(uint64_t channelId, uint64_t messageId, MessageCallback callback);
  /// One page of the channel's messages, newest first; `query.limit` must be 1 to 100 and at most one of
  /// before, after and around may be set. No READ_MESSAGE_HISTORY: an empty page.
  void GetMessages(uint64_t channelId, const MessageQuery& query, MessagesCallback callback);
  /// Edits one of the bot's messages (PATCH): unset fields are kept; `changes.keptAttachments` lists the
  /// attachments to keep, as for EditFollowup.
  void EditMessage(uint64_t channelId, uint64_t messageId, const MessagePayload& changes,
                   MessageCallback callback);
  /// Deletes a message (the bot's own, or another's with MANAGE_MESSAGES); the platform answers 204.
  /// `reason` goes to the guild's audit log (see the guild calls below).
  void DeleteMessage(uint64_t channelId, uint64_t messageId, ResultCallback callback,
                     const std::string& reason = {});

  // A guild's roles (guild_roles.hpp), as the bot (Authorization: Bot). Ids must not be 0 and changes are
  // checked with CheckRoleChanges before anything is sent (ValidationError naming every broken rule).
  // Changing roles needs MANAGE_ROLES, and only roles below the bot's highest role may be changed or placed:
  // HTTPError 403 (code 50013) otherwise.

  /// The guild's roles, sorted by position (GET /guilds/{guild}/roles).
  void GetRoles(uint64_t guildId, RolesCallback callback);
  /// One role of the guild (GET /guilds/{guild}/roles/{role}).
  void GetRole(uint64_t guildId, uint64_t roleId, RoleCallback callback);
  /// How many members have each role (GET /guilds/{guild}/roles/member-counts).
  void GetRoleMemberCounts(uint64_t guildId, RoleMemberCountsCallback callback);
  /// Creates a role (POST /guilds/{guild}/roles); unset fields of `changes` take the platform's defaults.
  void CreateRole(uint64_t guildId, const RoleChanges& changes, RoleCallback callback,
                  const std::string& reason = {});
  /// Changes the role's set fields (PATCH /guilds/{guild}/roles/{role}); the others are kept.
  void ModifyRole(uint64_t guildId, uint64_t roleId, const RoleChanges& changes, RoleCallback callback,
                  const std::string& reason = {});
  /// Moves roles: each pair is a role id and its new position (at least 1, since \@everyone stays at 0);
  /// answers every role of the guild (PATCH /guilds/{guild}/roles).
  void ModifyRolePositions(uint64_t guildId, const std::vector<std::pair<uint64_t, int32_t>>& positions,
                           RolesCallback callback, const std::string& reason = {});
  /// Deletes the role (DELETE /guilds/{guild}/roles/{role}); the platform answers 204.
  void DeleteRole(uint64_t guildId, uint64_t roleId, ResultCallback callback, const std::string& reason = {});

  // The audit log reason: every call that changes a guild (the role calls above, the member, prune and pin
  // calls below, DeleteMessage) takes a trailing `reason`, sent as X-Audit-Log-Reason and shown in the
  // guild's audit log entry of the action. Empty (the default): no reason. Otherwise valid UTF-8 of 1 to 512
  // characters (CheckAuditLogReason; ValidationError at path "reason" before anything is sent), sent
  // percent-encoded. Trailing and defaulted, so a call without a reason reads as before.

  // A guild's members (guild_members.hpp), as the bot (Authorization: Bot). Ids must not be 0 and changes are
  // checked with CheckMemberChanges / CheckCurrentMemberChanges before anything is sent. Acting on another
  // member needs the permission of the change and a highest role above theirs: HTTPError 403 (50013)
  // otherwise; an unknown member is HTTPError 404 (10007), an unknown role 404 (10011).

  /// One member of the guild (GET /guilds/{guild}/members/{user}).
  void GetMember(uint64_t guildId, uint64_t userId, GuildMemberCallback callback);
  /// The guild's members sorted by user id, `limit` (1 to 1000) of them after user id `after` (0: from the
  /// first) (GET /guilds/{guild}/members). Needs the application's GUILD_MEMBERS intent: HTTPError 403
  /// (50001) without it.
  void ListMembers(uint64_t guildId, int32_t limit, uint64_t after, GuildMembersCallback callback);
  /// Changes the member's set fields (PATCH /guilds/{guild}/members/{user}): nick (MANAGE_NICKNAMES), roles
  /// (MANAGE_ROLES), a timeout (MODERATE_MEMBERS; not of the owner or an administrator), flags. Answers the
  /// member.
  void ModifyMember(uint64_t guildId, uint64_t userId, const MemberChanges& changes,
                    GuildMemberCallback callback, const std::string& reason = {});
  /// Changes the bot's own guild profile (PATCH /guilds/{guild}/members/\@me): nick (CHANGE_NICKNAME),
  /// avatar, banner, bio.
  void ModifyCurrentMember(uint64_t guildId, const CurrentMemberChanges& changes,
                           GuildMemberCallback callback, const std::string& reason = {});
  /// Gives the member a role (PUT /guilds/{guild}/members/{user}/roles/{role}, MANAGE_ROLES); 204, also when
  /// the member had it.
  void AddMemberRole(uint64_t guildId, uint64_t userId, uint64_t roleId, ResultCallback callback,
                     const std::string& reason = {});
  /// Takes a role from the member (DELETE .../roles/{role}, MANAGE_ROLES); 204.
  void RemoveMemberRole(uint64_t guildId, uint64_t userId, uint64_t roleId, ResultCallback callback,
                        const std::string& reason = {});
  /// Kicks the member (DELETE /guilds/{guild}/members/{user}, KICK_MEMBERS); 204.
  void RemoveMember(uint64_t guildId, uint64_t userId, ResultCallback callback,
                    const std::string& reason = {});
  /// How many members BeginPrune with `args` would remove (GET /guilds/{guild}/prune; MANAGE_GUILD and
  /// KICK_MEMBERS). `args.days` must be 1 to 30; `computePruneCount` is not sent.
  void GetPruneCount(uint64_t guildId, const PruneArgs& args, PruneCallback callback);
  /// Removes the inactive members (POST /guilds/{guild}/prune; MANAGE_GUILD and KICK_MEMBERS). The count is
  /// -1 when `args.computePruneCount` is false (the platform answers null).
  void BeginPrune(uint64_t guildId, const PruneArgs& args, PruneCallback callback,
                  const std::string& reason = {});

  // A channel's pins (channel_pins.hpp), as the bot. Pinning needs PIN_MESSAGES in a guild channel
  // (MANAGE_MESSAGES too until 23 February 2026): HTTPError 403 (50013) otherwise; at most 250 pins a channel
  // (HTTPError 400, 30003); an unknown message is 404 (10008).

  /// One page of the channel's pins, newest first (GET /channels/{channel}/messages/pins): `query.limit` 1 to
  /// 50, `query.before` empty or an ISO 8601 time. No READ_MESSAGE_HISTORY: an empty page.
  void GetChannelPins(uint64_t channelId, const PinsQuery& query, PinsCallback callback);
  /// Pins the message (PUT /channels/{channel}/messages/pins/{message}); 204, also when it was pinned.
  void PinMessage(uint64_t channelId, uint64_t messageId, ResultCallback callback,
                  const std::string& reason = {});
  /// Unpins the message (DELETE /channels/{channel}/messages/pins/{message}); 204.
  void UnpinMessage(uint64_t channelId, uint64_t messageId, ResultCallback callback,
                    const std::string& reason = {});

  // A guild's audit log (guild_audit_log.hpp), as the bot: VIEW_AUDIT_LOG, HTTPError 403 (50013) otherwise.

  /// One page of the guild's audit log (GET /guilds/{guild}/audit-logs): `query.limit` 1 to 100, ids not 0.
  void GetAuditLog(uint64_t guildId, const AuditLogQuery& query, AuditLogCallback callback);

  // --- AutoMod, soundboard, application emoji (issue 36) ---------------------------------------------------

  /// The end of a call that answers one AutoMod rule (a default AutoModRule on failure).
  using AutoModRuleCallback = std::function<void(ClientResult result, AutoModRule rule)>;
  /// The end of ListAutoModRules: the guild's rules (empty on failure).
  using AutoModRulesCallback = std::function<void(ClientResult result, std::vector<AutoModRule> rules)>;
  /// The end of a call that answers one soundboard sound (a default SoundboardSound on failure).
  using SoundCallback = std::function<void(ClientResult result, SoundboardSound sound)>;
  /// The end of a call that answers soundboard sounds (empty on failure).
  using SoundsCallback = std::function<void(ClientResult result, std::vector<SoundboardSound> sounds)>;
  /// The end of a call that answers one emoji (a default Emoji on failure).
  using EmojiCallback = std::function<void(ClientResult result, Emoji emoji)>;
  /// The end of ListApplicationEmojis: the application's emoji (empty on failure).
  using EmojisCallback = std::function<void(ClientResult result, std::vector<Emoji> emojis)>;

  // A guild's AutoMod rules (guild_automod.hpp), as the bot: MANAGE_GUILD, and MODERATE_MEMBERS for a rule
  // with a Timeout action (HTTPError 403, 50013, otherwise); an unknown rule is 404 (10066). Ids must not be
  // 0 and changes are checked with CheckAutoModRuleChanges before anything is sent. The platform refuses a
  // 7th Keyword rule or a second rule of another trigger type (HTTPError 400, 50035). The mutating calls take
  // the trailing audit log `reason`.

  /// The guild's rules (GET /guilds/{guild}/auto-moderation/rules).
  void ListAutoModRules(uint64_t guildId, AutoModRulesCallback callback);
  /// One rule (GET /guilds/{guild}/auto-moderation/rules/{rule}).
  void GetAutoModRule(uint64_t guildId, uint64_t ruleId, AutoModRuleCallback callback);
  /// Creates a rule (POST /guilds/{guild}/auto-moderation/rules): `changes` needs name, eventType,
  /// triggerType and actions.
  void CreateAutoModRule(uint64_t guildId, const AutoModRuleChanges& changes, AutoModRuleCallback callback,
                         const std::string& reason = {});
  /// Changes the rule's set fields (PATCH .../rules/{rule}); its trigger type never changes.
  void ModifyAutoModRule(uint64_t guildId, uint64_t ruleId, const AutoModRuleChanges& changes,
                         AutoModRuleCallback callback, const std::string& reason = {});
  /// Deletes the rule (DELETE .../rules/{rule}); 204.
  void DeleteAutoModRule(uint64_t guildId, uint64_t ruleId, ResultCallback callback,
                         const std::string& reason = {});

  // Soundboard sounds (guild_soundboard.hpp), as the bot. Creating needs CREATE_GUILD_EXPRESSIONS (also
  // MANAGE_GUILD_EXPRESSIONS before 23 February 2026); modifying and deleting MANAGE_GUILD_EXPRESSIONS, or
  // either of the two for the bot's own sounds (HTTPError 403, 50013); an unknown sound is 404 (10097).
  // Changes are checked with CheckSoundChanges before anything is sent.

  /// The platform's default sounds (GET /soundboard-default-sounds).
  void ListDefaultSoundboardSounds(SoundsCallback callback);
  /// The guild's sounds (GET /guilds/{guild}/soundboard-sounds).
  void ListGuildSoundboardSounds(uint64_t guildId, SoundsCallback callback);
  /// One of the guild's sounds (GET /guilds/{guild}/soundboard-sounds/{sound}).
  void GetGuildSoundboardSound(uint64_t guildId, uint64_t soundId, SoundCallback callback);
  /// Uploads a sound (POST /guilds/{guild}/soundboard-sounds): `changes` needs name and sound (sent as a
  /// data URI). A full guild answers HTTPError 400 (30045).
  void CreateGuildSoundboardSound(uint64_t guildId, const SoundChanges& changes, SoundCallback callback,
                                  const std::string& reason = {});
  /// Changes the sound's set fields (PATCH .../soundboard-sounds/{sound}): name, volume, emoji; not the
  /// sound.
  void ModifyGuildSoundboardSound(uint64_t guildId, uint64_t soundId, const SoundChanges& changes,
                                  SoundCallback callback, const std::string& reason = {});
  /// Deletes the sound (DELETE .../soundboard-sounds/{sound}); 204.
  void DeleteGuildSoundboardSound(uint64_t guildId, uint64_t soundId, ResultCallback callback,
                                  const std::string& reason = {});
  /// Plays a sound in the voice channel the bot is connected to (POST
  /// /channels/{channel}/send-soundboard-sound; SPEAK and USE_SOUNDBOARD, USE_EXTERNAL_SOUNDS for another
  /// guild's sound named by `sourceGuildId`); 204.
  void SendSoundboardSound(uint64_t channelId, uint64_t soundId, std::optional<uint64_t> sourceGuildId,
                           ResultCallback callback);

  // The application's own emoji (application_emoji.hpp) on BackendOptions::applicationId (ValidationError at
  // "applicationId" while it is 0), as the bot. Changes are checked with CheckEmoji before anything is sent;
  // the platform keeps at most 2000 emoji an application (HTTPError 400 beyond); an unknown emoji is 404
  // (10014).

  /// The application's emoji (GET /applications/{app}/emojis).
  void ListApplicationEmojis(EmojisCallback callback);
  /// One emoji (GET /applications/{app}/emojis/{emoji}).
  void GetApplicationEmoji(uint64_t emojiId, EmojiCallback callback);
  /// Uploads an emoji (POST /applications/{app}/emojis): `changes` needs name and image (sent as a data URI).
  void CreateApplicationEmoji(const EmojiChanges& changes, EmojiCallback callback);
  /// Renames the emoji (PATCH /applications/{app}/emojis/{emoji}): `changes.name` only.
  void ModifyApplicationEmoji(uint64_t emojiId, const EmojiChanges& changes, EmojiCallback callback);
  /// Deletes the emoji (DELETE /applications/{app}/emojis/{emoji}); 204.
  void DeleteApplicationEmoji(uint64_t emojiId, ResultCallback callback);

  // A guild's channels, voice, invites and search (guild_channels.hpp, guild_invites.hpp,
  // message_search.hpp), as the bot (Authorization: Bot). Ids must not be 0 and every argument is checked
  // (CheckChannelChanges, CheckVoiceChannelStatus, CheckInviteArgs, CheckMessageSearchQuery) before anything
  // is sent: ValidationError naming every broken rule. Permissions count in the channel (its overwrites
  // apply): HTTPError 403 (50013) without the one a call names, 403 (50001) for a channel the bot cannot
  // view; an unknown channel is 404 (10003), an unknown invite 404 (10006).

  /// The end of a call that answers one guild channel (a default Channel on failure).
  using ChannelCallback = std::function<void(ClientResult result, Channel channel)>;
  /// The end of a call that answers a voice state (a default VoiceState on failure).
  using VoiceStateCallback = std::function<void(ClientResult result, VoiceState state)>;
  /// The end of a call that answers one invite (a default Invite on failure).
  using GuildInviteCallback = std::function<void(ClientResult result, Invite invite)>;
  /// The end of GetChannelInvites: the channel's invites, oldest first (empty on failure).
  using GuildInvitesCallback = std::function<void(ClientResult result, std::vector<Invite> invites)>;
  /// The end of GetInviteTargetUsers: the user ids of the invite's target-users file (empty on failure).
  using InviteTargetUsersCallback = std::function<void(ClientResult result, std::vector<uint64_t> userIds)>;
  /// The end of GetInviteTargetUsersJobStatus (a default InviteTargetUsersJob on failure).
  using InviteTargetUsersJobCallback = std::function<void(ClientResult result, InviteTargetUsersJob job)>;
  /// The end of SearchGuildMessages: a page of results, or `indexing` set (a default result on failure).
  using MessageSearchCallback = std::function<void(ClientResult result, MessageSearchResult found)>;

  /// One guild channel (GET /channels/{channel}; VIEW_CHANNEL).
  void GetChannel(uint64_t channelId, ChannelCallback callback);
  /// Creates a channel (POST /guilds/{guild}/channels; MANAGE_CHANNELS, and MANAGE_ROLES for overwrites):
  /// `changes.name` is required; unset fields take the platform's defaults. Answers the channel.
  void CreateGuildChannel(uint64_t guildId, const ChannelChanges& changes, ChannelCallback callback,
                          const std::string& reason = {});
  /// Changes the channel's set fields (PATCH /channels/{channel}; MANAGE_CHANNELS, and MANAGE_ROLES for
  /// overwrites); the others are kept. Answers the channel.
  void ModifyChannel(uint64_t channelId, const ChannelChanges& changes, ChannelCallback callback,
                     const std::string& reason = {});
  /// Moves channels (PATCH /guilds/{guild}/channels; MANAGE_CHANNELS in each): at least one, ids not 0,
  /// positions at least 0; 204.
  void ModifyGuildChannelPositions(uint64_t guildId, const std::vector<ChannelPosition>& positions,
                                   ResultCallback callback, const std::string& reason = {});
  /// Deletes the channel (DELETE /channels/{channel}; MANAGE_CHANNELS); answers the deleted channel.
  void DeleteChannel(uint64_t channelId, ChannelCallback callback, const std::string& reason = {});
  /// Sets the channel's overwrite for `overwrite.id` (PUT /channels/{channel}/permissions/{id};
  /// MANAGE_ROLES); 204.
  void EditChannelPermissions(uint64_t channelId, const PermissionOverwrite& overwrite,
                              ResultCallback callback, const std::string& reason = {});
  /// Removes the channel's overwrite for role or member `overwriteId` (DELETE
  /// /channels/{channel}/permissions/{id}; MANAGE_ROLES); 204, also when there was none.
  void DeleteChannelPermission(uint64_t channelId, uint64_t overwriteId, ResultCallback callback,
                               const std::string& reason = {});

  /// The bot's voice state in the guild (GET /guilds/{guild}/voice-states/\@me); 404 (10065) when it is not
  /// connected.
  void GetCurrentUserVoiceState(uint64_t guildId, VoiceStateCallback callback);
  /// A user's voice state in the guild (GET /guilds/{guild}/voice-states/{user}; CONNECT in their channel);
  /// 404 (10065) when not connected.
  void GetUserVoiceState(uint64_t guildId, uint64_t userId, VoiceStateCallback callback);
  /// Sets a voice channel's status (PUT /channels/{channel}/voice-status; SET_VOICE_CHANNEL_STATUS, and
  /// MANAGE_CHANNELS unless the bot is connected there): at most 500 characters (ValidationError beyond, not
  /// sent); empty clears it (sent as null). 204.
  void SetVoiceChannelStatus(uint64_t channelId, const std::string& status, ResultCallback callback,
                             const std::string& reason = {});

  /// Creates an invite to the channel (POST /channels/{channel}/invites; CREATE_INSTANT_INVITE, MANAGE_ROLES
  /// for `args.roleIds`, MANAGE_GUILD for `args.targetUserIds`, which go as a CSV file in a multipart body).
  /// Answers the invite with its metadata; the target users apply once their job completes.
  void CreateChannelInvite(uint64_t channelId, const InviteArgs& args, GuildInviteCallback callback,
                           const std::string& reason = {});
  /// The channel's live invites with metadata (GET /channels/{channel}/invites; MANAGE_CHANNELS).
  void GetChannelInvites(uint64_t channelId, GuildInvitesCallback callback);
  /// One invite (GET /invites/{code}); `withCounts` asks for the approximate member and presence counts.
  void GetInvite(const std::string& code, bool withCounts, GuildInviteCallback callback);
  /// Deletes an invite (DELETE /invites/{code}; MANAGE_CHANNELS in its channel, or MANAGE_GUILD); answers it.
  void DeleteInvite(const std::string& code, GuildInviteCallback callback, const std::string& reason = {});
  /// The user ids of the invite's target-users file (GET /invites/{code}/target-users, a CSV answer; the
  /// inviter, MANAGE_GUILD or VIEW_AUDIT_LOG); 404 (10129) for an invite without target users.
  void GetInviteTargetUsers(const std::string& code, InviteTargetUsersCallback callback);
  /// Replaces the invite's target users (PUT /invites/{code}/target-users, a CSV file in a multipart body;
  /// the inviter or MANAGE_GUILD): at least one id, none 0; 204, and a new job processes them.
  void UpdateInviteTargetUsers(const std::string& code, const std::vector<uint64_t>& userIds,
                               ResultCallback callback, const std::string& reason = {});
  /// The status of the invite's target-users job (GET /invites/{code}/target-users/job-status); 404 (10124)
  /// without a job.
  void GetInviteTargetUsersJobStatus(const std::string& code, InviteTargetUsersJobCallback callback);

  /// Searches the guild's messages (GET /guilds/{guild}/messages/search; READ_MESSAGE_HISTORY, and the
  /// application's MESSAGE_CONTENT intent): channels the bot cannot read are left out. While the guild is not
  /// yet indexed the call succeeds with `found.indexing` set and `found.retryAfterSeconds` to wait.
  void SearchGuildMessages(uint64_t guildId, const MessageSearchQuery& query, MessageSearchCallback callback);

  /// False once moved from; calls on a moved-from BackendClient do nothing (their callbacks never run).
  explicit operator bool() const noexcept { return impl_ != nullptr; }

 private:
  friend class BackendAccess;
  class Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace platformpp::backend
