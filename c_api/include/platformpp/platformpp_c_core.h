/* platformpp C ABI, core: The foundation every other part uses: the export macro, strings, results, the
 * client, its options, logging and the realtime connection's status. Part of <platformpp/platformpp_c.h> (its
 * conventions apply); each part can also be included alone. */
#ifndef PLATFORMPP_PLATFORMPP_C_CORE_H
#define PLATFORMPP_PLATFORMPP_C_CORE_H

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

/** Version of the option structs below; pass it in api_version. Structs filled for an older version (from 1)
 * are still accepted: the fields added since are then not read and keep their defaults. 2 added
 * platformpp_client_options.channel_obfuscation_opt_in. */
#define PLATFORMPP_C_API_VERSION 2

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
  /** Since api_version 2. Non-zero: opt the Gateway session in to channel obfuscation before the platform's
   * date (Identify capability 1 << 15; the platform's switch for testing). 0 (default): off. */
  int32_t channel_obfuscation_opt_in;
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
/** How many clients exist now: made by platformpp_client_create and not yet through platformpp_client_destroy
 * (counted once destroy has returned). For leak checks in tests and language bindings; thread-safe. */
PLATFORMPP_C_API size_t platformpp_debug_live_client_count(void);

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

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_CORE_H */
