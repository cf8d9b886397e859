// Activity invites against the emulator: A invites friend B into its party (a DM message with `activity`),
// B gets the invite and accepts it for A's join secret; invites need a joinable activity, die when A's party
// changes; join requests; and ACTIVITY_JOIN from the desktop client (docs/social-protocol.md).
#include "emulator_fixture.hpp"

#include <platformpp/activity.hpp>
#include <platformpp/client.hpp>
#include <platformpp/social.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace activity_invites_test {

namespace {

using platformpp::Activity;
using platformpp::ActivityActionTypes;
using platformpp::ActivityInvite;
using platformpp::Client;
using platformpp::ClientResult;
using platformpp::ErrorType;
using namespace std::chrono_literals;

struct Player {
  platformpp::testkit::EmulatorAdmin::User user;
  std::unique_ptr<Client> client;
  std::vector<ActivityInvite> created, updated;
  uint64_t Id() const { return user.id; }
};

std::string UniqueName(const std::string& base) {
  static std::atomic<int> counter{0};
  return base + std::to_string(counter++);
}

std::unique_ptr<Player> NewPlayer(const std::string& base) {
  auto& e = itest::Shared();
  auto player = std::make_unique<Player>();
  player->user = e.admin->CreateUser(UniqueName(base));
  std::string token = e.admin->MintToken(player->user.id, e.app.id, "openid sdk.social_layer").accessToken;
  player->client = std::make_unique<Client>(e.Options());
  Client& client = *player->client;
  client.SetApplicationId(e.app.id);
  Player* p = player.get();
  client.SetActivityInviteCreatedCallback(
      [p](const ActivityInvite& invite) { p->created.push_back(invite); });
  client.SetActivityInviteUpdatedCallback(
      [p](const ActivityInvite& invite) { p->updated.push_back(invite); });
  bool updated = false;
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token,
                     [&](const ClientResult& result) { updated = result.Successful(); });
  REQUIRE(itest::RunUntil(client, [&] { return updated; }));
  client.Connect();
  REQUIRE(itest::RunUntil(
      client, [&] { return client.GetStatus() == Client::Status::Ready; }, 20s));
  return player;
}

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

template <class Start>
ClientResult Await(Player& self, Player& other, Start start) {
  auto out = std::make_shared<std::optional<ClientResult>>();
  start([out](ClientResult result) { *out = std::move(result); });
  REQUIRE(RunBoth(
      self, other, [&] { return out->has_value(); }, 20s));
  return **out;
}

struct Accepted {
  ClientResult result;
  std::string secret;
};

Accepted Accept(Player& self, Player& other, const ActivityInvite& invite) {
  auto out = std::make_shared<std::optional<Accepted>>();
  self.client->AcceptActivityInvite(invite, [out](ClientResult result, std::string secret) {
    *out = Accepted{std::move(result), std::move(secret)};
  });
  REQUIRE(RunBoth(
      self, other, [&] { return out->has_value(); }, 20s));
  return **out;
}

Activity Joinable(const std::string& party, const std::string& secret, int32_t current = 1, int32_t max = 4) {
  Activity a;
  a.SetName("Integration Test Game");
  a.SetState("In a party");
  platformpp::ActivityParty p;
  p.SetId(party);
  p.SetCurrentSize(current);
  p.SetMaxSize(max);
  a.SetParty(p);
  platformpp::ActivitySecrets s;
  s.SetJoin(secret);
  a.SetSecrets(s);
  return a;
}

ClientResult SetActivity(Player& self, Player& other, const Activity& activity) {
  return Await(self, other, [&](auto cb) { self.client->UpdateRichPresence(activity, cb); });
}

std::pair<std::unique_ptr<Player>, std::unique_ptr<Player>> Friends(const std::string& base) {
  auto a = NewPlayer(base + "_a");
  auto b = NewPlayer(base + "_b");
  itest::Shared().admin->MakeFriends(a->Id(), b->Id());
  REQUIRE(RunBoth(*a, *b, [&] {
    return a->client->GetRelationshipHandle(b->Id()).DiscordRelationshipType() ==
               platformpp::RelationshipType::Friend &&
           b->client->GetRelationshipHandle(a->Id()).DiscordRelationshipType() ==
               platformpp::RelationshipType::Friend;
  }));
  return {std::move(a), std::move(b)};
}

bool HasPath(const ClientResult& result, const std::string& path) {
  for (const auto& f : result.FieldErrors()) {
    if (f.path == path) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("activity invites: A invites B, B accepts and gets A's join secret") {
  // Named, not structured bindings: the lambdas below capture them (clang-tidy's clang 14 cannot).
  auto players = Friends("inv");
  auto& a = std::get<0>(players);
  auto& b = std::get<1>(players);
  REQUIRE(SetActivity(*a, *b, Joinable("party-one", "secret-one")).Successful());

  ClientResult sent = Await(*a, *b, [&](auto cb) { a->client->SendActivityInvite(b->Id(), "join me", cb); });
  REQUIRE_MESSAGE(sent.Successful(), sent.ToString());
  REQUIRE(RunBoth(*a, *b, [&] { return !b->created.empty(); }));
  const ActivityInvite invite = b->created.front();
  CHECK(invite.SenderId() == a->Id());
  CHECK(invite.Type() == ActivityActionTypes::Join);
  CHECK(invite.ApplicationId() == itest::Shared().app.id);
  CHECK(invite.PartyId() == "party-one");
  CHECK(invite.ChannelId() != 0);
  CHECK(invite.MessageId() != 0);
  CHECK(invite.IsValid());
  // The sender's own copy of the message is not an invite for the sender.
  CHECK(a->created.empty());

  Accepted accepted = Accept(*b, *a, invite);
  REQUIRE_MESSAGE(accepted.result.Successful(), accepted.result.ToString());
  CHECK(accepted.secret == "secret-one");
  CHECK(b->created.size() == 1);
}

TEST_CASE("activity invites: only a joinable activity can be shared, and nothing is sent otherwise") {
  auto players = Friends("inv_nj");
  auto& a = std::get<0>(players);
  auto& b = std::get<1>(players);
  auto invite = [&](const std::string& expectedPath) {
    CAPTURE(expectedPath);
    ClientResult result = Await(*a, *b, [&](auto cb) { a->client->SendActivityInvite(b->Id(), "", cb); });
    CHECK(result.Type() == ErrorType::ValidationError);
    CHECK(HasPath(result, expectedPath));
  };
  invite("activity");  // no activity at all
  REQUIRE(SetActivity(*a, *b, Joinable("party-full", "secret-full", 4, 4)).Successful());
  invite("activity.party.size");  // no room left
  Activity noSecret = Joinable("party-x", "unused");
  noSecret.SetSecrets(std::nullopt);
  REQUIRE(SetActivity(*a, *b, noSecret).Successful());
  invite("activity.secrets.join");
  Activity noParty = Joinable("party-x", "secret-x");
  noParty.SetParty(std::nullopt);
  REQUIRE(SetActivity(*a, *b, noParty).Successful());
  invite("activity.party.id");
  RunBoth(
      *a, *b, [] { return false; }, 500ms);
  CHECK(b->created.empty());
}

TEST_CASE("activity invites: an invite to a party A left is refused, and B learns it became invalid") {
  auto players = Friends("inv_old");
  auto& a = std::get<0>(players);
  auto& b = std::get<1>(players);
  REQUIRE(SetActivity(*a, *b, Joinable("party-old", "secret-old")).Successful());
  REQUIRE(Await(*a, *b, [&](auto cb) { a->client->SendActivityInvite(b->Id(), "", cb); }).Successful());
  REQUIRE(RunBoth(*a, *b, [&] { return !b->created.empty(); }));
  const ActivityInvite invite = b->created.front();
  CHECK(invite.IsValid());

  REQUIRE(SetActivity(*a, *b, Joinable("party-new", "secret-new")).Successful());
  REQUIRE(RunBoth(*a, *b, [&] { return !b->updated.empty(); }));
  CHECK(b->updated.back().MessageId() == invite.MessageId());
  CHECK_FALSE(b->updated.back().IsValid());

  Accepted accepted = Accept(*b, *a, invite);
  CHECK(accepted.result.Type() == ErrorType::HTTPError);
  CHECK(accepted.result.Status() == 400);
  CHECK(accepted.result.ErrorCode() == 50083);
  CHECK(accepted.secret.empty());

  // Back in the old party: the invite is valid again.
  REQUIRE(SetActivity(*a, *b, Joinable("party-old", "secret-old-2")).Successful());
  REQUIRE(RunBoth(*a, *b, [&] { return b->updated.back().IsValid(); }));
  accepted = Accept(*b, *a, invite);
  REQUIRE_MESSAGE(accepted.result.Successful(), accepted.result.ToString());
  CHECK(accepted.secret == "secret-old-2");
}

TEST_CASE("activity invites: B asks to join A's party; A gets a join request") {
  auto players = Friends("inv_req");
  auto& a = std::get<0>(players);
  auto& b = std::get<1>(players);
  // B knows no party of A yet.
  ClientResult early = Await(*b, *a, [&](auto cb) { b->client->SendActivityJoinRequest(a->Id(), cb); });
  CHECK(early.Type() == ErrorType::ValidationError);

  REQUIRE(SetActivity(*a, *b, Joinable("party-req", "secret-req")).Successful());
  REQUIRE(RunBoth(*a, *b, [&] {
    auto user = b->client->GetUser(a->Id());
    return user && user->GameActivity() && user->GameActivity()->Party();
  }));
  ClientResult sent = Await(*b, *a, [&](auto cb) { b->client->SendActivityJoinRequest(a->Id(), cb); });
  REQUIRE_MESSAGE(sent.Successful(), sent.ToString());
  REQUIRE(RunBoth(*a, *b, [&] { return !a->created.empty(); }));
  CHECK(a->created.front().Type() == ActivityActionTypes::JoinRequest);
  CHECK(a->created.front().SenderId() == b->Id());
  CHECK(a->created.front().PartyId() == "party-req");
  CHECK(b->created.empty());
}

TEST_CASE("activity invites: invites need a friend") {
  auto a = NewPlayer("inv_stranger_a");
  auto b = NewPlayer("inv_stranger_b");
  REQUIRE(SetActivity(*a, *b, Joinable("party-s", "secret-s")).Successful());
  ClientResult result = Await(*a, *b, [&](auto cb) { a->client->SendActivityInvite(b->Id(), "", cb); });
  CHECK(result.Type() == ErrorType::HTTPError);
  CHECK(result.Status() == 400);
}

TEST_CASE(
    "activity join: ACTIVITY_JOIN from the desktop client reaches SetActivityJoinCallback, again after "
    "it restarts") {
  struct IpcScope {
    ~IpcScope() { itest::Shared().admin->RestoreIpc(); }
  } scope;
  Client game(itest::Shared().Options());  // no token: the desktop client is enough
  game.SetApplicationId(itest::Shared().app.id);
  std::vector<std::string> secrets;
  game.SetActivityJoinCallback([&](std::string secret) { secrets.push_back(std::move(secret)); });

  // Raised until the SUBSCRIBE has landed; the callback gets each delivered one.
  auto raiseUntilDelivered = [&](const std::string& secret) {
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < deadline) {
      if (itest::Shared().admin->RaiseActivityJoin(secret, itest::Shared().app.id) > 0) return true;
      itest::RunUntil(
          game, [] { return false; }, 50ms);
    }
    return false;
  };
  REQUIRE(raiseUntilDelivered("join-secret-1"));
  REQUIRE(itest::RunUntil(game, [&] { return !secrets.empty(); }));
  CHECK(secrets.front() == "join-secret-1");

  itest::Shared().admin->DropIpc();
  itest::Shared().admin->RestoreIpc();
  REQUIRE(raiseUntilDelivered("join-secret-2"));
  REQUIRE(itest::RunUntil(game, [&] { return secrets.size() >= 2; }));
  CHECK(secrets.back() == "join-secret-2");

  // Another application's join is not ours.
  itest::Shared().admin->RaiseActivityJoin("other-app", itest::Shared().app.id + 1);
  itest::RunUntil(
      game, [] { return false; }, 300ms);
  CHECK(secrets.back() == "join-secret-2");
}

TEST_CASE("activity invites: messages that are not an invite for this game are not reported") {
  auto players = Friends("inv_filter");
  auto& a = std::get<0>(players);
  auto& b = std::get<1>(players);
  auto message = [&](const std::string& id, uint64_t author, const std::string& appId, int type) {
    return R"({"id":")" + id + R"(","channel_id":"777","type":0,"content":"","author":{"id":")" +
           std::to_string(author) + R"(","username":"x"},"application_id":")" + appId +
           R"(","activity":{"type":)" + std::to_string(type) + R"(,"party_id":"pp"}})";
  };
  const std::string ours = std::to_string(itest::Shared().app.id);
  const std::string other = std::to_string(itest::Shared().app.id + 1);
  auto& admin = *itest::Shared().admin;
  admin.InjectDispatch(b->Id(), "MESSAGE_CREATE", message("9001", a->Id(), other, 1));  // another game
  admin.InjectDispatch(b->Id(), "MESSAGE_CREATE", message("9002", b->Id(), ours, 1));   // B's own
  admin.InjectDispatch(b->Id(), "MESSAGE_CREATE", message("9003", a->Id(), ours, 3));   // not an invite type
  admin.InjectDispatch(b->Id(), "MESSAGE_CREATE",
                       R"({"id":"9004","channel_id":"777","content":"hi","author":{"id":")" +
                           std::to_string(a->Id()) + R"("}})");                        // a plain message
  admin.InjectDispatch(b->Id(), "MESSAGE_CREATE", message("9005", a->Id(), ours, 5));  // the one that counts
  REQUIRE(RunBoth(*a, *b, [&] { return !b->created.empty(); }));
  RunBoth(
      *a, *b, [] { return false; }, 300ms);
  REQUIRE(b->created.size() == 1);
  CHECK(b->created[0].MessageId() == 9005u);
  CHECK(b->created[0].ChannelId() == 777u);
  CHECK(b->created[0].Type() == ActivityActionTypes::JoinRequest);
  CHECK(b->created[0].PartyId() == "pp");
}

}  // namespace activity_invites_test
