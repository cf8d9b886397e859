// The social store fed recorded Gateway dispatches directly (no sockets): state, callbacks and their order,
// friend groups and their sorting, malformed input.
#include "social/social_store.hpp"
#include "client/client_core.hpp"
#include "social/social_json.hpp"

#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace social_store_test {

using namespace platformpp;

namespace {

constexpr uint64_t kApp = 1234567890123456789ULL;
constexpr uint64_t kSelf = 1000;
constexpr uint64_t kBob = 1001;    // friend, online elsewhere
constexpr uint64_t kAlice = 1002;  // friend, playing the game
constexpr uint64_t kAlso = 1003;   // friend "alice" (same name, other case): sorted after kAlice by id
constexpr uint64_t kZed = 1004;    // friend, offline (invisible)
constexpr uint64_t kSpam = 1005;   // incoming request flagged as spam
constexpr uint64_t kBlocked = 1006;
constexpr uint64_t kGameFriend = 1007;  // game friend only, online elsewhere
constexpr uint64_t kStranger = 1008;    // seen only in a presence

std::string User(uint64_t id, const std::string& username, const std::string& globalName = {}) {
  return R"({"id":")" + std::to_string(id) + R"(","username":")" + username + R"(","global_name":)" +
         (globalName.empty() ? std::string("null") : "\"" + globalName + "\"") +
         R"(,"avatar":null,"discriminator":"0","bot":false,"premium_type":0,"primary_guild":null,)"
         R"("provisional":false})";
}

std::string Relationship(uint64_t id, int type, const std::string& user, bool spam = false) {
  return R"({"id":")" + std::to_string(id) + R"(","type":)" + std::to_string(type) + R"(,"user":)" + user +
         R"(,"since":"2026-11-20T10:00:00.000000+00:00","is_spam_request":)" + (spam ? "true" : "false") +
         R"(,"nickname":null})";
}

std::string GameRelationship(uint64_t id, int type, const std::string& user, uint64_t app = kApp) {
  return R"({"id":")" + std::to_string(id) + R"(","type":)" + std::to_string(type) + R"(,"user":)" + user +
         R"(,"since":"2026-11-20T10:00:00.000000+00:00","application_id":")" + std::to_string(app) + "\"}";
}

std::string Playing(uint64_t app) {
  return R"({"name":"Space Duel","type":0,"state":"In a match","application_id":")" + std::to_string(app) +
         R"(","timestamps":{"start":1732200000000},"party":{"id":"party-1","size":[2,4]}})";
}

std::string Presence(uint64_t id, const std::string& status, const std::string& activities = "[]",
                     const std::string& userExtra = {}) {
  return R"({"user":{"id":")" + std::to_string(id) + "\"" + userExtra + R"(},"status":")" + status +
         R"(","activities":)" + activities + R"(,"client_status":{"desktop":")" + status + "\"}}";
}

std::string Ready() {
  return R"({"v":10,"session_id":"s1","resume_gateway_url":"wss://x","user":{"id":"1000","username":"player",)"
         R"("global_name":"The Player","avatar":null,"discriminator":"0","bot":false,"premium_type":2,)"
         R"("primary_guild":{"identity_guild_id":"5","identity_enabled":true,"tag":"GG","badge":"b"},)"
         R"("provisional":false})"
         R"(,"relationships":[)" +
         Relationship(kBob, 1, User(kBob, "bob")) + "," +
         Relationship(kAlice, 1, User(kAlice, "alice_w", "Alice")) + "," +
         Relationship(kAlso, 1, User(kAlso, "alice")) + "," + Relationship(kZed, 1, User(kZed, "zed")) + "," +
         Relationship(kSpam, 3, User(kSpam, "spammer"), true) + "," +
         Relationship(kBlocked, 2, User(kBlocked, "blocked")) + R"(],"game_relationships":[)" +
         GameRelationship(kGameFriend, 1, User(kGameFriend, "gamer", "Gamer")) + "," +
         GameRelationship(kBob, 1, User(kBob, "bob")) + R"(],"presences":[)" + Presence(kBob, "idle") + "," +
         Presence(kAlice, "online", "[" + Playing(kApp) + "]") + "," +
         Presence(kAlso, "dnd", "[" + Playing(42) + "]") + "," + Presence(kZed, "invisible") + "," +
         Presence(kGameFriend, "online") + "," +
         Presence(kStranger, "online", "[]", R"(,"username":"stranger","avatar":"a_abc")") +
         R"(],"guilds":[{"id":"900","name":"Guild One","banner":"b1","channels":[]},{"id":"901","name":"Two",)"
         R"("banner":null,"channels":[]}],"user_application_profiles":[{"avatar_hash":"h","metadata":"{}",)"
         R"("provider_id":null,"provider_issued_user_id":"ext-1","provider_type":"oidc","username":"ext"}]})";
}

struct Fixture {
  std::unique_ptr<client::ClientCore> core;
  std::vector<std::string> events;  // in delivery order
  std::vector<std::string> warnings;
  int64_t seq = 0;

  Fixture() {
    ClientOptions options;
    options.ipcEnabled = false;
    core = std::make_unique<client::ClientCore>(options);
    core->Runtime().applicationId.store(kApp);
    core->Log().AddCallback(
        [this](std::string message, LoggingSeverity severity) {
          if (severity >= LoggingSeverity::Warning) warnings.push_back(std::move(message));
        },
        LoggingSeverity::Verbose);
    auto& store = Store();
    store.callbacks.created.Set([this](uint64_t id, bool platform) {
      events.push_back("created " + std::to_string(id) + (platform ? " platform" : " game"));
    });
    store.callbacks.deleted.Set([this](uint64_t id, bool platform) {
      events.push_back("deleted " + std::to_string(id) + (platform ? " platform" : " game"));
    });
    store.callbacks.groupsUpdated.Set(
        [this](uint64_t id) { events.push_back("groups " + std::to_string(id)); });
    store.callbacks.userUpdated.Set([this](uint64_t id) { events.push_back("user " + std::to_string(id)); });
  }
  social::SocialStore& Store() { return core->Social(); }
  void Feed(std::string_view type, const std::string& data) {
    Store().OnDispatch(gateway::Dispatch{type, data, ++seq});
  }
  std::vector<std::string> Drain() {
    core->RunCallbacks();
    return std::exchange(events, {});
  }
  std::vector<uint64_t> Group(RelationshipGroupType group) {
    std::vector<uint64_t> ids;
    for (const auto& handle : Store().RelationshipsByGroup(group))
      ids.push_back(handle.Id());
    return ids;
  }
};

using Ids = std::vector<uint64_t>;
using Events = std::vector<std::string>;

}  // namespace

TEST_CASE("before READY the store knows no one") {
  Fixture f;
  CHECK_FALSE(f.Store().CurrentUser());
  CHECK(f.Store().Relationships().empty());
  CHECK_FALSE(f.Store().User(kBob));
  CHECK(f.Store().Relationship(kBob).DiscordRelationshipType() == RelationshipType::None);
}

TEST_CASE("READY loads the player, relationships, presences, profiles and guilds without callbacks") {
  Fixture f;
  f.Feed("READY", Ready());
  CHECK(f.Drain().empty());
  CHECK(f.warnings.empty());

  auto self = f.Store().CurrentUser();
  REQUIRE(self);
  CHECK(self->Id() == kSelf);
  CHECK(self->Username() == "player");
  CHECK(self->DisplayName() == "The Player");
  CHECK(self->PremiumType() == 2);
  CHECK(self->PrimaryGuildTag() == std::optional<std::string>("GG"));

  CHECK(f.Store().Relationships().size() == 7);
  auto bob = f.Store().Relationship(kBob);
  CHECK(bob.DiscordRelationshipType() == RelationshipType::Friend);
  CHECK(bob.GameRelationshipType() == RelationshipType::Friend);
  REQUIRE(bob.User());
  CHECK(bob.User()->Status() == StatusType::Idle);
  CHECK_FALSE(bob.User()->GameActivity());
  auto spam = f.Store().Relationship(kSpam);
  CHECK(spam.DiscordRelationshipType() == RelationshipType::PendingIncoming);
  CHECK(spam.IsSpamRequest());
  CHECK_FALSE(f.Store().Relationship(kBob).IsSpamRequest());
  CHECK(f.Store().Relationship(kBlocked).DiscordRelationshipType() == RelationshipType::Blocked);
  auto gamer = f.Store().Relationship(kGameFriend);
  CHECK(gamer.DiscordRelationshipType() == RelationshipType::None);
  CHECK(gamer.GameRelationshipType() == RelationshipType::Friend);
  CHECK(gamer.User()->Relationship() == RelationshipType::Friend);

  auto alice = f.Store().User(kAlice);
  REQUIRE(alice);
  REQUIRE(alice->GameActivity());
  CHECK(alice->GameActivity()->ApplicationId() == kApp);
  CHECK(alice->GameActivity()->State() == std::optional<std::string>("In a match"));
  // Playing another application is not the game's activity.
  CHECK_FALSE(f.Store().User(kAlso)->GameActivity());
  CHECK(f.Store().User(kAlso)->Status() == StatusType::Dnd);
  // An invisible friend is offline to the player.
  CHECK(f.Store().User(kZed)->Status() == StatusType::Offline);

  auto stranger = f.Store().User(kStranger);
  REQUIRE(stranger);
  CHECK(stranger->Username() == "stranger");
  CHECK(f.Store().Relationship(kStranger).User());
  CHECK(f.Store().Relationship(kStranger).DiscordRelationshipType() == RelationshipType::None);

  auto profiles = f.Store().ApplicationProfiles();
  REQUIRE(profiles.size() == 1);
  CHECK(profiles[0].ProviderType() == "oidc");
  CHECK(profiles[0].ProviderIssuedUserId() == "ext-1");
  CHECK_FALSE(profiles[0].ProviderId());
  CHECK(profiles[0].Metadata() == "{}");
  auto guilds = f.Store().ReadyGuilds();
  REQUIRE(guilds.size() == 2);
  CHECK(guilds[0].Name() == "Guild One");
  CHECK(guilds[0].Banner() == "b1");
  CHECK(guilds[1].Banner().empty());
}

TEST_CASE("friends are grouped and sorted by display name ignoring case, then id") {
  Fixture f;
  f.Feed("READY", Ready());
  // Alice (playing) | alice (dnd, other game), bob (idle), Gamer (game friend) | zed (invisible)
  CHECK(f.Group(RelationshipGroupType::OnlinePlayingGame) == Ids{kAlice});
  CHECK(f.Group(RelationshipGroupType::OnlineElsewhere) == Ids{kAlso, kBob, kGameFriend});
  CHECK(f.Group(RelationshipGroupType::Offline) == Ids{kZed});
  // "Alice" and "alice" compare equal ignoring case: the smaller id first.
  f.Feed("RELATIONSHIP_UPDATE", Relationship(kAlso, 1, User(kAlso, "alice")));
  f.Feed("PRESENCE_UPDATE", Presence(kAlso, "online", "[" + Playing(kApp) + "]"));
  CHECK(f.Group(RelationshipGroupType::OnlinePlayingGame) == Ids{kAlice, kAlso});
  // Requests and blocks are in no group.
  for (auto group : {RelationshipGroupType::OnlinePlayingGame, RelationshipGroupType::OnlineElsewhere,
                     RelationshipGroupType::Offline}) {
    auto ids = f.Group(group);
    CHECK(std::find(ids.begin(), ids.end(), kSpam) == ids.end());
    CHECK(std::find(ids.begin(), ids.end(), kBlocked) == ids.end());
  }
}

TEST_CASE("a friend starting the game moves to OnlinePlayingGame, then the callbacks run") {
  Fixture f;
  f.Feed("READY", Ready());
  std::vector<Ids> seenInCallback;
  f.Store().callbacks.groupsUpdated.Set([&](uint64_t id) {
    f.events.push_back("groups " + std::to_string(id));
    // State is updated before the callback is queued.
    seenInCallback.push_back(f.Group(RelationshipGroupType::OnlinePlayingGame));
  });
  f.Feed("PRESENCE_UPDATE", Presence(kBob, "online", "[" + Playing(kApp) + "]"));
  CHECK(f.Drain() == Events{"groups 1001", "user 1001"});
  REQUIRE(seenInCallback.size() == 1);
  CHECK(seenInCallback[0] == Ids{kAlice, kBob});
  REQUIRE(f.Store().User(kBob)->GameActivity());

  // Same group, new activity details: the user changed, the groups did not.
  f.Feed("PRESENCE_UPDATE", Presence(kBob, "online", "[" + Playing(kApp) + "]"));
  CHECK(f.Drain() == Events{"user 1001"});

  // Going offline: back to Offline.
  f.Feed("PRESENCE_UPDATE", Presence(kBob, "offline"));
  CHECK(f.Drain() == Events{"groups 1001", "user 1001"});
  CHECK(f.Group(RelationshipGroupType::Offline) == Ids{kBob, kZed});
}

TEST_CASE("the application id decides which activity is the game's") {
  Fixture f;
  f.core->Runtime().applicationId.store(0);
  f.Feed("READY", Ready());
  CHECK(f.Group(RelationshipGroupType::OnlinePlayingGame).empty());
  CHECK_FALSE(f.Store().User(kAlice)->GameActivity());
  f.core->Runtime().applicationId.store(42);
  CHECK(f.Group(RelationshipGroupType::OnlinePlayingGame) == Ids{kAlso});
}

TEST_CASE("a new display name re-sorts the group and announces it") {
  Fixture f;
  f.Feed("READY", Ready());
  CHECK(f.Group(RelationshipGroupType::OnlineElsewhere) == Ids{kAlso, kBob, kGameFriend});
  f.Feed("RELATIONSHIP_UPDATE", Relationship(kBob, 1, User(kBob, "bob", "Aaron")));
  CHECK(f.Drain() == Events{"groups 1001", "user 1001"});
  CHECK(f.Group(RelationshipGroupType::OnlineElsewhere) == Ids{kBob, kAlso, kGameFriend});
  CHECK(f.Store().User(kBob)->DisplayName() == "Aaron");
  // The same data again changes nothing.
  f.Feed("RELATIONSHIP_UPDATE", Relationship(kBob, 1, User(kBob, "bob", "Aaron")));
  CHECK(f.Drain().empty());
  // A new avatar is not a new position: the user changed, the groups did not.
  f.Feed("RELATIONSHIP_UPDATE", Relationship(kBob, 1,
                                             R"({"id":"1001","username":"bob","global_name":"Aaron",)"
                                             R"("avatar":"abc"})"));
  CHECK(f.Drain() == Events{"user 1001"});
}

TEST_CASE("a friend request, accepted, removed: created, groups and deleted callbacks") {
  Fixture f;
  f.Feed("READY", Ready());
  constexpr uint64_t kNew = 2000;
  f.Feed("RELATIONSHIP_ADD", Relationship(kNew, 3, User(kNew, "newcomer")));
  CHECK(f.Drain() == Events{"created 2000 platform", "user 2000"});
  CHECK(f.Store().Relationship(kNew).DiscordRelationshipType() == RelationshipType::PendingIncoming);
  f.Feed("RELATIONSHIP_ADD", Relationship(kNew, 1, User(kNew, "newcomer")));
  CHECK(f.Drain() == Events{"created 2000 platform", "groups 2000", "user 2000"});
  CHECK(f.Group(RelationshipGroupType::Offline) == Ids{kNew, kZed});
  // A duplicate (e.g. replayed) ADD is not a new relationship.
  f.Feed("RELATIONSHIP_ADD", Relationship(kNew, 1, User(kNew, "newcomer")));
  CHECK(f.Drain().empty());
  f.Feed("RELATIONSHIP_REMOVE", R"({"id":"2000","type":1})");
  CHECK(f.Drain() == Events{"deleted 2000 platform", "groups 2000", "user 2000"});
  CHECK(f.Store().Relationship(kNew).DiscordRelationshipType() == RelationshipType::None);
  CHECK(f.Group(RelationshipGroupType::Offline) == Ids{kZed});
  // Removing what is not there announces nothing.
  f.Feed("RELATIONSHIP_REMOVE", R"({"id":"2000","type":1})");
  CHECK(f.Drain().empty());
}

TEST_CASE("game relationships: created and deleted with isDiscordRelationshipUpdate false") {
  Fixture f;
  f.Feed("READY", Ready());
  f.Feed("GAME_RELATIONSHIP_ADD", GameRelationship(kSpam, 1, User(kSpam, "spammer")));
  CHECK(f.Drain() == Events{"created 1005 game", "groups 1005", "user 1005"});
  auto handle = f.Store().Relationship(kSpam);
  CHECK(handle.DiscordRelationshipType() == RelationshipType::PendingIncoming);
  CHECK(handle.GameRelationshipType() == RelationshipType::Friend);
  // Another application's game relationship is not this game's.
  f.Feed("GAME_RELATIONSHIP_ADD", GameRelationship(kBlocked, 1, User(kBlocked, "blocked"), 42));
  CHECK(f.Drain().empty());
  CHECK(f.Store().Relationship(kBlocked).GameRelationshipType() == RelationshipType::None);
  f.Feed("GAME_RELATIONSHIP_REMOVE", R"({"id":"1005","application_id":")" + std::to_string(kApp) + "\"}");
  CHECK(f.Drain() == Events{"deleted 1005 game", "groups 1005", "user 1005"});
  // The platform relationship stays.
  CHECK(f.Store().Relationship(kSpam).DiscordRelationshipType() == RelationshipType::PendingIncoming);
  // Removing both platform and game relationships of a friend: two deletions.
  f.Feed("RELATIONSHIP_REMOVE", R"({"id":"1001","type":1})");
  f.Feed("GAME_RELATIONSHIP_REMOVE", R"({"id":"1001","application_id":")" + std::to_string(kApp) + "\"}");
  CHECK(f.Drain() ==
        Events{"deleted 1001 platform", "user 1001", "deleted 1001 game", "groups 1001", "user 1001"});
}

TEST_CASE("USER_UPDATE changes the player") {
  Fixture f;
  f.Feed("READY", Ready());
  f.Feed("USER_UPDATE", User(kSelf, "player", "New Name"));
  CHECK(f.Drain() == Events{"user 1000"});
  CHECK(f.Store().CurrentUser()->DisplayName() == "New Name");
  CHECK_FALSE(f.Store().CurrentUser()->PrimaryGuildTag());
}

TEST_CASE("a later READY announces what changed while the player was away") {
  Fixture f;
  f.Feed("READY", Ready());
  std::string ready = Ready();
  // Zed is no longer a friend; a new friend appeared.
  auto zed = ready.find(Relationship(kZed, 1, User(kZed, "zed")) + ",");
  REQUIRE(zed != std::string::npos);
  ready.replace(zed, Relationship(kZed, 1, User(kZed, "zed")).size() + 1,
                Relationship(3000, 1, User(3000, "fresh")) + ",");
  f.Feed("READY", ready);
  auto events = f.Drain();
  std::sort(events.begin(), events.end());
  CHECK(events ==
        Events{"created 3000 platform", "deleted 1004 platform", "groups 1004", "groups 3000", "user 3000"});
}

TEST_CASE("SearchFriendsByUsername matches a prefix of the username or display name") {
  Fixture f;
  f.Feed("READY", Ready());
  auto ids = [](const std::vector<UserHandle>& users) {
    Ids out;
    for (const auto& u : users)
      out.push_back(u.Id());
    return out;
  };
  CHECK(ids(f.Store().SearchFriends("ALI")) == Ids{kAlice, kAlso});
  CHECK(ids(f.Store().SearchFriends("alice_")) == Ids{kAlice});
  CHECK(ids(f.Store().SearchFriends("gam")) == Ids{kGameFriend});
  CHECK(f.Store().SearchFriends("lice").empty());
  // Not friends: a pending request and a blocked user.
  CHECK(f.Store().SearchFriends("spam").empty());
  CHECK(f.Store().SearchFriends("blocked").empty());
  CHECK(f.Store().SearchFriends("").size() == 5);
}

TEST_CASE("malformed dispatches are skipped with a warning that shows no contents") {
  Fixture f;
  f.Feed("READY", Ready());
  f.warnings.clear();
  auto before = f.Store().Relationships().size();
  f.Feed("RELATIONSHIP_ADD", "{not json secret-payload");
  f.Feed("RELATIONSHIP_ADD", "[1,2]");
  f.Feed("RELATIONSHIP_ADD", R"({"type":1,"user":{"username":"secret-payload"}})");
  f.Feed("RELATIONSHIP_ADD", R"({"id":"77","type":7,"user":)" + User(77, "secret-payload") + "}");
  f.Feed("RELATIONSHIP_ADD", R"({"id":"77","type":"1"})");
  f.Feed("RELATIONSHIP_ADD", R"({"id":"78","type":1,"user":)" + User(79, "secret-payload") + "}");
  f.Feed("RELATIONSHIP_REMOVE", R"({"id":-5})");
  f.Feed("GAME_RELATIONSHIP_REMOVE", R"({"id":{}})");
  f.Feed("PRESENCE_UPDATE", R"({"user":{"id":"1001"},"status":5,"activities":[]})");
  f.Feed("PRESENCE_UPDATE", R"({"user":{"id":"1001"},"status":"online","activities":{}})");
  f.Feed("PRESENCE_UPDATE", R"({"user":"1001","status":"online"})");
  f.Feed("USER_UPDATE", R"({"id":"1000"})");
  f.Feed("READY", "\"secret-payload\"");
  CHECK(f.Drain().empty());  // also delivers the warnings
  CHECK(f.warnings.size() == 13);
  for (const auto& warning : f.warnings)
    CHECK(warning.find("secret-payload") == std::string::npos);
  CHECK(f.Store().Relationships().size() == before);
  CHECK(f.Store().User(kBob)->Status() == StatusType::Idle);
  CHECK(f.Store().CurrentUser()->Username() == "player");

  // A bad activity in a presence is skipped, the rest of the presence is kept.
  f.Feed("PRESENCE_UPDATE", Presence(kBob, "online", R"([{"type":99},)" + Playing(kApp) + "]"));
  CHECK(f.Drain() == Events{"groups 1001", "user 1001"});
  CHECK(f.Store().User(kBob)->GameActivity());

  // Dispatches the store does not keep are not even parsed.
  f.warnings.clear();
  f.Feed("MESSAGE_CREATE", "{not json");
  f.Feed("RELATIONSHIP_ADD", "{not json");
  f.core->RunCallbacks();
  CHECK(f.warnings.size() == 1);
}

TEST_CASE("malformed entries of READY are skipped, the rest is loaded") {
  Fixture f;
  f.Feed("READY", R"({"user":)" + User(kSelf, "player") + R"(,"relationships":[)" +
                      Relationship(kBob, 1, User(kBob, "bob")) +
                      R"(,{"id":"x","type":1},{"id":"5","type":9},7],"presences":[{"user":{}},)" +
                      Presence(kBob, "online") +
                      R"(],"guilds":[{"name":"no id"}],"user_application_profiles":[{}]})");
  CHECK(f.Store().Relationships().size() == 1);
  CHECK(f.Store().User(kBob)->Status() == StatusType::Online);
  CHECK(f.Store().ReadyGuilds().empty());
  CHECK(f.Store().ApplicationProfiles().empty());
  f.core->RunCallbacks();
  REQUIRE(f.warnings.size() == 1);
  CHECK(f.warnings[0].find("skipped 6") != std::string::npos);
}

TEST_CASE("a guild tag is 1 to 4 characters") {
  json::Document d;
  auto tag = [&](const std::string& value) {
    REQUIRE(json::Parse(R"({"id":"1","username":"u","primary_guild":{"tag":)" + value + "}}", d));
    auto user = social::ParseUser(d);
    REQUIRE(user);
    return user->primaryGuildTag;
  };
  CHECK(tag("\"ABCD\"") == "ABCD");
  CHECK(tag("\"ABCDE\"").empty());
  CHECK(tag("\"A\"") == "A");
  CHECK(tag("\"\"").empty());
  CHECK(tag("\"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\"") == "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9");  // 4 code points
  CHECK(tag("null").empty());
}

TEST_CASE("status as the player sees it") {
  CHECK(social::StatusFromWire("invisible", false) == StatusType::Offline);
  CHECK(social::StatusFromWire("invisible", true) == StatusType::Invisible);
  CHECK(social::StatusFromWire("streaming?", false) == StatusType::Offline);
  CHECK(social::StatusFromWire("streaming?", true) == StatusType::Unknown);
  CHECK(social::StatusFromWire("dnd", false) == StatusType::Dnd);
  CHECK(social::StatusFromWire("idle", false) == StatusType::Idle);
}

TEST_CASE("avatar URLs") {
  UserHandle::Data data;
  data.id = 80351110224678912ULL;
  data.avatar = "8342729096ea3675442027381ff50dfe";
  UserHandle user(data);
  CHECK(user.AvatarUrl(UserHandle::AvatarType::Gif, UserHandle::AvatarType::Png) ==
        "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png");
  data.avatar = "a_8342729096ea3675442027381ff50dfe";
  CHECK(UserHandle(data).AvatarUrl(UserHandle::AvatarType::Gif, UserHandle::AvatarType::Png) ==
        "https://cdn.discordapp.com/avatars/80351110224678912/a_8342729096ea3675442027381ff50dfe.gif");
  CHECK(UserHandle(data).AvatarUrl(UserHandle::AvatarType::Webp, UserHandle::AvatarType::Png) ==
        "https://cdn.discordapp.com/avatars/80351110224678912/a_8342729096ea3675442027381ff50dfe.webp");
  data.avatar.clear();
  // (80351110224678912 >> 22) % 6 == 19157197529 % 6 == 5
  CHECK(UserHandle(data).AvatarUrl(UserHandle::AvatarType::Gif, UserHandle::AvatarType::Png) ==
        "https://cdn.discordapp.com/embed/avatars/5.png");
  CHECK(UserHandle::AvatarTypeToString(UserHandle::AvatarType::Jpeg) == "jpg");
}

TEST_CASE("guild channels are sorted as the desktop client lists them") {
  json::Document d;
  REQUIRE(json::Parse(R"([
    {"id":"10","type":4,"name":"B-category","position":2,"parent_id":null},
    {"id":"11","type":0,"name":"b-text","position":0,"parent_id":"10"},
    {"id":"12","type":2,"name":"b-voice","position":0,"parent_id":"10"},
    {"id":"20","type":4,"name":"A-category","position":1,"parent_id":null},
    {"id":"22","type":0,"name":"a-second","position":5,"parent_id":"20"},
    {"id":"21","type":0,"name":"a-first","position":5,"parent_id":"20"},
    {"id":"23","type":0,"name":"a-zeroth","position":1,"parent_id":"20"},
    {"id":"30","type":0,"name":"top","position":9,"parent_id":null},
    {"id":"31","type":2,"name":"top-voice","position":0,"parent_id":null},
    {"id":"40","type":0,"name":"orphan","position":3,"parent_id":"999"},
    {"name":"malformed"}
  ])",
                      d));
  std::vector<GuildChannel> channels;
  for (const auto& item : d.GetArray()) {
    if (auto channel = social::ParseChannel(item)) channels.push_back(*channel);
  }
  REQUIRE(channels.size() == 10);
  social::SortChannels(channels);
  std::vector<uint64_t> ids;
  ids.reserve(channels.size());
  for (const auto& channel : channels)
    ids.push_back(channel.Id());
  CHECK(ids == std::vector<uint64_t>{40, 30, 31, 20, 23, 21, 22, 10, 11, 12});
  CHECK(channels[4].ParentCategoryId() == std::optional<uint64_t>(20));
  CHECK_FALSE(channels[3].ParentCategoryId());
}

TEST_CASE("callbacks replaced or cleared before delivery") {
  Fixture f;
  f.Feed("READY", Ready());
  f.Store().callbacks.userUpdated.Set(nullptr);
  f.Store().callbacks.groupsUpdated.Set(nullptr);
  f.Feed("PRESENCE_UPDATE", Presence(kBob, "offline"));
  CHECK(f.Drain().empty());
  int calls = 0;
  f.Store().callbacks.userUpdated.Set([&](uint64_t) { ++calls; });
  f.Feed("PRESENCE_UPDATE", Presence(kBob, "online"));
  f.Store().callbacks.userUpdated.Set([&](uint64_t) { calls += 10; });
  f.core->RunCallbacks();
  CHECK(calls == 10);
}

TEST_CASE("Client relationship and guild calls refused before anything is sent") {
  ClientOptions options;
  options.ipcEnabled = false;
  options.apiBase = "https://127.0.0.1:9/api/v10";  // nothing listens: a sent request would be a NetworkError
  Client client(options);
  std::vector<ClientResult> results;
  auto record = [&](ClientResult result) { results.push_back(std::move(result)); };
  auto wait = [&](std::size_t count) {
    for (int i = 0; i < 10000 && results.size() < count; ++i) {
      client.RunCallbacks();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(results.size() == count);
  };
  // No token yet.
  client.SendDiscordFriendRequestById(5, record);
  client.RemoveDiscordAndGameFriend(5, record);
  wait(2);
  CHECK(results[0].Type() == ErrorType::ClientNotReady);
  CHECK(results[1].Type() == ErrorType::ClientNotReady);
  results.clear();

  bool updated = false;
  client.UpdateToken(AuthorizationTokenType::Bearer, "token", [&](const ClientResult&) { updated = true; });
  client.SendDiscordFriendRequest("", record);
  client.SendGameFriendRequest(" \t", record);
  client.AcceptDiscordFriendRequest(0, record);
  client.BlockUser(0, record);
  client.RemoveDiscordAndGameFriend(0, record);
  wait(5);
  for (const auto& result : results)
    CHECK(result.Type() == ErrorType::ValidationError);
  CHECK(results[0].Error().find("username") != std::string::npos);
  CHECK(results[2].Error().find("userId") != std::string::npos);
  CHECK(updated);

  std::optional<ClientResult> channels;
  client.GetGuildChannels(
      0, [&](const ClientResult& result, const std::vector<GuildChannel>&) { channels = result; });
  for (int i = 0; i < 2000 && !channels; ++i) {
    client.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  REQUIRE(channels);
  CHECK(channels->Type() == ErrorType::ValidationError);

  // A username of one character is checked by the platform, not refused here: the request is sent (and
  // fails to connect).
  results.clear();
  client.SendDiscordFriendRequest("x", record);
  wait(1);
  CHECK(results[0].Type() == ErrorType::NetworkError);
}

}  // namespace social_store_test
