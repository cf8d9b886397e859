/* The whole PKCE login driven through the C ABI from pure C11, against a running emulator whose
 * desktop-client stand-in consents on IPC: verifier, authorize, get_token, update_token, fetch_current_user,
 * refresh, revoke. Started by c_api_with_emulator, which passes where the emulator is: c_api_pkce_test
 * <api_base> <ca_file> <web_base> <ipc_name> <ipc_dir> <application_id> <user_id> */
#include <platformpp/platformpp_c.h>

#include "c_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static platformpp_string str(const char* s) {
  platformpp_string out;
  out.ptr = s;
  out.size = strlen(s);
  return out;
}

typedef struct outcome {
  int done;
  int type;
  char text[1024];  /* code, or access token */
  char extra[1024]; /* redirect URI, or refresh token */
  uint64_t user_id;
  int frees;
} outcome;

static void copy(char* into, const char* from, size_t size) {
  if (size >= 1024) size = 1023;
  memcpy(into, from, size);
  into[size] = '\0';
}

static void on_free(void* user_data) {
  ((outcome*)user_data)->frees++;
}

static void on_authorized(const platformpp_client_result* result, const char* code, size_t code_size,
                          const char* redirect_uri, size_t redirect_uri_size, void* user_data) {
  outcome* o = (outcome*)user_data;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
  if (o->type != PLATFORMPP_ERROR_TYPE_NONE) {
    fprintf(stderr, "authorize: %s\n", platformpp_client_result_error(result, NULL));
  }
  copy(o->text, code, code_size);
  copy(o->extra, redirect_uri, redirect_uri_size);
}

static void on_tokens(const platformpp_client_result* result, const char* access, size_t access_size,
                      const char* refresh, size_t refresh_size,
                      platformpp_authorization_token_type token_type, int32_t expires_in, const char* scopes,
                      size_t scopes_size, void* user_data) {
  outcome* o = (outcome*)user_data;
  (void)scopes;
  (void)scopes_size;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
  if (o->type != PLATFORMPP_ERROR_TYPE_NONE) {
    fprintf(stderr, "token: %s\n", platformpp_client_result_error(result, NULL));
  } else {
    CHECK(token_type == PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER);
    CHECK(expires_in > 0);
  }
  copy(o->text, access, access_size);
  copy(o->extra, refresh, refresh_size);
}

static void on_result(const platformpp_client_result* result, void* user_data) {
  outcome* o = (outcome*)user_data;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
}

static void on_user(const platformpp_client_result* result, uint64_t user_id, const char* username,
                    size_t username_size, void* user_data) {
  outcome* o = (outcome*)user_data;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
  o->user_id = user_id;
  copy(o->text, username, username_size);
}

typedef struct status_log {
  int count;
  platformpp_client_status last;
  platformpp_client_error last_error;
} status_log;

static void on_status(platformpp_client_status status, platformpp_client_error error, int32_t detail,
                      void* user_data) {
  status_log* log = (status_log*)user_data;
  (void)detail;
  log->count++;
  log->last = status;
  log->last_error = error;
}

/* Runs callbacks (up to 30 s) until `done(arg)`. */
static int run_until(platformpp_client* client, int (*done)(const void*), const void* arg) {
  int rounds = 0;
  while (!done(arg) && rounds++ < 300) {
    platformpp_client_wait_for_callbacks(client, 100);
    platformpp_client_run_callbacks(client);
  }
  return done(arg);
}

static int outcome_done(const void* arg) {
  return ((const outcome*)arg)->done;
}

static int wait_for(platformpp_client* client, outcome* o) {
  return run_until(client, outcome_done, o);
}

static platformpp_client_status wanted_status;
static int status_reached(const void* arg) {
  return ((const status_log*)arg)->last == wanted_status;
}

/* Until the status callback has reported `status` (so the callback ran, not only the state changed). */
static void wait_for_status(platformpp_client* client, const status_log* log,
                            platformpp_client_status status) {
  wanted_status = status;
  run_until(client, status_reached, log);
}

static int opener_calls = 0;
static int32_t refuse_browser(const char* url, size_t url_size, void* user_data) {
  (void)url;
  (void)url_size;
  (void)user_data;
  ++opener_calls; /* the desktop client answers on IPC: no browser may open */
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: %s api_base ca_file web_base ipc_name ipc_dir application_id user_id\n", argv[0]);
    return 2;
  }
  uint64_t application_id = strtoull(argv[6], NULL, 10);
  uint64_t user_id = strtoull(argv[7], NULL, 10);

  platformpp_client_options options;
  platformpp_client_options_init(&options);
  options.api_base = str(argv[1]);
  options.ca_file = str(argv[2]);
  options.web_base = str(argv[3]);
  options.ipc_name = str(argv[4]);
  options.ipc_directory = str(argv[5]);
  platformpp_client* client = platformpp_client_create(&options);
  if (!client) {
    fprintf(stderr, "cannot create a client\n");
    return 1;
  }
  platformpp_client_set_application_id(client, application_id);
  platformpp_client_set_url_opener(client, refuse_browser, NULL, NULL);

  platformpp_authorization_code_verifier* verifier = platformpp_client_create_authorization_code_verifier();
  CHECK(verifier != NULL);
  size_t verifier_size = 0;
  const char* verifier_text = platformpp_authorization_code_verifier_verifier(verifier, &verifier_size);

  /* 1. Authorize: the desktop client (the emulator's stand-in) consents over IPC. */
  platformpp_authorization_args args;
  platformpp_authorization_args_init(&args);
  args.scopes = str(platformpp_client_get_default_communication_scopes());
  args.code_challenge = str(platformpp_authorization_code_verifier_challenge(verifier, NULL));
  outcome authorized = {0};
  platformpp_client_authorize(client, &args, on_authorized, &authorized, on_free);
  CHECK(wait_for(client, &authorized));
  CHECK(authorized.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(authorized.frees == 1);
  CHECK(strlen(authorized.text) > 0);
  CHECK(opener_calls == 0);

  /* 2. The code for tokens (PKCE), then the client uses them. */
  outcome tokens = {0};
  platformpp_client_get_token(client, 0, authorized.text, strlen(authorized.text), verifier_text,
                              verifier_size, authorized.extra, strlen(authorized.extra), on_tokens, &tokens,
                              on_free);
  CHECK(wait_for(client, &tokens));
  CHECK(tokens.type == PLATFORMPP_ERROR_TYPE_NONE);
  outcome updated = {0};
  platformpp_client_update_token(client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, tokens.text,
                                 strlen(tokens.text), on_result, &updated, on_free);
  CHECK(wait_for(client, &updated));
  CHECK(platformpp_client_is_authenticated(client) == 1);
  outcome me = {0};
  platformpp_client_fetch_current_user(client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, tokens.text,
                                       strlen(tokens.text), on_user, &me, on_free);
  CHECK(wait_for(client, &me));
  CHECK(me.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(me.user_id == user_id);

  /* The realtime connection with that token: statuses arrive in order, READY among them. */
  status_log statuses = {0};
  platformpp_client_set_status_changed_callback(client, on_status, &statuses, NULL);
  platformpp_client_connect(client);
  wait_for_status(client, &statuses, PLATFORMPP_CLIENT_STATUS_READY);
  CHECK(platformpp_client_get_status(client) == PLATFORMPP_CLIENT_STATUS_READY);
  CHECK(statuses.count >= 2 && statuses.last == PLATFORMPP_CLIENT_STATUS_READY);
  platformpp_client_disconnect(client);
  wait_for_status(client, &statuses, PLATFORMPP_CLIENT_STATUS_DISCONNECTED);
  CHECK(platformpp_client_get_status(client) == PLATFORMPP_CLIENT_STATUS_DISCONNECTED);
  CHECK(statuses.last_error == PLATFORMPP_CLIENT_ERROR_NONE);

  /* 3. The code is single-use. */
  outcome reused = {0};
  platformpp_client_get_token(client, 0, authorized.text, strlen(authorized.text), verifier_text,
                              verifier_size, authorized.extra, strlen(authorized.extra), on_tokens, &reused,
                              on_free);
  CHECK(wait_for(client, &reused));
  CHECK(reused.type == PLATFORMPP_ERROR_TYPE_AUTHORIZATION_FAILED);

  /* 4. Refresh rotates the pair; revoke ends it. */
  outcome refreshed = {0};
  platformpp_client_refresh_token(client, 0, tokens.extra, strlen(tokens.extra), on_tokens, &refreshed,
                                  on_free);
  CHECK(wait_for(client, &refreshed));
  CHECK(refreshed.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(strcmp(refreshed.text, tokens.text) != 0);
  outcome revoked = {0};
  platformpp_client_revoke_token(client, 0, refreshed.text, strlen(refreshed.text), on_result, &revoked,
                                 on_free);
  CHECK(wait_for(client, &revoked));
  CHECK(revoked.type == PLATFORMPP_ERROR_TYPE_NONE);
  outcome after = {0};
  platformpp_client_refresh_token(client, 0, refreshed.extra, strlen(refreshed.extra), on_tokens, &after,
                                  on_free);
  CHECK(wait_for(client, &after));
  CHECK(after.type == PLATFORMPP_ERROR_TYPE_AUTHORIZATION_FAILED);

  platformpp_authorization_code_verifier_destroy(verifier);
  platformpp_client_destroy(client);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
