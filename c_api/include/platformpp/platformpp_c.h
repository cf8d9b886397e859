/* platformpp C ABI: the SDK for game engines that bind C (Unity through P/Invoke, Unreal, others).
 *
 * Conventions
 * - Every symbol starts with platformpp_. Handles are opaque pointers with create/destroy pairs.
 * - Option structs start with int32_t api_version (set it with the matching _init function) so they can grow.
 * - Enums are 32-bit. Structs are blittable: booleans in structs are int32_t, strings are pointer + size.
 * - Strings in: UTF-8 pointer + size in bytes, borrowed for the duration of the call. NULL with size 0 is "".
 * - Strings out: owned by the library, NUL-terminated, valid until the callback returns (or until the owning
 *   handle is released). Anything the caller must free says so and is freed with platformpp_free.
 * - Callbacks run only inside platformpp_client_run_callbacks, on the thread that calls it (the one
 * exception: the audio callbacks of platformpp_client_start_call_with_audio_callbacks, on the voice thread).
 * Every callback takes user_data last; every registration takes (callback, user_data, user_data_free), and
 * user_data_free (may be NULL) runs exactly once when the library no longer needs user_data: after an
 * operation's callback has run (including when it ran with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED), or when
 * the client is destroyed (for voice, see that section).
 * - platformpp_client_destroy completes every pending operation with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED
 * before it returns; nothing is called after it returns. It may be called from inside a callback.
 * - No C++ exception reaches C. One that stops a call inside the library (out of memory, a string size no
 * string can hold, ...) is logged at ERROR through the client's log callbacks and log file, naming the
 * function and the exception. A call that starts an operation still completes it exactly once: its callback
 * runs with PLATFORMPP_ERROR_TYPE_ABORTED inside the next platformpp_client_run_callbacks (with
 * CLIENT_DESTROYED inside platformpp_client_destroy), unless the operation had completed already; only when
 * not even that can be queued (memory exhausted) does the callback run before the call returns. Other calls
 * return their failure value (NULL, 0, ...). Functions of handles with no client report through their return
 * value: NULL from create and clone functions, "" where documented, and an activity whose setter failed is
 * refused by platformpp_client_update_rich_presence with VALIDATION_ERROR naming the setter.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_H
#define PLATFORMPP_PLATFORMPP_C_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#if defined(PLATFORMPP_C_BUILDING)
#define PLATFORMPP_C_API __declspec(dllexport)
#else
#define PLATFORMPP_C_API __declspec(dllimport)
#endif
#else
#define PLATFORMPP_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Version of the option structs below; pass it in api_version. */
#define PLATFORMPP_C_API_VERSION 1

typedef struct platformpp_client platformpp_client;
typedef struct platformpp_client_result platformpp_client_result;
typedef struct platformpp_authorization_code_verifier platformpp_authorization_code_verifier;

typedef enum platformpp_error_type {
  PLATFORMPP_ERROR_TYPE_NONE = 0,
  PLATFORMPP_ERROR_TYPE_NETWORK_ERROR = 1,
  PLATFORMPP_ERROR_TYPE_HTTP_ERROR = 2,
  PLATFORMPP_ERROR_TYPE_CLIENT_NOT_READY = 3,
  PLATFORMPP_ERROR_TYPE_DISABLED = 4,
  PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED = 5,
  PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR = 6,
  PLATFORMPP_ERROR_TYPE_ABORTED = 7,
  PLATFORMPP_ERROR_TYPE_AUTHORIZATION_FAILED = 8,
  PLATFORMPP_ERROR_TYPE_RPC_ERROR = 9,
  PLATFORMPP_ERROR_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_error_type;

typedef enum platformpp_logging_severity {
  PLATFORMPP_LOGGING_SEVERITY_VERBOSE = 1,
  PLATFORMPP_LOGGING_SEVERITY_INFO = 2,
  PLATFORMPP_LOGGING_SEVERITY_WARNING = 3,
  PLATFORMPP_LOGGING_SEVERITY_ERROR = 4,
  PLATFORMPP_LOGGING_SEVERITY_NONE = 5,
  PLATFORMPP_LOGGING_SEVERITY_FORCE_INT32 = 0x7FFFFFFF
} platformpp_logging_severity;

typedef enum platformpp_authorization_token_type {
  PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_USER = 0,
  PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER = 1,
  PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_authorization_token_type;

typedef enum platformpp_authentication_code_challenge_method {
  PLATFORMPP_AUTHENTICATION_CODE_CHALLENGE_METHOD_S256 = 0,
  PLATFORMPP_AUTHENTICATION_CODE_CHALLENGE_METHOD_FORCE_INT32 = 0x7FFFFFFF
} platformpp_authentication_code_challenge_method;

typedef enum platformpp_integration_type {
  PLATFORMPP_INTEGRATION_TYPE_GUILD_INSTALL = 0,
  PLATFORMPP_INTEGRATION_TYPE_USER_INSTALL = 1,
  PLATFORMPP_INTEGRATION_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_integration_type;

/** Identity providers for provisional accounts. */
typedef enum platformpp_authentication_external_auth_type {
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_OIDC = 0,
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_EPIC_ONLINE_SERVICES_ACCESS_TOKEN = 1,
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_EPIC_ONLINE_SERVICES_ID_TOKEN = 2,
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_STEAM_SESSION_TICKET = 3,
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_UNITY_SERVICES_ID_TOKEN = 4,
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_DISCORD_BOT_ISSUED_ACCESS_TOKEN = 5,
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_APPLE_ID_TOKEN = 6,
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_PLAYSTATION_NETWORK_ID_TOKEN = 7,
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_authentication_external_auth_type;

/** A borrowed UTF-8 string. */
typedef struct platformpp_string {
  const char* ptr;
  size_t size;
} platformpp_string;

/** A borrowed key-value pair of strings (lobby, member and message metadata). */
typedef struct platformpp_string_pair {
  platformpp_string key;
  platformpp_string value;
} platformpp_string_pair;

/** The realtime connection's status (values of the platform's Social SDK). */
typedef enum platformpp_client_status {
  PLATFORMPP_CLIENT_STATUS_DISCONNECTED = 0,
  PLATFORMPP_CLIENT_STATUS_CONNECTING = 1,
  PLATFORMPP_CLIENT_STATUS_CONNECTED = 2,
  PLATFORMPP_CLIENT_STATUS_READY = 3,
  PLATFORMPP_CLIENT_STATUS_RECONNECTING = 4,
  PLATFORMPP_CLIENT_STATUS_DISCONNECTING = 5,
  PLATFORMPP_CLIENT_STATUS_HTTP_WAIT = 6,
  PLATFORMPP_CLIENT_STATUS_FORCE_INT32 = 0x7FFFFFFF
} platformpp_client_status;

typedef enum platformpp_client_error {
  PLATFORMPP_CLIENT_ERROR_NONE = 0,
  PLATFORMPP_CLIENT_ERROR_CONNECTION_FAILED = 1,
  PLATFORMPP_CLIENT_ERROR_UNEXPECTED_CLOSE = 2,
  PLATFORMPP_CLIENT_ERROR_CONNECTION_CANCELED = 3,
  PLATFORMPP_CLIENT_ERROR_FORCE_INT32 = 0x7FFFFFFF
} platformpp_client_error;

typedef struct platformpp_client_options {
  int32_t api_version;             /**< PLATFORMPP_C_API_VERSION */
  platformpp_string api_base;      /**< empty: the platform's API */
  platformpp_string ca_file;       /**< PEM file of extra CAs to trust, e.g. the emulator's ca_file */
  int32_t use_system_certificates; /**< non-zero (default): also trust the system's store */
  platformpp_string web_base;      /**< where the authorize page lives; empty: the platform's */
  int32_t authorize_timeout_ms;    /**< how long authorize waits for the browser; 0: 5 minutes */
  platformpp_string ipc_name;      /**< the desktop client's IPC socket prefix; empty: "discord" */
  platformpp_string ipc_directory; /**< where its socket is; empty: $XDG_RUNTIME_DIR, $TMPDIR, ..., /tmp */
  int32_t ipc_enabled;             /**< non-zero (default): talk to the local desktop client */
} platformpp_client_options;

typedef void (*platformpp_user_data_free_fn)(void* user_data);
typedef void (*platformpp_log_fn)(const char* message, size_t message_size,
                                  platformpp_logging_severity severity, void* user_data);
typedef void (*platformpp_fetch_current_user_fn)(const platformpp_client_result* result, uint64_t user_id,
                                                 const char* username, size_t username_size, void* user_data);
/** Completion of an operation that returns nothing but its result. */
typedef void (*platformpp_result_fn)(const platformpp_client_result* result, void* user_data);
/** Completion of a token exchange. On failure the strings are "" (never NULL), token_type is
 * PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER and expires_in (seconds) is 0. */
typedef void (*platformpp_token_exchange_fn)(const platformpp_client_result* result, const char* access_token,
                                             size_t access_token_size, const char* refresh_token,
                                             size_t refresh_token_size,
                                             platformpp_authorization_token_type token_type,
                                             int32_t expires_in, const char* scopes, size_t scopes_size,
                                             void* user_data);

/* Library */
PLATFORMPP_C_API void platformpp_version(int32_t* major, int32_t* minor, int32_t* patch);
/** Static string, e.g. "0.1.0". */
PLATFORMPP_C_API const char* platformpp_version_string(void);
/** Frees memory the library handed over (documented per function). NULL is fine. */
PLATFORMPP_C_API void platformpp_free(void* ptr);

/* Client */
PLATFORMPP_C_API void platformpp_client_options_init(platformpp_client_options* options);
/** NULL options: defaults. Returns NULL when options->api_version is unknown or the client cannot be created.
 */
PLATFORMPP_C_API platformpp_client* platformpp_client_create(const platformpp_client_options* options);
PLATFORMPP_C_API void platformpp_client_destroy(platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_run_callbacks(platformpp_client* client);
/** Blocks until a callback is ready for run_callbacks or timeout_ms pass; non-zero when one is ready. For
 * bots and tools with nothing else to do; runs no callback itself. NULL client: 0 at once. */
PLATFORMPP_C_API int32_t platformpp_client_wait_for_callbacks(platformpp_client* client, int32_t timeout_ms);
PLATFORMPP_C_API void platformpp_client_set_application_id(platformpp_client* client,
                                                           uint64_t application_id);
PLATFORMPP_C_API uint64_t platformpp_client_get_application_id(const platformpp_client* client);
/** Milliseconds, at least 1 (default 30000). */
PLATFORMPP_C_API void platformpp_client_set_http_request_timeout(platformpp_client* client,
                                                                 int32_t milliseconds);
PLATFORMPP_C_API int32_t platformpp_client_get_http_request_timeout(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_add_log_callback(platformpp_client* client,
                                                         platformpp_log_fn callback,
                                                         platformpp_logging_severity min_severity,
                                                         void* user_data,
                                                         platformpp_user_data_free_fn user_data_free);
/** Returns non-zero on success. An empty path stops file logging. */
PLATFORMPP_C_API int32_t platformpp_client_set_log_dir(platformpp_client* client, const char* path,
                                                       size_t path_size,
                                                       platformpp_logging_severity min_severity);
PLATFORMPP_C_API void platformpp_client_fetch_current_user(platformpp_client* client,
                                                           platformpp_authorization_token_type token_type,
                                                           const char* token, size_t token_size,
                                                           platformpp_fetch_current_user_fn callback,
                                                           void* user_data,
                                                           platformpp_user_data_free_fn user_data_free);

/* The realtime connection (the Gateway). */
/** Called inside run_callbacks for each status change, in order. error and error_detail explain a
 * Disconnected that was not asked for: CONNECTION_FAILED with 401 (no token: call update_token first; or the
 * token was refused), UNEXPECTED_CLOSE with the close code that forbids reconnecting (4004, 4010-4014);
 * otherwise NONE, 0. */
typedef void (*platformpp_status_changed_fn)(platformpp_client_status status, platformpp_client_error error,
                                             int32_t error_detail, void* user_data);
/** Connects with the token given to update_token; reconnects and resumes by itself until disconnect. */
PLATFORMPP_C_API void platformpp_client_connect(platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_disconnect(platformpp_client* client);
/** NULL client: DISCONNECTED. */
PLATFORMPP_C_API platformpp_client_status platformpp_client_get_status(const platformpp_client* client);
/** Replaces any earlier callback; the earlier user_data_free runs then (or when the client is destroyed). A
 * NULL callback removes it. */
PLATFORMPP_C_API void platformpp_client_set_status_changed_callback(
    platformpp_client* client, platformpp_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);

/* Authorization (OAuth2 with PKCE, public client: no secret).
 * Every call below that takes a callback: a NULL client frees user_data at once and calls nothing; a NULL
 * callback is allowed. Otherwise the callback runs exactly once, inside platformpp_client_run_callbacks (or
 * inside platformpp_client_destroy with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED), also for invalid input
 * (PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR), and user_data_free runs once after it. application_id 0 means the
 * value of platformpp_client_set_application_id. */

/** A fresh PKCE pair (S256); NULL when no secure randomness is available. Release it with
 * platformpp_authorization_code_verifier_destroy. */
PLATFORMPP_C_API platformpp_authorization_code_verifier* platformpp_client_create_authorization_code_verifier(
    void);
PLATFORMPP_C_API void platformpp_authorization_code_verifier_destroy(
    platformpp_authorization_code_verifier* verifier);
/** The secret verifier (43 characters) to pass to platformpp_client_get_token. Owned by the handle; *size (if
 * not NULL) receives its length. NULL handle: "". */
PLATFORMPP_C_API const char* platformpp_authorization_code_verifier_verifier(
    const platformpp_authorization_code_verifier* verifier, size_t* size);
/** The S256 challenge (base64url of SHA-256 of the verifier) to send with the authorize request. Owned by the
 * handle; *size (if not NULL) receives its length. NULL handle: "". */
PLATFORMPP_C_API const char* platformpp_authorization_code_verifier_challenge(
    const platformpp_authorization_code_verifier* verifier, size_t* size);
PLATFORMPP_C_API platformpp_authentication_code_challenge_method
platformpp_authorization_code_verifier_challenge_method(
    const platformpp_authorization_code_verifier* verifier);

/** Exchanges an authorization code for tokens. Does not change the client's own token: pass the result to
 * platformpp_client_update_token. */
PLATFORMPP_C_API void platformpp_client_get_token(platformpp_client* client, uint64_t application_id,
                                                  const char* code, size_t code_size,
                                                  const char* code_verifier, size_t code_verifier_size,
                                                  const char* redirect_uri, size_t redirect_uri_size,
                                                  platformpp_token_exchange_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free);
/** Exchanges a refresh token for a new pair; both old tokens stop working. An "invalid_grant" answer ends as
 * PLATFORMPP_ERROR_TYPE_AUTHORIZATION_FAILED (see platformpp_client_result_oauth_error) and the client drops
 * its token. */
PLATFORMPP_C_API void platformpp_client_refresh_token(platformpp_client* client, uint64_t application_id,
                                                      const char* refresh_token, size_t refresh_token_size,
                                                      platformpp_token_exchange_fn callback, void* user_data,
                                                      platformpp_user_data_free_fn user_data_free);
/** Completion of platformpp_client_exchange_child_token: as platformpp_token_exchange_fn, without a refresh
 * token. */
typedef void (*platformpp_child_token_fn)(const platformpp_client_result* result, const char* access_token,
                                          size_t access_token_size,
                                          platformpp_authorization_token_type token_type, int32_t expires_in,
                                          const char* scopes, size_t scopes_size, void* user_data);
/** Publisher-level linking: exchanges an access token of the parent application for one of
 * child_application_id, for the same player and scopes. */
PLATFORMPP_C_API void platformpp_client_exchange_child_token(
    platformpp_client* client, const char* parent_application_token, size_t parent_application_token_size,
    uint64_t child_application_id, platformpp_child_token_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Revokes the whole authorization the token belongs to (access and refresh tokens). */
PLATFORMPP_C_API void platformpp_client_revoke_token(platformpp_client* client, uint64_t application_id,
                                                     const char* token, size_t token_size,
                                                     platformpp_result_fn callback, void* user_data,
                                                     platformpp_user_data_free_fn user_data_free);
/** Sets the token the client uses from now on (effective before this returns; the callback confirms). */
PLATFORMPP_C_API void platformpp_client_update_token(platformpp_client* client,
                                                     platformpp_authorization_token_type token_type,
                                                     const char* token, size_t token_size,
                                                     platformpp_result_fn callback, void* user_data,
                                                     platformpp_user_data_free_fn user_data_free);
/** A token for a provisional account: the platform identity of the player's account with the game's own
 * identity provider (external_auth_token, borrowed for the call). An OIDC answer may carry a refresh token;
 * platformpp_client_refresh_token refuses it with PLATFORMPP_ERROR_TYPE_AUTHORIZATION_FAILED (get a new
 * provisional token instead). An external_auth_type outside the enum is a validation error. */
PLATFORMPP_C_API void platformpp_client_get_provisional_token(
    platformpp_client* client, uint64_t application_id,
    platformpp_authentication_external_auth_type external_auth_type, const char* external_auth_token,
    size_t external_auth_token_size, platformpp_token_exchange_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** platformpp_client_get_token that also merges the provisional account of external_auth_token into the
 * consenting platform account. While that account is banned: PLATFORMPP_ERROR_TYPE_AUTHORIZATION_FAILED with
 * platformpp_client_result_error_code 530017. */
PLATFORMPP_C_API void platformpp_client_get_token_from_provisional_merge(
    platformpp_client* client, uint64_t application_id, const char* code, size_t code_size,
    const char* code_verifier, size_t code_verifier_size, const char* redirect_uri, size_t redirect_uri_size,
    platformpp_authentication_external_auth_type external_auth_type, const char* external_auth_token,
    size_t external_auth_token_size, platformpp_token_exchange_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Severs a merged account: the platform account keeps its data, the external identity gets a new provisional
 * account, and the link's tokens (the client's own included) stop working. */
PLATFORMPP_C_API void platformpp_client_unmerge_into_provisional_account(
    platformpp_client* client, uint64_t application_id,
    platformpp_authentication_external_auth_type external_auth_type, const char* external_auth_token,
    size_t external_auth_token_size, platformpp_result_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Sets the display name (1 to 32 characters once trimmed) of the provisional account whose token the client
 * holds. */
PLATFORMPP_C_API void platformpp_client_update_provisional_account_display_name(
    platformpp_client* client, const char* name, size_t name_size, platformpp_result_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
/** Non-zero once update_token gave the client a token (and it was not revoked or refused since). NULL: 0. */
PLATFORMPP_C_API int32_t platformpp_client_is_authenticated(const platformpp_client* client);
/** Arguments of platformpp_client_authorize; set api_version with platformpp_authorization_args_init. */
typedef struct platformpp_authorization_args {
  int32_t api_version;                   /**< PLATFORMPP_C_API_VERSION */
  uint64_t client_id;                    /**< 0: the client's application id */
  platformpp_string scopes;              /**< required, space-separated */
  platformpp_string state;               /**< empty: a secure random value, checked on return */
  platformpp_string nonce;               /**< empty: none */
  platformpp_string code_challenge;      /**< S256 challenge of a verifier; empty: none */
  int32_t integration_type;              /**< -1 (default): unset, else a platformpp_integration_type */
  platformpp_string custom_scheme_param; /**< mobile redirect scheme; empty: none */
} platformpp_authorization_args;

typedef void (*platformpp_authorization_fn)(const platformpp_client_result* result, const char* code,
                                            size_t code_size, const char* redirect_uri,
                                            size_t redirect_uri_size, void* user_data);
/** Opens `url` in a browser; returns non-zero when it could. Runs inside run_callbacks. */
typedef int32_t (*platformpp_url_opener_fn)(const char* url, size_t url_size, void* user_data);

PLATFORMPP_C_API void platformpp_authorization_args_init(platformpp_authorization_args* args);
/** The browser flow: the authorize page opens (system browser, or the opener set below) and the code comes
 * back to a listener on 127.0.0.1. The callback gets the code and the redirect URI to pass to get_token. A
 * state mismatch, a refusal (oauth error "access_denied") or a timeout is AUTHORIZATION_FAILED; a new
 * authorize or abort_authorize ends a pending one with ABORTED. NULL args or an unknown api_version:
 * VALIDATION_ERROR. */
PLATFORMPP_C_API void platformpp_client_authorize(platformpp_client* client,
                                                  const platformpp_authorization_args* args,
                                                  platformpp_authorization_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_abort_authorize(platformpp_client* client);
/** Replaces how authorize opens its page. NULL opener: the system browser again. The previous user_data_free
 * runs then (or when the client is destroyed). */
PLATFORMPP_C_API void platformpp_client_set_url_opener(platformpp_client* client,
                                                       platformpp_url_opener_fn opener, void* user_data,
                                                       platformpp_user_data_free_fn user_data_free);

typedef void (*platformpp_event_fn)(void* user_data);
/** Called once per token, inside run_callbacks, when the token set by update_token is 5 minutes from
 * expiring. Replaces any earlier callback; the earlier user_data_free runs then (or when the client is
 * destroyed). */
PLATFORMPP_C_API void platformpp_client_set_token_expiration_callback(
    platformpp_client* client, platformpp_event_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Account linking started from the desktop client: the callback runs inside run_callbacks each time the
 * player asks the desktop client to link this game (time to call platformpp_client_authorize). Renewed
 * whenever the desktop client comes back. Replaces an earlier callback; the earlier user_data_free runs then
 * (or at remove, or when the client is destroyed). */
PLATFORMPP_C_API void platformpp_client_register_authorize_request_callback(
    platformpp_client* client, platformpp_event_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_remove_authorize_request_callback(platformpp_client* client);
/** Static, NUL-terminated strings (never free them): space-separated scopes for the authorize request. */
PLATFORMPP_C_API const char* platformpp_client_get_default_communication_scopes(void);
PLATFORMPP_C_API const char* platformpp_client_get_default_presence_scopes(void);

/* Results: valid for the callback that receives them; clone to keep one longer. */
PLATFORMPP_C_API platformpp_error_type platformpp_client_result_type(const platformpp_client_result* result);
PLATFORMPP_C_API int32_t platformpp_client_result_successful(const platformpp_client_result* result);
PLATFORMPP_C_API int32_t platformpp_client_result_status(const platformpp_client_result* result);
PLATFORMPP_C_API int32_t platformpp_client_result_error_code(const platformpp_client_result* result);
/** The message; *size (if not NULL) receives its length. Valid as long as the result. */
PLATFORMPP_C_API const char* platformpp_client_result_error(const platformpp_client_result* result,
                                                            size_t* size);
/** The OAuth2 error of a token endpoint (e.g. "invalid_grant"), "" when none; *size (if not NULL) receives
 * its length. Valid as long as the result. */
PLATFORMPP_C_API const char* platformpp_client_result_oauth_error(const platformpp_client_result* result,
                                                                  size_t* size);
PLATFORMPP_C_API int32_t platformpp_client_result_retryable(const platformpp_client_result* result);
PLATFORMPP_C_API float platformpp_client_result_retry_after(const platformpp_client_result* result);
/** A one-line description; free it with platformpp_free. NULL when out of memory. */
PLATFORMPP_C_API char* platformpp_client_result_to_string(const platformpp_client_result* result);
/** A copy that outlives the callback; release it with platformpp_client_result_destroy. */
PLATFORMPP_C_API platformpp_client_result* platformpp_client_result_clone(
    const platformpp_client_result* result);
PLATFORMPP_C_API void platformpp_client_result_destroy(platformpp_client_result* result);

/** Field errors of a VALIDATION_ERROR (or of the platform's nested `errors`): count, then each one's JSON
 * path (e.g. "activity.state") and message. Valid as long as the result; out of range: "". */
PLATFORMPP_C_API size_t platformpp_client_result_field_error_count(const platformpp_client_result* result);
PLATFORMPP_C_API const char* platformpp_client_result_field_error_path(const platformpp_client_result* result,
                                                                       size_t index, size_t* size);
PLATFORMPP_C_API const char* platformpp_client_result_field_error_message(
    const platformpp_client_result* result, size_t index, size_t* size);

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

/* Voice calls in lobbies the player is a member of (Opus at 48 kHz stereo in 20 ms frames over UDP,
 * encrypted). Without a sound device, or with PLATFORMPP_AUDIO=null in the environment, the null device is
 * used: silence in, nothing out, in real time.
 *
 * Threads: every callback below runs inside platformpp_client_run_callbacks, except the two audio callbacks,
 * which run on the client's voice thread (see platformpp_client_start_call_with_audio_callbacks).
 * user_data_free: the library may drop a voice callback on one of its own threads; its user_data_free then
 * runs on the caller's thread all the same, inside a later platformpp_client_run_callbacks (after the
 * callbacks it runs) or inside platformpp_client_destroy, exactly once. */

typedef enum platformpp_call_status {
  PLATFORMPP_CALL_STATUS_DISCONNECTED = 0,
  PLATFORMPP_CALL_STATUS_JOINING = 1,
  PLATFORMPP_CALL_STATUS_CONNECTING = 2,
  PLATFORMPP_CALL_STATUS_SIGNALING_CONNECTED = 3,
  PLATFORMPP_CALL_STATUS_CONNECTED = 4,
  PLATFORMPP_CALL_STATUS_RECONNECTING = 5,
  PLATFORMPP_CALL_STATUS_DISCONNECTING = 6,
  PLATFORMPP_CALL_STATUS_FORCE_INT32 = 0x7FFFFFFF
} platformpp_call_status;

typedef enum platformpp_call_error {
  PLATFORMPP_CALL_ERROR_NONE = 0,
  PLATFORMPP_CALL_ERROR_SIGNALING_CONNECTION_FAILED = 1,
  PLATFORMPP_CALL_ERROR_SIGNALING_UNEXPECTED_CLOSE = 2,
  PLATFORMPP_CALL_ERROR_VOICE_CONNECTION_FAILED = 3,
  PLATFORMPP_CALL_ERROR_JOIN_TIMEOUT = 4,
  PLATFORMPP_CALL_ERROR_FORBIDDEN = 5,
  PLATFORMPP_CALL_ERROR_FORCE_INT32 = 0x7FFFFFFF
} platformpp_call_error;

/** How the microphone decides what to send: voice activity detection or push-to-talk. */
typedef enum platformpp_audio_mode_type {
  PLATFORMPP_AUDIO_MODE_TYPE_UNINIT = 0,
  PLATFORMPP_AUDIO_MODE_TYPE_VAD = 1,
  PLATFORMPP_AUDIO_MODE_TYPE_PTT = 2,
  PLATFORMPP_AUDIO_MODE_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_audio_mode_type;

/** The client's threads, for platformpp_client_set_thread_priority. */
typedef enum platformpp_client_thread {
  PLATFORMPP_CLIENT_THREAD_CLIENT = 0,
  PLATFORMPP_CLIENT_THREAD_VOICE = 1,
  PLATFORMPP_CLIENT_THREAD_NETWORK = 2,
  PLATFORMPP_CLIENT_THREAD_FORCE_INT32 = 0x7FFFFFFF
} platformpp_client_thread;

/** A microphone or speaker. The strings are borrowed for the callback that hands it out. Without a sound
 * device (or with PLATFORMPP_AUDIO=null) the lists hold the null devices, which are the defaults. */
typedef struct platformpp_audio_device {
  const char* id;
  size_t id_size;
  const char* name;
  size_t name_size;
  int32_t is_default; /**< non-zero for the system's default device */
} platformpp_audio_device;

/** One voice call of the player, in one lobby: a handle the caller owns and destroys
 * (platformpp_call_destroy). Several handles may refer to the same call. Once the client is destroyed, only
 * platformpp_call_destroy may be called on its call handles. */
typedef struct platformpp_call platformpp_call;

/** Voice thread, once per 20 ms frame per speaking participant, with the decoded samples (interleaved, 48000
 * Hz, 2 channels) before the library mixes them. Set *out_should_mute to non-zero to keep the library from
 * playing them; the samples may be read or changed in place. Keep it short and lock-free: it is on the audio
 * path. */
typedef void (*platformpp_user_audio_received_fn)(uint64_t user_id, int16_t* data,
                                                  uint64_t samples_per_channel, int32_t sample_rate,
                                                  uint64_t channels, int32_t* out_should_mute,
                                                  void* user_data);
/** Voice thread, once per 20 ms microphone frame, before processing and sending: what it leaves in `data`
 * (interleaved) is what is sent. The same budget as above. */
typedef void (*platformpp_user_audio_captured_fn)(int16_t* data, uint64_t samples_per_channel,
                                                  int32_t sample_rate, uint64_t channels, void* user_data);
/** A call's status change, in order. error and error_detail (a voice gateway close code, or 0) explain a
 * DISCONNECTED that was not asked for. */
typedef void (*platformpp_call_status_changed_fn)(platformpp_call_status status, platformpp_call_error error,
                                                  int32_t error_detail, void* user_data);
/** A participant joined (added non-zero) or left the call. */
typedef void (*platformpp_call_participant_changed_fn)(uint64_t user_id, int32_t added, void* user_data);
/** Someone (the player included) started (non-zero) or stopped sending sound. */
typedef void (*platformpp_call_speaking_status_changed_fn)(uint64_t user_id, int32_t is_playing_sound,
                                                           void* user_data);
/** `devices` (borrowed for the callback) holds `count` devices. */
typedef void (*platformpp_audio_devices_fn)(const platformpp_audio_device* devices, size_t count,
                                            void* user_data);
/** `device` is borrowed for the callback; its strings are "" when there is no such device. */
typedef void (*platformpp_audio_device_fn)(const platformpp_audio_device* device, void* user_data);
typedef void (*platformpp_device_change_fn)(const platformpp_audio_device* input_devices, size_t input_count,
                                            const platformpp_audio_device* output_devices,
                                            size_t output_count, void* user_data);
/** input_detected: 0 once the microphone stayed below the threshold for a while, non-zero when sound is back.
 */
typedef void (*platformpp_no_audio_input_fn)(int32_t input_detected, void* user_data);
/** The call's media became end-to-end encrypted (e2ee_active non-zero) or stopped being so. */
typedef void (*platformpp_call_e2ee_status_changed_fn)(int32_t e2ee_active, void* user_data);
/** A verification code: `code` (NUL-terminated digits, borrowed for the callback) of `code_size` digits, ""
 * with 0 when there is none. */
typedef void (*platformpp_call_verification_code_fn)(const char* code, size_t code_size, void* user_data);

/** Joins the call of a lobby the player is a member of. NULL when the player is already in that call (use
 * platformpp_client_get_call), when the lobby is unknown to the client, before the client is READY, or for a
 * NULL client. Destroy the handle; that does not end the call (platformpp_client_end_call does). */
PLATFORMPP_C_API platformpp_call* platformpp_client_start_call(platformpp_client* client, uint64_t lobby_id);
/** The same, with the two audio callbacks (either may be NULL), which share `user_data`. They run on the
 * client's voice thread, not inside run_callbacks: the one exception to the rule above. user_data_free runs
 * once, on the thread that calls run_callbacks (inside a later platformpp_client_run_callbacks) or inside
 * platformpp_client_destroy, after the voice thread dropped both callbacks for good: when this returns NULL;
 * once the call's media is closed (after end_call or end_calls, or when the call reached DISCONNECTED by
 * itself); at the latest when the client is destroyed. A NULL client frees user_data at once. */
PLATFORMPP_C_API platformpp_call* platformpp_client_start_call_with_audio_callbacks(
    platformpp_client* client, uint64_t lobby_id, platformpp_user_audio_received_fn received,
    platformpp_user_audio_captured_fn captured, void* user_data, platformpp_user_data_free_fn user_data_free);
/** Leaves the call of that lobby: `callback` (may be NULL) runs once inside run_callbacks when the platform
 * was told, or at the next run_callbacks when there is no such call; user_data_free runs once after it (also
 * when the client is destroyed first and the callback never runs). NULL client: user_data is freed at once.
 */
PLATFORMPP_C_API void platformpp_client_end_call(platformpp_client* client, uint64_t channel_id,
                                                 platformpp_notify_fn callback, void* user_data,
                                                 platformpp_user_data_free_fn user_data_free);
/** Leaves every call; `callback` runs once when the platform was told of all of them. As end_call. */
PLATFORMPP_C_API void platformpp_client_end_calls(platformpp_client* client, platformpp_notify_fn callback,
                                                  void* user_data,
                                                  platformpp_user_data_free_fn user_data_free);
/** The player's call in that lobby (a new handle to destroy), or NULL. */
PLATFORMPP_C_API platformpp_call* platformpp_client_get_call(platformpp_client* client, uint64_t channel_id);
/** Writes up to `capacity` new handles (each to destroy) to `calls` (may be NULL with 0) and returns how many
 * calls there are. When a handle cannot be made, its slot is NULL. */
PLATFORMPP_C_API size_t platformpp_client_get_calls(platformpp_client* client, platformpp_call** calls,
                                                    size_t capacity);

PLATFORMPP_C_API void platformpp_call_destroy(platformpp_call* call);
/** Another handle to the same call, or NULL. */
PLATFORMPP_C_API platformpp_call* platformpp_call_clone(const platformpp_call* call);
/** The lobby's id (lobby calls use it as their channel). */
PLATFORMPP_C_API uint64_t platformpp_call_get_channel_id(const platformpp_call* call);
/** 0: lobby calls belong to no guild. */
PLATFORMPP_C_API uint64_t platformpp_call_get_guild_id(const platformpp_call* call);
/** NULL call: DISCONNECTED. */
PLATFORMPP_C_API platformpp_call_status platformpp_call_get_status(const platformpp_call* call);
/** The users in the call now, the player included once joined: writes up to `capacity` ids to `ids` (may be
 * NULL with 0) and returns how many there are. */
PLATFORMPP_C_API size_t platformpp_call_get_participants(const platformpp_call* call, uint64_t* ids,
                                                         size_t capacity);
/** Non-zero when `user_id` is in the call; then fills what is not NULL with the participant's own switches.
 */
PLATFORMPP_C_API int32_t platformpp_call_get_voice_state(const platformpp_call* call, uint64_t user_id,
                                                         int32_t* self_mute, int32_t* self_deaf);
/* Call event registrations: the callback runs inside run_callbacks, in order. Each replaces any earlier
 * callback of that kind (of every handle to the same call); a NULL callback removes it. user_data_free runs
 * once the library dropped the callback: replaced, or the call ended and gone (see the section's note). A
 * NULL call frees user_data at once. */
PLATFORMPP_C_API void platformpp_call_set_status_changed_callback(
    platformpp_call* call, platformpp_call_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_call_set_participant_changed_callback(
    platformpp_call* call, platformpp_call_participant_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_call_set_speaking_status_changed_callback(
    platformpp_call* call, platformpp_call_speaking_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A participant's voice state changed (joined, left, or switched self mute or deaf): read it with
 * platformpp_call_get_voice_state. */
PLATFORMPP_C_API void platformpp_call_set_voice_state_changed_callback(
    platformpp_call* call, platformpp_user_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Stops sending the microphone (others see self_mute). */
PLATFORMPP_C_API void platformpp_call_set_self_mute(platformpp_call* call, int32_t mute);
PLATFORMPP_C_API int32_t platformpp_call_get_self_mute(const platformpp_call* call);
/** Stops playing the call and sending (others see self_deaf). */
PLATFORMPP_C_API void platformpp_call_set_self_deaf(platformpp_call* call, int32_t deaf);
PLATFORMPP_C_API int32_t platformpp_call_get_self_deaf(const platformpp_call* call);
/** Silences one participant for this player only. */
PLATFORMPP_C_API void platformpp_call_set_local_mute(platformpp_call* call, uint64_t user_id, int32_t mute);
PLATFORMPP_C_API int32_t platformpp_call_get_local_mute(const platformpp_call* call, uint64_t user_id);
/** Playback volume of one participant for this player, 0 to 200 (percent; 100 = unchanged). Clamped. */
PLATFORMPP_C_API void platformpp_call_set_participant_volume(platformpp_call* call, uint64_t user_id,
                                                             float volume);
/** NULL call: 100. */
PLATFORMPP_C_API float platformpp_call_get_participant_volume(const platformpp_call* call, uint64_t user_id);
/** VAD (default) or PTT; UNINIT (or any other value) is ignored. */
PLATFORMPP_C_API void platformpp_call_set_audio_mode(platformpp_call* call,
                                                     platformpp_audio_mode_type audio_mode);
/** NULL call: UNINIT. */
PLATFORMPP_C_API platformpp_audio_mode_type platformpp_call_get_audio_mode(const platformpp_call* call);
/** While PTT is active the microphone is sent; after release it keeps going for the release delay. */
PLATFORMPP_C_API void platformpp_call_set_ptt_active(platformpp_call* call, int32_t active);
PLATFORMPP_C_API int32_t platformpp_call_get_ptt_active(const platformpp_call* call);
/** Milliseconds to keep sending after PTT release (default 20, at most 2000). */
PLATFORMPP_C_API void platformpp_call_set_ptt_release_delay(platformpp_call* call, uint32_t release_delay_ms);
PLATFORMPP_C_API uint32_t platformpp_call_get_ptt_release_delay(const platformpp_call* call);
/** Voice activity threshold: automatic (non-zero) or a level in dBFS, -100 to 0 (default -60; clamped). */
PLATFORMPP_C_API void platformpp_call_set_vad_threshold(platformpp_call* call, int32_t automatic,
                                                        float threshold);
PLATFORMPP_C_API int32_t platformpp_call_get_vad_threshold_automatic(const platformpp_call* call);
/** NULL call: -60. */
PLATFORMPP_C_API float platformpp_call_get_vad_threshold(const platformpp_call* call);

/* End-to-end encryption (DAVE; docs/dave.md): whether it is on, and the codes players compare to check that
 * nobody else holds the keys (the same digits the platform's own clients show). */

/** Non-zero while the call's media is end-to-end encrypted (from the first DAVE transition the voice server
 * executes; 0 before it, after a downgrade to plain media, once the call is over, and for a NULL call). */
PLATFORMPP_C_API int32_t platformpp_call_get_e2ee_active(const platformpp_call* call);
/** The current MLS epoch's authenticator (32 bytes, the same for every member): writes up to `capacity`
 * bytes to `authenticator` (may be NULL with 0) and returns its size; 0 when there is no group. */
PLATFORMPP_C_API size_t platformpp_call_get_epoch_authenticator(const platformpp_call* call,
                                                                uint8_t* authenticator, size_t capacity);
/** The epoch authenticator as 30 digits, the same for everyone in the call; "" when there is no group (and
 * for a NULL call). It changes with every epoch (someone joins or leaves). Owned by the handle, valid until
 * the next call on it; *size (if not NULL) receives its length. */
PLATFORMPP_C_API const char* platformpp_call_get_epoch_verification_code(const platformpp_call* call,
                                                                         size_t* size);
/** The 45-digit code of the player and `user_id` (both signature keys through scrypt), the same on both
 * sides. Computed on a thread of the library (about 100 ms): `callback` (may be NULL) runs exactly once,
 * inside run_callbacks ("" when E2EE is off, or user_id is not in the group or is the player), or with ""
 * inside platformpp_client_destroy when the client is destroyed first; user_data_free runs once after it. A
 * NULL call frees user_data at once and calls nothing. */
PLATFORMPP_C_API void platformpp_call_get_pairwise_verification_code(
    platformpp_call* call, uint64_t user_id, platformpp_call_verification_code_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** get_e2ee_active changed (only the flag: a new epoch calls nothing). A registration as the call's others
 * above. */
PLATFORMPP_C_API void platformpp_call_set_e2ee_status_changed_callback(
    platformpp_call* call, platformpp_call_e2ee_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Static, NUL-terminated names (never free them), e.g. "Connected"; "Unknown" outside the enum. */
PLATFORMPP_C_API const char* platformpp_call_status_to_string(platformpp_call_status status);
PLATFORMPP_C_API const char* platformpp_call_error_to_string(platformpp_call_error error);

/* Audio devices and settings of every call. Device callbacks run once inside run_callbacks (never when the
 * client is destroyed first); user_data_free runs once after, or when the client is destroyed. */
PLATFORMPP_C_API void platformpp_client_get_input_devices(platformpp_client* client,
                                                          platformpp_audio_devices_fn callback,
                                                          void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_get_output_devices(platformpp_client* client,
                                                           platformpp_audio_devices_fn callback,
                                                           void* user_data,
                                                           platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_get_current_input_device(platformpp_client* client,
                                                                 platformpp_audio_device_fn callback,
                                                                 void* user_data,
                                                                 platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_get_current_output_device(
    platformpp_client* client, platformpp_audio_device_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Switches the microphone (or speaker) of every call; an unknown id is VALIDATION_ERROR. The callback runs
 * as for the operations above (with CLIENT_DESTROYED when the client goes first). */
PLATFORMPP_C_API void platformpp_client_set_input_device(platformpp_client* client, const char* device_id,
                                                         size_t device_id_size, platformpp_result_fn callback,
                                                         void* user_data,
                                                         platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_output_device(platformpp_client* client, const char* device_id,
                                                          size_t device_id_size,
                                                          platformpp_result_fn callback, void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);
/** The device lists changed (a headset plugged in or out). Replaces an earlier callback; NULL removes it. */
PLATFORMPP_C_API void platformpp_client_set_device_change_callback(
    platformpp_client* client, platformpp_device_change_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Microphone and speaker gain, 0 to 100 (default 100). Clamped; NaN is ignored. */
PLATFORMPP_C_API void platformpp_client_set_input_volume(platformpp_client* client, float input_volume);
PLATFORMPP_C_API float platformpp_client_get_input_volume(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_set_output_volume(platformpp_client* client, float output_volume);
PLATFORMPP_C_API float platformpp_client_get_output_volume(const platformpp_client* client);
/** Mute (or deafen) the player in every call, now and in calls started later. */
PLATFORMPP_C_API void platformpp_client_set_self_mute_all(platformpp_client* client, int32_t mute);
PLATFORMPP_C_API int32_t platformpp_client_get_self_mute_all(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_set_self_deaf_all(platformpp_client* client, int32_t deaf);
PLATFORMPP_C_API int32_t platformpp_client_get_self_deaf_all(const platformpp_client* client);
/** The microphone level (dBFS, -100 to 0, default -100: never) below which, for a while, the input counts as
 * silent: the callback gets 0 then, and non-zero when sound comes back. */
PLATFORMPP_C_API void platformpp_client_set_no_audio_input_threshold(platformpp_client* client,
                                                                     float dbfs_threshold);
/** Replaces an earlier callback; NULL removes it. */
PLATFORMPP_C_API void platformpp_client_set_no_audio_input_callback(
    platformpp_client* client, platformpp_no_audio_input_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Echo cancellation, noise suppression and automatic gain control of the microphone, on by default. */
PLATFORMPP_C_API void platformpp_client_set_echo_cancellation(platformpp_client* client, int32_t on);
PLATFORMPP_C_API int32_t platformpp_client_get_echo_cancellation(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_set_noise_suppression(platformpp_client* client, int32_t on);
PLATFORMPP_C_API int32_t platformpp_client_get_noise_suppression(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_set_automatic_gain_control(platformpp_client* client, int32_t on);
PLATFORMPP_C_API int32_t platformpp_client_get_automatic_gain_control(const platformpp_client* client);
/** Whether the game manages the platform's audio session itself (iOS/Android); on desktop it only records the
 * choice. Non-zero when accepted. */
PLATFORMPP_C_API int32_t platformpp_client_set_engine_managed_audio_session(platformpp_client* client,
                                                                            int32_t is_engine_managed);
/** Writes the echo canceller's diagnostics into the voice log directory (else the log directory) while on. */
PLATFORMPP_C_API void platformpp_client_set_aec_dump(platformpp_client* client, int32_t on);
/** Voice engine messages to a file in `path` (created if missing). Non-zero on success. */
PLATFORMPP_C_API int32_t platformpp_client_set_voice_log_dir(platformpp_client* client, const char* path,
                                                             size_t path_size,
                                                             platformpp_logging_severity min_severity);
/** Voice engine messages (calls, media, devices) at min_severity and above, inside run_callbacks. A NULL
 * callback frees user_data at once; otherwise user_data_free runs when the client is destroyed. */
PLATFORMPP_C_API void platformpp_client_add_voice_log_callback(platformpp_client* client,
                                                               platformpp_log_fn callback,
                                                               platformpp_logging_severity min_severity,
                                                               void* user_data,
                                                               platformpp_user_data_free_fn user_data_free);
/** Scheduling priority hint for one of the client's threads; applied when allowed. */
PLATFORMPP_C_API void platformpp_client_set_thread_priority(platformpp_client* client,
                                                            platformpp_client_thread thread,
                                                            int32_t priority);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_H */
