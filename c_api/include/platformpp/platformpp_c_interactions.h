/** @file
 * Game server side of the C ABI: answering interactions (commands, components, modals, autocomplete, the
 * Launch entry point) through a ready-made interactions endpoint or the bot's Gateway session, and the
 * premium button that sells one of the game's SKUs in a message.
 *
 * Part of <platformpp/platformpp_c.h> (its conventions apply); it can also be included alone. It builds on
 * platformpp_c_backend.h: platformpp_interaction (what the platform sent, read with the
 * platformpp_interaction_* getters) and platformpp_backend (the bot token, for answers that go through the
 * API).
 *
 * Threading as the webhook events endpoint: the interaction callback, log callbacks and every answer's done
 * callback run only inside the handle's own run_callbacks (or wait_for_callbacks), on the calling thread. The
 * platform waits 3 seconds for the first answer, counted from the request's arrival: pump run_callbacks
 * often. When the game has not answered after defer_after_ms, the library answers a deferred response itself
 * (auto_defer), and a later message becomes the edit of the original response through the backend handle.
 * See include/platformpp/interactions_endpoint.hpp and include/platformpp/interactions_gateway.hpp.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_INTERACTIONS_H
#define PLATFORMPP_PLATFORMPP_C_INTERACTIONS_H

#include <platformpp/platformpp_c_backend.h>
#include <platformpp/platformpp_c_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Message flag: only the user who triggered the interaction sees the message. */
#define PLATFORMPP_MESSAGE_FLAG_EPHEMERAL (UINT64_C(1) << 6)
/** Message flag: no embeds for the message's links. */
#define PLATFORMPP_MESSAGE_FLAG_SUPPRESS_EMBEDS (UINT64_C(1) << 2)
/** Message flag: no push or desktop notification. */
#define PLATFORMPP_MESSAGE_FLAG_SUPPRESS_NOTIFICATIONS (UINT64_C(1) << 12)
/** Message flag: the message is made of components alone (Text Display, Container, ...): no content. */
#define PLATFORMPP_MESSAGE_FLAG_IS_COMPONENTS_V2 (UINT64_C(1) << 15)

/* The responder: the answer to one interaction, given once. */

/** The answer to one interaction. One lent to a platformpp_interaction_fn is borrowed for that callback;
 * platformpp_interaction_responder_clone keeps it to answer later (from any thread: the game may finish its
 * work first), released with platformpp_interaction_responder_destroy. Clones share the answer: whichever
 * answers first answers. Releasing every handle without answering leaves the interaction to the endpoint's
 * deferral (or, without auto_defer, to the platform's failure at 3 seconds). */
typedef struct platformpp_interaction_responder platformpp_interaction_responder;

/** Called inside run_callbacks for each interaction (never for a PING, which the library answers itself).
 * @param interaction The interaction, borrowed for the callback (platformpp_interaction_clone keeps it).
 * @param responder Its answer, borrowed for the callback (platformpp_interaction_responder_clone keeps it).
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_interaction_fn)(const platformpp_interaction* interaction,
                                          platformpp_interaction_responder* responder, void* user_data);

/** A copy the caller releases with platformpp_interaction_responder_destroy: it shares the answer (NULL
 * stays NULL; NULL when out of memory).
 * @param responder The responder, e.g. one lent to a platformpp_interaction_fn.
 * @return The new handle, or NULL. */
PLATFORMPP_C_API platformpp_interaction_responder* platformpp_interaction_responder_clone(
    const platformpp_interaction_responder* responder);
/** Releases a responder the caller owns (never one lent to a callback); answers nothing.
 * @param responder The handle; NULL is fine. */
PLATFORMPP_C_API void platformpp_interaction_responder_destroy(platformpp_interaction_responder* responder);
/** The interaction to answer.
 * @param responder The responder.
 * @return The interaction, owned by the responder and valid as long as it; NULL for NULL. */
PLATFORMPP_C_API const platformpp_interaction* platformpp_interaction_responder_interaction(
    const platformpp_interaction_responder* responder);
/** Whether an answer was accepted (the game's, or the library's own deferral).
 * @param responder The responder.
 * @return Non-zero once answered; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t
platformpp_interaction_responder_answered(const platformpp_interaction_responder* responder);
/** Whether the library deferred the interaction itself (a later message edits the original response).
 * @param responder The responder.
 * @return Non-zero when it did; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t
platformpp_interaction_responder_deferred(const platformpp_interaction_responder* responder);

/* Answers. Each builds the response, checks it against the platform's rules for the interaction's type
 * (components_json parsed and checked as the surface needs: a message's rows or its IS_COMPONENTS_V2
 * layout, a modal's labels) and returns a new result the caller releases with
 * platformpp_client_result_destroy:
 * - failure (VALIDATION_ERROR, each broken rule at its path in platformpp_client_result_field_error_path,
 *   e.g. "data.components.0.components.0.custom_id"): nothing was sent, `done` does not run and user_data is
 *   freed before the call returns; the responder is still unanswered, so a corrected answer may follow.
 *   CLIENT_DESTROYED when the endpoint or gateway is gone.
 * - success: the answer was handed over; `done` (may be NULL) runs once inside the endpoint's (or gateway's)
 *   run_callbacks with the outcome (a second answer, one after the deadline without auto_defer, or after the
 *   15-minute token lifetime fails there), or with CLIENT_DESTROYED inside its destroy.
 * - NULL: a NULL responder or out of memory (user_data freed at once).
 * An answer after the library deferred: a message becomes the edit of the original response (through the
 * options' backend handle; without one it fails with CLIENT_NOT_READY), a deferral of the same kind succeeds
 * as a no-op, anything else fails. Strings are borrowed for the call; NULL with size 0 is "". */

/** Answers with a message (CHANNEL_MESSAGE_WITH_SOURCE, 4).
 * @param responder The responder.
 * @param content The message's text (at most 2000 characters); empty: none (e.g. with IS_COMPONENTS_V2).
 * @param content_size Length of `content` in bytes.
 * @param components_json The message's components as a JSON array of component objects (action rows, or
 * the v2 layout with PLATFORMPP_MESSAGE_FLAG_IS_COMPONENTS_V2), as the platform writes them; empty: none.
 * @param components_json_size Length of `components_json` in bytes.
 * @param flags PLATFORMPP_MESSAGE_FLAG_* bits (EPHEMERAL, IS_COMPONENTS_V2, SUPPRESS_EMBEDS,
 * SUPPRESS_NOTIFICATIONS); 0 for none.
 * @param done Runs once with the outcome (see above); may be NULL.
 * @param user_data Passed to `done`.
 * @param user_data_free Frees user_data once `done` ran or will not run; may be NULL.
 * @return A new result (see above), or NULL. */
PLATFORMPP_C_API platformpp_client_result* platformpp_interaction_responder_respond_message(
    platformpp_interaction_responder* responder, const char* content, size_t content_size,
    const char* components_json, size_t components_json_size, uint64_t flags, platformpp_result_fn done,
    void* user_data, platformpp_user_data_free_fn user_data_free);
/** Components: edits the message the component is on (UPDATE_MESSAGE, 7). Empty content and components
 * leave them as they are.
 * @param responder The responder.
 * @param content The message's new text; empty: unchanged.
 * @param content_size Length of `content` in bytes.
 * @param components_json The message's new components (a JSON array); empty: unchanged.
 * @param components_json_size Length of `components_json` in bytes.
 * @param flags PLATFORMPP_MESSAGE_FLAG_* bits; 0 for none.
 * @param done Runs once with the outcome; may be NULL.
 * @param user_data Passed to `done`.
 * @param user_data_free Frees user_data once `done` ran or will not run; may be NULL.
 * @return A new result (see above), or NULL. */
PLATFORMPP_C_API platformpp_client_result* platformpp_interaction_responder_update_message(
    platformpp_interaction_responder* responder, const char* content, size_t content_size,
    const char* components_json, size_t components_json_size, uint64_t flags, platformpp_result_fn done,
    void* user_data, platformpp_user_data_free_fn user_data_free);
/** "Thinking..." (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, 5): the message comes later, as an answer with a
 * message through a kept responder (it edits the original response).
 * @param responder The responder.
 * @param ephemeral Non-zero: only the invoking user sees it and the message that follows.
 * @param done Runs once with the outcome; may be NULL.
 * @param user_data Passed to `done`.
 * @param user_data_free Frees user_data once `done` ran or will not run; may be NULL.
 * @return A new result (see above), or NULL. */
PLATFORMPP_C_API platformpp_client_result* platformpp_interaction_responder_defer_message(
    platformpp_interaction_responder* responder, int32_t ephemeral, platformpp_result_fn done,
    void* user_data, platformpp_user_data_free_fn user_data_free);
/** Components: acknowledges now (DEFERRED_UPDATE_MESSAGE, 6); the message may be edited later.
 * @param responder The responder.
 * @param done Runs once with the outcome; may be NULL.
 * @param user_data Passed to `done`.
 * @param user_data_free Frees user_data once `done` ran or will not run; may be NULL.
 * @return A new result (see above), or NULL. */
PLATFORMPP_C_API platformpp_client_result* platformpp_interaction_responder_defer_update(
    platformpp_interaction_responder* responder, platformpp_result_fn done, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Opens a modal (MODAL, 9; not in answer to a MODAL_SUBMIT).
 * @param responder The responder.
 * @param custom_id The modal's custom id, 1 to 100 characters (the MODAL_SUBMIT carries it).
 * @param custom_id_size Length of `custom_id` in bytes.
 * @param title The modal's title, 1 to 45 characters.
 * @param title_size Length of `title` in bytes.
 * @param components_json 1 to 5 top-level components as a JSON array (Labels holding Text Inputs, selects,
 * ...; Text Displays).
 * @param components_json_size Length of `components_json` in bytes.
 * @param done Runs once with the outcome; may be NULL.
 * @param user_data Passed to `done`.
 * @param user_data_free Frees user_data once `done` ran or will not run; may be NULL.
 * @return A new result (see above), or NULL. */
PLATFORMPP_C_API platformpp_client_result* platformpp_interaction_responder_modal(
    platformpp_interaction_responder* responder, const char* custom_id, size_t custom_id_size,
    const char* title, size_t title_size, const char* components_json, size_t components_json_size,
    platformpp_result_fn done, void* user_data, platformpp_user_data_free_fn user_data_free);
/** Autocomplete: the suggested choices (APPLICATION_COMMAND_AUTOCOMPLETE_RESULT, 8).
 * @param responder The responder.
 * @param choices_json A JSON array of at most 25 choices, each {"name": "...", "value": string or number,
 * "name_localizations": {...} optional}.
 * @param choices_json_size Length of `choices_json` in bytes.
 * @param done Runs once with the outcome; may be NULL.
 * @param user_data Passed to `done`.
 * @param user_data_free Frees user_data once `done` ran or will not run; may be NULL.
 * @return A new result (see above), or NULL. */
PLATFORMPP_C_API platformpp_client_result* platformpp_interaction_responder_autocomplete(
    platformpp_interaction_responder* responder, const char* choices_json, size_t choices_json_size,
    platformpp_result_fn done, void* user_data, platformpp_user_data_free_fn user_data_free);
/** Launches the application's activity (LAUNCH_ACTIVITY, 12): the answer to the PRIMARY_ENTRY_POINT
 * ("Launch") command whose handler is APP_HANDLER, and to components and modal submissions. Refused for
 * AUTOCOMPLETE.
 * @param responder The responder.
 * @param done Runs once with the outcome; may be NULL.
 * @param user_data Passed to `done`.
 * @param user_data_free Frees user_data once `done` ran or will not run; may be NULL.
 * @return A new result (see above), or NULL. */
PLATFORMPP_C_API platformpp_client_result* platformpp_interaction_responder_launch_activity(
    platformpp_interaction_responder* responder, platformpp_result_fn done, void* user_data,
    platformpp_user_data_free_fn user_data_free);

/** Writes the component object of a premium button that sells `sku_id` (one of the application's published
 * SKUs): {"type":2,"style":6,"sku_id":"..."}, to put in an action row of a message's components_json. Like
 * snprintf: writes at most `size` bytes including the NUL (nothing when size is 0, so buffer may then be
 * NULL) and returns the length the whole object needs, without the NUL.
 * @param sku_id The SKU it sells; 0 is refused.
 * @param buffer Receives the JSON, NUL-terminated when size > 0; may be NULL when size is 0.
 * @param size The buffer's size in bytes.
 * @return The JSON's length in bytes (without the NUL); 0 for sku_id 0. */
PLATFORMPP_C_API size_t platformpp_component_premium_button_json(uint64_t sku_id, char* buffer, size_t size);

/* The interactions endpoint: an HTTP(S) server for the application's interactions endpoint URL. Every
 * request is verified as platformpp_interaction_verify does: a bad signature, missing headers or a stale
 * timestamp get 401 and nothing is delivered; a PING is answered {"type":1} by the library; any other
 * interaction goes to the callback, and its answer is the HTTP reply. */

/** An interactions endpoint, which the caller owns and releases with
 * platformpp_interactions_endpoint_destroy.
 */
typedef struct platformpp_interactions_endpoint platformpp_interactions_endpoint;

/** Options of platformpp_interactions_endpoint_create; fill them with
 * platformpp_interactions_endpoint_options_init first. The strings are borrowed for the create call. */
typedef struct platformpp_interactions_endpoint_options {
  int32_t api_version;                          /**< PLATFORMPP_C_API_VERSION */
  platformpp_string public_key_hex;             /**< the application's public key (64 hex digits) */
  platformpp_string address;                    /**< where to listen; empty: 127.0.0.1 */
  int32_t port;                                 /**< 0 (default): any free port; see _port */
  platformpp_string path;                       /**< the URL's path; other paths get 404; empty: "/" */
  platformpp_string tls_certificate_chain_file; /**< HTTPS when both PEM files are given */
  platformpp_string tls_private_key_file;       /**< PEM file of the certificate's private key */
  int32_t defer_after_ms;  /**< defer an unanswered interaction after this long (1 to 2999); 0: 2500 */
  int32_t auto_defer;      /**< non-zero (default): defer by itself; 0: unanswered at 3 s is answered 500 */
  int32_t defer_ephemeral; /**< non-zero: the library's own deferral of commands is ephemeral */
  /** Optional: what late answers go through (the original response's edit). The endpoint shares its
   * connection: pump platformpp_backend_run_callbacks too, and keep the handle until the endpoint is
   * destroyed (late answers end through it). NULL: a message after the deferral fails (CLIENT_NOT_READY). */
  platformpp_backend* backend;
} platformpp_interactions_endpoint_options;

/** Fills `options` with the defaults: api_version PLATFORMPP_C_API_VERSION, auto_defer 1, everything else
 * empty, 0 or NULL.
 * @param options The options to fill; NULL does nothing. */
PLATFORMPP_C_API void platformpp_interactions_endpoint_options_init(
    platformpp_interactions_endpoint_options* options);
/** Does not listen yet (see _start). NULL when options is NULL, its api_version is unknown, port is not 0 to
 * 65535 or defer_after_ms is negative, or out of memory.
 * @param options The options, read during the call only.
 * @return A new endpoint the caller releases with platformpp_interactions_endpoint_destroy, or NULL. */
PLATFORMPP_C_API platformpp_interactions_endpoint* platformpp_interactions_endpoint_create(
    const platformpp_interactions_endpoint_options* options);
/** Stops listening and drops interactions not yet delivered; every pending answer's done runs with
 * CLIENT_DESTROYED, and every user_data_free has run, before it returns. Responders still held answer nothing
 * from then on (their answers return CLIENT_DESTROYED).
 * @param endpoint The endpoint; NULL is fine. */
PLATFORMPP_C_API void platformpp_interactions_endpoint_destroy(platformpp_interactions_endpoint* endpoint);
/** Replaces any earlier callback (the earlier user_data_free runs then, or at destroy); NULL removes it. An
 * interaction arriving while none is set is left to the deadline (deferred, or 500 without auto_defer).
 * @param endpoint The endpoint; NULL frees user_data at once.
 * @param callback Runs inside platformpp_interactions_endpoint_run_callbacks (or _wait_for_callbacks) for
 * each interaction; NULL removes the registration.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced or removed, or at destroy (at once
 * for a NULL endpoint or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_interactions_endpoint_set_interaction_callback(
    platformpp_interactions_endpoint* endpoint, platformpp_interaction_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Adds a callback for the endpoint's log messages at `min_severity` and above (tokens never appear).
 * @param endpoint The endpoint; NULL frees user_data at once.
 * @param callback Runs inside platformpp_interactions_endpoint_run_callbacks (or _wait_for_callbacks) for
 * each message (borrowed for the callback); NULL frees user_data at once and adds nothing.
 * @param min_severity The least severe messages it gets.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data when the endpoint is destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_interactions_endpoint_add_log_callback(
    platformpp_interactions_endpoint* endpoint, platformpp_log_fn callback,
    platformpp_logging_severity min_severity, void* user_data, platformpp_user_data_free_fn user_data_free);
/** Binds and starts accepting. VALIDATION_ERROR for a bad key, path, defer_after_ms or TLS file,
 * NETWORK_ERROR when the address cannot be bound. Starting a running endpoint succeeds.
 * @param endpoint The endpoint.
 * @return A new result the caller releases with platformpp_client_result_destroy; NULL for a NULL endpoint
 * or out of memory. */
PLATFORMPP_C_API platformpp_client_result* platformpp_interactions_endpoint_start(
    platformpp_interactions_endpoint* endpoint);
/** Closes the listener and every connection (unanswered HTTP replies are dropped; answers given later fail
 * with CLIENT_DESTROYED). Start may follow.
 * @param endpoint The endpoint; NULL does nothing. */
PLATFORMPP_C_API void platformpp_interactions_endpoint_stop(platformpp_interactions_endpoint* endpoint);
/** Whether the endpoint is listening.
 * @param endpoint The endpoint.
 * @return Non-zero while running; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t
platformpp_interactions_endpoint_running(const platformpp_interactions_endpoint* endpoint);
/** The port listened on (the one picked when options.port was 0).
 * @param endpoint The endpoint.
 * @return The port; 0 when not running and for NULL. */
PLATFORMPP_C_API int32_t
platformpp_interactions_endpoint_port(const platformpp_interactions_endpoint* endpoint);
/** Delivers the interactions, answers' ends and log messages queued so far, on the calling thread; never
 * blocks.
 * @param endpoint The endpoint; NULL does nothing. */
PLATFORMPP_C_API void platformpp_interactions_endpoint_run_callbacks(
    platformpp_interactions_endpoint* endpoint);
/** Waits until something is queued or timeout_ms pass, then delivers it (runs callbacks); non-zero when
 * something was.
 * @param endpoint The endpoint; NULL gives 0 at once.
 * @param timeout_ms How long to wait at most, in milliseconds.
 * @return Non-zero when something was delivered; 0 otherwise. */
PLATFORMPP_C_API int32_t platformpp_interactions_endpoint_wait_for_callbacks(
    platformpp_interactions_endpoint* endpoint, int32_t timeout_ms);

/* Interactions over the bot's Gateway session: for an application without an interactions endpoint URL,
 * the platform sends them as INTERACTION_CREATE to its bot. The first answer goes to the callback route
 * through the backend handle's connection. */

/** The bot's Gateway session receiving interactions, which the caller owns and releases with
 * platformpp_interactions_gateway_destroy. */
typedef struct platformpp_interactions_gateway platformpp_interactions_gateway;

/** Options of platformpp_interactions_gateway_create; fill them with
 * platformpp_interactions_gateway_options_init first. */
typedef struct platformpp_interactions_gateway_options {
  int32_t api_version; /**< PLATFORMPP_C_API_VERSION */
  /** Required: the session's API base, TLS settings and bot token are its, and answers go through it. The
   * session shares its connection: pump platformpp_backend_run_callbacks too, and keep the handle until the
   * session is destroyed. */
  platformpp_backend* backend;
  int64_t intents;         /**< Gateway intents Identify asks for; default 1 (GUILDS) */
  int32_t defer_after_ms;  /**< defer an unanswered interaction after this long (1 to 2999); 0: 2500 */
  int32_t auto_defer;      /**< non-zero (default): defer by itself */
  int32_t defer_ephemeral; /**< non-zero: the library's own deferral of commands is ephemeral */
} platformpp_interactions_gateway_options;

/** Fills `options` with the defaults: api_version PLATFORMPP_C_API_VERSION, intents 1, auto_defer 1,
 * everything else 0 or NULL.
 * @param options The options to fill; NULL does nothing. */
PLATFORMPP_C_API void platformpp_interactions_gateway_options_init(
    platformpp_interactions_gateway_options* options);
/** Does not connect yet (see _start). NULL when options is NULL, its api_version is unknown, backend is NULL
 * or defer_after_ms is negative, or out of memory.
 * @param options The options, read during the call only.
 * @return A new session the caller releases with platformpp_interactions_gateway_destroy, or NULL. */
PLATFORMPP_C_API platformpp_interactions_gateway* platformpp_interactions_gateway_create(
    const platformpp_interactions_gateway_options* options);
/** Disconnects; every pending answer's done runs with CLIENT_DESTROYED, and every user_data_free has run,
 * before it returns.
 * @param gateway The session; NULL is fine. */
PLATFORMPP_C_API void platformpp_interactions_gateway_destroy(platformpp_interactions_gateway* gateway);
/** Replaces any earlier callback (the earlier user_data_free runs then, or at destroy); NULL removes it.
 * Interactions delivered while none is set are logged and left unanswered.
 * @param gateway The session; NULL frees user_data at once.
 * @param callback Runs inside platformpp_interactions_gateway_run_callbacks for each interaction; NULL
 * removes the registration.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced or removed, or at destroy (at once
 * for a NULL session or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_interactions_gateway_set_interaction_callback(
    platformpp_interactions_gateway* gateway, platformpp_interaction_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Replaces the callback of the session's status changes (READY once the bot's READY came); NULL removes it.
 * @param gateway The session; NULL frees user_data at once.
 * @param callback Runs inside platformpp_interactions_gateway_run_callbacks for each change; NULL removes
 * the registration.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced or removed, or at destroy; may be
 * NULL. */
PLATFORMPP_C_API void platformpp_interactions_gateway_set_status_callback(
    platformpp_interactions_gateway* gateway, platformpp_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Adds a callback for the session's log messages at `min_severity` and above.
 * @param gateway The session; NULL frees user_data at once.
 * @param callback Runs inside platformpp_interactions_gateway_run_callbacks for each message; NULL frees
 * user_data at once and adds nothing.
 * @param min_severity The least severe messages it gets.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data when the session is destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_interactions_gateway_add_log_callback(
    platformpp_interactions_gateway* gateway, platformpp_log_fn callback,
    platformpp_logging_severity min_severity, void* user_data, platformpp_user_data_free_fn user_data_free);
/** Opens the bot's Gateway session and keeps it up (resuming after drops). VALIDATION_ERROR for a bad
 * defer_after_ms.
 * @param gateway The session.
 * @return A new result the caller releases with platformpp_client_result_destroy; NULL for a NULL session or
 * out of memory. */
PLATFORMPP_C_API platformpp_client_result* platformpp_interactions_gateway_start(
    platformpp_interactions_gateway* gateway);
/** Closes the session; interactions already queued are still delivered by run_callbacks.
 * @param gateway The session; NULL does nothing. */
PLATFORMPP_C_API void platformpp_interactions_gateway_stop(platformpp_interactions_gateway* gateway);
/** The session's status.
 * @param gateway The session.
 * @return The status; DISCONNECTED for NULL. */
PLATFORMPP_C_API platformpp_client_status
platformpp_interactions_gateway_get_status(const platformpp_interactions_gateway* gateway);
/** Delivers the interactions, status changes, answers' ends and log messages queued so far, on the calling
 * thread; never blocks.
 * @param gateway The session; NULL does nothing. */
PLATFORMPP_C_API void platformpp_interactions_gateway_run_callbacks(platformpp_interactions_gateway* gateway);
/** Waits until something is queued or timeout_ms pass, then delivers it; non-zero when something was.
 * @param gateway The session; NULL gives 0 at once.
 * @param timeout_ms How long to wait at most, in milliseconds.
 * @return Non-zero when something was delivered; 0 otherwise. */
PLATFORMPP_C_API int32_t platformpp_interactions_gateway_wait_for_callbacks(
    platformpp_interactions_gateway* gateway, int32_t timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_INTERACTIONS_H */
