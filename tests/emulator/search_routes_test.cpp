// Search Guild Messages without sockets: content words with the timestamp and relevance sorts (ties newest
// first), limit 1..25 and offset 0..9975 crossed by one, the filters (authors, author types, channels,
// mentions, replies, pinned, has, link hosts, attachment extensions, min_id/max_id), READ_MESSAGE_HISTORY and
// the MESSAGE_CONTENT intent, channels the bot cannot read left out, and the "not yet indexed" switch (202
// with 110000), which a restart keeps.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/fake_clock.hpp"
#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"

namespace search_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::permission;

namespace {

// Owner Olivia and Alice; the bot (role Pins: PIN_MESSAGES, ATTACH_FILES); #general and #random, which all
// read; #secret, which nobody but the owner views; #archive, whose history nobody reads.
struct Emulator : ServiceBench {
  std::string olivia, alice, app_id, bot_id, bot_token, general, random, secret, archive;

  explicit Emulator(bool seed = true) {
    if (!seed) return;
    olivia = user("olivia");
    alice = user("alice");
    const auto game = app("Game");
    app_id = game.id;
    bot_id = game.bot_id;
    bot_token = game.bot_token;
    guild(olivia);
    const auto pins = role("Pins", kPinMessages | kAttachFiles);
    member(alice);
    member(bot_id, pins);
    general = channel(R"({"name":"general"})");
    random = channel(R"({"name":"random"})");
    secret = channel(R"({"name":"secret","permission_overwrites":[{"id":")" + guild_id +
                     R"(","type":0,"deny":"1024"}]})");
    archive = channel(R"({"name":"archive","permission_overwrites":[{"id":")" + guild_id +
                      R"(","type":0,"deny":"65536"}]})");
  }
  // As the bot; a body goes as JSON unless `type` says otherwise.
  HttpResponse bot(std::string method, const std::string& path, std::string body = {},
                   const std::string& type = {}) {
    HeaderList headers;
    if (!body.empty()) headers.emplace_back("Content-Type", type.empty() ? "application/json" : type);
    return as("Bot " + bot_token, std::move(method), path, std::move(body), std::move(headers));
  }
  // A message of the bot in `channel_id` (a JSON body); its id.
  std::string post(const std::string& channel_id, const std::string& body) {
    const auto response = bot("POST", "/channels/" + channel_id + "/messages", body);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["id"]);
  }
  // A message of a member (the admin's stand-in for their client); its id.
  std::string says(const std::string& user_id, const std::string& channel_id, const std::string& content) {
    return str(parse(call("POST", "/_emulator/channels/" + channel_id + "/messages?author_id=" + user_id,
                          R"({"content":")" + content + R"("})")
                         .body)["id"]);
  }
  HttpResponse search_raw(const std::string& query) {
    return bot("GET", "/guilds/" + guild_id + "/messages/search?" + query);
  }
  // The ids of the results, in order, and the total.
  std::pair<std::vector<std::string>, int> search(const std::string& query) {
    const auto response = search_raw(query);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    const auto body = parse(response.body);
    std::vector<std::string> ids;
    for (const auto& group : body["messages"].GetArray()) {
      REQUIRE(group.Size() == 1);
      CHECK(group[0]["hit"].GetBool());
      ids.push_back(str(group[0]["id"]));
    }
    return {ids, body["total_results"].GetInt()};
  }
  std::vector<std::string> ids(const std::string& query) { return search(query).first; }
};

void check_error(const HttpResponse& response, int status, int code) {
  CHECK_MESSAGE(response.status == status, response.body);
  CHECK_MESSAGE(parse(response.body)["code"].GetInt() == code, response.body);
}

using Ids = std::vector<std::string>;

}  // namespace

TEST_CASE("Search Guild Messages: content words, timestamp and relevance sorts, ties newest first") {
  Emulator e;
  const auto gg = e.says(e.alice, e.general, "gg well played");
  const auto wells = e.says(e.alice, e.general, "well well well");
  const auto nothing = e.says(e.alice, e.random, "nothing here");
  const auto played = e.post(e.random, R"({"content":"Played it WELL"})");
  // Every word must be there (any case); newest first by default, oldest first with asc.
  const auto [found, total] = e.search("content=well%20played");
  CHECK(found == Ids{played, gg});
  CHECK(total == 2);
  CHECK(e.ids("content=well+played&sort_order=asc") == Ids{gg, played});
  // Relevance: the phrase counts; asc is ignored with it.
  CHECK(e.ids("content=well%20played&sort_by=relevance&sort_order=asc") == Ids{gg, played});
  // "well": three times in one, once in two others (the newer first).
  CHECK(e.ids("content=well&sort_by=relevance") == Ids{wells, played, gg});
  CHECK(e.ids("") == Ids{played, nothing, wells, gg});
  check_error(e.search_raw("content=" + std::string(1025, 'a')), 400, 50035);
  CHECK(e.search_raw("content=" + std::string(1024, 'a')).status == 200);
  check_error(e.search_raw("sort_by=popularity"), 400, 50035);
  check_error(e.search_raw("sort_order=up"), 400, 50035);
  check_error(e.search_raw("slop=101"), 400, 50035);
  CHECK(e.search_raw("slop=100").status == 200);
}

TEST_CASE("Search Guild Messages: limit 1..25 (25), offset 0..9975, total_results") {
  Emulator e;
  std::vector<std::string> posted;
  posted.reserve(30);
  for (int i = 0; i < 30; ++i)
    posted.push_back(e.says(e.alice, e.general, "line " + std::to_string(i)));
  const auto [first_page, total] = e.search("");
  CHECK(first_page.size() == 25);
  CHECK(total == 30);
  CHECK(first_page.front() == posted.back());
  CHECK(e.ids("limit=25").size() == 25);
  CHECK(e.ids("limit=1") == Ids{posted.back()});
  check_error(e.search_raw("limit=26"), 400, 50035);
  check_error(e.search_raw("limit=0"), 400, 50035);
  const auto rest = e.ids("offset=25");
  CHECK(rest == Ids{posted[4], posted[3], posted[2], posted[1], posted[0]});
  CHECK(e.ids("offset=9975").empty());
  check_error(e.search_raw("offset=9976"), 400, 50035);
  check_error(e.search_raw("offset=-1"), 400, 50035);
  // min_id and max_id leave their own message out.
  CHECK(e.ids("min_id=" + posted[27]) == Ids{posted[29], posted[28]});
  CHECK(e.ids("max_id=" + posted[2]) == Ids{posted[1], posted[0]});
  check_error(e.search_raw("max_id=abc"), 400, 50035);
}

TEST_CASE(
    "Search Guild Messages: authors, author types, channels, mentions, replies, pinned, has, links, files") {
  Emulator e;
  const auto hello = e.says(e.alice, e.general, "hello <@" + e.bot_id + "> and @everyone");
  const auto link = e.says(e.alice, e.random, "see https://Example.com/page and <@&" + e.guild_id + "1>");
  const auto reply =
      e.post(e.general, R"({"content":"hi","message_reference":{"message_id":")" + hello + R"("}})");
  const auto embed = e.post(e.general, R"({"content":"card","embeds":[{"title":"t","url":"https://x.io"}]})");
  const std::string boundary = "s3arch";
  const auto file = e.bot(
      "POST", "/channels/" + e.general + "/messages",
      "--" + boundary +
          "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"content\":\"map\"}\r\n--" +
          boundary +
          "\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"map.PNG\"\r\n"
          "Content-Type: image/png\r\n\r\nPNGDATA\r\n--" +
          boundary + "--\r\n",
      "multipart/form-data; boundary=" + boundary);
  REQUIRE_MESSAGE(file.status == 200, file.body);
  const auto map = str(parse(file.body)["id"]);
  REQUIRE(e.bot("PUT", "/channels/" + e.general + "/messages/pins/" + hello).status == 204);

  CHECK(e.ids("author_id=" + e.alice) == Ids{link, hello});
  CHECK(e.ids("author_id=" + e.alice + "&author_id=" + e.bot_id).size() == 5);
  CHECK(e.ids("author_type=user") == Ids{link, hello});
  CHECK(e.ids("author_type=-user") == Ids{map, embed, reply});
  CHECK(e.ids("author_type=bot&author_type=user").size() == 5);
  CHECK(e.ids("author_type=webhook").empty());
  check_error(e.search_raw("author_type=robot"), 400, 50035);
  CHECK(e.ids("channel_id=" + e.random) == Ids{link});
  CHECK(e.ids("mentions=" + e.bot_id) == Ids{hello});
  CHECK(e.ids("mentions_role_id=" + e.guild_id + "1") == Ids{link});
  CHECK(e.ids("mention_everyone=true") == Ids{hello});
  CHECK(e.ids("mention_everyone=false").size() == 4);
  CHECK(e.ids("replied_to_message_id=" + hello) == Ids{reply});
  CHECK(e.ids("replied_to_user_id=" + e.alice) == Ids{reply});
  CHECK(e.ids("pinned=true") == Ids{hello});
  CHECK(e.ids("pinned=false").size() == 4);
  check_error(e.search_raw("pinned=maybe"), 400, 50035);
  CHECK(e.ids("has=link") == Ids{link});  // the embed's url is the embed's, not a link in the content
  CHECK(e.ids("has=embed&has=-link") == Ids{embed});
  CHECK(e.ids("has=link&has=embed").size() == 2);
  CHECK(e.ids("has=embed") == Ids{embed});
  CHECK(e.ids("has=file") == Ids{map});
  CHECK(e.ids("has=image") == Ids{map});
  CHECK(e.ids("has=-file").size() == 4);
  CHECK(e.ids("has=sticker").empty());
  check_error(e.search_raw("has=gifs"), 400, 50035);
  CHECK(e.ids("link_hostname=example.com") == Ids{link});
  CHECK(e.ids("attachment_extension=png") == Ids{map});
  CHECK(e.ids("attachment_filename=map.PNG") == Ids{map});
  CHECK(e.ids("attachment_filename=map.png").empty());
  std::string many;
  for (int i = 0; i < 101; ++i)
    many += "&author_id=" + std::to_string(1000 + i);
  check_error(e.search_raw(many.substr(1)), 400, 50035);
  CHECK(e.search_raw(many.substr(1, many.rfind('&') - 1)).status == 200);  // 100
}

TEST_CASE(
    "Search Guild Messages: READ_MESSAGE_HISTORY, the MESSAGE_CONTENT intent, unreadable channels left out") {
  Emulator e;
  const auto seen = e.says(e.alice, e.general, "visible");
  e.says(e.olivia, e.secret, "visible");   // the bot cannot view #secret
  e.says(e.olivia, e.archive, "visible");  // nor read #archive's history
  CHECK(e.ids("content=visible") == Ids{seen});
  CHECK(e.ids("channel_id=" + e.secret).empty());
  // The application's MESSAGE_CONTENT switch off: 403 50001.
  e.call("POST", "/_emulator/apps/" + e.app_id + "/intents", R"({"message_content":false})");
  check_error(e.search_raw(""), 403, 50001);
  e.call("POST", "/_emulator/apps/" + e.app_id + "/intents", R"({"message_content":true})");
  // A guild whose @everyone lacks READ_MESSAGE_HISTORY: 403 50013.
  const auto dim = e.guild(
      e.olivia, "Dim", R"(,"everyone_permissions":")" + std::to_string(kViewChannel | kSendMessages) + "\"");
  e.member(e.bot_id, {}, dim);
  check_error(e.bot("GET", "/guilds/" + dim + "/messages/search"), 403, 50013);
  // Not a member, a user's token, an unknown guild.
  const auto away = e.guild(e.olivia, "Away");
  check_error(e.bot("GET", "/guilds/" + away + "/messages/search"), 403, 50001);
  check_error(e.bot("GET", "/guilds/424242/messages/search"), 404, 10004);
  const auto bearer = "Bearer " + e.token(e.alice, e.app_id);
  check_error(
      e.raw("GET", "/api/v10/guilds/" + e.guild_id + "/messages/search", {}, {{"Authorization", bearer}}),
      403, 50001);
}

TEST_CASE("Search Guild Messages: not yet indexed answers 202 with 110000; the switch survives a restart") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  first.says(first.alice, first.general, "hello");
  first.call("PUT", "/_emulator/guilds/" + first.guild_id + "/search-index",
             R"({"indexed":false,"documents_indexed":7})");
  const auto pending = first.search_raw("content=hello");
  CHECK(pending.status == 202);
  const auto body = parse(pending.body);
  CHECK(body["code"].GetInt() == 110000);
  CHECK(str(body["message"]) == "Index not yet available. Try again later");
  CHECK(body["documents_indexed"].GetInt() == 7);
  CHECK(body["retry_after"].GetInt() == 2);
  check_error(first.raw("PUT", "/_emulator/guilds/424242/search-index", R"({"indexed":false})"), 404, 10004);
  check_error(first.raw("PUT", "/_emulator/guilds/" + first.guild_id + "/search-index", "{}"), 400, 50035);
  mirror.check_complete();

  Emulator restarted(false);
  check_round_trip(mirror.documents(), restarted.service.changes());
  restarted.bot_token = first.bot_token;
  restarted.guild_id = first.guild_id;
  CHECK(restarted.search_raw("content=hello").status == 202);
  StateMirror after(restarted.service.changes());
  restarted.call("PUT", "/_emulator/guilds/" + first.guild_id + "/search-index", R"({"indexed":true})");
  after.check_complete();
  CHECK(after.count("guild_search_index") == 0);
  CHECK(restarted.search("content=hello").second == 1);
}

}  // namespace search_routes_test
