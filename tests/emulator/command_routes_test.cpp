// Application commands without sockets: create (an upsert), get, list, edit, delete and bulk overwrite,
// global and per guild; every naming, description, option, choice, range, length, file-type, size and count
// rule crossed by one; the entry point (one, global, its handler needing Activities) and the default Launch
// command of the admin Activities switch; who may manage commands; and the state documents.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/random_token.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace command_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

std::string repeat(std::size_t n, char c = 'a') {
  return std::string(n, c);
}

// An option of `type` named `name` with `extra` members (a leading comma each).
std::string option(int type, const std::string& name, const std::string& extra = {}) {
  return R"({"type":)" + std::to_string(type) + R"(,"name":")" + name + R"(","description":"d")" + extra +
         "}";
}

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const auto& item : items)
    out += (out.size() > 1 ? "," : "") + item;
  return out + "]";
}

std::string chat(const std::string& name, const std::string& extra = {},
                 const std::string& description = "A command") {
  return R"({"name":")" + name + R"(","description":")" + description + "\"" + extra + "}";
}

struct Fixture : ServiceBench {
  std::string app_id, bot, client_secret, other_bot, player;
  std::string bare_guild_id;

  Fixture() : ServiceBench(kBenchStart, Pace::live) {
    step_ms = 25;  // 40 requests a second: within the platform's per-route and global limits
    const auto app = app_json("Racing");
    app_id = str(app["id"]);
    bot = "Bot " + str(app["bot_token"]);
    client_secret = str(app["client_secret"]);
    const auto bot_id = str(app["bot_user_id"]);
    other_bot = "Bot " + str(app_json("Other")["bot_token"]);
    player = user("player");
    guild(player);
    bare_guild_id = guild(player, "Bare");
    member(bot_id);
  }

  std::string global() const { return "/api/v10/applications/" + app_id + "/commands"; }
  std::string in_guild(const std::string& guild) const {
    return "/api/v10/applications/" + app_id + "/guilds/" + guild + "/commands";
  }
  HttpResponse create(const std::string& body, const std::string& path = {}) {
    return raw("POST", path.empty() ? global() : path, body, bot);
  }
  // The first error of the 50035 body at `path` (keys joined by '.'), or "" when it has none there.
  static std::string error_at(const HttpResponse& response, const std::string& path) {
    if (response.status != 400) return "status " + std::to_string(response.status);
    const auto body = parse(response.body);
    if (!body.HasMember("errors")) return "";
    const rapidjson::Value* node = &body["errors"];
    std::size_t start = 0;
    while (start <= path.size()) {
      const auto dot = path.find('.', start);
      const auto key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (!node->IsObject() || !node->HasMember(key.c_str())) return "";
      node = &(*node)[key.c_str()];
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    if (!node->HasMember("_errors")) return "";
    return str((*node)["_errors"][0]["code"]);
  }
  static int code(const HttpResponse& response) { return parse(response.body)["code"].GetInt(); }
};

}  // namespace

TEST_CASE_FIXTURE(Fixture, "create is an upsert by name and type; get, list, edit and delete") {
  auto created = create(chat("stats", R"(,"options":[{"type":3,"name":"player","description":"Who"}])"));
  REQUIRE(created.status == 201);
  auto body = parse(created.body);
  const auto id = str(body["id"]);
  CHECK(str(body["application_id"]) == app_id);
  CHECK(body["type"].GetInt() == 1);
  CHECK(str(body["name"]) == "stats");
  CHECK(body["options"].Size() == 1);
  CHECK(body["integration_types"].Size() == 2);  // the application's contexts: guild and user installs
  CHECK(body["contexts"].IsNull());
  CHECK(body["default_member_permissions"].IsNull());
  CHECK_FALSE(body.HasMember("guild_id"));
  CHECK_FALSE(body.HasMember("dm_permission"));
  const auto version = str(body["version"]);

  auto again = create(chat("stats", {}, "Changed"));
  CHECK(again.status == 200);  // the same name and type: replaced, same id
  body = parse(again.body);
  CHECK(str(body["id"]) == id);
  CHECK(str(body["version"]) != version);
  CHECK_FALSE(body.HasMember("options"));                       // an empty list is left out
  CHECK(create(R"({"type":2,"name":"stats"})").status == 201);  // a USER command may share the name

  auto listed = parse(raw("GET", global(), {}, bot).body);
  CHECK(listed.Size() == 2);
  CHECK_FALSE(listed[0].HasMember("name_localizations"));
  CHECK(parse(raw("GET", global() + "?with_localizations=true", {}, bot).body)[0].HasMember(
      "name_localizations"));
  CHECK(str(parse(raw("GET", global() + "/" + id, {}, bot).body)["description"]) == "Changed");

  auto edited = raw("PATCH", global() + "/" + id, R"({"name":"score","nsfw":true})", bot);
  REQUIRE(edited.status == 200);
  body = parse(edited.body);
  CHECK(str(body["name"]) == "score");
  CHECK(str(body["description"]) == "Changed");  // what the edit did not send stays
  CHECK(body["nsfw"].GetBool());
  CHECK(create(chat("other")).status == 201);
  auto taken = raw("PATCH", global() + "/" + id, R"({"name":"other"})", bot);
  CHECK(taken.status == 400);
  CHECK(code(taken) == 40041);
  CHECK(error_at(raw("PATCH", global() + "/" + id, R"({"name":"Bad Name"})", bot), "name") ==
        "STRING_TYPE_REGEX");

  CHECK(raw("DELETE", global() + "/" + id, {}, bot).status == 204);
  auto gone = raw("GET", global() + "/" + id, {}, bot);
  CHECK(gone.status == 404);
  CHECK(code(gone) == 10063);
  CHECK(code(raw("DELETE", global() + "/" + id, {}, bot)) == 10063);
}

TEST_CASE_FIXTURE(Fixture, "names: the CHAT_INPUT rule, 1 to 32 characters; context menus take any case") {
  CHECK(create(chat(repeat(32))).status == 201);
  CHECK(error_at(create(chat(repeat(33))), "name") == "BASE_TYPE_BAD_LENGTH");
  CHECK(error_at(create(chat("")), "name") == "BASE_TYPE_BAD_LENGTH");
  CHECK(error_at(create(R"({"description":"d"})"), "name") == "BASE_TYPE_REQUIRED");
  for (const char* bad : {"Stats", "two words", "dot.ted", "emoji\xF0\x9F\x98\x80", "\xC3\x89t\xC3\xA9"}) {
    INFO(std::string(bad));
    const auto response = create(chat(bad));
    CHECK(error_at(response, "name") == "STRING_TYPE_REGEX");
    CHECK(response.body.find("APPLICATION_COMMAND_INVALID_NAME") != std::string::npos);
  }
  for (const char* good : {"high-score", "it's_me", "\xC3\xA9t\xC3\xA9", "\xE5\xBE\x97\xE7\x82\xB9", "x1"}) {
    INFO(std::string(good));
    CHECK(create(chat(good)).status == 201);
  }
  CHECK(create(R"({"type":2,"name":"Show Stats"})").status == 201);
  CHECK(create(R"({"type":3,"name":")" + repeat(32, 'M') + R"("})").status == 201);
  CHECK(error_at(create(R"({"type":3,"name":")" + repeat(33, 'M') + R"("})"), "name") ==
        "BASE_TYPE_BAD_LENGTH");
  CHECK(error_at(create(chat("loc", R"(,"name_localizations":{"fr":"Nom"})")), "name_localizations.fr") ==
        "APPLICATION_COMMAND_INVALID_NAME");
  CHECK(error_at(create(R"({"type":9,"name":"x"})"), "type") == "BASE_TYPE_CHOICES");
}

TEST_CASE_FIXTURE(Fixture, "descriptions: 1 to 100 characters for CHAT_INPUT; none for context menus") {
  CHECK(create(R"({"name":"a","description":")" + repeat(100) + R"("})").status == 201);
  CHECK(error_at(create(R"({"name":"b","description":")" + repeat(101) + R"("})"), "description") ==
        "BASE_TYPE_BAD_LENGTH");
  CHECK(error_at(create(R"({"name":"c"})"), "description") == "BASE_TYPE_REQUIRED");
  CHECK(error_at(create(R"({"name":"c","description":""})"), "description") == "BASE_TYPE_BAD_LENGTH");
  const auto user = parse(create(R"({"type":2,"name":"Inspect","description":"ignored"})").body);
  CHECK(str(user["description"]).empty());
  CHECK(error_at(create(chat("d", R"(,"description_localizations":{"de":")" + repeat(101) + R"("})")),
                 "description_localizations.de") == "BASE_TYPE_BAD_LENGTH");
}

TEST_CASE_FIXTURE(Fixture, "options: count, order, nesting, unique names, the types' own fields") {
  std::vector<std::string> options;
  options.reserve(26);
  for (int i = 0; i < 25; ++i)
    options.push_back(option(3, "o" + std::to_string(i)));
  CHECK(create(chat("many", ",\"options\":" + list(options))).status == 201);
  options.push_back(option(3, "o25"));
  CHECK(error_at(create(chat("toomany", ",\"options\":" + list(options))), "options") ==
        "BASE_TYPE_MAX_LENGTH");

  CHECK(create(chat("order", ",\"options\":" + list({option(3, "a", R"(,"required":true)"), option(3, "b")})))
            .status == 201);
  CHECK(error_at(create(chat("disorder", ",\"options\":" +
                                             list({option(3, "a"), option(3, "b", R"(,"required":true)")}))),
                 "options.1") == "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID");
  CHECK(error_at(create(chat("twice", ",\"options\":" + list({option(3, "a"), option(4, "a")}))),
                 "options.1.name") == "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME");
  CHECK(error_at(create(chat("upper", ",\"options\":" + list({option(3, "Who")}))), "options.0.name") ==
        "STRING_TYPE_REGEX");
  CHECK(error_at(create(chat("desc",
                             R"(,"options":[{"type":3,"name":"a","description":")" + repeat(101) + R"("}])")),
                 "options.0.description") == "BASE_TYPE_BAD_LENGTH");
  CHECK(error_at(create(chat("kind", ",\"options\":" + list({option(12, "a")}))), "options.0.type") ==
        "BASE_TYPE_CHOICES");

  // Subcommands: groups hold subcommands, subcommands hold values, and they never mix with values.
  const auto sub = option(1, "show", ",\"options\":" + list({option(3, "who", R"(,"required":true)")}));
  CHECK(
      create(chat("nested", ",\"options\":" + list({option(2, "group", ",\"options\":" + list({sub})), sub})))
          .status == 201);
  CHECK(error_at(create(chat("mixed", ",\"options\":" + list({sub, option(3, "loose")}))), "options") ==
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID");
  CHECK(
      error_at(create(chat("deep", ",\"options\":" + list({option(1, "s", ",\"options\":" + list({sub}))}))),
               "options.0.options.0.type") == "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID");
  CHECK(error_at(
            create(chat("valuesub", ",\"options\":" + list({option(3, "v", ",\"options\":" + list({sub}))}))),
            "options.0.options") == "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");
  CHECK(error_at(create(chat("reqsub", ",\"options\":" + list({option(1, "s", R"(,"required":true)")}))),
                 "options.0.required") == "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");
  CHECK(error_at(create(R"({"type":2,"name":"Menu","options":[]})"), "options") ==
        "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");
}

TEST_CASE_FIXTURE(Fixture, "choices, ranges, lengths, autocomplete, channel types and file types") {
  const auto choices = [](int n, const std::string& name, const std::string& value) {
    std::vector<std::string> items;
    items.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      items.push_back(R"({"name":")" + name + std::to_string(i) + R"(","value":)" + value + "}");
    return ",\"choices\":" + list(items);
  };
  const auto with = [&](int type, const std::string& extra) {
    return chat("c" + std::to_string(std::hash<std::string>{}(extra) % 100000),
                ",\"options\":" + list({option(type, "v", extra)}));
  };
  CHECK(create(with(3, choices(25, "n", "\"x\""))).status == 201);
  CHECK(error_at(create(with(3, choices(26, "n", "\"x\""))), "options.0.choices") == "BASE_TYPE_MAX_LENGTH");
  CHECK(create(with(3, choices(1, repeat(99), "\"x\""))).status == 201);  // 99 + the digit: 100
  CHECK(error_at(create(with(3, choices(1, repeat(100), "\"x\""))), "options.0.choices.0.name") ==
        "BASE_TYPE_BAD_LENGTH");
  CHECK(create(with(3, choices(1, "n", "\"" + repeat(100) + "\""))).status == 201);
  CHECK(error_at(create(with(3, choices(1, "n", "\"" + repeat(101) + "\""))), "options.0.choices.0.value") ==
        "BASE_TYPE_BAD_LENGTH");
  CHECK(create(with(4, choices(1, "n", "9007199254740991"))).status == 201);  // 2^53 - 1
  CHECK(error_at(create(with(4, choices(1, "n", "9007199254740992"))), "options.0.choices.0.value") ==
        "NUMBER_TYPE_COERCE");
  CHECK(error_at(create(with(4, choices(1, "n", "\"1\""))), "options.0.choices.0.value") ==
        "NUMBER_TYPE_COERCE");
  CHECK(create(with(10, choices(1, "n", "2.5"))).status == 201);
  CHECK(error_at(create(with(5, choices(1, "n", "true"))), "options.0.choices") ==
        "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");
  CHECK(error_at(create(with(3, R"(,"autocomplete":true)" + choices(1, "n", "\"x\""))),
                 "options.0.autocomplete") == "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");
  CHECK(create(with(3, R"(,"autocomplete":true)")).status == 201);

  CHECK(create(with(4, R"(,"min_value":-9007199254740991,"max_value":9007199254740991)")).status == 201);
  CHECK(error_at(create(with(4, R"(,"min_value":-9007199254740992)")), "options.0.min_value") ==
        "NUMBER_TYPE_MAX");
  CHECK(error_at(create(with(4, R"(,"min_value":5,"max_value":4)")), "options.0.min_value") ==
        "NUMBER_TYPE_MAX");
  CHECK(error_at(create(with(3, R"(,"min_value":1)")), "options.0.min_value") ==
        "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");

  CHECK(create(with(3, R"(,"min_length":0,"max_length":6000)")).status == 201);
  CHECK(error_at(create(with(3, R"(,"min_length":-1)")), "options.0.min_length") == "NUMBER_TYPE_MIN");
  CHECK(error_at(create(with(3, R"(,"max_length":6001)")), "options.0.max_length") == "NUMBER_TYPE_MAX");
  CHECK(error_at(create(with(3, R"(,"max_length":0)")), "options.0.max_length") == "NUMBER_TYPE_MIN");
  CHECK(error_at(create(with(4, R"(,"max_length":10)")), "options.0.max_length") ==
        "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");

  CHECK(create(with(7, R"(,"channel_types":[0,2])")).status == 201);
  CHECK(error_at(create(with(3, R"(,"channel_types":[0])")), "options.0.channel_types") ==
        "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");

  const std::string ten = R"(["image","video","audio",".pdf",".png",".zip",".txt",".mp3",".ogg",".csv")";
  CHECK(create(with(11, ",\"file_types\":" + ten + "]")).status == 201);
  CHECK(error_at(create(with(11, ",\"file_types\":" + ten + ",\".md\"]")), "options.0.file_types") ==
        "BASE_TYPE_MAX_LENGTH");
  CHECK(error_at(create(with(11, R"(,"file_types":["pdf"])")), "options.0.file_types.0") ==
        "BASE_TYPE_CHOICES");
  CHECK(error_at(create(with(3, R"(,"file_types":["image"])")), "options.0.file_types") ==
        "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");
}

TEST_CASE_FIXTURE(Fixture, "the whole command is at most 8000 characters") {
  // The command's name (4) and description (96), option a (1 + 99) with 25 choices of 100 + 100, option b
  // (1 + 99) with 13 of them, option c (1 + 99): 8000.
  const auto sized = [&](std::size_t description) {
    const auto choice_list = [](int n) {
      std::vector<std::string> items;
      for (int i = 0; i < n; ++i) {
        const auto tag = std::to_string(100 + i);
        items.push_back(R"({"name":")" + repeat(97) + tag + R"(","value":")" + repeat(97) + tag + R"("})");
      }
      return list(items);
    };
    const auto described = [](const std::string& name, const std::string& extra) {
      return R"({"type":3,"name":")" + name + R"(","description":")" + repeat(99) + "\"" + extra + "}";
    };
    return R"({"name":"size","description":")" + repeat(description) + R"(","options":)" +
           list({described("a", ",\"choices\":" + choice_list(25)),
                 described("b", ",\"choices\":" + choice_list(13)), described("c", "")}) +
           "}";
  };
  CHECK(create(sized(96)).status == 201);
  CHECK(error_at(create(sized(97)), "_root") == "APPLICATION_COMMAND_TOO_LARGE");
}

TEST_CASE_FIXTURE(Fixture, "counts per scope: 100 CHAT_INPUT, 15 USER, 15 MESSAGE, one global entry point") {
  for (int i = 0; i < 100; ++i)
    REQUIRE(create(chat("c" + std::to_string(i))).status == 201);
  auto refused = create(chat("c100"));
  CHECK(refused.status == 400);
  CHECK(code(refused) == 30032);
  CHECK(create(chat("c5", {}, "still an upsert")).status == 200);
  for (int type : {2, 3}) {
    for (int i = 0; i < 15; ++i)
      REQUIRE(
          create(R"({"type":)" + std::to_string(type) + R"(,"name":"M)" + std::to_string(i) + "\"}").status ==
          201);
    CHECK(code(create(R"({"type":)" + std::to_string(type) + R"(,"name":"M15"})")) == 30032);
  }
  // The guild's scope counts on its own.
  CHECK(create(chat("c100"), in_guild(guild_id)).status == 201);

  CHECK(create(R"({"type":4,"name":"Play","description":"Play now"})").status == 201);
  CHECK(code(create(R"({"type":4,"name":"Other","description":"Another"})")) == 30032);
  CHECK(error_at(create(R"({"type":4,"name":"Play","description":"x"})", in_guild(guild_id)), "type") ==
        "APPLICATION_COMMAND_ENTRY_POINT_GLOBAL_ONLY");
}

TEST_CASE_FIXTURE(Fixture,
                  "entry point: a handler needs Activities; Activities bring the default Launch command") {
  CHECK(error_at(create(R"({"type":4,"name":"Play","description":"p","handler":2})"), "handler") ==
        "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");
  CHECK(error_at(create(chat("x", R"(,"handler":1)")), "handler") == "APPLICATION_COMMAND_FIELD_NOT_ALLOWED");
  auto switched =
      parse(call("POST", "/_emulator/applications/" + app_id + "/activities", R"({"enabled":true})").body);
  CHECK((std::stoull(str(switched["flags_new"])) & (1ULL << 17)) != 0);
  REQUIRE(switched["entry_point"].IsObject());
  const auto launch_id = str(switched["entry_point"]["id"]);
  CHECK(str(switched["entry_point"]["name"]) == "Launch");
  CHECK(switched["entry_point"]["handler"].GetInt() == 2);
  CHECK(error_at(create(R"({"type":4,"name":"Play","description":"p","handler":3})"), "handler") ==
        "BASE_TYPE_CHOICES");
  // Renamed and handed to the app; switching again adds no second one.
  auto renamed = raw("PATCH", global() + "/" + launch_id, R"({"name":"Start Race","handler":1})", bot);
  REQUIRE(renamed.status == 200);
  CHECK(parse(renamed.body)["handler"].GetInt() == 1);
  switched =
      parse(call("POST", "/_emulator/applications/" + app_id + "/activities", R"({"enabled":true})").body);
  CHECK(str(switched["entry_point"]["id"]) == launch_id);
  CHECK(str(switched["entry_point"]["name"]) == "Start Race");
  // Deleted, it comes back only with the switch.
  CHECK(raw("DELETE", global() + "/" + launch_id, {}, bot).status == 204);
  switched =
      parse(call("POST", "/_emulator/applications/" + app_id + "/activities", R"({"enabled":true})").body);
  CHECK(str(switched["entry_point"]["id"]) != launch_id);
  // A command without options becomes the entry point by an edit of its type, once the other one is gone.
  const auto menu = str(parse(create(R"({"type":2,"name":"Menu"})").body)["id"]);
  CHECK(code(raw("PATCH", global() + "/" + menu, R"({"type":4,"description":"Play"})", bot)) == 30032);
}

TEST_CASE_FIXTURE(Fixture,
                  "bulk overwrite: the list replaces the scope's commands, keeping the ids it names") {
  const auto kept = str(parse(create(chat("keep")).body)["id"]);
  const auto dropped = str(parse(create(chat("drop")).body)["id"]);
  auto replaced = raw("PUT", global(), list({chat("keep", {}, "Kept"), chat("fresh")}), bot);
  REQUIRE(replaced.status == 200);
  auto body = parse(replaced.body);
  REQUIRE(body.Size() == 2);
  CHECK(str(body[0]["id"]) == kept);
  CHECK(str(body[0]["description"]) == "Kept");
  CHECK(code(raw("GET", global() + "/" + dropped, {}, bot)) == 10063);
  CHECK(parse(raw("GET", global(), {}, bot).body).Size() == 2);

  // Every broken item at its index; nothing changes.
  auto refused = raw("PUT", global(), list({chat("ok"), chat("Bad"), R"({"name":"x"})"}), bot);
  CHECK(error_at(refused, "1.name") == "STRING_TYPE_REGEX");
  CHECK(error_at(refused, "2.description") == "BASE_TYPE_REQUIRED");
  CHECK(error_at(raw("PUT", global(), list({chat("same"), chat("same")}), bot), "1.name") ==
        "APPLICATION_COMMANDS_DUPLICATE_NAME");
  std::vector<std::string> many;
  many.reserve(101);
  for (int i = 0; i < 101; ++i)
    many.push_back(chat("b" + std::to_string(i)));
  CHECK(code(raw("PUT", global(), list(many), bot)) == 30032);
  CHECK(error_at(raw("PUT", global(), R"({"name":"x"})", bot), "_root") == "BASE_TYPE_ARRAY");
  CHECK(parse(raw("GET", global(), {}, bot).body).Size() == 2);
  CHECK(parse(raw("PUT", global(), "[]", bot).body).Size() == 0);
  CHECK(parse(raw("GET", global(), {}, bot).body).Size() == 0);
}

TEST_CASE_FIXTURE(Fixture, "guild commands and who may manage commands") {
  const auto guild_command = parse(create(chat("stats"), in_guild(guild_id)).body);
  CHECK(str(guild_command["guild_id"]) == guild_id);
  CHECK_FALSE(guild_command.HasMember("integration_types"));
  CHECK(create(chat("stats")).status == 201);  // the global scope is another
  CHECK(parse(raw("GET", in_guild(guild_id), {}, bot).body).Size() == 1);
  CHECK(code(raw("GET", global() + "/" + str(guild_command["id"]), {}, bot)) == 10063);
  CHECK(code(raw("GET", in_guild("123"), {}, bot)) == 10004);
  CHECK(code(raw("GET", in_guild(bare_guild_id), {}, bot)) == 50001);  // the application is not in it

  CHECK(raw("GET", global()).status == 401);
  CHECK(code(raw("GET", global(), {}, other_bot)) == 50001);
  CHECK(code(raw("GET", "/api/v10/applications/1/commands", {}, bot)) == 10002);
  const auto user_token = token(player, app_id, "identify applications.commands.update");
  CHECK(code(raw("GET", global(), {}, "Bearer " + user_token)) == 50001);  // a user's token manages nothing
  auto basic = base64url_encode(app_id + ":" + client_secret);
  for (auto& c : basic) {
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  while (basic.size() % 4 != 0)
    basic += '=';
  const auto grant = [&](const std::string& scope) {
    const auto response = raw("POST", "/api/v10/oauth2/token", "grant_type=client_credentials&scope=" + scope,
                              HeaderList{{"Content-Type", "application/x-www-form-urlencoded"},
                                         {"Authorization", "Basic " + basic}});
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return "Bearer " + str(parse(response.body)["access_token"]);
  };
  CHECK(raw("GET", global(), {}, grant("applications.commands.update")).status == 200);
  CHECK(code(raw("GET", global(), {}, grant("identify"))) == 50001);
}

TEST_CASE_FIXTURE(Fixture,
                  "commands are state documents: saved, loaded back the same, refused when damaged") {
  create(chat("stats", R"(,"options":[{"type":4,"name":"n","description":"d","min_value":1}],"nsfw":true)"));
  create(R"({"type":2,"name":"Inspect"})", in_guild(guild_id));
  call("POST", "/_emulator/applications/" + app_id + "/activities", R"({"enabled":true})");
  const auto before = raw("GET", global() + "?with_localizations=true", {}, bot).body;
  const auto documents = service.changes().save_all(true);
  std::vector<DocumentChange> commands;
  for (const auto& document : documents)
    if (document.kind == "application_command") commands.push_back(document);
  CHECK(commands.size() == 3);

  Fixture restored;
  restored.service.changes().clear_all();
  restored.service.changes().load(documents);
  CHECK(restored.raw("GET", global() + "?with_localizations=true", {}, bot).body == before);
  CHECK_THROWS_AS(restored.service.changes().load(
                      {DocumentChange{"application_command", "9",
                                      R"({"v":1,"application_id":"1","version":"2",)"
                                      R"("command":{"name":"Bad Name","description":"d"}})"}}),
                  std::invalid_argument);
}

}  // namespace command_routes_test
