/** @file
 * platformpp C ABI, social: users, relationships and guilds.
 *
 * Part of `<platformpp/platformpp_c.h>` (its conventions apply); each part can also be included alone.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_SOCIAL_H
#define PLATFORMPP_PLATFORMPP_C_SOCIAL_H

#include <platformpp/platformpp_c_core.h>
#include <platformpp/platformpp_c_presence.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Users and relationships. Handles and lists are snapshots the caller owns and destroys. */

/** The kind of a relationship with another user; values match the platform's own Social SDK. */
typedef enum platformpp_relationship_type {
  PLATFORMPP_RELATIONSHIP_TYPE_NONE = 0,                /**< no relationship */
  PLATFORMPP_RELATIONSHIP_TYPE_FRIEND = 1,              /**< friends */
  PLATFORMPP_RELATIONSHIP_TYPE_BLOCKED = 2,             /**< the player blocked the user */
  PLATFORMPP_RELATIONSHIP_TYPE_PENDING_INCOMING = 3,    /**< a friend request the user sent the player */
  PLATFORMPP_RELATIONSHIP_TYPE_PENDING_OUTGOING = 4,    /**< a friend request the player sent the user */
  PLATFORMPP_RELATIONSHIP_TYPE_IMPLICIT = 5,            /**< the platform's implicit relationship */
  PLATFORMPP_RELATIONSHIP_TYPE_SUGGESTION = 6,          /**< the platform's friend suggestion */
  PLATFORMPP_RELATIONSHIP_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_relationship_type;

/** How the friends list groups friends (platformpp_client_get_relationships_by_group). */
typedef enum platformpp_relationship_group_type {
  PLATFORMPP_RELATIONSHIP_GROUP_TYPE_ONLINE_PLAYING_GAME = 0, /**< online, with an activity of this game */
  PLATFORMPP_RELATIONSHIP_GROUP_TYPE_ONLINE_ELSEWHERE = 1,    /**< online otherwise */
  PLATFORMPP_RELATIONSHIP_GROUP_TYPE_OFFLINE = 2,             /**< the rest (invisible friends included) */
  PLATFORMPP_RELATIONSHIP_GROUP_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_relationship_group_type;

/** Image formats of avatar URLs (platformpp_user_handle_avatar_url). */
typedef enum platformpp_avatar_type {
  PLATFORMPP_AVATAR_TYPE_GIF = 0,                 /**< .gif */
  PLATFORMPP_AVATAR_TYPE_WEBP = 1,                /**< .webp */
  PLATFORMPP_AVATAR_TYPE_PNG = 2,                 /**< .png */
  PLATFORMPP_AVATAR_TYPE_JPEG = 3,                /**< .jpg */
  PLATFORMPP_AVATAR_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_avatar_type;

/** A snapshot of a user: it does not change when the user does. Every getter accepts NULL; strings are owned
 * by the handle. */
typedef struct platformpp_user_handle platformpp_user_handle;
/** The player, once the realtime connection is ready; NULL before. Destroy it.
 * @param client The client; NULL: NULL.
 * @return A new handle, owned by the caller: release it with platformpp_user_handle_destroy. NULL before the
 * connection was first ready, for a NULL client or on failure. */
PLATFORMPP_C_API platformpp_user_handle* platformpp_client_get_current_user(const platformpp_client* client);
/** A user the client knows; NULL otherwise. Destroy it.
 * Known are the player, the users of relationships and users seen in presences.
 * @param client The client; NULL: NULL.
 * @param user_id The user.
 * @return A new handle, owned by the caller: release it with platformpp_user_handle_destroy. NULL when the
 * user is unknown, for a NULL client or on failure. */
PLATFORMPP_C_API platformpp_user_handle* platformpp_client_get_user(const platformpp_client* client,
                                                                    uint64_t user_id);
/** A copy of a handle (also of a borrowed one, to keep it).
 * @param user The handle; NULL: NULL.
 * @return A new handle, owned by the caller: release it with platformpp_user_handle_destroy. NULL for NULL
 * or when out of memory. */
PLATFORMPP_C_API platformpp_user_handle* platformpp_user_handle_clone(const platformpp_user_handle* user);
/** Releases a handle the caller owns (never a borrowed one); its strings go with it.
 * @param user The handle; NULL is ignored. */
PLATFORMPP_C_API void platformpp_user_handle_destroy(platformpp_user_handle* user);
/** The user's id.
 * @param user The handle; NULL: 0.
 * @return The user id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_user_handle_id(const platformpp_user_handle* user);
/** The user's username.
 * @param user The handle; NULL: "".
 * @param size Receives the length in bytes; may be NULL.
 * @return The username, NUL-terminated; owned by the handle, valid until it is destroyed. */
PLATFORMPP_C_API const char* platformpp_user_handle_username(const platformpp_user_handle* user,
                                                             size_t* size);
/** The name to show: the global display name when set, else the username.
 * @param user The handle; NULL: "".
 * @param size Receives the length in bytes; may be NULL.
 * @return The display name, NUL-terminated; owned by the handle, valid until it is destroyed. */
PLATFORMPP_C_API const char* platformpp_user_handle_display_name(const platformpp_user_handle* user,
                                                                 size_t* size);
/** The avatar's hash. NULL when the user has no avatar.
 * @param user The handle; NULL: NULL.
 * @param size Receives the length in bytes (0 without an avatar); may be NULL.
 * @return The avatar hash, NUL-terminated, or NULL; owned by the handle, valid until it is destroyed. */
PLATFORMPP_C_API const char* platformpp_user_handle_avatar(const platformpp_user_handle* user, size_t* size);
/** The avatar's CDN URL (or the default avatar's). Owned by the handle, valid until the next call on it. ""
 * when out of memory.
 * @param user The handle; NULL: "".
 * @param animated_type The format for an animated avatar.
 * @param static_type The format for any other avatar.
 * @param size Receives the length in bytes; may be NULL.
 * @return The URL, NUL-terminated; owned by the handle, valid until the next avatar_url call on it or until
 * it is destroyed. */
PLATFORMPP_C_API const char* platformpp_user_handle_avatar_url(const platformpp_user_handle* user,
                                                               platformpp_avatar_type animated_type,
                                                               platformpp_avatar_type static_type,
                                                               size_t* size);
/** The online status as the player may see it (OFFLINE for invisible friends and users without a presence).
 * @param user The handle; NULL: PLATFORMPP_STATUS_TYPE_UNKNOWN.
 * @return The status. */
PLATFORMPP_C_API platformpp_status_type platformpp_user_handle_status(const platformpp_user_handle* user);
/** The user's activity in this game, or NULL. Destroy it.
 * This game is the application of platformpp_client_set_application_id.
 * @param user The handle; NULL: NULL.
 * @return A new activity, owned by the caller: release it with platformpp_activity_destroy. NULL when the
 * user is not playing this game, for NULL, or when out of memory. */
PLATFORMPP_C_API platformpp_activity* platformpp_user_handle_game_activity(
    const platformpp_user_handle* user);
/** Whether the user's account is a provisional account.
 * @param user The handle; NULL: 0.
 * @return Non-zero for a provisional account; 0 otherwise or for NULL. */
PLATFORMPP_C_API int32_t platformpp_user_handle_is_provisional(const platformpp_user_handle* user);
/** The guild tag (1 to 4 characters), or NULL.
 * It is shown beside the display name.
 * @param user The handle; NULL: NULL.
 * @param size Receives the length in bytes (0 without a tag); may be NULL.
 * @return The tag, NUL-terminated, or NULL; owned by the handle, valid until it is destroyed. */
PLATFORMPP_C_API const char* platformpp_user_handle_primary_guild_tag(const platformpp_user_handle* user,
                                                                      size_t* size);
/** The platform's premium_type of the user.
 * @param user The handle; NULL: 0.
 * @return The premium type; 0 unless the application is approved for identify.premium, and for NULL. */
PLATFORMPP_C_API int32_t platformpp_user_handle_premium_type(const platformpp_user_handle* user);
/** The player's relationship with the user: the platform one, else the game one.
 * @param user The handle; NULL: PLATFORMPP_RELATIONSHIP_TYPE_NONE.
 * @return The relationship type; NONE for the player. */
PLATFORMPP_C_API platformpp_relationship_type
platformpp_user_handle_relationship(const platformpp_user_handle* user);

/** A snapshot of the player's relationship with one other user: on the platform (across games) and in this
 * game only. Every getter accepts NULL. */
typedef struct platformpp_relationship_handle platformpp_relationship_handle;
/** A snapshot list of relationships; release it with platformpp_relationship_list_destroy. */
typedef struct platformpp_relationship_list platformpp_relationship_list;
/** A snapshot list of users; release it with platformpp_user_list_destroy. */
typedef struct platformpp_user_list platformpp_user_list;
/** The relationship with a user; both types NONE when there is none.
 * @param client The client; NULL: NULL.
 * @param user_id The other user.
 * @return A new handle, owned by the caller: release it with platformpp_relationship_handle_destroy. NULL
 * for a NULL client or on failure. */
PLATFORMPP_C_API platformpp_relationship_handle* platformpp_client_get_relationship_handle(
    const platformpp_client* client, uint64_t user_id);
/** Releases a handle of platformpp_client_get_relationship_handle (never one borrowed from a list); the user
 * and strings it handed out go with it.
 * @param relationship The handle; NULL is ignored. */
PLATFORMPP_C_API void platformpp_relationship_handle_destroy(platformpp_relationship_handle* relationship);
/** The other user's id.
 * @param relationship The handle; NULL: 0.
 * @return The user id. */
PLATFORMPP_C_API uint64_t
platformpp_relationship_handle_id(const platformpp_relationship_handle* relationship);
/** The relationship on the platform (across games).
 * @param relationship The handle; NULL: PLATFORMPP_RELATIONSHIP_TYPE_NONE.
 * @return The platform relationship type. */
PLATFORMPP_C_API platformpp_relationship_type
platformpp_relationship_handle_discord_type(const platformpp_relationship_handle* relationship);
/** The relationship in this game only (game friends).
 * @param relationship The handle; NULL: PLATFORMPP_RELATIONSHIP_TYPE_NONE.
 * @return The game relationship type. */
PLATFORMPP_C_API platformpp_relationship_type
platformpp_relationship_handle_game_type(const platformpp_relationship_handle* relationship);
/** Whether the platform flagged an incoming request as likely spam; games should not surface it prominently.
 * @param relationship The handle; NULL: 0.
 * @return Non-zero for a likely spam request. */
PLATFORMPP_C_API int32_t
platformpp_relationship_handle_is_spam_request(const platformpp_relationship_handle* relationship);
/** The user, borrowed from the relationship handle; NULL when unknown.
 * @param relationship The handle; NULL: NULL.
 * @return The user, owned by the relationship handle and valid as long as it (never destroy it; clone it to
 * keep it); NULL when the client does not know the user. */
PLATFORMPP_C_API const platformpp_user_handle* platformpp_relationship_handle_user(
    const platformpp_relationship_handle* relationship);
/** Everyone the player has a relationship with (friends, requests, blocks; platform and game).
 * Never NULL for a non-NULL client (possibly empty), unless out of memory. Destroy it.
 * @param client The client; NULL: NULL.
 * @return A new list, owned by the caller: release it with platformpp_relationship_list_destroy. */
PLATFORMPP_C_API platformpp_relationship_list* platformpp_client_get_relationships(
    const platformpp_client* client);
/** The friends (platform or game) in one group. Sorted as the desktop client sorts: by display name, then
 * id.
 * @param client The client; NULL: NULL.
 * @param group The group.
 * @return A new list, owned by the caller: release it with platformpp_relationship_list_destroy. NULL for a
 * NULL client or on failure. */
PLATFORMPP_C_API platformpp_relationship_list* platformpp_client_get_relationships_by_group(
    const platformpp_client* client, platformpp_relationship_group_type group);
/** The number of relationships in a list.
 * @param list The list; NULL: 0.
 * @return The size. */
PLATFORMPP_C_API size_t platformpp_relationship_list_size(const platformpp_relationship_list* list);
/** One relationship of a list. Borrowed from the list; NULL out of range.
 * @param list The list; NULL: NULL.
 * @param index From 0 to platformpp_relationship_list_size - 1.
 * @return The relationship, owned by the list and valid as long as it (never destroy it); NULL out of
 * range. */
PLATFORMPP_C_API const platformpp_relationship_handle* platformpp_relationship_list_at(
    const platformpp_relationship_list* list, size_t index);
/** Releases a list and every handle borrowed from it.
 * @param list The list; NULL is ignored. */
PLATFORMPP_C_API void platformpp_relationship_list_destroy(platformpp_relationship_list* list);
/** Friends whose username or display name starts with search (case-insensitive), sorted by display name,
 * then id.
 * @param client The client; NULL: NULL.
 * @param search The prefix; borrowed for the call.
 * @param search_size Its length in bytes.
 * @return A new list, owned by the caller: release it with platformpp_user_list_destroy. NULL for a NULL
 * client or on failure. */
PLATFORMPP_C_API platformpp_user_list* platformpp_client_search_friends_by_username(
    const platformpp_client* client, const char* search, size_t search_size);
/** The number of users in a list.
 * @param list The list; NULL: 0.
 * @return The size. */
PLATFORMPP_C_API size_t platformpp_user_list_size(const platformpp_user_list* list);
/** One user of a list.
 * @param list The list; NULL: NULL.
 * @param index From 0 to platformpp_user_list_size - 1.
 * @return The user, owned by the list and valid as long as it (never destroy it); NULL out of range. */
PLATFORMPP_C_API const platformpp_user_handle* platformpp_user_list_at(const platformpp_user_list* list,
                                                                       size_t index);
/** Releases a list and every handle borrowed from it.
 * @param list The list; NULL is ignored. */
PLATFORMPP_C_API void platformpp_user_list_destroy(platformpp_user_list* list);

/** Sends a platform friend request by username. Friend requests and blocks; each completes with its result.
 * An empty username: VALIDATION_ERROR; no token: CLIENT_NOT_READY; the platform's refusals: HTTP_ERROR with
 * its code (80004 no such username, 80000 not allowed, 80007 already friends).
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param username The user's username; borrowed for the call.
 * @param username_size Its length in bytes.
 * @param callback Runs once with the result, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_send_discord_friend_request(
    platformpp_client* client, const char* username, size_t username_size, platformpp_result_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
/** Sends a game friend request by username; fails as platformpp_client_send_discord_friend_request.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param username The user's username; borrowed for the call.
 * @param username_size Its length in bytes.
 * @param callback Runs once with the result, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_send_game_friend_request(platformpp_client* client,
                                                                 const char* username, size_t username_size,
                                                                 platformpp_result_fn callback,
                                                                 void* user_data,
                                                                 platformpp_user_data_free_fn user_data_free);
/** What platformpp_client_relationship_action does to the relationship with user_id. */
typedef enum platformpp_relationship_action {
  PLATFORMPP_RELATIONSHIP_ACTION_SEND_DISCORD_FRIEND_REQUEST = 0,   /**< send a platform friend request */
  PLATFORMPP_RELATIONSHIP_ACTION_SEND_GAME_FRIEND_REQUEST = 1,      /**< send a game friend request */
  PLATFORMPP_RELATIONSHIP_ACTION_ACCEPT_DISCORD_FRIEND_REQUEST = 2, /**< accept a platform friend request */
  PLATFORMPP_RELATIONSHIP_ACTION_ACCEPT_GAME_FRIEND_REQUEST = 3,    /**< accept a game friend request */
  PLATFORMPP_RELATIONSHIP_ACTION_REJECT_DISCORD_FRIEND_REQUEST = 4, /**< reject a platform friend request */
  PLATFORMPP_RELATIONSHIP_ACTION_REJECT_GAME_FRIEND_REQUEST = 5,    /**< reject a game friend request */
  PLATFORMPP_RELATIONSHIP_ACTION_CANCEL_DISCORD_FRIEND_REQUEST = 6, /**< cancel a sent platform request */
  PLATFORMPP_RELATIONSHIP_ACTION_CANCEL_GAME_FRIEND_REQUEST = 7,    /**< cancel a sent game request */
  /** remove the platform and the game friendship; succeeds when at least one was there */
  PLATFORMPP_RELATIONSHIP_ACTION_REMOVE_DISCORD_AND_GAME_FRIEND = 8,
  PLATFORMPP_RELATIONSHIP_ACTION_REMOVE_GAME_FRIEND = 9,  /**< remove the game friendship */
  PLATFORMPP_RELATIONSHIP_ACTION_BLOCK_USER = 10,         /**< block the user */
  PLATFORMPP_RELATIONSHIP_ACTION_UNBLOCK_USER = 11,       /**< unblock the user */
  PLATFORMPP_RELATIONSHIP_ACTION_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_relationship_action;
/** One entry point for the id-based relationship calls (SendDiscordFriendRequestById, Accept..., Block...).
 * An unknown action: VALIDATION_ERROR. A user id of 0 or of the player: VALIDATION_ERROR; no token:
 * CLIENT_NOT_READY; the platform's refusals: HTTP_ERROR with its code (10013 unknown user, 10070 no such
 * relationship). The new state follows over the realtime connection, with the relationship callbacks.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param action What to do.
 * @param user_id The other user.
 * @param callback Runs once with the result, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_relationship_action(platformpp_client* client,
                                                            platformpp_relationship_action action,
                                                            uint64_t user_id, platformpp_result_fn callback,
                                                            void* user_data,
                                                            platformpp_user_data_free_fn user_data_free);
/** A relationship appeared, changed type or went away, inside platformpp_client_run_callbacks.
 * @param user_id The other user.
 * @param is_discord_relationship_update Non-zero for the platform relationship, 0 for the game one.
 * @param user_data The registration's user_data. */
typedef void (*platformpp_relationship_changed_fn)(uint64_t user_id, int32_t is_discord_relationship_update,
                                                   void* user_data);
/** An event about one user, inside platformpp_client_run_callbacks.
 * @param user_id The user.
 * @param user_data The registration's user_data. */
typedef void (*platformpp_user_id_fn)(uint64_t user_id, void* user_data);
/** A relationship appeared or changed type (a request accepted, a block). Replaces any earlier callback
 * (whose user_data_free runs then, or when the client is destroyed).
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Runs for each event, inside platformpp_client_run_callbacks; NULL removes it (and
 * user_data is freed at once).
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the callback is replaced or removed, or when the client is
 * destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_relationship_created_callback(
    platformpp_client* client, platformpp_relationship_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A relationship went away. Replaces any earlier callback (whose user_data_free runs then, or when the
 * client is destroyed).
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Runs for each event, inside platformpp_client_run_callbacks; NULL removes it (and
 * user_data is freed at once).
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the callback is replaced or removed, or when the client is
 * destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_relationship_deleted_callback(
    platformpp_client* client, platformpp_relationship_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A user moved between (or into, out of, within) the groups of platformpp_client_get_relationships_by_group.
 * Replaces any earlier callback (whose user_data_free runs then, or when the client is destroyed).
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Runs for each event, inside platformpp_client_run_callbacks; NULL removes it (and
 * user_data is freed at once).
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the callback is replaced or removed, or when the client is
 * destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_relationship_groups_updated_callback(
    platformpp_client* client, platformpp_user_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A known user changed (name, avatar, status, activity, relationship). Replaces any earlier callback (whose
 * user_data_free runs then, or when the client is destroyed).
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Runs for each event, inside platformpp_client_run_callbacks; NULL removes it (and
 * user_data is freed at once).
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the callback is replaced or removed, or when the client is
 * destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_user_updated_callback(
    platformpp_client* client, platformpp_user_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);

/* Guilds. The arrays are borrowed for the callback. */
/** A guild of the player (platformpp_user_guilds_fn); its strings are NUL-terminated and borrowed for the
 * callback. */
typedef struct platformpp_guild_minimal {
  uint64_t id;        /**< the guild's id */
  const char* name;   /**< its name */
  size_t name_size;   /**< the name's length in bytes */
  const char* banner; /**< "" when none */
  size_t banner_size; /**< the banner hash's length in bytes */
} platformpp_guild_minimal;

/** A channel of a guild (platformpp_guild_channels_fn); its name is NUL-terminated and borrowed for the
 * callback. */
typedef struct platformpp_guild_channel {
  uint64_t id;                 /**< the channel's id */
  const char* name;            /**< its name */
  size_t name_size;            /**< the name's length in bytes */
  int32_t type;                /**< the platform's channel type: 0 text, 2 voice, 4 category, ... */
  int32_t position;            /**< its position */
  uint64_t parent_category_id; /**< 0 when the channel is in no category */
  /** A voice or stage channel's status, NUL-terminated; NULL when it has none or it could not be read (see
   * GuildChannel::VoiceStatus). */
  const char* voice_status;
  size_t voice_status_size; /**< the status's length in bytes (0 for NULL) */
} platformpp_guild_channel;

/** Completion of platformpp_client_get_user_guilds, inside platformpp_client_run_callbacks.
 * @param result The outcome; borrowed until the callback returns.
 * @param guilds The guilds, borrowed until the callback returns (strings included): copy what you keep. NULL
 * with count 0 on failure.
 * @param count How many.
 * @param user_data The call's user_data. */
typedef void (*platformpp_user_guilds_fn)(const platformpp_client_result* result,
                                          const platformpp_guild_minimal* guilds, size_t count,
                                          void* user_data);
/** Completion of platformpp_client_get_guild_channels, inside platformpp_client_run_callbacks.
 * @param result The outcome; borrowed until the callback returns.
 * @param channels The channels, borrowed until the callback returns (strings included): copy what you keep.
 * NULL with count 0 on failure.
 * @param count How many.
 * @param user_data The call's user_data. */
typedef void (*platformpp_guild_channels_fn)(const platformpp_client_result* result,
                                             const platformpp_guild_channel* channels, size_t count,
                                             void* user_data);
/** The player's guilds, each with its banner. Needs the guilds scope (HTTP_ERROR 403, code 50001, without
 * it); CLIENT_NOT_READY without a token.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param callback Runs once with the guilds, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_get_user_guilds(platformpp_client* client,
                                                        platformpp_user_guilds_fn callback, void* user_data,
                                                        platformpp_user_data_free_fn user_data_free);
/** The channels of a guild the player may see. Sorted by position as the desktop client shows them.
 * VALIDATION_ERROR for guild id 0.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param guild_id The guild.
 * @param callback Runs once with the channels, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_get_guild_channels(platformpp_client* client, uint64_t guild_id,
                                                           platformpp_guild_channels_fn callback,
                                                           void* user_data,
                                                           platformpp_user_data_free_fn user_data_free);

/** The player's identities in this game outside the platform. Strings are borrowed from the list. */
typedef struct platformpp_user_application_profile {
  const char* avatar_hash;             /**< the avatar's hash */
  size_t avatar_hash_size;             /**< its length in bytes */
  const char* metadata;                /**< the profile's metadata */
  size_t metadata_size;                /**< its length in bytes */
  const char* provider_id;             /**< NULL when none */
  size_t provider_id_size;             /**< its length in bytes (0 when none) */
  const char* provider_issued_user_id; /**< the user id the provider issued */
  size_t provider_issued_user_id_size; /**< its length in bytes */
  const char* provider_type;           /**< the external auth type's wire name, e.g. "OIDC" */
  size_t provider_type_size;           /**< its length in bytes */
  const char* username;                /**< the username with the provider */
  size_t username_size;                /**< its length in bytes */
} platformpp_user_application_profile;
/** A snapshot list of the player's profiles; release it with
 * platformpp_user_application_profile_list_destroy. */
typedef struct platformpp_user_application_profile_list platformpp_user_application_profile_list;
/** The player's identities in this game outside the platform (from the realtime connection's READY).
 * @param client The client; NULL: NULL.
 * @return A new list, owned by the caller: release it with platformpp_user_application_profile_list_destroy.
 * NULL for a NULL client or on failure. */
PLATFORMPP_C_API platformpp_user_application_profile_list* platformpp_client_get_user_application_profiles(
    const platformpp_client* client);
/** The number of profiles in a list.
 * @param list The list; NULL: 0.
 * @return The size. */
PLATFORMPP_C_API size_t
platformpp_user_application_profile_list_size(const platformpp_user_application_profile_list* list);
/** One profile of a list.
 * @param list The list; NULL: NULL.
 * @param index From 0 to platformpp_user_application_profile_list_size - 1.
 * @return The profile and its strings, owned by the list and valid as long as it; NULL out of range. */
PLATFORMPP_C_API const platformpp_user_application_profile* platformpp_user_application_profile_list_at(
    const platformpp_user_application_profile_list* list, size_t index);
/** Releases a list and every profile and string borrowed from it.
 * @param list The list; NULL is ignored. */
PLATFORMPP_C_API void platformpp_user_application_profile_list_destroy(
    platformpp_user_application_profile_list* list);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_SOCIAL_H */
