/* platformpp C ABI, social: Users, relationships and guilds.
 * Part of <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone. */
#ifndef PLATFORMPP_PLATFORMPP_C_SOCIAL_H
#define PLATFORMPP_PLATFORMPP_C_SOCIAL_H

#include <platformpp/platformpp_c_core.h>
#include <platformpp/platformpp_c_presence.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Users and relationships. Handles and lists are snapshots the caller owns and destroys. */

typedef enum platformpp_relationship_type {
  PLATFORMPP_RELATIONSHIP_TYPE_NONE = 0,
  PLATFORMPP_RELATIONSHIP_TYPE_FRIEND = 1,
  PLATFORMPP_RELATIONSHIP_TYPE_BLOCKED = 2,
  PLATFORMPP_RELATIONSHIP_TYPE_PENDING_INCOMING = 3,
  PLATFORMPP_RELATIONSHIP_TYPE_PENDING_OUTGOING = 4,
  PLATFORMPP_RELATIONSHIP_TYPE_IMPLICIT = 5,
  PLATFORMPP_RELATIONSHIP_TYPE_SUGGESTION = 6,
  PLATFORMPP_RELATIONSHIP_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_relationship_type;

typedef enum platformpp_relationship_group_type {
  PLATFORMPP_RELATIONSHIP_GROUP_TYPE_ONLINE_PLAYING_GAME = 0,
  PLATFORMPP_RELATIONSHIP_GROUP_TYPE_ONLINE_ELSEWHERE = 1,
  PLATFORMPP_RELATIONSHIP_GROUP_TYPE_OFFLINE = 2,
  PLATFORMPP_RELATIONSHIP_GROUP_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_relationship_group_type;

typedef enum platformpp_avatar_type {
  PLATFORMPP_AVATAR_TYPE_GIF = 0,
  PLATFORMPP_AVATAR_TYPE_WEBP = 1,
  PLATFORMPP_AVATAR_TYPE_PNG = 2,
  PLATFORMPP_AVATAR_TYPE_JPEG = 3,
  PLATFORMPP_AVATAR_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_avatar_type;

typedef struct platformpp_user_handle platformpp_user_handle;
/** The player, once the realtime connection is ready; NULL before. Destroy it. */
PLATFORMPP_C_API platformpp_user_handle* platformpp_client_get_current_user(const platformpp_client* client);
/** A user the client knows; NULL otherwise. Destroy it. */
PLATFORMPP_C_API platformpp_user_handle* platformpp_client_get_user(const platformpp_client* client,
                                                                    uint64_t user_id);
PLATFORMPP_C_API platformpp_user_handle* platformpp_user_handle_clone(const platformpp_user_handle* user);
PLATFORMPP_C_API void platformpp_user_handle_destroy(platformpp_user_handle* user);
PLATFORMPP_C_API uint64_t platformpp_user_handle_id(const platformpp_user_handle* user);
PLATFORMPP_C_API const char* platformpp_user_handle_username(const platformpp_user_handle* user,
                                                             size_t* size);
PLATFORMPP_C_API const char* platformpp_user_handle_display_name(const platformpp_user_handle* user,
                                                                 size_t* size);
/** NULL when the user has no avatar. */
PLATFORMPP_C_API const char* platformpp_user_handle_avatar(const platformpp_user_handle* user, size_t* size);
/** The avatar's CDN URL (or the default avatar's). Owned by the handle, valid until the next call on it. ""
 * when out of memory. */
PLATFORMPP_C_API const char* platformpp_user_handle_avatar_url(const platformpp_user_handle* user,
                                                               platformpp_avatar_type animated_type,
                                                               platformpp_avatar_type static_type,
                                                               size_t* size);
PLATFORMPP_C_API platformpp_status_type platformpp_user_handle_status(const platformpp_user_handle* user);
/** The user's activity in this game, or NULL. Destroy it. */
PLATFORMPP_C_API platformpp_activity* platformpp_user_handle_game_activity(
    const platformpp_user_handle* user);
PLATFORMPP_C_API int32_t platformpp_user_handle_is_provisional(const platformpp_user_handle* user);
/** The guild tag (1 to 4 characters), or NULL. */
PLATFORMPP_C_API const char* platformpp_user_handle_primary_guild_tag(const platformpp_user_handle* user,
                                                                      size_t* size);
PLATFORMPP_C_API int32_t platformpp_user_handle_premium_type(const platformpp_user_handle* user);
PLATFORMPP_C_API platformpp_relationship_type
platformpp_user_handle_relationship(const platformpp_user_handle* user);

typedef struct platformpp_relationship_handle platformpp_relationship_handle;
typedef struct platformpp_relationship_list platformpp_relationship_list;
typedef struct platformpp_user_list platformpp_user_list;
PLATFORMPP_C_API platformpp_relationship_handle* platformpp_client_get_relationship_handle(
    const platformpp_client* client, uint64_t user_id);
PLATFORMPP_C_API void platformpp_relationship_handle_destroy(platformpp_relationship_handle* relationship);
PLATFORMPP_C_API uint64_t
platformpp_relationship_handle_id(const platformpp_relationship_handle* relationship);
PLATFORMPP_C_API platformpp_relationship_type
platformpp_relationship_handle_discord_type(const platformpp_relationship_handle* relationship);
PLATFORMPP_C_API platformpp_relationship_type
platformpp_relationship_handle_game_type(const platformpp_relationship_handle* relationship);
PLATFORMPP_C_API int32_t
platformpp_relationship_handle_is_spam_request(const platformpp_relationship_handle* relationship);
/** The user, borrowed from the relationship handle; NULL when unknown. */
PLATFORMPP_C_API const platformpp_user_handle* platformpp_relationship_handle_user(
    const platformpp_relationship_handle* relationship);
/** Never NULL for a non-NULL client (possibly empty). Destroy it. */
PLATFORMPP_C_API platformpp_relationship_list* platformpp_client_get_relationships(
    const platformpp_client* client);
/** Sorted as the desktop client sorts: by display name, then id. */
PLATFORMPP_C_API platformpp_relationship_list* platformpp_client_get_relationships_by_group(
    const platformpp_client* client, platformpp_relationship_group_type group);
PLATFORMPP_C_API size_t platformpp_relationship_list_size(const platformpp_relationship_list* list);
/** Borrowed from the list; NULL out of range. */
PLATFORMPP_C_API const platformpp_relationship_handle* platformpp_relationship_list_at(
    const platformpp_relationship_list* list, size_t index);
PLATFORMPP_C_API void platformpp_relationship_list_destroy(platformpp_relationship_list* list);
PLATFORMPP_C_API platformpp_user_list* platformpp_client_search_friends_by_username(
    const platformpp_client* client, const char* search, size_t search_size);
PLATFORMPP_C_API size_t platformpp_user_list_size(const platformpp_user_list* list);
PLATFORMPP_C_API const platformpp_user_handle* platformpp_user_list_at(const platformpp_user_list* list,
                                                                       size_t index);
PLATFORMPP_C_API void platformpp_user_list_destroy(platformpp_user_list* list);

/** Friend requests and blocks; each completes with its result. */
PLATFORMPP_C_API void platformpp_client_send_discord_friend_request(
    platformpp_client* client, const char* username, size_t username_size, platformpp_result_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_send_game_friend_request(platformpp_client* client,
                                                                 const char* username, size_t username_size,
                                                                 platformpp_result_fn callback,
                                                                 void* user_data,
                                                                 platformpp_user_data_free_fn user_data_free);
/** What platformpp_client_relationship_action does to the relationship with user_id. */
typedef enum platformpp_relationship_action {
  PLATFORMPP_RELATIONSHIP_ACTION_SEND_DISCORD_FRIEND_REQUEST = 0,
  PLATFORMPP_RELATIONSHIP_ACTION_SEND_GAME_FRIEND_REQUEST = 1,
  PLATFORMPP_RELATIONSHIP_ACTION_ACCEPT_DISCORD_FRIEND_REQUEST = 2,
  PLATFORMPP_RELATIONSHIP_ACTION_ACCEPT_GAME_FRIEND_REQUEST = 3,
  PLATFORMPP_RELATIONSHIP_ACTION_REJECT_DISCORD_FRIEND_REQUEST = 4,
  PLATFORMPP_RELATIONSHIP_ACTION_REJECT_GAME_FRIEND_REQUEST = 5,
  PLATFORMPP_RELATIONSHIP_ACTION_CANCEL_DISCORD_FRIEND_REQUEST = 6,
  PLATFORMPP_RELATIONSHIP_ACTION_CANCEL_GAME_FRIEND_REQUEST = 7,
  PLATFORMPP_RELATIONSHIP_ACTION_REMOVE_DISCORD_AND_GAME_FRIEND = 8,
  PLATFORMPP_RELATIONSHIP_ACTION_REMOVE_GAME_FRIEND = 9,
  PLATFORMPP_RELATIONSHIP_ACTION_BLOCK_USER = 10,
  PLATFORMPP_RELATIONSHIP_ACTION_UNBLOCK_USER = 11,
  PLATFORMPP_RELATIONSHIP_ACTION_FORCE_INT32 = 0x7FFFFFFF
} platformpp_relationship_action;
/** One entry point for the id-based relationship calls (SendDiscordFriendRequestById, Accept..., Block...).
 * An unknown action: VALIDATION_ERROR. */
PLATFORMPP_C_API void platformpp_client_relationship_action(platformpp_client* client,
                                                            platformpp_relationship_action action,
                                                            uint64_t user_id, platformpp_result_fn callback,
                                                            void* user_data,
                                                            platformpp_user_data_free_fn user_data_free);
typedef void (*platformpp_relationship_changed_fn)(uint64_t user_id, int32_t is_discord_relationship_update,
                                                   void* user_data);
typedef void (*platformpp_user_id_fn)(uint64_t user_id, void* user_data);
PLATFORMPP_C_API void platformpp_client_set_relationship_created_callback(
    platformpp_client* client, platformpp_relationship_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_relationship_deleted_callback(
    platformpp_client* client, platformpp_relationship_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_relationship_groups_updated_callback(
    platformpp_client* client, platformpp_user_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_user_updated_callback(
    platformpp_client* client, platformpp_user_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);

/* Guilds. The arrays are borrowed for the callback. */
typedef struct platformpp_guild_minimal {
  uint64_t id;
  const char* name;
  size_t name_size;
  const char* banner; /**< "" when none */
  size_t banner_size;
} platformpp_guild_minimal;

typedef struct platformpp_guild_channel {
  uint64_t id;
  const char* name;
  size_t name_size;
  int32_t type; /**< the platform's channel type: 0 text, 2 voice, 4 category, ... */
  int32_t position;
  uint64_t parent_category_id; /**< 0 when the channel is in no category */
} platformpp_guild_channel;

typedef void (*platformpp_user_guilds_fn)(const platformpp_client_result* result,
                                          const platformpp_guild_minimal* guilds, size_t count,
                                          void* user_data);
typedef void (*platformpp_guild_channels_fn)(const platformpp_client_result* result,
                                             const platformpp_guild_channel* channels, size_t count,
                                             void* user_data);
PLATFORMPP_C_API void platformpp_client_get_user_guilds(platformpp_client* client,
                                                        platformpp_user_guilds_fn callback, void* user_data,
                                                        platformpp_user_data_free_fn user_data_free);
/** Sorted by position as the desktop client shows them. */
PLATFORMPP_C_API void platformpp_client_get_guild_channels(platformpp_client* client, uint64_t guild_id,
                                                           platformpp_guild_channels_fn callback,
                                                           void* user_data,
                                                           platformpp_user_data_free_fn user_data_free);

/** The player's identities in this game outside the platform. Strings are borrowed from the list. */
typedef struct platformpp_user_application_profile {
  const char* avatar_hash;
  size_t avatar_hash_size;
  const char* metadata;
  size_t metadata_size;
  const char* provider_id; /**< NULL when none */
  size_t provider_id_size;
  const char* provider_issued_user_id;
  size_t provider_issued_user_id_size;
  const char* provider_type;
  size_t provider_type_size;
  const char* username;
  size_t username_size;
} platformpp_user_application_profile;
typedef struct platformpp_user_application_profile_list platformpp_user_application_profile_list;
PLATFORMPP_C_API platformpp_user_application_profile_list* platformpp_client_get_user_application_profiles(
    const platformpp_client* client);
PLATFORMPP_C_API size_t
platformpp_user_application_profile_list_size(const platformpp_user_application_profile_list* list);
PLATFORMPP_C_API const platformpp_user_application_profile* platformpp_user_application_profile_list_at(
    const platformpp_user_application_profile_list* list, size_t index);
PLATFORMPP_C_API void platformpp_user_application_profile_list_destroy(
    platformpp_user_application_profile_list* list);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_SOCIAL_H */
