// BackendClient's application emoji routes against the HTTP stand-in: /applications/{app}/emojis... on
// BackendOptions::applicationId with the bot's Authorization, the image as a base64 data URI, a rename's
// body; CheckEmoji's rules crossed by one (name 2..32 of [A-Za-z0-9_], 256 KiB, the image types); the
// 2000-emoji refusal and other errors mapped into ClientResult; ParseEmoji on the docs' emoji and on junk.
#include "backend_stand_in.hpp"

#include <platformpp/application_emoji.hpp>
#include <platformpp/backend.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace application_emoji_test {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::HeaderOf;

namespace {

const std::string kEmojis = "https://api.test/api/v10/applications/2002/emojis";

// The platform's example emoji (developers/resources/emoji.mdx, "Emoji Example").
const char* const kDocsEmoji = R"({
  "id": "41771983429993937",
  "name": "LUL",
  "roles": ["41771983429993000", "41771983429993111"],
  "user": {"username": "Luigi", "discriminator": "0002", "id": "96008815106887111",
           "avatar": "5500909a3274e1812beb4e8de6631111", "public_flags": 131328},
  "require_colons": true,
  "managed": false,
  "animated": false
})";

using Paths = std::vector<std::string>;

// What the calls answered: a base before the client, so that calls still pending when the client goes
// (ended by its shutdown) find them alive.
struct Answers {
  std::vector<ClientResult> results;
  std::vector<Emoji> emojis;
};

struct Fixture : Answers, platformpp::testing::BackendOnStandIn {
  using BackendOnStandIn::BackendOnStandIn;
  BackendClient::EmojiCallback KeepEmoji() {
    return [this](ClientResult r, Emoji emoji) {
      results.push_back(std::move(r));
      emojis.push_back(std::move(emoji));
    };
  }
};

EmojiChanges NewEmoji(std::size_t bytes = 4, std::string type = "image/png") {
  EmojiChanges changes;
  changes.name = "gg_wp";
  changes.image = std::string(bytes, 'P');
  changes.imageMimeType = std::move(type);
  return changes;
}

Paths Broken(const EmojiChanges& changes, bool creating) {
  Paths paths;
  for (const auto& error : CheckEmoji(changes, creating))
    paths.push_back(error.path);
  return paths;
}

}  // namespace

TEST_CASE("ParseEmoji: the docs' emoji; junk refused; wrong types keep defaults") {
  auto emoji = ParseEmoji(kDocsEmoji);
  REQUIRE(emoji);
  CHECK(emoji->id == 41771983429993937ULL);
  CHECK(emoji->name == "LUL");
  CHECK(emoji->roles == std::vector<uint64_t>{41771983429993000ULL, 41771983429993111ULL});
  REQUIRE(emoji->user);
  CHECK(emoji->user->username == "Luigi");
  CHECK(emoji->requireColons);
  CHECK_FALSE(emoji->managed);
  CHECK_FALSE(emoji->animated);
  CHECK(emoji->available);
  for (const char* junk : {"", "null", "[]", "7", "{", "\xff"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseEmoji(junk));
  }
  auto odd = ParseEmoji(R"({"id":"x","name":null,"roles":["1","y",2],"animated":"yes","available":false})");
  REQUIRE(odd);
  CHECK(odd->id == 0);
  CHECK(odd->name.empty());
  CHECK(odd->roles == std::vector<uint64_t>{1, 2});
  CHECK_FALSE(odd->animated);
  CHECK_FALSE(odd->available);
}

TEST_CASE("Application emoji routes: list, get, create as a data URI, rename, delete; answers read") {
  std::vector<Emoji> listed;
  Fixture f;
  f.backend.ListApplicationEmojis([&](ClientResult r, std::vector<Emoji> emojis) {
    f.results.push_back(std::move(r));
    listed = std::move(emojis);
  });
  f.backend.GetApplicationEmoji(41771983429993937ULL, f.KeepEmoji());
  EmojiChanges create = NewEmoji();
  create.image = "\x89PNG";  // base64 "iVBORw==": padding
  f.backend.CreateApplicationEmoji(create, f.KeepEmoji());
  EmojiChanges rename;
  rename.name = "LUL_2";
  f.backend.ModifyApplicationEmoji(41771983429993937ULL, rename, f.KeepEmoji());
  f.backend.DeleteApplicationEmoji(41771983429993937ULL,
                                   [&](ClientResult r) { f.results.push_back(std::move(r)); });
  const auto& r = f.standIn.requests;
  REQUIRE(r.size() == 5);
  CHECK(r[0].method == "GET");
  CHECK(r[0].url == kEmojis);
  CHECK(r[1].url == kEmojis + "/41771983429993937");
  CHECK(r[2].method == "POST");
  CHECK(r[2].url == kEmojis);
  CHECK(r[2].body == R"({"name":"gg_wp","image":"data:image/png;base64,iVBORw=="})");
  CHECK(r[3].method == "PATCH");
  CHECK(r[3].url == kEmojis + "/41771983429993937");
  CHECK(r[3].body == R"({"name":"LUL_2"})");
  CHECK(r[4].method == "DELETE");
  for (const auto& request : r) {
    CHECK(HeaderOf(request, "Authorization") == "Bot bot-secret");
    CHECK(HeaderOf(request, "X-Audit-Log-Reason").empty());
  }
  f.standIn.Answer(0, 200, std::string(R"({"items":[)") + kDocsEmoji + "]}");
  f.standIn.Answer(1, 404, R"({"code":10014,"message":"Unknown Emoji"})");
  // The 2000th emoji is the last: the platform refuses the next one.
  f.standIn.Answer(2, 400, R"json({"code":30008,"message":"Maximum number of emojis reached (2000)"})json");
  f.standIn.Answer(3, 200, kDocsEmoji);
  f.standIn.Answer(4, 204, "", "");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 5);
  CHECK(f.results[0].Successful());
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].name == "LUL");
  CHECK(f.results[1].ErrorCode() == 10014);
  CHECK(f.results[2].Status() == 400);
  CHECK(f.results[2].ErrorCode() == 30008);
  CHECK(f.emojis[1].id == 0);  // a default emoji on failure
  CHECK(f.results[3].Successful());
  CHECK(f.emojis[2].id == 41771983429993937ULL);
  CHECK(f.results[4].Successful());
}

TEST_CASE("CheckEmoji: name 2..32 of [A-Za-z0-9_], image 256 KiB and its types, each crossed by one") {
  CHECK(Broken(NewEmoji(), true).empty());
  auto named = [](std::string name) {
    EmojiChanges c = NewEmoji();
    c.name = std::move(name);
    return c;
  };
  CHECK(Broken(named("ab"), true).empty());
  CHECK(Broken(named("a"), true) == Paths{"name"});
  CHECK(Broken(named(std::string(32, 'A')), true).empty());
  CHECK(Broken(named(std::string(33, 'A')), true) == Paths{"name"});
  CHECK(Broken(named("Az09_"), true).empty());
  CHECK(Broken(named("gg-wp"), true) == Paths{"name"});
  CHECK(Broken(named("gg wp"), true) == Paths{"name"});
  CHECK(Broken(named("caf\xC3\xA9"), true) == Paths{"name"});
  CHECK(Broken(NewEmoji(std::size_t{256} * 1024), true).empty());
  CHECK(Broken(NewEmoji(std::size_t{256} * 1024 + 1), true) == Paths{"image"});
  CHECK(Broken(NewEmoji(0), true) == Paths{"image"});
  for (const char* type : {"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"}) {
    CAPTURE(type);
    CHECK(Broken(NewEmoji(4, type), true).empty());
  }
  CHECK(Broken(NewEmoji(4, "image/bmp"), true) == Paths{"image"});
  CHECK(Broken(NewEmoji(4, "image/svg+xml"), true) == Paths{"image"});
  // Create needs both; a rename needs the name and takes no image.
  CHECK(Broken(EmojiChanges{}, true) == Paths{"name", "image", "image"});
  EmojiChanges rename;
  rename.name = "ok_name";
  CHECK(Broken(rename, false).empty());
  CHECK(Broken(EmojiChanges{}, false) == Paths{"name"});
  CHECK(Broken(NewEmoji(), false) == Paths{"image"});
}

TEST_CASE(
    "Application emoji calls: nothing sent without an application id, a 0 emoji id or a broken change") {
  Fixture f("bot-secret", 0);
  f.backend.ListApplicationEmojis(
      [&](const ClientResult& r, const std::vector<Emoji>&) { f.results.push_back(r); });
  f.backend.CreateApplicationEmoji(NewEmoji(std::size_t{256} * 1024 + 1), f.KeepEmoji());
  f.backend.GetApplicationEmoji(0, f.KeepEmoji());
  f.backend.RunCallbacks();
  CHECK(f.standIn.requests.empty());
  REQUIRE(f.results.size() == 3);
  auto paths = [&](std::size_t i) {
    Paths out;
    for (const auto& error : f.results[i].FieldErrors())
      out.push_back(error.path);
    return out;
  };
  CHECK(f.results[0].Type() == ErrorType::ValidationError);
  CHECK(paths(0) == Paths{"applicationId"});
  CHECK(paths(1) == Paths{"applicationId", "image"});
  CHECK(paths(2) == Paths{"applicationId", "emojiId"});
}

}  // namespace application_emoji_test
