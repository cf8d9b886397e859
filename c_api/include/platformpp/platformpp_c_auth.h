/** @file
 * platformpp C ABI, auth: authorization with OAuth2 and PKCE, tokens, provisional accounts, account-link
 * requests.
 *
 * Part of `<platformpp/platformpp_c.h>` (its conventions apply); each part can also be included alone.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_AUTH_H
#define PLATFORMPP_PLATFORMPP_C_AUTH_H

#include <platformpp/platformpp_c_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Authorization (OAuth2 with PKCE, public client: no secret).
 * Every call below that takes a callback: a NULL client frees user_data at once and calls nothing; a NULL
 * callback is allowed. Otherwise the callback runs exactly once, inside platformpp_client_run_callbacks (or
 * inside platformpp_client_destroy with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED), also for invalid input
 * (PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR), and user_data_free runs once after it. application_id 0 means the
 * value of platformpp_client_set_application_id. */

/** A fresh PKCE pair (S256); NULL when no secure randomness is available. Release it with
 * platformpp_authorization_code_verifier_destroy. Needs no client.
 * @return A new verifier, owned by the caller: release it with
 * platformpp_authorization_code_verifier_destroy. NULL when no secure randomness (or memory) is available. */
PLATFORMPP_C_API platformpp_authorization_code_verifier* platformpp_client_create_authorization_code_verifier(
    void);
/** Releases a verifier; the strings it handed out go with it.
 * @param verifier The verifier; NULL is ignored. */
PLATFORMPP_C_API void platformpp_authorization_code_verifier_destroy(
    platformpp_authorization_code_verifier* verifier);
/** The secret verifier (43 characters) to pass to platformpp_client_get_token. Owned by the handle; *size (if
 * not NULL) receives its length. NULL handle: "".
 * @param verifier The verifier handle, or NULL.
 * @param size Receives the length in bytes; may be NULL.
 * @return The verifier, NUL-terminated; valid until the handle is destroyed (never free it). */
PLATFORMPP_C_API const char* platformpp_authorization_code_verifier_verifier(
    const platformpp_authorization_code_verifier* verifier, size_t* size);
/** The S256 challenge (base64url of SHA-256 of the verifier) to send with the authorize request. Owned by the
 * handle; *size (if not NULL) receives its length. NULL handle: "".
 * @param verifier The verifier handle, or NULL.
 * @param size Receives the length in bytes; may be NULL.
 * @return The challenge, NUL-terminated; valid until the handle is destroyed (never free it). Pass it in
 * platformpp_authorization_args.code_challenge. */
PLATFORMPP_C_API const char* platformpp_authorization_code_verifier_challenge(
    const platformpp_authorization_code_verifier* verifier, size_t* size);
/** The method of the challenge.
 * @param verifier The verifier handle, or NULL.
 * @return PLATFORMPP_AUTHENTICATION_CODE_CHALLENGE_METHOD_S256 (also for NULL). */
PLATFORMPP_C_API platformpp_authentication_code_challenge_method
platformpp_authorization_code_verifier_challenge_method(
    const platformpp_authorization_code_verifier* verifier);

/** Exchanges an authorization code for tokens. Does not change the client's own token: pass the result to
 * platformpp_client_update_token.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param application_id The application; 0: the client's (platformpp_client_set_application_id).
 * @param code The code platformpp_authorization_fn received; borrowed for the call.
 * @param code_size Its length in bytes.
 * @param code_verifier The verifier of the challenge sent to authorize
 * (platformpp_authorization_code_verifier_verifier); borrowed for the call.
 * @param code_verifier_size Its length in bytes.
 * @param redirect_uri The redirect URI platformpp_authorization_fn received; borrowed for the call.
 * @param redirect_uri_size Its length in bytes.
 * @param callback Runs once with the tokens; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_get_token(platformpp_client* client, uint64_t application_id,
                                                  const char* code, size_t code_size,
                                                  const char* code_verifier, size_t code_verifier_size,
                                                  const char* redirect_uri, size_t redirect_uri_size,
                                                  platformpp_token_exchange_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free);
/** Exchanges a refresh token for a new pair; both old tokens stop working. An "invalid_grant" answer ends as
 * PLATFORMPP_ERROR_TYPE_AUTHORIZATION_FAILED (see platformpp_client_result_oauth_error) and the client drops
 * its token.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param application_id The application; 0: the client's (platformpp_client_set_application_id).
 * @param refresh_token The refresh token; borrowed for the call.
 * @param refresh_token_size Its length in bytes.
 * @param callback Runs once with the new pair; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_refresh_token(platformpp_client* client, uint64_t application_id,
                                                      const char* refresh_token, size_t refresh_token_size,
                                                      platformpp_token_exchange_fn callback, void* user_data,
                                                      platformpp_user_data_free_fn user_data_free);
/** Completion of platformpp_client_exchange_child_token: as platformpp_token_exchange_fn, without a refresh
 * token. On failure the strings are "" (never NULL), token_type is PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER
 * and expires_in is 0. Every string is NUL-terminated and borrowed until the callback returns.
 * @param result The outcome; borrowed until the callback returns.
 * @param access_token The child application's access token.
 * @param access_token_size Its length in bytes.
 * @param token_type How to present the token.
 * @param expires_in The token's lifetime in seconds.
 * @param scopes The granted scopes, space-separated.
 * @param scopes_size Their length in bytes.
 * @param user_data The call's user_data. */
typedef void (*platformpp_child_token_fn)(const platformpp_client_result* result, const char* access_token,
                                          size_t access_token_size,
                                          platformpp_authorization_token_type token_type, int32_t expires_in,
                                          const char* scopes, size_t scopes_size, void* user_data);
/** Publisher-level linking: exchanges an access token of the parent application for one of
 * child_application_id, for the same player and scopes.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param parent_application_token An access token of the parent application; borrowed for the call.
 * @param parent_application_token_size Its length in bytes.
 * @param child_application_id An application whose parent that application is.
 * @param callback Runs once with the child's token; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_exchange_child_token(
    platformpp_client* client, const char* parent_application_token, size_t parent_application_token_size,
    uint64_t child_application_id, platformpp_child_token_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Revokes the whole authorization the token belongs to (access and refresh tokens).
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param application_id The application; 0: the client's (platformpp_client_set_application_id).
 * @param token An access or refresh token of the authorization; borrowed for the call.
 * @param token_size Its length in bytes.
 * @param callback Runs once with the result; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_revoke_token(platformpp_client* client, uint64_t application_id,
                                                     const char* token, size_t token_size,
                                                     platformpp_result_fn callback, void* user_data,
                                                     platformpp_user_data_free_fn user_data_free);
/** Sets the token the client uses from now on (effective before this returns; the callback confirms).
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param token_type How to present token (as the token exchange reported it).
 * @param token The access token; borrowed for the call (the client keeps a copy).
 * @param token_size Its length in bytes.
 * @param callback Runs once with the result; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_update_token(platformpp_client* client,
                                                     platformpp_authorization_token_type token_type,
                                                     const char* token, size_t token_size,
                                                     platformpp_result_fn callback, void* user_data,
                                                     platformpp_user_data_free_fn user_data_free);
/** A token for a provisional account: the platform identity of the player's account with the game's own
 * identity provider (external_auth_token, borrowed for the call). An OIDC answer may carry a refresh token;
 * platformpp_client_refresh_token refuses it with PLATFORMPP_ERROR_TYPE_AUTHORIZATION_FAILED (get a new
 * provisional token instead). An external_auth_type outside the enum is a validation error.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param application_id The application; 0: the client's (platformpp_client_set_application_id).
 * @param external_auth_type The identity provider that issued external_auth_token.
 * @param external_auth_token The provider's token; borrowed for the call.
 * @param external_auth_token_size Its length in bytes.
 * @param callback Runs once with the tokens; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_get_provisional_token(
    platformpp_client* client, uint64_t application_id,
    platformpp_authentication_external_auth_type external_auth_type, const char* external_auth_token,
    size_t external_auth_token_size, platformpp_token_exchange_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** platformpp_client_get_token that also merges the provisional account of external_auth_token into the
 * consenting platform account. While that account is banned: PLATFORMPP_ERROR_TYPE_AUTHORIZATION_FAILED with
 * platformpp_client_result_error_code 530017.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param application_id The application; 0: the client's (platformpp_client_set_application_id).
 * @param code The authorization code; borrowed for the call.
 * @param code_size Its length in bytes.
 * @param code_verifier The PKCE verifier; borrowed for the call.
 * @param code_verifier_size Its length in bytes.
 * @param redirect_uri The redirect URI of the authorization; borrowed for the call.
 * @param redirect_uri_size Its length in bytes.
 * @param external_auth_type The identity provider of the provisional account.
 * @param external_auth_token The provider's token; borrowed for the call.
 * @param external_auth_token_size Its length in bytes.
 * @param callback Runs once with the tokens; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_get_token_from_provisional_merge(
    platformpp_client* client, uint64_t application_id, const char* code, size_t code_size,
    const char* code_verifier, size_t code_verifier_size, const char* redirect_uri, size_t redirect_uri_size,
    platformpp_authentication_external_auth_type external_auth_type, const char* external_auth_token,
    size_t external_auth_token_size, platformpp_token_exchange_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Severs a merged account: the platform account keeps its data, the external identity gets a new provisional
 * account, and the link's tokens (the client's own included) stop working.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param application_id The application; 0: the client's (platformpp_client_set_application_id).
 * @param external_auth_type The identity provider of the external identity.
 * @param external_auth_token The provider's token; borrowed for the call.
 * @param external_auth_token_size Its length in bytes.
 * @param callback Runs once with the result; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_unmerge_into_provisional_account(
    platformpp_client* client, uint64_t application_id,
    platformpp_authentication_external_auth_type external_auth_type, const char* external_auth_token,
    size_t external_auth_token_size, platformpp_result_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Sets the display name (1 to 32 characters once trimmed) of the provisional account whose token the client
 * holds.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param name The new display name; borrowed for the call.
 * @param name_size Its length in bytes.
 * @param callback Runs once with the result; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_update_provisional_account_display_name(
    platformpp_client* client, const char* name, size_t name_size, platformpp_result_fn callback,
    void* user_data, platformpp_user_data_free_fn user_data_free);
/** Non-zero once update_token gave the client a token (and it was not revoked or refused since). NULL: 0.
 * @param client The client, or NULL.
 * @return Non-zero when the client holds a token; 0 otherwise or for NULL. */
PLATFORMPP_C_API int32_t platformpp_client_is_authenticated(const platformpp_client* client);
/** Arguments of platformpp_client_authorize; set api_version with platformpp_authorization_args_init.
 * The strings are borrowed for the call to platformpp_client_authorize only. */
typedef struct platformpp_authorization_args {
  int32_t api_version;              /**< PLATFORMPP_C_API_VERSION */
  uint64_t client_id;               /**< 0: the client's application id */
  platformpp_string scopes;         /**< required, space-separated */
  platformpp_string state;          /**< empty: a secure random value, checked on return */
  platformpp_string nonce;          /**< empty: none */
  platformpp_string code_challenge; /**< S256 challenge of a verifier; empty: none */
  /** -1 (default): unset, else a platformpp_integration_type (other values: unset). */
  int32_t integration_type;
  platformpp_string custom_scheme_param; /**< mobile redirect scheme; empty: none */
} platformpp_authorization_args;

/** Completion of platformpp_client_authorize, inside platformpp_client_run_callbacks. The strings are
 * NUL-terminated, "" on failure, and borrowed until the callback returns.
 * @param result The outcome; borrowed until the callback returns.
 * @param code The authorization code to pass to platformpp_client_get_token.
 * @param code_size Its length in bytes.
 * @param redirect_uri The redirect URI to pass to platformpp_client_get_token.
 * @param redirect_uri_size Its length in bytes.
 * @param user_data The call's user_data. */
typedef void (*platformpp_authorization_fn)(const platformpp_client_result* result, const char* code,
                                            size_t code_size, const char* redirect_uri,
                                            size_t redirect_uri_size, void* user_data);
/** Opens `url` in a browser; returns non-zero when it could. Runs inside run_callbacks.
 * @param url The authorize page's URL, NUL-terminated; borrowed until the callback returns.
 * @param url_size Its length in bytes.
 * @param user_data The registration's user_data.
 * @return Non-zero when the page could be opened, 0 otherwise. */
typedef int32_t (*platformpp_url_opener_fn)(const char* url, size_t url_size, void* user_data);

/** Fills args with the defaults: api_version PLATFORMPP_C_API_VERSION, integration_type -1 (unset), every
 * other field 0 or empty.
 * @param args The struct to fill; NULL is ignored. */
PLATFORMPP_C_API void platformpp_authorization_args_init(platformpp_authorization_args* args);
/** The browser flow: the authorize page opens (system browser, or the opener set below) and the code comes
 * back to a listener on 127.0.0.1. The callback gets the code and the redirect URI to pass to get_token. A
 * state mismatch, a refusal (oauth error "access_denied") or a timeout is AUTHORIZATION_FAILED; a new
 * authorize or abort_authorize ends a pending one with ABORTED. NULL args or an unknown api_version:
 * VALIDATION_ERROR.
 * @param client The client; NULL: user_data is freed at once and callback is not called.
 * @param args The arguments, borrowed for the call; NULL (or an unknown api_version): VALIDATION_ERROR.
 * @param callback Runs once with the code and redirect URI; may be NULL.
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data once callback has run; may be NULL. */
PLATFORMPP_C_API void platformpp_client_authorize(platformpp_client* client,
                                                  const platformpp_authorization_args* args,
                                                  platformpp_authorization_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free);
/** Ends a pending platformpp_client_authorize with PLATFORMPP_ERROR_TYPE_ABORTED.
 * @param client The client; NULL is ignored. */
PLATFORMPP_C_API void platformpp_client_abort_authorize(platformpp_client* client);
/** Replaces how platformpp_client_authorize opens its page. NULL opener: the system browser again. The
 * previous user_data_free runs then (or when the client is destroyed).
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param opener Opens the authorize page of each authorization, inside platformpp_client_run_callbacks; NULL:
 * the system browser (and user_data is freed at once).
 * @param user_data Passed to opener.
 * @param user_data_free Frees user_data when the opener is replaced or the client is destroyed; may be NULL.
 */
PLATFORMPP_C_API void platformpp_client_set_url_opener(platformpp_client* client,
                                                       platformpp_url_opener_fn opener, void* user_data,
                                                       platformpp_user_data_free_fn user_data_free);

/** An event that carries nothing but user_data; runs inside platformpp_client_run_callbacks.
 * @param user_data The registration's user_data. */
typedef void (*platformpp_event_fn)(void* user_data);
/** Registers the callback of a token about to expire. Called once per token, inside run_callbacks, when the
 * token set by update_token is 5 minutes from expiring. Replaces any earlier callback; the earlier
 * user_data_free runs then (or when the client is destroyed). Time to refresh the token (or get a new
 * provisional one) and call update_token.
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Runs inside platformpp_client_run_callbacks each time the token nears its expiry; NULL
 * removes it (and user_data is freed at once).
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the callback is replaced or removed, or when the client is
 * destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_token_expiration_callback(
    platformpp_client* client, platformpp_event_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Account linking started from the desktop client: the callback runs inside run_callbacks each time the
 * player asks the desktop client to link this game (time to call platformpp_client_authorize). Renewed
 * whenever the desktop client comes back. Replaces an earlier callback; the earlier user_data_free runs then
 * (or at remove, or when the client is destroyed).
 * @param client The client; NULL: user_data is freed at once and nothing is registered.
 * @param callback Runs inside platformpp_client_run_callbacks for each request; NULL removes it (as
 * platformpp_client_remove_authorize_request_callback, and user_data is freed at once).
 * @param user_data Passed to callback.
 * @param user_data_free Frees user_data when the callback is replaced or removed, or when the client is
 * destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_register_authorize_request_callback(
    platformpp_client* client, platformpp_event_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Removes the callback of platformpp_client_register_authorize_request_callback; its user_data_free runs.
 * @param client The client; NULL is ignored. */
PLATFORMPP_C_API void platformpp_client_remove_authorize_request_callback(platformpp_client* client);
/** Static, NUL-terminated strings (never free them): space-separated scopes for the authorize request.
 * These are the scopes of the whole social layer ("openid sdk.social_layer").
 * @return The scopes for platformpp_authorization_args.scopes; static, never free it. "" when out of
 * memory (which authorize refuses). */
PLATFORMPP_C_API const char* platformpp_client_get_default_communication_scopes(void);
/** Space-separated scopes for an authorize request that needs presence only
 * ("openid sdk.social_layer_presence").
 * @return The scopes for platformpp_authorization_args.scopes; static, never free it. "" when out of
 * memory (which authorize refuses). */
PLATFORMPP_C_API const char* platformpp_client_get_default_presence_scopes(void);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_AUTH_H */
