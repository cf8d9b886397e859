// Application emoji without sockets: list, get, create (201), rename, delete with the application's bot token
// only; the name (2 to 32 of [A-Za-z0-9_], unique in the application) and the image (a data URI of an image
// type, 256 KiB and not a byte more) crossed by one; 2000 emoji an application, crossed by one; kept across a
// restart.
#include <doctest/doctest.h>

#include <string>

#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"

namespace application_emoji_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

// `bytes` zero bytes as a base64 data URI of `media_type` (zeros encode as 'A').
std::string image_of(std::size_t bytes, const std::string& media_type = "image/png") {
  std::string base64(bytes / 3 * 4, 'A');
  if (bytes % 3 == 1) base64 += "AA==";
  if (bytes % 3 == 2) base64 += "AAA=";
  return "data:" + media_type + ";base64," + base64;
}

struct Emulator : ServiceBench {
  std::string app_id, bot_token, bot_id, other_token;

  struct Empty {};
  explicit Emulator(Empty /*unused*/) {}
  Emulator() {
    const auto game = app("Game");
    app_id = game.id;
    bot_token = game.bot_token;
    bot_id = game.bot_id;
    other_token = str(app_json("Other")["bot_token"]);
  }
  HttpResponse bot(std::string method, const std::string& path, std::string body = {},
                   const std::string& token = {}) {
    return as_json("Bot " + (token.empty() ? bot_token : token), std::move(method),
                   "/applications/" + app_id + "/emojis" + path, std::move(body));
  }
  HttpResponse create(const std::string& name, const std::string& image) {
    return bot("POST", "", R"({"name":")" + name + R"(","image":")" + image + R"("})");
  }
};

void check_error(const HttpResponse& response, int status, int code) {
  CHECK_MESSAGE(response.status == status, response.body);
  CHECK_MESSAGE(parse(response.body)["code"].GetInt() == code, response.body);
}

}  // namespace

TEST_CASE("application emoji: create, list, get, rename, delete; the bot token of the application only") {
  Emulator e;
  const auto created = e.create("racer_1", image_of(10));
  REQUIRE_MESSAGE(created.status == 201, created.body);
  const auto emoji = parse(created.body);
  const auto id = str(emoji["id"]);
  CHECK(str(emoji["name"]) == "racer_1");
  CHECK(str(emoji["user"]["id"]) == e.bot_id);
  CHECK(emoji["require_colons"].GetBool());
  CHECK_FALSE(emoji["managed"].GetBool());
  CHECK_FALSE(emoji["animated"].GetBool());
  CHECK(parse(e.create("spinner", image_of(10, "image/gif")).body)["animated"].GetBool());

  const auto list = parse(e.bot("GET", "").body);
  REQUIRE(list["items"].Size() == 2);
  CHECK(str(list["items"][0]["id"]) == id);
  CHECK(str(parse(e.bot("GET", "/" + id).body)["name"]) == "racer_1");
  CHECK(str(parse(e.bot("PATCH", "/" + id, R"({"name":"racer_2"})").body)["name"]) == "racer_2");
  CHECK(e.bot("DELETE", "/" + id).status == 204);
  check_error(e.bot("GET", "/" + id), 404, 10014);
  check_error(e.bot("DELETE", "/" + id), 404, 10014);

  // Another application's bot, a user's token, no token.
  check_error(e.bot("GET", "", {}, e.other_token), 403, 50001);
  const auto user = str(parse(e.call("POST", "/_emulator/users", R"({"username":"alice"})").body)["id"]);
  const auto bearer = str(parse(e.call("POST", "/_emulator/tokens",
                                       R"({"user_id":")" + user + R"(","app_id":")" + e.app_id +
                                           R"(","scopes":"openid sdk.social_layer"})")
                                    .body)["access_token"]);
  check_error(e.raw("GET", "/api/v10/applications/" + e.app_id + "/emojis", {},
                    {{"Authorization", "Bearer " + bearer}}),
              403, 50001);
  CHECK(e.raw("GET", "/api/v10/applications/" + e.app_id + "/emojis").status == 401);
  check_error(
      e.raw("GET", "/api/v10/applications/424242/emojis", {}, {{"Authorization", "Bot " + e.bot_token}}), 404,
      10002);
}

TEST_CASE("application emoji: the name and the image crossed by one") {
  Emulator e;
  check_error(e.create("a", image_of(10)), 400, 50035);
  CHECK(e.create("ab", image_of(10)).status == 201);
  CHECK(e.create(std::string(32, 'c'), image_of(10)).status == 201);
  check_error(e.create(std::string(33, 'c'), image_of(10)), 400, 50035);
  check_error(e.create("no-dash", image_of(10)), 400, 50035);
  check_error(e.create("ab", image_of(10)), 400, 50035);  // taken
  check_error(e.create("sound", "data:audio/ogg;base64,AAAA"), 400, 50035);
  check_error(e.create("broken", "data:image/png;base64,@@@@"), 400, 50035);
  check_error(e.bot("POST", "", R"({"name":"noimage"})"), 400, 50035);
  CHECK(e.create("big", image_of(std::size_t{256} * 1024)).status == 201);
  const auto too_big = e.create("bigger", image_of(std::size_t{256} * 1024 + 1));
  CHECK(too_big.status == 400);
  CHECK(parse(too_big.body)["code"].GetInt() == 0);
  // Renaming: the same rules, and one's own name is not "taken".
  const auto id = str(parse(e.create("mine", image_of(10)).body)["id"]);
  CHECK(e.bot("PATCH", "/" + id, R"({"name":"mine"})").status == 200);
  check_error(e.bot("PATCH", "/" + id, R"({"name":"ab"})"), 400, 50035);
  check_error(e.bot("PATCH", "/" + id, R"({"name":"x"})"), 400, 50035);
}

TEST_CASE("application emoji: 2000 an application, crossed by one") {
  Emulator e;
  const auto image = image_of(3);
  for (int i = 0; i < 2000; ++i)
    REQUIRE(e.create("e" + std::to_string(i), image).status == 201);
  check_error(e.create("e2000", image), 400, 30008);
  CHECK(parse(e.bot("GET", "").body)["items"].Size() == 2000);
  // Another application has its own 2000.
  const auto other = e.app_json("Third");
  CHECK(e.raw("POST", "/api/v10/applications/" + str(other["id"]) + "/emojis",
              R"({"name":"e0","image":")" + image + R"("})",
              {{"Authorization", "Bot " + str(other["bot_token"])}, {"Content-Type", "application/json"}})
            .status == 201);
}

TEST_CASE("application emoji: kept across a restart") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  first.create("kept", image_of(10, "image/gif"));
  mirror.check_complete();
  CHECK(mirror.count("application_emoji") == 1);
  const auto before = first.bot("GET", "").body;
  Emulator restarted{Emulator::Empty{}};
  check_round_trip(mirror.documents(), restarted.service.changes());
  restarted.app_id = first.app_id;
  restarted.bot_token = first.bot_token;
  CHECK(restarted.bot("GET", "").body == before);
}

}  // namespace application_emoji_test
