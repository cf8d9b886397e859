/* platformpp C ABI: the SDK for game engines that bind C (Unity through P/Invoke, Unreal, others).
 *
 * Conventions
 * - Every symbol starts with platformpp_. Handles are opaque pointers with create/destroy pairs.
 * - Option structs start with int32_t api_version (set it with the matching _init function) so they can grow.
 * - Enums are 32-bit. Structs are blittable: booleans in structs are int32_t, strings are pointer + size.
 * - Strings in: UTF-8 pointer + size in bytes, borrowed for the duration of the call. NULL with size 0 is "".
 * - Strings out: owned by the library, NUL-terminated, valid until the callback returns (or until the owning
 *   handle is released). Anything the caller must free says so and is freed with platformpp_free.
 * - Callbacks run only inside platformpp_client_run_callbacks, on the thread that calls it. Every callback
 * takes user_data last; every registration takes (callback, user_data, user_data_free), and user_data_free
 * (may be NULL) runs exactly once when the library no longer needs user_data: after an operation's callback
 * has run (including when it ran with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED), or when the client is
 * destroyed.
 * - platformpp_client_destroy completes every pending operation with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED
 * before it returns; nothing is called after it returns. It may be called from inside a callback.
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

/** A borrowed UTF-8 string. */
typedef struct platformpp_string {
  const char* ptr;
  size_t size;
} platformpp_string;

typedef struct platformpp_client_options {
  int32_t api_version;             /**< PLATFORMPP_C_API_VERSION */
  platformpp_string api_base;      /**< empty: the platform's API */
  platformpp_string ca_file;       /**< PEM file of extra CAs to trust, e.g. the emulator's ca_file */
  int32_t use_system_certificates; /**< non-zero (default): also trust the system's store */
} platformpp_client_options;

typedef void (*platformpp_user_data_free_fn)(void* user_data);
typedef void (*platformpp_log_fn)(const char* message, size_t message_size,
                                  platformpp_logging_severity severity, void* user_data);
typedef void (*platformpp_fetch_current_user_fn)(const platformpp_client_result* result, uint64_t user_id,
                                                 const char* username, size_t username_size, void* user_data);

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

/* Results: valid for the callback that receives them; clone to keep one longer. */
PLATFORMPP_C_API platformpp_error_type platformpp_client_result_type(const platformpp_client_result* result);
PLATFORMPP_C_API int32_t platformpp_client_result_successful(const platformpp_client_result* result);
PLATFORMPP_C_API int32_t platformpp_client_result_status(const platformpp_client_result* result);
PLATFORMPP_C_API int32_t platformpp_client_result_error_code(const platformpp_client_result* result);
/** The message; *size (if not NULL) receives its length. Valid as long as the result. */
PLATFORMPP_C_API const char* platformpp_client_result_error(const platformpp_client_result* result,
                                                            size_t* size);
PLATFORMPP_C_API int32_t platformpp_client_result_retryable(const platformpp_client_result* result);
PLATFORMPP_C_API float platformpp_client_result_retry_after(const platformpp_client_result* result);
/** A one-line description; free it with platformpp_free. */
PLATFORMPP_C_API char* platformpp_client_result_to_string(const platformpp_client_result* result);
/** A copy that outlives the callback; release it with platformpp_client_result_destroy. */
PLATFORMPP_C_API platformpp_client_result* platformpp_client_result_clone(
    const platformpp_client_result* result);
PLATFORMPP_C_API void platformpp_client_result_destroy(platformpp_client_result* result);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_H */
