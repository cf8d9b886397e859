/* What the pure-C tests with two players share: borrowed strings, connecting a client with a token, and
 * pumping both clients until a flag is set. Static functions: each test is one translation unit. */
#ifndef PLATFORMPP_TESTS_C_TWO_CLIENTS_H
#define PLATFORMPP_TESTS_C_TWO_CLIENTS_H

#include <platformpp/platformpp_c.h>

#include <string.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

static platformpp_string str(const char* s) {
  platformpp_string out;
  out.ptr = s;
  out.size = strlen(s);
  return out;
}

typedef struct ready_state {
  int ready;
} ready_state;

static void on_status(platformpp_client_status status, platformpp_client_error error, int32_t detail,
                      void* user_data) {
  (void)error;
  (void)detail;
  if (status == PLATFORMPP_CLIENT_STATUS_READY) ((ready_state*)user_data)->ready = 1;
}

static double now_seconds(void) {
#ifdef _WIN32
  return (double)GetTickCount64() / 1e3; /* MinGW-w64's C runtime (msvcrt) has no timespec_get */
#else
  struct timespec ts;
  timespec_get(&ts, TIME_UTC); /* C11; a wall clock is fine for a 10 s test deadline */
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
#endif
}

/* Pumps both clients until *flag is set or 10 s pass. */
static int pump_until(platformpp_client* a, platformpp_client* b, const int* flag) {
  double deadline = now_seconds() + 10.0;
  while (!*flag && now_seconds() < deadline) {
    platformpp_client_wait_for_callbacks(a, 5);
    platformpp_client_run_callbacks(a);
    platformpp_client_run_callbacks(b);
  }
  return *flag;
}

/* A client of `application_id` with `token`, connecting; `ready` is set once it is Ready. */
static platformpp_client* connect_client(const platformpp_client_options* options, uint64_t application_id,
                                         const char* token, ready_state* ready) {
  platformpp_client* client = platformpp_client_create(options);
  if (!client) return NULL;
  platformpp_client_set_application_id(client, application_id);
  platformpp_client_set_status_changed_callback(client, on_status, ready, NULL);
  /* The token is in effect before this returns; nobody waits for the confirmation. */
  platformpp_client_update_token(client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, token, strlen(token),
                                 NULL, NULL, NULL);
  platformpp_client_connect(client);
  return client;
}

#endif
