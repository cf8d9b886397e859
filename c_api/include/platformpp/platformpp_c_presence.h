/** @file
 * platformpp C ABI, presence: rich presence, activities and activity invites.
 *
 * Part of `<platformpp/platformpp_c.h>` (its conventions apply); each part can also be included alone.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_PRESENCE_H
#define PLATFORMPP_PLATFORMPP_C_PRESENCE_H

#include <platformpp/platformpp_c_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rich presence and activity invites.
 * Getters of the handles below return strings owned by the handle (valid until it is destroyed); *size (if
 * not NULL) receives the length. An optional string that is unset reads as NULL with size 0. */

/** What an activity shows the player doing; values match the platform's own Social SDK.
 * platformpp_client_update_rich_presence accepts PLAYING, LISTENING, WATCHING and COMPETING. */
typedef enum platformpp_activity_type {
  PLATFORMPP_ACTIVITY_TYPE_PLAYING = 0,             /**< playing (the default) */
  PLATFORMPP_ACTIVITY_TYPE_STREAMING = 1,           /**< streaming */
  PLATFORMPP_ACTIVITY_TYPE_LISTENING = 2,           /**< listening */
  PLATFORMPP_ACTIVITY_TYPE_WATCHING = 3,            /**< watching */
  PLATFORMPP_ACTIVITY_TYPE_CUSTOM_STATUS = 4,       /**< a custom status */
  PLATFORMPP_ACTIVITY_TYPE_COMPETING = 5,           /**< competing */
  PLATFORMPP_ACTIVITY_TYPE_HANG_STATUS = 6,         /**< a hang status */
  PLATFORMPP_ACTIVITY_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_activity_type;

/** Which field the member list shows as the status text. */
typedef enum platformpp_status_display_type {
  PLATFORMPP_STATUS_DISPLAY_TYPE_UNSET = -1,              /**< no choice (the default) */
  PLATFORMPP_STATUS_DISPLAY_TYPE_NAME = 0,                /**< the name */
  PLATFORMPP_STATUS_DISPLAY_TYPE_STATE = 1,               /**< the state */
  PLATFORMPP_STATUS_DISPLAY_TYPE_DETAILS = 2,             /**< the details */
  PLATFORMPP_STATUS_DISPLAY_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_status_display_type;

/** What an activity invite asks for; values match the platform's own Social SDK. */
typedef enum platformpp_activity_action_type {
  PLATFORMPP_ACTIVITY_ACTION_TYPE_INVALID = 0,             /**< none (also for a NULL invite) */
  PLATFORMPP_ACTIVITY_ACTION_TYPE_JOIN = 1,                /**< an invite to join the sender */
  PLATFORMPP_ACTIVITY_ACTION_TYPE_JOIN_REQUEST = 5,        /**< a request to be invited by the player */
  PLATFORMPP_ACTIVITY_ACTION_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_activity_action_type;

/** The privacy of an activity's party (platformpp_activity_set_party). */
typedef enum platformpp_activity_party_privacy {
  PLATFORMPP_ACTIVITY_PARTY_PRIVACY_PRIVATE = 0,             /**< private */
  PLATFORMPP_ACTIVITY_PARTY_PRIVACY_PUBLIC = 1,              /**< public */
  PLATFORMPP_ACTIVITY_PARTY_PRIVACY_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_activity_party_privacy;

/** The online status as friends see it; values match the platform's own Social SDK. */
typedef enum platformpp_status_type {
  PLATFORMPP_STATUS_TYPE_ONLINE = 0,              /**< online */
  PLATFORMPP_STATUS_TYPE_OFFLINE = 1,             /**< offline (also invisible friends) */
  PLATFORMPP_STATUS_TYPE_BLOCKED = 2,             /**< blocked */
  PLATFORMPP_STATUS_TYPE_IDLE = 3,                /**< idle */
  PLATFORMPP_STATUS_TYPE_DND = 4,                 /**< do not disturb */
  PLATFORMPP_STATUS_TYPE_INVISIBLE = 5,           /**< invisible */
  PLATFORMPP_STATUS_TYPE_STREAMING = 6,           /**< streaming */
  PLATFORMPP_STATUS_TYPE_UNKNOWN = 7,             /**< unknown (also for a NULL user handle) */
  PLATFORMPP_STATUS_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_status_type;

/** An activity: what the player is doing, for platformpp_client_update_rich_presence. A setter that fails
 * (out of memory) leaves the field as it was and marks the activity (clones included), which
 * platformpp_client_update_rich_presence then refuses with VALIDATION_ERROR naming the setter. It belongs
 * to no client. Every setter and getter accepts NULL (setters then do nothing). */
typedef struct platformpp_activity platformpp_activity;
/** A new, empty activity (type PLAYING, nothing set).
 * @return A new activity, owned by the caller: release it with platformpp_activity_destroy. NULL when out
 * of memory. */
PLATFORMPP_C_API platformpp_activity* platformpp_activity_create(void);
/** A copy of an activity, with its failure mark if it has one.
 * @param activity The activity to copy; NULL: returns NULL.
 * @return A new activity, owned by the caller: release it with platformpp_activity_destroy. NULL for a NULL
 * activity or when out of memory. */
PLATFORMPP_C_API platformpp_activity* platformpp_activity_clone(const platformpp_activity* activity);
/** Releases an activity; the strings its getters handed out go with it.
 * @param activity The activity; NULL is ignored. */
PLATFORMPP_C_API void platformpp_activity_destroy(platformpp_activity* activity);
/** Sets the name (at most 128 characters).
 * @param activity The activity; NULL is ignored.
 * @param name The name; copied (NULL with size 0: "").
 * @param name_size Its length in bytes. */
PLATFORMPP_C_API void platformpp_activity_set_name(platformpp_activity* activity, const char* name,
                                                   size_t name_size);
/** Sets the type (default PLATFORMPP_ACTIVITY_TYPE_PLAYING).
 * @param activity The activity; NULL is ignored.
 * @param type The type. */
PLATFORMPP_C_API void platformpp_activity_set_type(platformpp_activity* activity,
                                                   platformpp_activity_type type);
/** Chooses which field the member list shows as the status text; that field must then be set.
 * @param activity The activity; NULL is ignored.
 * @param type The field; PLATFORMPP_STATUS_DISPLAY_TYPE_UNSET unsets the choice. */
PLATFORMPP_C_API void platformpp_activity_set_status_display_type(platformpp_activity* activity,
                                                                  platformpp_status_display_type type);
/* Optional strings: a NULL pointer unsets the field. */
/** Sets the state (2 to 128 characters when set).
 * @param activity The activity; NULL is ignored.
 * @param state The state; copied. NULL unsets it.
 * @param state_size Its length in bytes. */
PLATFORMPP_C_API void platformpp_activity_set_state(platformpp_activity* activity, const char* state,
                                                    size_t state_size);
/** Sets the link of the state (an http(s) URL of at most 256 characters).
 * @param activity The activity; NULL is ignored.
 * @param url The URL; copied. NULL unsets it.
 * @param url_size Its length in bytes. */
PLATFORMPP_C_API void platformpp_activity_set_state_url(platformpp_activity* activity, const char* url,
                                                        size_t url_size);
/** Sets the details (2 to 128 characters when set).
 * @param activity The activity; NULL is ignored.
 * @param details The details; copied. NULL unsets them.
 * @param details_size Their length in bytes. */
PLATFORMPP_C_API void platformpp_activity_set_details(platformpp_activity* activity, const char* details,
                                                      size_t details_size);
/** Sets the link of the details (an http(s) URL of at most 256 characters).
 * @param activity The activity; NULL is ignored.
 * @param url The URL; copied. NULL unsets it.
 * @param url_size Its length in bytes. */
PLATFORMPP_C_API void platformpp_activity_set_details_url(platformpp_activity* activity, const char* url,
                                                          size_t url_size);
/** Sets the application the activity belongs to; 0 unsets it.
 * @param activity The activity; NULL is ignored.
 * @param application_id The application id; 0 unsets it. */
PLATFORMPP_C_API void platformpp_activity_set_application_id(platformpp_activity* activity,
                                                             uint64_t application_id);
/** Which asset: the large and small images, their hover texts and links, and the cover image of invites. */
typedef enum platformpp_activity_asset {
  PLATFORMPP_ACTIVITY_ASSET_LARGE_IMAGE = 0,         /**< the large image, at most 256 characters */
  PLATFORMPP_ACTIVITY_ASSET_LARGE_TEXT = 1,          /**< its hover text, at most 128 characters */
  PLATFORMPP_ACTIVITY_ASSET_LARGE_URL = 2,           /**< its link, an http(s) URL */
  PLATFORMPP_ACTIVITY_ASSET_SMALL_IMAGE = 3,         /**< the small image, at most 256 characters */
  PLATFORMPP_ACTIVITY_ASSET_SMALL_TEXT = 4,          /**< its hover text, at most 128 characters */
  PLATFORMPP_ACTIVITY_ASSET_SMALL_URL = 5,           /**< its link, an http(s) URL */
  PLATFORMPP_ACTIVITY_ASSET_INVITE_COVER_IMAGE = 6,  /**< the image of invites: an https URL or asset key */
  PLATFORMPP_ACTIVITY_ASSET_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_activity_asset;
/** Sets one asset of the activity. NULL value: unset. Unknown asset: ignored.
 * @param activity The activity; NULL is ignored.
 * @param asset Which asset to set.
 * @param value The value; copied. NULL unsets the asset.
 * @param value_size Its length in bytes. */
PLATFORMPP_C_API void platformpp_activity_set_asset(platformpp_activity* activity,
                                                    platformpp_activity_asset asset, const char* value,
                                                    size_t value_size);
/** Sets when the activity started and ends. Unix milliseconds; 0 for none. Both 0: no timestamps.
 * @param activity The activity; NULL is ignored.
 * @param start_ms When the activity started, in Unix milliseconds; 0 for none.
 * @param end_ms When it ends, in Unix milliseconds; 0 for none. */
PLATFORMPP_C_API void platformpp_activity_set_timestamps(platformpp_activity* activity, uint64_t start_ms,
                                                         uint64_t end_ms);
/** Sets the party the player is in; a NULL id removes the party.
 * A joinable activity needs a party with room (current_size below max_size) and a join secret.
 * @param activity The activity; NULL is ignored.
 * @param id The party id (2 to 128 characters when not empty); copied. NULL removes the party (the other
 * arguments are then ignored).
 * @param id_size Its length in bytes.
 * @param current_size How many players are in the party (0 to max_size).
 * @param max_size How many fit.
 * @param privacy The party's privacy. */
PLATFORMPP_C_API void platformpp_activity_set_party(platformpp_activity* activity, const char* id,
                                                    size_t id_size, int32_t current_size, int32_t max_size,
                                                    platformpp_activity_party_privacy privacy);
/** Sets the join secret; a NULL secret removes it.
 * The join secret is handed to a friend who joins (platformpp_activity_join_fn,
 * platformpp_client_accept_activity_invite).
 * @param activity The activity; NULL is ignored.
 * @param secret The secret (2 to 128 characters when not empty); copied. NULL removes it.
 * @param secret_size Its length in bytes. */
PLATFORMPP_C_API void platformpp_activity_set_join_secret(platformpp_activity* activity, const char* secret,
                                                          size_t secret_size);
/** Sets the platforms the activity can be joined from.
 * Bits of the platform's ActivityGamePlatforms (Desktop 1, Xbox 2, ... PS5 128).
 * @param activity The activity; NULL is ignored.
 * @param platforms A non-empty set of bits (default: Desktop). */
PLATFORMPP_C_API void platformpp_activity_set_supported_platforms(platformpp_activity* activity,
                                                                  int32_t platforms);
/** Adds a link button to the activity. At most 2 buttons are accepted by update_rich_presence.
 * @param activity The activity; NULL is ignored.
 * @param label The button's label (1 to 32 characters); copied.
 * @param label_size Its length in bytes.
 * @param url Where the button leads (an http(s) URL of at most 256 characters); copied.
 * @param url_size Its length in bytes. */
PLATFORMPP_C_API void platformpp_activity_add_button(platformpp_activity* activity, const char* label,
                                                     size_t label_size, const char* url, size_t url_size);
/** The name.
 * @param activity The activity; NULL: "".
 * @param size Receives the length in bytes; may be NULL.
 * @return The name, NUL-terminated ("" when unset); owned by the activity, valid until it is destroyed or
 * its name is set again. */
PLATFORMPP_C_API const char* platformpp_activity_name(const platformpp_activity* activity, size_t* size);
/** The type.
 * @param activity The activity; NULL: PLATFORMPP_ACTIVITY_TYPE_PLAYING.
 * @return The type. */
PLATFORMPP_C_API platformpp_activity_type platformpp_activity_get_type(const platformpp_activity* activity);
/** The state.
 * @param activity The activity; NULL: NULL.
 * @param size Receives the length in bytes (0 when unset); may be NULL.
 * @return The state, NUL-terminated, or NULL when unset; owned by the activity, valid until it is destroyed
 * or its state is set again. */
PLATFORMPP_C_API const char* platformpp_activity_state(const platformpp_activity* activity, size_t* size);
/** The details.
 * @param activity The activity; NULL: NULL.
 * @param size Receives the length in bytes (0 when unset); may be NULL.
 * @return The details, NUL-terminated, or NULL when unset; owned by the activity, valid until it is
 * destroyed or its details are set again. */
PLATFORMPP_C_API const char* platformpp_activity_details(const platformpp_activity* activity, size_t* size);
/** The application the activity belongs to.
 * @param activity The activity; NULL: 0.
 * @return The application id; 0 when unset. */
PLATFORMPP_C_API uint64_t platformpp_activity_application_id(const platformpp_activity* activity);
/** The party's id.
 * @param activity The activity; NULL: NULL.
 * @param size Receives the length in bytes (0 without a party); may be NULL.
 * @return The party id, NUL-terminated, or NULL without a party; owned by the activity, valid until it is
 * destroyed or its party is set again. */
PLATFORMPP_C_API const char* platformpp_activity_party_id(const platformpp_activity* activity, size_t* size);
/** How many players are in the party.
 * @param activity The activity; NULL: 0.
 * @return The party's current size; 0 without a party. */
PLATFORMPP_C_API int32_t platformpp_activity_party_current_size(const platformpp_activity* activity);
/** How many players fit in the party.
 * @param activity The activity; NULL: 0.
 * @return The party's maximum size; 0 without a party. */
PLATFORMPP_C_API int32_t platformpp_activity_party_max_size(const platformpp_activity* activity);
/** How many buttons were added.
 * @param activity The activity; NULL: 0.
 * @return The number of buttons. */
PLATFORMPP_C_API size_t platformpp_activity_button_count(const platformpp_activity* activity);

/** Shows the activity to friends (borrowed for the call). Checked first: a violation is VALIDATION_ERROR
 * whose field errors name the field. Sent over the realtime connection when ready, else over the desktop
 * client. CLIENT_NOT_READY when neither is there; the activity is still kept and goes out once the realtime
 * connection is ready. Sent again after every reconnect.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param activity The activity, borrowed for the call (the client copies it); NULL, or an activity one of
 * whose setters failed: VALIDATION_ERROR.
 * @param callback Runs once with the result, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_update_rich_presence(platformpp_client* client,
                                                             const platformpp_activity* activity,
                                                             platformpp_result_fn callback, void* user_data,
                                                             platformpp_user_data_free_fn user_data_free);
/** Removes the game's activity (from the realtime connection and the desktop client, whichever has it).
 * @param client The client; NULL is ignored. */
PLATFORMPP_C_API void platformpp_client_clear_rich_presence(platformpp_client* client);
/** Sets the player's online status over the realtime connection (the desktop client keeps its own).
 * CLIENT_NOT_READY when the connection is not ready; the status is still kept and sent once it is.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param status ONLINE, IDLE, DND or INVISIBLE; anything else: VALIDATION_ERROR.
 * @param callback Runs once with the result, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_online_status(platformpp_client* client,
                                                          platformpp_status_type status,
                                                          platformpp_result_fn callback, void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);

/** An invite (or join request) received from a friend. Borrowed inside its callback; clone to keep it.
 * Every getter accepts NULL. */
typedef struct platformpp_activity_invite platformpp_activity_invite;
/** A copy of an invite that outlives its callback.
 * @param invite The invite; NULL: returns NULL.
 * @return A new invite, owned by the caller: release it with platformpp_activity_invite_destroy. NULL for a
 * NULL invite or when out of memory. */
PLATFORMPP_C_API platformpp_activity_invite* platformpp_activity_invite_clone(
    const platformpp_activity_invite* invite);
/** Releases an invite made by platformpp_activity_invite_clone (never one handed to a callback).
 * @param invite The clone; NULL is ignored. */
PLATFORMPP_C_API void platformpp_activity_invite_destroy(platformpp_activity_invite* invite);
/** The friend who sent the invite.
 * @param invite The invite; NULL: 0.
 * @return The sender's user id. */
PLATFORMPP_C_API uint64_t platformpp_activity_invite_sender_id(const platformpp_activity_invite* invite);
/** The direct-message channel the invite arrived in.
 * @param invite The invite; NULL: 0.
 * @return The channel id. */
PLATFORMPP_C_API uint64_t platformpp_activity_invite_channel_id(const platformpp_activity_invite* invite);
/** The message that carries the invite.
 * @param invite The invite; NULL: 0.
 * @return The message id. */
PLATFORMPP_C_API uint64_t platformpp_activity_invite_message_id(const platformpp_activity_invite* invite);
/** Whether it is an invite or a join request.
 * @param invite The invite; NULL: PLATFORMPP_ACTIVITY_ACTION_TYPE_INVALID.
 * @return The action type. */
PLATFORMPP_C_API platformpp_activity_action_type
platformpp_activity_invite_type(const platformpp_activity_invite* invite);
/** The application of the activity.
 * @param invite The invite; NULL: 0.
 * @return The application id. */
PLATFORMPP_C_API uint64_t platformpp_activity_invite_application_id(const platformpp_activity_invite* invite);
/** The party of the sender's activity.
 * @param invite The invite; NULL: "".
 * @param size Receives the length in bytes; may be NULL.
 * @return The party id, NUL-terminated; owned by the invite, valid as long as it. */
PLATFORMPP_C_API const char* platformpp_activity_invite_party_id(const platformpp_activity_invite* invite,
                                                                 size_t* size);
/** The session id the invite carries.
 * @param invite The invite; NULL: "".
 * @param size Receives the length in bytes; may be NULL.
 * @return The session id, NUL-terminated; owned by the invite, valid as long as it. */
PLATFORMPP_C_API const char* platformpp_activity_invite_session_id(const platformpp_activity_invite* invite,
                                                                   size_t* size);
/** Whether the invite can still be accepted.
 * @param invite The invite; NULL: 0.
 * @return Non-zero while the sender's activity has the invite's party; 0 once it no longer has it (accepting
 * would fail). */
PLATFORMPP_C_API int32_t platformpp_activity_invite_is_valid(const platformpp_activity_invite* invite);

/** An invite event (created or updated), inside platformpp_client_run_callbacks.
 * @param invite The invite; borrowed until the callback returns (platformpp_activity_invite_clone keeps
 * it).
 * @param user_data The registration's user_data. */
typedef void (*platformpp_activity_invite_fn)(const platformpp_activity_invite* invite, void* user_data);
/** Completion of accept_activity_invite: the join secret ("" on failure).
 * @param result The outcome; borrowed until the callback returns.
 * @param join_secret The join secret of the sender's activity, NUL-terminated; borrowed until the callback
 * returns.
 * @param join_secret_size Its length in bytes.
 * @param user_data The call's user_data. */
typedef void (*platformpp_join_secret_fn)(const platformpp_client_result* result, const char* join_secret,
                                          size_t join_secret_size, void* user_data);
/** The player joined a friend's activity from the desktop client, inside platformpp_client_run_callbacks.
 * @param join_secret The join secret of the activity joined, NUL-terminated; borrowed until the callback
 * returns.
 * @param join_secret_size Its length in bytes.
 * @param user_data The registration's user_data. */
typedef void (*platformpp_activity_join_fn)(const char* join_secret, size_t join_secret_size,
                                            void* user_data);
/** Invites a friend to join the player's current activity. content may be empty. The player's activity must
 * be joinable (party with room and a join secret); else VALIDATION_ERROR naming what is missing.
 * Needs a token and platformpp_client_set_application_id.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param user_id The friend to invite.
 * @param content An optional message; borrowed for the call; may be empty.
 * @param content_size Its length in bytes.
 * @param callback Runs once with the result, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_send_activity_invite(platformpp_client* client, uint64_t user_id,
                                                             const char* content, size_t content_size,
                                                             platformpp_result_fn callback, void* user_data,
                                                             platformpp_user_data_free_fn user_data_free);
/** Asks a friend to invite the player into their activity. VALIDATION_ERROR while no activity of theirs
 * with a party in this game is known.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param user_id The friend.
 * @param callback Runs once with the result, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_send_activity_join_request(
    platformpp_client* client, uint64_t user_id, platformpp_result_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Accepts an invite. NULL invite: VALIDATION_ERROR. The callback gets the join secret of the sender's
 * activity (HTTP_ERROR 400, code 50083, when that activity no longer has the invite's party).
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param invite The invite, borrowed for the call; NULL: VALIDATION_ERROR.
 * @param callback Runs once with the join secret, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_accept_activity_invite(platformpp_client* client,
                                                               const platformpp_activity_invite* invite,
                                                               platformpp_join_secret_fn callback,
                                                               void* user_data,
                                                               platformpp_user_data_free_fn user_data_free);
/* Event registrations below: replace any earlier callback (whose user_data_free runs then, or when the client
 * is destroyed); a NULL callback removes it. */
/** An invite or join request for this game arrived for the player from a friend.
 * Replaces any earlier callback (whose user_data_free runs then, or when the client is destroyed).
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Runs for each invite; NULL removes it (and user_data is freed at once).
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the callback is replaced or removed, or when the client is
 * destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_activity_invite_created_callback(
    platformpp_client* client, platformpp_activity_invite_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A received invite became invalid (its sender left the party) or valid again.
 * Replaces any earlier callback (whose user_data_free runs then, or when the client is destroyed).
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Runs for each change; NULL removes it (and user_data is freed at once).
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the callback is replaced or removed, or when the client is
 * destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_activity_invite_updated_callback(
    platformpp_client* client, platformpp_activity_invite_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** The player joined a friend's activity from the desktop client. Needs platformpp_client_set_application_id
 * first; renewed whenever the desktop client comes back. Replaces any earlier callback (whose user_data_free
 * runs then, or when the client is destroyed).
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Runs with the join secret of each join, inside platformpp_client_run_callbacks; NULL
 * removes it (and user_data is freed at once).
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the callback is replaced or removed, or when the client is
 * destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_activity_join_callback(
    platformpp_client* client, platformpp_activity_join_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Registers how the desktop client starts the game to join an activity (command runs with the join URL).
 * On Linux: a desktop entry for the URL scheme discord-(application id) and that scheme's default handler.
 * Non-zero when registered.
 * @param client The client; NULL: returns 0.
 * @param application_id The game's application id.
 * @param command The command line; borrowed for the call.
 * @param command_size Its length in bytes.
 * @return Non-zero when registered; 0 when it could not be (the client logs why) or for a NULL client. */
PLATFORMPP_C_API int32_t platformpp_client_register_launch_command(platformpp_client* client,
                                                                   uint64_t application_id,
                                                                   const char* command, size_t command_size);
/** platformpp_client_register_launch_command with the command xdg-open steam://rungameid/(steam_app_id).
 * @param client The client; NULL: returns 0.
 * @param application_id The game's application id.
 * @param steam_app_id The game's Steam app id.
 * @return Non-zero when registered; 0 when it could not be or for a NULL client. */
PLATFORMPP_C_API int32_t platformpp_client_register_launch_steam_application(platformpp_client* client,
                                                                             uint64_t application_id,
                                                                             uint32_t steam_app_id);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_PRESENCE_H */
