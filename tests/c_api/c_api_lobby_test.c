/* Lobbies and messages through the C ABI from pure C11, against a running emulator: two friends connect,
 * meet in a lobby by its secret (a secret over 250 characters is refused first), see each other as members
 * with their metadata, exchange a lobby message with metadata and a DM, read the lobby's history (a limit of
 * 201 is refused), and one leaves. Started by c_api_with_emulator --social, which passes:
 * c_api_lobby_test <api_base> <ca_file> <web_base> <ipc_name> <ipc_dir> <application_id> <user_id>
 *                  <user_token> <friend_id> <friend_token> <guild_id> */
#include <platformpp/platformpp_c.h>

#include "c_check.h"
#include "c_two_clients.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static platformpp_string_pair pair(const char* key, const char* value) {
  platformpp_string_pair out;
  out.key = str(key);
  out.value = str(value);
  return out;
}

static int equals(const char* text, size_t size, const char* expected) {
  return text && size == strlen(expected) && memcmp(text, expected, size) == 0;
}

/* The value of `key` among `count` pairs equals `expected`. */
static int has_pair(const platformpp_string_pair* pairs, size_t count, const char* key,
                    const char* expected) {
  size_t i;
  for (i = 0; i < count; ++i)
    if (equals(pairs[i].key.ptr, pairs[i].key.size, key))
      return equals(pairs[i].value.ptr, pairs[i].value.size, expected);
  return 0;
}

typedef struct outcome {
  int done;
  int type;
  uint64_t id; /* the lobby or message id */
  int frees;
} outcome;

static void on_free(void* user_data) {
  ((outcome*)user_data)->frees++;
}

static void on_result(const platformpp_client_result* result, void* user_data) {
  outcome* o = (outcome*)user_data;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
}

static void on_id_result(const platformpp_client_result* result, uint64_t id, void* user_data) {
  outcome* o = (outcome*)user_data;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
  o->id = id;
}

typedef struct member_event {
  uint64_t lobby_id;
  uint64_t member_id;
  int added;
  int removed;
} member_event;

static void on_member_added(uint64_t lobby_id, uint64_t member_id, void* user_data) {
  member_event* e = (member_event*)user_data;
  if (lobby_id == e->lobby_id && member_id == e->member_id) e->added = 1;
}

static void on_member_removed(uint64_t lobby_id, uint64_t member_id, void* user_data) {
  member_event* e = (member_event*)user_data;
  if (lobby_id == e->lobby_id && member_id == e->member_id) e->removed = 1;
}

typedef struct message_seen {
  platformpp_client* observer;
  const char* content;
  uint64_t message_id;
  int seen;
} message_seen;

static void on_message_created(uint64_t message_id, void* user_data) {
  message_seen* m = (message_seen*)user_data;
  platformpp_message_handle* message = platformpp_client_get_message_handle(m->observer, message_id);
  size_t size = 0;
  const char* content;
  if (!message) return;
  content = platformpp_message_handle_content(message, &size);
  if (equals(content, size, m->content)) {
    m->message_id = message_id;
    m->seen = 1;
  }
  platformpp_message_handle_destroy(message);
}

typedef struct history {
  int done;
  int type;
  size_t count;
  int last_matches; /* the newest message is the expected one */
  const char* expected_last;
} history;

static void on_history(const platformpp_client_result* result,
                       const platformpp_message_handle* const* messages, size_t count, void* user_data) {
  history* h = (history*)user_data;
  size_t size = 0;
  h->done = 1;
  h->type = (int)platformpp_client_result_type(result);
  h->count = count;
  if (count > 0) {
    const char* content = platformpp_message_handle_content(messages[count - 1], &size);
    h->last_matches = equals(content, size, h->expected_last);
  }
}

int main(int argc, char** argv) {
  if (argc != 12) {
    fprintf(stderr,
            "usage: %s api_base ca_file web_base ipc_name ipc_dir application_id user_id token "
            "friend_id friend_token guild_id\n",
            argv[0]);
    return 2;
  }
  uint64_t application_id = strtoull(argv[6], NULL, 10);
  uint64_t a_id = strtoull(argv[7], NULL, 10);
  uint64_t b_id = strtoull(argv[9], NULL, 10);

  platformpp_client_options options;
  platformpp_client_options_init(&options);
  options.api_base = str(argv[1]);
  options.ca_file = str(argv[2]);
  options.web_base = str(argv[3]);
  options.ipc_enabled = 0;

  ready_state a_ready = {0}, b_ready = {0};
  platformpp_client* a = connect_client(&options, application_id, argv[8], &a_ready);
  platformpp_client* b = connect_client(&options, application_id, argv[10], &b_ready);
  CHECK(a != NULL && b != NULL);
  if (!a || !b) return 1;
  CHECK(pump_until(a, b, &a_ready.ready));
  CHECK(pump_until(a, b, &b_ready.ready));

  /* A secret of 251 characters is refused before anything is sent; 250 would do. */
  char long_secret[252];
  memset(long_secret, 's', 251);
  long_secret[251] = '\0';
  outcome refused = {0};
  platformpp_client_create_or_join_lobby(a, long_secret, 251, NULL, 0, NULL, 0, on_id_result, &refused,
                                         on_free);
  CHECK(pump_until(a, b, &refused.done));
  CHECK(refused.type == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  CHECK(refused.frees == 1);

  /* A creates the lobby with metadata; B joins it by the same secret. */
  platformpp_string_pair lobby_metadata[1], member_metadata[1];
  lobby_metadata[0] = pair("mode", "duel");
  member_metadata[0] = pair("team", "red");
  outcome created = {0}, joined = {0};
  platformpp_client_create_or_join_lobby(a, "c-lobby", 7, lobby_metadata, 1, member_metadata, 1, on_id_result,
                                         &created, on_free);
  CHECK(pump_until(a, b, &created.done));
  CHECK(created.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(created.id != 0);
  member_event b_added = {created.id, b_id, 0, 0};
  platformpp_client_set_lobby_member_added_callback(a, on_member_added, &b_added, NULL);
  platformpp_client_set_lobby_member_removed_callback(a, on_member_removed, &b_added, NULL);
  platformpp_client_create_or_join_lobby(b, "c-lobby", 7, NULL, 0, NULL, 0, on_id_result, &joined, on_free);
  CHECK(pump_until(a, b, &joined.done));
  CHECK(joined.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(joined.id == created.id);
  CHECK(pump_until(a, b, &b_added.added));

  uint64_t ids[4] = {0};
  CHECK(platformpp_client_get_lobby_ids(a, ids, 4) == 1);
  CHECK(ids[0] == created.id);
  platformpp_lobby_handle* lobby = platformpp_client_get_lobby_handle(a, created.id);
  CHECK(lobby != NULL);
  if (lobby) {
    size_t count = 0;
    const platformpp_string_pair* pairs = platformpp_lobby_handle_metadata(lobby, &count);
    CHECK(has_pair(pairs, count, "mode", "duel"));
    CHECK(platformpp_lobby_handle_member_count(lobby) == 2);
    const platformpp_lobby_member_handle* me = platformpp_lobby_handle_member(lobby, a_id);
    CHECK(me != NULL);
    pairs = platformpp_lobby_member_handle_metadata(me, &count);
    CHECK(has_pair(pairs, count, "team", "red"));
    CHECK(platformpp_lobby_member_handle_can_link_lobby(me) == 0);
    const platformpp_lobby_member_handle* other = platformpp_lobby_handle_member(lobby, b_id);
    CHECK(other != NULL);
    CHECK(platformpp_lobby_member_handle_connected(other) == 1);
    CHECK(platformpp_lobby_handle_linked_channel(lobby, NULL, NULL, NULL, NULL) == 0);
    CHECK(platformpp_lobby_handle_member_at(lobby, 2) == NULL);
    platformpp_lobby_handle_destroy(lobby);
  }

  /* A lobby message with metadata reaches B. */
  message_seen lobby_seen = {b, "hello from C", 0, 0};
  platformpp_client_set_message_created_callback(b, on_message_created, &lobby_seen, NULL);
  platformpp_string_pair message_metadata[1];
  message_metadata[0] = pair("kind", "chat");
  outcome sent = {0};
  platformpp_client_send_lobby_message(a, created.id, "hello from C", 12, message_metadata, 1, on_id_result,
                                       &sent, on_free);
  CHECK(pump_until(a, b, &sent.done));
  CHECK(sent.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(pump_until(a, b, &lobby_seen.seen));
  CHECK(lobby_seen.message_id == sent.id);
  platformpp_message_handle* message = platformpp_client_get_message_handle(b, sent.id);
  CHECK(message != NULL);
  if (message) {
    size_t count = 0;
    CHECK(platformpp_message_handle_author_id(message) == a_id);
    CHECK(platformpp_message_handle_lobby_id(message) == created.id);
    CHECK(platformpp_message_handle_recipient_id(message) == 0);
    CHECK(platformpp_message_handle_sent_timestamp(message) > 0);
    const platformpp_string_pair* pairs = platformpp_message_handle_metadata(message, &count);
    CHECK(has_pair(pairs, count, "kind", "chat"));
    platformpp_message_handle_moderation_metadata(message, &count);
    CHECK(count == 0);
    platformpp_channel_handle* channel =
        platformpp_client_get_channel_handle(b, platformpp_message_handle_channel_id(message));
    CHECK(channel != NULL);
    CHECK(platformpp_channel_handle_type(channel) == PLATFORMPP_CHANNEL_TYPE_LOBBY);
    platformpp_channel_handle_destroy(channel);
    platformpp_message_handle_destroy(message);
  }

  /* A DM between the two friends. */
  message_seen dm_seen = {a, "psst", 0, 0};
  platformpp_client_set_message_created_callback(a, on_message_created, &dm_seen, NULL);
  outcome dm = {0};
  platformpp_client_send_user_message(b, a_id, "psst", 4, NULL, 0, on_id_result, &dm, on_free);
  CHECK(pump_until(a, b, &dm.done));
  CHECK(dm.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(pump_until(a, b, &dm_seen.seen));
  message = platformpp_client_get_message_handle(a, dm.id);
  CHECK(message != NULL);
  if (message) {
    CHECK(platformpp_message_handle_author_id(message) == b_id);
    CHECK(platformpp_message_handle_recipient_id(message) == a_id);
    CHECK(platformpp_message_handle_lobby_id(message) == 0);
    platformpp_message_handle_destroy(message);
  }

  /* History: 201 is over the limit; 200 returns the message, oldest first. */
  history too_many = {0, 0, 0, 0, "hello from C"};
  platformpp_client_get_lobby_messages_with_limit(a, created.id, 201, on_history, &too_many, NULL);
  CHECK(pump_until(a, b, &too_many.done));
  CHECK(too_many.type == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  history recent = {0, 0, 0, 0, "hello from C"};
  platformpp_client_get_lobby_messages_with_limit(a, created.id, 200, on_history, &recent, NULL);
  CHECK(pump_until(a, b, &recent.done));
  CHECK(recent.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(recent.count == 1);
  CHECK(recent.last_matches == 1);

  /* B leaves: A sees the member go. */
  outcome left = {0};
  platformpp_client_leave_lobby(b, created.id, on_result, &left, on_free);
  CHECK(pump_until(a, b, &left.done));
  CHECK(left.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(pump_until(a, b, &b_added.removed));
  CHECK(platformpp_client_get_lobby_ids(b, NULL, 0) == 0);

  /* A pending send ends once, with CLIENT_DESTROYED, when the client goes. */
  outcome pending = {0};
  platformpp_client_send_lobby_message(a, created.id, "last words", 10, NULL, 0, on_id_result, &pending,
                                       on_free);
  platformpp_client_destroy(a);
  CHECK(pending.done == 1);
  CHECK(pending.frees == 1);
  platformpp_client_destroy(b);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
