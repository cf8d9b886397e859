#pragma once
// platformpp::Client: the one object a game holds (see the class documentation below).

#include <platformpp/activity.hpp>
#include <platformpp/authorization.hpp>
#include <platformpp/call.hpp>
#include <platformpp/client_options.hpp>
#include <platformpp/client_result.hpp>
#include <platformpp/client_status.hpp>
#include <platformpp/lobby.hpp>
#include <platformpp/logging.hpp>
#include <platformpp/message.hpp>
#include <platformpp/premium.hpp>
#include <platformpp/social.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {

namespace client {
class ClientCore;
class ClientAccess;
}  // namespace client

/// The one object a game holds: the player's connection to the platform and every social feature.
///
/// It owns a network thread (or shares an IoContext), a callback queue that only RunCallbacks drains, and
/// everything the social features need.
///
/// Threading contract:
/// - Every callback runs inside RunCallbacks(), on the thread that calls it; never on an internal thread,
///   never from inside another SDK call. RunCallbacks never blocks.
/// - State is updated before the callback that announces it is queued.
/// - A callback may call any method of the Client, destroying it included.
/// - Every operation ends exactly once: success, an error, a timeout, Aborted, or ClientDestroyed.
/// - Destroying a Client completes each pending operation with ClientDestroyed inside the destructor, on the
///   destroying thread, joins the Client's threads, and calls nothing after it returns.
///
/// Methods may be called from any thread, also while another thread is inside RunCallbacks. RunCallbacks and
/// WaitForCallbacks run on one thread at a time: called on a second thread while a first is inside either,
/// they return at once, running nothing, and log an error. The destructor must not run concurrently with
/// other methods of the same Client.
///
/// The Set...Callback methods register one handler per event: a new call replaces the previous handler and
/// an empty function removes it. Each event runs the handler registered when RunCallbacks delivers it.
class Client {
 public:
  /// Connection status (ClientStatus); values match the platform's own Social SDK.
  using Status = ClientStatus;
  /// Why the connection ended without being asked to (ClientError).
  using Error = ClientError;
  /// The Client's threads (ClientThread).
  using Thread = ClientThread;

  /// @name The callback types of authorization.hpp and client_status.hpp, by the platform SDK's names
  /// @{

  /// Result of FetchCurrentUser: the token user's id and username (platformpp::FetchCurrentUserCallback).
  using FetchCurrentUserCallback = platformpp::FetchCurrentUserCallback;
  /// Result of the token exchanges: tokens, type, lifetime and scopes (platformpp::TokenExchangeCallback).
  using TokenExchangeCallback = platformpp::TokenExchangeCallback;
  /// Result of ExchangeChildToken (platformpp::ExchangeChildTokenCallback).
  using ExchangeChildTokenCallback = platformpp::ExchangeChildTokenCallback;
  /// Result of RevokeToken (platformpp::RevokeTokenCallback).
  using RevokeTokenCallback = platformpp::RevokeTokenCallback;
  /// Result of UpdateProvisionalAccountDisplayName (platformpp::UpdateProvisionalAccountDisplayNameCallback).
  using UpdateProvisionalAccountDisplayNameCallback = platformpp::UpdateProvisionalAccountDisplayNameCallback;
  /// Handler of RegisterAuthorizeRequestCallback (platformpp::AuthorizeRequestCallback).
  using AuthorizeRequestCallback = platformpp::AuthorizeRequestCallback;
  /// Result of UpdateToken and UnmergeIntoProvisionalAccount (platformpp::UpdateTokenCallback).
  using UpdateTokenCallback = platformpp::UpdateTokenCallback;
  /// Result of Authorize: the code and redirect URI for GetToken (platformpp::AuthorizationCallback).
  using AuthorizationCallback = platformpp::AuthorizationCallback;
  /// Handler of SetStatusChangedCallback (platformpp::StatusChangedCallback).
  using StatusChangedCallback = platformpp::StatusChangedCallback;
  /// Opener installed with SetUrlOpener (platformpp::UrlOpener).
  using UrlOpener = platformpp::UrlOpener;
  /// @}

  /// A Client with the default ClientOptions: it talks to the platform itself, with its own network thread.
  Client();
  /// A Client set up with `options` (servers, trust, shared IoContext, IPC, clock).
  explicit Client(ClientOptions options);
  /// The platform SDK's constructor shape: the API base (ClientOptions::apiBase) and the web base
  /// (ClientOptions::webBase: the authorize page and invite links); everything else as in ClientOptions.
  Client(std::string apiBase, std::string webBase);
  /// Ends every pending operation with ClientDestroyed (its callback runs here, on the destroying thread),
  /// stops the connections and joins the Client's threads.
  ~Client();
  /// Takes over `other`'s connection, state and pending operations; `other` becomes a moved-from Client.
  ///
  /// On a moved-from Client (operator bool false) only operator bool, RunCallbacks, WaitForCallbacks,
  /// IsAuthenticated, GetStatus, the premium methods, assignment and destruction are safe; other methods
  /// must not be called.
  Client(Client&& other) noexcept;
  /// Destroys this Client's own state first (as the destructor does: pending operations end with
  /// ClientDestroyed), then takes over `other`'s; `other` becomes a moved-from Client.
  Client& operator=(Client&& other) noexcept;
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  /// Runs every callback queued so far, on this thread. Never blocks. Calls made from inside a callback to
  /// RunCallbacks return at once.
  void RunCallbacks();

  /// Blocks the calling thread until a callback is ready to run or `timeoutMilliseconds` pass; returns true
  /// when RunCallbacks has something to do. For bots, tools and tests that have nothing else to do between
  /// callbacks; a game keeps calling RunCallbacks once a frame. Runs no callback itself.
  bool WaitForCallbacks(int32_t timeoutMilliseconds);

  /// Sets the game's application id: the token calls and Authorize use it when given 0, and the calls whose
  /// notes say they need SetApplicationId use it as well.
  void SetApplicationId(uint64_t applicationId);
  /// The application id given to SetApplicationId; 0 until it is set.
  uint64_t GetApplicationId() const;

  /// Timeout of one HTTP exchange (connect, TLS, request, response). Default 30000 ms; values < 1 are
  /// refused.
  void SetHttpRequestTimeout(int32_t httpTimeoutInMilliseconds);
  /// The timeout of one HTTP exchange, in milliseconds (SetHttpRequestTimeout; default 30000).
  int32_t GetHttpRequestTimeout() const;

  /// Adds a log sink; messages at `minSeverity` and above reach `callback` inside RunCallbacks.
  ///
  /// Sinks add up and cannot be removed; an empty `callback` or LoggingSeverity::None adds nothing.
  void AddLogCallback(LogCallback callback, LoggingSeverity minSeverity);
  /// Also writes messages at `minSeverity` and above to a file in `path` (created if missing). An empty path
  /// stops file logging. Returns false when the directory or file cannot be created.
  ///
  /// The file is named `platformpp-<UTC time>-<process id>.log` and readable by the user only. A new call
  /// closes the previous file; LoggingSeverity::None also stops file logging.
  bool SetLogDir(const std::string& path, LoggingSeverity minSeverity);

  /// Looks up the user a token belongs to (GET `/users/@me` with that token): the callback gets their id
  /// and username.
  void FetchCurrentUser(AuthorizationTokenType tokenType, const std::string& token,
                        FetchCurrentUserCallback callback);

  /// Asks the player to authorize the game: in the desktop client when it runs (over IPC), otherwise on the
  /// platform's authorize page in a browser, whose code comes back to a listener on 127.0.0.1. The callback
  /// gets the code and the redirect URI to pass to GetToken (with the verifier of args.CodeChallenge()). The
  /// state is generated when unset and checked: a mismatch is AuthorizationFailed, as is no answer within
  /// ClientOptions::authorizeTimeout and a refusal (in the browser: OAuthError() "access_denied"; in the
  /// desktop client: ErrorCode() 5000 and no OAuthError()). A new Authorize ends a pending one with Aborted.
  void Authorize(AuthorizationArgs args, AuthorizationCallback callback);
  /// Ends a pending Authorize with Aborted.
  void AbortAuthorize();
  /// Replaces how Authorize opens the authorize page (default: the system's browser). Headless tests and
  /// consoles hand the URL to their own browser or device flow here.
  void SetUrlOpener(UrlOpener opener);

  /// A fresh PKCE pair (S256): pass Challenge() in AuthorizationArgs, keep Verifier() for GetToken.
  static AuthorizationCodeVerifier CreateAuthorizationCodeVerifier();
  /// Exchanges an authorization code for tokens (PKCE, public client: no secret). `applicationId` 0 means the
  /// value of SetApplicationId. Does not change the Client's own token: call UpdateToken with the result.
  void GetToken(uint64_t applicationId, std::string code, std::string codeVerifier, std::string redirectUri,
                TokenExchangeCallback callback);
  /// Exchanges a refresh token for a new pair; both old tokens stop working. An `invalid_grant` answer (the
  /// authorization was revoked, the account unlinked, or the token deleted) ends as AuthorizationFailed with
  /// OAuthError() == "invalid_grant", and the Client drops its token as on deauthorization.
  void RefreshToken(uint64_t applicationId, std::string refreshToken, TokenExchangeCallback callback);
  /// Publisher-level account linking: exchanges an access token of the parent application for one of
  /// `childApplicationId` (an application whose parent it is), for the same player and scopes.
  void ExchangeChildToken(std::string parentApplicationToken, uint64_t childApplicationId,
                          ExchangeChildTokenCallback callback);
  /// Revokes the whole authorization `token` belongs to (access and refresh tokens).
  void RevokeToken(uint64_t applicationId, std::string token, RevokeTokenCallback callback);
  /// Sets the token the Client uses from now on.
  void UpdateToken(AuthorizationTokenType tokenType, std::string token, UpdateTokenCallback callback);
  /// True once UpdateToken has given the Client a token (and it was not revoked or refused since).
  bool IsAuthenticated() const;
  /// Called once per token, inside RunCallbacks, when the token set by UpdateToken is 5 minutes from expiring
  /// (or already closer): time to RefreshToken (or re-authenticate a provisional account) and UpdateToken.
  /// The SDK knows the expiry of tokens it saw issued (GetToken, RefreshToken, GetProvisionalToken, ...).
  void SetTokenExpirationCallback(std::function<void()> callback);

  /// A token for a provisional account: the platform identity of the player's account with the game's own
  /// identity provider. OIDC may also return a refresh token; RefreshToken refuses it (re-authenticate
  /// instead).
  void GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                           const std::string& externalAuthToken, TokenExchangeCallback callback);
  /// GetToken that also merges the provisional account of `externalAuthToken` into the consenting platform
  /// account. Fails with AuthorizationFailed and ErrorCode() 530017 while that account is banned.
  void GetTokenFromProvisionalMerge(uint64_t applicationId, std::string code, std::string codeVerifier,
                                    std::string redirectUri, AuthenticationExternalAuthType externalAuthType,
                                    std::string externalAuthToken, TokenExchangeCallback callback);
  /// Severs a merged account: the platform account keeps its data, the external identity gets a new
  /// provisional account, and the link's tokens (including the Client's own) stop working.
  void UnmergeIntoProvisionalAccount(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                                     const std::string& externalAuthToken, UpdateTokenCallback callback);

  /// Sets the display name of the provisional account whose token the Client holds (UpdateToken). 1 to 32
  /// characters once trimmed.
  void UpdateProvisionalAccountDisplayName(const std::string& name,
                                           UpdateProvisionalAccountDisplayNameCallback callback);

  /// Account linking started from the desktop client: `callback` runs (inside RunCallbacks) each time the
  /// player asks the desktop client to link this game, which is the game's cue to call Authorize. The
  /// subscription lives over IPC and is renewed whenever the desktop client comes back after it quit or
  /// restarted. A new call replaces the callback.
  void RegisterAuthorizeRequestCallback(AuthorizeRequestCallback callback);
  /// Stops listening for the desktop client's account-link requests (RegisterAuthorizeRequestCallback).
  void RemoveAuthorizeRequestCallback();

  /// Opens the realtime connection (the Gateway) with the token of UpdateToken: HttpWait (GET /gateway)
  /// -> Connecting -> Connected -> Ready, and keeps it up (resuming, Reconnecting meanwhile) until
  /// Disconnect or a close the platform marks final. Without a token the status stays Disconnected and the
  /// status callback reports ConnectionFailed (errorDetail 401). Does nothing while already connecting or
  /// connected. A later UpdateToken with another token makes a connected session identify again with it.
  void Connect();
  /// Closes the realtime connection (close code 1000, which ends the session): Disconnecting ->
  /// Disconnected.
  void Disconnect();
  /// The realtime connection's current status; Disconnected for a moved-from Client.
  Status GetStatus() const;
  /// Sets the handler of status changes of the realtime connection (see platformpp::StatusChangedCallback).
  void SetStatusChangedCallback(StatusChangedCallback callback);

  // --- Rich presence and activity invites ---------------------------------------------------------------

  /// @name The callback types of activity.hpp, by the platform SDK's names
  /// @{

  /// Result of UpdateRichPresence (platformpp::UpdateRichPresenceCallback).
  using UpdateRichPresenceCallback = platformpp::UpdateRichPresenceCallback;
  /// Result of SetOnlineStatus (platformpp::UpdateStatusCallback).
  using UpdateStatusCallback = platformpp::UpdateStatusCallback;
  /// Result of SendActivityInvite and SendActivityJoinRequest (platformpp::SendActivityInviteCallback).
  using SendActivityInviteCallback = platformpp::SendActivityInviteCallback;
  /// Result of AcceptActivityInvite: the join secret (platformpp::AcceptActivityInviteCallback).
  using AcceptActivityInviteCallback = platformpp::AcceptActivityInviteCallback;
  /// Handler of received invites and join requests (platformpp::ActivityInviteCallback).
  using ActivityInviteCallback = platformpp::ActivityInviteCallback;
  /// Handler of SetActivityJoinCallback: the join secret (platformpp::ActivityJoinCallback).
  using ActivityJoinCallback = platformpp::ActivityJoinCallback;
  /// @}

  /// Shows `activity` to the player's friends. Checked before anything is sent; a violation ends as
  /// ValidationError whose FieldErrors() name the field in the wire's names ("activity.state",
  /// "activity.buttons.1.url", ...), every violation at once:
  /// - Type is Playing, Listening, Watching or Competing;
  /// - State and Details (when set) 2 to 128 characters, counted as Unicode code points; Name, LargeText,
  ///   SmallText at most 128, LargeImage and SmallImage at most 256; every string valid UTF-8;
  /// - StateUrl, DetailsUrl, LargeUrl, SmallUrl and button URLs are http(s) URLs of at most 256 characters;
  /// - at most 2 buttons with labels of 1 to 32; party id and join secret (when not empty) 2 to 128
  ///   characters, 0 <= CurrentSize <= MaxSize;
  /// - InviteCoverImage is an https URL or an asset key (letters, digits, '_', '-', '.');
  /// - SupportedPlatforms is a non-empty set of ActivityGamePlatforms bits;
  /// - the field StatusDisplayType chooses (Name, State or Details) is set;
  /// - the whole presence fits the realtime connection's 4096-byte payload limit (path "activity").
  /// Sent over the realtime connection when it is Ready (the callback runs once it is handed to the socket),
  /// else over the local desktop client (no token or Connect needed; the callback runs once it answered).
  /// Kept and sent again after every reconnect of either. ClientNotReady when neither is there; the activity
  /// is still kept and goes out once Connect reaches Ready.
  void UpdateRichPresence(Activity activity, UpdateRichPresenceCallback callback);
  /// Removes the game's activity (from the realtime connection and the desktop client, whichever has it).
  void ClearRichPresence();
  /// Online, Idle, Dnd or Invisible (else ValidationError), for the player's presence over the realtime
  /// connection only (the desktop client keeps its own). ClientNotReady when it is not Ready; the status is
  /// still kept and goes out with the next READY.
  void SetOnlineStatus(StatusType status, UpdateStatusCallback callback);
  /// Invites `userId` (a friend) to join the player's current activity, which must be joinable (party id,
  /// CurrentSize < MaxSize, and a join secret; else ValidationError naming what is missing). `content` is an
  /// optional message. Needs a token and SetApplicationId.
  void SendActivityInvite(uint64_t userId, const std::string& content, SendActivityInviteCallback callback);
  /// Asks `userId` to invite the player into their activity; ValidationError while no activity of theirs
  /// with a party in this game is known (from their presence).
  void SendActivityJoinRequest(uint64_t userId, SendActivityInviteCallback callback);
  /// Accepts an invite: the callback gets the join secret of the sender's activity. HTTPError 400 code 50083
  /// when the sender's activity no longer has the invite's party.
  void AcceptActivityInvite(const ActivityInvite& invite, AcceptActivityInviteCallback callback);
  /// An invite or join request for this game arrived for the player (from a friend, over the realtime
  /// connection).
  void SetActivityInviteCreatedCallback(ActivityInviteCallback callback);
  /// A received invite became invalid (its sender left the party) or valid again.
  void SetActivityInviteUpdatedCallback(ActivityInviteCallback callback);
  /// The player joined a friend's activity from the desktop client: here is its join secret. Needs
  /// SetApplicationId first; the subscription is renewed whenever the desktop client comes back.
  void SetActivityJoinCallback(ActivityJoinCallback callback);
  /// Registers how the desktop client starts the game to join an activity (`command` runs with the join
  /// URL). On Linux: a desktop entry for the URL scheme `discord-<applicationId>` in
  /// $XDG_DATA_HOME/applications and that scheme's default in $XDG_CONFIG_HOME/mimeapps.list. Returns false
  /// (and logs why) when it could not be registered.
  bool RegisterLaunchCommand(uint64_t applicationId, const std::string& command);
  /// RegisterLaunchCommand with `xdg-open steam://rungameid/<steamAppId>`.
  bool RegisterLaunchSteamApplication(uint64_t applicationId, uint32_t steamAppId);

  // --- Relationships ---------------------------------------------------------------------------------------

  // The state (GetRelationships, GetUser, ...) comes from the realtime connection: READY, then its updates.
  // The calls that change a relationship send an HTTP request with the token of UpdateToken and end when the
  // platform answered; the new state follows over the realtime connection (with the callbacks below), to both
  // players. Refused before anything is sent: an empty username or a user id of 0 or of the player
  // (ValidationError); no token (ClientNotReady). The platform's refusals end as HTTPError with its code:
  // 80004 no such username, 80000 not allowed (e.g. blocked), 80007 already friends, 10013 unknown user,
  // 10070 no such relationship to accept, reject, cancel or remove.
  // The callbacks of one change run in this order: created/deleted, groups updated, user updated.

  /// @name The callback types of social.hpp, by the platform SDK's names
  /// @{

  /// Result of the calls that change a relationship (platformpp::RelationshipCallback).
  using RelationshipCallback = platformpp::RelationshipCallback;
  /// Handler of SetRelationshipCreatedCallback (platformpp::RelationshipCreatedCallback).
  using RelationshipCreatedCallback = platformpp::RelationshipCreatedCallback;
  /// Handler of SetRelationshipDeletedCallback (platformpp::RelationshipDeletedCallback).
  using RelationshipDeletedCallback = platformpp::RelationshipDeletedCallback;
  /// Handler of SetRelationshipGroupsUpdatedCallback (platformpp::RelationshipGroupsUpdatedCallback).
  using RelationshipGroupsUpdatedCallback = platformpp::RelationshipGroupsUpdatedCallback;
  /// @}

  /// Everyone the player has a relationship with (friends, requests, blocks; platform and game).
  std::vector<RelationshipHandle> GetRelationships() const;
  /// Friends (platform or game) in `group`, sorted as the desktop client sorts them: by display name
  /// (case-insensitive), then id. OnlinePlayingGame: online with an activity of this application
  /// (SetApplicationId); OnlineElsewhere: online otherwise; Offline: the rest (invisible friends included).
  std::vector<RelationshipHandle> GetRelationshipsByGroup(RelationshipGroupType group) const;
  /// The relationship with `userId`; both types None when there is none.
  RelationshipHandle GetRelationshipHandle(uint64_t userId) const;
  /// Sends a platform friend request to the user with this `username`.
  void SendDiscordFriendRequest(const std::string& username, RelationshipCallback callback);
  /// Sends a platform friend request to `userId`.
  void SendDiscordFriendRequestById(uint64_t userId, RelationshipCallback callback);
  /// Sends a game friend request to the user with this `username`.
  void SendGameFriendRequest(const std::string& username, RelationshipCallback callback);
  /// Sends a game friend request to `userId`.
  void SendGameFriendRequestById(uint64_t userId, RelationshipCallback callback);
  /// Accepts the platform friend request `userId` sent (the same request as SendDiscordFriendRequestById).
  void AcceptDiscordFriendRequest(uint64_t userId, RelationshipCallback callback);
  /// Accepts the game friend request `userId` sent (the same request as SendGameFriendRequestById).
  void AcceptGameFriendRequest(uint64_t userId, RelationshipCallback callback);
  /// Rejects the platform friend request `userId` sent: removes the platform relationship with them.
  void RejectDiscordFriendRequest(uint64_t userId, RelationshipCallback callback);
  /// Rejects the game friend request `userId` sent: removes the game relationship with them.
  void RejectGameFriendRequest(uint64_t userId, RelationshipCallback callback);
  /// Withdraws the player's platform friend request to `userId`: removes the platform relationship.
  void CancelDiscordFriendRequest(uint64_t userId, RelationshipCallback callback);
  /// Withdraws the player's game friend request to `userId`: removes the game relationship.
  void CancelGameFriendRequest(uint64_t userId, RelationshipCallback callback);
  /// Removes the platform and the game relationship; succeeds when at least one was there.
  void RemoveDiscordAndGameFriend(uint64_t userId, RelationshipCallback callback);
  /// Removes the game relationship with `userId` (the platform one, if any, stays).
  void RemoveGameFriend(uint64_t userId, RelationshipCallback callback);
  /// Blocks `userId`: the platform relationship becomes a block.
  void BlockUser(uint64_t userId, RelationshipCallback callback);
  /// Unblocks `userId`: removes the platform relationship with them.
  void UnblockUser(uint64_t userId, RelationshipCallback callback);
  /// Friends whose username or display name starts with `searchStr` (case-insensitive), sorted as above.
  std::vector<UserHandle> SearchFriendsByUsername(const std::string& searchStr) const;
  /// Sets the handler of new relationships and changes of a relationship's type (a request accepted, a
  /// block), platform or game.
  void SetRelationshipCreatedCallback(RelationshipCreatedCallback callback);
  /// Sets the handler of relationships (platform or game) that went away.
  void SetRelationshipDeletedCallback(RelationshipDeletedCallback callback);
  /// A user moved between groups of GetRelationshipsByGroup (also into or out of them), or within one (a
  /// new display name).
  void SetRelationshipGroupsUpdatedCallback(RelationshipGroupsUpdatedCallback callback);

  // --- Users and guilds ------------------------------------------------------------------------------------

  /// @name The callback types of social.hpp, by the platform SDK's names
  /// @{

  /// Handler of SetUserUpdatedCallback (platformpp::UserUpdatedCallback).
  using UserUpdatedCallback = platformpp::UserUpdatedCallback;
  /// Result of GetUserGuilds (platformpp::GetUserGuildsCallback).
  using GetUserGuildsCallback = platformpp::GetUserGuildsCallback;
  /// Result of GetGuildChannels (platformpp::GetGuildChannelsCallback).
  using GetGuildChannelsCallback = platformpp::GetGuildChannelsCallback;
  /// @}

  /// The player, once the realtime connection is Ready (empty before the first READY).
  std::optional<UserHandle> GetCurrentUserV2() const;
  /// The player, or an empty handle (Id() 0) before the first READY.
  [[deprecated("use GetCurrentUserV2")]] UserHandle GetCurrentUser() const;
  /// A user the Client knows (the player, relationships, users seen in presences).
  std::optional<UserHandle> GetUser(uint64_t userId) const;
  /// A known user changed (name, avatar, status, activity, relationship).
  void SetUserUpdatedCallback(UserUpdatedCallback callback);
  /// The player's guilds (needs the `guilds` scope: HTTPError 403, code 50001, without it); each with its
  /// banner. ClientNotReady without a token.
  void GetUserGuilds(GetUserGuildsCallback callback);
  /// The channels of a guild the player may see, as the desktop client lists them: channels outside any
  /// category first, then each category followed by its channels; within one, text-like channels before
  /// voice and stage channels, then by position, then id. ValidationError for guild id 0.
  void GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback);
  /// The player's identities in this game outside the platform (from the realtime connection's READY).
  std::vector<UserApplicationProfileHandle> GetUserApplicationProfiles() const;
  /// The same. The platform's SDK offers it for callers that must not take its lock; platformpp never holds
  /// its state lock while running a callback, so both are safe everywhere. Kept for source compatibility.
  std::vector<UserApplicationProfileHandle> GetUserApplicationProfilesNoLock() const;

  // --- Lobbies ---------------------------------------------------------------------------------------------

  // The state (GetLobbyHandle, GetLobbyIds) comes from the realtime connection: READY lists the lobbies of
  // this game the player is in, then LOBBY_* dispatches keep them current. The calls below need a token and
  // SetApplicationId (else ClientNotReady) and end when the platform answered; the new state (and its
  // callbacks) follows over the realtime connection. Rules checked before anything is sent (else
  // ValidationError naming the field): a secret of 1 to 250 characters; metadata of at most 1000 characters
  // in total (keys and values, as Unicode code points) for the lobby and for the member. Lobbies the game's
  // backend created cannot be joined or left from here (HTTPError 403, code 50001).

  /// @name The callback types of lobby.hpp, by the platform SDK's names
  /// @{

  /// Result of CreateOrJoinLobby: the lobby's id (platformpp::CreateOrJoinLobbyCallback).
  using CreateOrJoinLobbyCallback = platformpp::CreateOrJoinLobbyCallback;
  /// Result of LeaveLobby (platformpp::LeaveLobbyCallback).
  using LeaveLobbyCallback = platformpp::LeaveLobbyCallback;
  /// Result of LinkChannelToLobby and UnlinkChannelFromLobby (platformpp::LinkOrUnlinkChannelCallback).
  using LinkOrUnlinkChannelCallback = platformpp::LinkOrUnlinkChannelCallback;
  /// Result of JoinLinkedLobbyGuild: the invite URL (platformpp::JoinLinkedLobbyGuildCallback).
  using JoinLinkedLobbyGuildCallback = platformpp::JoinLinkedLobbyGuildCallback;
  /// JoinLinkedLobbyGuild's notice for a provisional account
  /// (platformpp::ProvisionalUserMergeRequiredCallback).
  using ProvisionalUserMergeRequiredCallback = platformpp::ProvisionalUserMergeRequiredCallback;
  /// Handler of SetLobbyCreatedCallback (platformpp::LobbyCreatedCallback).
  using LobbyCreatedCallback = platformpp::LobbyCreatedCallback;
  /// Handler of SetLobbyUpdatedCallback (platformpp::LobbyUpdatedCallback).
  using LobbyUpdatedCallback = platformpp::LobbyUpdatedCallback;
  /// Handler of SetLobbyDeletedCallback (platformpp::LobbyDeletedCallback).
  using LobbyDeletedCallback = platformpp::LobbyDeletedCallback;
  /// Handler of SetLobbyMemberAddedCallback (platformpp::LobbyMemberAddedCallback).
  using LobbyMemberAddedCallback = platformpp::LobbyMemberAddedCallback;
  /// Handler of SetLobbyMemberUpdatedCallback (platformpp::LobbyMemberUpdatedCallback).
  using LobbyMemberUpdatedCallback = platformpp::LobbyMemberUpdatedCallback;
  /// Handler of SetLobbyMemberRemovedCallback (platformpp::LobbyMemberRemovedCallback).
  using LobbyMemberRemovedCallback = platformpp::LobbyMemberRemovedCallback;
  /// @}

  /// Joins the game's lobby that has `secret`, creating it when there is none (a secret stays tied to its
  /// lobby for 30 days). A lobby holds at most 1000 members.
  void CreateOrJoinLobby(const std::string& secret, CreateOrJoinLobbyCallback callback);
  /// The same, replacing the lobby's metadata and the player's member metadata with these.
  void CreateOrJoinLobbyWithMetadata(const std::string& secret, const Metadata& lobbyMetadata,
                                     const Metadata& memberMetadata, CreateOrJoinLobbyCallback callback);
  /// Removes the player from the lobby (a lobby id of 0 is ValidationError).
  void LeaveLobby(uint64_t lobbyId, LeaveLobbyCallback callback);
  /// The lobby with this id, when the player is in it; empty otherwise.
  std::optional<LobbyHandle> GetLobbyHandle(uint64_t lobbyId) const;
  /// The ids of the lobbies of this game the player is in, in ascending order.
  std::vector<uint64_t> GetLobbyIds() const;
  /// Links a guild text channel to the lobby; the player must be a member with the CanLinkLobby flag and
  /// able to view the channel.
  void LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, LinkOrUnlinkChannelCallback callback);
  /// Removes the link between the lobby and its guild channel (LinkChannelToLobby).
  void UnlinkChannelFromLobby(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback);
  /// Creates a single-use invite (valid one hour) to the guild of the lobby's linked channel for the player
  /// and opens it (SetUrlOpener); the callback gets its URL. A provisional account cannot join a guild:
  /// `provisionalUserMergeRequiredCallback` runs instead and the operation ends as ValidationError.
  void JoinLinkedLobbyGuild(uint64_t lobbyId,
                            ProvisionalUserMergeRequiredCallback provisionalUserMergeRequiredCallback,
                            JoinLinkedLobbyGuildCallback callback);
  /// Sets the handler of lobbies that appear in the Client's state (created or joined).
  void SetLobbyCreatedCallback(LobbyCreatedCallback callback);
  /// Sets the handler of changes of a lobby (metadata, linked channel, call).
  void SetLobbyUpdatedCallback(LobbyUpdatedCallback callback);
  /// Sets the handler of lobbies that leave the Client's state (deleted, or the player left).
  void SetLobbyDeletedCallback(LobbyDeletedCallback callback);
  /// Sets the handler of members joining a lobby the player is in.
  void SetLobbyMemberAddedCallback(LobbyMemberAddedCallback callback);
  /// Sets the handler of changes of a lobby member (metadata, flags, connection).
  void SetLobbyMemberUpdatedCallback(LobbyMemberUpdatedCallback callback);
  /// Sets the handler of members leaving (or removed from) a lobby the player is in.
  void SetLobbyMemberRemovedCallback(LobbyMemberRemovedCallback callback);

  // --- Messages --------------------------------------------------------------------------------------------

  // Lobby messages go to every member of the lobby; direct messages (DMs) to one player, who must be a
  // friend (platform or game), or online in this game too (then the DM is ephemeral: delivered, not kept),
  // or share a guild with the player after earlier DMs; otherwise HTTPError 400 code 50007. Content is 1 to
  // 2000 characters (ValidationError otherwise). Nothing is lost: a message that cannot reach the platform
  // (no connection, lost response, 5xx) is sent again with the same nonce and `enforce_nonce` until the
  // platform answers, so it appears exactly once, and the messages of one Client to one channel arrive in
  // the order they were sent. The callback gets the message's id once the platform has it. A 401 after such
  // a try (the message may be on the platform already) holds the message until UpdateToken gives a new
  // token, then it goes again with the same nonce; without one within the nonce's 5 minutes it ends with
  // the 401.

  /// @name The callback types of message.hpp, by the platform SDK's names
  /// @{

  /// Result of the Send...Message calls: the message's id (platformpp::SendUserMessageCallback).
  using SendUserMessageCallback = platformpp::SendUserMessageCallback;
  /// Result of EditUserMessage (platformpp::EditUserMessageCallback).
  using EditUserMessageCallback = platformpp::EditUserMessageCallback;
  /// Result of DeleteUserMessage (platformpp::DeleteUserMessageCallback).
  using DeleteUserMessageCallback = platformpp::DeleteUserMessageCallback;
  /// Result of the Get...MessagesWithLimit calls, oldest first (platformpp::GetMessagesCallback).
  using GetMessagesCallback = platformpp::GetMessagesCallback;
  /// Result of GetUserMessageSummaries (platformpp::UserMessageSummariesCallback).
  using UserMessageSummariesCallback = platformpp::UserMessageSummariesCallback;
  /// Handler of SetMessageCreatedCallback (platformpp::MessageCreatedCallback).
  using MessageCreatedCallback = platformpp::MessageCreatedCallback;
  /// Handler of SetMessageUpdatedCallback (platformpp::MessageUpdatedCallback).
  using MessageUpdatedCallback = platformpp::MessageUpdatedCallback;
  /// Handler of SetMessageDeletedCallback (platformpp::MessageDeletedCallback).
  using MessageDeletedCallback = platformpp::MessageDeletedCallback;
  /// @}

  /// Sends `content` to every member of the lobby; the callback gets the message's id.
  ///
  /// Content is 1 to 2000 characters; a lobby id of 0 or no token (ClientNotReady) ends the call before
  /// anything is sent. A send the platform does not answer is repeated until it does (see the notes above
  /// this group in client.hpp).
  void SendLobbyMessage(uint64_t lobbyId, const std::string& content, SendUserMessageCallback callback);
  /// SendLobbyMessage with `metadata` attached to the message: at most 1000 characters in total (keys and
  /// values, as Unicode code points), valid UTF-8, else ValidationError.
  void SendLobbyMessageWithMetadata(uint64_t lobbyId, const std::string& content, const Metadata& metadata,
                                    SendUserMessageCallback callback);
  /// Sends `content` as a direct message to `recipientId`; the callback gets the message's id.
  ///
  /// Who can receive a DM, the content rules and the resending are described above this group in
  /// client.hpp; a recipient id of 0 is ValidationError, no token ClientNotReady.
  void SendUserMessage(uint64_t recipientId, const std::string& content, SendUserMessageCallback callback);
  /// SendUserMessage with `metadata` attached, under the same limits as SendLobbyMessageWithMetadata.
  void SendUserMessageWithMetadata(uint64_t recipientId, const std::string& content, const Metadata& metadata,
                                   SendUserMessageCallback callback);
  /// Replaces the text of the player's own DM; its moderation metadata is cleared.
  void EditUserMessage(uint64_t recipientId, uint64_t messageId, const std::string& content,
                       EditUserMessageCallback callback);
  /// Deletes message `messageId` from the DM conversation with `recipientId`.
  void DeleteUserMessage(uint64_t recipientId, uint64_t messageId, DeleteUserMessageCallback callback);
  /// A message the Client knows (received or fetched); empty for an unknown id.
  std::optional<MessageHandle> GetMessageHandle(uint64_t messageId) const;
  /// A DM channel or a lobby the Client knows.
  std::optional<ChannelHandle> GetChannelHandle(uint64_t channelId) const;
  /// Up to `limit` (1 to 200) of the lobby's newest messages from the last 72 hours, oldest first; members
  /// only.
  void GetLobbyMessagesWithLimit(uint64_t lobbyId, int32_t limit, GetMessagesCallback callback);
  /// Up to `limit` (1 to 200) of the newest DMs with `recipientId`, oldest first.
  void GetUserMessagesWithLimit(uint64_t recipientId, int32_t limit, GetMessagesCallback callback);
  /// The last DM with each player the player has a DM conversation with.
  void GetUserMessageSummaries(UserMessageSummariesCallback callback);
  /// Sets the handler of new lobby messages and DMs (GetMessageHandle has them).
  void SetMessageCreatedCallback(MessageCreatedCallback callback);
  /// Sets the handler of edits of messages the Client knows.
  void SetMessageUpdatedCallback(MessageUpdatedCallback callback);
  /// Sets the handler of deleted messages; it gets the message's and the channel's id.
  void SetMessageDeletedCallback(MessageDeletedCallback callback);
  /// Whether the game shows its chat now; the platform uses it to decide where to notify the player.
  void SetShowingChat(bool showingChat);

  // --- Premium: SKUs, entitlements, subscriptions -------------------------------------------------------

  // The application's SKUs and the player's entitlements and subscriptions, loaded with the player's token
  // after every realtime session that was not resumed (and on RefreshPremium), then kept current by the
  // realtime connection. The queries below answer from that store without a request. Callbacks announce
  // changes of the store's copy, once per change: created when an id appears (a purchase, a test
  // entitlement), updated when it changes (consumed, ended: `endsAt` set), deleted when it goes. A
  // subscription's renewal changes the subscription only. The first load after a new player's session fills
  // the store without entitlement or subscription callbacks; SetPremiumLoadedCallback says when it is there.

  /// @name The callback types of premium.hpp, by the platform SDK's names
  /// @{

  /// Handler of SetPremiumLoadedCallback (platformpp::PremiumLoadedCallback).
  using PremiumLoadedCallback = platformpp::PremiumLoadedCallback;
  /// Result of RefreshPremium (platformpp::RefreshPremiumCallback).
  using RefreshPremiumCallback = platformpp::RefreshPremiumCallback;
  /// Handler of the entitlement events (platformpp::EntitlementCallback).
  using EntitlementCallback = platformpp::EntitlementCallback;
  /// Handler of the subscription events (platformpp::SubscriptionCallback).
  using SubscriptionCallback = platformpp::SubscriptionCallback;
  /// Result of StartPurchase: the entitlements it created (platformpp::StartPurchaseCallback).
  using StartPurchaseCallback = platformpp::StartPurchaseCallback;
  /// @}

  /// The application's SKUs, in the platform's order; empty before the first load.
  std::vector<Sku> GetSkus() const;
  /// The application's SKU with this id; empty when the store has no such SKU (or before the first load).
  std::optional<Sku> GetSku(uint64_t skuId) const;
  /// The player's entitlements, ended and consumed ones included (ascending id).
  std::vector<Entitlement> GetEntitlements() const;
  /// The player's subscriptions to this application (ascending id).
  std::vector<Subscription> GetSubscriptions() const;
  /// Whether the player owns `skuId` now: an entitlement for it that is active (Entitlement::ActiveAt) at the
  /// Client's wall clock (ClientOptions::clock; the system clock when unset).
  bool HasSkuEntitlement(uint64_t skuId) const;
  /// Whether a load has filled the store for the current player.
  bool IsPremiumLoaded() const;
  /// Loads SKUs, entitlements and subscriptions again; needs a token and SetApplicationId.
  void RefreshPremium(RefreshPremiumCallback callback);
  /// Opens the desktop client's checkout for `skuId` (RPC START_PURCHASE). On success the callback gets the
  /// entitlements the purchase created, already in the store. The player closing the checkout ends it with
  /// RPCError and ErrorCode() kPurchaseCanceledErrorCode (5005), a failed payment with
  /// kPurchaseFailedErrorCode (5006); no desktop client (or IPC disabled) is ClientNotReady.
  void StartPurchase(uint64_t skuId, StartPurchaseCallback callback);
  /// The end of every load (after a new session, or RefreshPremium), with its result.
  void SetPremiumLoadedCallback(PremiumLoadedCallback callback);
  /// Sets the handler of entitlements that appear in the store (a purchase, a test entitlement).
  void SetEntitlementCreatedCallback(EntitlementCallback callback);
  /// Sets the handler of entitlements that change in the store (consumed, or ended: `endsAt` set).
  void SetEntitlementUpdatedCallback(EntitlementCallback callback);
  /// The entitlement as last known, with `deleted` set.
  void SetEntitlementDeletedCallback(EntitlementCallback callback);
  /// Sets the handler of subscriptions that appear in the store.
  void SetSubscriptionCreatedCallback(SubscriptionCallback callback);
  /// Sets the handler of subscriptions that change in the store (a renewal included).
  void SetSubscriptionUpdatedCallback(SubscriptionCallback callback);

  // --- Voice -----------------------------------------------------------------------------------------------

  // Calls in lobbies the player is a member of. Media goes over UDP to the platform's voice server, Opus at
  // 48 kHz stereo in 20 ms frames, encrypted with AES-256-GCM (when the server offers it) or
  // XChaCha20-Poly1305. Audio runs on its own threads (the device's and the Client's voice thread); every
  // callback below except the two audio callbacks runs inside RunCallbacks. Without a sound device (or with
  // PLATFORMPP_AUDIO=null in the environment) the null device is used: silence in, nothing out, real time.

  /// @name The callback types of call.hpp, by the platform SDK's names
  /// @{

  /// Received audio, on the voice thread, not in RunCallbacks (platformpp::UserAudioReceivedCallback).
  using UserAudioReceivedCallback = platformpp::UserAudioReceivedCallback;
  /// Captured microphone audio, on the voice thread (platformpp::UserAudioCapturedCallback).
  using UserAudioCapturedCallback = platformpp::UserAudioCapturedCallback;
  /// Completion of EndCall (platformpp::EndCallCallback).
  using EndCallCallback = platformpp::EndCallCallback;
  /// Completion of EndCalls (platformpp::EndCallsCallback).
  using EndCallsCallback = platformpp::EndCallsCallback;
  /// Result of GetInputDevices and GetOutputDevices (platformpp::GetAudioDevicesCallback).
  using GetAudioDevicesCallback = platformpp::GetAudioDevicesCallback;
  /// Result of SetInputDevice and SetOutputDevice (platformpp::SetAudioDeviceCallback).
  using SetAudioDeviceCallback = platformpp::SetAudioDeviceCallback;
  /// Handler of SetDeviceChangeCallback (platformpp::DeviceChangeCallback).
  using DeviceChangeCallback = platformpp::DeviceChangeCallback;
  /// Handler of SetNoAudioInputCallback (platformpp::NoAudioInputCallback).
  using NoAudioInputCallback = platformpp::NoAudioInputCallback;
  /// @}

  /// Joins the call of a lobby the player is a member of. Returns a null Call when the player is already in
  /// that call (use GetCall), when the lobby is unknown to the Client, or before the Client is Ready.
  Call StartCall(uint64_t lobbyId);
  /// The same, with the two audio callbacks (either may be empty).
  Call StartCallWithAudioCallbacks(uint64_t lobbyId, UserAudioReceivedCallback receivedCb,
                                   UserAudioCapturedCallback capturedCb);
  /// Leaves the call; `callback` runs (inside RunCallbacks) once the platform was told and the call's audio
  /// callbacks have stopped for good (what they capture may go then), or at once when there is no such call.
  void EndCall(uint64_t channelId, EndCallCallback callback);
  /// Leaves every call; `callback` runs (inside RunCallbacks) once each call has ended as with EndCall, or
  /// at the next RunCallbacks when there is none.
  void EndCalls(EndCallsCallback callback);
  /// The player's call in that lobby, or a null Call.
  Call GetCall(uint64_t channelId);
  /// The player's current calls.
  std::vector<Call> GetCalls();

  /// Lists the microphones; the callback gets them inside RunCallbacks.
  void GetInputDevices(GetAudioDevicesCallback callback);
  /// Lists the speakers and headphones; the callback gets them inside RunCallbacks.
  void GetOutputDevices(GetAudioDevicesCallback callback);
  /// The microphone in use (the system default unless SetInputDevice chose one), inside RunCallbacks; an
  /// empty AudioDevice when it is not in the device list.
  void GetCurrentInputDevice(std::function<void(AudioDevice device)> callback);
  /// The speaker in use (the system default unless SetOutputDevice chose one), inside RunCallbacks; an empty
  /// AudioDevice when it is not in the device list.
  void GetCurrentOutputDevice(std::function<void(AudioDevice device)> callback);
  /// Switches the microphone (or speaker) of every call; an unknown id is ValidationError.
  void SetInputDevice(std::string deviceId, SetAudioDeviceCallback callback);
  /// Switches the speaker of every call; an unknown id is ValidationError.
  void SetOutputDevice(std::string deviceId, SetAudioDeviceCallback callback);
  /// The device lists changed (a headset plugged in or out).
  void SetDeviceChangeCallback(DeviceChangeCallback callback);
  /// Microphone and speaker gain, 0 to 100 (default 100). Clamped.
  void SetInputVolume(float inputVolume);
  /// The microphone gain, 0 to 100 (SetInputVolume).
  float GetInputVolume() const;
  /// Sets the speaker gain, 0 to 100 (default 100); clamped, NaN ignored.
  void SetOutputVolume(float outputVolume);
  /// The speaker gain, 0 to 100 (SetOutputVolume).
  float GetOutputVolume() const;
  /// Mute (or deafen) the player in every call, now and in calls started later.
  void SetSelfMuteAll(bool mute);
  /// Whether SetSelfMuteAll last muted the player.
  bool GetSelfMuteAll() const;
  /// Deafens (or undeafens) the player in every call, now and in calls started later.
  void SetSelfDeafAll(bool deaf);
  /// Whether SetSelfDeafAll last deafened the player.
  bool GetSelfDeafAll() const;
  /// The microphone level (dBFS, -100 to 0, default -100: only digital silence) below which the input counts
  /// as silent once it stays there for 5 s: `callback(false)` then, and `callback(true)` when sound comes
  /// back.
  void SetNoAudioInputThreshold(float dBFSThreshold);
  /// Sets the handler told when the microphone goes silent or sound comes back (SetNoAudioInputThreshold).
  void SetNoAudioInputCallback(NoAudioInputCallback callback);
  /// Echo cancellation, noise suppression and automatic gain control of the microphone (speexdsp), on by
  /// default.
  void SetEchoCancellation(bool on);
  /// Whether echo cancellation is on.
  bool GetEchoCancellation() const;
  /// Turns noise suppression of the microphone on or off (on by default).
  void SetNoiseSuppression(bool on);
  /// Whether noise suppression is on.
  bool GetNoiseSuppression() const;
  /// Turns automatic gain control of the microphone on or off (on by default).
  void SetAutomaticGainControl(bool on);
  /// Whether automatic gain control is on.
  bool GetAutomaticGainControl() const;
  /// Whether the game manages the platform's audio session itself (iOS/Android); on desktop it only
  /// records the choice. Returns whether it was accepted.
  bool SetEngineManagedAudioSession(bool isEngineManaged);
  /// Writes the echo canceller's diagnostics (far end, near end and processed microphone as WAV, plus a
  /// summary) into the voice log directory (SetVoiceLogDir; else the log directory) while on.
  void SetAecDump(bool on);
  /// Voice engine messages to a file in `path` (created if missing). Returns false when it cannot be created.
  bool SetVoiceLogDir(const std::string& path, LoggingSeverity minSeverity);
  /// Voice engine messages (calls, media, devices) at `minSeverity` and above, inside RunCallbacks.
  void AddVoiceLogCallback(LogCallback callback, LoggingSeverity minSeverity);
  /// Scheduling priority hint for one of the Client's threads; only Voice is acted on now.
  ///
  /// For Voice, the thread's nice value becomes `-priority` (clamped to -20 to 19); raising the priority
  /// needs the right to do so (CAP_SYS_NICE on Linux), else it is logged and nothing changes. Client and
  /// Network are accepted and ignored.
  void SetThreadPriority(Thread thread, int32_t priority);

  /// The scopes of the social layer to pass to AuthorizationArgs::SetScopes: "openid sdk.social_layer".
  static std::string GetDefaultCommunicationScopes();
  /// The narrower presence scopes for AuthorizationArgs::SetScopes: "openid sdk.social_layer_presence".
  static std::string GetDefaultPresenceScopes();

  /// The SDK's major version (PLATFORMPP_VERSION_MAJOR).
  static int32_t GetVersionMajor();
  /// The SDK's minor version (PLATFORMPP_VERSION_MINOR).
  static int32_t GetVersionMinor();
  /// The SDK's patch version (PLATFORMPP_VERSION_PATCH).
  static int32_t GetVersionPatch();
  /// The git commit the SDK was built from (12 hex digits), or "unknown" when built outside a git checkout.
  static std::string GetVersionHash();
  /// The status's name ("Ready", ...; see ClientStatusToString).
  static std::string StatusToString(Status status);
  /// The error's name ("ConnectionFailed", ...; see ClientErrorToString).
  static std::string ErrorToString(Error error);
  /// The thread's name ("Voice", ...; see ClientThreadToString).
  static std::string ThreadToString(Thread thread);

  /// False only for a moved-from Client.
  explicit operator bool() const noexcept { return core_ != nullptr; }

 private:
  friend class client::ClientAccess;
  std::shared_ptr<client::ClientCore> core_;
};

}  // namespace platformpp
