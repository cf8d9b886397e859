/* Voice calls through the C ABI from pure C11, against a running emulator, with the null audio device: two
 * friends meet in a lobby and both start its call with audio callbacks; both reach CONNECTED with 2
 * participants; A's captured callback puts a 440 Hz square wave into its microphone frames and B's received
 * callback (on the voice thread, hence the atomics) counts the frames it gets from A; B hears A; once A
 * mutes, B hears nothing more and sees A's self_mute; A ends the call (its callback runs once) and B sees A
 * leave; B's client is destroyed with its call running. Along the way: the null audio devices, a call's
 * switches and their limits (crossed by one), end-to-end encryption (both players agree on whether it is on
 * and, when it is, on the epoch and pairwise verification codes), and NULL handles. user_data_free runs once
 * for everything, on this thread. Started by c_api_with_emulator --social, which passes:
 * c_api_voice_test <api_base> <ca_file> <web_base> <ipc_name> <ipc_dir> <application_id> <user_id>
 *                  <user_token> <friend_id> <friend_token> <guild_id> */
#define _POSIX_C_SOURCE 200809L /* setenv, pthread_self */

#include <platformpp/platformpp_c.h>

#include "c_check.h"
#include "c_two_clients.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static pthread_t main_thread;

/* Frees count on the test's thread only: the library runs every user_data_free there (inside run_callbacks
 * or destroy), never on its own threads. */
typedef struct free_count {
  int frees;
  int on_other_thread;
} free_count;

static void on_free(void* user_data) {
  free_count* f = (free_count*)user_data;
  f->frees++;
  if (!pthread_equal(pthread_self(), main_thread)) f->on_other_thread++;
}

/* What one player's audio callbacks do and see; they run on the voice thread. */
typedef struct audio_tap {
  free_count freed; /* first: on_free takes the tap as a free_count */
  atomic_int tone;
  uint64_t samples_written; /* voice thread only */
  uint64_t watched_user;
  atomic_int frames_from_watched;
  atomic_int captured_frames;
  atomic_int ran_on_main_thread;
  atomic_int bad_format;
} audio_tap;

static void on_captured(int16_t* data, uint64_t samples_per_channel, int32_t sample_rate, uint64_t channels,
                        void* user_data) {
  audio_tap* tap = (audio_tap*)user_data;
  uint64_t i, c;
  if (pthread_equal(pthread_self(), main_thread)) atomic_store(&tap->ran_on_main_thread, 1);
  if (sample_rate != 48000 || channels != 2 || samples_per_channel != 960) atomic_store(&tap->bad_format, 1);
  atomic_fetch_add(&tap->captured_frames, 1);
  for (i = 0; i < samples_per_channel; ++i) {
    /* 440 Hz square wave: the sign flips every half period. */
    const uint64_t half_periods = (tap->samples_written++ * 440u * 2u) / (uint64_t)sample_rate;
    const int16_t value = atomic_load(&tap->tone) ? (int16_t)((half_periods % 2u) ? -8000 : 8000) : 0;
    for (c = 0; c < channels; ++c)
      data[i * channels + c] = value;
  }
}

static void on_received(uint64_t user_id, int16_t* data, uint64_t samples_per_channel, int32_t sample_rate,
                        uint64_t channels, int32_t* out_should_mute, void* user_data) {
  audio_tap* tap = (audio_tap*)user_data;
  (void)data;
  if (pthread_equal(pthread_self(), main_thread)) atomic_store(&tap->ran_on_main_thread, 1);
  if (sample_rate != 48000 || channels != 2 || samples_per_channel != 960) atomic_store(&tap->bad_format, 1);
  *out_should_mute = 1; /* nothing to play on the null device anyway */
  if (user_id == tap->watched_user) atomic_fetch_add(&tap->frames_from_watched, 1);
}

typedef struct call_events {
  free_count freed; /* first: on_free takes the events as a free_count */
  int connected;
  int last_status;
  int disconnected;
  uint64_t watched_user;
  int watched_added;
  int watched_removed;
  int watched_voice_states;
} call_events;

static void on_call_status(platformpp_call_status status, platformpp_call_error error, int32_t detail,
                           void* user_data) {
  call_events* e = (call_events*)user_data;
  (void)detail;
  e->last_status = (int)status;
  if (status == PLATFORMPP_CALL_STATUS_CONNECTED) e->connected = 1;
  if (status == PLATFORMPP_CALL_STATUS_DISCONNECTED) {
    e->disconnected = 1;
    if (error != PLATFORMPP_CALL_ERROR_NONE)
      fprintf(stderr, "call disconnected: %s (%d)\n", platformpp_call_error_to_string(error), (int)detail);
  }
}

static void on_participant(uint64_t user_id, int32_t added, void* user_data) {
  call_events* e = (call_events*)user_data;
  if (user_id != e->watched_user) return;
  if (added)
    e->watched_added++;
  else
    e->watched_removed++;
}

static void on_speaking(uint64_t user_id, int32_t is_playing_sound, void* user_data) {
  (void)user_id;
  (void)is_playing_sound;
  (void)user_data;
}

/* The E2EE status callback's calls and the last value it gave. */
typedef struct e2ee_events {
  free_count freed;
  int calls;
  int last;
} e2ee_events;

static void on_e2ee_status(int32_t e2ee_active, void* user_data) {
  e2ee_events* e = (e2ee_events*)user_data;
  e->calls++;
  e->last = e2ee_active;
}

/* A pairwise verification code as delivered. */
typedef struct code_result {
  free_count freed;
  int done;
  size_t size;
  char code[64];
} code_result;

static void on_verification_code(const char* code, size_t code_size, void* user_data) {
  code_result* r = (code_result*)user_data;
  r->done++;
  r->size = code_size;
  if (code_size < sizeof r->code) memcpy(r->code, code, code_size + 1);
}

static int all_digits(const char* text, size_t size) {
  size_t i;
  for (i = 0; i < size; ++i)
    if (text[i] < '0' || text[i] > '9') return 0;
  return 1;
}

typedef struct input_state {
  free_count freed;
  int silent; /* the callback said "no input" */
  int calls;
} input_state;

static void on_no_audio_input(int32_t input_detected, void* user_data) {
  input_state* s = (input_state*)user_data;
  s->calls++;
  if (!input_detected) s->silent = 1;
}

static void on_voice_state(uint64_t user_id, void* user_data) {
  call_events* e = (call_events*)user_data;
  if (user_id == e->watched_user) e->watched_voice_states++;
}

typedef struct notified {
  free_count freed;
  int count;
} notified;

static void on_notify(void* user_data) {
  ((notified*)user_data)->count++;
}

typedef struct outcome {
  free_count freed;
  int done;
  int type;
  uint64_t id;
} outcome;

static void on_id_result(const platformpp_client_result* result, uint64_t id, void* user_data) {
  outcome* o = (outcome*)user_data;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
  o->id = id;
}

static void on_result(const platformpp_client_result* result, void* user_data) {
  outcome* o = (outcome*)user_data;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
}

typedef struct devices_seen {
  free_count freed;
  int done;
  size_t count;
  int defaults;
  char first_id[128];
} devices_seen;

static void on_devices(const platformpp_audio_device* devices, size_t count, void* user_data) {
  devices_seen* d = (devices_seen*)user_data;
  size_t i;
  d->done = 1;
  d->count = count;
  for (i = 0; i < count; ++i) {
    if (devices[i].is_default) d->defaults++;
    if (i == 0 && devices[i].id_size < sizeof d->first_id) {
      memcpy(d->first_id, devices[i].id, devices[i].id_size);
      d->first_id[devices[i].id_size] = '\0';
    }
  }
}

typedef struct member_event {
  uint64_t lobby_id;
  uint64_t member_id;
  int added;
} member_event;

static void on_member_added(uint64_t lobby_id, uint64_t member_id, void* user_data) {
  member_event* e = (member_event*)user_data;
  if (lobby_id == e->lobby_id && member_id == e->member_id) e->added = 1;
}

/* Warnings and errors of the clients and their voice engines, to tell why a check failed. */
static void on_log(const char* message, size_t message_size, platformpp_logging_severity severity,
                   void* user_data) {
  (void)severity;
  fprintf(stderr, "[%s] %.*s\n", (const char*)user_data, (int)message_size, message);
}

/* Pumps both clients for `seconds`. */
static void pump_for(platformpp_client* a, platformpp_client* b, double seconds) {
  double deadline = now_seconds() + seconds;
  while (now_seconds() < deadline) {
    platformpp_client_wait_for_callbacks(a, 5);
    platformpp_client_run_callbacks(a);
    platformpp_client_run_callbacks(b);
  }
}

/* Pumps until the atomic counter exceeds `threshold` or 10 s pass. */
static int pump_until_above(platformpp_client* a, platformpp_client* b, atomic_int* counter, int threshold) {
  double deadline = now_seconds() + 10.0;
  while (atomic_load(counter) <= threshold && now_seconds() < deadline) {
    platformpp_client_wait_for_callbacks(a, 5);
    platformpp_client_run_callbacks(a);
    platformpp_client_run_callbacks(b);
  }
  return atomic_load(counter) > threshold;
}

/* Pumps until the call has `expected` participants or 10 s pass. */
static int pump_until_participants(platformpp_client* a, platformpp_client* b, const platformpp_call* call,
                                   size_t expected) {
  double deadline = now_seconds() + 10.0;
  while (platformpp_call_get_participants(call, NULL, 0) != expected && now_seconds() < deadline) {
    platformpp_client_wait_for_callbacks(a, 5);
    platformpp_client_run_callbacks(a);
    platformpp_client_run_callbacks(b);
  }
  return platformpp_call_get_participants(call, NULL, 0) == expected;
}

static void init_tap(audio_tap* tap, uint64_t watched_user) {
  memset(&tap->freed, 0, sizeof tap->freed);
  atomic_init(&tap->tone, 0);
  tap->samples_written = 0;
  tap->watched_user = watched_user;
  atomic_init(&tap->frames_from_watched, 0);
  atomic_init(&tap->captured_frames, 0);
  atomic_init(&tap->ran_on_main_thread, 0);
  atomic_init(&tap->bad_format, 0);
}

/* The tests measure the codec and transport path: no echo cancellation, noise suppression or gain control. */
static void plain_audio(platformpp_client* client) {
  CHECK(platformpp_client_get_echo_cancellation(client) == 1);
  platformpp_client_set_echo_cancellation(client, 0);
  platformpp_client_set_noise_suppression(client, 0);
  platformpp_client_set_automatic_gain_control(client, 0);
  CHECK(platformpp_client_get_echo_cancellation(client) == 0);
  CHECK(platformpp_client_get_noise_suppression(client) == 0);
  CHECK(platformpp_client_get_automatic_gain_control(client) == 0);
}

int main(int argc, char** argv) {
  if (argc != 12) {
    fprintf(stderr,
            "usage: %s api_base ca_file web_base ipc_name ipc_dir application_id user_id token "
            "friend_id friend_token guild_id\n",
            argv[0]);
    return 2;
  }
  main_thread = pthread_self();
  /* Headless: the null audio device (silence in, nothing out, in real time). Before any client exists. */
#ifdef _WIN32
  if (_putenv_s("PLATFORMPP_AUDIO", "null") != 0) return 2;
#else
  if (setenv("PLATFORMPP_AUDIO", "null", 1) != 0) return 2;
#endif
  uint64_t application_id = strtoull(argv[6], NULL, 10);
  uint64_t a_id = strtoull(argv[7], NULL, 10);
  uint64_t b_id = strtoull(argv[9], NULL, 10);

  platformpp_client_options options;
  platformpp_client_options_init(&options);
  options.api_base = str(argv[1]);
  options.ca_file = str(argv[2]);
  options.web_base = str(argv[3]);
  options.ipc_enabled = 0;

  /* A NULL client refuses, freeing user_data at once. */
  audio_tap refused_tap;
  init_tap(&refused_tap, 0);
  CHECK(platformpp_client_start_call_with_audio_callbacks(NULL, 1, on_received, on_captured, &refused_tap,
                                                          on_free) == NULL);
  CHECK(refused_tap.freed.frees == 1);
  CHECK(platformpp_call_get_status(NULL) == PLATFORMPP_CALL_STATUS_DISCONNECTED);
  CHECK(platformpp_call_get_participants(NULL, NULL, 0) == 0);
  CHECK(platformpp_call_clone(NULL) == NULL);
  platformpp_call_destroy(NULL);
  free_count refused_free = {0, 0};
  platformpp_call_set_status_changed_callback(NULL, on_call_status, &refused_free, on_free);
  platformpp_client_end_call(NULL, 1, on_notify, &refused_free, on_free);
  CHECK(refused_free.frees == 2);
  CHECK(strcmp(platformpp_call_status_to_string(PLATFORMPP_CALL_STATUS_DISCONNECTING), "Disconnecting") == 0);
  CHECK(strcmp(platformpp_call_status_to_string((platformpp_call_status)7), "Unknown") == 0);
  CHECK(strcmp(platformpp_call_error_to_string(PLATFORMPP_CALL_ERROR_FORBIDDEN), "Forbidden") == 0);
  CHECK(strcmp(platformpp_call_error_to_string((platformpp_call_error)6), "Unknown") == 0);

  ready_state a_ready = {0}, b_ready = {0};
  platformpp_client* a = connect_client(&options, application_id, argv[8], &a_ready);
  platformpp_client* b = connect_client(&options, application_id, argv[10], &b_ready);
  CHECK(a != NULL && b != NULL);
  if (!a || !b) return 1;
  plain_audio(a);
  plain_audio(b);
  platformpp_client_add_log_callback(a, on_log, PLATFORMPP_LOGGING_SEVERITY_WARNING, "A", NULL);
  platformpp_client_add_log_callback(b, on_log, PLATFORMPP_LOGGING_SEVERITY_WARNING, "B", NULL);
  platformpp_client_add_voice_log_callback(a, on_log, PLATFORMPP_LOGGING_SEVERITY_WARNING, "A voice", NULL);
  platformpp_client_add_voice_log_callback(b, on_log, PLATFORMPP_LOGGING_SEVERITY_WARNING, "B voice", NULL);
  CHECK(pump_until(a, b, &a_ready.ready));
  CHECK(pump_until(a, b, &b_ready.ready));

  /* No call in a lobby the player is not in: NULL, and the audio user_data is freed (on this thread). */
  audio_tap stray_tap;
  init_tap(&stray_tap, 0);
  CHECK(platformpp_client_start_call_with_audio_callbacks(a, 12345, on_received, on_captured, &stray_tap,
                                                          on_free) == NULL);
  platformpp_client_run_callbacks(a);
  CHECK(stray_tap.freed.frees == 1);
  CHECK(stray_tap.freed.on_other_thread == 0);

  /* Devices: the null devices, which are the defaults; an unknown id is refused, the listed one accepted. */
  devices_seen inputs;
  memset(&inputs, 0, sizeof inputs);
  platformpp_client_get_input_devices(a, on_devices, &inputs, on_free);
  CHECK(pump_until(a, b, &inputs.done));
  CHECK(inputs.count == 1);
  CHECK(inputs.defaults == 1);
  CHECK(inputs.freed.frees == 1);
  outcome bad_device, good_device;
  memset(&bad_device, 0, sizeof bad_device);
  memset(&good_device, 0, sizeof good_device);
  platformpp_client_set_input_device(a, "no-such-microphone", 18, on_result, &bad_device, on_free);
  CHECK(pump_until(a, b, &bad_device.done));
  CHECK(bad_device.type == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  platformpp_client_set_input_device(a, inputs.first_id, strlen(inputs.first_id), on_result, &good_device,
                                     on_free);
  CHECK(pump_until(a, b, &good_device.done));
  CHECK(good_device.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(bad_device.freed.frees == 1 && good_device.freed.frees == 1);

  /* A creates the lobby; B joins it. */
  outcome created, joined;
  memset(&created, 0, sizeof created);
  memset(&joined, 0, sizeof joined);
  platformpp_client_create_or_join_lobby(a, "c-voice", 7, NULL, 0, NULL, 0, on_id_result, &created, NULL);
  CHECK(pump_until(a, b, &created.done));
  CHECK(created.type == PLATFORMPP_ERROR_TYPE_NONE);
  member_event b_added = {created.id, b_id, 0};
  platformpp_client_set_lobby_member_added_callback(a, on_member_added, &b_added, NULL);
  platformpp_client_create_or_join_lobby(b, "c-voice", 7, NULL, 0, NULL, 0, on_id_result, &joined, NULL);
  CHECK(pump_until(a, b, &joined.done));
  CHECK(joined.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(joined.id == created.id);
  CHECK(pump_until(a, b, &b_added.added));
  const uint64_t lobby = created.id;

  /* Both start the call with audio callbacks and reach CONNECTED with 2 participants. */
  audio_tap a_tap, b_tap;
  init_tap(&a_tap, b_id);
  init_tap(&b_tap, a_id);
  call_events a_events, b_events;
  memset(&a_events, 0, sizeof a_events);
  memset(&b_events, 0, sizeof b_events);
  a_events.watched_user = b_id;
  b_events.watched_user = a_id;
  platformpp_call* a_call =
      platformpp_client_start_call_with_audio_callbacks(a, lobby, on_received, on_captured, &a_tap, on_free);
  platformpp_call* b_call =
      platformpp_client_start_call_with_audio_callbacks(b, lobby, on_received, on_captured, &b_tap, on_free);
  CHECK(a_call != NULL && b_call != NULL);
  if (!a_call || !b_call) return 1;
  platformpp_call_set_status_changed_callback(a_call, on_call_status, &a_events, on_free);
  platformpp_call_set_participant_changed_callback(a_call, on_participant, &a_events, NULL);
  platformpp_call_set_status_changed_callback(b_call, on_call_status, &b_events, on_free);
  platformpp_call_set_participant_changed_callback(b_call, on_participant, &b_events, NULL);
  platformpp_call_set_voice_state_changed_callback(b_call, on_voice_state, &b_events, NULL);
  e2ee_events a_e2ee, b_e2ee;
  memset(&a_e2ee, 0, sizeof a_e2ee);
  memset(&b_e2ee, 0, sizeof b_e2ee);
  platformpp_call_set_e2ee_status_changed_callback(a_call, on_e2ee_status, &a_e2ee, on_free);
  platformpp_call_set_e2ee_status_changed_callback(b_call, on_e2ee_status, &b_e2ee, on_free);
  /* B's microphone (the null device) is digital silence: below -50 dBFS for 5 s, it counts as no input. */
  input_state b_input;
  memset(&b_input, 0, sizeof b_input);
  platformpp_client_set_no_audio_input_threshold(b, -50.0f);
  platformpp_client_set_no_audio_input_callback(b, on_no_audio_input, &b_input, on_free);
  CHECK(platformpp_call_get_channel_id(a_call) == lobby);
  CHECK(platformpp_call_get_guild_id(a_call) == 0);

  /* The player's switches of a call, through a second handle to it (the same call). Limits crossed by one:
   * audio modes 1 and 2 exist, 3 does not; a PTT release delay of 2000 ms is kept, 2001 is clamped; VAD
   * levels and participant volumes are clamped to -100..0 dBFS and 0..200 %. */
  platformpp_call* settings = platformpp_call_clone(b_call);
  CHECK(settings != NULL);
  CHECK(platformpp_call_get_audio_mode(settings) == PLATFORMPP_AUDIO_MODE_TYPE_VAD);
  platformpp_call_set_audio_mode(settings, PLATFORMPP_AUDIO_MODE_TYPE_PTT);
  CHECK(platformpp_call_get_audio_mode(b_call) == PLATFORMPP_AUDIO_MODE_TYPE_PTT);
  platformpp_call_set_audio_mode(settings, (platformpp_audio_mode_type)3);
  CHECK(platformpp_call_get_audio_mode(settings) == PLATFORMPP_AUDIO_MODE_TYPE_PTT);
  platformpp_call_set_audio_mode(settings, PLATFORMPP_AUDIO_MODE_TYPE_UNINIT);
  CHECK(platformpp_call_get_audio_mode(settings) == PLATFORMPP_AUDIO_MODE_TYPE_PTT);
  platformpp_call_set_ptt_active(settings, 1);
  CHECK(platformpp_call_get_ptt_active(settings) == 1);
  platformpp_call_set_ptt_active(settings, 0);
  platformpp_call_set_ptt_release_delay(settings, 2000);
  CHECK(platformpp_call_get_ptt_release_delay(settings) == 2000);
  platformpp_call_set_ptt_release_delay(settings, 2001);
  CHECK(platformpp_call_get_ptt_release_delay(settings) == 2000);
  platformpp_call_set_ptt_release_delay(settings, 20);
  platformpp_call_set_audio_mode(settings, PLATFORMPP_AUDIO_MODE_TYPE_VAD);
  platformpp_call_set_vad_threshold(settings, 0, -101.0f);
  CHECK(platformpp_call_get_vad_threshold(settings) == -100.0f);
  CHECK(platformpp_call_get_vad_threshold_automatic(settings) == 0);
  platformpp_call_set_vad_threshold(settings, 0, -60.0f);
  CHECK(platformpp_call_get_vad_threshold(settings) == -60.0f);
  platformpp_call_set_participant_volume(settings, a_id, 201.0f);
  CHECK(platformpp_call_get_participant_volume(settings, a_id) == 200.0f);
  platformpp_call_set_participant_volume(settings, a_id, 100.0f);
  platformpp_call_set_local_mute(settings, a_id, 1);
  CHECK(platformpp_call_get_local_mute(b_call, a_id) == 1);
  platformpp_call_set_local_mute(settings, a_id, 0);
  CHECK(platformpp_call_get_local_mute(b_call, a_id) == 0);
  CHECK(platformpp_call_get_self_deaf(settings) == 0);
  /* A replaced registration's user_data is freed (at a later run_callbacks, on this thread). */
  free_count replaced = {0, 0};
  platformpp_call_set_speaking_status_changed_callback(settings, on_speaking, &replaced, on_free);
  platformpp_call_set_speaking_status_changed_callback(settings, NULL, NULL, NULL);
  platformpp_call_destroy(settings);
  CHECK(replaced.frees == 0);
  CHECK(pump_until(a, b, &replaced.frees));
  CHECK(replaced.frees == 1 && replaced.on_other_thread == 0);
  CHECK(pump_until(a, b, &a_events.connected));
  CHECK(pump_until(a, b, &b_events.connected));
  CHECK(platformpp_call_get_status(a_call) == PLATFORMPP_CALL_STATUS_CONNECTED);
  CHECK(platformpp_call_get_status(b_call) == PLATFORMPP_CALL_STATUS_CONNECTED);
  CHECK(strcmp(platformpp_call_status_to_string(PLATFORMPP_CALL_STATUS_CONNECTED), "Connected") == 0);
  CHECK(pump_until_participants(a, b, a_call, 2));
  CHECK(pump_until_participants(a, b, b_call, 2));
  uint64_t participants[4] = {0};
  CHECK(platformpp_call_get_participants(b_call, participants, 4) == 2);
  CHECK((participants[0] == a_id && participants[1] == b_id) ||
        (participants[0] == b_id && participants[1] == a_id));
  int32_t mute = -1, deaf = -1;
  CHECK(platformpp_call_get_voice_state(b_call, a_id, &mute, &deaf) == 1);
  CHECK(mute == 0 && deaf == 0);
  CHECK(platformpp_call_get_voice_state(b_call, 42, NULL, NULL) == 0);

  /* Already in that call: NULL; get_call and get_calls hand out handles to it. */
  CHECK(platformpp_client_start_call(a, lobby) == NULL);
  platformpp_call* again = platformpp_client_get_call(a, lobby);
  CHECK(again != NULL);
  CHECK(platformpp_call_get_channel_id(again) == lobby);
  platformpp_call_destroy(again);
  CHECK(platformpp_client_get_call(a, lobby + 1) == NULL);
  platformpp_call* all[2] = {NULL, NULL};
  CHECK(platformpp_client_get_calls(a, all, 2) == 1);
  CHECK(all[0] != NULL && all[1] == NULL);
  CHECK(platformpp_call_get_status(all[0]) == PLATFORMPP_CALL_STATUS_CONNECTED);
  platformpp_call_destroy(all[0]);

  /* A's microphone carries the tone: B hears A (more than 25 frames, half a second of sound). */
  atomic_store(&a_tap.tone, 1);
  CHECK(pump_until_above(a, b, &b_tap.frames_from_watched, 25));
  CHECK(atomic_load(&a_tap.captured_frames) > 25);
  CHECK(atomic_load(&a_tap.ran_on_main_thread) == 0);
  CHECK(atomic_load(&b_tap.ran_on_main_thread) == 0);
  CHECK(atomic_load(&a_tap.bad_format) == 0);
  CHECK(atomic_load(&b_tap.bad_format) == 0);

  /* End-to-end encryption: B heard A, so if the voice server runs DAVE both sides have executed its
   * transition. Both agree on whether it is on; when it is, on the 30-digit epoch code and their 45-digit
   * pairwise code (each asked for the other); when it is off there are no codes, and the pairwise callbacks
   * still run once, with "". */
  const int32_t e2ee = platformpp_call_get_e2ee_active(a_call);
  CHECK(platformpp_call_get_e2ee_active(b_call) == e2ee);
  CHECK(e2ee ? (a_e2ee.calls >= 1 && a_e2ee.last == 1) : a_e2ee.calls == 0);
  CHECK(e2ee ? (b_e2ee.calls >= 1 && b_e2ee.last == 1) : b_e2ee.calls == 0);
  {
    size_t a_size = 99, b_size = 99;
    char a_epoch[64] = {0};
    const char* code = platformpp_call_get_epoch_verification_code(a_call, &a_size);
    if (a_size < sizeof a_epoch) memcpy(a_epoch, code, a_size + 1);
    code = platformpp_call_get_epoch_verification_code(b_call, &b_size);
    CHECK(code != NULL && strlen(code) == b_size);
    CHECK(a_size == (e2ee ? 30u : 0u) && b_size == a_size);
    CHECK(strcmp(a_epoch, code) == 0 && all_digits(code, b_size));
    uint8_t authenticator[64];
    const size_t authenticator_size =
        platformpp_call_get_epoch_authenticator(a_call, authenticator, sizeof authenticator);
    CHECK(authenticator_size == (e2ee ? 32u : 0u));
  }
  code_result a_pair, b_pair, self_pair;
  memset(&a_pair, 0, sizeof a_pair);
  memset(&b_pair, 0, sizeof b_pair);
  memset(&self_pair, 0, sizeof self_pair);
  platformpp_call_get_pairwise_verification_code(a_call, b_id, on_verification_code, &a_pair, on_free);
  platformpp_call_get_pairwise_verification_code(b_call, a_id, on_verification_code, &b_pair, on_free);
  platformpp_call_get_pairwise_verification_code(a_call, a_id, on_verification_code, &self_pair, on_free);
  CHECK(a_pair.done == 0 && b_pair.done == 0); /* only inside run_callbacks */
  CHECK(pump_until(a, b, &a_pair.done));
  CHECK(pump_until(a, b, &b_pair.done));
  CHECK(pump_until(a, b, &self_pair.done));
  pump_for(a, b, 0.1);
  CHECK(a_pair.done == 1 && b_pair.done == 1 && self_pair.done == 1);
  CHECK(a_pair.freed.frees == 1 && b_pair.freed.frees == 1 && self_pair.freed.frees == 1);
  CHECK(a_pair.size == (e2ee ? 45u : 0u) && b_pair.size == a_pair.size);
  CHECK(strcmp(a_pair.code, b_pair.code) == 0 && all_digits(a_pair.code, a_pair.size));
  CHECK(self_pair.size == 0); /* no code with oneself */
  {
    /* What A sent, B received: B decoded A's frames, decrypted when the call is end-to-end encrypted. */
    platformpp_call_media_statistics sent, got;
    CHECK(platformpp_call_get_media_statistics(a_call, &sent, sizeof sent) == sizeof sent);
    CHECK(platformpp_call_get_media_statistics(b_call, &got, sizeof got) == sizeof got);
    CHECK(sent.frames_sent > 25 && got.packets_received > 25 && got.frames_decoded > 25);
    CHECK(e2ee ? (sent.frames_encrypted > 25 && got.frames_decrypted > 25) : got.frames_in_clear > 25);
    printf(
        "c_api_voice: A sent %llu frames (%llu encrypted); B received %llu packets, decrypted %llu, "
        "%llu undecryptable, %llu lost\n",
        (unsigned long long)sent.frames_sent, (unsigned long long)sent.frames_encrypted,
        (unsigned long long)got.packets_received, (unsigned long long)got.frames_decrypted,
        (unsigned long long)got.frames_undecryptable, (unsigned long long)got.frames_lost);
  }
  printf("c_api_voice: E2EE %s; epoch code \"%s\"; pairwise code \"%s\"\n", e2ee ? "on" : "off",
         platformpp_call_get_epoch_verification_code(a_call, NULL), a_pair.code);

  /* A mutes: after the last frames in flight, B gets nothing more from A, and sees A's self_mute. */
  b_events.watched_voice_states = 0; /* the join announced A's voice state too */
  platformpp_call_set_self_mute(a_call, 1);
  CHECK(platformpp_call_get_self_mute(a_call) == 1);
  pump_for(a, b, 0.3);
  const int before_mute = atomic_load(&b_tap.frames_from_watched);
  pump_for(a, b, 0.6);
  CHECK(atomic_load(&b_tap.frames_from_watched) - before_mute <= 1);
  CHECK(pump_until(a, b, &b_events.watched_voice_states));
  mute = 0;
  CHECK(platformpp_call_get_voice_state(b_call, a_id, &mute, NULL) == 1);
  CHECK(mute == 1);

  /* A ends the call: its callback runs once, B sees A leave, A's call is over and its audio user_data freed.
   */
  notified a_ended;
  memset(&a_ended, 0, sizeof a_ended);
  platformpp_client_end_call(a, lobby, on_notify, &a_ended, on_free);
  CHECK(pump_until(a, b, &a_ended.count));
  CHECK(pump_until(a, b, &b_events.watched_removed));
  CHECK(pump_until_participants(a, b, b_call, 1));
  pump_for(a, b, 0.2);
  CHECK(a_ended.count == 1);
  CHECK(a_ended.freed.frees == 1);
  CHECK(b_events.watched_removed == 1);
  CHECK(platformpp_call_get_status(a_call) == PLATFORMPP_CALL_STATUS_DISCONNECTED);
  CHECK(platformpp_client_get_call(a, lobby) == NULL);
  CHECK(platformpp_client_get_calls(a, NULL, 0) == 0);
  CHECK(pump_until(a, b, &a_tap.freed.frees)); /* the voice thread dropped A's audio callbacks */
  CHECK(a_tap.freed.frees == 1);
  /* Ending a call that is not there still calls back once. */
  notified none;
  memset(&none, 0, sizeof none);
  platformpp_client_end_call(a, lobby, on_notify, &none, on_free);
  CHECK(pump_until(a, b, &none.count));
  CHECK(none.freed.frees == 1);

  /* Destroying a client with its call running is clean: the audio user_data is freed inside destroy, and the
   * call's callbacks' user_data when the last handle to the call goes. */
  CHECK(pump_until(a, b, &b_input.silent));
  CHECK(b_input.calls == 1);

  CHECK(platformpp_call_get_status(b_call) == PLATFORMPP_CALL_STATUS_CONNECTED);
  CHECK(b_tap.freed.frees == 0);
  CHECK(b_input.freed.frees == 0);
  platformpp_client_destroy(b);
  CHECK(b_tap.freed.frees == 1);
  CHECK(b_input.freed.frees == 1);
  platformpp_call_destroy(b_call);
  CHECK(b_events.freed.frees == 1);
  platformpp_call_destroy(a_call);
  platformpp_client_destroy(a);
  CHECK(a_events.freed.frees == 1);
  CHECK(a_e2ee.freed.frees == 1 && b_e2ee.freed.frees == 1);
  CHECK(a_e2ee.freed.on_other_thread == 0 && b_e2ee.freed.on_other_thread == 0);
  CHECK(a_tap.freed.frees == 1);
  CHECK(a_tap.freed.on_other_thread == 0 && b_tap.freed.on_other_thread == 0);
  CHECK(a_events.freed.on_other_thread == 0 && b_events.freed.on_other_thread == 0);
  CHECK(b_input.freed.on_other_thread == 0);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
