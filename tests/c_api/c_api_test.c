/* The C ABI driven from pure C11, the way an engine binding uses it. */
#include <platformpp/platformpp_c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

typedef struct counters {
  int callbacks;
  int frees;
  int last_type;
  int destroyed;
  int logs;
} counters;

static void count_free(void* user_data) {
  ((counters*)user_data)->frees++;
}

static void on_user(const platformpp_client_result* result, uint64_t user_id, const char* username,
                    size_t username_size, void* user_data) {
  counters* c = (counters*)user_data;
  c->callbacks++;
  c->last_type = (int)platformpp_client_result_type(result);
  if (c->last_type == PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED) c->destroyed++;
  CHECK(user_id == 0);
  CHECK(username != NULL && username_size == 0 && username[0] == '\0');
}

static void on_log(const char* message, size_t size, platformpp_logging_severity severity, void* user_data) {
  (void)severity;
  CHECK(strlen(message) == size);
  ((counters*)user_data)->logs++;
}

typedef struct destroy_ctx {
  platformpp_client* client;
  int calls;
} destroy_ctx;

static void destroy_from_callback(const platformpp_client_result* result, uint64_t user_id,
                                  const char* username, size_t username_size, void* user_data) {
  destroy_ctx* ctx = (destroy_ctx*)user_data;
  (void)result;
  (void)user_id;
  (void)username;
  (void)username_size;
  ctx->calls++;
  if (ctx->client) {
    platformpp_client* client = ctx->client;
    ctx->client = NULL;
    platformpp_client_destroy(client); /* allowed from inside a callback */
  }
}

int main(void) {
  int32_t major = -1, minor = -1, patch = -1;
  platformpp_version(&major, &minor, &patch);
  CHECK(major >= 0 && minor >= 0 && patch >= 0);
  CHECK(strlen(platformpp_version_string()) > 0);

  /* Options with an unknown api_version are refused. */
  platformpp_client_options options;
  platformpp_client_options_init(&options);
  CHECK(options.api_version == PLATFORMPP_C_API_VERSION);
  CHECK(options.use_system_certificates == 1);
  options.api_version = 999;
  CHECK(platformpp_client_create(&options) == NULL);
  options.api_version = PLATFORMPP_C_API_VERSION;
  options.api_base.ptr = "https://127.0.0.1:1/api/v10";
  options.api_base.size = strlen(options.api_base.ptr);

  counters ops = {0, 0, 0, 0, 0};
  counters logs = {0, 0, 0, 0, 0};
  platformpp_client* client = platformpp_client_create(&options);
  CHECK(client != NULL);
  platformpp_client_add_log_callback(client, on_log, PLATFORMPP_LOGGING_SEVERITY_VERBOSE, &logs, count_free);
  platformpp_client_set_application_id(client, 1234);
  CHECK(platformpp_client_get_application_id(client) == 1234);
  CHECK(platformpp_client_get_http_request_timeout(client) == 30000);
  platformpp_client_set_http_request_timeout(client, 250);
  CHECK(platformpp_client_get_http_request_timeout(client) == 250);

  /* An empty token: a validation error, delivered only inside run_callbacks; user_data freed once after. */
  platformpp_client_fetch_current_user(client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, NULL, 0, on_user,
                                       &ops, count_free);
  CHECK(ops.callbacks == 0);
  platformpp_client_run_callbacks(client);
  CHECK(ops.callbacks == 1);
  CHECK(ops.last_type == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  CHECK(ops.frees == 1);

  /* Pending operations end with CLIENT_DESTROYED inside destroy; log user_data is freed then too. */
  platformpp_client_fetch_current_user(client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, "tok-abcdefgh", 12,
                                       on_user, &ops, count_free);
  platformpp_client_destroy(client);
  CHECK(ops.callbacks == 2);
  CHECK(ops.destroyed == 1);
  CHECK(ops.frees == 2);
  CHECK(logs.frees == 1);

  /* Destroying the client from inside one of its callbacks. */
  destroy_ctx ctx = {NULL, 0};
  ctx.client = platformpp_client_create(NULL);
  CHECK(ctx.client != NULL);
  platformpp_client_fetch_current_user(ctx.client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, "", 0,
                                       destroy_from_callback, &ctx, NULL);
  platformpp_client_fetch_current_user(ctx.client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, "", 0,
                                       destroy_from_callback, &ctx, NULL);
  platformpp_client_run_callbacks(ctx.client);
  CHECK(ctx.calls == 2);
  CHECK(ctx.client == NULL);

  /* Results: to_string is freed by the caller; NULL-safety. */
  char* text = platformpp_client_result_to_string(NULL);
  CHECK(text != NULL && strcmp(text, "None") == 0);
  platformpp_free(text);
  platformpp_client_destroy(NULL);
  platformpp_client_run_callbacks(NULL);

  if (failures) {
    fprintf(stderr, "0 passed, %d failed\n", failures);
    return 1;
  }
  printf("c_api: all checks passed\n");
  return 0;
}
