// Lobbies against the emulator: players with Clients connected to the Gateway, the game's backend with its
// bot token (platformpp::backend) where only it can act (member flags, backend-made lobbies). Requests go
// over HTTP; the state comes back through Gateway dispatches (docs/social-protocol.md, "Lobbies and
// messages"). Each test uses an application of its own, so the emulator's Social SDK rate limits of one test
// do not reach another.
#include "emulator_fixture.hpp"

#include "client/client_core.hpp"
#include "net/http_client.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace lobbies_test {

namespace {

using platformpp::Client;
using platformpp::ClientResult;
using platformpp::ErrorType;
using platformpp::Metadata;
using platformpp::backend::BackendClient;
using App = platformpp::testkit::EmulatorAdmin::App;
using namespace std::chrono_literals;

std::string UniqueName(const std::string& base) {
  static std::atomic<int> counter{0};
  return base + std::to_string(counter++);
}

App NewApp() {
  return itest::Shared().admin->CreateApp(UniqueName("Lobby Game "));
}

struct Player {
  platformpp::testkit::EmulatorAdmin::User user;
  std::string token;
  std::unique_ptr<Client> client;
  std::vector<std::string> events;  // lobby callbacks, in delivery order

  uint64_t Id() const { return user.id; }
};

std::unique_ptr<Player> NewPlayer(const App& app, const std::string& base, bool connect = true) {
  auto& e = itest::Shared();
  auto player = std::make_unique<Player>();
  player->user = e.admin->CreateUser(UniqueName(base));
  player->token = e.admin->MintToken(player->user.id, app.id, "openid sdk.social_layer").accessToken;
  player->client = std::make_unique<Client>(e.Options());
  Client& client = *player->client;
  client.SetApplicationId(app.id);
  Player* p = player.get();
  auto record = [p](const std::string& what, uint64_t lobby, std::optional<uint64_t> member = std::nullopt) {
    p->events.push_back(what + " " + std::to_string(lobby) + (member ? " " + std::to_string(*member) : ""));
  };
  client.SetLobbyCreatedCallback([record](uint64_t id) { record("created", id); });
  client.SetLobbyUpdatedCallback([record](uint64_t id) { record("updated", id); });
  client.SetLobbyDeletedCallback([record](uint64_t id) { record("deleted", id); });
  client.SetLobbyMemberAddedCallback([record](uint64_t id, uint64_t m) { record("added", id, m); });
  client.SetLobbyMemberUpdatedCallback(
      [record](uint64_t id, uint64_t m) { record("member updated", id, m); });
  client.SetLobbyMemberRemovedCallback([record](uint64_t id, uint64_t m) { record("removed", id, m); });
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

std::unique_ptr<BackendClient> NewBackend(const App& app) {
  auto& e = itest::Shared();
  platformpp::backend::BackendOptions options;
  options.apiBase = e.process->Connection().apiBase;
  options.caFile = e.process->Connection().caFile;
  options.botToken = app.botToken;
  return std::make_unique<BackendClient>(std::move(options));
}

bool RunAll(const std::vector<Player*>& players, const std::function<bool()>& done,
            std::chrono::milliseconds timeout = 10s) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    for (Player* p : players)
      p->client->RunCallbacks();
    std::this_thread::sleep_for(200us);
  }
  return true;
}

/// Starts an operation whose callback takes (ClientResult, Args...) and waits for it.
template <class... Args, class Start>
std::pair<ClientResult, std::tuple<Args...>> AwaitWith(Client& client, Start start) {
  auto out = std::make_shared<std::optional<std::pair<ClientResult, std::tuple<Args...>>>>();
  start([out](ClientResult result, Args... args) {
    *out = std::make_pair(std::move(result), std::make_tuple(std::move(args)...));
  });
  bool done = itest::RunUntil(
      client, [&] { return out->has_value(); }, 20s);
  REQUIRE(done);
  return std::move(**out);
}

template <class Start>
ClientResult Await(Client& client, Start start) {
  return AwaitWith<>(client, std::move(start)).first;
}

/// CreateOrJoinLobby(WithMetadata), waited for: the result and the lobby id.
std::pair<ClientResult, uint64_t> Join(Player& player, const std::string& secret,
                                       std::optional<Metadata> lobbyMetadata = std::nullopt,
                                       std::optional<Metadata> memberMetadata = std::nullopt) {
  auto [result, args] = AwaitWith<uint64_t>(*player.client, [&](auto cb) {
    if (lobbyMetadata || memberMetadata) {
      player.client->CreateOrJoinLobbyWithMetadata(secret, lobbyMetadata.value_or(Metadata{}),
                                                   memberMetadata.value_or(Metadata{}), cb);
    } else {
      player.client->CreateOrJoinLobby(secret, cb);
    }
  });
  return {result, std::get<0>(args)};
}

/// A backend call, waited for.
template <class... Args, class Start>
std::pair<ClientResult, std::tuple<Args...>> Backend(BackendClient& backend, Start start) {
  auto out = std::make_shared<std::optional<std::pair<ClientResult, std::tuple<Args...>>>>();
  start([out](ClientResult result, Args... args) {
    *out = std::make_pair(std::move(result), std::make_tuple(std::move(args)...));
  });
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!out->has_value() && std::chrono::steady_clock::now() < deadline) {
    backend.WaitForCallbacks(50);
    backend.RunCallbacks();
  }
  REQUIRE(out->has_value());
  return std::move(**out);
}

/// POST /invites/{code} with a player's token (what the desktop client does when the player accepts).
int AcceptInvite(const std::string& token, const std::string& code) {
  auto& e = itest::Shared();
  platformpp::ClientOptions options = e.Options();
  options.ipcEnabled = false;
  platformpp::client::ClientCore core(options);
  platformpp::net::HttpRequest request;
  request.method = "POST";
  request.url = core.ApiUrl("/invites/" + code);
  request.headers.emplace_back("Authorization", "Bearer " + token);
  request.body = "{}";
  request.contentType = "application/json";
  std::promise<int> status;
  auto answered = status.get_future();
  core.Http().Send(std::move(request), [&status](const platformpp::net::HttpResponse& response) {
    status.set_value(response.status);
  });
  REQUIRE(answered.wait_for(20s) == std::future_status::ready);
  return answered.get();
}

bool Has(const std::vector<std::string>& events, const std::string& event) {
  return std::find(events.begin(), events.end(), event) != events.end();
}

std::string Ev(const std::string& what, uint64_t lobby, std::optional<uint64_t> member = std::nullopt) {
  return what + " " + std::to_string(lobby) + (member ? " " + std::to_string(*member) : "");
}

Metadata MetadataOf(std::size_t codePoints) {
  // One key of 10 and a value of the rest; the value has two-byte characters, counted once each.
  std::string value;
  for (std::size_t i = 0; i < codePoints - 10; ++i)
    value += (i % 2 == 0) ? "\xC3\xA9" : "v";
  return Metadata{{"0123456789", value}};
}

}  // namespace

TEST_CASE("lobby calls need a token and an application id") {
  auto app = NewApp();
  Client client(itest::Shared().Options());
  client.SetApplicationId(app.id);
  auto noToken = AwaitWith<uint64_t>(client, [&](auto cb) { client.CreateOrJoinLobby("secret", cb); }).first;
  CHECK(noToken.Type() == ErrorType::ClientNotReady);
  CHECK(Await(client, [&](auto cb) { client.LeaveLobby(1, cb); }).Type() == ErrorType::ClientNotReady);

  auto player = NewPlayer(app, "lobby_noapp", false);
  player->client->SetApplicationId(0);
  auto noApp = AwaitWith<uint64_t>(*player->client, [&](auto cb) {
                 player->client->CreateOrJoinLobby("secret", cb);
               }).first;
  CHECK(noApp.Type() == ErrorType::ClientNotReady);
  CHECK(Await(*player->client, [&](auto cb) { player->client->LinkChannelToLobby(1, 2, cb); }).Type() ==
        ErrorType::ClientNotReady);
}

TEST_CASE("a secret of 250 characters creates a lobby; 251 is a ValidationError and nothing is sent") {
  auto app = NewApp();
  auto a = NewPlayer(app, "lobby_secret");
  std::string secret;
  for (int i = 0; i < 250; ++i)
    secret += (i % 2 == 0) ? "\xC3\xA9" : "s";  // 250 code points, 375 bytes

  // The lobby is in the store when the callback runs.
  std::optional<bool> handleInCallback;
  uint64_t id = 0;
  auto [result, args] = AwaitWith<uint64_t>(*a->client, [&](auto cb) {
    a->client->CreateOrJoinLobby(secret, [&, cb](ClientResult r, uint64_t lobbyId) {
      handleInCallback = a->client->GetLobbyHandle(lobbyId).has_value();
      cb(std::move(r), lobbyId);
    });
  });
  REQUIRE(result.Successful());
  id = std::get<0>(args);
  CHECK(id != 0);
  CHECK(handleInCallback == std::optional<bool>(true));
  CHECK(a->client->GetLobbyIds() == std::vector<uint64_t>{id});
  auto handle = a->client->GetLobbyHandle(id);
  REQUIRE(handle);
  CHECK(handle->LobbyMemberIds() == std::vector<uint64_t>{a->Id()});
  REQUIRE(handle->GetLobbyMemberHandle(a->Id())->User());
  CHECK(handle->GetLobbyMemberHandle(a->Id())->User()->Username() == a->user.username);
  CHECK(handle->GetLobbyMemberHandle(a->Id())->Connected());
  CHECK(itest::RunUntil(*a->client, [&] { return !a->events.empty(); }));
  CHECK(a->events ==
        std::vector<std::string>{Ev("created", id)});  // once, though answer and LOBBY_CREATE both came
  // The same secret again joins the same lobby.
  auto again = Join(*a, secret);
  CHECK(again.first.Successful());
  CHECK(again.second == id);

  // 251: refused by the SDK (a server refusal would be an HTTPError with a status).
  auto tooLong = Join(*a, secret + "s").first;
  CHECK(tooLong.Type() == ErrorType::ValidationError);
  CHECK(tooLong.Status() == 0);
  REQUIRE(tooLong.FieldErrors().size() == 1);
  CHECK(tooLong.FieldErrors()[0].path == "secret");
  auto empty = Join(*a, "").first;
  CHECK(empty.Type() == ErrorType::ValidationError);
  CHECK(a->client->GetLobbyIds() == std::vector<uint64_t>{id});
}

TEST_CASE("lobby and member metadata of 1000 characters pass, 1001 are ValidationErrors") {
  auto app = NewApp();
  auto a = NewPlayer(app, "lobby_meta");
  // Named, not structured bindings: the lambdas below capture them (clang-tidy's clang 14 cannot).
  auto okId = Join(*a, "meta-secret", MetadataOf(1000), MetadataOf(1000));
  auto& ok = std::get<0>(okId);
  auto& id = std::get<1>(okId);
  REQUIRE(ok.Successful());
  CHECK(itest::RunUntil(*a->client, [&] {
    auto handle = a->client->GetLobbyHandle(id);
    return handle && handle->Metadata() == MetadataOf(1000) &&
           handle->GetLobbyMemberHandle(a->Id())->Metadata() == MetadataOf(1000);
  }));

  auto lobbyOver = Join(*a, "meta-secret", MetadataOf(1001), MetadataOf(1000)).first;
  CHECK(lobbyOver.Type() == ErrorType::ValidationError);
  REQUIRE(lobbyOver.FieldErrors().size() == 1);
  CHECK(lobbyOver.FieldErrors()[0].path == "lobby_metadata");
  auto memberOver = Join(*a, "meta-secret", MetadataOf(1000), MetadataOf(1001)).first;
  CHECK(memberOver.Type() == ErrorType::ValidationError);
  REQUIRE(memberOver.FieldErrors().size() == 1);
  CHECK(memberOver.FieldErrors()[0].path == "member_metadata");

  // Replacing the metadata on a later join: the lobby's update reaches the player once.
  a->events.clear();
  auto [replaced, same] = Join(*a, "meta-secret", Metadata{{"mode", "duel"}}, Metadata{{"team", "red"}});
  REQUIRE(replaced.Successful());
  CHECK(same == id);
  CHECK(itest::RunUntil(*a->client, [&] {
    return Has(a->events, Ev("updated", id)) && Has(a->events, Ev("member updated", id, a->Id()));
  }));
  CHECK(a->client->GetLobbyHandle(id)->Metadata() == Metadata{{"mode", "duel"}});
  CHECK(a->client->GetLobbyHandle(id)->GetLobbyMemberHandle(a->Id())->Metadata() ==
        Metadata{{"team", "red"}});
}

TEST_CASE("two players in one lobby see each other join, disconnect, reconnect and leave") {
  auto app = NewApp();
  auto a = NewPlayer(app, "lobby_a");
  auto b = NewPlayer(app, "lobby_b");
  auto createdId = Join(*a, "pair-secret");
  auto& created = std::get<0>(createdId);
  auto& id = std::get<1>(createdId);
  REQUIRE(created.Successful());
  auto [joined, same] = Join(*b, "pair-secret");
  REQUIRE(joined.Successful());
  CHECK(same == id);

  CHECK(RunAll({a.get(), b.get()}, [&] { return Has(a->events, Ev("added", id, b->Id())); }));
  auto seenByA = a->client->GetLobbyHandle(id);
  REQUIRE(seenByA);
  CHECK(seenByA->LobbyMemberIds() == std::vector<uint64_t>{a->Id(), b->Id()});
  auto bAsSeen = seenByA->GetLobbyMemberHandle(b->Id());
  REQUIRE(bAsSeen);
  CHECK(bAsSeen->Connected());
  REQUIRE(bAsSeen->User());
  CHECK(bAsSeen->User()->Username() == b->user.username);
  auto seenByB = b->client->GetLobbyHandle(id);
  REQUIRE(seenByB);
  CHECK(seenByB->LobbyMemberIds() == std::vector<uint64_t>{a->Id(), b->Id()});
  CHECK(seenByB->GetLobbyMemberHandle(a->Id())->Connected());

  a->events.clear();
  b->client->Disconnect();
  CHECK(RunAll({a.get(), b.get()}, [&] {
    auto handle = a->client->GetLobbyHandle(id);
    return Has(a->events, Ev("member updated", id, b->Id())) && handle &&
           !handle->GetLobbyMemberHandle(b->Id())->Connected();
  }));
  // While B is away, A changes the lobby's metadata: B's next session announces that change, once.
  auto [changed, sameAgain] = Join(*a, "pair-secret", Metadata{{"map", "canyon"}}, Metadata{});
  REQUIRE(changed.Successful());
  CHECK(sameAgain == id);
  a->events.clear();
  b->events.clear();
  b->client->Connect();
  CHECK(RunAll({a.get(), b.get()}, [&] {
    auto handle = a->client->GetLobbyHandle(id);
    return Has(a->events, Ev("member updated", id, b->Id())) && handle &&
           handle->GetLobbyMemberHandle(b->Id())->Connected() && Has(b->events, Ev("updated", id));
  }));
  RunAll(
      {a.get(), b.get()}, [] { return false; }, 300ms);  // anything else would arrive by now
  CHECK(b->events == std::vector<std::string>{Ev("updated", id)});
  REQUIRE(b->client->GetLobbyHandle(id));
  CHECK(b->client->GetLobbyHandle(id)->Metadata() == Metadata{{"map", "canyon"}});
  CHECK(b->client->GetLobbyHandle(id)->GetLobbyMemberHandle(b->Id())->Connected());

  a->events.clear();
  b->events.clear();
  auto left = Await(*b->client, [&](auto cb) { b->client->LeaveLobby(id, cb); });
  REQUIRE(left.Successful());
  CHECK(RunAll({a.get(), b.get()}, [&] {
    return Has(a->events, Ev("removed", id, b->Id())) && Has(b->events, Ev("deleted", id));
  }));
  CHECK(a->client->GetLobbyHandle(id)->LobbyMemberIds() == std::vector<uint64_t>{a->Id()});
  CHECK_FALSE(b->client->GetLobbyHandle(id));
  CHECK(b->client->GetLobbyIds().empty());
  // Exactly once each.
  CHECK(std::count(a->events.begin(), a->events.end(), Ev("removed", id, b->Id())) == 1);
  CHECK(std::count(b->events.begin(), b->events.end(), Ev("deleted", id)) == 1);
  // Leaving again: not a member any more.
  auto again = Await(*b->client, [&](auto cb) { b->client->LeaveLobby(id, cb); });
  CHECK(again.Type() == ErrorType::HTTPError);
  CHECK(again.Status() == 404);
  CHECK(again.ErrorCode() == 10031);
}

TEST_CASE("a lobby the backend made cannot be left from the client") {
  auto app = NewApp();
  auto a = NewPlayer(app, "lobby_backend");
  auto backend = NewBackend(app);
  platformpp::backend::LobbyArgs args;
  platformpp::backend::LobbyMemberArgs member;
  member.id = a->Id();
  args.members.push_back(member);
  auto [made, lobby] =
      Backend<platformpp::backend::Lobby>(*backend, [&](auto cb) { backend->CreateLobby(args, cb); });
  REQUIRE(made.Successful());
  uint64_t id = std::get<0>(lobby).id;
  CHECK(itest::RunUntil(*a->client, [&] { return Has(a->events, Ev("created", id)); }));
  CHECK(a->client->GetLobbyHandle(id));

  auto left = Await(*a->client, [&](auto cb) { a->client->LeaveLobby(id, cb); });
  CHECK(left.Type() == ErrorType::HTTPError);
  CHECK(left.Status() == 403);
  CHECK(left.ErrorCode() == 50001);
  CHECK(a->client->GetLobbyHandle(id));
  // It has no secret: any secret the client uses makes or joins another lobby.
  auto [joined, other] = Join(*a, "not-the-backend-lobby");
  REQUIRE(joined.Successful());
  CHECK(other != id);
}

TEST_CASE("linking a channel needs CanLinkLobby; invites to its guild are single use and last one hour") {
  auto& e = itest::Shared();
  auto app = NewApp();
  auto a = NewPlayer(app, "lobby_link");
  auto backend = NewBackend(app);
  uint64_t guild = e.admin->CreateGuild(UniqueName("Lobby Guild "), a->Id());
  platformpp::testkit::EmulatorAdmin::ChannelSpec spec;
  spec.name = "lobby-chat";
  uint64_t channel = e.admin->CreateChannel(guild, spec);
  auto joinedId = Join(*a, "link-secret");
  auto& joined = std::get<0>(joinedId);
  auto& id = std::get<1>(joinedId);
  REQUIRE(joined.Successful());

  auto refused = Await(*a->client, [&](auto cb) { a->client->LinkChannelToLobby(id, channel, cb); });
  CHECK(refused.Type() == ErrorType::HTTPError);
  CHECK(refused.Status() == 403);
  CHECK(refused.ErrorCode() == 50013);

  platformpp::backend::LobbyMemberArgs flag;
  flag.id = a->Id();
  flag.flags = static_cast<uint32_t>(platformpp::LobbyMemberFlags::CanLinkLobby);
  auto [flagged, member] = Backend<platformpp::backend::LobbyMember>(
      *backend, [&](auto cb) { backend->AddLobbyMember(id, flag, cb); });
  REQUIRE(flagged.Successful());
  CHECK(std::get<0>(member).flags == 1);
  CHECK(itest::RunUntil(*a->client, [&] {
    return a->client->GetLobbyHandle(id)->GetLobbyMemberHandle(a->Id())->CanLinkLobby();
  }));

  // No linked channel yet: no invite.
  std::vector<std::string> opened;
  a->client->SetUrlOpener([&](const std::string& url) {
    opened.push_back(url);
    return true;
  });
  auto noChannel = AwaitWith<std::string>(*a->client, [&](auto cb) {
                     a->client->JoinLinkedLobbyGuild(
                         id, [] {}, cb);
                   }).first;
  CHECK(noChannel.Type() == ErrorType::HTTPError);
  CHECK(noChannel.Status() == 400);

  auto linked = Await(*a->client, [&](auto cb) { a->client->LinkChannelToLobby(id, channel, cb); });
  REQUIRE(linked.Successful());
  CHECK(itest::RunUntil(*a->client, [&] {
    auto handle = a->client->GetLobbyHandle(id);
    return handle && handle->LinkedChannel() && handle->LinkedChannel()->Id() == channel;
  }));
  CHECK(a->client->GetLobbyHandle(id)->LinkedChannel()->GuildId() == guild);
  CHECK(a->client->GetLobbyHandle(id)->LinkedChannel()->Name() == "lobby-chat");

  // An invite: opened with the URL opener before the callback, single use.
  int merges = 0;
  auto [invited, urlArgs] = AwaitWith<std::string>(*a->client, [&](auto cb) {
    a->client->JoinLinkedLobbyGuild(
        id, [&] { ++merges; },
        [&, cb](ClientResult r, std::string url) {
          CHECK(opened == std::vector<std::string>{url});
          cb(std::move(r), std::move(url));
        });
  });
  REQUIRE(invited.Successful());
  CHECK(merges == 0);
  std::string url = std::get<0>(urlArgs);
  std::string prefix = e.process->Connection().webBase + "/invite/";
  REQUIRE(url.rfind(prefix, 0) == 0);
  std::string code = url.substr(prefix.size());
  CHECK_FALSE(code.empty());
  CHECK(AcceptInvite(a->token, code) == 200);
  CHECK(AcceptInvite(a->token, code) == 404);  // used

  // Another invite, one hour later: expired.
  auto [second, secondUrl] = AwaitWith<std::string>(*a->client, [&](auto cb) {
    a->client->JoinLinkedLobbyGuild(
        id, [] {}, cb);
  });
  REQUIRE(second.Successful());
  std::string secondCode = std::get<0>(secondUrl).substr(prefix.size());
  e.admin->AdvanceClock(1h);
  CHECK(AcceptInvite(a->token, secondCode) == 404);

  auto unlinked = Await(*a->client, [&](auto cb) { a->client->UnlinkChannelFromLobby(id, cb); });
  REQUIRE(unlinked.Successful());
  CHECK(itest::RunUntil(*a->client, [&] {
    auto handle = a->client->GetLobbyHandle(id);
    return handle && !handle->LinkedChannel();
  }));
}

TEST_CASE("a provisional account is asked to merge before joining a linked guild") {
  auto& e = itest::Shared();
  auto app = NewApp();
  auto backend = NewBackend(app);
  auto [got, tokenArgs] = Backend<platformpp::backend::ProvisionalToken>(
      *backend, [&](auto cb) { backend->GetProvisionalToken(UniqueName("ext-lobby-"), "Guest", cb); });
  REQUIRE(got.Successful());
  Client client(e.Options());
  client.SetApplicationId(app.id);
  bool updated = false;
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, std::get<0>(tokenArgs).accessToken,
                     [&](const ClientResult& result) { updated = result.Successful(); });
  REQUIRE(itest::RunUntil(client, [&] { return updated; }));
  std::vector<std::string> order;
  auto result = AwaitWith<std::string>(client, [&](auto cb) {
                  client.JoinLinkedLobbyGuild(
                      12345, [&] { order.emplace_back("merge required"); },
                      [&, cb](ClientResult r, std::string url) {
                        order.emplace_back("callback");
                        cb(std::move(r), std::move(url));
                      });
                }).first;
  CHECK(result.Type() == ErrorType::ValidationError);
  CHECK(order == std::vector<std::string>{"merge required", "callback"});
}

TEST_CASE("destroying a Client with lobby calls in flight ends each with ClientDestroyed, once") {
  auto& e = itest::Shared();
  itest::FaultScope faults;
  auto app = NewApp();
  auto a = NewPlayer(app, "lobby_destroy", false);
  platformpp::testkit::EmulatorAdmin::Fault slow;
  slow.route = "PUT /lobbies";
  slow.delayMs = 30000;
  slow.count = 1;
  e.admin->AddFault(slow);
  platformpp::testkit::EmulatorAdmin::Fault slowLeave;
  slowLeave.route = "DELETE /lobbies/{lobby_id}/members/@me";
  slowLeave.delayMs = 30000;
  slowLeave.count = 1;
  e.admin->AddFault(slowLeave);
  std::vector<ErrorType> joins, leaves;
  a->client->CreateOrJoinLobby("destroy-secret",
                               [&](const ClientResult& r, uint64_t) { joins.push_back(r.Type()); });
  a->client->LeaveLobby(77, [&](const ClientResult& r) { leaves.push_back(r.Type()); });
  // The premise: both requests reached the emulator (each used up its fault), where they are held.
  REQUIRE(itest::WaitUntilFaultsTaken());
  a->client.reset();
  CHECK(joins == std::vector<ErrorType>{ErrorType::ClientDestroyed});
  CHECK(leaves == std::vector<ErrorType>{ErrorType::ClientDestroyed});
}

}  // namespace lobbies_test
