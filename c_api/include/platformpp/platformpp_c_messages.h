/** @file
 * Messages of the C ABI: sending, editing and reading lobby messages and direct messages (DMs), their
 * channels, and the message events.
 *
 * platformpp C ABI, messages: Messages: lobby messages and DMs.
 * Part of <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone.
 *
 * Lobby messages go to every member of the lobby; DMs to one player, who must be a friend (platform or
 * game), or online in this game too (then the DM is ephemeral: delivered, not kept), or share a guild with
 * the player after earlier DMs; otherwise HTTP_ERROR 400 (code 50007). Content is 1 to 2000 characters
 * (VALIDATION_ERROR otherwise). The client keeps the 25 newest messages of each channel. Handles are
 * snapshots; see include/platformpp/message.hpp for the C++ layer.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_MESSAGES_H
#define PLATFORMPP_PLATFORMPP_C_MESSAGES_H

#include <platformpp/platformpp_c_core.h>
#include <platformpp/platformpp_c_lobby.h>
#include <platformpp/platformpp_c_social.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Messages (lobby messages and DMs). */

/** The platform's channel types that messaging meets. */
typedef enum platformpp_channel_type {
  PLATFORMPP_CHANNEL_TYPE_GUILD_TEXT = 0,          /**< A guild's text channel. */
  PLATFORMPP_CHANNEL_TYPE_DM = 1,                  /**< A DM between two players. */
  PLATFORMPP_CHANNEL_TYPE_GUILD_VOICE = 2,         /**< A guild's voice channel. */
  PLATFORMPP_CHANNEL_TYPE_GROUP_DM = 3,            /**< A DM with several users. */
  PLATFORMPP_CHANNEL_TYPE_GUILD_CATEGORY = 4,      /**< A guild's channel category. */
  PLATFORMPP_CHANNEL_TYPE_LOBBY = 17,              /**< A lobby: a lobby is its own channel. */
  PLATFORMPP_CHANNEL_TYPE_EPHEMERAL_DM = 18,       /**< A DM between players who are not friends but play the
                                                      game together: delivered, not kept. */
  PLATFORMPP_CHANNEL_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a type. */
} platformpp_channel_type;

/** A snapshot of one message. One from platformpp_client_get_message_handle or
 * platformpp_message_handle_clone is the caller's, released with platformpp_message_handle_destroy; one
 * handed to a platformpp_messages_fn is borrowed for that callback. Strings, pairs and the author it hands
 * out are borrowed from it, valid until it is destroyed. */
typedef struct platformpp_message_handle platformpp_message_handle;
/** A snapshot of a DM channel or a lobby, which the caller owns and releases with
 * platformpp_channel_handle_destroy; what its getters return is borrowed from it. */
typedef struct platformpp_channel_handle platformpp_channel_handle;

/** The last DM exchanged with one player (platformpp_client_get_user_message_summaries). */
typedef struct platformpp_user_message_summary {
  uint64_t user_id;         /**< The other player of the conversation. */
  uint64_t last_message_id; /**< The conversation's last message. */
} platformpp_user_message_summary;

/** Completion of a send, inside platformpp_client_run_callbacks.
 * @param result The outcome, borrowed for the callback (platformpp_client_result_clone keeps it longer).
 * @param message_id The message's id once the platform has it; 0 on failure.
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_message_id_result_fn)(const platformpp_client_result* result, uint64_t message_id,
                                                void* user_data);
/** `messages` (oldest first) and the handles in it are borrowed for the callback. Completion of a history
 * request, inside platformpp_client_run_callbacks; platformpp_message_handle_clone keeps a message longer.
 * @param result The outcome, borrowed for the callback.
 * @param messages `count` message handles, oldest first; NULL when there are none (and on failure).
 * @param count Number of handles in `messages`.
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_messages_fn)(const platformpp_client_result* result,
                                       const platformpp_message_handle* const* messages, size_t count,
                                       void* user_data);
/** Completion of platformpp_client_get_user_message_summaries, inside platformpp_client_run_callbacks.
 * @param result The outcome, borrowed for the callback.
 * @param summaries `count` summaries, borrowed for the callback; NULL when there are none (and on failure).
 * @param count Number of summaries.
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_user_message_summaries_fn)(const platformpp_client_result* result,
                                                     const platformpp_user_message_summary* summaries,
                                                     size_t count, void* user_data);
/** A message was deleted, inside platformpp_client_run_callbacks.
 * @param message_id The deleted message.
 * @param channel_id The channel it was deleted from.
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_message_deleted_fn)(uint64_t message_id, uint64_t channel_id, void* user_data);

/** SendLobbyMessage, or ...WithMetadata when `metadata` is not NULL. Nothing is lost: see Client. A message
 * that cannot reach the platform is sent again until the platform answers, so it appears exactly once, and
 * the messages of one client to one channel arrive in the order they were sent
 * (include/platformpp/client.hpp).
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param lobby_id The lobby.
 * @param content UTF-8, 1 to 2000 characters; borrowed for the call.
 * @param content_size Length of `content` in bytes.
 * @param metadata The game's pairs to send with it (copied), or NULL.
 * @param metadata_count Number of pairs in `metadata`.
 * @param callback Runs once inside platformpp_client_run_callbacks with the message's id; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_send_lobby_message(
    platformpp_client* client, uint64_t lobby_id, const char* content, size_t content_size,
    const platformpp_string_pair* metadata, size_t metadata_count, platformpp_message_id_result_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
/** Sends a DM (SendUserMessage, or ...WithMetadata when `metadata` is not NULL); nothing is lost, as for
 * platformpp_client_send_lobby_message.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param recipient_id The other player.
 * @param content UTF-8, 1 to 2000 characters; borrowed for the call.
 * @param content_size Length of `content` in bytes.
 * @param metadata The game's pairs to send with it (copied), or NULL.
 * @param metadata_count Number of pairs in `metadata`.
 * @param callback Runs once inside platformpp_client_run_callbacks with the message's id; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_send_user_message(
    platformpp_client* client, uint64_t recipient_id, const char* content, size_t content_size,
    const platformpp_string_pair* metadata, size_t metadata_count, platformpp_message_id_result_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
/** Replaces the text of the player's own DM; its moderation metadata is cleared.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param recipient_id The other player of the DM.
 * @param message_id The message to edit.
 * @param content The new text, UTF-8, 1 to 2000 characters; borrowed for the call.
 * @param content_size Length of `content` in bytes.
 * @param callback Runs once inside platformpp_client_run_callbacks with the result; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_edit_user_message(platformpp_client* client, uint64_t recipient_id,
                                                          uint64_t message_id, const char* content,
                                                          size_t content_size, platformpp_result_fn callback,
                                                          void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);
/** Deletes one of the player's DMs.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param recipient_id The other player of the DM.
 * @param message_id The message to delete.
 * @param callback Runs once inside platformpp_client_run_callbacks with the result; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_delete_user_message(platformpp_client* client, uint64_t recipient_id,
                                                            uint64_t message_id,
                                                            platformpp_result_fn callback, void* user_data,
                                                            platformpp_user_data_free_fn user_data_free);
/** NULL when the client does not hold the message. Destroy it. The client holds the 25 newest messages of
 * each channel (and those a history request returned, until they fall out of that window).
 * @param client The client; NULL gives NULL.
 * @param message_id The message.
 * @return A new snapshot the caller releases with platformpp_message_handle_destroy; NULL when the client
 * does not hold the message, for a NULL client, or when the library failed (out of memory). */
PLATFORMPP_C_API platformpp_message_handle* platformpp_client_get_message_handle(
    const platformpp_client* client, uint64_t message_id);
/** NULL when the client does not know the channel. Destroy it. A channel is a DM channel or a lobby.
 * @param client The client; NULL gives NULL.
 * @param channel_id The channel (for a lobby, the lobby's id).
 * @return A new snapshot the caller releases with platformpp_channel_handle_destroy; NULL when the client
 * does not know the channel, for a NULL client, or when the library failed (out of memory). */
PLATFORMPP_C_API platformpp_channel_handle* platformpp_client_get_channel_handle(
    const platformpp_client* client, uint64_t channel_id);
/** Up to `limit` of the lobby's newest messages from the last 72 hours, oldest first; members only.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param lobby_id The lobby.
 * @param limit 1 to 200.
 * @param callback Runs once inside platformpp_client_run_callbacks with the messages; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_get_lobby_messages_with_limit(
    platformpp_client* client, uint64_t lobby_id, int32_t limit, platformpp_messages_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
/** Up to `limit` of the newest DMs with `recipient_id`, oldest first.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param recipient_id The other player.
 * @param limit 1 to 200.
 * @param callback Runs once inside platformpp_client_run_callbacks with the messages; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_get_user_messages_with_limit(
    platformpp_client* client, uint64_t recipient_id, int32_t limit, platformpp_messages_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
/** The last DM with each player the player has a DM conversation with.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param callback Runs once inside platformpp_client_run_callbacks with the summaries; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_get_user_message_summaries(
    platformpp_client* client, platformpp_user_message_summaries_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Message created/updated: `callback` gets the message id. Created: a message arrived
 * (platformpp_client_get_message_handle has it), once per message id.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_message_created_callback(
    platformpp_client* client, platformpp_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A message the client knows was edited: `callback` gets the message id.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_message_updated_callback(
    platformpp_client* client, platformpp_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A message was deleted: `callback` gets its id and channel.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_message_deleted_callback(
    platformpp_client* client, platformpp_message_deleted_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Whether the game shows its chat now; the platform uses it to decide where to notify the player.
 * @param client The client; NULL does nothing.
 * @param showing_chat Non-zero while the chat is shown. */
PLATFORMPP_C_API void platformpp_client_set_showing_chat(platformpp_client* client, int32_t showing_chat);

/** A copy of a message handle, e.g. to keep one a platformpp_messages_fn lent.
 * @param message The handle; NULL gives NULL.
 * @return A new handle the caller releases with platformpp_message_handle_destroy; NULL for NULL or when out
 * of memory. */
PLATFORMPP_C_API platformpp_message_handle* platformpp_message_handle_clone(
    const platformpp_message_handle* message);
/** Releases a message handle the caller owns (never one lent to a callback).
 * @param message The handle; NULL is fine. */
PLATFORMPP_C_API void platformpp_message_handle_destroy(platformpp_message_handle* message);
/** The message's id.
 * @param message The handle.
 * @return The id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_message_handle_id(const platformpp_message_handle* message);
/** The author's user id.
 * @param message The handle.
 * @return The id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_message_handle_author_id(const platformpp_message_handle* message);
/** The DM channel or, for a lobby message, the lobby's id (a lobby is its own channel).
 * @param message The handle.
 * @return The channel's id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_message_handle_channel_id(const platformpp_message_handle* message);
/** 0 for a DM.
 * @param message The handle.
 * @return The lobby of a lobby message; 0 for a DM and for NULL. */
PLATFORMPP_C_API uint64_t platformpp_message_handle_lobby_id(const platformpp_message_handle* message);
/** 0 for a lobby message.
 * @param message The handle.
 * @return The other player of a DM (not the author); 0 for a lobby message and for NULL. */
PLATFORMPP_C_API uint64_t platformpp_message_handle_recipient_id(const platformpp_message_handle* message);
/** The message's text.
 * @param message The handle.
 * @param size Receives the length in bytes; may be NULL.
 * @return NUL-terminated UTF-8 owned by the handle, valid until it is destroyed; "" for NULL. */
PLATFORMPP_C_API const char* platformpp_message_handle_content(const platformpp_message_handle* message,
                                                               size_t* size);
/** Milliseconds since the Unix epoch; edited is 0 unless edited.
 * @param message The handle.
 * @return When the message was sent; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_message_handle_sent_timestamp(const platformpp_message_handle* message);
/** When the message was last edited, in milliseconds since the Unix epoch.
 * @param message The handle.
 * @return The time; 0 unless the message was edited, and for NULL. */
PLATFORMPP_C_API uint64_t
platformpp_message_handle_edited_timestamp(const platformpp_message_handle* message);
/** The game's own pairs, sent with the metadata of a send.
 * @param message The handle.
 * @param count Receives the number of pairs; may be NULL.
 * @return The pairs, valid until the handle is destroyed; NULL (with *count 0) when there are none or for
 * NULL. */
PLATFORMPP_C_API const platformpp_string_pair* platformpp_message_handle_metadata(
    const platformpp_message_handle* message, size_t* count);
/** Pairs the game's backend attached for moderation; cleared when the message is edited.
 * @param message The handle.
 * @param count Receives the number of pairs; may be NULL.
 * @return The pairs, valid until the handle is destroyed; NULL (with *count 0) when there are none or for
 * NULL. */
PLATFORMPP_C_API const platformpp_string_pair* platformpp_message_handle_moderation_metadata(
    const platformpp_message_handle* message, size_t* count);
/** The author's additional name in the lobby, or NULL. Only the game's backend sets it (e.g. a character
 * name).
 * @param message The handle.
 * @param size Receives the length in bytes (0 when there is none); may be NULL.
 * @return NUL-terminated UTF-8 owned by the handle, valid until it is destroyed; NULL when there is none or
 * for NULL. */
PLATFORMPP_C_API const char* platformpp_message_handle_additional_name(
    const platformpp_message_handle* message, size_t* size);
/** The author, borrowed; NULL when unknown.
 * @param message The handle.
 * @return The author, valid until the message handle is destroyed (do not destroy it; clone it with
 * platformpp_user_handle_clone to keep it); NULL when the client does not know the user, or for NULL. */
PLATFORMPP_C_API const platformpp_user_handle* platformpp_message_handle_author(
    const platformpp_message_handle* message);

/** Releases a channel handle.
 * @param channel The handle; NULL is fine. */
PLATFORMPP_C_API void platformpp_channel_handle_destroy(platformpp_channel_handle* channel);
/** The channel's id.
 * @param channel The handle.
 * @return The id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_channel_handle_id(const platformpp_channel_handle* channel);
/** The channel's type.
 * @param channel The handle.
 * @return The type (the platform's value); PLATFORMPP_CHANNEL_TYPE_DM for NULL. */
PLATFORMPP_C_API platformpp_channel_type
platformpp_channel_handle_type(const platformpp_channel_handle* channel);
/** The linked channel's name for a lobby; the other player's display name for a DM.
 * @param channel The handle.
 * @param size Receives the length in bytes; may be NULL.
 * @return NUL-terminated UTF-8 owned by the handle, valid until it is destroyed; "" for NULL. */
PLATFORMPP_C_API const char* platformpp_channel_handle_name(const platformpp_channel_handle* channel,
                                                            size_t* size);
/** Borrowed: `*count` ids. The players of a DM (both); the members of a lobby.
 * @param channel The handle.
 * @param count Receives the number of ids; may be NULL.
 * @return The ids, valid until the handle is destroyed; NULL (with *count 0) when there are none or for
 * NULL. */
PLATFORMPP_C_API const uint64_t* platformpp_channel_handle_recipients(
    const platformpp_channel_handle* channel, size_t* count);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_MESSAGES_H */
