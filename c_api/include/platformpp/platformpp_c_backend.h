/* platformpp C ABI, game server: what a game's own server does with the application's credentials, for
 * servers that bind C. Signed webhook events (a verify function for servers with an HTTP stack of their own,
 * and a ready-made endpoint) and the Game Stats Widget through a backend handle (the bot token). Part of
 * <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone.
 *
 * The handles here have no client: their callbacks run only inside their own run_callbacks
 * (platformpp_backend_run_callbacks, platformpp_webhook_events_run_callbacks), on the calling thread, and
 * their destroy ends what is pending (a backend's operations with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED)
 * before it returns. An exception stopped inside the library is logged through the handle's log callbacks. */
#ifndef PLATFORMPP_PLATFORMPP_C_BACKEND_H
#define PLATFORMPP_PLATFORMPP_C_BACKEND_H

#include <platformpp/platformpp_c_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Webhook events: one verified request. */

typedef struct platformpp_webhook_event platformpp_webhook_event;

typedef enum platformpp_webhook_event_kind {
  PLATFORMPP_WEBHOOK_EVENT_KIND_PING = 0,
  PLATFORMPP_WEBHOOK_EVENT_KIND_EVENT = 1,
  PLATFORMPP_WEBHOOK_EVENT_KIND_FORCE_INT32 = 0x7FFFFFFF
} platformpp_webhook_event_kind;

/** Which typed event the SDK read (UNKNOWN: a PING, an event this version does not know, or a known one whose
 * data lacks what its type needs; the raw data is still there). */
typedef enum platformpp_webhook_event_data_type {
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_UNKNOWN = 0,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_APPLICATION_AUTHORIZED = 1,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_APPLICATION_DEAUTHORIZED = 2,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_ENTITLEMENT_CREATE = 3,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_QUEST_USER_ENROLLMENT = 4,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_LOBBY_MESSAGE_CREATE = 5,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_LOBBY_MESSAGE_UPDATE = 6,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_LOBBY_MESSAGE_DELETE = 7,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_GAME_DIRECT_MESSAGE_CREATE = 8,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_GAME_DIRECT_MESSAGE_UPDATE = 9,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_GAME_DIRECT_MESSAGE_DELETE = 10,
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_webhook_event_data_type;

/** Checks one request the platform POSTed to the webhook events URL: the Ed25519 signature
 * (X-Signature-Ed25519, hex) over the timestamp header (X-Signature-Timestamp) followed by the body, with the
 * application's public key (64 hex digits); a timestamp more than max_age_seconds (0: 300) from now either
 * way is refused as a replay; then the body is parsed. now_unix_seconds: the receiver's clock, 0 for the
 * system's. Returns the status to answer: 204 (a PING or an accepted event), 401 (signature or timestamp
 * refused), 400 (a signed body that is not an event), 0 when the library failed (out of memory). On 204,
 * *event (when event is not NULL) receives a new handle the caller releases with
 * platformpp_webhook_event_destroy; otherwise NULL. Remembering event ids to deliver each once is the
 * caller's (platformpp_webhook_event_id); the endpoint below does it. */
PLATFORMPP_C_API int32_t platformpp_webhook_verify(const char* public_key_hex, size_t public_key_hex_size,
                                                   const char* signature_hex, size_t signature_hex_size,
                                                   const char* timestamp, size_t timestamp_size,
                                                   const char* body, size_t body_size,
                                                   int64_t now_unix_seconds, int32_t max_age_seconds,
                                                   platformpp_webhook_event** event);

/** A copy the caller releases with platformpp_webhook_event_destroy (NULL stays NULL; NULL when out of
 * memory). */
PLATFORMPP_C_API platformpp_webhook_event* platformpp_webhook_event_clone(
    const platformpp_webhook_event* event);
PLATFORMPP_C_API void platformpp_webhook_event_destroy(platformpp_webhook_event* event);
/* Getters: strings are owned by the event, valid as long as it; *size (if not NULL) receives the length. NULL
 * event: 0, "" or UNKNOWN. */
PLATFORMPP_C_API platformpp_webhook_event_kind
platformpp_webhook_event_get_kind(const platformpp_webhook_event* event);
PLATFORMPP_C_API uint64_t platformpp_webhook_event_application_id(const platformpp_webhook_event* event);
/** The event's name ("APPLICATION_AUTHORIZED", "ENTITLEMENT_CREATE", ...); "" for a PING. */
PLATFORMPP_C_API const char* platformpp_webhook_event_type_name(const platformpp_webhook_event* event,
                                                                size_t* size);
/** What identifies the event across the platform's retries (64 hex digits); "" for a PING. */
PLATFORMPP_C_API const char* platformpp_webhook_event_id(const platformpp_webhook_event* event, size_t* size);
/** When the event happened, ISO 8601 as sent. */
PLATFORMPP_C_API const char* platformpp_webhook_event_timestamp(const platformpp_webhook_event* event,
                                                                size_t* size);
/** The event's `data` object as JSON text; "" when it has none. */
PLATFORMPP_C_API const char* platformpp_webhook_event_data_json(const platformpp_webhook_event* event,
                                                                size_t* size);
PLATFORMPP_C_API platformpp_webhook_event_data_type
platformpp_webhook_event_get_data_type(const platformpp_webhook_event* event);
/** The user of APPLICATION_AUTHORIZED or APPLICATION_DEAUTHORIZED; 0 for other events. */
PLATFORMPP_C_API uint64_t platformpp_webhook_event_user_id(const platformpp_webhook_event* event);
/* The entitlement of ENTITLEMENT_CREATE (read as the SDK reads entitlements); 0 for other events. */
PLATFORMPP_C_API uint64_t platformpp_webhook_event_entitlement_id(const platformpp_webhook_event* event);
PLATFORMPP_C_API uint64_t platformpp_webhook_event_entitlement_sku_id(const platformpp_webhook_event* event);
/** 0 for an entitlement a guild owns. */
PLATFORMPP_C_API uint64_t platformpp_webhook_event_entitlement_user_id(const platformpp_webhook_event* event);
/** 0 unless a guild owns it. */
PLATFORMPP_C_API uint64_t
platformpp_webhook_event_entitlement_guild_id(const platformpp_webhook_event* event);
/** 1 PURCHASE, 8 APPLICATION_SUBSCRIPTION, ... (the platform's entitlement types). */
PLATFORMPP_C_API int32_t platformpp_webhook_event_entitlement_type(const platformpp_webhook_event* event);
/** Non-zero when the entitlement has an end; *ends_at_ms (if not NULL) receives it (Unix milliseconds). 0 for
 * an indefinite one. */
PLATFORMPP_C_API int32_t platformpp_webhook_event_entitlement_ends_at(const platformpp_webhook_event* event,
                                                                      uint64_t* ends_at_ms);

/* Webhook events: the ready-made endpoint (HTTP, or HTTPS with a certificate). Every request is verified as
 * platformpp_webhook_verify does: a PING is answered 204; a bad signature, missing headers or a stale
 * timestamp 401, nothing delivered; an event 204, and delivered once per event id even when the platform
 * retries. The platform is answered once the event is queued: an event still queued at destroy is lost. */

typedef struct platformpp_webhook_events platformpp_webhook_events;

typedef struct platformpp_webhook_events_options {
  int32_t api_version;                          /**< PLATFORMPP_C_API_VERSION */
  platformpp_string public_key_hex;             /**< the application's public key (64 hex digits) */
  platformpp_string address;                    /**< where to listen; empty: 127.0.0.1 */
  int32_t port;                                 /**< 0 (default): any free port; see _port */
  platformpp_string path;                       /**< the URL's path; other paths get 404; empty: "/" */
  platformpp_string tls_certificate_chain_file; /**< HTTPS when both PEM files are given */
  platformpp_string tls_private_key_file;
} platformpp_webhook_events_options;

/** Called inside platformpp_webhook_events_run_callbacks for each event delivered; event is valid until it
 * returns (clone it to keep it). */
typedef void (*platformpp_webhook_event_fn)(const platformpp_webhook_event* event, void* user_data);

PLATFORMPP_C_API void platformpp_webhook_events_options_init(platformpp_webhook_events_options* options);
/** Does not listen yet (see _start). NULL when options is NULL, its api_version is unknown or port is not 0
 * to 65535, or out of memory. */
PLATFORMPP_C_API platformpp_webhook_events* platformpp_webhook_events_create(
    const platformpp_webhook_events_options* options);
/** Stops listening and drops events not yet delivered; runs no callback. Every user_data_free has run when it
 * returns. */
PLATFORMPP_C_API void platformpp_webhook_events_destroy(platformpp_webhook_events* events);
/** Replaces any earlier callback (the earlier user_data_free runs then, or at destroy); NULL removes it.
 * Events delivered while none is set are dropped (and logged). */
PLATFORMPP_C_API void platformpp_webhook_events_set_event_callback(
    platformpp_webhook_events* events, platformpp_webhook_event_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_webhook_events_add_log_callback(platformpp_webhook_events* events,
                                                                 platformpp_log_fn callback,
                                                                 platformpp_logging_severity min_severity,
                                                                 void* user_data,
                                                                 platformpp_user_data_free_fn user_data_free);
/** Binds and starts accepting. Returns a new result the caller releases with
 * platformpp_client_result_destroy: VALIDATION_ERROR for a bad key, path or TLS file, NETWORK_ERROR when the
 * address cannot be bound; NULL events or out of memory: NULL. Starting a running endpoint succeeds. */
PLATFORMPP_C_API platformpp_client_result* platformpp_webhook_events_start(platformpp_webhook_events* events);
/** Closes the listener and every connection; events already accepted stay queued for run_callbacks. */
PLATFORMPP_C_API void platformpp_webhook_events_stop(platformpp_webhook_events* events);
PLATFORMPP_C_API int32_t platformpp_webhook_events_running(const platformpp_webhook_events* events);
/** The port listened on (the one picked when options.port was 0); 0 when not running. */
PLATFORMPP_C_API int32_t platformpp_webhook_events_port(const platformpp_webhook_events* events);
PLATFORMPP_C_API void platformpp_webhook_events_run_callbacks(platformpp_webhook_events* events);
/** Waits until something is queued or timeout_ms pass, then delivers it (runs callbacks, unlike
 * platformpp_client_wait_for_callbacks); non-zero when something was. */
PLATFORMPP_C_API int32_t platformpp_webhook_events_wait_for_callbacks(platformpp_webhook_events* events,
                                                                      int32_t timeout_ms);

/* Game Stats Widget: a player's Application Identity Profile, built and read through a profile handle. Limits
 * (checked before anything is sent; docs/premium-protocol.md): username 1 to 1024 characters, names 1 to 100,
 * image URLs http(s) up to 2048, counts 0 to 2^53-1, at most 30 dynamic fields, `data` at most 10,240 bytes.
 */

typedef struct platformpp_game_stats_profile platformpp_game_stats_profile;

/** The primary fields that hold text (the *_IMAGE_URL ones an image's URL). */
typedef enum platformpp_game_stats_text_field {
  PLATFORMPP_GAME_STATS_TEXT_FIELD_SEASON = 0,
  PLATFORMPP_GAME_STATS_TEXT_FIELD_RANK_NAME = 1,
  PLATFORMPP_GAME_STATS_TEXT_FIELD_RANK_IMAGE_URL = 2,
  PLATFORMPP_GAME_STATS_TEXT_FIELD_HIGHEST_RANK = 3,
  PLATFORMPP_GAME_STATS_TEXT_FIELD_HIGHEST_RANK_IMAGE_URL = 4,
  PLATFORMPP_GAME_STATS_TEXT_FIELD_FEATURED_PLAYED_CHARACTER = 5,
  PLATFORMPP_GAME_STATS_TEXT_FIELD_FEATURED_PLAYED_CHARACTER_IMAGE_URL = 6,
  PLATFORMPP_GAME_STATS_TEXT_FIELD_FORCE_INT32 = 0x7FFFFFFF
} platformpp_game_stats_text_field;

/** The primary fields that hold a count. */
typedef enum platformpp_game_stats_count_field {
  PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_WINS = 0,
  PLATFORMPP_GAME_STATS_COUNT_FIELD_CURRENT_PERIOD_WINS = 1,
  PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_GAMES = 2,
  PLATFORMPP_GAME_STATS_COUNT_FIELD_CURRENT_PERIOD_GAMES = 3,
  PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_KILLS = 4,
  PLATFORMPP_GAME_STATS_COUNT_FIELD_CURRENT_PERIOD_KILLS = 5,
  PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_ASSISTS = 6,
  PLATFORMPP_GAME_STATS_COUNT_FIELD_CURRENT_PERIOD_ASSISTS = 7,
  PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_DEATHS = 8,
  PLATFORMPP_GAME_STATS_COUNT_FIELD_CURRENT_PERIOD_DEATHS = 9,
  PLATFORMPP_GAME_STATS_COUNT_FIELD_FORCE_INT32 = 0x7FFFFFFF
} platformpp_game_stats_count_field;

typedef enum platformpp_game_stats_dynamic_field_type {
  PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_STRING = 1,
  PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_NUMBER = 2,
  PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_MEDIA = 3,
  PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_game_stats_dynamic_field_type;

/** A developer-defined stat: name 1 to 64 characters of A-Z a-z 0-9 _; text: a STRING's value (1 to 100
 * characters) or a MEDIA's URL; number: a NUMBER's value (finite, within +-(2^53-1)). */
typedef struct platformpp_game_stats_dynamic_field {
  platformpp_game_stats_dynamic_field_type type;
  platformpp_string name;
  platformpp_string text;
  double number;
} platformpp_game_stats_dynamic_field;

/** An empty profile: no username, no data (writing it changes nothing). NULL when out of memory. */
PLATFORMPP_C_API platformpp_game_stats_profile* platformpp_game_stats_profile_create(void);
PLATFORMPP_C_API void platformpp_game_stats_profile_destroy(platformpp_game_stats_profile* profile);
/* Setters return non-zero on success; 0 for a NULL profile, a field or type out of the enum, or out of
 * memory. Setting any stat makes the profile carry `data`, which replaces every stored stat when written. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_set_username(platformpp_game_stats_profile* profile,
                                                                    const char* username,
                                                                    size_t username_size);
/** Whether the profile carries `data` (set: it replaces every stored stat, even empty; unset: they stay). */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_set_has_data(platformpp_game_stats_profile* profile,
                                                                    int32_t has_data);
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_set_text(platformpp_game_stats_profile* profile,
                                                                platformpp_game_stats_text_field field,
                                                                const char* text, size_t text_size);
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_set_count(platformpp_game_stats_profile* profile,
                                                                 platformpp_game_stats_count_field field,
                                                                 int64_t count);
/** Decimals allowed (e.g. 69.41). */
PLATFORMPP_C_API int32_t
platformpp_game_stats_profile_set_playtime_hours(platformpp_game_stats_profile* profile, double hours);
/** Appends a dynamic field (its strings are copied). */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_add_dynamic_field(
    platformpp_game_stats_profile* profile, const platformpp_game_stats_dynamic_field* field);
/* Getters return non-zero when the value is set and write it to *out (strings owned by the profile, valid
 * until it changes or is destroyed); 0 otherwise, *out untouched. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_username(const platformpp_game_stats_profile* profile,
                                                                platformpp_string* out);
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_has_data(const platformpp_game_stats_profile* profile);
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_text(const platformpp_game_stats_profile* profile,
                                                            platformpp_game_stats_text_field field,
                                                            platformpp_string* out);
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_count(const platformpp_game_stats_profile* profile,
                                                             platformpp_game_stats_count_field field,
                                                             int64_t* out);
PLATFORMPP_C_API int32_t
platformpp_game_stats_profile_playtime_hours(const platformpp_game_stats_profile* profile, double* out);
PLATFORMPP_C_API size_t
platformpp_game_stats_profile_dynamic_field_count(const platformpp_game_stats_profile* profile);
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_dynamic_field_at(
    const platformpp_game_stats_profile* profile, size_t index, platformpp_game_stats_dynamic_field* out);

/* Backend: the application's bot token, for the game's own server (never for a game client). */

typedef struct platformpp_backend platformpp_backend;

typedef struct platformpp_backend_options {
  int32_t api_version;             /**< PLATFORMPP_C_API_VERSION */
  platformpp_string api_base;      /**< empty: the platform's API */
  platformpp_string ca_file;       /**< PEM file of extra CAs to trust, e.g. the emulator's ca_file */
  int32_t use_system_certificates; /**< non-zero (default): also trust the system's store */
  platformpp_string bot_token;     /**< the application's bot token; copied, never logged */
  uint64_t application_id;         /**< the application (the Game Stats Widget's path names it) */
  int32_t http_timeout_ms;         /**< one HTTP exchange; 0: 30000 */
} platformpp_backend_options;

/** Completion of a profile read: on failure, profile is an empty one. Valid until the callback returns. */
typedef void (*platformpp_game_stats_profile_fn)(const platformpp_client_result* result,
                                                 const platformpp_game_stats_profile* profile,
                                                 void* user_data);

PLATFORMPP_C_API void platformpp_backend_options_init(platformpp_backend_options* options);
/** NULL when options is NULL or its api_version unknown, or the backend cannot be created. */
PLATFORMPP_C_API platformpp_backend* platformpp_backend_create(const platformpp_backend_options* options);
/** Completes every pending operation with CLIENT_DESTROYED before it returns. */
PLATFORMPP_C_API void platformpp_backend_destroy(platformpp_backend* backend);
PLATFORMPP_C_API void platformpp_backend_run_callbacks(platformpp_backend* backend);
/** Waits until something is queued or timeout_ms pass, then delivers it; non-zero when something was. */
PLATFORMPP_C_API int32_t platformpp_backend_wait_for_callbacks(platformpp_backend* backend,
                                                               int32_t timeout_ms);
PLATFORMPP_C_API void platformpp_backend_add_log_callback(platformpp_backend* backend,
                                                          platformpp_log_fn callback,
                                                          platformpp_logging_severity min_severity,
                                                          void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);
/** Writes the Game Stats Widget's data of player user_id, known to the game as provider_issued_user_id (1 to
 * 256 characters of A-Z a-z 0-9 and "._~:@-"). The game must be claimed and the player linked. Every limit is
 * checked first: a violation ends as VALIDATION_ERROR naming the field, nothing sent. profile is borrowed for
 * the call. */
PLATFORMPP_C_API void platformpp_backend_update_game_stats_profile(
    platformpp_backend* backend, uint64_t user_id, const char* provider_issued_user_id,
    size_t provider_issued_user_id_size, const platformpp_game_stats_profile* profile,
    platformpp_result_fn callback, void* user_data, platformpp_user_data_free_fn user_data_free);
/** Reads the profile back (the data the widget shows). */
PLATFORMPP_C_API void platformpp_backend_get_game_stats_profile(platformpp_backend* backend, uint64_t user_id,
                                                                const char* provider_issued_user_id,
                                                                size_t provider_issued_user_id_size,
                                                                platformpp_game_stats_profile_fn callback,
                                                                void* user_data,
                                                                platformpp_user_data_free_fn user_data_free);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_BACKEND_H */
