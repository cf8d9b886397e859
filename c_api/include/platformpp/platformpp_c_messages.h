/* platformpp C ABI, messages: Messages: lobby messages and DMs.
 * Part of <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone. */
#ifndef PLATFORMPP_PLATFORMPP_C_MESSAGES_H
#define PLATFORMPP_PLATFORMPP_C_MESSAGES_H

#include <platformpp/platformpp_c_core.h>
#include <platformpp/platformpp_c_lobby.h>
#include <platformpp/platformpp_c_social.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Messages (lobby messages and DMs). */

typedef enum platformpp_channel_type {
  PLATFORMPP_CHANNEL_TYPE_GUILD_TEXT = 0,
  PLATFORMPP_CHANNEL_TYPE_DM = 1,
  PLATFORMPP_CHANNEL_TYPE_GUILD_VOICE = 2,
  PLATFORMPP_CHANNEL_TYPE_GROUP_DM = 3,
  PLATFORMPP_CHANNEL_TYPE_GUILD_CATEGORY = 4,
  PLATFORMPP_CHANNEL_TYPE_LOBBY = 17,
  PLATFORMPP_CHANNEL_TYPE_EPHEMERAL_DM = 18,
  PLATFORMPP_CHANNEL_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_channel_type;

typedef struct platformpp_message_handle platformpp_message_handle;
typedef struct platformpp_channel_handle platformpp_channel_handle;

typedef struct platformpp_user_message_summary {
  uint64_t user_id;
  uint64_t last_message_id;
} platformpp_user_message_summary;

typedef void (*platformpp_message_id_result_fn)(const platformpp_client_result* result, uint64_t message_id,
                                                void* user_data);
/** `messages` (oldest first) and the handles in it are borrowed for the callback. */
typedef void (*platformpp_messages_fn)(const platformpp_client_result* result,
                                       const platformpp_message_handle* const* messages, size_t count,
                                       void* user_data);
typedef void (*platformpp_user_message_summaries_fn)(const platformpp_client_result* result,
                                                     const platformpp_user_message_summary* summaries,
                                                     size_t count, void* user_data);
typedef void (*platformpp_message_deleted_fn)(uint64_t message_id, uint64_t channel_id, void* user_data);

/** SendLobbyMessage, or ...WithMetadata when `metadata` is not NULL. Nothing is lost: see Client. */
PLATFORMPP_C_API void platformpp_client_send_lobby_message(
    platformpp_client* client, uint64_t lobby_id, const char* content, size_t content_size,
    const platformpp_string_pair* metadata, size_t metadata_count, platformpp_message_id_result_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_send_user_message(
    platformpp_client* client, uint64_t recipient_id, const char* content, size_t content_size,
    const platformpp_string_pair* metadata, size_t metadata_count, platformpp_message_id_result_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_edit_user_message(platformpp_client* client, uint64_t recipient_id,
                                                          uint64_t message_id, const char* content,
                                                          size_t content_size, platformpp_result_fn callback,
                                                          void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_delete_user_message(platformpp_client* client, uint64_t recipient_id,
                                                            uint64_t message_id,
                                                            platformpp_result_fn callback, void* user_data,
                                                            platformpp_user_data_free_fn user_data_free);
/** NULL when the client does not hold the message. Destroy it. */
PLATFORMPP_C_API platformpp_message_handle* platformpp_client_get_message_handle(
    const platformpp_client* client, uint64_t message_id);
/** NULL when the client does not know the channel. Destroy it. */
PLATFORMPP_C_API platformpp_channel_handle* platformpp_client_get_channel_handle(
    const platformpp_client* client, uint64_t channel_id);
PLATFORMPP_C_API void platformpp_client_get_lobby_messages_with_limit(
    platformpp_client* client, uint64_t lobby_id, int32_t limit, platformpp_messages_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_get_user_messages_with_limit(
    platformpp_client* client, uint64_t recipient_id, int32_t limit, platformpp_messages_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_get_user_message_summaries(
    platformpp_client* client, platformpp_user_message_summaries_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Message created/updated: `callback` gets the message id. */
PLATFORMPP_C_API void platformpp_client_set_message_created_callback(
    platformpp_client* client, platformpp_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_message_updated_callback(
    platformpp_client* client, platformpp_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_message_deleted_callback(
    platformpp_client* client, platformpp_message_deleted_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_showing_chat(platformpp_client* client, int32_t showing_chat);

PLATFORMPP_C_API platformpp_message_handle* platformpp_message_handle_clone(
    const platformpp_message_handle* message);
PLATFORMPP_C_API void platformpp_message_handle_destroy(platformpp_message_handle* message);
PLATFORMPP_C_API uint64_t platformpp_message_handle_id(const platformpp_message_handle* message);
PLATFORMPP_C_API uint64_t platformpp_message_handle_author_id(const platformpp_message_handle* message);
PLATFORMPP_C_API uint64_t platformpp_message_handle_channel_id(const platformpp_message_handle* message);
/** 0 for a DM. */
PLATFORMPP_C_API uint64_t platformpp_message_handle_lobby_id(const platformpp_message_handle* message);
/** 0 for a lobby message. */
PLATFORMPP_C_API uint64_t platformpp_message_handle_recipient_id(const platformpp_message_handle* message);
PLATFORMPP_C_API const char* platformpp_message_handle_content(const platformpp_message_handle* message,
                                                               size_t* size);
/** Milliseconds since the Unix epoch; edited is 0 unless edited. */
PLATFORMPP_C_API uint64_t platformpp_message_handle_sent_timestamp(const platformpp_message_handle* message);
PLATFORMPP_C_API uint64_t
platformpp_message_handle_edited_timestamp(const platformpp_message_handle* message);
PLATFORMPP_C_API const platformpp_string_pair* platformpp_message_handle_metadata(
    const platformpp_message_handle* message, size_t* count);
PLATFORMPP_C_API const platformpp_string_pair* platformpp_message_handle_moderation_metadata(
    const platformpp_message_handle* message, size_t* count);
/** The author's additional name in the lobby, or NULL. */
PLATFORMPP_C_API const char* platformpp_message_handle_additional_name(
    const platformpp_message_handle* message, size_t* size);
/** The author, borrowed; NULL when unknown. */
PLATFORMPP_C_API const platformpp_user_handle* platformpp_message_handle_author(
    const platformpp_message_handle* message);

PLATFORMPP_C_API void platformpp_channel_handle_destroy(platformpp_channel_handle* channel);
PLATFORMPP_C_API uint64_t platformpp_channel_handle_id(const platformpp_channel_handle* channel);
PLATFORMPP_C_API platformpp_channel_type
platformpp_channel_handle_type(const platformpp_channel_handle* channel);
PLATFORMPP_C_API const char* platformpp_channel_handle_name(const platformpp_channel_handle* channel,
                                                            size_t* size);
/** Borrowed: `*count` ids. */
PLATFORMPP_C_API const uint64_t* platformpp_channel_handle_recipients(
    const platformpp_channel_handle* channel, size_t* count);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_MESSAGES_H */
