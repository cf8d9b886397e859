// Messages in guild channels and a bot's DMs without sockets: Create Message (JSON, multipart, replies,
// forwards), Get Channel Message(s), Edit and Delete Message, each permission they need crossed, the
// MESSAGE_CONTENT rule for the API and the Gateway, MESSAGE_* dispatches with guild_id, the limits by one.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace channel_message_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::permission;

namespace {

constexpr std::uint64_t kGuildsAndMessages = (1U << 0) | (1U << 9) | (1U << 12) | (1U << 15);

struct Bot {
  std::string app_id, token, user_id;
};

struct Emulator : ServiceBench {
  Bot game, other;
  std::string player, general, lounge;
  RecordingGatewayPeer game_peer;

  // `start`: the fake clock's first time (a test before a dated rule starts earlier).
  explicit Emulator(std::int64_t start = kBenchStart) : ServiceBench(start) {
    game = add_bot("Racing");
    other = add_bot("Helper");
    player = user("player");
    guild(player);
    general = channel(R"({"name":"general","type":0})");
    lounge = channel(R"({"name":"lounge","type":0})");
    for (const auto* bot : {&game, &other})
      member(bot->user_id);
  }

  Bot add_bot(const std::string& name) {
    const auto made = app(name);
    return {made.id, made.bot_token, made.bot_id};
  }
  // An overwrite of the channel for one member (type 1).
  void overwrite(const std::string& channel, const std::string& user, std::uint64_t allow,
                 std::uint64_t deny) {
    call("PATCH", "/_emulator/guilds/" + guild_id + "/channels/" + channel,
         R"({"permission_overwrites":[{"id":")" + user + R"(","type":1,"allow":")" + std::to_string(allow) +
             R"(","deny":")" + std::to_string(deny) + R"("}]})");
  }
  HttpResponse as(const Bot& bot, std::string method, const std::string& path, std::string body = {},
                  const std::string& content_type = "application/json") {
    return ServiceBench::as("Bot " + bot.token, std::move(method), path, std::move(body),
                            {{"Content-Type", content_type}});
  }
  // Create Message as `bot`; REQUIREs 200 and answers the message.
  rapidjson::Document post(const Bot& bot, const std::string& channel, const std::string& body) {
    const auto response = as(bot, "POST", "/channels/" + channel + "/messages", body);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return parse(response.body);
  }
  void connect(const Bot& bot, RecordingGatewayPeer& peer, std::uint64_t intents = kGuildsAndMessages) {
    identify(peer, bot.token, intents);
    REQUIRE(peer.dispatches("READY").size() == 1);
  }
  void message_content_intent(const Bot& bot, bool on) {
    call("POST", "/_emulator/apps/" + bot.app_id + "/intents",
         std::string(R"({"message_content":)") + (on ? "true" : "false") + "}");
  }
};

void check_error(const HttpResponse& response, int status, int code) {
  CHECK_MESSAGE(response.status == status, response.body);
  CHECK_MESSAGE(parse(response.body)["code"].GetInt() == code, response.body);
}

std::string text_of(std::size_t n) {
  return std::string(n, 'a');
}

std::string multipart(const std::string& payload, const std::string& filename, const std::string& boundary) {
  return "--" + boundary +
         "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: "
         "application/json\r\n\r\n" +
         payload + "\r\n--" + boundary +
         "\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"" + filename +
         "\"\r\nContent-Type: image/png\r\n\r\nPNGDATA\r\n--" + boundary + "--\r\n";
}

}  // namespace

TEST_CASE("a bot's message in a guild channel: the message object, and MESSAGE_CREATE with guild_id") {
  Emulator e;
  e.connect(e.game, e.game_peer);
  const auto message = e.post(e.game, e.general, R"({"content":"Race at 8","nonce":"n-1"})");
  CHECK(message["type"].GetInt() == 0);
  CHECK(str(message["channel_id"]) == e.general);
  CHECK(str(message["author"]["id"]) == e.game.user_id);
  CHECK(str(message["content"]) == "Race at 8");
  CHECK(message["attachments"].IsArray());
  CHECK(message["embeds"].IsArray());
  CHECK(message["components"].IsArray());
  CHECK_FALSE(message.HasMember("guild_id"));  // the API's object has none; the Gateway's adds it
  const auto created = e.game_peer.only("MESSAGE_CREATE");
  CHECK(str(created["d"]["id"]) == str(message["id"]));
  CHECK(str(created["d"]["guild_id"]) == e.guild_id);

  // enforce_nonce: the same nonce again within the window answers the earlier message.
  const auto again =
      e.post(e.game, e.general, R"({"content":"Race at 9","nonce":"n-1","enforce_nonce":true})");
  CHECK(str(again["id"]) == str(message["id"]));
}

TEST_CASE("Create Message's limits, each crossed by one") {
  Emulator e;
  e.post(e.game, e.general, R"({"content":")" + text_of(2000) + R"("})");
  check_error(e.as(e.game, "POST", "/channels/" + e.general + "/messages",
                   R"({"content":")" + text_of(2001) + R"("})"),
              400, 50035);
  check_error(e.as(e.game, "POST", "/channels/" + e.general + "/messages", R"({})"), 400, 50035);
  std::string fields = "[";
  for (int i = 0; i < 25; ++i)
    fields += std::string(i == 0 ? "" : ",") + R"({"name":"n","value":"v"})";
  e.post(e.game, e.general, R"({"embeds":[{"title":"t","fields":)" + fields + "]}]}");
  const auto over =
      e.as(e.game, "POST", "/channels/" + e.general + "/messages",
           R"({"embeds":[{"title":"t","fields":)" + fields + R"(,{"name":"n","value":"v"}]}]})");
  check_error(over, 400, 50035);
  CHECK(over.body.find("fields") != std::string::npos);
  // EPHEMERAL is an interaction response's flag; IS_COMPONENTS_V2 refuses content.
  check_error(e.as(e.game, "POST", "/channels/" + e.general + "/messages", R"({"content":"x","flags":64})"),
              400, 50035);
  check_error(
      e.as(e.game, "POST", "/channels/" + e.general + "/messages", R"({"content":"x","flags":32768})"), 400,
      50035);
  e.post(e.game, e.general, R"({"flags":32768,"components":[{"type":10,"content":"Lap 3"}]})");
  // The nonce: 25 characters.
  e.post(e.game, e.general, R"({"content":"x","nonce":")" + text_of(25) + R"("})");
  check_error(e.as(e.game, "POST", "/channels/" + e.general + "/messages",
                   R"({"content":"x","nonce":")" + text_of(26) + R"("})"),
              400, 50035);
}

TEST_CASE(
    "Create Message's permissions: VIEW_CHANNEL, SEND_MESSAGES, ATTACH_FILES; text channels; bots only") {
  Emulator e;
  const auto path = "/channels/" + e.general + "/messages";
  e.overwrite(e.general, e.game.user_id, 0, kSendMessages);
  check_error(e.as(e.game, "POST", path, R"({"content":"x"})"), 403, 50013);
  e.overwrite(e.general, e.game.user_id, 0, kViewChannel);
  check_error(e.as(e.game, "POST", path, R"({"content":"x"})"), 403, 50001);
  e.overwrite(e.general, e.game.user_id, 0, 0);
  e.post(e.game, e.general, R"({"content":"x"})");

  // Files need ATTACH_FILES (not in the guild's default @everyone).
  const std::string boundary = "b0undary";
  const auto upload = [&] {
    return e.as(e.game, "POST", path, multipart(R"({"content":"map"})", "SPOILER_map.png", boundary),
                "multipart/form-data; boundary=" + boundary);
  };
  check_error(upload(), 403, 50013);
  e.overwrite(e.general, e.game.user_id, kAttachFiles, 0);
  const auto uploaded = upload();
  REQUIRE_MESSAGE(uploaded.status == 200, uploaded.body);
  const auto message = parse(uploaded.body);
  REQUIRE(message["attachments"].Size() == 1);
  CHECK(str(message["attachments"][0]["filename"]) == "SPOILER_map.png");
  CHECK(message["attachments"][0]["flags"].GetInt() == 8);  // IS_SPOILER from the legacy prefix

  const auto category = e.channel(R"({"name":"cat","type":4})");
  check_error(e.as(e.game, "POST", "/channels/" + category + "/messages", R"({"content":"x"})"), 400, 50008);
  check_error(e.as(e.game, "POST", "/channels/1234567/messages", R"({"content":"x"})"), 404, 10003);
  // A guild the bot is not in.
  const auto elsewhere = e.guild(e.player, "Away");
  const auto away = str(
      parse(e.call("POST", "/_emulator/guilds/" + elsewhere + "/channels", R"({"name":"general","type":0})")
                .body)["id"]);
  check_error(e.as(e.game, "POST", "/channels/" + away + "/messages", R"({"content":"x"})"), 403, 50001);
  // A user's OAuth2 token does not post in guild channels.
  const auto token = str(parse(
      e.call("POST", "/_emulator/tokens",
             R"({"user_id":")" + e.player + R"(","app_id":")" + e.game.app_id + R"(","scopes":"identify"})")
          .body)["access_token"]);
  check_error(e.raw("POST", "/api/v10" + path, R"({"content":"x"})",
                    {{"Authorization", "Bearer " + token}, {"Content-Type", "application/json"}}),
              403, 50001);
}

TEST_CASE("Get Channel Message(s): READ_MESSAGE_HISTORY, limit 1..100, one of before, after, around") {
  Emulator e;
  std::vector<std::string> ids;
  ids.reserve(5);
  for (int i = 0; i < 5; ++i)
    ids.push_back(str(e.post(e.game, e.general, R"({"content":"m)" + std::to_string(i) + R"("})")["id"]));
  const auto list = [&](const std::string& query) {
    return e.as(e.game, "GET", "/channels/" + e.general + "/messages" + query);
  };
  auto all = parse(list("").body);
  REQUIRE(all.Size() == 5);
  CHECK(str(all[0]["id"]) == ids[4]);  // newest first
  CHECK(parse(list("?limit=100").body).Size() == 5);
  check_error(list("?limit=101"), 400, 50035);
  check_error(list("?limit=0"), 400, 50035);
  const auto before = parse(list("?before=" + ids[2] + "&limit=5").body);
  REQUIRE(before.Size() == 2);
  CHECK(str(before[0]["id"]) == ids[1]);
  const auto after = parse(list("?after=" + ids[2] + "&limit=1").body);
  REQUIRE(after.Size() == 1);
  CHECK(str(after[0]["id"]) == ids[3]);  // the oldest after it, for a limit of 1
  const auto around = parse(list("?around=" + ids[2] + "&limit=3").body);
  REQUIRE(around.Size() == 3);
  CHECK(str(around[0]["id"]) == ids[3]);
  CHECK(str(around[2]["id"]) == ids[1]);
  check_error(list("?before=" + ids[2] + "&after=" + ids[1]), 400, 50035);

  const auto one = e.as(e.game, "GET", "/channels/" + e.general + "/messages/" + ids[0]);
  CHECK(str(parse(one.body)["content"]) == "m0");
  check_error(e.as(e.game, "GET", "/channels/" + e.general + "/messages/999"), 404, 10008);
  e.overwrite(e.general, e.game.user_id, 0, kReadMessageHistory);
  CHECK(parse(list("").body).Size() == 0);  // no history: no messages, not an error
  check_error(e.as(e.game, "GET", "/channels/" + e.general + "/messages/" + ids[0]), 403, 50013);
}

TEST_CASE("the MESSAGE_CONTENT rule: another's message without content over the API and the Gateway") {
  Emulator e;
  e.connect(e.game, e.game_peer);
  e.message_content_intent(e.game, false);
  const auto theirs = e.post(e.other, e.general, R"({"content":"secret","embeds":[{"title":"t"}]})");
  const auto mine = e.post(e.game, e.general, R"({"content":"mine"})");
  const auto read = parse(e.as(e.game, "GET", "/channels/" + e.general + "/messages").body);
  REQUIRE(read.Size() == 2);
  CHECK(str(read[0]["content"]) == "mine");
  CHECK(str(read[1]["content"]).empty());
  CHECK(read[1]["embeds"].Size() == 0);
  // The bot asked for the intent at IDENTIFY but its application's switch is off: still no content.
  const auto created = e.game_peer.dispatches("MESSAGE_CREATE");
  REQUIRE(created.size() == 2);
  CHECK(str(created[0]["d"]["content"]).empty());
  CHECK(str(created[1]["d"]["content"]) == "mine");
  e.message_content_intent(e.game, true);
  CHECK(str(parse(e.as(e.game, "GET", "/channels/" + e.general + "/messages/" + str(theirs["id"]))
                      .body)["content"]) == "secret");
}

TEST_CASE("Edit Message: the author edits everything, others only SUPPRESS_EMBEDS with MANAGE_MESSAGES") {
  Emulator e;
  e.connect(e.game, e.game_peer);
  e.overwrite(e.general, e.game.user_id, kAttachFiles, 0);
  const std::string boundary = "xyz";
  const auto created = e.as(e.game, "POST", "/channels/" + e.general + "/messages",
                            multipart(R"({"content":"v1"})", "map.png", boundary),
                            "multipart/form-data; boundary=" + boundary);
  REQUIRE_MESSAGE(created.status == 200, created.body);
  const auto message = parse(created.body);
  const auto id = str(message["id"]);
  const auto attachment = str(message["attachments"][0]["id"]);
  const auto path = "/channels/" + e.general + "/messages/" + id;
  const auto edited = e.as(e.game, "PATCH", path,
                           R"({"content":"v2","attachments":[{"id":")" + attachment +
                               R"(","description":"the track","is_spoiler":true}]})");
  REQUIRE_MESSAGE(edited.status == 200, edited.body);
  const auto now = parse(edited.body);
  CHECK(str(now["content"]) == "v2");
  CHECK(str(now["attachments"][0]["description"]) == "the track");
  CHECK(now["attachments"][0]["flags"].GetInt() == 8);
  CHECK(now["edited_timestamp"].IsString());
  CHECK(str(e.game_peer.dispatches("MESSAGE_UPDATE").back()["d"]["guild_id"]) == e.guild_id);
  check_error(e.as(e.game, "PATCH", path, R"({"content":")" + text_of(2001) + R"("})"), 400, 50035);

  // Another bot: nothing without MANAGE_MESSAGES; with it, the flags alone.
  check_error(e.as(e.other, "PATCH", path, R"({"flags":4})"), 403, 50005);
  e.overwrite(e.general, e.other.user_id, kManageMessages, 0);
  check_error(e.as(e.other, "PATCH", path, R"({"content":"hijack"})"), 403, 50005);
  const auto suppressed = e.as(e.other, "PATCH", path, R"({"flags":4})");
  REQUIRE_MESSAGE(suppressed.status == 200, suppressed.body);
  CHECK(parse(suppressed.body)["flags"].GetInt() == 4);
  CHECK(str(parse(suppressed.body)["content"]) == "v2");
}

TEST_CASE("Delete Message: one's own, or another's with MANAGE_MESSAGES; MESSAGE_DELETE with guild_id") {
  Emulator e;
  e.connect(e.game, e.game_peer);
  const auto mine = str(e.post(e.game, e.general, R"({"content":"a"})")["id"]);
  const auto theirs = str(e.post(e.other, e.general, R"({"content":"b"})")["id"]);
  CHECK(e.as(e.game, "DELETE", "/channels/" + e.general + "/messages/" + mine).status == 204);
  const auto deleted = e.game_peer.only("MESSAGE_DELETE");
  CHECK(str(deleted["d"]["id"]) == mine);
  CHECK(str(deleted["d"]["guild_id"]) == e.guild_id);
  check_error(e.as(e.game, "DELETE", "/channels/" + e.general + "/messages/" + mine), 404, 10008);
  check_error(e.as(e.game, "DELETE", "/channels/" + e.general + "/messages/" + theirs), 403, 50013);
  e.overwrite(e.general, e.game.user_id, kManageMessages, 0);
  CHECK(e.as(e.game, "DELETE", "/channels/" + e.general + "/messages/" + theirs).status == 204);
}

TEST_CASE(
    "replies: message_reference DEFAULT, READ_MESSAGE_HISTORY, referenced_message, fail_if_not_exists") {
  Emulator e;
  const auto first = str(e.post(e.other, e.general, R"({"content":"who races?"})")["id"]);
  const auto reply =
      e.post(e.game, e.general, R"({"content":"me","message_reference":{"message_id":")" + first + R"("}})");
  CHECK(reply["type"].GetInt() == 19);
  CHECK(reply["message_reference"]["type"].GetInt() == 0);
  CHECK(str(reply["message_reference"]["channel_id"]) == e.general);
  CHECK(str(reply["referenced_message"]["id"]) == first);
  const auto path = "/channels/" + e.general + "/messages";
  check_error(e.as(e.game, "POST", path, R"({"content":"x","message_reference":{"message_id":"424242"}})"),
              400, 50035);
  const auto plain =
      e.post(e.game, e.general,
             R"({"content":"x","message_reference":{"message_id":"424242","fail_if_not_exists":false}})");
  CHECK(plain["type"].GetInt() == 0);
  CHECK_FALSE(plain.HasMember("message_reference"));
  e.overwrite(e.general, e.game.user_id, 0, kReadMessageHistory);
  check_error(
      e.as(e.game, "POST", path, R"({"content":"x","message_reference":{"message_id":")" + first + R"("}})"),
      403, 50013);
}

TEST_CASE("forwards: message_reference FORWARD, a snapshot without author or guild fields, error 160014") {
  Emulator e;
  e.connect(e.game, e.game_peer);
  const auto source = e.post(e.other, e.general, R"({"content":"GG","embeds":[{"title":"Final lap"}]})");
  const auto forward_body = R"({"message_reference":{"type":1,"channel_id":")" + e.general +
                            R"(","message_id":")" + str(source["id"]) + R"("}})";
  const auto forward = e.post(e.game, e.lounge, forward_body);
  CHECK(forward["type"].GetInt() == 0);
  CHECK(str(forward["content"]).empty());
  CHECK(forward["flags"].GetInt() == (1 << 14));  // HAS_SNAPSHOT
  CHECK(forward["message_reference"]["type"].GetInt() == 1);
  CHECK(str(forward["message_reference"]["guild_id"]) == e.guild_id);
  REQUIRE(forward["message_snapshots"].Size() == 1);
  const auto& snapshot = forward["message_snapshots"][0]["message"];
  CHECK(str(snapshot["content"]) == "GG");
  CHECK(str(snapshot["embeds"][0]["title"]) == "Final lap");
  CHECK(snapshot.HasMember("timestamp"));
  for (const char* absent : {"author", "guild_id", "id", "channel_id", "member"})
    CHECK_FALSE(snapshot.HasMember(absent));
  // Immutable: editing the source leaves the snapshot as it was.
  e.as(e.other, "PATCH", "/channels/" + e.general + "/messages/" + str(source["id"]),
       R"({"content":"edited"})");
  const auto kept =
      parse(e.as(e.game, "GET", "/channels/" + e.lounge + "/messages/" + str(forward["id"])).body);
  CHECK(str(kept["message_snapshots"][0]["message"]["content"]) == "GG");

  const auto path = "/channels/" + e.lounge + "/messages";
  // channel_id is required for a forward; a forward carries nothing else.
  check_error(e.as(e.game, "POST", path,
                   R"({"message_reference":{"type":1,"message_id":")" + str(source["id"]) + R"("}})"),
              400, 50035);
  check_error(e.as(e.game, "POST", path,
                   R"({"content":"look","message_reference":{"type":1,"channel_id":")" + e.general +
                       R"(","message_id":")" + str(source["id"]) + R"("}})"),
              400, 50035);
  // The application must be able to read the content: without MESSAGE_CONTENT, another's message is 160014;
  // its own is still readable.
  e.message_content_intent(e.game, false);
  check_error(e.as(e.game, "POST", path, forward_body), 403, 160014);
  const auto own = e.post(e.game, e.general, R"({"content":"mine"})");
  e.post(e.game, e.lounge,
         R"({"message_reference":{"type":1,"channel_id":")" + e.general + R"(","message_id":")" +
             str(own["id"]) + R"("}})");
  // A forward's MESSAGE_CREATE to a bot without MESSAGE_CONTENT has the snapshot emptied too.
  e.message_content_intent(e.game, true);
  RecordingGatewayPeer other_peer;
  e.connect(e.other, other_peer, (1U << 0) | (1U << 9));  // GUILDS, GUILD_MESSAGES: no MESSAGE_CONTENT
  e.post(e.game, e.lounge, forward_body);
  const auto seen = other_peer.only("MESSAGE_CREATE");
  CHECK(str(seen["d"]["message_snapshots"][0]["message"]["content"]).empty());
  // VIEW_CHANNEL on the source channel.
  e.overwrite(e.general, e.game.user_id, 0, kViewChannel);
  check_error(e.as(e.game, "POST", path, forward_body), 403, 50001);
}

TEST_CASE("a bot's DM: the full message object to a user it shares a guild with, never to a stranger") {
  Emulator e;
  const auto stranger = e.user("stranger");
  const auto open = [&](const std::string& user) {
    const auto response =
        e.as(e.game, "POST", "/users/@me/channels", R"({"recipient_id":")" + user + R"("})");
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["id"]);
  };
  const auto dm = open(e.player);
  const auto message = e.post(e.game, dm,
                              R"({"content":"Your race starts","components":[{"type":1,"components":[)"
                              R"({"type":2,"style":1,"label":"Join","custom_id":"join"}]}]})");
  CHECK(message["components"][0]["components"][0]["custom_id"].GetString() == std::string("join"));
  check_error(e.as(e.game, "POST", "/channels/" + open(stranger) + "/messages", R"({"content":"hi"})"), 400,
              50007);
  // Read back through the bot's DM history.
  const auto read = e.as(e.game, "GET", "/channels/" + dm + "/messages/" + str(message["id"]));
  CHECK_MESSAGE(read.status == 200, read.body);
}

TEST_CASE(
    "pins: PIN_MESSAGES (MANAGE_MESSAGES before the 2026-02-23 split), paginated by pin time, 250 a "
    "channel") {
  Emulator e;
  e.connect(e.game, e.game_peer);
  std::vector<std::string> ids;
  ids.reserve(3);
  for (int i = 0; i < 3; ++i) {
    ids.push_back(str(e.post(e.game, e.general, R"({"content":"m)" + std::to_string(i) + R"("})")["id"]));
  }
  const auto pin = [&](const std::string& id) {
    return e.as(e.game, "PUT", "/channels/" + e.general + "/messages/pins/" + id);
  };
  // @everyone's defaults have no PIN_MESSAGES; MANAGE_MESSAGES no longer pins after the split.
  e.overwrite(e.general, e.game.user_id, kManageMessages, 0);
  check_error(pin(ids[0]), 403, 50013);
  e.overwrite(e.general, e.game.user_id, kPinMessages, 0);
  for (const auto& id : ids) {
    CHECK(pin(id).status == 204);
    e.clock.advance(1000);
  }
  const auto update = e.game_peer.dispatches("CHANNEL_PINS_UPDATE");
  REQUIRE(update.size() == 3);
  CHECK(str(update.back()["d"]["guild_id"]) == e.guild_id);
  CHECK(update.back()["d"]["last_pin_timestamp"].IsString());
  const auto page = parse(e.as(e.game, "GET", "/channels/" + e.general + "/messages/pins?limit=2").body);
  REQUIRE(page["items"].Size() == 2);
  CHECK(page["has_more"].GetBool());
  CHECK(str(page["items"][0]["message"]["id"]) == ids[2]);  // the newest pin first
  CHECK(page["items"][0]["message"]["pinned"].GetBool());
  const auto rest =
      parse(e.as(e.game, "GET",
                 "/channels/" + e.general + "/messages/pins?before=" + str(page["items"][1]["pinned_at"]))
                .body);
  REQUIRE(rest["items"].Size() == 1);
  CHECK_FALSE(rest["has_more"].GetBool());
  CHECK(str(rest["items"][0]["message"]["id"]) == ids[0]);
  check_error(e.as(e.game, "GET", "/channels/" + e.general + "/messages/pins?limit=51"), 400, 50035);
  // The deprecated routes still answer: the list as an array, and unpinning.
  CHECK(parse(e.as(e.game, "GET", "/channels/" + e.general + "/pins").body).Size() == 3);
  CHECK(e.as(e.game, "DELETE", "/channels/" + e.general + "/pins/" + ids[0]).status == 204);
  CHECK(parse(e.as(e.game, "GET", "/channels/" + e.general + "/pins").body).Size() == 2);
  CHECK(e.as(e.game, "PUT", "/channels/" + e.general + "/pins/" + ids[0]).status == 204);
  CHECK(e.as(e.game, "DELETE", "/channels/" + e.general + "/messages/pins/" + ids[0]).status == 204);
  // A message id that is not "pins" still reaches Get Channel Message.
  CHECK(e.as(e.game, "GET", "/channels/" + e.general + "/messages/" + ids[0]).status == 200);

  // At most 250 pins: the 251st is refused.
  for (int i = 0; i < 248; ++i) {
    CHECK(pin(str(e.post(e.game, e.general, R"({"content":"p"})")["id"])).status == 204);
  }
  check_error(pin(ids[0]), 400, 30003);
}

TEST_CASE("pins before the 2026-02-23 split: MANAGE_MESSAGES still pins") {
  Emulator e(1771804800000 - 60000);  // a minute before the split
  const auto id = str(e.post(e.game, e.general, R"({"content":"old rules"})")["id"]);
  e.overwrite(e.general, e.game.user_id, kManageMessages, 0);
  CHECK(e.as(e.game, "PUT", "/channels/" + e.general + "/messages/pins/" + id).status == 204);
  REQUIRE(e.clock.advance(60000));
  check_error(e.as(e.game, "DELETE", "/channels/" + e.general + "/messages/pins/" + id), 403, 50013);
}

}  // namespace channel_message_routes_test
