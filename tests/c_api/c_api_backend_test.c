/* The game server's C ABI from pure C11: platformpp_webhook_verify and platformpp_interaction_verify on
 * requests signed here with libsodium (as the platform signs them), the webhook events endpoint over a real
 * socket (a PING, an event delivered once although retried, a forged one refused), and the Game Stats
 * Widget's profile handle with a limit crossed by one refused before anything is sent. */
#define _POSIX_C_SOURCE 200809L

#include <platformpp/platformpp_c.h>

#include "c_check.h"
#include "c_signed_post.h"

#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;

static unsigned char public_key[crypto_sign_PUBLICKEYBYTES];
static unsigned char secret_key[crypto_sign_SECRETKEYBYTES];
static char public_hex[2 * crypto_sign_PUBLICKEYBYTES + 1];

static const char ping[] = "{\"version\":1,\"application_id\":\"1234\",\"type\":0}";
static const char deauthorized[] =
    "{\"version\":1,\"application_id\":\"1234\",\"type\":1,\"event\":{\"type\":\"APPLICATION_DEAUTHORIZED\","
    "\"timestamp\":\"2026-11-18T08:53:20Z\",\"data\":{\"user\":{\"id\":\"42\",\"username\":\"ada\"}}}}";
static const char entitlement[] =
    "{\"version\":1,\"application_id\":\"1234\",\"type\":1,\"event\":{\"type\":\"ENTITLEMENT_CREATE\","
    "\"timestamp\":\"2026-11-18T08:53:20Z\",\"data\":{\"id\":\"1001\",\"sku_id\":\"2002\","
    "\"application_id\":\"1234\",\"user_id\":\"42\",\"type\":8,\"ends_at\":\"2026-12-18T08:53:20Z\"}}}";

static void sign(const char* timestamp, const char* body, char hex[2 * crypto_sign_BYTES + 1]) {
  sign_hex(secret_key, timestamp, body, hex);
}

static int32_t verify(const char* timestamp, const char* signature, const char* body, int64_t now,
                      platformpp_webhook_event** event) {
  return platformpp_webhook_verify(public_hex, strlen(public_hex), signature, strlen(signature), timestamp,
                                   strlen(timestamp), body, strlen(body), now, 0, event);
}

static void test_verify(void) {
  char signature[2 * crypto_sign_BYTES + 1];
  platformpp_webhook_event* event = NULL;
  uint64_t ends_at = 0;
  size_t size = 0;

  sign("1795000000", ping, signature);
  CHECK(verify("1795000000", signature, ping, 1795000000, &event) == 204);
  CHECK(event != NULL);
  CHECK(platformpp_webhook_event_get_kind(event) == PLATFORMPP_WEBHOOK_EVENT_KIND_PING);
  CHECK(platformpp_webhook_event_application_id(event) == 1234);
  CHECK(strcmp(platformpp_webhook_event_type_name(event, &size), "") == 0 && size == 0);
  platformpp_webhook_event_destroy(event);

  sign("1795000000", entitlement, signature);
  CHECK(verify("1795000000", signature, entitlement, 1795000000, &event) == 204);
  CHECK(platformpp_webhook_event_get_kind(event) == PLATFORMPP_WEBHOOK_EVENT_KIND_EVENT);
  CHECK(platformpp_webhook_event_get_data_type(event) ==
        PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_ENTITLEMENT_CREATE);
  CHECK(strcmp(platformpp_webhook_event_type_name(event, NULL), "ENTITLEMENT_CREATE") == 0);
  CHECK(platformpp_webhook_event_entitlement_id(event) == 1001);
  CHECK(platformpp_webhook_event_entitlement_sku_id(event) == 2002);
  CHECK(platformpp_webhook_event_entitlement_user_id(event) == 42);
  CHECK(platformpp_webhook_event_entitlement_guild_id(event) == 0);
  CHECK(platformpp_webhook_event_entitlement_type(event) == 8);
  CHECK(platformpp_webhook_event_entitlement_ends_at(event, &ends_at) && ends_at == 1797584000000ull);
  CHECK(platformpp_webhook_event_user_id(event) == 0); /* not an authorization event */
  {
    /* A clone outlives the original. */
    platformpp_webhook_event* kept = platformpp_webhook_event_clone(event);
    platformpp_webhook_event_destroy(event);
    CHECK(strlen(platformpp_webhook_event_id(kept, &size)) == 64 && size == 64);
    CHECK(strstr(platformpp_webhook_event_data_json(kept, NULL), "\"sku_id\":\"2002\"") != NULL);
    platformpp_webhook_event_destroy(kept);
  }

  /* Refused: one hex digit of the signature changed, the timestamp 301 s old, the body cut by one byte. */
  sign("1795000000", deauthorized, signature);
  signature[0] = signature[0] == '0' ? '1' : '0';
  event = (platformpp_webhook_event*)1;
  CHECK(verify("1795000000", signature, deauthorized, 1795000000, &event) == 401);
  CHECK(event == NULL);
  sign("1795000000", deauthorized, signature);
  CHECK(verify("1795000000", signature, deauthorized, 1795000301, &event) == 401 && event == NULL);
  CHECK(verify("1795000000", signature, deauthorized, 1795000300, &event) == 204 && event != NULL);
  platformpp_webhook_event_destroy(event);
  CHECK(platformpp_webhook_verify(public_hex, strlen(public_hex), signature, strlen(signature), "1795000000",
                                  10, deauthorized, strlen(deauthorized) - 1, 1795000000, 0, &event) == 401);
  /* Signed but not an event: 400. */
  sign("1795000000", "[]", signature);
  CHECK(verify("1795000000", signature, "[]", 1795000000, &event) == 400 && event == NULL);
  /* NULL everywhere: refused, never a crash. */
  CHECK(platformpp_webhook_verify(NULL, 0, NULL, 0, NULL, 0, NULL, 0, 0, 0, NULL) == 401);
  /* A receiver's clock beyond what a clock can hold (found by the call matrix under UBSan): too far from the
   * timestamp, refused. */
  sign("1795000000", deauthorized, signature);
  CHECK(verify("1795000000", signature, deauthorized, INT64_MAX, &event) == 401 && event == NULL);
  CHECK(verify("1795000000", signature, deauthorized, INT64_MIN, &event) == 401 && event == NULL);
  CHECK(platformpp_webhook_event_get_data_type(NULL) == PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_UNKNOWN);
  CHECK(strcmp(platformpp_webhook_event_timestamp(NULL, &size), "") == 0 && size == 0);
}

/* POSTs `body` signed (or with `forced_signature` when not NULL) to 127.0.0.1:port/path; the answer's status.
 */
static int post(int port, const char* path, const char* body, const char* forced_signature) {
  return signed_post_read(signed_post_send(secret_key, port, path, body, forced_signature), NULL, 0);
}

typedef struct received {
  int events;
  int frees;
  uint64_t user_id;
  char type_name[64];
  char event_id[65];
  char data_json[256];
  char timestamp[64];
} received;

static void on_event(const platformpp_webhook_event* event, void* user_data) {
  received* r = (received*)user_data;
  size_t size = 0;
  const char* text = platformpp_webhook_event_type_name(event, &size);
  r->events++;
  r->user_id = platformpp_webhook_event_user_id(event);
  snprintf(r->type_name, sizeof r->type_name, "%.*s", (int)size, text);
  text = platformpp_webhook_event_id(event, &size);
  snprintf(r->event_id, sizeof r->event_id, "%.*s", (int)size, text);
  text = platformpp_webhook_event_data_json(event, &size);
  snprintf(r->data_json, sizeof r->data_json, "%.*s", (int)size, text);
  text = platformpp_webhook_event_timestamp(event, &size);
  snprintf(r->timestamp, sizeof r->timestamp, "%.*s", (int)size, text);
}

static void count_received_free(void* user_data) {
  ((received*)user_data)->frees++;
}

/* Runs callbacks until `r` has `events` events or about 5 s pass. */
static void wait_for_events(platformpp_webhook_events* endpoint, received* r, int events) {
  int i;
  for (i = 0; i < 50 && r->events < events; ++i)
    platformpp_webhook_events_wait_for_callbacks(endpoint, 100);
}

static const char interaction_ping[] =
    "{\"id\":\"77\",\"application_id\":\"1234\",\"type\":1,"
    "\"token\":\"tok\",\"version\":1}";
static const char command[] =
    "{\"id\":\"78\",\"application_id\":\"1234\",\"type\":2,\"token\":\"aW50ZXJhY3Rpb24\",\"version\":1,"
    "\"guild_id\":\"500\",\"channel_id\":\"600\",\"locale\":\"fr\",\"app_permissions\":\"2048\","
    "\"member\":{\"user\":{\"id\":\"42\",\"username\":\"ada\"},\"roles\":[],\"permissions\":\"0\"},"
    "\"data\":{\"id\":\"900\",\"name\":\"stats\",\"type\":1,\"options\":[{\"name\":\"season\",\"type\":4,"
    "\"value\":3}]},\"authorizing_integration_owners\":{\"0\":\"500\"},\"context\":0}";
static const char modal_submit[] =
    "{\"id\":\"79\",\"application_id\":\"1234\",\"type\":5,\"token\":\"t\",\"version\":1,"
    "\"user\":{\"id\":\"43\",\"username\":\"bo\"},\"data\":{\"custom_id\":\"report\",\"components\":[]}}";

static int32_t verify_interaction(const char* timestamp, const char* signature, const char* body, int64_t now,
                                  platformpp_interaction** interaction) {
  return platformpp_interaction_verify(public_hex, strlen(public_hex), signature, strlen(signature),
                                       timestamp, strlen(timestamp), body, strlen(body), now, 0, interaction);
}

static void test_interaction_verify(void) {
  char signature[2 * crypto_sign_BYTES + 1];
  platformpp_interaction* interaction = NULL;
  platformpp_interaction* copy = NULL;
  size_t size = 0;

  /* A PING: 200, answered with the PONG body. */
  sign("1795000000", interaction_ping, signature);
  CHECK(verify_interaction("1795000000", signature, interaction_ping, 1795000000, &interaction) == 200);
  CHECK(interaction != NULL);
  CHECK(platformpp_interaction_get_type(interaction) == PLATFORMPP_INTERACTION_TYPE_PING);
  CHECK(strcmp(PLATFORMPP_INTERACTION_PONG_BODY, "{\"type\":1}") == 0);
  platformpp_interaction_destroy(interaction);

  /* A command: every getter, and a copy that outlives the original. */
  sign("1795000000", command, signature);
  CHECK(verify_interaction("1795000000", signature, command, 1795000000, &interaction) == 200);
  CHECK(platformpp_interaction_get_type(interaction) == PLATFORMPP_INTERACTION_TYPE_APPLICATION_COMMAND);
  CHECK(platformpp_interaction_id(interaction) == 78);
  CHECK(platformpp_interaction_application_id(interaction) == 1234);
  CHECK(strcmp(platformpp_interaction_token(interaction, &size), "aW50ZXJhY3Rpb24") == 0 && size == 15);
  CHECK(platformpp_interaction_guild_id(interaction) == 500);
  CHECK(platformpp_interaction_channel_id(interaction) == 600);
  CHECK(platformpp_interaction_user_id(interaction) == 42);
  CHECK(strcmp(platformpp_interaction_locale(interaction, NULL), "fr") == 0);
  CHECK(strcmp(platformpp_interaction_command_name(interaction, NULL), "stats") == 0);
  CHECK(strcmp(platformpp_interaction_custom_id(interaction, NULL), "") == 0);
  CHECK(strstr(platformpp_interaction_json(interaction, NULL), "\"season\"") != NULL);
  copy = platformpp_interaction_clone(interaction);
  platformpp_interaction_destroy(interaction);
  CHECK(platformpp_interaction_id(copy) == 78);
  platformpp_interaction_destroy(copy);

  /* A modal submission in a DM: the user and the custom id. */
  sign("1795000000", modal_submit, signature);
  CHECK(verify_interaction("1795000000", signature, modal_submit, 1795000000, &interaction) == 200);
  CHECK(platformpp_interaction_user_id(interaction) == 43);
  CHECK(platformpp_interaction_guild_id(interaction) == 0);
  CHECK(strcmp(platformpp_interaction_custom_id(interaction, NULL), "report") == 0);
  CHECK(strcmp(platformpp_interaction_command_name(interaction, NULL), "") == 0);
  platformpp_interaction_destroy(interaction);

  /* Refused: a forged signature, a stale timestamp (300 s is the edge, 301 is over), a signed
   * non-interaction. */
  sign("1795000000", command, signature);
  signature[0] = signature[0] == '0' ? '1' : '0';
  CHECK(verify_interaction("1795000000", signature, command, 1795000000, &interaction) == 401);
  CHECK(interaction == NULL);
  sign("1795000000", command, signature);
  CHECK(verify_interaction("1795000000", signature, command, 1795000300, &interaction) == 200);
  platformpp_interaction_destroy(interaction);
  CHECK(verify_interaction("1795000000", signature, command, 1795000301, &interaction) == 401);
  sign("1795000000", "{\"type\":2}", signature);
  CHECK(verify_interaction("1795000000", signature, "{\"type\":2}", 1795000000, &interaction) == 400);
  CHECK(interaction == NULL);

  /* NULL handles: defaults, never a crash. */
  CHECK(platformpp_interaction_get_type(NULL) == PLATFORMPP_INTERACTION_TYPE_PING);
  CHECK(platformpp_interaction_id(NULL) == 0);
  CHECK(strcmp(platformpp_interaction_token(NULL, &size), "") == 0 && size == 0);
  CHECK(platformpp_interaction_clone(NULL) == NULL);
  platformpp_interaction_destroy(NULL);
}

static void test_endpoint(void) {
  platformpp_webhook_events_options options;
  platformpp_webhook_events* endpoint;
  platformpp_client_result* result;
  received r;
  char forged[2 * crypto_sign_BYTES + 1];
  int port, i;

  memset(&r, 0, sizeof r);
  CHECK(platformpp_webhook_events_create(NULL) == NULL);
  platformpp_webhook_events_options_init(&options);
  options.port = 65536;
  CHECK(platformpp_webhook_events_create(&options) == NULL);
  options.port = 0;
  options.public_key_hex.ptr = public_hex;
  options.public_key_hex.size = strlen(public_hex);
  options.path.ptr = "/hooks";
  options.path.size = 6;
  endpoint = platformpp_webhook_events_create(&options);
  CHECK(endpoint != NULL);
  if (!endpoint) return;
  CHECK(platformpp_webhook_events_port(endpoint) == 0);
  platformpp_webhook_events_set_event_callback(endpoint, on_event, &r, count_received_free);
  result = platformpp_webhook_events_start(endpoint);
  CHECK(result != NULL && platformpp_client_result_successful(result));
  platformpp_client_result_destroy(result);
  CHECK(platformpp_webhook_events_running(endpoint));
  port = platformpp_webhook_events_port(endpoint);
  CHECK(port > 0);

  CHECK(post(port, "/hooks", ping, NULL) == 204);
  CHECK(post(port, "/hooks", deauthorized, NULL) == 204);
  wait_for_events(endpoint, &r, 1);
  CHECK(r.events == 1);
  CHECK(strcmp(r.type_name, "APPLICATION_DEAUTHORIZED") == 0);
  CHECK(r.user_id == 42);
  CHECK(strlen(r.event_id) == 64);
  CHECK(strcmp(r.timestamp, "2026-11-18T08:53:20Z") == 0);
  CHECK(strcmp(r.data_json, "{\"user\":{\"id\":\"42\",\"username\":\"ada\"}}") == 0);

  /* The platform's retry (signed again, a later timestamp) is answered but not delivered twice; a forged
   * request and another path deliver nothing. */
  CHECK(post(port, "/hooks", deauthorized, NULL) == 204);
  memset(forged, 'a', sizeof forged - 1);
  forged[sizeof forged - 1] = '\0';
  CHECK(post(port, "/hooks", entitlement, forged) == 401);
  CHECK(post(port, "/elsewhere", entitlement, NULL) == 404);
  for (i = 0; i < 3; ++i)
    platformpp_webhook_events_wait_for_callbacks(endpoint, 100);
  CHECK(r.events == 1);

  /* A new event still arrives, typed. */
  CHECK(post(port, "/hooks", entitlement, NULL) == 204);
  wait_for_events(endpoint, &r, 2);
  CHECK(r.events == 2);
  CHECK(strcmp(r.type_name, "ENTITLEMENT_CREATE") == 0);

  platformpp_webhook_events_stop(endpoint);
  CHECK(!platformpp_webhook_events_running(endpoint));
  CHECK(platformpp_webhook_events_port(endpoint) == 0);
  CHECK(post(port, "/hooks", ping, NULL) == -1);
  CHECK(r.frees == 0);
  platformpp_webhook_events_destroy(endpoint);
  CHECK(r.frees == 1);

  /* A bad key is refused at start, as VALIDATION_ERROR. */
  options.public_key_hex.size = 10;
  endpoint = platformpp_webhook_events_create(&options);
  result = platformpp_webhook_events_start(endpoint);
  CHECK(platformpp_client_result_type(result) == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  platformpp_client_result_destroy(result);
  platformpp_webhook_events_destroy(endpoint);
}

typedef struct outcome {
  int calls;
  int frees;
  platformpp_error_type type;
  char field[64];
} outcome;

static void on_written(const platformpp_client_result* result, void* user_data) {
  outcome* o = (outcome*)user_data;
  o->calls++;
  o->type = platformpp_client_result_type(result);
  if (platformpp_client_result_field_error_count(result) > 0)
    snprintf(o->field, sizeof o->field, "%s", platformpp_client_result_field_error_path(result, 0, NULL));
}

static void count_outcome_free(void* user_data) {
  ((outcome*)user_data)->frees++;
}

static void test_game_stats_profile(void) {
  platformpp_game_stats_profile* profile = platformpp_game_stats_profile_create();
  platformpp_game_stats_dynamic_field field;
  platformpp_string text;
  platformpp_backend_options options;
  platformpp_backend* backend;
  outcome o;
  int64_t count = 0;
  double hours = 0;
  char name[1026];
  int i;

  /* The handle holds what is set, and says what is not. */
  CHECK(!platformpp_game_stats_profile_username(profile, &text));
  CHECK(!platformpp_game_stats_profile_has_data(profile));
  CHECK(platformpp_game_stats_profile_set_username(profile, "ada", 3));
  CHECK(
      platformpp_game_stats_profile_set_text(profile, PLATFORMPP_GAME_STATS_TEXT_FIELD_RANK_NAME, "Gold", 4));
  CHECK(!platformpp_game_stats_profile_set_text(profile, (platformpp_game_stats_text_field)7, "x", 1));
  CHECK(platformpp_game_stats_profile_set_count(profile, PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_WINS, 12));
  CHECK(platformpp_game_stats_profile_set_playtime_hours(profile, 69.41));
  memset(&field, 0, sizeof field);
  field.type = PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_NUMBER;
  field.name.ptr = "elo";
  field.name.size = 3;
  field.number = 1500;
  CHECK(platformpp_game_stats_profile_add_dynamic_field(profile, &field));
  field.type = (platformpp_game_stats_dynamic_field_type)4;
  CHECK(!platformpp_game_stats_profile_add_dynamic_field(profile, &field));
  CHECK(platformpp_game_stats_profile_has_data(profile));
  CHECK(platformpp_game_stats_profile_username(profile, &text) && text.size == 3 &&
        memcmp(text.ptr, "ada", 3) == 0);
  CHECK(platformpp_game_stats_profile_text(profile, PLATFORMPP_GAME_STATS_TEXT_FIELD_RANK_NAME, &text) &&
        text.size == 4);
  CHECK(!platformpp_game_stats_profile_text(profile, PLATFORMPP_GAME_STATS_TEXT_FIELD_SEASON, &text));
  CHECK(platformpp_game_stats_profile_count(profile, PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_WINS, &count) &&
        count == 12);
  CHECK(!platformpp_game_stats_profile_count(profile, PLATFORMPP_GAME_STATS_COUNT_FIELD_TOTAL_KILLS, &count));
  CHECK(platformpp_game_stats_profile_playtime_hours(profile, &hours) && hours == 69.41);
  CHECK(platformpp_game_stats_profile_dynamic_field_count(profile) == 1);
  memset(&field, 0, sizeof field);
  CHECK(platformpp_game_stats_profile_dynamic_field_at(profile, 0, &field) &&
        field.type == PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_NUMBER && field.number == 1500 &&
        field.name.size == 3 && field.text.size == 0);
  CHECK(!platformpp_game_stats_profile_dynamic_field_at(profile, 1, &field));

  /* A username of 1025 characters (one over the platform's limit) is refused before anything is sent: the
   * API base is a closed port, so a request would end as a NETWORK_ERROR instead. */
  for (i = 0; i < 1025; ++i)
    name[i] = 'a';
  CHECK(platformpp_game_stats_profile_set_username(profile, name, 1025));
  platformpp_backend_options_init(&options);
  options.api_base.ptr = "http://127.0.0.1:9/api/v10";
  options.api_base.size = strlen(options.api_base.ptr);
  options.bot_token.ptr = "bot-token-never-logged";
  options.bot_token.size = strlen(options.bot_token.ptr);
  options.application_id = 1234;
  backend = platformpp_backend_create(&options);
  CHECK(backend != NULL);
  memset(&o, 0, sizeof o);
  platformpp_backend_update_game_stats_profile(backend, 42, "player-1", 8, profile, on_written, &o,
                                               count_outcome_free);
  CHECK(o.calls == 0); /* only inside run_callbacks */
  for (i = 0; i < 20 && o.calls == 0; ++i)
    platformpp_backend_wait_for_callbacks(backend, 100), platformpp_backend_run_callbacks(backend);
  CHECK(o.calls == 1 && o.frees == 1);
  CHECK(o.type == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  CHECK(strcmp(o.field, "username") == 0);
  platformpp_backend_destroy(backend);
  platformpp_game_stats_profile_destroy(profile);

  options.api_version = 0;
  CHECK(platformpp_backend_create(&options) == NULL);
  CHECK(platformpp_backend_create(NULL) == NULL);
  /* NULL handles: user_data is freed, nothing runs. */
  memset(&o, 0, sizeof o);
  platformpp_backend_update_game_stats_profile(NULL, 42, "p", 1, NULL, on_written, &o, count_outcome_free);
  CHECK(o.calls == 0 && o.frees == 1);
}

int main(void) {
  if (sodium_init() < 0) return 1;
  crypto_sign_keypair(public_key, secret_key);
  sodium_bin2hex(public_hex, sizeof public_hex, public_key, sizeof public_key);
  test_verify();
  test_interaction_verify();
  test_endpoint();
  test_game_stats_profile();
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
