/** @file
 * Game server side of the C ABI: verifying signed webhook events (one request, or a ready-made endpoint) and
 * writing the Game Stats Widget through a backend handle that holds the application's bot token.
 *
 * platformpp C ABI, game server: what a game's own server does with the application's credentials, for
 * servers that bind C. Signed webhook events (a verify function for servers with an HTTP stack of their own,
 * and a ready-made endpoint) and the Game Stats Widget through a backend handle (the bot token). Part of
 * <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone.
 *
 * The handles here have no client: their callbacks run only inside their own run_callbacks
 * (platformpp_backend_run_callbacks, platformpp_webhook_events_run_callbacks), on the calling thread, and
 * their destroy ends what is pending (a backend's operations with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED)
 * before it returns. An exception stopped inside the library is logged through the handle's log callbacks.
 * See include/platformpp/webhook_events.hpp and include/platformpp/backend.hpp for the C++ layer.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_BACKEND_H
#define PLATFORMPP_PLATFORMPP_C_BACKEND_H

#include <platformpp/platformpp_c_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Webhook events: one verified request. */

/** One verified webhook request. A handle from platformpp_webhook_verify or platformpp_webhook_event_clone
 * is the caller's, released with platformpp_webhook_event_destroy; one handed to a
 * platformpp_webhook_event_fn is borrowed for that callback. Its strings are owned by it. */
typedef struct platformpp_webhook_event platformpp_webhook_event;

/** What a webhook request carries. */
typedef enum platformpp_webhook_event_kind {
  PLATFORMPP_WEBHOOK_EVENT_KIND_PING = 0,                /**< A PING (answered 204): no event. */
  PLATFORMPP_WEBHOOK_EVENT_KIND_EVENT = 1,               /**< An event. */
  PLATFORMPP_WEBHOOK_EVENT_KIND_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a kind. */
} platformpp_webhook_event_kind;

/** Which typed event the SDK read (UNKNOWN: a PING, an event this version does not know, or a known one whose
 * data lacks what its type needs; the raw data is still there). */
typedef enum platformpp_webhook_event_data_type {
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_UNKNOWN = 0, /**< Not typed; read platformpp_webhook_event_data_json. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_APPLICATION_AUTHORIZED = 1,      /**< The application was installed to a
                                                                         user's account or a guild. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_APPLICATION_DEAUTHORIZED = 2,    /**< The user unlinked their account or
                                                                         revoked the application. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_ENTITLEMENT_CREATE = 3,          /**< An entitlement was granted. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_QUEST_USER_ENROLLMENT = 4,       /**< A user joined a Quest. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_LOBBY_MESSAGE_CREATE = 5,        /**< A lobby message was sent. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_LOBBY_MESSAGE_UPDATE = 6,        /**< A lobby message was edited. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_LOBBY_MESSAGE_DELETE = 7,        /**< A lobby message was deleted. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_GAME_DIRECT_MESSAGE_CREATE = 8,  /**< A DM was sent in a game session. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_GAME_DIRECT_MESSAGE_UPDATE = 9,  /**< Such a DM was edited. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_GAME_DIRECT_MESSAGE_DELETE = 10, /**< Such a DM was deleted. */
  PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a type. */
} platformpp_webhook_event_data_type;

/** Checks one request the platform POSTed to the webhook events URL: the Ed25519 signature
 * (X-Signature-Ed25519, hex) over the timestamp header (X-Signature-Timestamp) followed by the body, with the
 * application's public key (64 hex digits); a timestamp more than max_age_seconds (0: 300) from now either
 * way is refused as a replay; then the body is parsed. now_unix_seconds: the receiver's clock, 0 for the
 * system's. Returns the status to answer: 204 (a PING or an accepted event), 401 (signature or timestamp
 * refused), 400 (a signed body that is not an event), 0 when the library failed (out of memory). On 204,
 * *event (when event is not NULL) receives a new handle the caller releases with
 * platformpp_webhook_event_destroy; otherwise NULL. Remembering event ids to deliver each once is the
 * caller's (platformpp_webhook_event_id); the endpoint below does it. All strings are borrowed for the call;
 * a NULL string counts as "".
 * @param public_key_hex The application's public key, 64 hex digits.
 * @param public_key_hex_size Length of `public_key_hex` in bytes.
 * @param signature_hex The X-Signature-Ed25519 header.
 * @param signature_hex_size Length of `signature_hex` in bytes.
 * @param timestamp The X-Signature-Timestamp header.
 * @param timestamp_size Length of `timestamp` in bytes.
 * @param body The request's body.
 * @param body_size Length of `body` in bytes.
 * @param now_unix_seconds The receiver's clock in Unix seconds; 0 for the system's.
 * @param max_age_seconds How far the timestamp may be from now, either way; 0 (or less) for 300.
 * @param event Receives the event on 204 (a new handle, or NULL otherwise); may be NULL.
 * @return 204, 401, 400, or 0 when the library failed. */
PLATFORMPP_C_API int32_t platformpp_webhook_verify(const char* public_key_hex, size_t public_key_hex_size,
                                                   const char* signature_hex, size_t signature_hex_size,
                                                   const char* timestamp, size_t timestamp_size,
                                                   const char* body, size_t body_size,
                                                   int64_t now_unix_seconds, int32_t max_age_seconds,
                                                   platformpp_webhook_event** event);

/** A copy the caller releases with platformpp_webhook_event_destroy (NULL stays NULL; NULL when out of
 * memory).
 * @param event The event, e.g. one lent to a platformpp_webhook_event_fn.
 * @return The new handle, or NULL. */
PLATFORMPP_C_API platformpp_webhook_event* platformpp_webhook_event_clone(
    const platformpp_webhook_event* event);
/** Releases an event the caller owns (never one lent to a callback).
 * @param event The handle; NULL is fine. */
PLATFORMPP_C_API void platformpp_webhook_event_destroy(platformpp_webhook_event* event);
/* Getters: strings are owned by the event, valid as long as it; *size (if not NULL) receives the length. NULL
 * event: 0, "" or UNKNOWN. */
/** Whether the request was a PING or an event.
 * @param event The event.
 * @return The kind; PING for NULL. */
PLATFORMPP_C_API platformpp_webhook_event_kind
platformpp_webhook_event_get_kind(const platformpp_webhook_event* event);
/** The application the request is for.
 * @param event The event.
 * @return The application's id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_webhook_event_application_id(const platformpp_webhook_event* event);
/** The event's name ("APPLICATION_AUTHORIZED", "ENTITLEMENT_CREATE", ...); "" for a PING.
 * @param event The event.
 * @param size Receives the length in bytes; may be NULL.
 * @return NUL-terminated, owned by the event and valid as long as it; "" for NULL. */
PLATFORMPP_C_API const char* platformpp_webhook_event_type_name(const platformpp_webhook_event* event,
                                                                size_t* size);
/** What identifies the event across the platform's retries (64 hex digits); "" for a PING.
 * @param event The event.
 * @param size Receives the length in bytes; may be NULL.
 * @return NUL-terminated, owned by the event and valid as long as it; "" for NULL. */
PLATFORMPP_C_API const char* platformpp_webhook_event_id(const platformpp_webhook_event* event, size_t* size);
/** When the event happened, ISO 8601 as sent.
 * @param event The event.
 * @param size Receives the length in bytes; may be NULL.
 * @return NUL-terminated, owned by the event and valid as long as it; "" for NULL. */
PLATFORMPP_C_API const char* platformpp_webhook_event_timestamp(const platformpp_webhook_event* event,
                                                                size_t* size);
/** The event's `data` object as JSON text; "" when it has none.
 * @param event The event.
 * @param size Receives the length in bytes; may be NULL.
 * @return NUL-terminated, owned by the event and valid as long as it; "" for NULL. */
PLATFORMPP_C_API const char* platformpp_webhook_event_data_json(const platformpp_webhook_event* event,
                                                                size_t* size);
/** Which typed event the SDK read, telling which of the getters below apply.
 * @param event The event.
 * @return The type; UNKNOWN for NULL. */
PLATFORMPP_C_API platformpp_webhook_event_data_type
platformpp_webhook_event_get_data_type(const platformpp_webhook_event* event);
/** The user of APPLICATION_AUTHORIZED or APPLICATION_DEAUTHORIZED; 0 for other events.
 * @param event The event.
 * @return The user's id; 0 for other events and for NULL. */
PLATFORMPP_C_API uint64_t platformpp_webhook_event_user_id(const platformpp_webhook_event* event);
/** The entitlement of ENTITLEMENT_CREATE (read as the SDK reads entitlements); 0 for other events.
 * @param event The event.
 * @return The entitlement's id; 0 for other events and for NULL. */
PLATFORMPP_C_API uint64_t platformpp_webhook_event_entitlement_id(const platformpp_webhook_event* event);
/** The SKU of the entitlement of ENTITLEMENT_CREATE.
 * @param event The event.
 * @return The SKU's id; 0 for other events and for NULL. */
PLATFORMPP_C_API uint64_t platformpp_webhook_event_entitlement_sku_id(const platformpp_webhook_event* event);
/** 0 for an entitlement a guild owns.
 * @param event The event.
 * @return The owning user of the entitlement of ENTITLEMENT_CREATE; 0 for a guild's, for other events and
 * for NULL. */
PLATFORMPP_C_API uint64_t platformpp_webhook_event_entitlement_user_id(const platformpp_webhook_event* event);
/** 0 unless a guild owns it.
 * @param event The event.
 * @return The owning guild of the entitlement of ENTITLEMENT_CREATE; 0 unless a guild owns it, for other
 * events and for NULL. */
PLATFORMPP_C_API uint64_t
platformpp_webhook_event_entitlement_guild_id(const platformpp_webhook_event* event);
/** 1 PURCHASE, 8 APPLICATION_SUBSCRIPTION, ... (the platform's entitlement types).
 * @param event The event.
 * @return The type of the entitlement of ENTITLEMENT_CREATE (values of platformpp_entitlement_type in
 * platformpp_c_premium.h, or others the platform sends); 0 for other events and for NULL. */
PLATFORMPP_C_API int32_t platformpp_webhook_event_entitlement_type(const platformpp_webhook_event* event);
/** Non-zero when the entitlement has an end; *ends_at_ms (if not NULL) receives it (Unix milliseconds). 0 for
 * an indefinite one.
 * @param event The event (ENTITLEMENT_CREATE).
 * @param ends_at_ms Receives the end in Unix milliseconds; may be NULL; untouched when 0 is returned.
 * @return Non-zero when the entitlement has an end; 0 for an indefinite one, other events and NULL. */
PLATFORMPP_C_API int32_t platformpp_webhook_event_entitlement_ends_at(const platformpp_webhook_event* event,
                                                                      uint64_t* ends_at_ms);

/* Interactions: one verified request to the application's interactions endpoint URL. A game server with an
 * HTTP stack of its own checks each request with platformpp_interaction_verify, answers a PING with
 * PLATFORMPP_INTERACTION_PONG_BODY, and an interaction with its interaction response (JSON) within 3 seconds,
 * in the HTTP reply or through the callback route. */

/** One verified interaction. A handle from platformpp_interaction_verify or platformpp_interaction_clone is
 * the caller's, released with platformpp_interaction_destroy. Its strings are owned by it. */
typedef struct platformpp_interaction platformpp_interaction;

/** What an interaction is (`type`). */
typedef enum platformpp_interaction_type {
  PLATFORMPP_INTERACTION_TYPE_PING = 1,                /**< The platform checking the URL: answer PONG. */
  PLATFORMPP_INTERACTION_TYPE_APPLICATION_COMMAND = 2, /**< A command was invoked. */
  PLATFORMPP_INTERACTION_TYPE_MESSAGE_COMPONENT = 3,   /**< A button was clicked or a select chosen. */
  PLATFORMPP_INTERACTION_TYPE_AUTOCOMPLETE = 4,        /**< An option being typed asks for suggestions. */
  PLATFORMPP_INTERACTION_TYPE_MODAL_SUBMIT = 5,        /**< A modal was submitted. */
  PLATFORMPP_INTERACTION_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a type. */
} platformpp_interaction_type;

/** The body that answers a PING (with status 200 and Content-Type application/json). */
#define PLATFORMPP_INTERACTION_PONG_BODY "{\"type\":1}"

/** Checks one request the platform POSTed to the interactions endpoint URL, as platformpp_webhook_verify
 * checks webhook events (the Ed25519 signature over the timestamp header and the body, with the application's
 * public key; a timestamp further than max_age_seconds, 0: 300, from now refused), then reads the
 * interaction. Returns the status to answer: 200 (a PING, to answer with PLATFORMPP_INTERACTION_PONG_BODY, or
 * an interaction, to answer with its response), 401 (signature or timestamp refused), 400 (a signed body that
 * is not an interaction), 0 when the library failed. On 200, *interaction (when not NULL) receives a new
 * handle the caller releases with platformpp_interaction_destroy; otherwise NULL. Strings are borrowed for
 * the call; a NULL string counts as "".
 * @param public_key_hex The application's public key, 64 hex digits.
 * @param public_key_hex_size Length of `public_key_hex` in bytes.
 * @param signature_hex The X-Signature-Ed25519 header.
 * @param signature_hex_size Length of `signature_hex` in bytes.
 * @param timestamp The X-Signature-Timestamp header.
 * @param timestamp_size Length of `timestamp` in bytes.
 * @param body The request's body.
 * @param body_size Length of `body` in bytes.
 * @param now_unix_seconds The receiver's clock in Unix seconds; 0 for the system's.
 * @param max_age_seconds How far the timestamp may be from now, either way; 0 (or less) for 300.
 * @param interaction Receives the interaction on 200 (a new handle, or NULL otherwise); may be NULL.
 * @return 200, 401, 400, or 0 when the library failed. */
PLATFORMPP_C_API int32_t platformpp_interaction_verify(const char* public_key_hex, size_t public_key_hex_size,
                                                       const char* signature_hex, size_t signature_hex_size,
                                                       const char* timestamp, size_t timestamp_size,
                                                       const char* body, size_t body_size,
                                                       int64_t now_unix_seconds, int32_t max_age_seconds,
                                                       platformpp_interaction** interaction);
/** A copy the caller releases with platformpp_interaction_destroy (NULL stays NULL; NULL when out of memory).
 * @param interaction The interaction.
 * @return The new handle, or NULL. */
PLATFORMPP_C_API platformpp_interaction* platformpp_interaction_clone(
    const platformpp_interaction* interaction);
/** Releases an interaction the caller owns.
 * @param interaction The handle; NULL is fine. */
PLATFORMPP_C_API void platformpp_interaction_destroy(platformpp_interaction* interaction);
/* Getters: strings are owned by the interaction, valid as long as it; *size (if not NULL) receives the
 * length. NULL interaction: 0 or "". */
/** What the interaction is.
 * @param interaction The interaction.
 * @return Its type; PING for NULL. */
PLATFORMPP_C_API platformpp_interaction_type
platformpp_interaction_get_type(const platformpp_interaction* interaction);
/** The interaction's id (the callback route's).
 * @param interaction The interaction.
 * @return The id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_interaction_id(const platformpp_interaction* interaction);
/** The application it is for.
 * @param interaction The interaction.
 * @return The application's id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_interaction_application_id(const platformpp_interaction* interaction);
/** The token that answers it (the callback route, then the webhook routes for 15 minutes). A secret: never
 * log it.
 * @param interaction The interaction.
 * @param size Receives the length in bytes; may be NULL.
 * @return The token; "" for NULL. */
PLATFORMPP_C_API const char* platformpp_interaction_token(const platformpp_interaction* interaction,
                                                          size_t* size);
/** The guild it happened in.
 * @param interaction The interaction.
 * @return The guild's id; 0 in a DM or for NULL. */
PLATFORMPP_C_API uint64_t platformpp_interaction_guild_id(const platformpp_interaction* interaction);
/** The channel it happened in.
 * @param interaction The interaction.
 * @return The channel's id; 0 when absent or for NULL. */
PLATFORMPP_C_API uint64_t platformpp_interaction_channel_id(const platformpp_interaction* interaction);
/** The user who triggered it (the member's user in a guild).
 * @param interaction The interaction.
 * @return The user's id; 0 for a PING or NULL. */
PLATFORMPP_C_API uint64_t platformpp_interaction_user_id(const platformpp_interaction* interaction);
/** The invoking user's language, e.g. "en-US".
 * @param interaction The interaction.
 * @param size Receives the length in bytes; may be NULL.
 * @return The locale; "" when absent or for NULL. */
PLATFORMPP_C_API const char* platformpp_interaction_locale(const platformpp_interaction* interaction,
                                                           size_t* size);
/** A command or autocomplete interaction's command name.
 * @param interaction The interaction.
 * @param size Receives the length in bytes; may be NULL.
 * @return The name; "" for other types or NULL. */
PLATFORMPP_C_API const char* platformpp_interaction_command_name(const platformpp_interaction* interaction,
                                                                 size_t* size);
/** A component interaction's or a modal submission's custom id.
 * @param interaction The interaction.
 * @param size Receives the length in bytes; may be NULL.
 * @return The custom id; "" for other types or NULL. */
PLATFORMPP_C_API const char* platformpp_interaction_custom_id(const platformpp_interaction* interaction,
                                                              size_t* size);
/** The whole interaction as JSON text (options, values, resolved objects: what the getters leave out).
 * @param interaction The interaction.
 * @param size Receives the length in bytes; may be NULL.
 * @return The JSON; "" for NULL. */
PLATFORMPP_C_API const char* platformpp_interaction_json(const platformpp_interaction* interaction,
                                                         size_t* size);

/* Webhook events: the ready-made endpoint (HTTP, or HTTPS with a certificate). Every request is verified as
 * platformpp_webhook_verify does: a PING is answered 204; a bad signature, missing headers or a stale
 * timestamp 401, nothing delivered; an event 204, and delivered once per event id even when the platform
 * retries. The platform is answered once the event is queued: an event still queued at destroy is lost. */

/** An HTTP(S) endpoint for the application's webhook events URL, which the caller owns and releases with
 * platformpp_webhook_events_destroy. */
typedef struct platformpp_webhook_events platformpp_webhook_events;

/** Options of platformpp_webhook_events_create; fill them with platformpp_webhook_events_options_init first.
 * The strings are borrowed for the create call. */
typedef struct platformpp_webhook_events_options {
  int32_t api_version;                          /**< PLATFORMPP_C_API_VERSION */
  platformpp_string public_key_hex;             /**< the application's public key (64 hex digits) */
  platformpp_string address;                    /**< where to listen; empty: 127.0.0.1 */
  int32_t port;                                 /**< 0 (default): any free port; see _port */
  platformpp_string path;                       /**< the URL's path; other paths get 404; empty: "/" */
  platformpp_string tls_certificate_chain_file; /**< HTTPS when both PEM files are given */
  platformpp_string tls_private_key_file;       /**< PEM file of the certificate's private key */
} platformpp_webhook_events_options;

/** Called inside platformpp_webhook_events_run_callbacks for each event delivered; event is valid until it
 * returns (clone it to keep it).
 * @param event The event, borrowed for the callback (platformpp_webhook_event_clone keeps it).
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_webhook_event_fn)(const platformpp_webhook_event* event, void* user_data);

/** Fills `options` with the defaults: api_version PLATFORMPP_C_API_VERSION, everything else empty or 0.
 * @param options The options to fill; NULL does nothing. */
PLATFORMPP_C_API void platformpp_webhook_events_options_init(platformpp_webhook_events_options* options);
/** Does not listen yet (see _start). NULL when options is NULL, its api_version is unknown or port is not 0
 * to 65535, or out of memory.
 * @param options The options, read during the call only.
 * @return A new endpoint the caller releases with platformpp_webhook_events_destroy, or NULL. */
PLATFORMPP_C_API platformpp_webhook_events* platformpp_webhook_events_create(
    const platformpp_webhook_events_options* options);
/** Stops listening and drops events not yet delivered; runs no callback. Every user_data_free has run when it
 * returns.
 * @param events The endpoint; NULL is fine. */
PLATFORMPP_C_API void platformpp_webhook_events_destroy(platformpp_webhook_events* events);
/** Replaces any earlier callback (the earlier user_data_free runs then, or at destroy); NULL removes it.
 * Events delivered while none is set are dropped (and logged).
 * @param events The endpoint; NULL frees user_data at once.
 * @param callback Runs inside platformpp_webhook_events_run_callbacks (or _wait_for_callbacks) for each
 * event; NULL removes the registration.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced or removed, or at destroy (at once
 * for a NULL endpoint or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_webhook_events_set_event_callback(
    platformpp_webhook_events* events, platformpp_webhook_event_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Adds a callback for the endpoint's log messages at `min_severity` and above.
 * @param events The endpoint; NULL frees user_data at once.
 * @param callback Runs inside platformpp_webhook_events_run_callbacks (or _wait_for_callbacks) for each
 * message (the message is borrowed for the callback); NULL frees user_data at once and adds nothing.
 * @param min_severity The least severe messages it gets.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data when the endpoint is destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_webhook_events_add_log_callback(platformpp_webhook_events* events,
                                                                 platformpp_log_fn callback,
                                                                 platformpp_logging_severity min_severity,
                                                                 void* user_data,
                                                                 platformpp_user_data_free_fn user_data_free);
/** Binds and starts accepting. Returns a new result the caller releases with
 * platformpp_client_result_destroy: VALIDATION_ERROR for a bad key, path or TLS file, NETWORK_ERROR when the
 * address cannot be bound; NULL events or out of memory: NULL. Starting a running endpoint succeeds.
 * @param events The endpoint.
 * @return The result (the caller's, released with platformpp_client_result_destroy), or NULL. */
PLATFORMPP_C_API platformpp_client_result* platformpp_webhook_events_start(platformpp_webhook_events* events);
/** Closes the listener and every connection; events already accepted stay queued for run_callbacks. Start may
 * follow: the ids already delivered are still remembered.
 * @param events The endpoint; NULL does nothing. */
PLATFORMPP_C_API void platformpp_webhook_events_stop(platformpp_webhook_events* events);
/** Whether the endpoint is listening.
 * @param events The endpoint.
 * @return Non-zero while running; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_webhook_events_running(const platformpp_webhook_events* events);
/** The port listened on (the one picked when options.port was 0); 0 when not running.
 * @param events The endpoint.
 * @return The port; 0 when not running and for NULL. */
PLATFORMPP_C_API int32_t platformpp_webhook_events_port(const platformpp_webhook_events* events);
/** Delivers the events and log messages queued so far, on the calling thread; never blocks.
 * @param events The endpoint; NULL does nothing. */
PLATFORMPP_C_API void platformpp_webhook_events_run_callbacks(platformpp_webhook_events* events);
/** Waits until something is queued or timeout_ms pass, then delivers it (runs callbacks, unlike
 * platformpp_client_wait_for_callbacks); non-zero when something was.
 * @param events The endpoint; NULL gives 0 at once.
 * @param timeout_ms How long to wait at most, in milliseconds.
 * @return Non-zero when something was delivered; 0 otherwise. */
PLATFORMPP_C_API int32_t platformpp_webhook_events_wait_for_callbacks(platformpp_webhook_events* events,
                                                                      int32_t timeout_ms);

/* Game Stats Widget: a player's Application Identity Profile, built and read through a profile handle. Limits
 * (checked before anything is sent; docs/premium-protocol.md): username 1 to 1024 characters, names 1 to 100,
 * image URLs http(s) up to 2048, counts 0 to 2^53-1, at most 30 dynamic fields, `data` at most 10,240 bytes.
 */

/** A player's Application Identity Profile as the game writes or reads it: the caller owns one from
 * platformpp_game_stats_profile_create and releases it with platformpp_game_stats_profile_destroy; one handed
 * to a platformpp_game_stats_profile_fn is borrowed for that callback. */
typedef struct platformpp_game_stats_profile platformpp_game_stats_profile;

/** The primary fields that hold text (the *_IMAGE_URL ones an image's URL). */
typedef enum platformpp_game_stats_text_field {
  PLATFORMPP_GAME_STATS_TEXT_FIELD_SEASON = 0,                              /**< The season. */
  PLATFORMPP_GAME_STATS_TEXT_FIELD_RANK_NAME = 1,                           /**< The current rank. */
  PLATFORMPP_GAME_STATS_TEXT_FIELD_RANK_IMAGE_URL = 2,                      /**< Its image. */
  PLATFORMPP_GAME_STATS_TEXT_FIELD_HIGHEST_RANK = 3,                        /**< The highest rank. */
  PLATFORMPP_GAME_STATS_TEXT_FIELD_HIGHEST_RANK_IMAGE_URL = 4,              /**< Its image. */
  PLATFORMPP_GAME_STATS_TEXT_FIELD_FEATURED_PLAYED_CHARACTER = 5,           /**< The featured character. */
  PLATFORMPP_GAME_STATS_TEXT_FIELD_FEATURED_PLAYED_CHARACTER_IMAGE_URL = 6, /**< Its image. */
  PLATFORMPP_GAME_STATS_TEXT_FIELD_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a field. */
} platformpp_game_stats_text_field;

/** The primary fields that hold a count. */
typedef enum platformpp_game_stats_count_field {
  PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_WINS = 0,             /**< Wins in all. */
  PLATFORMPP_GAME_STATS_COUNT_FIELD_CURRENT_PERIOD_WINS = 1,    /**< Wins this period. */
  PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_GAMES = 2,            /**< Games in all. */
  PLATFORMPP_GAME_STATS_COUNT_FIELD_CURRENT_PERIOD_GAMES = 3,   /**< Games this period. */
  PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_KILLS = 4,            /**< Kills in all. */
  PLATFORMPP_GAME_STATS_COUNT_FIELD_CURRENT_PERIOD_KILLS = 5,   /**< Kills this period. */
  PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_ASSISTS = 6,          /**< Assists in all. */
  PLATFORMPP_GAME_STATS_COUNT_FIELD_CURRENT_PERIOD_ASSISTS = 7, /**< Assists this period. */
  PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_DEATHS = 8,           /**< Deaths in all. */
  PLATFORMPP_GAME_STATS_COUNT_FIELD_CURRENT_PERIOD_DEATHS = 9,  /**< Deaths this period. */
  PLATFORMPP_GAME_STATS_COUNT_FIELD_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a field. */
} platformpp_game_stats_count_field;

/** What a dynamic field holds. */
typedef enum platformpp_game_stats_dynamic_field_type {
  PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_STRING = 1,              /**< Text, in `text`. */
  PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_NUMBER = 2,              /**< A number, in `number`. */
  PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_MEDIA = 3,               /**< An image's URL, in `text`. */
  PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a
                                                                       type. */
} platformpp_game_stats_dynamic_field_type;

/** A developer-defined stat: name 1 to 64 characters of A-Z a-z 0-9 _; text: a STRING's value (1 to 100
 * characters) or a MEDIA's URL; number: a NUMBER's value (finite, within +-(2^53-1)). */
typedef struct platformpp_game_stats_dynamic_field {
  platformpp_game_stats_dynamic_field_type type; /**< What it holds. */
  platformpp_string name;                        /**< Its name in the widget editor (never shown). */
  platformpp_string text;                        /**< A STRING's value or a MEDIA's URL. */
  double number;                                 /**< A NUMBER's value. */
} platformpp_game_stats_dynamic_field;

/** An empty profile: no username, no data (writing it changes nothing). NULL when out of memory.
 * @return A new profile the caller releases with platformpp_game_stats_profile_destroy, or NULL. */
PLATFORMPP_C_API platformpp_game_stats_profile* platformpp_game_stats_profile_create(void);
/** Releases a profile the caller owns (never one lent to a callback).
 * @param profile The profile; NULL is fine. */
PLATFORMPP_C_API void platformpp_game_stats_profile_destroy(platformpp_game_stats_profile* profile);
/* Setters return non-zero on success; 0 for a NULL profile, a field or type out of the enum, or out of
 * memory. Setting any stat makes the profile carry `data`, which replaces every stored stat when written. */
/** Sets the player's name in the game (1 to 1024 characters); unset keeps the stored one.
 * @param profile The profile.
 * @param username UTF-8, copied.
 * @param username_size Length of `username` in bytes.
 * @return Non-zero on success; 0 for a NULL profile or out of memory. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_set_username(platformpp_game_stats_profile* profile,
                                                                    const char* username,
                                                                    size_t username_size);
/** Whether the profile carries `data` (set: it replaces every stored stat, even empty; unset: they stay).
 * @param profile The profile.
 * @param has_data Non-zero to carry `data` (keeping the stats set so far); 0 drops it with every stat set.
 * @return Non-zero on success; 0 for a NULL profile or out of memory. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_set_has_data(platformpp_game_stats_profile* profile,
                                                                    int32_t has_data);
/** Sets a primary text field (names 1 to 100 characters; image URLs http(s), at most 2048).
 * @param profile The profile.
 * @param field The field.
 * @param text UTF-8, copied.
 * @param text_size Length of `text` in bytes.
 * @return Non-zero on success; 0 for a NULL profile, a field out of the enum, or out of memory. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_set_text(platformpp_game_stats_profile* profile,
                                                                platformpp_game_stats_text_field field,
                                                                const char* text, size_t text_size);
/** Sets a primary count field (0 to 2^53-1).
 * @param profile The profile.
 * @param field The field.
 * @param count The count.
 * @return Non-zero on success; 0 for a NULL profile, a field out of the enum, or out of memory. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_set_count(platformpp_game_stats_profile* profile,
                                                                 platformpp_game_stats_count_field field,
                                                                 int64_t count);
/** Decimals allowed (e.g. 69.41). Sets the hours played.
 * @param profile The profile.
 * @param hours The hours played.
 * @return Non-zero on success; 0 for a NULL profile or out of memory. */
PLATFORMPP_C_API int32_t
platformpp_game_stats_profile_set_playtime_hours(platformpp_game_stats_profile* profile, double hours);
/** Appends a dynamic field (its strings are copied). At most 30 are accepted when written.
 * @param profile The profile.
 * @param field The field, read during the call only.
 * @return Non-zero on success; 0 for a NULL profile or field, a type out of the enum, or out of memory. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_add_dynamic_field(
    platformpp_game_stats_profile* profile, const platformpp_game_stats_dynamic_field* field);
/* Getters return non-zero when the value is set and write it to *out (strings owned by the profile, valid
 * until it changes or is destroyed); 0 otherwise, *out untouched. */
/** The player's name in the game.
 * @param profile The profile.
 * @param out Receives the name, owned by the profile (valid until it changes or is destroyed); may be NULL.
 * @return Non-zero when set; 0 otherwise (also for NULL), `*out` untouched. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_username(const platformpp_game_stats_profile* profile,
                                                                platformpp_string* out);
/** Whether the profile carries `data`.
 * @param profile The profile.
 * @return Non-zero when it does; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_has_data(const platformpp_game_stats_profile* profile);
/** A primary text field.
 * @param profile The profile.
 * @param field The field.
 * @param out Receives the text, owned by the profile (valid until it changes or is destroyed); may be NULL.
 * @return Non-zero when set; 0 otherwise (also for NULL or a field out of the enum), `*out` untouched. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_text(const platformpp_game_stats_profile* profile,
                                                            platformpp_game_stats_text_field field,
                                                            platformpp_string* out);
/** A primary count field.
 * @param profile The profile.
 * @param field The field.
 * @param out Receives the count; may be NULL.
 * @return Non-zero when set; 0 otherwise (also for NULL or a field out of the enum), `*out` untouched. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_count(const platformpp_game_stats_profile* profile,
                                                             platformpp_game_stats_count_field field,
                                                             int64_t* out);
/** The hours played.
 * @param profile The profile.
 * @param out Receives the hours; may be NULL.
 * @return Non-zero when set; 0 otherwise (also for NULL), `*out` untouched. */
PLATFORMPP_C_API int32_t
platformpp_game_stats_profile_playtime_hours(const platformpp_game_stats_profile* profile, double* out);
/** How many dynamic fields the profile holds.
 * @param profile The profile.
 * @return The count; 0 without `data` and for NULL. */
PLATFORMPP_C_API size_t
platformpp_game_stats_profile_dynamic_field_count(const platformpp_game_stats_profile* profile);
/** One dynamic field, in the order they were added.
 * @param profile The profile.
 * @param index 0 to platformpp_game_stats_profile_dynamic_field_count - 1.
 * @param out Receives the field; its strings are owned by the profile (valid until it changes or is
 * destroyed); may be NULL.
 * @return Non-zero when `index` is in range; 0 otherwise (also for NULL), `*out` untouched. */
PLATFORMPP_C_API int32_t platformpp_game_stats_profile_dynamic_field_at(
    const platformpp_game_stats_profile* profile, size_t index, platformpp_game_stats_dynamic_field* out);

/* Backend: the application's bot token, for the game's own server (never for a game client). */

/** The game server's connection to the platform with the application's bot token; the caller owns it and
 * releases it with platformpp_backend_destroy. Its callbacks run inside platformpp_backend_run_callbacks. */
typedef struct platformpp_backend platformpp_backend;

/** Options of platformpp_backend_create; fill them with platformpp_backend_options_init first. The strings
 * are borrowed for the create call. */
typedef struct platformpp_backend_options {
  int32_t api_version;             /**< PLATFORMPP_C_API_VERSION */
  platformpp_string api_base;      /**< empty: the platform's API */
  platformpp_string ca_file;       /**< PEM file of extra CAs to trust, e.g. the emulator's ca_file */
  int32_t use_system_certificates; /**< non-zero (default): also trust the system's store */
  platformpp_string bot_token;     /**< the application's bot token; copied, never logged */
  uint64_t application_id;         /**< the application (the Game Stats Widget's path names it) */
  int32_t http_timeout_ms;         /**< one HTTP exchange; 0: 30000 */
} platformpp_backend_options;

/** Completion of a profile read: on failure, profile is an empty one. Valid until the callback returns.
 * Runs inside platformpp_backend_run_callbacks.
 * @param result The outcome, borrowed for the callback (platformpp_client_result_clone keeps it longer).
 * @param profile The profile read, borrowed for the callback (never NULL; read it with the getters, do not
 * destroy it).
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_game_stats_profile_fn)(const platformpp_client_result* result,
                                                 const platformpp_game_stats_profile* profile,
                                                 void* user_data);

/** Fills `options` with the defaults: api_version PLATFORMPP_C_API_VERSION, use_system_certificates 1,
 * everything else empty or 0.
 * @param options The options to fill; NULL does nothing. */
PLATFORMPP_C_API void platformpp_backend_options_init(platformpp_backend_options* options);
/** NULL when options is NULL or its api_version unknown, or the backend cannot be created.
 * @param options The options, read during the call only (the bot token is copied).
 * @return A new backend the caller releases with platformpp_backend_destroy, or NULL. */
PLATFORMPP_C_API platformpp_backend* platformpp_backend_create(const platformpp_backend_options* options);
/** Completes every pending operation with CLIENT_DESTROYED before it returns.
 * @param backend The backend; NULL is fine. */
PLATFORMPP_C_API void platformpp_backend_destroy(platformpp_backend* backend);
/** Runs the callbacks queued so far (completions and log messages) on the calling thread. A callback may
 * destroy the backend.
 * @param backend The backend; NULL does nothing. */
PLATFORMPP_C_API void platformpp_backend_run_callbacks(platformpp_backend* backend);
/** Waits until something is queued or timeout_ms pass, then delivers it; non-zero when something was.
 * @param backend The backend; NULL gives 0 at once.
 * @param timeout_ms How long to wait at most, in milliseconds.
 * @return Non-zero when something was delivered, or when an operation stopped by a failure waits for
 * platformpp_backend_run_callbacks; 0 otherwise. */
PLATFORMPP_C_API int32_t platformpp_backend_wait_for_callbacks(platformpp_backend* backend,
                                                               int32_t timeout_ms);
/** Adds a callback for the backend's log messages at `min_severity` and above.
 * @param backend The backend; NULL frees user_data at once.
 * @param callback Runs inside platformpp_backend_run_callbacks for each message (the message is borrowed for
 * the callback); NULL frees user_data at once and adds nothing.
 * @param min_severity The least severe messages it gets.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data when the backend is destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_backend_add_log_callback(platformpp_backend* backend,
                                                          platformpp_log_fn callback,
                                                          platformpp_logging_severity min_severity,
                                                          void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);
/** Writes the Game Stats Widget's data of player user_id, known to the game as provider_issued_user_id (1 to
 * 256 characters of A-Z a-z 0-9 and "._~:@-"). The game must be claimed and the player linked. Every limit is
 * checked first: a violation ends as VALIDATION_ERROR naming the field, nothing sent. profile is borrowed for
 * the call.
 * @param backend The backend; NULL frees user_data at once and calls nothing.
 * @param user_id The player's user id.
 * @param provider_issued_user_id The game's id of the player; borrowed for the call.
 * @param provider_issued_user_id_size Length of `provider_issued_user_id` in bytes.
 * @param profile What to write, copied; NULL writes an empty profile (checked and sent, changing nothing).
 * @param callback Runs once inside platformpp_backend_run_callbacks with the result; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_backend_update_game_stats_profile(
    platformpp_backend* backend, uint64_t user_id, const char* provider_issued_user_id,
    size_t provider_issued_user_id_size, const platformpp_game_stats_profile* profile,
    platformpp_result_fn callback, void* user_data, platformpp_user_data_free_fn user_data_free);
/** Reads the profile back (the data the widget shows).
 * @param backend The backend; NULL frees user_data at once and calls nothing.
 * @param user_id The player's user id.
 * @param provider_issued_user_id The game's id of the player; borrowed for the call.
 * @param provider_issued_user_id_size Length of `provider_issued_user_id` in bytes.
 * @param callback Runs once inside platformpp_backend_run_callbacks with the profile; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
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
