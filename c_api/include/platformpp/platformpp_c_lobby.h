/** @file
 * Lobbies of the C ABI: joining and leaving them, their members, metadata, linked channel and call, and the
 * events that keep them current.
 *
 * platformpp C ABI, lobby: Lobbies and their members.
 * Part of <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone.
 *
 * The state (platformpp_client_get_lobby_handle, platformpp_client_get_lobby_ids) comes from the realtime
 * connection. The operations need a token and an application id (else PLATFORMPP_ERROR_TYPE_CLIENT_NOT_READY)
 * and end when the platform answered; the new state and its events follow over the realtime connection.
 * Rules checked before anything is sent (else PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR naming the field): a
 * secret of 1 to 250 characters; metadata of at most 1000 characters in total (keys and values, as Unicode
 * code points) for the lobby and for the member. See include/platformpp/client.hpp and
 * include/platformpp/lobby.hpp for the C++ layer these functions forward to.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_LOBBY_H
#define PLATFORMPP_PLATFORMPP_C_LOBBY_H

#include <platformpp/platformpp_c_core.h>
#include <platformpp/platformpp_c_social.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Lobbies. Handles are snapshots the caller owns and destroys; what a getter returns is borrowed from the
 * handle. Metadata in: an array of pairs (NULL with count 0 for none). */

/** Bits of platformpp_lobby_member_handle_flags; only the game's backend sets them. */
typedef enum platformpp_lobby_member_flags {
  PLATFORMPP_LOBBY_MEMBER_FLAGS_NONE = 0,           /**< No flag set. */
  PLATFORMPP_LOBBY_MEMBER_FLAGS_CAN_LINK_LOBBY = 1, /**< The member may link a guild channel to the lobby and
                                                       unlink it. */
  PLATFORMPP_LOBBY_MEMBER_FLAGS_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a flag. */
} platformpp_lobby_member_flags;

/** A snapshot of one lobby the player is a member of: what the client knew when the handle was made.
 * The caller owns it and releases it with platformpp_lobby_handle_destroy; everything its getters return
 * (member handles, metadata, names, id arrays) is borrowed from it and valid until it is destroyed. */
typedef struct platformpp_lobby_handle platformpp_lobby_handle;
/** One member of a lobby, borrowed from the platformpp_lobby_handle it came from: valid until that handle is
 * destroyed, and never destroyed by itself. */
typedef struct platformpp_lobby_member_handle platformpp_lobby_member_handle;

/** Gets an id: of a lobby, a message, ... Runs inside platformpp_client_run_callbacks.
 * @param id The lobby's or message's id.
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_id_fn)(uint64_t id, void* user_data);
/** Completion of platformpp_client_create_or_join_lobby, inside platformpp_client_run_callbacks.
 * @param result The outcome, borrowed for the callback (platformpp_client_result_clone keeps it longer).
 * @param lobby_id The lobby created or joined; 0 on failure.
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_lobby_id_result_fn)(const platformpp_client_result* result, uint64_t lobby_id,
                                              void* user_data);
/** A lobby member event, inside platformpp_client_run_callbacks.
 * @param lobby_id The lobby.
 * @param member_id The member (a user id).
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_lobby_member_fn)(uint64_t lobby_id, uint64_t member_id, void* user_data);
/** Completion of an operation that yields a string, inside platformpp_client_run_callbacks.
 * @param result The outcome, borrowed for the callback (platformpp_client_result_clone keeps it longer).
 * @param text NUL-terminated UTF-8, owned by the library and valid until the callback returns; "" (never
 * NULL) on failure.
 * @param text_size Length of `text` in bytes.
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_string_result_fn)(const platformpp_client_result* result, const char* text,
                                            size_t text_size, void* user_data);
/** A notification that carries nothing but user_data.
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_notify_fn)(void* user_data);

/** CreateOrJoinLobby; with non-NULL lobby_metadata or member_metadata, CreateOrJoinLobbyWithMetadata (which
 * replaces the lobby's and the player's member metadata with these). Joins the game's lobby that has
 * `secret`, creating it when there is none (a secret stays tied to its lobby for 30 days; a lobby holds at
 * most 1000 members). Lobbies the game's backend created cannot be joined from here (HTTP_ERROR 403).
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param secret UTF-8, 1 to 250 characters; borrowed for the call.
 * @param secret_size Length of `secret` in bytes.
 * @param lobby_metadata The lobby's metadata (copied), or NULL.
 * @param lobby_metadata_count Number of pairs in `lobby_metadata`.
 * @param member_metadata The player's member metadata (copied), or NULL.
 * @param member_metadata_count Number of pairs in `member_metadata`.
 * @param callback Runs once inside platformpp_client_run_callbacks with the lobby's id; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_create_or_join_lobby(
    platformpp_client* client, const char* secret, size_t secret_size,
    const platformpp_string_pair* lobby_metadata, size_t lobby_metadata_count,
    const platformpp_string_pair* member_metadata, size_t member_metadata_count,
    platformpp_lobby_id_result_fn callback, void* user_data, platformpp_user_data_free_fn user_data_free);
/** Leaves a lobby. Lobbies the game's backend created cannot be left from here (HTTP_ERROR 403).
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param lobby_id The lobby to leave.
 * @param callback Runs once inside platformpp_client_run_callbacks with the result; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_leave_lobby(platformpp_client* client, uint64_t lobby_id,
                                                    platformpp_result_fn callback, void* user_data,
                                                    platformpp_user_data_free_fn user_data_free);
/** NULL when the player is not in that lobby. Destroy it.
 * @param client The client; NULL gives NULL.
 * @param lobby_id The lobby.
 * @return A new snapshot the caller releases with platformpp_lobby_handle_destroy; NULL when the player is
 * not in that lobby, for a NULL client, or when the library failed (out of memory). */
PLATFORMPP_C_API platformpp_lobby_handle* platformpp_client_get_lobby_handle(const platformpp_client* client,
                                                                             uint64_t lobby_id);
/** Writes up to `capacity` lobby ids to `ids` (may be NULL with 0) and returns how many there are.
 * @param client The client; NULL gives 0.
 * @param ids Receives the ids of the lobbies the player is in; may be NULL.
 * @param capacity Number of ids `ids` can hold.
 * @return How many lobbies there are (more than `capacity` when `ids` was too small); 0 for a NULL client. */
PLATFORMPP_C_API size_t platformpp_client_get_lobby_ids(const platformpp_client* client, uint64_t* ids,
                                                        size_t capacity);
/** Links a guild text channel to the lobby; the player must be a member with
 * PLATFORMPP_LOBBY_MEMBER_FLAGS_CAN_LINK_LOBBY and able to view the channel.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param lobby_id The lobby.
 * @param channel_id The guild text channel.
 * @param callback Runs once inside platformpp_client_run_callbacks with the result; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_link_channel_to_lobby(platformpp_client* client, uint64_t lobby_id,
                                                              uint64_t channel_id,
                                                              platformpp_result_fn callback, void* user_data,
                                                              platformpp_user_data_free_fn user_data_free);
/** Unlinks the lobby's linked channel.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param lobby_id The lobby.
 * @param callback Runs once inside platformpp_client_run_callbacks with the result; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_unlink_channel_from_lobby(
    platformpp_client* client, uint64_t lobby_id, platformpp_result_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** The callback gets the invite URL. merge_required (may be NULL) runs instead for a provisional account;
 * both share user_data. Creates a single-use invite (valid one hour) to the guild of the lobby's linked
 * channel and opens it (platformpp_client_set_url_opener). A provisional account cannot join a guild:
 * `merge_required` runs, and the operation still ends, with VALIDATION_ERROR.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param lobby_id The lobby whose linked channel's guild to join.
 * @param merge_required Runs at most once, inside platformpp_client_run_callbacks, before `callback`, when
 * the account is provisional; may be NULL.
 * @param callback Runs once inside platformpp_client_run_callbacks with the invite URL ("" on failure); may
 * be NULL.
 * @param user_data Passed to `merge_required` and `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_join_linked_lobby_guild(platformpp_client* client, uint64_t lobby_id,
                                                                platformpp_notify_fn merge_required,
                                                                platformpp_string_result_fn callback,
                                                                void* user_data,
                                                                platformpp_user_data_free_fn user_data_free);
/** Lobby created/updated/deleted: `callback` gets the lobby id. Created: a lobby appeared in the client's
 * state (created or joined).
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_lobby_created_callback(
    platformpp_client* client, platformpp_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A lobby's metadata, linked channel or call changed: `callback` gets the lobby id.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_lobby_updated_callback(
    platformpp_client* client, platformpp_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A lobby left the client's state (deleted, or the player left it): `callback` gets the lobby id.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_lobby_deleted_callback(
    platformpp_client* client, platformpp_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A member joined a lobby the player is in.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_lobby_member_added_callback(
    platformpp_client* client, platformpp_lobby_member_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A member's metadata, flags or connection changed.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_lobby_member_updated_callback(
    platformpp_client* client, platformpp_lobby_member_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A member left (or was removed from) a lobby the player is in.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_lobby_member_removed_callback(
    platformpp_client* client, platformpp_lobby_member_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);

/** Releases a lobby snapshot and everything borrowed from it (its member handles included).
 * @param lobby The handle; NULL is fine. */
PLATFORMPP_C_API void platformpp_lobby_handle_destroy(platformpp_lobby_handle* lobby);
/** The lobby's id.
 * @param lobby The handle.
 * @return The id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_lobby_handle_id(const platformpp_lobby_handle* lobby);
/** The lobby's metadata: `*count` pairs, borrowed from the handle.
 * @param lobby The handle.
 * @param count Receives the number of pairs (0 for a NULL handle); may be NULL.
 * @return The pairs, valid until the handle is destroyed; NULL when there are none. */
PLATFORMPP_C_API const platformpp_string_pair* platformpp_lobby_handle_metadata(
    const platformpp_lobby_handle* lobby, size_t* count);
/** How many members the lobby has.
 * @param lobby The handle.
 * @return The member count; 0 for NULL. */
PLATFORMPP_C_API size_t platformpp_lobby_handle_member_count(const platformpp_lobby_handle* lobby);
/** Borrowed from the lobby handle; NULL out of range.
 * @param lobby The handle.
 * @param index 0 to platformpp_lobby_handle_member_count - 1.
 * @return The member, valid until `lobby` is destroyed (do not destroy it); NULL out of range or for a NULL
 * handle. */
PLATFORMPP_C_API const platformpp_lobby_member_handle* platformpp_lobby_handle_member_at(
    const platformpp_lobby_handle* lobby, size_t index);
/** Borrowed; NULL when `member_id` is not a member.
 * @param lobby The handle.
 * @param member_id The member's user id.
 * @return The member, valid until `lobby` is destroyed (do not destroy it); NULL when not a member or for a
 * NULL handle. */
PLATFORMPP_C_API const platformpp_lobby_member_handle* platformpp_lobby_handle_member(
    const platformpp_lobby_handle* lobby, uint64_t member_id);
/** Non-zero when a channel is linked; then fills what is not NULL (the name is borrowed from the handle).
 * The linked guild text channel's messages and the lobby's are the same conversation.
 * @param lobby The handle.
 * @param channel_id Receives the channel's id; may be NULL.
 * @param guild_id Receives the channel's guild; may be NULL.
 * @param name Receives the channel's name (NUL-terminated, valid until the handle is destroyed); may be NULL.
 * @param name_size Receives the name's length in bytes; may be NULL.
 * @return Non-zero when a channel is linked; 0 otherwise (also for a NULL handle), and nothing is written. */
PLATFORMPP_C_API int32_t platformpp_lobby_handle_linked_channel(const platformpp_lobby_handle* lobby,
                                                                uint64_t* channel_id, uint64_t* guild_id,
                                                                const char** name, size_t* name_size);
/** The ids of the players in the lobby's call (borrowed; NULL with *count 0 when there is no call).
 * @param lobby The handle.
 * @param count Receives the number of ids; may be NULL.
 * @return The ids, valid until the handle is destroyed; NULL when there is no call or for a NULL handle. */
PLATFORMPP_C_API const uint64_t* platformpp_lobby_handle_call_participants(
    const platformpp_lobby_handle* lobby, size_t* count);
/** The member's user id.
 * @param member The member handle.
 * @return The id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_lobby_member_handle_id(const platformpp_lobby_member_handle* member);
/** The member's flags.
 * @param member The member handle.
 * @return Bits of platformpp_lobby_member_flags; 0 for NULL. */
PLATFORMPP_C_API uint32_t platformpp_lobby_member_handle_flags(const platformpp_lobby_member_handle* member);
/** Whether the member may link a channel to the lobby (PLATFORMPP_LOBBY_MEMBER_FLAGS_CAN_LINK_LOBBY).
 * @param member The member handle.
 * @return Non-zero when it may; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t
platformpp_lobby_member_handle_can_link_lobby(const platformpp_lobby_member_handle* member);
/** Whether the member has a realtime connection to this game open now.
 * @param member The member handle.
 * @return Non-zero when connected; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t
platformpp_lobby_member_handle_connected(const platformpp_lobby_member_handle* member);
/** The member's metadata.
 * @param member The member handle.
 * @param count Receives the number of pairs (0 for a NULL handle); may be NULL.
 * @return The pairs, valid until the lobby handle is destroyed; NULL when there are none. */
PLATFORMPP_C_API const platformpp_string_pair* platformpp_lobby_member_handle_metadata(
    const platformpp_lobby_member_handle* member, size_t* count);
/** Borrowed; NULL when the client does not know the user.
 * @param member The member handle.
 * @return The member as a user, valid until the lobby handle is destroyed (do not destroy it; clone it with
 * platformpp_user_handle_clone to keep it); NULL when unknown or for a NULL handle. */
PLATFORMPP_C_API const platformpp_user_handle* platformpp_lobby_member_handle_user(
    const platformpp_lobby_member_handle* member);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_LOBBY_H */
