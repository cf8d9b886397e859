// The relationship, guild and channel calls over a stand-in transport (no sockets): what each refuses before
// sending (an empty username, a user id of 0 or the player's own), the route and body of each kind, removing
// both relationships where one may be missing, and the guild and channel lists (malformed entries skipped
// and logged, channels in the desktop client's order).
#include "social/relationship_service.hpp"

#include "api/api_session.hpp"
#include "api_stand_in.hpp"
#include "social/user_directory.hpp"
#include "social/voice_channel_statuses.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace relationship_service_test {

using namespace platformpp;
using platformpp::testing::ApiStandIn;
using social::RelationshipKind;

namespace {

constexpr uint64_t kSelf = 1000;
constexpr uint64_t kBob = 1001;

struct Directory final : social::UserDirectory {
  std::optional<UserHandle> self;
  std::optional<UserHandle> CurrentUser() const override { return self; }
  std::optional<UserHandle> User(uint64_t) const override { return std::nullopt; }
};

struct Plain {
  std::vector<ClientResult> seen;
  std::function<void(ClientResult)> Callback() {
    return [this](ClientResult result) { seen.push_back(std::move(result)); };
  }
};

template <class T>
struct Listed {
  std::vector<std::pair<ClientResult, std::vector<T>>> seen;
  std::function<void(ClientResult, std::vector<T>)> Callback() {
    return [this](ClientResult result, std::vector<T> list) {
      seen.emplace_back(std::move(result), std::move(list));
    };
  }
};

/// Declared after what its callbacks write to: destroying the session ends what is pending into them.
struct Fixture {
  ApiStandIn standIn;
  Directory directory;
  std::vector<std::string> warnings;
  api::ApiSession session{testing::StandInOptions()};
  social::RelationshipService service{session, directory};

  Fixture() {
    session.SetTransportForTesting(standIn.Transport());
    session.Runtime().credentials.Set(AuthorizationTokenType::Bearer, "token");
    session.Log().AddCallback(
        [this](const std::string& line, LoggingSeverity severity) {
          if (severity == LoggingSeverity::Warning) warnings.push_back(line);
        },
        LoggingSeverity::Verbose);
    UserHandle::Data data;
    data.id = kSelf;
    data.username = "player";
    directory.self = UserHandle(std::move(data));
  }
  ~Fixture() { standIn.ShutDown(session); }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;

  void NotFound(std::size_t index) {
    standIn.Answer(index, 404, R"({"code":10070,"message":"Unknown Relationship"})");
  }
};

}  // namespace

TEST_CASE("relationship service: friend requests by name and by id, each kind on its route") {
  Plain sent;
  Fixture f;
  f.service.SendFriendRequest(RelationshipKind::Platform, std::string("  bob  "), sent.Callback());
  f.service.SendFriendRequest(RelationshipKind::Game, std::string("bob"), sent.Callback());
  f.service.SendFriendRequest(RelationshipKind::Platform, kBob, sent.Callback());
  f.service.SendFriendRequest(RelationshipKind::Game, kBob, sent.Callback());
  f.service.Block(kBob, sent.Callback());
  REQUIRE(f.standIn.requests.size() == 5);
  const auto& r = f.standIn.requests;
  CHECK(r[0].method == "POST");
  CHECK(r[0].url == "https://api.test/api/v10/users/@me/relationships");
  CHECK(r[0].body == R"({"username":"bob"})");  // trimmed
  CHECK(r[1].url == "https://api.test/api/v10/users/@me/game-relationships");
  CHECK(r[2].method == "PUT");
  CHECK(r[2].url == "https://api.test/api/v10/users/@me/relationships/1001");
  CHECK(r[2].body == "{}");
  CHECK(r[3].url == "https://api.test/api/v10/users/@me/game-relationships/1001");
  CHECK(r[4].method == "PUT");
  CHECK(r[4].url == "https://api.test/api/v10/users/@me/relationships/1001");
  CHECK(r[4].body == R"({"type":2})");
  for (std::size_t i = 0; i < 5; ++i)
    f.standIn.Answer(i, 204, "", "");
  f.session.RunCallbacks();
  REQUIRE(sent.seen.size() == 5);
  for (const ClientResult& result : sent.seen)
    CHECK(result.Successful());
}

TEST_CASE("relationship service: an unusable name or user id is refused before anything is sent") {
  Plain refused;
  Fixture f;
  f.service.SendFriendRequest(RelationshipKind::Platform, std::string(" \t "), refused.Callback());
  f.service.SendFriendRequest(RelationshipKind::Game, uint64_t{0}, refused.Callback());
  f.service.SendFriendRequest(RelationshipKind::Platform, kSelf, refused.Callback());
  f.service.Remove(RelationshipKind::Game, 0, refused.Callback());
  f.service.Block(kSelf, refused.Callback());
  f.session.RunCallbacks();
  CHECK(f.standIn.requests.empty());
  REQUIRE(refused.seen.size() == 5);
  for (const ClientResult& result : refused.seen)
    CHECK(result.Type() == ErrorType::ValidationError);
  CHECK(refused.seen[0].Error() == "username: must not be empty");
  CHECK(refused.seen[1].Error() == "userId: must not be 0");
  CHECK(refused.seen[2].Error() == "userId: must not be the player's own id");
}

TEST_CASE("relationship service: removing both kinds, where either may be missing") {
  Plain removed;
  Fixture f;
  auto removeBoth = [&](int platformStatus, int gameStatus) {
    std::size_t first = f.standIn.requests.size();
    f.service.RemovePlatformAndGame(kBob, removed.Callback());
    REQUIRE(f.standIn.requests.size() == first + 1);
    CHECK(f.standIn.requests[first].method == "DELETE");
    CHECK(f.standIn.requests[first].url == "https://api.test/api/v10/users/@me/relationships/1001");
    if (platformStatus == 404) {
      f.NotFound(first);
    } else {
      f.standIn.Answer(first, platformStatus, platformStatus == 204 ? "" : R"({"code":0,"message":"boom"})");
    }
    // The game's goes second, whatever the platform's answer was.
    REQUIRE(f.standIn.requests.size() == first + 2);
    CHECK(f.standIn.requests[first + 1].url == "https://api.test/api/v10/users/@me/game-relationships/1001");
    if (gameStatus == 404) {
      f.NotFound(first + 1);
    } else {
      f.standIn.Answer(first + 1, gameStatus, gameStatus == 204 ? "" : R"({"code":0,"message":"boom"})");
    }
    f.session.RunCallbacks();
  };
  removeBoth(204, 204);
  removeBoth(404, 204);  // only a game friend
  removeBoth(204, 404);  // only a platform friend
  removeBoth(404, 404);  // neither: the platform's "no such relationship"
  removeBoth(500, 204);  // a real failure on one side is the result
  removeBoth(204, 500);
  REQUIRE(removed.seen.size() == 6);
  CHECK(removed.seen[0].Successful());
  CHECK(removed.seen[1].Successful());
  CHECK(removed.seen[2].Successful());
  CHECK(removed.seen[3].Status() == 404);
  CHECK(removed.seen[3].ErrorCode() == 10070);
  CHECK(removed.seen[4].Status() == 500);
  CHECK(removed.seen[5].Status() == 500);
}

TEST_CASE("relationship service: guilds and channels skip malformed entries and say how many") {
  Listed<GuildMinimal> guilds;
  Listed<GuildChannel> channels;
  Fixture f;
  f.service.GetUserGuilds(guilds.Callback());
  f.standIn.Answer(0, 200, R"([{"id":"10","name":"Arena"},{"id":"0","name":"zero"},{"name":"no id"}])");
  f.service.GetUserGuilds(guilds.Callback());
  f.standIn.Answer(1, 200, R"({"id":"10"})");
  f.service.GetGuildChannels(0, channels.Callback());
  CHECK(f.standIn.requests.size() == 2);
  f.service.GetGuildChannels(10, channels.Callback());
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(f.standIn.requests[2].url == "https://api.test/api/v10/guilds/10/channels");
  // A voice channel, a category with a text channel in it, a loose text channel and one malformed entry.
  f.standIn.Answer(2, 200,
                   R"([{"id":"21","type":2,"position":0,"name":"voice"},)"
                   R"({"id":"30","type":4,"position":0,"name":"category"},)"
                   R"({"id":"31","type":0,"position":0,"parent_id":"30","name":"in category"},)"
                   R"({"id":"20","type":0,"position":5,"name":"text"},)"
                   R"({"id":"22","name":"no type"}])");
  f.session.RunCallbacks();

  REQUIRE(guilds.seen.size() == 2);
  CHECK(guilds.seen[0].first.Successful());
  REQUIRE(guilds.seen[0].second.size() == 1);
  CHECK(guilds.seen[0].second[0].Id() == 10);
  CHECK(guilds.seen[0].second[0].Name() == "Arena");
  CHECK_FALSE(guilds.seen[1].first.Successful());  // not a list
  REQUIRE(channels.seen.size() == 2);
  CHECK(channels.seen[0].first.Type() == ErrorType::ValidationError);
  CHECK(channels.seen[0].first.Error() == "guildId: must not be 0");
  CHECK(channels.seen[1].first.Successful());
  std::vector<uint64_t> order;
  for (const GuildChannel& channel : channels.seen[1].second)
    order.push_back(channel.Id());
  CHECK(order == std::vector<uint64_t>{20, 21, 30, 31});
  CHECK(f.warnings == std::vector<std::string>{"GetUserGuilds: skipped 2 malformed guilds",
                                               "GetGuildChannels: skipped 1 malformed channels"});
}

TEST_CASE("CHANNEL_INFO: each channel's status; null, empty or not a string is none; junk skipped") {
  json::Document document;
  REQUIRE(json::Parse(R"({"guild_id":"7","channels":[{"id":"1","status":"Ranked"},{"id":"2","status":null},)"
                      R"({"id":"3","status":""},{"id":"4","status":5},{"id":"x","status":"lost"},3,)"
                      R"({"id":"5"}]})",
                      document));
  auto info = social::ParseChannelInfo(document);
  REQUIRE(info);
  CHECK(info->guildId == 7);
  CHECK(info->statuses.size() == 5);  // "x" and the number skipped
  CHECK(info->statuses.at(1) == std::optional<std::string>("Ranked"));
  CHECK_FALSE(info->statuses.at(2));
  CHECK_FALSE(info->statuses.at(3));
  CHECK_FALSE(info->statuses.at(4));
  CHECK_FALSE(info->statuses.at(5));
  for (const char* junk : {R"({"channels":[]})", R"({"guild_id":"g"})", "[]", "null"}) {
    CAPTURE(junk);
    json::Document bad;
    REQUIRE(json::Parse(junk, bad));
    CHECK_FALSE(social::ParseChannelInfo(bad));
  }
  json::Document noChannels;
  REQUIRE(json::Parse(R"({"guild_id":"7","channels":"none"})", noChannels));
  auto empty = social::ParseChannelInfo(noChannels);
  REQUIRE(empty);
  CHECK(empty->statuses.empty());
}

}  // namespace relationship_service_test
