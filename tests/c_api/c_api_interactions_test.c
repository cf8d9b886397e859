/* Answering interactions from pure C11: the interactions endpoint on a real socket, with requests signed here
 * with libsodium as the platform signs them. A PING is answered without the callback, a forged request gets
 * 401 and no callback, a command's callback runs only inside run_callbacks and its answer is the HTTP reply
 * (a message, a premium button, LAUNCH_ACTIVITY, a modal, autocomplete choices), components that break a
 * rule are refused by the call with their path, a responder kept and released unanswered leaves the
 * interaction to the endpoint's deferral, and every new function takes NULL. */
#define _POSIX_C_SOURCE 200809L

#include <platformpp/platformpp_c.h>

#include "c_check.h"
#include "c_signed_post.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static unsigned char public_key[crypto_sign_PUBLICKEYBYTES];
static unsigned char secret_key[crypto_sign_SECRETKEYBYTES];
static char public_hex[2 * crypto_sign_PUBLICKEYBYTES + 1];

static const char ping[] =
    "{\"id\":\"77\",\"application_id\":\"1234\",\"type\":1,\"token\":\"tok\",\"version\":1}";
static const char command[] =
    "{\"id\":\"78\",\"application_id\":\"1234\",\"type\":2,\"token\":\"aW50ZXJhY3Rpb24\",\"version\":1,"
    "\"guild_id\":\"500\",\"channel_id\":\"600\",\"locale\":\"fr\",\"app_permissions\":\"2048\","
    "\"member\":{\"user\":{\"id\":\"42\",\"username\":\"ada\"},\"roles\":[],\"permissions\":\"0\"},"
    "\"data\":{\"id\":\"900\",\"name\":\"stats\",\"type\":1}}";
/* The PRIMARY_ENTRY_POINT command (type 4) the platform sends when the user presses "Launch". */
static const char launch[] =
    "{\"id\":\"80\",\"application_id\":\"1234\",\"type\":2,\"token\":\"bGF1bmNo\",\"version\":1,"
    "\"channel_id\":\"600\",\"user\":{\"id\":\"43\",\"username\":\"bo\"},"
    "\"data\":{\"id\":\"901\",\"name\":\"launch\",\"type\":4}}";
static const char autocomplete[] =
    "{\"id\":\"81\",\"application_id\":\"1234\",\"type\":4,\"token\":\"YXV0bw\",\"version\":1,"
    "\"user\":{\"id\":\"43\",\"username\":\"bo\"},\"data\":{\"id\":\"902\",\"name\":\"class\",\"type\":1,"
    "\"options\":[{\"name\":\"name\",\"type\":3,\"value\":\"ma\",\"focused\":true}]}}";

/* Sends `body` signed (or with `forced_signature`) to 127.0.0.1:port/; the socket, not yet read. */
static int send_post(int port, const char* body, const char* forced_signature) {
  return signed_post_send(secret_key, port, "/", body, forced_signature);
}

/* The answer's status, and its body into `body`. */
static int read_answer(int fd, char* body, size_t body_size) {
  return signed_post_read(fd, body, body_size);
}

/* What the interaction callback does with the responder. */
typedef enum action {
  ACTION_MESSAGE,
  ACTION_PREMIUM,
  ACTION_LAUNCH,
  ACTION_BAD_COMPONENTS,
  ACTION_MODAL,
  ACTION_AUTOCOMPLETE,
  ACTION_KEEP /* clone the responder, answer nothing */
} action;

typedef struct state {
  action what;
  int calls;
  int callback_frees;
  uint64_t interaction_id;
  char command_name[32];
  platformpp_interaction_responder* kept;
  platformpp_error_type refused_type; /* of the refused answer (ACTION_BAD_COMPONENTS) */
  char refused_path[128];
  int refused_answered; /* the responder after the refusal */
  int done_calls;
  int done_frees;
  platformpp_error_type done_type;
  char premium[128];
} state;

static void on_done(const platformpp_client_result* result, void* user_data) {
  state* s = (state*)user_data;
  s->done_calls++;
  s->done_type = platformpp_client_result_type(result);
}

static void count_done_free(void* user_data) {
  ((state*)user_data)->done_frees++;
}

static void count_callback_free(void* user_data) {
  ((state*)user_data)->callback_frees++;
}

static void check_and_destroy(platformpp_client_result* result, platformpp_error_type expected) {
  CHECK(result != NULL);
  CHECK(platformpp_client_result_type(result) == expected);
  platformpp_client_result_destroy(result);
}

static void on_interaction(const platformpp_interaction* interaction,
                           platformpp_interaction_responder* responder, void* user_data) {
  state* s = (state*)user_data;
  size_t size = 0;
  const char* name = platformpp_interaction_command_name(interaction, &size);
  char components[256];
  s->calls++;
  s->interaction_id = platformpp_interaction_id(interaction);
  snprintf(s->command_name, sizeof s->command_name, "%.*s", (int)size, name);
  CHECK(platformpp_interaction_responder_interaction(responder) == interaction);
  CHECK(!platformpp_interaction_responder_answered(responder));
  switch (s->what) {
    case ACTION_MESSAGE:
      check_and_destroy(platformpp_interaction_responder_respond_message(responder, "Level 12", 8, NULL, 0,
                                                                         PLATFORMPP_MESSAGE_FLAG_EPHEMERAL,
                                                                         on_done, s, count_done_free),
                        PLATFORMPP_ERROR_TYPE_NONE);
      CHECK(platformpp_interaction_responder_answered(responder));
      break;
    case ACTION_PREMIUM:
      snprintf(components, sizeof components, "[{\"type\":1,\"components\":[%s]}]", s->premium);
      check_and_destroy(platformpp_interaction_responder_respond_message(responder, "Unlock the map", 14,
                                                                         components, strlen(components), 0,
                                                                         on_done, s, count_done_free),
                        PLATFORMPP_ERROR_TYPE_NONE);
      break;
    case ACTION_LAUNCH:
      check_and_destroy(
          platformpp_interaction_responder_launch_activity(responder, on_done, s, count_done_free),
          PLATFORMPP_ERROR_TYPE_NONE);
      break;
    case ACTION_BAD_COMPONENTS: {
      /* A non-link button needs a custom id: refused by the call, nothing sent, done never runs. */
      static const char text_display[] = "[{\"type\":10,\"content\":\"hi\"}]";
      static const char no_custom_id[] =
          "[{\"type\":1,\"components\":[{\"type\":2,\"style\":1,\"label\":\"Go\"}]}]";
      platformpp_client_result* refused = platformpp_interaction_responder_respond_message(
          responder, "x", 1, no_custom_id, strlen(no_custom_id), 0, on_done, s, count_done_free);
      size_t path_size = 0;
      const char* path = platformpp_client_result_field_error_path(refused, 0, &path_size);
      s->refused_type = platformpp_client_result_type(refused);
      snprintf(s->refused_path, sizeof s->refused_path, "%.*s", (int)path_size, path);
      platformpp_client_result_destroy(refused);
      /* Not JSON, and not an array: refused at the components' path. */
      refused =
          platformpp_interaction_responder_respond_message(responder, "x", 1, "[", 1, 0, NULL, NULL, NULL);
      CHECK(platformpp_client_result_type(refused) == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
      CHECK(strcmp(platformpp_client_result_field_error_path(refused, 0, NULL), "data.components") == 0);
      platformpp_client_result_destroy(refused);
      refused =
          platformpp_interaction_responder_respond_message(responder, "x", 1, "{}", 2, 0, NULL, NULL, NULL);
      CHECK(platformpp_client_result_type(refused) == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
      platformpp_client_result_destroy(refused);
      /* LAUNCH_ACTIVITY does not answer an autocomplete; a modal needs a title. */
      refused = platformpp_interaction_responder_modal(responder, "m", 1, "", 0, text_display,
                                                       strlen(text_display), NULL, NULL, NULL);
      CHECK(platformpp_client_result_type(refused) == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
      platformpp_client_result_destroy(refused);
      s->refused_answered = platformpp_interaction_responder_answered(responder);
      /* Still unanswered: a corrected answer follows. */
      check_and_destroy(platformpp_interaction_responder_respond_message(responder, "fixed", 5, NULL, 0, 0,
                                                                         NULL, NULL, NULL),
                        PLATFORMPP_ERROR_TYPE_NONE);
      break;
    }
    case ACTION_MODAL: {
      static const char form[] =
          "[{\"type\":18,\"label\":\"Name\",\"component\":{\"type\":4,\"custom_id\":\"name\",\"style\":1}}]";
      check_and_destroy(platformpp_interaction_responder_modal(responder, "report", 6, "Report", 6, form,
                                                               strlen(form), on_done, s, count_done_free),
                        PLATFORMPP_ERROR_TYPE_NONE);
      break;
    }
    case ACTION_AUTOCOMPLETE: {
      static const char choices[] =
          "[{\"name\":\"Mage\",\"value\":\"mage\"},{\"name\":\"Level\",\"value\":3}]";
      platformpp_client_result* refused =
          platformpp_interaction_responder_launch_activity(responder, NULL, NULL, NULL);
      CHECK(platformpp_client_result_type(refused) == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
      platformpp_client_result_destroy(refused);
      refused =
          platformpp_interaction_responder_autocomplete(responder, "[{\"name\":1}]", 12, NULL, NULL, NULL);
      CHECK(platformpp_client_result_type(refused) == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
      CHECK(strcmp(platformpp_client_result_field_error_path(refused, 0, NULL), "data.choices.0.name") == 0);
      platformpp_client_result_destroy(refused);
      check_and_destroy(platformpp_interaction_responder_autocomplete(responder, choices, strlen(choices),
                                                                      on_done, s, count_done_free),
                        PLATFORMPP_ERROR_TYPE_NONE);
      break;
    }
    case ACTION_KEEP:
      s->kept = platformpp_interaction_responder_clone(responder);
      CHECK(s->kept != NULL);
      break;
  }
}

/* Runs callbacks until `*counter` reaches `target` or about 5 s pass. */
static void pump(platformpp_interactions_endpoint* endpoint, const int* counter, int target) {
  int i;
  for (i = 0; i < 50 && *counter < target; ++i)
    platformpp_interactions_endpoint_wait_for_callbacks(endpoint, 100);
}

static platformpp_interactions_endpoint* start_endpoint(int32_t defer_after_ms, state* s) {
  platformpp_interactions_endpoint_options options;
  platformpp_interactions_endpoint* endpoint;
  platformpp_client_result* started;
  platformpp_interactions_endpoint_options_init(&options);
  options.public_key_hex.ptr = public_hex;
  options.public_key_hex.size = strlen(public_hex);
  options.defer_after_ms = defer_after_ms;
  endpoint = platformpp_interactions_endpoint_create(&options);
  CHECK(endpoint != NULL);
  platformpp_interactions_endpoint_set_interaction_callback(endpoint, on_interaction, s, count_callback_free);
  started = platformpp_interactions_endpoint_start(endpoint);
  CHECK(platformpp_client_result_successful(started));
  platformpp_client_result_destroy(started);
  CHECK(platformpp_interactions_endpoint_running(endpoint));
  CHECK(platformpp_interactions_endpoint_port(endpoint) > 0);
  return endpoint;
}

/* POSTs `body`, lets the callback answer inside run_callbacks, and reads the HTTP answer. */
static int exchange(platformpp_interactions_endpoint* endpoint, state* s, const char* body, char* answer,
                    size_t answer_size) {
  const int calls = s->calls;
  int fd = send_post(platformpp_interactions_endpoint_port(endpoint), body, NULL);
  struct timespec pause = {0, 100 * 1000 * 1000};
  nanosleep(&pause, NULL);
  CHECK(s->calls == calls); /* arrived, but no callback outside run_callbacks */
  pump(endpoint, &s->calls, calls + 1);
  CHECK(s->calls == calls + 1);
  return read_answer(fd, answer, answer_size);
}

static void test_endpoint(void) {
  state s;
  char answer[4096], forged[2 * crypto_sign_BYTES + 1];
  platformpp_interactions_endpoint* endpoint;
  int done_calls;
  memset(&s, 0, sizeof s);
  endpoint = start_endpoint(0, &s);

  /* PING: answered {"type":1} by the endpoint, no callback even with run_callbacks. */
  CHECK(read_answer(send_post(platformpp_interactions_endpoint_port(endpoint), ping, NULL), answer,
                    sizeof answer) == 200);
  CHECK(strcmp(answer, PLATFORMPP_INTERACTION_PONG_BODY) == 0);
  platformpp_interactions_endpoint_wait_for_callbacks(endpoint, 100);
  CHECK(s.calls == 0);

  /* A forged signature: 401, and nothing delivered. */
  memset(forged, 'a', sizeof forged - 1);
  forged[sizeof forged - 1] = '\0';
  CHECK(read_answer(send_post(platformpp_interactions_endpoint_port(endpoint), command, forged), answer,
                    sizeof answer) == 401);
  platformpp_interactions_endpoint_wait_for_callbacks(endpoint, 100);
  CHECK(s.calls == 0);

  /* A command answered with an ephemeral message: that is the HTTP reply; done runs in run_callbacks. */
  s.what = ACTION_MESSAGE;
  CHECK(exchange(endpoint, &s, command, answer, sizeof answer) == 200);
  CHECK(s.interaction_id == 78 && strcmp(s.command_name, "stats") == 0);
  CHECK(strstr(answer, "\"type\":4") != NULL);
  CHECK(strstr(answer, "\"content\":\"Level 12\"") != NULL);
  CHECK(strstr(answer, "\"flags\":64") != NULL);
  pump(endpoint, &s.done_calls, 1);
  CHECK(s.done_calls == 1 && s.done_type == PLATFORMPP_ERROR_TYPE_NONE && s.done_frees == 1);

  /* A message that offers the game's SKU with a premium button. */
  CHECK(platformpp_component_premium_button_json(2002, s.premium, sizeof s.premium) == strlen(s.premium));
  CHECK(strcmp(s.premium, "{\"type\":2,\"style\":6,\"sku_id\":\"2002\"}") == 0);
  s.what = ACTION_PREMIUM;
  CHECK(exchange(endpoint, &s, command, answer, sizeof answer) == 200);
  CHECK(strstr(answer, "\"style\":6") != NULL && strstr(answer, "\"sku_id\":\"2002\"") != NULL);
  pump(endpoint, &s.done_calls, 2);
  CHECK(s.done_calls == 2 && s.done_type == PLATFORMPP_ERROR_TYPE_NONE);

  /* The Launch entry point answered with LAUNCH_ACTIVITY. */
  s.what = ACTION_LAUNCH;
  CHECK(exchange(endpoint, &s, launch, answer, sizeof answer) == 200);
  CHECK(strcmp(s.command_name, "launch") == 0);
  CHECK(strcmp(answer, "{\"type\":12}") == 0);
  pump(endpoint, &s.done_calls, 3);
  CHECK(s.done_calls == 3 && s.done_type == PLATFORMPP_ERROR_TYPE_NONE);

  /* Components that break a rule: refused by the call with the path; done never runs, its user_data freed. */
  s.what = ACTION_BAD_COMPONENTS;
  done_calls = s.done_calls;
  CHECK(exchange(endpoint, &s, command, answer, sizeof answer) == 200);
  CHECK(s.refused_type == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  CHECK(strcmp(s.refused_path, "data.components.0.components.0.custom_id") == 0);
  CHECK(!s.refused_answered);
  CHECK(strstr(answer, "\"content\":\"fixed\"") != NULL);
  CHECK(s.done_frees == 4); /* freed at once by the refusal */
  platformpp_interactions_endpoint_wait_for_callbacks(endpoint, 100);
  CHECK(s.done_calls == done_calls);

  /* A modal, and autocomplete choices. */
  s.what = ACTION_MODAL;
  CHECK(exchange(endpoint, &s, command, answer, sizeof answer) == 200);
  CHECK(strstr(answer, "\"type\":9") != NULL && strstr(answer, "\"custom_id\":\"report\"") != NULL);
  s.what = ACTION_AUTOCOMPLETE;
  CHECK(exchange(endpoint, &s, autocomplete, answer, sizeof answer) == 200);
  CHECK(strstr(answer, "\"type\":8") != NULL && strstr(answer, "\"value\":\"mage\"") != NULL);
  pump(endpoint, &s.done_calls, done_calls + 2);
  CHECK(s.done_calls == done_calls + 2 && s.done_type == PLATFORMPP_ERROR_TYPE_NONE);

  /* Kept and answered later, outside the callback (before the deadline): still the HTTP reply. */
  s.what = ACTION_KEEP;
  {
    const int calls = s.calls;
    int fd = send_post(platformpp_interactions_endpoint_port(endpoint), command, NULL);
    pump(endpoint, &s.calls, calls + 1);
    CHECK(s.kept != NULL);
    check_and_destroy(
        platformpp_interaction_responder_respond_message(s.kept, "later", 5, NULL, 0, 0, NULL, NULL, NULL),
        PLATFORMPP_ERROR_TYPE_NONE);
    platformpp_interaction_responder_destroy(s.kept);
    s.kept = NULL;
    CHECK(read_answer(fd, answer, sizeof answer) == 200);
    CHECK(strstr(answer, "\"content\":\"later\"") != NULL);
  }

  CHECK(s.callback_frees == 0);
  platformpp_interactions_endpoint_destroy(endpoint);
  CHECK(s.callback_frees == 1);
}

/* Kept and released unanswered: the endpoint defers by itself; a kept one answered after that, without a
 * backend, ends in CLIENT_NOT_READY; one answered after destroy is refused at once. */
static void test_deferral(void) {
  state s;
  char answer[1024];
  platformpp_interactions_endpoint* endpoint;
  platformpp_interaction_responder* late;
  int fd, calls;
  memset(&s, 0, sizeof s);
  s.what = ACTION_KEEP;
  endpoint = start_endpoint(200, &s);

  fd = send_post(platformpp_interactions_endpoint_port(endpoint), command, NULL);
  pump(endpoint, &s.calls, 1);
  CHECK(s.kept != NULL);
  platformpp_interaction_responder_destroy(s.kept); /* released without answering */
  s.kept = NULL;
  CHECK(read_answer(fd, answer, sizeof answer) == 200);
  CHECK(strcmp(answer, "{\"type\":5}") == 0);

  calls = s.calls;
  fd = send_post(platformpp_interactions_endpoint_port(endpoint), command, NULL);
  pump(endpoint, &s.calls, calls + 1);
  late = s.kept;
  CHECK(read_answer(fd, answer, sizeof answer) == 200);
  CHECK(strcmp(answer, "{\"type\":5}") == 0);
  CHECK(platformpp_interaction_responder_deferred(late));
  check_and_destroy(platformpp_interaction_responder_respond_message(late, "done", 4, NULL, 0, 0, on_done, &s,
                                                                     count_done_free),
                    PLATFORMPP_ERROR_TYPE_NONE);
  pump(endpoint, &s.done_calls, 1);
  CHECK(s.done_calls == 1 && s.done_type == PLATFORMPP_ERROR_TYPE_CLIENT_NOT_READY && s.done_frees == 1);

  platformpp_interactions_endpoint_destroy(endpoint);
  CHECK(s.callback_frees == 1);
  /* The endpoint is gone: refused at once, done never runs, user_data freed. */
  check_and_destroy(platformpp_interaction_responder_respond_message(late, "x", 1, NULL, 0, 0, on_done, &s,
                                                                     count_done_free),
                    PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED);
  CHECK(s.done_calls == 1 && s.done_frees == 2);
  platformpp_interaction_responder_destroy(late);
}

static void count_free(void* user_data) {
  ++*(int*)user_data;
}

static void no_log(const char* message, size_t size, platformpp_logging_severity severity, void* user_data) {
  (void)message;
  (void)size;
  (void)severity;
  (void)user_data;
}

static void test_null(void) {
  int frees = 0;
  char buffer[8] = "unset";
  platformpp_interactions_endpoint_options endpoint_options;
  platformpp_interactions_gateway_options gateway_options;

  CHECK(platformpp_interaction_responder_clone(NULL) == NULL);
  platformpp_interaction_responder_destroy(NULL);
  CHECK(platformpp_interaction_responder_interaction(NULL) == NULL);
  CHECK(platformpp_interaction_responder_answered(NULL) == 0);
  CHECK(platformpp_interaction_responder_deferred(NULL) == 0);
  CHECK(platformpp_interaction_responder_respond_message(NULL, NULL, 0, NULL, 0, 0, NULL, &frees,
                                                         count_free) == NULL);
  CHECK(platformpp_interaction_responder_update_message(NULL, NULL, 0, NULL, 0, 0, NULL, &frees,
                                                        count_free) == NULL);
  CHECK(platformpp_interaction_responder_defer_message(NULL, 1, NULL, &frees, count_free) == NULL);
  CHECK(platformpp_interaction_responder_defer_update(NULL, NULL, &frees, count_free) == NULL);
  CHECK(platformpp_interaction_responder_modal(NULL, NULL, 0, NULL, 0, NULL, 0, NULL, &frees, count_free) ==
        NULL);
  CHECK(platformpp_interaction_responder_autocomplete(NULL, NULL, 0, NULL, &frees, count_free) == NULL);
  CHECK(platformpp_interaction_responder_launch_activity(NULL, NULL, &frees, count_free) == NULL);
  CHECK(frees == 7);

  /* The premium button's JSON: its length without a buffer, truncated to fit, nothing for SKU 0. */
  CHECK(platformpp_component_premium_button_json(2002, NULL, 0) == 36);
  CHECK(platformpp_component_premium_button_json(2002, buffer, sizeof buffer) == 36);
  CHECK(strcmp(buffer, "{\"type\"") == 0);
  CHECK(platformpp_component_premium_button_json(0, buffer, sizeof buffer) == 0 && buffer[0] == '\0');

  platformpp_interactions_endpoint_options_init(NULL);
  CHECK(platformpp_interactions_endpoint_create(NULL) == NULL);
  platformpp_interactions_endpoint_options_init(&endpoint_options);
  CHECK(endpoint_options.auto_defer == 1 && endpoint_options.backend == NULL);
  endpoint_options.port = 70000;
  CHECK(platformpp_interactions_endpoint_create(&endpoint_options) == NULL);
  endpoint_options.port = 0;
  endpoint_options.api_version = 0;
  CHECK(platformpp_interactions_endpoint_create(&endpoint_options) == NULL);
  platformpp_interactions_endpoint_destroy(NULL);
  platformpp_interactions_endpoint_set_interaction_callback(NULL, on_interaction, &frees, count_free);
  platformpp_interactions_endpoint_add_log_callback(NULL, no_log, PLATFORMPP_LOGGING_SEVERITY_INFO, &frees,
                                                    count_free);
  CHECK(frees == 9);
  CHECK(platformpp_interactions_endpoint_start(NULL) == NULL);
  platformpp_interactions_endpoint_stop(NULL);
  CHECK(platformpp_interactions_endpoint_running(NULL) == 0);
  CHECK(platformpp_interactions_endpoint_port(NULL) == 0);
  platformpp_interactions_endpoint_run_callbacks(NULL);
  CHECK(platformpp_interactions_endpoint_wait_for_callbacks(NULL, 10) == 0);

  platformpp_interactions_gateway_options_init(NULL);
  CHECK(platformpp_interactions_gateway_create(NULL) == NULL);
  platformpp_interactions_gateway_options_init(&gateway_options);
  CHECK(gateway_options.intents == 1 && gateway_options.auto_defer == 1);
  CHECK(platformpp_interactions_gateway_create(&gateway_options) == NULL); /* no backend */
  platformpp_interactions_gateway_destroy(NULL);
  platformpp_interactions_gateway_set_interaction_callback(NULL, on_interaction, &frees, count_free);
  platformpp_interactions_gateway_set_status_callback(NULL, NULL, &frees, count_free);
  platformpp_interactions_gateway_add_log_callback(NULL, no_log, PLATFORMPP_LOGGING_SEVERITY_INFO, &frees,
                                                   count_free);
  CHECK(frees == 12);
  CHECK(platformpp_interactions_gateway_start(NULL) == NULL);
  platformpp_interactions_gateway_stop(NULL);
  CHECK(platformpp_interactions_gateway_get_status(NULL) == PLATFORMPP_CLIENT_STATUS_DISCONNECTED);
  platformpp_interactions_gateway_run_callbacks(NULL);
  CHECK(platformpp_interactions_gateway_wait_for_callbacks(NULL, 10) == 0);
}

/* A bad key is refused by start, not create; a gateway over a backend starts and stops (nothing listens at
 * its API base: it only retries), and its registrations are freed at destroy. */
static void test_start_refusals(void) {
  int frees = 0;
  platformpp_interactions_endpoint_options options;
  platformpp_interactions_endpoint* endpoint;
  platformpp_client_result* started;
  platformpp_backend_options backend_options;
  platformpp_backend* backend;
  platformpp_interactions_gateway_options gateway_options;
  platformpp_interactions_gateway* gateway;

  platformpp_interactions_endpoint_options_init(&options);
  options.public_key_hex.ptr = "abc";
  options.public_key_hex.size = 3;
  endpoint = platformpp_interactions_endpoint_create(&options);
  CHECK(endpoint != NULL);
  platformpp_interactions_endpoint_add_log_callback(endpoint, no_log, PLATFORMPP_LOGGING_SEVERITY_INFO,
                                                    &frees, count_free);
  started = platformpp_interactions_endpoint_start(endpoint);
  CHECK(platformpp_client_result_type(started) == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  platformpp_client_result_destroy(started);
  CHECK(!platformpp_interactions_endpoint_running(endpoint));
  platformpp_interactions_endpoint_destroy(endpoint);
  CHECK(frees == 1);

  platformpp_backend_options_init(&backend_options);
  backend_options.api_base.ptr = "http://127.0.0.1:9/api/v10";
  backend_options.api_base.size = strlen(backend_options.api_base.ptr);
  backend_options.bot_token.ptr = "bot-token";
  backend_options.bot_token.size = 9;
  backend_options.application_id = 1234;
  backend = platformpp_backend_create(&backend_options);
  CHECK(backend != NULL);
  platformpp_interactions_gateway_options_init(&gateway_options);
  gateway_options.backend = backend;
  gateway_options.defer_after_ms = 5000; /* past the platform's 3 seconds */
  gateway = platformpp_interactions_gateway_create(&gateway_options);
  CHECK(gateway != NULL);
  started = platformpp_interactions_gateway_start(gateway);
  CHECK(platformpp_client_result_type(started) == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  platformpp_client_result_destroy(started);
  platformpp_interactions_gateway_destroy(gateway);

  gateway_options.defer_after_ms = 0;
  gateway = platformpp_interactions_gateway_create(&gateway_options);
  platformpp_interactions_gateway_set_interaction_callback(gateway, on_interaction, &frees, count_free);
  platformpp_interactions_gateway_add_log_callback(gateway, no_log, PLATFORMPP_LOGGING_SEVERITY_INFO, &frees,
                                                   count_free);
  started = platformpp_interactions_gateway_start(gateway);
  CHECK(platformpp_client_result_successful(started));
  platformpp_client_result_destroy(started);
  platformpp_interactions_gateway_wait_for_callbacks(gateway, 50);
  platformpp_interactions_gateway_stop(gateway);
  platformpp_interactions_gateway_run_callbacks(gateway);
  CHECK(frees == 1);
  platformpp_interactions_gateway_destroy(gateway);
  CHECK(frees == 3);
  platformpp_backend_destroy(backend);
}

int main(void) {
  if (sodium_init() < 0) return 1;
  crypto_sign_keypair(public_key, secret_key);
  sodium_bin2hex(public_hex, sizeof public_hex, public_key, sizeof public_key);
  test_null();
  test_start_refusals();
  test_endpoint();
  test_deferral();
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
