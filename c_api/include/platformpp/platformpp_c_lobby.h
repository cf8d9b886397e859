/* platformpp C ABI, lobby: Lobbies and their members.
 * Part of <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone. */
#ifndef PLATFORMPP_PLATFORMPP_C_LOBBY_H
#define PLATFORMPP_PLATFORMPP_C_LOBBY_H

#include <platformpp/platformpp_c_core.h>
#include <platformpp/platformpp_c_social.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Lobbies. Handles are snapshots the caller owns and destroys; what a getter returns is borrowed from the
 * handle. Metadata in: an array of pairs (NULL with count 0 for none). */

typedef enum platformpp_lobby_member_flags {
  PLATFORMPP_LOBBY_MEMBER_FLAGS_NONE = 0,
  PLATFORMPP_LOBBY_MEMBER_FLAGS_CAN_LINK_LOBBY = 1,
  PLATFORMPP_LOBBY_MEMBER_FLAGS_FORCE_INT32 = 0x7FFFFFFF
} platformpp_lobby_member_flags;

typedef struct platformpp_lobby_handle platformpp_lobby_handle;
typedef struct platformpp_lobby_member_handle platformpp_lobby_member_handle;

/** Gets an id: of a lobby, a message, ... */
typedef void (*platformpp_id_fn)(uint64_t id, void* user_data);
typedef void (*platformpp_lobby_id_result_fn)(const platformpp_client_result* result, uint64_t lobby_id,
                                              void* user_data);
typedef void (*platformpp_lobby_member_fn)(uint64_t lobby_id, uint64_t member_id, void* user_data);
typedef void (*platformpp_string_result_fn)(const platformpp_client_result* result, const char* text,
                                            size_t text_size, void* user_data);
typedef void (*platformpp_notify_fn)(void* user_data);

/** CreateOrJoinLobby; with non-NULL lobby_metadata or member_metadata, CreateOrJoinLobbyWithMetadata (which
 * replaces the lobby's and the player's member metadata with these). */
PLATFORMPP_C_API void platformpp_client_create_or_join_lobby(
    platformpp_client* client, const char* secret, size_t secret_size,
    const platformpp_string_pair* lobby_metadata, size_t lobby_metadata_count,
    const platformpp_string_pair* member_metadata, size_t member_metadata_count,
    platformpp_lobby_id_result_fn callback, void* user_data, platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_leave_lobby(platformpp_client* client, uint64_t lobby_id,
                                                    platformpp_result_fn callback, void* user_data,
                                                    platformpp_user_data_free_fn user_data_free);
/** NULL when the player is not in that lobby. Destroy it. */
PLATFORMPP_C_API platformpp_lobby_handle* platformpp_client_get_lobby_handle(const platformpp_client* client,
                                                                             uint64_t lobby_id);
/** Writes up to `capacity` lobby ids to `ids` (may be NULL with 0) and returns how many there are. */
PLATFORMPP_C_API size_t platformpp_client_get_lobby_ids(const platformpp_client* client, uint64_t* ids,
                                                        size_t capacity);
PLATFORMPP_C_API void platformpp_client_link_channel_to_lobby(platformpp_client* client, uint64_t lobby_id,
                                                              uint64_t channel_id,
                                                              platformpp_result_fn callback, void* user_data,
                                                              platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_unlink_channel_from_lobby(
    platformpp_client* client, uint64_t lobby_id, platformpp_result_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** The callback gets the invite URL. merge_required (may be NULL) runs instead for a provisional account;
 * both share user_data. */
PLATFORMPP_C_API void platformpp_client_join_linked_lobby_guild(platformpp_client* client, uint64_t lobby_id,
                                                                platformpp_notify_fn merge_required,
                                                                platformpp_string_result_fn callback,
                                                                void* user_data,
                                                                platformpp_user_data_free_fn user_data_free);
/** Lobby created/updated/deleted: `callback` gets the lobby id. */
PLATFORMPP_C_API void platformpp_client_set_lobby_created_callback(
    platformpp_client* client, platformpp_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_lobby_updated_callback(
    platformpp_client* client, platformpp_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_lobby_deleted_callback(
    platformpp_client* client, platformpp_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_lobby_member_added_callback(
    platformpp_client* client, platformpp_lobby_member_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_lobby_member_updated_callback(
    platformpp_client* client, platformpp_lobby_member_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_lobby_member_removed_callback(
    platformpp_client* client, platformpp_lobby_member_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);

PLATFORMPP_C_API void platformpp_lobby_handle_destroy(platformpp_lobby_handle* lobby);
PLATFORMPP_C_API uint64_t platformpp_lobby_handle_id(const platformpp_lobby_handle* lobby);
/** The lobby's metadata: `*count` pairs, borrowed from the handle. */
PLATFORMPP_C_API const platformpp_string_pair* platformpp_lobby_handle_metadata(
    const platformpp_lobby_handle* lobby, size_t* count);
PLATFORMPP_C_API size_t platformpp_lobby_handle_member_count(const platformpp_lobby_handle* lobby);
/** Borrowed from the lobby handle; NULL out of range. */
PLATFORMPP_C_API const platformpp_lobby_member_handle* platformpp_lobby_handle_member_at(
    const platformpp_lobby_handle* lobby, size_t index);
/** Borrowed; NULL when `member_id` is not a member. */
PLATFORMPP_C_API const platformpp_lobby_member_handle* platformpp_lobby_handle_member(
    const platformpp_lobby_handle* lobby, uint64_t member_id);
/** Non-zero when a channel is linked; then fills what is not NULL (the name is borrowed from the handle). */
PLATFORMPP_C_API int32_t platformpp_lobby_handle_linked_channel(const platformpp_lobby_handle* lobby,
                                                                uint64_t* channel_id, uint64_t* guild_id,
                                                                const char** name, size_t* name_size);
/** The ids of the players in the lobby's call (borrowed; NULL with *count 0 when there is no call). */
PLATFORMPP_C_API const uint64_t* platformpp_lobby_handle_call_participants(
    const platformpp_lobby_handle* lobby, size_t* count);
PLATFORMPP_C_API uint64_t platformpp_lobby_member_handle_id(const platformpp_lobby_member_handle* member);
PLATFORMPP_C_API uint32_t platformpp_lobby_member_handle_flags(const platformpp_lobby_member_handle* member);
PLATFORMPP_C_API int32_t
platformpp_lobby_member_handle_can_link_lobby(const platformpp_lobby_member_handle* member);
PLATFORMPP_C_API int32_t
platformpp_lobby_member_handle_connected(const platformpp_lobby_member_handle* member);
PLATFORMPP_C_API const platformpp_string_pair* platformpp_lobby_member_handle_metadata(
    const platformpp_lobby_member_handle* member, size_t* count);
/** Borrowed; NULL when the client does not know the user. */
PLATFORMPP_C_API const platformpp_user_handle* platformpp_lobby_member_handle_user(
    const platformpp_lobby_member_handle* member);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_LOBBY_H */
