// Interactions without sockets: the admin API plays a user (a command with options, a component click, a
// modal submit), the interaction reaches the bot's Gateway session or the signed interactions endpoint, and
// the application answers through the callback route and the webhook routes. Each rule crossed by one: the
// 3-second deadline and the 15-minute token on the fake clock, 5 follow-ups of a user-installed app, the
// callback types each interaction takes, message content, embed and upload limits, IS_COMPONENTS_V2's
// refusals, option values, modal fields.
#include <doctest/doctest.h>
#include <sodium.h>

#include <string>
#include <vector>

#include "hand_transport.hpp"
#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace interaction_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

constexpr std::uint64_t kGuildsAndMessages = (1U << 0) | (1U << 9) | (1U << 12) | (1U << 15);

struct Emulator : ServiceBench {
  HandTransport transport;
  std::string app_id, bot_token, bot_user, verify_key, player, channel_id, command_id;
  RecordingGatewayPeer bot_peer;

  Emulator() {
    service.set_webhook_transport(&transport);
    const auto app = app_json("Racing");
    app_id = str(app["id"]);
    bot_token = str(app["bot_token"]);
    bot_user = str(app["bot_user_id"]);
    verify_key = str(app["verify_key"]);
    player = user("player");
    guild(player);
    channel_id = channel(R"({"name":"general","type":0})");
    member(bot_user);
    command_id = str(parse(
        api("POST", "/applications/" + app_id + "/commands",
            R"({"name":"stats","description":"Your stats","options":[)"
            R"({"type":3,"name":"mode","description":"m","choices":[{"name":"Solo","value":"solo"},{"name":"Duo","value":"duo"}]},)"
            R"({"type":4,"name":"season","description":"s","min_value":1,"max_value":9},)"
            R"({"type":3,"name":"track","description":"t","autocomplete":true}]})")
            .body)["id"]);
  }
  ~Emulator() { service.set_webhook_transport(nullptr); }
  Emulator(const Emulator&) = delete;
  Emulator& operator=(const Emulator&) = delete;

  HttpResponse api(std::string method, const std::string& path, std::string body = {}) {
    auto response = as("Bot " + bot_token, std::move(method), path, std::move(body));
    REQUIRE_MESSAGE(response.status < 300, response.body);
    return response;
  }
  void advance(std::int64_t ms) {
    REQUIRE(clock.advance(ms));
    service.gateway_tick();
  }
  void connect_bot(std::uint64_t intents = kGuildsAndMessages) {
    identify(bot_peer, bot_token, intents);
    REQUIRE(bot_peer.dispatches("READY").size() == 1);
  }
  // An admin invocation; its answer waits for the application's initial response.
  std::shared_ptr<DeferredResponse> invoke(const std::string& body_fields) {
    auto response = raw("POST", "/_emulator/applications/" + app_id + "/interactions/commands",
                        R"({"user_id":")" + player + R"(")" + body_fields + "}");
    REQUIRE_MESSAGE(response.deferred, response.body);
    return response.deferred;
  }
  HttpResponse invoke_refused(const std::string& body_fields) {
    auto response = raw("POST", "/_emulator/applications/" + app_id + "/interactions/commands",
                        R"({"user_id":")" + player + R"(")" + body_fields + "}");
    REQUIRE_FALSE(response.deferred);
    return response;
  }
  std::shared_ptr<DeferredResponse> stats(const std::string& options = "[]") {
    return invoke(R"(,"channel_id":")" + channel_id + R"(","name":"stats","options":)" + options);
  }
  // The last INTERACTION_CREATE's d.
  rapidjson::Document last_interaction() {
    auto all = bot_peer.dispatches("INTERACTION_CREATE");
    REQUIRE_FALSE(all.empty());
    rapidjson::Document d;
    d.CopyFrom(all.back()["d"], d.GetAllocator());
    return d;
  }
  HttpResponse callback(const rapidjson::Value& interaction, const std::string& body,
                        const std::string& query = {}) {
    return raw("POST",
               "/api/v10/interactions/" + str(interaction["id"]) + "/" + str(interaction["token"]) +
                   "/callback" + query,
               body, {{"Content-Type", "application/json"}});
  }
  std::string webhook(const rapidjson::Value& interaction, const std::string& rest = {}) {
    return "/api/v10/webhooks/" + app_id + "/" + str(interaction["token"]) + rest;
  }
  HttpResponse send(const std::string& method, const std::string& target, const std::string& body = {}) {
    return raw(method, target, body, {{"Content-Type", "application/json"}});
  }
};

rapidjson::Document answer_of(const std::shared_ptr<DeferredResponse>& waiter) {
  REQUIRE(waiter->answer());
  REQUIRE(waiter->answer()->status == 200);
  return parse(waiter->answer()->body);
}

std::string fields_json(std::size_t count) {
  std::string fields = "[";
  for (std::size_t i = 0; i < count; ++i)
    fields += std::string(i == 0 ? "" : ",") + R"({"name":"n","value":"v"})";
  return fields + "]";
}

}  // namespace

TEST_CASE("a command reaches the bot's Gateway session with the interaction object the platform sends") {
  Emulator e;
  e.connect_bot();
  const auto waiter = e.stats(R"([{"name":"mode","value":"duo"},{"name":"season","value":3}])");
  CHECK_FALSE(waiter->answer());  // the admin request waits for the application
  const auto d = e.last_interaction();
  CHECK(d["type"].GetInt() == 2);
  CHECK(str(d["application_id"]) == e.app_id);
  CHECK(str(d["guild_id"]) == e.guild_id);
  CHECK(str(d["channel_id"]) == e.channel_id);
  CHECK(str(d["channel"]["id"]) == e.channel_id);
  CHECK(d["version"].GetInt() == 1);
  CHECK(d["context"].GetInt() == 0);
  CHECK(str(d["locale"]) == "en-US");
  CHECK(d["app_permissions"].IsString());  // always present, as a string
  CHECK(d["attachment_size_limit"].GetInt64() == std::int64_t{10} * 1024 * 1024);
  CHECK(d["entitlements"].IsArray());
  CHECK(str(d["member"]["user"]["id"]) == e.player);
  CHECK(d["member"]["permissions"].IsString());
  CHECK_FALSE(d.HasMember("user"));  // member in guilds, user in DMs
  // Keys and values strings.
  const auto& owners = d["authorizing_integration_owners"];
  CHECK(str(owners["0"]) == e.guild_id);
  CHECK_FALSE(owners.HasMember("1"));
  CHECK(str(d["data"]["name"]) == "stats");
  CHECK(str(d["data"]["id"]) == e.command_id);
  CHECK(d["data"]["options"].Size() == 2);
  CHECK(str(d["data"]["options"][0]["value"]) == "duo");
  CHECK(d["data"]["options"][0]["type"].GetInt() == 3);
  CHECK(d["data"]["options"][1]["value"].GetInt() == 3);

  const auto response = e.callback(d, R"({"type":4,"data":{"content":"You won 3 races"}})");
  CHECK_MESSAGE(response.status == 204, response.body);
  const auto answer = answer_of(waiter);
  CHECK(answer["response"]["type"].GetInt() == 4);
  const auto message_id = str(answer["message_id"]);
  // MESSAGE_CREATE with interaction_metadata (a user object, no user_id) and not the deprecated interaction.
  const auto created = e.bot_peer.only("MESSAGE_CREATE");
  const auto& message = created["d"];
  CHECK(str(message["id"]) == message_id);
  CHECK(str(message["content"]) == "You won 3 races");
  CHECK(message["type"].GetInt() == 20);
  CHECK(str(message["webhook_id"]) == e.app_id);
  CHECK(str(message["interaction_metadata"]["user"]["id"]) == e.player);
  CHECK_FALSE(message["interaction_metadata"].HasMember("user_id"));
  CHECK_FALSE(message.HasMember("interaction"));
  // One initial response only.
  const auto again = e.callback(d, R"({"type":4,"data":{"content":"again"}})");
  CHECK(again.status == 400);
  CHECK(parse(again.body)["code"].GetInt() == 40060);
  // @original is that message.
  const auto original = e.send("GET", e.webhook(d, "/messages/@original"));
  REQUIRE(original.status == 200);
  CHECK(str(parse(original.body)["id"]) == message_id);
}

TEST_CASE("the initial response is due within 3 s of the fake clock; the token lives 15 minutes") {
  Emulator e;
  e.connect_bot();
  SUBCASE("at 3000 ms the response is taken") {
    e.stats();
    const auto d = e.last_interaction();
    e.advance(3000);
    CHECK(e.callback(d, R"({"type":5})").status == 204);
    // Follow-ups until the 15th minute, then the token is void.
    e.advance(15 * 60 * 1000 - 3000);
    CHECK(e.send("POST", e.webhook(d), R"({"content":"late but fine"})").status == 200);
    e.advance(1);
    const auto expired = e.send("POST", e.webhook(d), R"({"content":"too late"})");
    CHECK(expired.status == 401);
    CHECK(parse(expired.body)["code"].GetInt() == 50027);
  }
  SUBCASE("at 3001 ms the interaction has failed") {
    const auto waiter = e.stats();
    const auto d = e.last_interaction();
    e.advance(3001);
    const auto answer = answer_of(waiter);
    CHECK(answer["response"].IsNull());
    CHECK(str(answer["error"]).find("3 s") != std::string::npos);
    const auto late = e.callback(d, R"({"type":4,"data":{"content":"hi"}})");
    CHECK(late.status == 404);
    CHECK(parse(late.body)["code"].GetInt() == 10062);
    CHECK(e.send("POST", e.webhook(d), R"({"content":"x"})").status == 401);
  }
}

TEST_CASE("a user-installed app gets at most 5 follow-ups; a guild-installed one more") {
  Emulator e;
  e.connect_bot();
  // A global command for user installs, used in a DM between two users (PRIVATE_CHANNEL).
  e.api("POST", "/applications/" + e.app_id + "/commands",
        R"({"name":"roll","description":"Roll","integration_types":[1],"contexts":[0,1,2]})");
  e.token(e.player, e.app_id, "identify applications.commands");
  const auto friend_id = e.user("friend");
  const auto dm = parse(
      e.raw(
           "POST", "/api/v10/users/@me/channels", R"({"recipient_id":")" + friend_id + R"("})",
           {{"Authorization", "Bearer " + e.token(e.player, e.app_id, "identify dm_channels.messages.write")},
            {"Content-Type", "application/json"}})
          .body);
  REQUIRE(dm.HasMember("id"));
  e.invoke(R"(,"channel_id":")" + str(dm["id"]) + R"(","name":"roll")");
  const auto d = e.last_interaction();
  CHECK(d["context"].GetInt() == 2);
  CHECK(str(d["authorizing_integration_owners"]["1"]) == e.player);
  CHECK_FALSE(d["authorizing_integration_owners"].HasMember("0"));
  CHECK(str(d["user"]["id"]) == e.player);
  CHECK(str(d["app_permissions"]) == std::to_string((1ULL << 14) | (1ULL << 15) | (1ULL << 17)));
  REQUIRE(e.callback(d, R"({"type":4,"data":{"content":"rolled"}})").status == 204);
  for (int i = 0; i < 5; ++i)
    CHECK(e.send("POST", e.webhook(d), R"({"content":"more"})").status == 200);
  const auto sixth = e.send("POST", e.webhook(d), R"({"content":"one too many"})");
  CHECK(sixth.status == 400);
  CHECK(parse(sixth.body)["code"].GetInt() == 40094);

  e.stats();  // guild installed: no such limit
  const auto g = e.last_interaction();
  REQUIRE(e.callback(g, R"({"type":4,"data":{"content":"ok"}})").status == 204);
  for (int i = 0; i < 6; ++i)
    CHECK(e.send("POST", e.webhook(g), R"({"content":"more"})").status == 200);
}

TEST_CASE("each interaction type takes the callback types the platform allows") {
  Emulator e;
  e.connect_bot();
  e.stats();
  auto d = e.last_interaction();
  for (const int refused : {1, 6, 7, 8, 11, 13}) {
    const auto response = e.callback(d, R"({"type":)" + std::to_string(refused) + "}");
    CHECK_MESSAGE(response.status == 400, refused);
  }
  // LAUNCH_ACTIVITY needs the application's Activities.
  CHECK(e.callback(d, R"({"type":12})").status == 400);
  e.call("POST", "/_emulator/applications/" + e.app_id + "/activities", R"({"enabled":true})");
  const auto launched = e.callback(d, R"({"type":12})", "?with_response=true");
  REQUIRE_MESSAGE(launched.status == 200, launched.body);
  const auto body = parse(launched.body);
  CHECK(body["resource"]["type"].GetInt() == 12);
  CHECK(body["resource"]["activity_instance"]["id"].IsString());
  CHECK(str(body["interaction"]["activity_instance_id"]) == str(body["resource"]["activity_instance"]["id"]));

  // PREMIUM_REQUIRED is deprecated but still accepted.
  e.stats();
  CHECK(e.callback(e.last_interaction(), R"({"type":10})").status == 204);

  // Autocomplete answers only with choices, at most 25.
  // A focused option belongs to autocomplete only.
  CHECK(e.invoke_refused(R"(,"channel_id":")" + e.channel_id +
                         R"(","name":"stats","options":[{"name":"track","value":"mon","focused":true}])")
            .status == 400);
  e.invoke(
      R"(,"channel_id":")" + e.channel_id +
      R"(","name":"stats","autocomplete":true,"options":[{"name":"track","value":"mon","focused":true}])");
  d = e.last_interaction();
  CHECK(d["type"].GetInt() == 4);
  CHECK(d["data"]["options"][0]["focused"].GetBool());
  CHECK(e.callback(d, R"({"type":4,"data":{"content":"x"}})").status == 400);
  std::string choices = "[";
  for (int i = 0; i < 26; ++i)
    choices += std::string(i ? "," : "") + R"({"name":"t","value":"t"})";
  CHECK(e.callback(d, R"({"type":8,"data":{"choices":)" + choices + "]}}").status == 400);
  const auto trimmed = choices.substr(0, choices.rfind(",{"));
  const auto accepted = e.callback(d, R"({"type":8,"data":{"choices":)" + trimmed + "]}}");
  CHECK_MESSAGE(accepted.status == 204, accepted.body);
}

TEST_CASE("options are checked against the command as the platform's client checks them") {
  Emulator e;
  e.connect_bot();
  CHECK(e.invoke_refused(R"(,"channel_id":")" + e.channel_id +
                         R"(","name":"stats","options":[{"name":"mode","value":"trio"}])")
            .status == 400);
  CHECK(e.invoke_refused(R"(,"channel_id":")" + e.channel_id +
                         R"(","name":"stats","options":[{"name":"season","value":10}])")
            .status == 400);
  CHECK(e.invoke_refused(R"(,"channel_id":")" + e.channel_id +
                         R"(","name":"stats","options":[{"name":"season","value":0}])")
            .status == 400);
  CHECK(e.invoke_refused(R"(,"channel_id":")" + e.channel_id +
                         R"(","name":"stats","options":[{"name":"nope","value":1}])")
            .status == 400);
  e.stats(R"([{"name":"season","value":9}])");
  e.stats(R"([{"name":"season","value":1}])");
  CHECK(e.bot_peer.dispatches("INTERACTION_CREATE").size() == 2);
  // An unknown command, and a channel the user cannot see.
  CHECK(e.invoke_refused(R"(,"channel_id":")" + e.channel_id + R"(","name":"nope")").status == 404);
}

TEST_CASE("message limits: content, embeds and their fields, IS_COMPONENTS_V2, uploads") {
  Emulator e;
  e.connect_bot();
  const auto respond = [&](const std::string& data) {
    e.stats();
    return e.callback(e.last_interaction(), R"({"type":4,"data":)" + data + "}");
  };
  CHECK(respond(R"({"content":")" + std::string(2000, 'a') + R"("})").status == 204);
  CHECK(respond(R"({"content":")" + std::string(2001, 'a') + R"("})").status == 400);
  CHECK(respond(R"({"embeds":[{"title":"t","fields":)" + fields_json(25) + "}]}").status == 204);
  const auto over = respond(R"({"embeds":[{"title":"t","fields":)" + fields_json(26) + "}]}");
  CHECK(over.status == 400);
  CHECK(parse(over.body)["errors"]["data"]["embeds"]["0"]["fields"].IsObject());
  CHECK(respond(R"({"flags":32768,"components":[{"type":10,"content":"hi"}]})").status == 204);
  const auto legacy = respond(R"({"flags":32768,"content":"hi","components":[{"type":10,"content":"hi"}]})");
  CHECK(legacy.status == 400);
  CHECK(parse(legacy.body)["errors"]["data"]["content"].IsObject());
  CHECK(respond(R"({"flags":32768,"embeds":[{"title":"t"}],"components":[{"type":10,"content":"hi"}]})")
            .status == 400);
  CHECK(respond(R"({})").status == 400);  // an empty message

  // Multipart: payload_json and files[n]; the SPOILER_ prefix marks a spoiler; 10 MiB per file.
  const auto multipart = [&](std::size_t size, const std::string& name) {
    e.stats();
    const auto d = e.last_interaction();
    const std::string boundary = "b0undary";
    std::string body =
        "--" + boundary +
        "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: "
        "application/json\r\n\r\n" +
        R"({"type":4,"data":{"content":"file","attachments":[{"id":0,"description":"a map"}]}})" + "\r\n--" +
        boundary + "\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"" + name +
        "\"\r\nContent-Type: image/png\r\n\r\n" + std::string(size, 'x') + "\r\n--" + boundary + "--\r\n";
    return e.raw(
        "POST",
        "/api/v10/interactions/" + str(d["id"]) + "/" + str(d["token"]) + "/callback?with_response=true",
        body, {{"Content-Type", "multipart/form-data; boundary=" + boundary}});
  };
  const auto ok = multipart(std::size_t{10} * 1024 * 1024, "SPOILER_map.png");
  REQUIRE_MESSAGE(ok.status == 200, ok.body);
  const auto answered = parse(ok.body);
  const auto attachment = answered["resource"]["message"]["attachments"][0].GetObject();
  CHECK(str(attachment["filename"]) == "SPOILER_map.png");
  CHECK(str(attachment["description"]) == "a map");
  CHECK(attachment["size"].GetInt64() == std::int64_t{10} * 1024 * 1024);
  CHECK(attachment["flags"].GetInt() == 8);
  const auto too_big = multipart(std::size_t{10} * 1024 * 1024 + 1, "map.png");
  CHECK(too_big.status == 413);
  CHECK(parse(too_big.body)["code"].GetInt() == 40005);
}

TEST_CASE(
    "editing the original response: attachments' description and is_spoiler; a deferred one loads until "
    "edited") {
  Emulator e;
  e.connect_bot();
  const auto waiter = e.stats();
  const auto d = e.last_interaction();
  const auto deferred = e.callback(d, R"({"type":5,"data":{"flags":64}})", "?with_response=true");
  REQUIRE(deferred.status == 200);
  CHECK(parse(deferred.body)["interaction"]["response_message_loading"].GetBool());
  CHECK(parse(deferred.body)["interaction"]["response_message_ephemeral"].GetBool());
  CHECK(answer_of(waiter)["response"]["type"].GetInt() == 5);
  // An ephemeral message goes to its user only: the bot's session hears nothing of it.
  CHECK(e.bot_peer.dispatches("MESSAGE_CREATE").empty());
  // The deprecated behavior: a follow-up right after a deferred response edits the loading message.
  const auto first = e.send("POST", e.webhook(d), R"({"content":"done","flags":0})");
  REQUIRE(first.status == 200);
  const auto edited = parse(first.body);
  CHECK(str(edited["content"]) == "done");
  CHECK((edited["flags"].GetInt() & 64) == 64);  // stays ephemeral
  CHECK((edited["flags"].GetInt() & 128) == 0);  // no longer loading
  // Components v2 comes with the edit, not the deferred response.
  CHECK(e.send("PATCH", e.webhook(d, "/messages/@original"),
               R"({"flags":32768,"content":null,"components":[{"type":10,"content":"v2"}]})")
            .status == 200);
  CHECK(e.send("PATCH", e.webhook(d, "/messages/@original"), R"({"flags":0})").status == 400);  // v2 stays
  CHECK(e.send("DELETE", e.webhook(d, "/messages/@original")).status == 204);
  CHECK(e.send("GET", e.webhook(d, "/messages/@original")).status == 404);
  CHECK(e.send("GET", e.webhook(d, "/messages/123")).status == 404);
}

TEST_CASE(
    "a button click and a select's choice reach the application with the message; UPDATE_MESSAGE edits it") {
  Emulator e;
  e.connect_bot();
  const auto waiter = e.stats();
  const auto d = e.last_interaction();
  REQUIRE(
      e.callback(
           d,
           R"({"type":4,"data":{"content":"Pick","components":[{"type":1,"components":[)"
           R"({"type":2,"style":1,"label":"Again","custom_id":"again"},)"
           R"({"type":2,"style":2,"label":"Off","custom_id":"off","disabled":true}]},)"
           R"({"type":1,"components":[{"type":3,"custom_id":"map","options":[{"label":"A","value":"a"},{"label":"B","value":"b"}],"max_values":2}]}]}})")
          .status == 204);
  const auto message_id = str(answer_of(waiter)["message_id"]);
  const auto click = [&](const std::string& extra) {
    return e.raw("POST", "/_emulator/applications/" + e.app_id + "/interactions/components",
                 R"({"user_id":")" + e.player + R"(","channel_id":")" + e.channel_id + R"(","message_id":")" +
                     message_id + R"(")" + extra + "}");
  };
  REQUIRE(click(R"(,"custom_id":"again")").deferred);
  auto c = e.last_interaction();
  CHECK(c["type"].GetInt() == 3);
  CHECK(str(c["data"]["custom_id"]) == "again");
  CHECK(c["data"]["component_type"].GetInt() == 2);
  CHECK(str(c["message"]["id"]) == message_id);
  CHECK(e.callback(c, R"({"type":7,"data":{"content":"Updated"}})").status == 204);
  CHECK(str(e.bot_peer.only("MESSAGE_UPDATE")["d"]["content"]) == "Updated");
  CHECK(click(R"(,"custom_id":"off")").status == 400);  // disabled
  CHECK(click(R"(,"custom_id":"nope")").status == 400);
  CHECK(click(R"(,"custom_id":"map","values":["a","b","a"])").status == 400);  // over max_values
  CHECK(click(R"(,"custom_id":"map","values":["c"])").status == 400);          // not an option
  REQUIRE(click(R"(,"custom_id":"map","values":["a","b"])").deferred);
  c = e.last_interaction();
  CHECK(c["data"]["values"].Size() == 2);
  CHECK(e.callback(c, R"({"type":6})").status == 204);
}

TEST_CASE("a modal opened by a command is submitted with its Labels' values and uploads") {
  Emulator e;
  e.connect_bot();
  e.stats();
  const auto d = e.last_interaction();
  REQUIRE(
      e.callback(
           d,
           R"({"type":9,"data":{"custom_id":"report","title":"Report","components":[)"
           R"({"type":18,"label":"What happened","component":{"type":4,"custom_id":"what","style":2,"min_length":5}},)"
           R"({"type":10,"content":"Attach a screenshot"},)"
           R"({"type":18,"label":"Screenshot","component":{"type":19,"custom_id":"shot","min_values":1,"max_values":2}}]}})")
          .status == 204);
  const auto submit = [&](const std::string& body) {
    return e.raw("POST",
                 "/_emulator/applications/" + e.app_id + "/interactions/" + str(d["id"]) + "/modal-submit",
                 body);
  };
  CHECK(
      submit(R"({"values":{"what":"bug"},"attachments":{"shot":[{"filename":"a.png","size":10}]}})").status ==
      400);                                                            // 3 < 5
  CHECK(submit(R"({"values":{"what":"a real bug"}})").status == 400);  // no file, min 1
  CHECK(
      submit(
          R"({"values":{"what":"a real bug"},"attachments":{"shot":[{"filename":"a.png","size":1},{"filename":"b.png","size":1},{"filename":"c.png","size":1}]}})")
          .status == 400);  // 3 > 2
  CHECK(
      submit(
          R"({"values":{"what":"a real bug","who":"x"},"attachments":{"shot":[{"filename":"a.png","size":1}]}})")
          .status == 400);
  const auto waiter = submit(
      R"({"values":{"what":"a real bug"},"attachments":{"shot":[{"filename":"a.png","size":10,"content_type":"image/png"}]}})");
  REQUIRE_MESSAGE(waiter.deferred, waiter.body);
  const auto m = e.last_interaction();
  CHECK(m["type"].GetInt() == 5);
  CHECK(str(m["data"]["custom_id"]) == "report");
  const auto& components = m["data"]["components"];
  REQUIRE(components.Size() == 3);
  CHECK(components[0]["type"].GetInt() == 18);
  CHECK(str(components[0]["component"]["value"]) == "a real bug");
  CHECK(components[1]["type"].GetInt() == 10);
  const auto file_id = str(components[2]["component"]["values"][0]);
  CHECK(str(m["data"]["resolved"]["attachments"][file_id.c_str()]["filename"]) == "a.png");
  CHECK(e.callback(
             m, R"({"type":9,"data":{"custom_id":"x","title":"t","components":[{"type":10,"content":"c"}]}})")
            .status == 400);
  CHECK(e.callback(m, R"({"type":4,"data":{"content":"Thanks"}})").status == 204);
  const auto followup = e.send("POST", e.webhook(m), R"({"content":"Filed"})");
  REQUIRE(followup.status == 200);
  const auto message = parse(followup.body);
  const auto metadata = message["interaction_metadata"].GetObject();
  CHECK(metadata["type"].GetInt() == 5);
  CHECK(str(metadata["triggering_interaction_metadata"]["id"]) == str(d["id"]));
  CHECK(metadata["triggering_interaction_metadata"]["type"].GetInt() == 2);
  CHECK(str(metadata["original_response_message_id"]).size() > 0);
}

TEST_CASE(
    "with an interactions endpoint URL the interaction is POSTed signed, and the answer is the response") {
  Emulator e;
  const auto put = e.raw("PUT", "/_emulator/applications/" + e.app_id + "/interactions-endpoint",
                         R"({"url":"http://127.0.0.1:9/interactions"})");
  REQUIRE(put.deferred);
  // The portal's check: a bad signature first, which must be refused...
  REQUIRE(e.transport.sent.size() == 1);
  e.transport.answer(0, 200, R"({"type":1})");
  REQUIRE(put.deferred->answer());
  CHECK(put.deferred->answer()->status == 400);  // it accepted a bad signature
  const auto again = e.raw("PUT", "/_emulator/applications/" + e.app_id + "/interactions-endpoint",
                           R"({"url":"http://127.0.0.1:9/interactions"})");
  e.transport.answer(1, 401);
  REQUIRE(e.transport.sent.size() == 3);
  // ...then the signed PING, answered with type 1.
  const auto& ping = e.transport.sent[2].post;
  CHECK(parse(ping.body)["type"].GetInt() == 1);
  unsigned char key[crypto_sign_PUBLICKEYBYTES];
  REQUIRE(sodium_hex2bin(key, sizeof key, e.verify_key.data(), e.verify_key.size(), nullptr, nullptr,
                         nullptr) == 0);
  const auto verify = [&](const WebhookPost& post) {
    unsigned char signature[crypto_sign_BYTES];
    REQUIRE(sodium_hex2bin(signature, sizeof signature, post.signature.data(), post.signature.size(), nullptr,
                           nullptr, nullptr) == 0);
    const auto signed_text = post.timestamp + post.body;
    return crypto_sign_verify_detached(signature, reinterpret_cast<const unsigned char*>(signed_text.data()),
                                       signed_text.size(), key) == 0;
  };
  CHECK(verify(ping));
  CHECK_FALSE(verify(e.transport.sent[1].post));
  e.transport.answer(2, 200, R"({"type":1})");
  REQUIRE(again.deferred->answer());
  CHECK_MESSAGE(again.deferred->answer()->status == 200, again.deferred->answer()->body);

  // An interaction now goes to the URL, not to the Gateway; the inline answer is the response.
  e.connect_bot();
  const auto waiter = e.stats();
  REQUIRE(e.transport.sent.size() == 4);
  CHECK(e.bot_peer.dispatches("INTERACTION_CREATE").empty());
  const auto& post = e.transport.sent[3].post;
  CHECK(verify(post));
  CHECK(post.timeout.count() == 3000);
  CHECK(parse(post.body)["type"].GetInt() == 2);
  e.transport.answer(3, 200, R"({"type":4,"data":{"content":"inline"}})");
  CHECK(answer_of(waiter)["response"]["type"].GetInt() == 4);
  CHECK(str(e.bot_peer.only("MESSAGE_CREATE")["d"]["content"]) == "inline");

  // 202: the application calls back instead.
  const auto later = e.stats();
  const auto interaction = parse(e.transport.sent[4].post.body);
  e.transport.answer(4, 202);
  CHECK_FALSE(later->answer());
  CHECK(e.callback(interaction, R"({"type":4,"data":{"content":"called back"}})").status == 204);
  CHECK(answer_of(later)["response"]["type"].GetInt() == 4);
}

TEST_CASE("a DM with the bot is BOT_DM with the guild install's owner \"0\"") {
  Emulator e;
  e.connect_bot();
  e.api("POST", "/applications/" + e.app_id + "/commands",
        R"({"name":"hello","description":"Hi","contexts":[0,1]})");
  e.invoke(R"(,"name":"hello")");  // no channel: the DM with the bot
  const auto d = e.last_interaction();
  CHECK(d["context"].GetInt() == 1);
  CHECK(str(d["authorizing_integration_owners"]["0"]) == "0");
  CHECK(str(d["app_permissions"]) ==
        std::to_string((1ULL << 14) | (1ULL << 15) | (1ULL << 17) | (1ULL << 18)));
  // A command whose contexts leave the bot's DM out is not offered there.
  e.api("POST", "/applications/" + e.app_id + "/commands",
        R"({"name":"guildonly","description":"G","contexts":[0]})");
  CHECK(e.invoke_refused(R"(,"name":"guildonly")").status == 403);
}

}  // namespace interaction_routes_test
