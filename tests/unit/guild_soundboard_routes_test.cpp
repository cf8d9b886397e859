// BackendClient's soundboard routes against the HTTP stand-in: the default and guild sound lists, a sound's
// create (the file as a base64 data URI), modify, delete and send, with the bot's Authorization and
// X-Audit-Log-Reason; every limit of CheckSoundChanges crossed by one (name 2..32, volume 0..1, 512 KiB, the
// MIME types); error answers mapped into ClientResult; and ParseSoundboardSound on the docs' sound and junk.
#include "backend_stand_in.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/guild_soundboard.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace guild_soundboard_routes_test {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::HeaderOf;

namespace {

const std::string kApi = "https://api.test/api/v10";
const std::string kSounds = kApi + "/guilds/3003/soundboard-sounds";

// The platform's example sounds (developers/resources/soundboard.mdx).
const char* const kDefaultSound =
    R"({"name":"quack","sound_id":"1","volume":1.0,"emoji_id":null,"emoji_name":"🦆","available":true})";
const char* const kGuildSound =
    R"({"name":"Yay","sound_id":"1106714396018884649","volume":1,"emoji_id":"989193655938064464",)"
    R"("emoji_name":null,"guild_id":"613425648685547541","available":true,)"
    R"("user":{"id":"53908232506183680","username":"Mason"}})";

using Paths = std::vector<std::string>;

// What the calls answered: a base before the client, so that calls still pending when the client goes
// (ended by its shutdown) find them alive.
struct Answers {
  std::vector<ClientResult> results;
  std::vector<SoundboardSound> sounds;
};

struct Fixture : Answers, platformpp::testing::BackendOnStandIn {
  BackendClient::SoundCallback KeepSound() {
    return [this](ClientResult r, SoundboardSound sound) {
      results.push_back(std::move(r));
      sounds.push_back(std::move(sound));
    };
  }
  BackendClient::ResultCallback Keep() {
    return [this](ClientResult r) { results.push_back(std::move(r)); };
  }
};

SoundChanges NewSound(std::size_t bytes = 3, std::string type = "audio/ogg") {
  SoundChanges changes;
  changes.name = "quack";
  changes.sound = std::string(bytes, 'O');
  changes.soundMimeType = std::move(type);
  return changes;
}

Paths Broken(const SoundChanges& changes, bool creating) {
  Paths paths;
  for (const auto& error : CheckSoundChanges(changes, creating))
    paths.push_back(error.path);
  return paths;
}

}  // namespace

TEST_CASE("ParseSoundboardSound: the docs' default and guild sounds; junk refused") {
  auto quack = ParseSoundboardSound(kDefaultSound);
  REQUIRE(quack);
  CHECK(quack->name == "quack");
  CHECK(quack->soundId == 1);
  CHECK(quack->volume == 1.0);
  CHECK(quack->emojiId == 0);
  CHECK(quack->emojiName == "🦆");
  CHECK(quack->guildId == 0);
  CHECK_FALSE(quack->user);
  auto yay = ParseSoundboardSound(kGuildSound);
  REQUIRE(yay);
  CHECK(yay->soundId == 1106714396018884649ULL);
  CHECK(yay->emojiId == 989193655938064464ULL);
  CHECK(yay->guildId == 613425648685547541ULL);
  REQUIRE(yay->user);
  CHECK(yay->user->username == "Mason");
  for (const char* junk : {"", "null", "[]", "7", "{", "\xff"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseSoundboardSound(junk));
  }
  auto odd = ParseSoundboardSound(R"({"name":1,"volume":"loud","available":"no","sound_id":"x"})");
  REQUIRE(odd);
  CHECK(odd->name.empty());
  CHECK(odd->volume == 1.0);
  CHECK(odd->available);
  CHECK(odd->soundId == 0);
}

TEST_CASE("Soundboard routes: lists, get, create as a data URI, modify, delete, send; answers read") {
  std::vector<std::vector<SoundboardSound>> lists;
  Fixture f;
  auto keepList = [&](ClientResult r, std::vector<SoundboardSound> sounds) {
    f.results.push_back(std::move(r));
    lists.push_back(std::move(sounds));
  };
  f.backend.ListDefaultSoundboardSounds(keepList);
  f.backend.ListGuildSoundboardSounds(3003, keepList);
  f.backend.GetGuildSoundboardSound(3003, 42, f.KeepSound());
  SoundChanges create = NewSound();
  create.sound = "hi!?";  // base64 "aGkhPw==": padding
  create.volume = 0.5;
  create.emojiName = "🦆";
  f.backend.CreateGuildSoundboardSound(3003, create, f.KeepSound(), "for the raid night");
  SoundChanges modify;
  modify.name = "honk";
  modify.emojiId = 0;
  modify.emojiName = "";
  f.backend.ModifyGuildSoundboardSound(3003, 42, modify, f.KeepSound());
  f.backend.DeleteGuildSoundboardSound(3003, 42, f.Keep(), "too loud");
  f.backend.SendSoundboardSound(500, 1, std::nullopt, f.Keep());
  f.backend.SendSoundboardSound(500, 42, 4004, f.Keep());
  const auto& r = f.standIn.requests;
  REQUIRE(r.size() == 8);
  CHECK(r[0].method == "GET");
  CHECK(r[0].url == kApi + "/soundboard-default-sounds");
  CHECK(r[1].url == kSounds);
  CHECK(r[2].url == kSounds + "/42");
  CHECK(r[3].method == "POST");
  CHECK(r[3].url == kSounds);
  CHECK(r[3].body ==
        R"({"name":"quack","sound":"data:audio/ogg;base64,aGkhPw==","volume":0.5,"emoji_name":"🦆"})");
  CHECK(HeaderOf(r[3], "X-Audit-Log-Reason") == "for%20the%20raid%20night");
  CHECK(r[4].method == "PATCH");
  CHECK(r[4].url == kSounds + "/42");
  CHECK(r[4].body == R"({"name":"honk","emoji_id":null,"emoji_name":null})");
  CHECK(HeaderOf(r[4], "X-Audit-Log-Reason").empty());
  CHECK(r[5].method == "DELETE");
  CHECK(r[5].url == kSounds + "/42");
  CHECK(HeaderOf(r[5], "X-Audit-Log-Reason") == "too%20loud");
  CHECK(r[6].method == "POST");
  CHECK(r[6].url == kApi + "/channels/500/send-soundboard-sound");
  CHECK(r[6].body == R"({"sound_id":"1"})");
  CHECK(r[7].body == R"({"sound_id":"42","source_guild_id":"4004"})");
  for (const auto& request : r)
    CHECK(HeaderOf(request, "Authorization") == "Bot bot-secret");
  f.standIn.Answer(0, 200, std::string("[") + kDefaultSound + "]");
  f.standIn.Answer(1, 200, std::string(R"({"items":[)") + kGuildSound + "," + kGuildSound + "]}");
  f.standIn.Answer(2, 404, R"({"code":10097,"message":"Unknown Sound"})");
  f.standIn.Answer(3, 400,
                   R"json({"code":30045,"message":"Maximum number of soundboard sounds reached (8)"})json");
  f.standIn.Answer(4, 200, kGuildSound);
  f.standIn.Answer(5, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.standIn.Answer(6, 204, "", "");
  f.standIn.Answer(7, 200, R"({"items":"nope"})");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 8);
  REQUIRE(lists.size() == 2);
  CHECK(f.results[0].Successful());
  REQUIRE(lists[0].size() == 1);
  CHECK(lists[0][0].name == "quack");
  CHECK(lists[1].size() == 2);
  CHECK(f.results[2].ErrorCode() == 10097);
  CHECK(f.results[3].ErrorCode() == 30045);
  CHECK(f.results[4].Successful());
  CHECK(f.sounds[2].name == "Yay");
  CHECK(f.results[5].ErrorCode() == 50013);
  CHECK(f.results[6].Successful());
  CHECK(f.results[7].Successful());  // send answers nothing the SDK reads
}

TEST_CASE("SoundChanges: name 2..32, volume 0..1, 512 KiB, the MIME types, each crossed by one") {
  CHECK(Broken(NewSound(), true).empty());
  auto named = [](std::string name) {
    SoundChanges c = NewSound();
    c.name = std::move(name);
    return c;
  };
  CHECK(Broken(named("ab"), true).empty());
  CHECK(Broken(named("a"), true) == Paths{"name"});
  CHECK(Broken(named(std::string(32, 'n')), true).empty());
  CHECK(Broken(named(std::string(33, 'n')), true) == Paths{"name"});
  CHECK(Broken(named("\xC3\xA9\xC3\xA9"), true).empty());  // 2 characters, 4 bytes
  auto volume = [](double v) {
    SoundChanges c;
    c.volume = v;
    return c;
  };
  CHECK(Broken(volume(0.0), false).empty());
  CHECK(Broken(volume(1.0), false).empty());
  CHECK(Broken(volume(1.0001), false) == Paths{"volume"});
  CHECK(Broken(volume(-0.0001), false) == Paths{"volume"});
  CHECK(Broken(volume(std::numeric_limits<double>::quiet_NaN()), false) == Paths{"volume"});
  CHECK(Broken(NewSound(std::size_t{512} * 1024), true).empty());
  CHECK(Broken(NewSound(std::size_t{512} * 1024 + 1), true) == Paths{"sound"});
  CHECK(Broken(NewSound(0), true) == Paths{"sound"});
  CHECK(Broken(NewSound(3, "audio/mpeg"), true).empty());
  CHECK(Broken(NewSound(3, "audio/mp3"), true).empty());
  CHECK(Broken(NewSound(3, "audio/wav"), true) == Paths{"sound"});
  CHECK(Broken(NewSound(3, ""), true) == Paths{"sound"});
  // Create needs a name and a sound; modify takes no sound.
  CHECK(Broken(SoundChanges{}, true) == Paths{"name", "sound", "sound"});
  CHECK(Broken(SoundChanges{}, false).empty());
  CHECK(Broken(NewSound(), false) == Paths{"sound"});
}

TEST_CASE("Soundboard calls: a broken change or a 0 id is never sent") {
  Fixture f;
  f.backend.CreateGuildSoundboardSound(3003, NewSound(std::size_t{512} * 1024 + 1), f.KeepSound());
  f.backend.ModifyGuildSoundboardSound(3003, 42, NewSound(), f.KeepSound());
  f.backend.GetGuildSoundboardSound(0, 0, f.KeepSound());
  f.backend.SendSoundboardSound(0, 0, 0, f.Keep());
  f.backend.RunCallbacks();
  CHECK(f.standIn.requests.empty());
  REQUIRE(f.results.size() == 4);
  for (const auto& result : f.results)
    CHECK(result.Type() == ErrorType::ValidationError);
  auto paths = [&](std::size_t i) {
    Paths out;
    for (const auto& error : f.results[i].FieldErrors())
      out.push_back(error.path);
    return out;
  };
  CHECK(paths(0) == Paths{"sound"});
  CHECK(paths(1) == Paths{"sound"});
  CHECK(paths(2) == Paths{"guildId", "soundId"});
  CHECK(paths(3) == Paths{"channelId", "sound_id", "source_guild_id"});
}

}  // namespace guild_soundboard_routes_test
