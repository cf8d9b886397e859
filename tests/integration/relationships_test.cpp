// Relationships against the emulator: two players A and B, each with a Client connected to the Gateway.
// Requests go over HTTP; both sides see the change through their Gateway dispatches
// (docs/social-protocol.md).
#include "emulator_fixture.hpp"

#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace relationships_test {

namespace {

using platformpp::Client;
using platformpp::ClientResult;
using platformpp::ErrorType;
using platformpp::RelationshipType;
using namespace std::chrono_literals;

struct Player {
  platformpp::testkit::EmulatorAdmin::User user;
  std::string token;
  std::unique_ptr<Client> client;
  std::vector<std::pair<uint64_t, bool>> created, deleted;
  std::vector<uint64_t> groupsUpdated;

  uint64_t Id() const { return user.id; }
  RelationshipType Platform(uint64_t other) const {
    return client->GetRelationshipHandle(other).DiscordRelationshipType();
  }
  RelationshipType Game(uint64_t other) const {
    return client->GetRelationshipHandle(other).GameRelationshipType();
  }
};

std::string UniqueName(const std::string& base) {
  static std::atomic<int> counter{0};
  return base + std::to_string(counter++);
}

/// A new user with a Client that is Ready (unless `connect` is false: then it only has its token).
std::unique_ptr<Player> NewPlayer(const std::string& base, bool connect = true) {
  auto& e = itest::Shared();
  auto player = std::make_unique<Player>();
  player->user = e.admin->CreateUser(UniqueName(base));
  player->token = e.admin->MintToken(player->user.id, e.app.id, "openid sdk.social_layer").accessToken;
  player->client = std::make_unique<Client>(e.Options());
  Client& client = *player->client;
  client.SetApplicationId(e.app.id);
  Player* p = player.get();
  client.SetRelationshipCreatedCallback(
      [p](uint64_t id, bool platform) { p->created.emplace_back(id, platform); });
  client.SetRelationshipDeletedCallback(
      [p](uint64_t id, bool platform) { p->deleted.emplace_back(id, platform); });
  client.SetRelationshipGroupsUpdatedCallback([p](uint64_t id) { p->groupsUpdated.push_back(id); });
  bool updated = false;
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, player->token,
                     [&](const ClientResult& result) { updated = result.Successful(); });
  REQUIRE(itest::RunUntil(client, [&] { return updated; }));
  if (connect) {
    client.Connect();
    REQUIRE(itest::RunUntil(
        client, [&] { return client.GetStatus() == Client::Status::Ready; }, 20s));
  }
  return player;
}

/// Runs both Clients' callbacks until `done()`.
bool RunBoth(Player& a, Player& b, const std::function<bool()>& done,
             std::chrono::milliseconds timeout = 10s) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    a.client->RunCallbacks();
    b.client->RunCallbacks();
    std::this_thread::sleep_for(200us);
  }
  return true;
}

/// Starts an operation with a callback and waits for its result.
template <class Start>
ClientResult Await(Player& player, Start start) {
  auto out = std::make_shared<std::optional<ClientResult>>();
  start([out](ClientResult result) { *out = std::move(result); });
  bool done = itest::RunUntil(
      *player.client, [&] { return out->has_value(); }, 20s);
  REQUIRE(done);
  return **out;
}

bool Contains(const std::vector<std::pair<uint64_t, bool>>& events, uint64_t id, bool platform) {
  for (const auto& event : events) {
    if (event == std::make_pair(id, platform)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a friend request by username, seen by both, accepted, then removed") {
  auto a = NewPlayer("rel_a");
  auto b = NewPlayer("rel_b");
  auto sent = Await(*a, [&](auto cb) { a->client->SendDiscordFriendRequest(b->user.username, cb); });
  REQUIRE(sent.Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return a->Platform(b->Id()) == RelationshipType::PendingOutgoing &&
           b->Platform(a->Id()) == RelationshipType::PendingIncoming && Contains(b->created, a->Id(), true);
  }));
  auto incoming = b->client->GetRelationshipHandle(a->Id());
  REQUIRE(incoming.User());
  CHECK(incoming.User()->Username() == a->user.username);
  CHECK_FALSE(incoming.IsSpamRequest());
  // Requests are in no friends group.
  CHECK(b->client->GetRelationshipsByGroup(platformpp::RelationshipGroupType::Offline).empty());
  CHECK(b->client->GetRelationshipsByGroup(platformpp::RelationshipGroupType::OnlineElsewhere).empty());

  b->created.clear();
  auto accepted = Await(*b, [&](auto cb) { b->client->AcceptDiscordFriendRequest(a->Id(), cb); });
  REQUIRE(accepted.Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return a->Platform(b->Id()) == RelationshipType::Friend &&
           b->Platform(a->Id()) == RelationshipType::Friend && Contains(b->created, a->Id(), true) &&
           Contains(a->created, b->Id(), true);
  }));
  // A is a friend now, in one of the groups (online: both are connected).
  std::size_t grouped = 0;
  for (auto group :
       {platformpp::RelationshipGroupType::OnlinePlayingGame,
        platformpp::RelationshipGroupType::OnlineElsewhere, platformpp::RelationshipGroupType::Offline}) {
    for (const auto& handle : b->client->GetRelationshipsByGroup(group))
      grouped += handle.Id() == a->Id() ? 1 : 0;
  }
  CHECK(grouped == 1);
  CHECK(b->client->SearchFriendsByUsername(a->user.username.substr(0, 4)).size() == 1);

  auto removed = Await(*a, [&](auto cb) { a->client->RemoveDiscordAndGameFriend(b->Id(), cb); });
  REQUIRE(removed.Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return a->Platform(b->Id()) == RelationshipType::None && b->Platform(a->Id()) == RelationshipType::None &&
           Contains(a->deleted, b->Id(), true) && Contains(b->deleted, a->Id(), true);
  }));
  // Removing again: there is nothing left to remove on either side.
  auto again = Await(*a, [&](auto cb) { a->client->RemoveDiscordAndGameFriend(b->Id(), cb); });
  CHECK(again.Type() == ErrorType::HTTPError);
  CHECK(again.ErrorCode() == 10070);
}

TEST_CASE("a friend request cancelled by its sender, another rejected by its receiver") {
  auto a = NewPlayer("rel_c");
  auto b = NewPlayer("rel_d");
  REQUIRE(Await(*a, [&](auto cb) { a->client->SendDiscordFriendRequestById(b->Id(), cb); }).Successful());
  REQUIRE(RunBoth(*a, *b, [&] { return b->Platform(a->Id()) == RelationshipType::PendingIncoming; }));
  REQUIRE(Await(*a, [&](auto cb) { a->client->CancelDiscordFriendRequest(b->Id(), cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return b->Platform(a->Id()) == RelationshipType::None && a->Platform(b->Id()) == RelationshipType::None &&
           Contains(b->deleted, a->Id(), true);
  }));

  REQUIRE(Await(*a, [&](auto cb) { a->client->SendDiscordFriendRequestById(b->Id(), cb); }).Successful());
  REQUIRE(RunBoth(*a, *b, [&] { return b->Platform(a->Id()) == RelationshipType::PendingIncoming; }));
  REQUIRE(Await(*b, [&](auto cb) { b->client->RejectDiscordFriendRequest(a->Id(), cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return a->Platform(b->Id()) == RelationshipType::None && Contains(a->deleted, b->Id(), true);
  }));
  // Nothing left to reject.
  auto none = Await(*b, [&](auto cb) { b->client->RejectDiscordFriendRequest(a->Id(), cb); });
  CHECK(none.Type() == ErrorType::HTTPError);
  CHECK(none.Status() == 404);
  CHECK(none.ErrorCode() == 10070);
}

TEST_CASE("blocking a user, who then cannot send a request, and unblocking") {
  auto a = NewPlayer("rel_e");
  auto b = NewPlayer("rel_f");
  REQUIRE(Await(*a, [&](auto cb) { a->client->BlockUser(b->Id(), cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] { return a->Platform(b->Id()) == RelationshipType::Blocked; }));
  auto refused = Await(*b, [&](auto cb) { b->client->SendDiscordFriendRequest(a->user.username, cb); });
  CHECK(refused.Type() == ErrorType::HTTPError);
  CHECK(refused.ErrorCode() == 80000);
  REQUIRE(Await(*a, [&](auto cb) { a->client->UnblockUser(b->Id(), cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return a->Platform(b->Id()) == RelationshipType::None && Contains(a->deleted, b->Id(), true);
  }));
  CHECK(Await(*b, [&](auto cb) { b->client->SendDiscordFriendRequest(a->user.username, cb); }).Successful());
}

TEST_CASE("game friend requests: sent by username, accepted, removed; the platform relationship untouched") {
  auto a = NewPlayer("rel_g");
  auto b = NewPlayer("rel_h");
  REQUIRE(Await(*a, [&](auto cb) { a->client->SendGameFriendRequest(b->user.username, cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return a->Game(b->Id()) == RelationshipType::PendingOutgoing &&
           b->Game(a->Id()) == RelationshipType::PendingIncoming && Contains(b->created, a->Id(), false);
  }));
  CHECK(b->Platform(a->Id()) == RelationshipType::None);
  REQUIRE(Await(*b, [&](auto cb) { b->client->AcceptGameFriendRequest(a->Id(), cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return a->Game(b->Id()) == RelationshipType::Friend && b->Game(a->Id()) == RelationshipType::Friend;
  }));
  // A game friend is a friend for the groups, announced by the groups callback.
  CHECK(RunBoth(*a, *b, [&] {
    if (std::find(a->groupsUpdated.begin(), a->groupsUpdated.end(), b->Id()) == a->groupsUpdated.end())
      return false;
    for (auto group :
         {platformpp::RelationshipGroupType::OnlinePlayingGame,
          platformpp::RelationshipGroupType::OnlineElsewhere, platformpp::RelationshipGroupType::Offline}) {
      for (const auto& handle : a->client->GetRelationshipsByGroup(group)) {
        if (handle.Id() == b->Id()) return true;
      }
    }
    return false;
  }));
  REQUIRE(Await(*a, [&](auto cb) { a->client->RemoveGameFriend(b->Id(), cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return a->Game(b->Id()) == RelationshipType::None && b->Game(a->Id()) == RelationshipType::None &&
           Contains(b->deleted, a->Id(), false) && Contains(a->deleted, b->Id(), false);
  }));

  // Game request by id, cancelled; then one rejected.
  REQUIRE(Await(*a, [&](auto cb) { a->client->SendGameFriendRequestById(b->Id(), cb); }).Successful());
  REQUIRE(RunBoth(*a, *b, [&] { return b->Game(a->Id()) == RelationshipType::PendingIncoming; }));
  REQUIRE(Await(*a, [&](auto cb) { a->client->CancelGameFriendRequest(b->Id(), cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] { return b->Game(a->Id()) == RelationshipType::None; }));
  REQUIRE(Await(*b, [&](auto cb) { b->client->SendGameFriendRequestById(a->Id(), cb); }).Successful());
  REQUIRE(RunBoth(*a, *b, [&] { return a->Game(b->Id()) == RelationshipType::PendingIncoming; }));
  REQUIRE(Await(*a, [&](auto cb) { a->client->RejectGameFriendRequest(b->Id(), cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] { return b->Game(a->Id()) == RelationshipType::None; }));
}

TEST_CASE("RemoveDiscordAndGameFriend removes both relationships") {
  auto a = NewPlayer("rel_i");
  auto b = NewPlayer("rel_j");
  itest::Shared().admin->MakeFriends(a->Id(), b->Id());
  REQUIRE(Await(*a, [&](auto cb) { a->client->SendGameFriendRequestById(b->Id(), cb); }).Successful());
  REQUIRE(Await(*b, [&](auto cb) { b->client->AcceptGameFriendRequest(a->Id(), cb); }).Successful());
  REQUIRE(RunBoth(*a, *b, [&] {
    return a->Platform(b->Id()) == RelationshipType::Friend && a->Game(b->Id()) == RelationshipType::Friend;
  }));
  REQUIRE(Await(*a, [&](auto cb) { a->client->RemoveDiscordAndGameFriend(b->Id(), cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return a->Platform(b->Id()) == RelationshipType::None && a->Game(b->Id()) == RelationshipType::None &&
           b->Platform(a->Id()) == RelationshipType::None && b->Game(a->Id()) == RelationshipType::None;
  }));
  // The store changes on the network thread before the callbacks run in RunCallbacks: wait for them too.
  CHECK(RunBoth(*a, *b,
                [&] { return Contains(a->deleted, b->Id(), true) && Contains(a->deleted, b->Id(), false); }));
}

TEST_CASE("relationship calls refused before anything is sent, and the platform's refusals") {
  auto a = NewPlayer("rel_k");
  auto empty = Await(*a, [&](auto cb) { a->client->SendDiscordFriendRequest("  ", cb); });
  CHECK(empty.Type() == ErrorType::ValidationError);
  CHECK(Await(*a, [&](auto cb) { a->client->SendGameFriendRequest("", cb); }).Type() ==
        ErrorType::ValidationError);
  CHECK(Await(*a, [&](auto cb) { a->client->AcceptDiscordFriendRequest(0, cb); }).Type() ==
        ErrorType::ValidationError);
  CHECK(Await(*a, [&](auto cb) { a->client->BlockUser(a->Id(), cb); }).Type() == ErrorType::ValidationError);
  auto unknown = Await(*a, [&](auto cb) { a->client->SendDiscordFriendRequest("no_such_user_xyz", cb); });
  CHECK(unknown.Type() == ErrorType::HTTPError);
  CHECK(unknown.ErrorCode() == 80004);
  auto unknownGame = Await(*a, [&](auto cb) { a->client->SendGameFriendRequest("no_such_user_xyz", cb); });
  CHECK(unknownGame.ErrorCode() == 80004);

  // Without a token: ClientNotReady.
  Player lonely;
  lonely.client = std::make_unique<Client>(itest::Shared().Options());
  auto notReady = Await(lonely, [&](auto cb) { lonely.client->SendDiscordFriendRequestById(a->Id(), cb); });
  CHECK(notReady.Type() == ErrorType::ClientNotReady);
}

TEST_CASE("a spam-flagged incoming request is marked as such") {
  auto a = NewPlayer("rel_l");
  auto b = NewPlayer("rel_m");
  auto flagged = itest::Shared().admin->Request("POST", "/users/" + std::to_string(a->Id()) + "/spammer",
                                                R"({"spammer":true})");
  REQUIRE(flagged.status == 200);
  REQUIRE(Await(*a, [&](auto cb) { a->client->SendDiscordFriendRequestById(b->Id(), cb); }).Successful());
  REQUIRE(RunBoth(*a, *b, [&] { return b->Platform(a->Id()) == RelationshipType::PendingIncoming; }));
  CHECK(b->client->GetRelationshipHandle(a->Id()).IsSpamRequest());
  CHECK_FALSE(a->client->GetRelationshipHandle(b->Id()).IsSpamRequest());
}

TEST_CASE("a friend starting the game moves to OnlinePlayingGame, then back as the activity ends") {
  auto a = NewPlayer("rel_n");
  auto b = NewPlayer("rel_o", false);
  itest::Shared().admin->MakeFriends(a->Id(), b->Id());
  a->client->Connect();
  REQUIRE(itest::RunUntil(
      *a->client, [&] { return a->client->GetStatus() == Client::Status::Ready; }, 20s));
  b->client->Connect();
  REQUIRE(itest::RunUntil(
      *b->client, [&] { return b->client->GetStatus() == Client::Status::Ready; }, 20s));
  auto groupOf = [&](uint64_t id) -> std::optional<platformpp::RelationshipGroupType> {
    for (auto group :
         {platformpp::RelationshipGroupType::OnlinePlayingGame,
          platformpp::RelationshipGroupType::OnlineElsewhere, platformpp::RelationshipGroupType::Offline}) {
      for (const auto& handle : a->client->GetRelationshipsByGroup(group)) {
        if (handle.Id() == id) return group;
      }
    }
    return std::nullopt;
  };
  REQUIRE(groupOf(b->Id()));

  platformpp::Activity activity;
  activity.SetType(platformpp::ActivityTypes::Playing);
  activity.SetState("In a match");
  activity.SetDetails("Ranked");
  a->groupsUpdated.clear();
  REQUIRE(Await(*b, [&](auto cb) { b->client->UpdateRichPresence(activity, cb); }).Successful());
  CHECK(RunBoth(*a, *b, [&] {
    return groupOf(b->Id()) == platformpp::RelationshipGroupType::OnlinePlayingGame &&
           std::find(a->groupsUpdated.begin(), a->groupsUpdated.end(), b->Id()) != a->groupsUpdated.end();
  }));
  auto playing = a->client->GetUser(b->Id());
  REQUIRE(playing);
  REQUIRE(playing->GameActivity());
  CHECK(playing->GameActivity()->State() == std::optional<std::string>("In a match"));
  CHECK(playing->Status() == platformpp::StatusType::Online);

  b->client->ClearRichPresence();
  CHECK(RunBoth(*a, *b,
                [&] { return groupOf(b->Id()) == platformpp::RelationshipGroupType::OnlineElsewhere; }));
  CHECK_FALSE(a->client->GetUser(b->Id())->GameActivity());

  b->client->Disconnect();
  CHECK(RunBoth(*a, *b, [&] { return groupOf(b->Id()) == platformpp::RelationshipGroupType::Offline; }));
  CHECK(a->client->GetUser(b->Id())->Status() == platformpp::StatusType::Offline);
}

}  // namespace relationships_test
