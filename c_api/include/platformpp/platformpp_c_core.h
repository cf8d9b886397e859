/** @file
 * platformpp C ABI, core: the foundation every other part uses.
 *
 * The export macro, strings, results, the client, its options, logging and the realtime connection's status.
 * Part of `<platformpp/platformpp_c.h>` (its conventions apply); each part can also be included alone.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_CORE_H
#define PLATFORMPP_PLATFORMPP_C_CORE_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#if defined(PLATFORMPP_C_BUILDING)
#define PLATFORMPP_C_API __declspec(dllexport)
#else
#define PLATFORMPP_C_API __declspec(dllimport)
#endif
#else
/** Marks a function the library exports: dllexport while building it (PLATFORMPP_C_BUILDING) and dllimport
 * for its users on Windows, default visibility elsewhere. */
#define PLATFORMPP_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Version of the option structs below; pass it in api_version. Structs filled for an older version (from 1)
 * are still accepted: the fields added since are then not read and keep their defaults. 2 added
 * platformpp_client_options.channel_obfuscation_opt_in. */
#define PLATFORMPP_C_API_VERSION 2

/** A client: the one object a game holds, with its own network thread and callback queue. Create it with
 * platformpp_client_create, release it with platformpp_client_destroy. */
typedef struct platformpp_client platformpp_client;
/** The outcome of an operation, handed to its callback. Borrowed: valid until the callback returns; keep one
 * with platformpp_client_result_clone. */
typedef struct platformpp_client_result platformpp_client_result;
/** A PKCE pair (secret verifier and its S256 challenge). Create it with
 * platformpp_client_create_authorization_code_verifier, release it with
 * platformpp_authorization_code_verifier_destroy. */
typedef struct platformpp_authorization_code_verifier platformpp_authorization_code_verifier;

/** Kinds of failure of a platformpp_client_result; values match the platform's own Social SDK. */
typedef enum platformpp_error_type {
  PLATFORMPP_ERROR_TYPE_NONE = 0,          /**< success */
  PLATFORMPP_ERROR_TYPE_NETWORK_ERROR = 1, /**< no usable answer: connection, TLS or transport failure */
  PLATFORMPP_ERROR_TYPE_HTTP_ERROR = 2,    /**< the platform answered with an HTTP error */
  /** A token, application id or connection the call needs is missing. */
  PLATFORMPP_ERROR_TYPE_CLIENT_NOT_READY = 3,
  PLATFORMPP_ERROR_TYPE_DISABLED = 4,         /**< the platform SDK's value for a disabled feature */
  PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED = 5, /**< the client was destroyed before the operation ended */
  PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR = 6, /**< refused before sending: invalid input */
  /** Ended early: aborted, abandoned, or stopped by an exception in the library. */
  PLATFORMPP_ERROR_TYPE_ABORTED = 7,
  PLATFORMPP_ERROR_TYPE_AUTHORIZATION_FAILED = 8, /**< authorization refused, failed or timed out */
  PLATFORMPP_ERROR_TYPE_RPC_ERROR = 9,            /**< the local desktop client answered with an error */
  PLATFORMPP_ERROR_TYPE_FORCE_INT32 = 0x7FFFFFFF  /**< keeps the enum 32-bit; not a value */
} platformpp_error_type;

/** Severity of a log message; values match the platform's own Social SDK. */
typedef enum platformpp_logging_severity {
  PLATFORMPP_LOGGING_SEVERITY_VERBOSE = 1,             /**< everything, for debugging */
  PLATFORMPP_LOGGING_SEVERITY_INFO = 2,                /**< notable events */
  PLATFORMPP_LOGGING_SEVERITY_WARNING = 3,             /**< something went wrong and was handled */
  PLATFORMPP_LOGGING_SEVERITY_ERROR = 4,               /**< something failed */
  PLATFORMPP_LOGGING_SEVERITY_NONE = 5,                /**< as a minimum severity: nothing */
  PLATFORMPP_LOGGING_SEVERITY_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_logging_severity;

/** How a token is presented to the platform; values match the platform's own Social SDK. */
typedef enum platformpp_authorization_token_type {
  PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_USER = 0,                /**< a user token */
  PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER = 1,              /**< an OAuth2 bearer token */
  PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_authorization_token_type;

/** PKCE code challenge methods; values match the platform's own Social SDK. */
typedef enum platformpp_authentication_code_challenge_method {
  PLATFORMPP_AUTHENTICATION_CODE_CHALLENGE_METHOD_S256 = 0,                /**< SHA-256 (the only one) */
  PLATFORMPP_AUTHENTICATION_CODE_CHALLENGE_METHOD_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit */
} platformpp_authentication_code_challenge_method;

/** How the application is installed (platformpp_authorization_args.integration_type); values match the
 * platform's own Social SDK. */
typedef enum platformpp_integration_type {
  PLATFORMPP_INTEGRATION_TYPE_GUILD_INSTALL = 0,       /**< installed to a guild */
  PLATFORMPP_INTEGRATION_TYPE_USER_INSTALL = 1,        /**< installed to the user */
  PLATFORMPP_INTEGRATION_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_integration_type;

/** Identity providers for provisional accounts. */
typedef enum platformpp_authentication_external_auth_type {
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_OIDC = 0, /**< an OpenID Connect ID token */
  /** An Epic Online Services access token. */
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_EPIC_ONLINE_SERVICES_ACCESS_TOKEN = 1,
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_EPIC_ONLINE_SERVICES_ID_TOKEN = 2, /**< an EOS ID token */
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_STEAM_SESSION_TICKET = 3,    /**< a Steam session ticket */
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_UNITY_SERVICES_ID_TOKEN = 4, /**< a Unity Services ID token */
  /** An access token a bot of the platform issued. */
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_DISCORD_BOT_ISSUED_ACCESS_TOKEN = 5,
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_APPLE_ID_TOKEN = 6, /**< a Sign in with Apple ID token */
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_PLAYSTATION_NETWORK_ID_TOKEN = 7, /**< a PSN ID token */
  PLATFORMPP_AUTHENTICATION_EXTERNAL_AUTH_TYPE_FORCE_INT32 = 0x7FFFFFFF          /**< keeps the enum 32-bit */
} platformpp_authentication_external_auth_type;

/** A borrowed UTF-8 string. */
typedef struct platformpp_string {
  const char* ptr; /**< the bytes, not necessarily NUL-terminated; NULL with size 0 is "" */
  size_t size;     /**< length in bytes */
} platformpp_string;

/** A borrowed key-value pair of strings (lobby, member and message metadata). */
typedef struct platformpp_string_pair {
  platformpp_string key;   /**< the key */
  platformpp_string value; /**< its value */
} platformpp_string_pair;

/** The realtime connection's status (values of the platform's Social SDK). */
typedef enum platformpp_client_status {
  PLATFORMPP_CLIENT_STATUS_DISCONNECTED = 0,        /**< not connected */
  PLATFORMPP_CLIENT_STATUS_CONNECTING = 1,          /**< opening the connection */
  PLATFORMPP_CLIENT_STATUS_CONNECTED = 2,           /**< connected, session not ready yet */
  PLATFORMPP_CLIENT_STATUS_READY = 3,               /**< the session is ready: state and events flow */
  PLATFORMPP_CLIENT_STATUS_RECONNECTING = 4,        /**< resuming after a lost connection */
  PLATFORMPP_CLIENT_STATUS_DISCONNECTING = 5,       /**< closing, after platformpp_client_disconnect */
  PLATFORMPP_CLIENT_STATUS_HTTP_WAIT = 6,           /**< asking the platform where to connect */
  PLATFORMPP_CLIENT_STATUS_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_client_status;

/** Why the realtime connection ended up DISCONNECTED without being asked to (see
 * platformpp_status_changed_fn). */
typedef enum platformpp_client_error {
  PLATFORMPP_CLIENT_ERROR_NONE = 0,                /**< no error */
  PLATFORMPP_CLIENT_ERROR_CONNECTION_FAILED = 1,   /**< the connection could not be opened */
  PLATFORMPP_CLIENT_ERROR_UNEXPECTED_CLOSE = 2,    /**< the server closed it for good */
  PLATFORMPP_CLIENT_ERROR_CONNECTION_CANCELED = 3, /**< the connection attempt was canceled */
  PLATFORMPP_CLIENT_ERROR_FORCE_INT32 = 0x7FFFFFFF /**< keeps the enum 32-bit; not a value */
} platformpp_client_error;

/** Options of platformpp_client_create; set api_version and the defaults with platformpp_client_options_init.
 * The strings are borrowed for the call to platformpp_client_create only. */
typedef struct platformpp_client_options {
  int32_t api_version;             /**< PLATFORMPP_C_API_VERSION */
  platformpp_string api_base;      /**< empty: the platform's API */
  platformpp_string ca_file;       /**< PEM file of extra CAs to trust, e.g. the emulator's ca_file */
  int32_t use_system_certificates; /**< non-zero (default): also trust the system's store */
  platformpp_string web_base;      /**< where the authorize page lives; empty: the platform's */
  int32_t authorize_timeout_ms;    /**< how long authorize waits for the browser; 0 (or less): 5 minutes */
  platformpp_string ipc_name;      /**< the desktop client's IPC socket or pipe prefix; empty: "discord" */
  platformpp_string ipc_directory; /**< its socket's directory (not Windows); empty: $XDG_RUNTIME_DIR, ... */
  int32_t ipc_enabled;             /**< non-zero (default): talk to the local desktop client */
  /** Since api_version 2. Non-zero: opt the Gateway session in to channel obfuscation before the platform's
   * date (Identify capability `1 << 15`; the platform's switch for testing). 0 (default): off. */
  int32_t channel_obfuscation_opt_in;
} platformpp_client_options;

/** Frees a caller's user_data: runs exactly once, when the library no longer needs it (see
 * `<platformpp/platformpp_c.h>`).
 * @param user_data The user_data given with it. */
typedef void (*platformpp_user_data_free_fn)(void* user_data);
/** Receives a log message (platformpp_client_add_log_callback), inside platformpp_client_run_callbacks.
 * @param message The message, NUL-terminated; borrowed until the callback returns.
 * @param message_size Its length in bytes.
 * @param severity Its severity.
 * @param user_data The registration's user_data. */
typedef void (*platformpp_log_fn)(const char* message, size_t message_size,
                                  platformpp_logging_severity severity, void* user_data);
/** Completion of platformpp_client_fetch_current_user, inside platformpp_client_run_callbacks.
 * @param result The outcome; borrowed until the callback returns.
 * @param user_id The token's user; 0 on failure.
 * @param username Their username, NUL-terminated, "" on failure; borrowed until the callback returns.
 * @param username_size Its length in bytes.
 * @param user_data The call's user_data. */
typedef void (*platformpp_fetch_current_user_fn)(const platformpp_client_result* result, uint64_t user_id,
                                                 const char* username, size_t username_size, void* user_data);
/** Completion of an operation that returns nothing but its result.
 * Runs once, inside platformpp_client_run_callbacks (or platformpp_client_destroy).
 * @param result The outcome; borrowed until the callback returns.
 * @param user_data The call's user_data. */
typedef void (*platformpp_result_fn)(const platformpp_client_result* result, void* user_data);
/** Completion of a token exchange. On failure the strings are "" (never NULL), token_type is
 * PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER and expires_in (seconds) is 0.
 * Runs once, inside platformpp_client_run_callbacks (or platformpp_client_destroy). Every string is
 * NUL-terminated and borrowed until the callback returns: copy what you keep.
 * @param result The outcome; borrowed until the callback returns.
 * @param access_token The new access token.
 * @param access_token_size Its length in bytes.
 * @param refresh_token The new refresh token ("" when none was issued).
 * @param refresh_token_size Its length in bytes.
 * @param token_type How to present the access token (pass it to platformpp_client_update_token).
 * @param expires_in The access token's lifetime in seconds.
 * @param scopes The granted scopes, space-separated.
 * @param scopes_size Their length in bytes.
 * @param user_data The call's user_data. */
typedef void (*platformpp_token_exchange_fn)(const platformpp_client_result* result, const char* access_token,
                                             size_t access_token_size, const char* refresh_token,
                                             size_t refresh_token_size,
                                             platformpp_authorization_token_type token_type,
                                             int32_t expires_in, const char* scopes, size_t scopes_size,
                                             void* user_data);

/* Library */
/** The library's version. Callable without a client; thread-safe.
 * @param major Receives the major version; may be NULL.
 * @param minor Receives the minor version; may be NULL.
 * @param patch Receives the patch version; may be NULL. */
PLATFORMPP_C_API void platformpp_version(int32_t* major, int32_t* minor, int32_t* patch);
/** Static string, e.g. "0.1.0".
 * @return The version, NUL-terminated; static: never free it. */
PLATFORMPP_C_API const char* platformpp_version_string(void);
/** Frees memory the library handed over (documented per function). NULL is fine.
 * @param ptr What the library handed over, or NULL. */
PLATFORMPP_C_API void platformpp_free(void* ptr);
/** How many clients exist now: made by platformpp_client_create and not yet through platformpp_client_destroy
 * (counted once destroy has returned). For leak checks in tests and language bindings; thread-safe.
 * @return The number of live clients. */
PLATFORMPP_C_API size_t platformpp_debug_live_client_count(void);

/* Client */
/** Fills options with the defaults: api_version PLATFORMPP_C_API_VERSION, use_system_certificates and
 * ipc_enabled 1, every other field 0 or empty.
 * @param options The struct to fill; NULL is ignored. */
PLATFORMPP_C_API void platformpp_client_options_init(platformpp_client_options* options);
/** Creates a client. NULL options: defaults. Returns NULL when options->api_version is unknown or the client
 * cannot be created.
 * @param options The options, borrowed for the call (the client copies what it keeps); NULL: defaults.
 * @return A new client, owned by the caller: release it with platformpp_client_destroy. NULL when
 * options->api_version is outside 1 to PLATFORMPP_C_API_VERSION or the client cannot be created. */
PLATFORMPP_C_API platformpp_client* platformpp_client_create(const platformpp_client_options* options);
/** Destroys a client: every pending operation completes with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED, every
 * user_data_free still due runs, and the client's threads end, all before this returns; nothing is called
 * afterwards. May be called from inside a callback.
 * @param client The client; NULL is ignored. Invalid once this returns. */
PLATFORMPP_C_API void platformpp_client_destroy(platformpp_client* client);
/** Runs every callback queued so far, on the calling thread, in order. Never blocks. The only place (with
 * platformpp_client_destroy) where callbacks run; a call from inside a callback runs nothing. Call it once a
 * frame. A callback may destroy the client.
 * @param client The client; NULL is ignored. */
PLATFORMPP_C_API void platformpp_client_run_callbacks(platformpp_client* client);
/** Blocks until a callback is ready for run_callbacks or timeout_ms pass; non-zero when one is ready. For
 * bots and tools with nothing else to do; runs no callback itself. NULL client: 0 at once.
 * @param client The client; NULL: returns 0 at once.
 * @param timeout_ms How long to wait at most, in milliseconds.
 * @return Non-zero when platformpp_client_run_callbacks has something to run, 0 otherwise. */
PLATFORMPP_C_API int32_t platformpp_client_wait_for_callbacks(platformpp_client* client, int32_t timeout_ms);
/** Sets the application id that calls taking application_id 0 use.
 * @param client The client; NULL is ignored.
 * @param application_id The game's application id. */
PLATFORMPP_C_API void platformpp_client_set_application_id(platformpp_client* client,
                                                           uint64_t application_id);
/** The application id set by platformpp_client_set_application_id.
 * @param client The client; NULL: 0.
 * @return The application id; 0 when unset. */
PLATFORMPP_C_API uint64_t platformpp_client_get_application_id(const platformpp_client* client);
/** Sets the timeout of one HTTP exchange (connect, TLS, request, response). Milliseconds, at least 1
 * (default 30000); values below 1 are refused.
 * @param client The client; NULL is ignored.
 * @param milliseconds The timeout, at least 1. */
PLATFORMPP_C_API void platformpp_client_set_http_request_timeout(platformpp_client* client,
                                                                 int32_t milliseconds);
/** The timeout of one HTTP exchange.
 * @param client The client; NULL: 0.
 * @return The timeout in milliseconds (default 30000). */
PLATFORMPP_C_API int32_t platformpp_client_get_http_request_timeout(const platformpp_client* client);
/** Adds a log sink (in addition to earlier ones): messages at min_severity and above reach callback, inside
 * platformpp_client_run_callbacks. The registration lasts until the client is destroyed.
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Receives each message; NULL: user_data is freed at once and nothing is registered.
 * @param min_severity The least severe messages to pass on.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the client is destroyed (or at once, see above); may be NULL. */
PLATFORMPP_C_API void platformpp_client_add_log_callback(platformpp_client* client,
                                                         platformpp_log_fn callback,
                                                         platformpp_logging_severity min_severity,
                                                         void* user_data,
                                                         platformpp_user_data_free_fn user_data_free);
/** Also writes the log to a file. Returns non-zero on success. An empty path stops file logging.
 * Otherwise messages at min_severity and above are also written to a file in that directory (created if
 * missing).
 * @param client The client; NULL: returns 0.
 * @param path The directory, UTF-8, borrowed for the call; empty (or NULL with size 0): stop file logging.
 * @param path_size Its length in bytes.
 * @param min_severity The least severe messages to write.
 * @return Non-zero on success; 0 when the directory or file cannot be created, or for a NULL client. */
PLATFORMPP_C_API int32_t platformpp_client_set_log_dir(platformpp_client* client, const char* path,
                                                       size_t path_size,
                                                       platformpp_logging_severity min_severity);
/** Asks the platform whose token this is: the id and username of the token's user. Does not change the
 * client's own token.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param token_type How to present token.
 * @param token The token, borrowed for the call.
 * @param token_size Its length in bytes.
 * @param callback Runs once with the outcome, inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
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
 * otherwise NONE, 0.
 * @param status The new status (platformpp_client_get_status already returns it, or a later one).
 * @param error Why a DISCONNECTED was not asked for; PLATFORMPP_CLIENT_ERROR_NONE otherwise.
 * @param error_detail The HTTP status or close code that goes with error; 0 otherwise.
 * @param user_data The registration's user_data. */
typedef void (*platformpp_status_changed_fn)(platformpp_client_status status, platformpp_client_error error,
                                             int32_t error_detail, void* user_data);
/** Connects with the token given to update_token; reconnects and resumes by itself until disconnect.
 * Goes through HTTP_WAIT, CONNECTING and CONNECTED to READY; does nothing while already connecting or
 * connected. Without a token the status stays DISCONNECTED and the status callback reports
 * CONNECTION_FAILED, 401.
 * @param client The client; NULL is ignored. */
PLATFORMPP_C_API void platformpp_client_connect(platformpp_client* client);
/** Closes the realtime connection (DISCONNECTING, then DISCONNECTED) and ends the session.
 * @param client The client; NULL is ignored. */
PLATFORMPP_C_API void platformpp_client_disconnect(platformpp_client* client);
/** The realtime connection's status. NULL client: DISCONNECTED.
 * @param client The client, or NULL.
 * @return The realtime connection's current status; PLATFORMPP_CLIENT_STATUS_DISCONNECTED for NULL. */
PLATFORMPP_C_API platformpp_client_status platformpp_client_get_status(const platformpp_client* client);
/** Registers the callback of the realtime connection's status changes. Replaces any earlier callback; the
 * earlier user_data_free runs then (or when the client is destroyed). A NULL callback removes it.
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Runs for each status change, inside platformpp_client_run_callbacks; NULL removes the
 * callback (and user_data is freed at once).
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the callback is replaced or removed, or when the client is
 * destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_status_changed_callback(
    platformpp_client* client, platformpp_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);

/* Results: valid for the callback that receives them; clone to keep one longer. Every getter accepts NULL
 * (and then reports success). */
/** The kind of failure.
 * @param result The result; NULL: PLATFORMPP_ERROR_TYPE_NONE.
 * @return PLATFORMPP_ERROR_TYPE_NONE on success, else the kind of failure. */
PLATFORMPP_C_API platformpp_error_type platformpp_client_result_type(const platformpp_client_result* result);
/** Whether the operation succeeded.
 * @param result The result; NULL counts as success.
 * @return Non-zero on success (and for NULL), 0 on failure. */
PLATFORMPP_C_API int32_t platformpp_client_result_successful(const platformpp_client_result* result);
/** The HTTP status of the answer.
 * @param result The result; NULL: 0.
 * @return The HTTP status; 0 when no response was received. */
PLATFORMPP_C_API int32_t platformpp_client_result_status(const platformpp_client_result* result);
/** The platform's JSON error code (for example 50035, or 530017 for a banned account).
 * @param result The result; NULL: 0.
 * @return The error code; 0 when none. */
PLATFORMPP_C_API int32_t platformpp_client_result_error_code(const platformpp_client_result* result);
/** The message; *size (if not NULL) receives its length. Valid as long as the result.
 * @param result The result; NULL: "".
 * @param size Receives the message's length in bytes; may be NULL.
 * @return The human-readable message, NUL-terminated, "" on success; owned by the result (never free it). */
PLATFORMPP_C_API const char* platformpp_client_result_error(const platformpp_client_result* result,
                                                            size_t* size);
/** The OAuth2 error of a token endpoint (e.g. "invalid_grant"), "" when none; *size (if not NULL) receives
 * its length. Valid as long as the result.
 * @param result The result; NULL: "".
 * @param size Receives the length in bytes; may be NULL.
 * @return The OAuth2 error code, NUL-terminated; owned by the result (never free it). */
PLATFORMPP_C_API const char* platformpp_client_result_oauth_error(const platformpp_client_result* result,
                                                                  size_t* size);
/** Whether the same request may succeed later.
 * @param result The result; NULL: 0.
 * @return Non-zero when retrying may help. */
PLATFORMPP_C_API int32_t platformpp_client_result_retryable(const platformpp_client_result* result);
/** How long to wait before retrying (rate limits).
 * @param result The result; NULL: 0.
 * @return Seconds to wait; 0 when unknown. */
PLATFORMPP_C_API float platformpp_client_result_retry_after(const platformpp_client_result* result);
/** A one-line description; free it with platformpp_free. NULL when out of memory.
 * @param result The result; NULL reads "None".
 * @return A new NUL-terminated string, owned by the caller: free it with platformpp_free. NULL when out of
 * memory. */
PLATFORMPP_C_API char* platformpp_client_result_to_string(const platformpp_client_result* result);
/** A copy that outlives the callback; release it with platformpp_client_result_destroy.
 * @param result The result to copy; NULL: returns NULL.
 * @return A new result, owned by the caller: release it with platformpp_client_result_destroy. NULL for a
 * NULL result or when out of memory. */
PLATFORMPP_C_API platformpp_client_result* platformpp_client_result_clone(
    const platformpp_client_result* result);
/** Releases a result made by platformpp_client_result_clone (never one handed to a callback).
 * @param result The clone; NULL is ignored. */
PLATFORMPP_C_API void platformpp_client_result_destroy(platformpp_client_result* result);

/** Field errors of a VALIDATION_ERROR (or of the platform's nested `errors`): count, then each one's JSON
 * path (e.g. "activity.state") and message. Valid as long as the result; out of range: "".
 * @param result The result; NULL: 0.
 * @return The number of field errors; 0 when none. */
PLATFORMPP_C_API size_t platformpp_client_result_field_error_count(const platformpp_client_result* result);
/** The JSON path of one field error (for example "activity.state" or "activity.buttons.1.url").
 * @param result The result; NULL: "".
 * @param index Which field error, from 0 to platformpp_client_result_field_error_count - 1; out of range: "".
 * @param size Receives the length in bytes; may be NULL.
 * @return The path, NUL-terminated; owned by the result, valid as long as it (never free it). */
PLATFORMPP_C_API const char* platformpp_client_result_field_error_path(const platformpp_client_result* result,
                                                                       size_t index, size_t* size);
/** The message of one field error.
 * @param result The result; NULL: "".
 * @param index Which field error, from 0 to platformpp_client_result_field_error_count - 1; out of range: "".
 * @param size Receives the length in bytes; may be NULL.
 * @return The message, NUL-terminated; owned by the result, valid as long as it (never free it). */
PLATFORMPP_C_API const char* platformpp_client_result_field_error_message(
    const platformpp_client_result* result, size_t index, size_t* size);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_CORE_H */
