/* Rich presence, relationships and users through the C ABI from pure C11, against a running emulator: two
 * friends connect; an invalid activity is refused naming its field; A's activity reaches B, who reads it from
 * A's user handle; both see each other in their relationships and in the right group. Started by
 * c_api_with_emulator --social, which passes:
 * c_api_social_test <api_base> <ca_file> <web_base> <ipc_name> <ipc_dir> <application_id> <user_id>
 *                   <user_token> <friend_id> <friend_token> <guild_id> */
#include <platformpp/platformpp_c.h>

#include "c_check.h"
#include "c_two_clients.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

typedef struct outcome {
  int done;
  int type;
  char field[256]; /* the first field error's path */
  int frees;
} outcome;

static void on_free(void* user_data) {
  ((outcome*)user_data)->frees++;
}

static void on_result(const platformpp_client_result* result, void* user_data) {
  outcome* o = (outcome*)user_data;
  size_t size = 0;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
  if (platformpp_client_result_field_error_count(result) > 0) {
    const char* path = platformpp_client_result_field_error_path(result, 0, &size);
    if (size >= sizeof o->field) size = sizeof o->field - 1;
    memcpy(o->field, path, size);
    o->field[size] = '\0';
  }
}

typedef struct presence_seen {
  platformpp_client* observer;
  uint64_t user_id;
  int seen; /* the user's game activity has the expected state */
} presence_seen;

static void on_user_updated(uint64_t user_id, void* user_data) {
  presence_seen* p = (presence_seen*)user_data;
  if (user_id != p->user_id) return;
  platformpp_user_handle* user = platformpp_client_get_user(p->observer, user_id);
  if (!user) return;
  platformpp_activity* activity = platformpp_user_handle_game_activity(user);
  if (activity) {
    size_t size = 0;
    const char* state = platformpp_activity_state(activity, &size);
    if (state && size == strlen("In the arena") && memcmp(state, "In the arena", size) == 0) p->seen = 1;
    platformpp_activity_destroy(activity);
  }
  platformpp_user_handle_destroy(user);
}

typedef struct guilds_outcome {
  int done;
  int type;
  uint64_t guild_id;
  int found;         /* the guild is listed, with its banner */
  int channels;      /* how many channels */
  int hidden_listed; /* the channel hidden from @everyone was listed */
  int ordered;       /* each channel after its category, children by position */
  int voice_status;  /* the voice channel came with its status "Squad up", the others with none */
} guilds_outcome;

static void on_guilds(const platformpp_client_result* result, const platformpp_guild_minimal* guilds,
                      size_t count, void* user_data) {
  guilds_outcome* o = (guilds_outcome*)user_data;
  size_t i;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
  for (i = 0; i < count; ++i) {
    if (guilds[i].id == o->guild_id && guilds[i].banner_size == strlen("bannerhash") &&
        memcmp(guilds[i].banner, "bannerhash", guilds[i].banner_size) == 0) {
      o->found = 1;
    }
  }
}

static void on_channels(const platformpp_client_result* result, const platformpp_guild_channel* channels,
                        size_t count, void* user_data) {
  guilds_outcome* o = (guilds_outcome*)user_data;
  size_t i, j;
  o->done = 1;
  o->type = (int)platformpp_client_result_type(result);
  o->channels = (int)count;
  o->ordered = 1;
  o->voice_status = 1;
  for (i = 0; i < count; ++i) {
    const int is_voice = channels[i].name_size == 5 && memcmp(channels[i].name, "voice", 5) == 0;
    if (is_voice) {
      if (channels[i].voice_status == NULL || channels[i].voice_status_size != 8 ||
          strcmp(channels[i].voice_status, "Squad up") != 0) {
        o->voice_status = 0;
      }
    } else if (channels[i].voice_status != NULL || channels[i].voice_status_size != 0) {
      o->voice_status = 0;
    }
    if (channels[i].name_size == 6 && memcmp(channels[i].name, "secret", 6) == 0) o->hidden_listed = 1;
    if (channels[i].parent_category_id == 0) continue;
    /* Its category comes earlier; an earlier sibling has a lower position. */
    int category_seen = 0;
    for (j = 0; j < i; ++j) {
      if (channels[j].id == channels[i].parent_category_id) category_seen = 1;
      if (channels[j].parent_category_id == channels[i].parent_category_id &&
          channels[j].position > channels[i].position) {
        o->ordered = 0;
      }
    }
    if (!category_seen) o->ordered = 0;
  }
}

/* Finds user_id in a relationship list; returns its discord type, or -1. */
static int find_relationship(const platformpp_relationship_list* list, uint64_t user_id) {
  size_t i;
  for (i = 0; i < platformpp_relationship_list_size(list); ++i) {
    const platformpp_relationship_handle* r = platformpp_relationship_list_at(list, i);
    if (platformpp_relationship_handle_id(r) == user_id) {
      return (int)platformpp_relationship_handle_discord_type(r);
    }
  }
  return -1;
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
  uint64_t guild_id = strtoull(argv[11], NULL, 10);

  platformpp_client_options options;
  platformpp_client_options_init(&options);
  options.api_base = str(argv[1]);
  options.ca_file = str(argv[2]);
  options.web_base = str(argv[3]);
  options.ipc_enabled = 0; /* presence goes over the realtime connection here */

  ready_state a_ready = {0}, b_ready = {0};
  platformpp_client* a = connect_client(&options, application_id, argv[8], &a_ready);
  platformpp_client* b = connect_client(&options, application_id, argv[10], &b_ready);
  CHECK(a != NULL && b != NULL);
  if (!a || !b) return 1;
  CHECK(pump_until(a, b, &a_ready.ready));
  CHECK(pump_until(a, b, &b_ready.ready));

  /* The current user and the friendship from READY. */
  platformpp_user_handle* me = platformpp_client_get_current_user(a);
  CHECK(me != NULL);
  CHECK(platformpp_user_handle_id(me) == a_id);
  platformpp_user_handle_destroy(me);
  platformpp_relationship_list* all = platformpp_client_get_relationships(b);
  CHECK(find_relationship(all, a_id) == PLATFORMPP_RELATIONSHIP_TYPE_FRIEND);
  platformpp_relationship_list_destroy(all);

  /* An invalid activity is refused before anything is sent, naming the field. */
  platformpp_activity* activity = platformpp_activity_create();
  platformpp_activity_set_type(activity, PLATFORMPP_ACTIVITY_TYPE_PLAYING);
  platformpp_activity_set_state(activity, "x", 1); /* 1 character: under the minimum of 2 */
  outcome refused = {0};
  platformpp_client_update_rich_presence(a, activity, on_result, &refused, on_free);
  CHECK(pump_until(a, b, &refused.done));
  CHECK(refused.type == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  CHECK(strcmp(refused.field, "activity.state") == 0);
  CHECK(refused.frees == 1);

  /* A valid one reaches the friend, who reads it from A's user handle. */
  presence_seen seen = {b, a_id, 0};
  platformpp_client_set_user_updated_callback(b, on_user_updated, &seen, NULL);
  platformpp_activity_set_state(activity, "In the arena", strlen("In the arena"));
  platformpp_activity_set_details(activity, "Round 3", strlen("Round 3"));
  platformpp_activity_set_party(activity, "party-1", 7, 1, 4, PLATFORMPP_ACTIVITY_PARTY_PRIVACY_PRIVATE);
  outcome sent = {0};
  platformpp_client_update_rich_presence(a, activity, on_result, &sent, on_free);
  platformpp_activity_destroy(activity); /* borrowed only for the call */
  CHECK(pump_until(a, b, &sent.done));
  CHECK(sent.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(pump_until(a, b, &seen.seen));

  /* A now plays this game: B's OnlinePlayingGame group holds A. */
  platformpp_relationship_list* playing =
      platformpp_client_get_relationships_by_group(b, PLATFORMPP_RELATIONSHIP_GROUP_TYPE_ONLINE_PLAYING_GAME);
  CHECK(find_relationship(playing, a_id) == PLATFORMPP_RELATIONSHIP_TYPE_FRIEND);
  platformpp_relationship_list_destroy(playing);
  platformpp_relationship_handle* handle = platformpp_client_get_relationship_handle(a, b_id);
  CHECK(platformpp_relationship_handle_discord_type(handle) == PLATFORMPP_RELATIONSHIP_TYPE_FRIEND);
  CHECK(platformpp_relationship_handle_is_spam_request(handle) == 0);
  CHECK(platformpp_relationship_handle_user(handle) != NULL);
  platformpp_relationship_handle_destroy(handle);

  /* An unknown relationship action ends once, as a validation error. */
  outcome unknown = {0};
  platformpp_client_relationship_action(a, (platformpp_relationship_action)99, b_id, on_result, &unknown,
                                        on_free);
  CHECK(pump_until(a, b, &unknown.done));
  CHECK(unknown.type == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
  CHECK(unknown.frees == 1);

  /* Guilds: the player's list (with banners) and a guild's channels as the desktop client orders them,
   * without the one hidden from @everyone (the emulator's clock is past 16 November 2026). */
  guilds_outcome guilds = {0, 0, guild_id, 0, 0, 0, 0, 0};
  platformpp_client_get_user_guilds(a, on_guilds, &guilds, NULL);
  CHECK(pump_until(a, b, &guilds.done));
  CHECK(guilds.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(guilds.found == 1);
  guilds_outcome channels = {0, 0, guild_id, 0, 0, 0, 0, 0};
  platformpp_client_get_guild_channels(a, guild_id, on_channels, &channels, NULL);
  CHECK(pump_until(a, b, &channels.done));
  CHECK(channels.type == PLATFORMPP_ERROR_TYPE_NONE);
  CHECK(channels.channels == 4);
  CHECK(channels.hidden_listed == 0);
  CHECK(channels.ordered == 1);
  CHECK(channels.voice_status == 1); /* read over the Gateway: the player is connected */

  platformpp_client_destroy(a);
  platformpp_client_destroy(b);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
