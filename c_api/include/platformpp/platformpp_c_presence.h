/* platformpp C ABI, presence: Rich presence, activities and activity invites.
 * Part of <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone. */
#ifndef PLATFORMPP_PLATFORMPP_C_PRESENCE_H
#define PLATFORMPP_PLATFORMPP_C_PRESENCE_H

#include <platformpp/platformpp_c_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rich presence and activity invites.
 * Getters of the handles below return strings owned by the handle (valid until it is destroyed); *size (if
 * not NULL) receives the length. An optional string that is unset reads as NULL with size 0. */

typedef enum platformpp_activity_type {
  PLATFORMPP_ACTIVITY_TYPE_PLAYING = 0,
  PLATFORMPP_ACTIVITY_TYPE_STREAMING = 1,
  PLATFORMPP_ACTIVITY_TYPE_LISTENING = 2,
  PLATFORMPP_ACTIVITY_TYPE_WATCHING = 3,
  PLATFORMPP_ACTIVITY_TYPE_CUSTOM_STATUS = 4,
  PLATFORMPP_ACTIVITY_TYPE_COMPETING = 5,
  PLATFORMPP_ACTIVITY_TYPE_HANG_STATUS = 6,
  PLATFORMPP_ACTIVITY_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_activity_type;

typedef enum platformpp_status_display_type {
  PLATFORMPP_STATUS_DISPLAY_TYPE_UNSET = -1,
  PLATFORMPP_STATUS_DISPLAY_TYPE_NAME = 0,
  PLATFORMPP_STATUS_DISPLAY_TYPE_STATE = 1,
  PLATFORMPP_STATUS_DISPLAY_TYPE_DETAILS = 2,
  PLATFORMPP_STATUS_DISPLAY_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_status_display_type;

typedef enum platformpp_activity_action_type {
  PLATFORMPP_ACTIVITY_ACTION_TYPE_INVALID = 0,
  PLATFORMPP_ACTIVITY_ACTION_TYPE_JOIN = 1,
  PLATFORMPP_ACTIVITY_ACTION_TYPE_JOIN_REQUEST = 5,
  PLATFORMPP_ACTIVITY_ACTION_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_activity_action_type;

typedef enum platformpp_activity_party_privacy {
  PLATFORMPP_ACTIVITY_PARTY_PRIVACY_PRIVATE = 0,
  PLATFORMPP_ACTIVITY_PARTY_PRIVACY_PUBLIC = 1,
  PLATFORMPP_ACTIVITY_PARTY_PRIVACY_FORCE_INT32 = 0x7FFFFFFF
} platformpp_activity_party_privacy;

typedef enum platformpp_status_type {
  PLATFORMPP_STATUS_TYPE_ONLINE = 0,
  PLATFORMPP_STATUS_TYPE_OFFLINE = 1,
  PLATFORMPP_STATUS_TYPE_BLOCKED = 2,
  PLATFORMPP_STATUS_TYPE_IDLE = 3,
  PLATFORMPP_STATUS_TYPE_DND = 4,
  PLATFORMPP_STATUS_TYPE_INVISIBLE = 5,
  PLATFORMPP_STATUS_TYPE_STREAMING = 6,
  PLATFORMPP_STATUS_TYPE_UNKNOWN = 7,
  PLATFORMPP_STATUS_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_status_type;

/** An activity: what the player is doing, for platformpp_client_update_rich_presence. A setter that fails
 * (out of memory) leaves the field as it was and marks the activity (clones included), which
 * platformpp_client_update_rich_presence then refuses with VALIDATION_ERROR naming the setter. */
typedef struct platformpp_activity platformpp_activity;
PLATFORMPP_C_API platformpp_activity* platformpp_activity_create(void);
PLATFORMPP_C_API platformpp_activity* platformpp_activity_clone(const platformpp_activity* activity);
PLATFORMPP_C_API void platformpp_activity_destroy(platformpp_activity* activity);
PLATFORMPP_C_API void platformpp_activity_set_name(platformpp_activity* activity, const char* name,
                                                   size_t name_size);
PLATFORMPP_C_API void platformpp_activity_set_type(platformpp_activity* activity,
                                                   platformpp_activity_type type);
PLATFORMPP_C_API void platformpp_activity_set_status_display_type(platformpp_activity* activity,
                                                                  platformpp_status_display_type type);
/* Optional strings: a NULL pointer unsets the field. */
PLATFORMPP_C_API void platformpp_activity_set_state(platformpp_activity* activity, const char* state,
                                                    size_t state_size);
PLATFORMPP_C_API void platformpp_activity_set_state_url(platformpp_activity* activity, const char* url,
                                                        size_t url_size);
PLATFORMPP_C_API void platformpp_activity_set_details(platformpp_activity* activity, const char* details,
                                                      size_t details_size);
PLATFORMPP_C_API void platformpp_activity_set_details_url(platformpp_activity* activity, const char* url,
                                                          size_t url_size);
/** 0 unsets it. */
PLATFORMPP_C_API void platformpp_activity_set_application_id(platformpp_activity* activity,
                                                             uint64_t application_id);
/** Which asset: the large and small images, their hover texts and links, and the cover image of invites. */
typedef enum platformpp_activity_asset {
  PLATFORMPP_ACTIVITY_ASSET_LARGE_IMAGE = 0,
  PLATFORMPP_ACTIVITY_ASSET_LARGE_TEXT = 1,
  PLATFORMPP_ACTIVITY_ASSET_LARGE_URL = 2,
  PLATFORMPP_ACTIVITY_ASSET_SMALL_IMAGE = 3,
  PLATFORMPP_ACTIVITY_ASSET_SMALL_TEXT = 4,
  PLATFORMPP_ACTIVITY_ASSET_SMALL_URL = 5,
  PLATFORMPP_ACTIVITY_ASSET_INVITE_COVER_IMAGE = 6,
  PLATFORMPP_ACTIVITY_ASSET_FORCE_INT32 = 0x7FFFFFFF
} platformpp_activity_asset;
/** NULL value: unset. Unknown asset: ignored. */
PLATFORMPP_C_API void platformpp_activity_set_asset(platformpp_activity* activity,
                                                    platformpp_activity_asset asset, const char* value,
                                                    size_t value_size);
/** Unix milliseconds; 0 for none. Both 0: no timestamps. */
PLATFORMPP_C_API void platformpp_activity_set_timestamps(platformpp_activity* activity, uint64_t start_ms,
                                                         uint64_t end_ms);
/** A NULL id removes the party. */
PLATFORMPP_C_API void platformpp_activity_set_party(platformpp_activity* activity, const char* id,
                                                    size_t id_size, int32_t current_size, int32_t max_size,
                                                    platformpp_activity_party_privacy privacy);
/** A NULL secret removes it. */
PLATFORMPP_C_API void platformpp_activity_set_join_secret(platformpp_activity* activity, const char* secret,
                                                          size_t secret_size);
/** Bits of the platform's ActivityGamePlatforms (Desktop 1, Xbox 2, ... PS5 128). */
PLATFORMPP_C_API void platformpp_activity_set_supported_platforms(platformpp_activity* activity,
                                                                  int32_t platforms);
/** At most 2 buttons are accepted by update_rich_presence. */
PLATFORMPP_C_API void platformpp_activity_add_button(platformpp_activity* activity, const char* label,
                                                     size_t label_size, const char* url, size_t url_size);
PLATFORMPP_C_API const char* platformpp_activity_name(const platformpp_activity* activity, size_t* size);
PLATFORMPP_C_API platformpp_activity_type platformpp_activity_get_type(const platformpp_activity* activity);
PLATFORMPP_C_API const char* platformpp_activity_state(const platformpp_activity* activity, size_t* size);
PLATFORMPP_C_API const char* platformpp_activity_details(const platformpp_activity* activity, size_t* size);
PLATFORMPP_C_API uint64_t platformpp_activity_application_id(const platformpp_activity* activity);
PLATFORMPP_C_API const char* platformpp_activity_party_id(const platformpp_activity* activity, size_t* size);
PLATFORMPP_C_API int32_t platformpp_activity_party_current_size(const platformpp_activity* activity);
PLATFORMPP_C_API int32_t platformpp_activity_party_max_size(const platformpp_activity* activity);
PLATFORMPP_C_API size_t platformpp_activity_button_count(const platformpp_activity* activity);

/** Shows the activity to friends (borrowed for the call). Checked first: a violation is VALIDATION_ERROR
 * whose field errors name the field. Sent over the realtime connection when ready, else over the desktop
 * client. */
PLATFORMPP_C_API void platformpp_client_update_rich_presence(platformpp_client* client,
                                                             const platformpp_activity* activity,
                                                             platformpp_result_fn callback, void* user_data,
                                                             platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_clear_rich_presence(platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_set_online_status(platformpp_client* client,
                                                          platformpp_status_type status,
                                                          platformpp_result_fn callback, void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);

/** An invite (or join request) received from a friend. Borrowed inside its callback; clone to keep it. */
typedef struct platformpp_activity_invite platformpp_activity_invite;
PLATFORMPP_C_API platformpp_activity_invite* platformpp_activity_invite_clone(
    const platformpp_activity_invite* invite);
PLATFORMPP_C_API void platformpp_activity_invite_destroy(platformpp_activity_invite* invite);
PLATFORMPP_C_API uint64_t platformpp_activity_invite_sender_id(const platformpp_activity_invite* invite);
PLATFORMPP_C_API uint64_t platformpp_activity_invite_channel_id(const platformpp_activity_invite* invite);
PLATFORMPP_C_API uint64_t platformpp_activity_invite_message_id(const platformpp_activity_invite* invite);
PLATFORMPP_C_API platformpp_activity_action_type
platformpp_activity_invite_type(const platformpp_activity_invite* invite);
PLATFORMPP_C_API uint64_t platformpp_activity_invite_application_id(const platformpp_activity_invite* invite);
PLATFORMPP_C_API const char* platformpp_activity_invite_party_id(const platformpp_activity_invite* invite,
                                                                 size_t* size);
PLATFORMPP_C_API const char* platformpp_activity_invite_session_id(const platformpp_activity_invite* invite,
                                                                   size_t* size);
PLATFORMPP_C_API int32_t platformpp_activity_invite_is_valid(const platformpp_activity_invite* invite);

typedef void (*platformpp_activity_invite_fn)(const platformpp_activity_invite* invite, void* user_data);
/** Completion of accept_activity_invite: the join secret ("" on failure). */
typedef void (*platformpp_join_secret_fn)(const platformpp_client_result* result, const char* join_secret,
                                          size_t join_secret_size, void* user_data);
typedef void (*platformpp_activity_join_fn)(const char* join_secret, size_t join_secret_size,
                                            void* user_data);
/** content may be empty. The player's activity must be joinable (party with room and a join secret). */
PLATFORMPP_C_API void platformpp_client_send_activity_invite(platformpp_client* client, uint64_t user_id,
                                                             const char* content, size_t content_size,
                                                             platformpp_result_fn callback, void* user_data,
                                                             platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_send_activity_join_request(
    platformpp_client* client, uint64_t user_id, platformpp_result_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** NULL invite: VALIDATION_ERROR. */
PLATFORMPP_C_API void platformpp_client_accept_activity_invite(platformpp_client* client,
                                                               const platformpp_activity_invite* invite,
                                                               platformpp_join_secret_fn callback,
                                                               void* user_data,
                                                               platformpp_user_data_free_fn user_data_free);
/* Event registrations below: replace any earlier callback (whose user_data_free runs then, or when the client
 * is destroyed); a NULL callback removes it. */
PLATFORMPP_C_API void platformpp_client_set_activity_invite_created_callback(
    platformpp_client* client, platformpp_activity_invite_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_activity_invite_updated_callback(
    platformpp_client* client, platformpp_activity_invite_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_activity_join_callback(
    platformpp_client* client, platformpp_activity_join_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Non-zero when registered. */
PLATFORMPP_C_API int32_t platformpp_client_register_launch_command(platformpp_client* client,
                                                                   uint64_t application_id,
                                                                   const char* command, size_t command_size);
PLATFORMPP_C_API int32_t platformpp_client_register_launch_steam_application(platformpp_client* client,
                                                                             uint64_t application_id,
                                                                             uint32_t steam_app_id);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_PRESENCE_H */
