// Lobby messages and DMs against an emulator of their own (its fake clock moves here, and hundreds of
// messages are sent, so the social rate limits are off): who may DM whom, edit and delete with their
// callbacks, history limits and the 72-hour window, summaries, the content limit, moderation metadata set
// by the game's backend and cleared by an edit, and a lobby member's additional name.
#include "client/client_core.hpp"
#include "json/json.hpp"
#include "net/http_client.hpp"

#include <platformpp/client.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace messaging_test {

namespace {

using platformpp::ChannelType;
using platformpp::Client;
using platformpp::ClientResult;
using platformpp::ErrorType;
using platformpp::MessageHandle;
using platformpp::Metadata;
using platformpp::testkit::EmulatorAdmin;
using namespace std::chrono_literals;

struct Env {
  std::unique_ptr<platformpp::testkit::EmulatorProcess> process;
  std::unique_ptr<EmulatorAdmin> admin;
  EmulatorAdmin::App app;
  platformpp::ClientOptions Options() const { return process->Connection().ClientOptionsFor(); }
};

Env& Shared() {
  static Env env = [] {
    Env e;
    platformpp::testkit::EmulatorProcess::Options options;
    options.binary = PLATFORMPP_EMULATOR_PATH;
    options.ipc = false;
    options.extraArguments = {"--no-social-rate-limits"};
    e.process = platformpp::testkit::EmulatorProcess::Start(options);
    e.admin = std::make_unique<EmulatorAdmin>(e.process->Connection());
    e.app = e.admin->CreateApp("Messaging Test Game");
    return e;
  }();
  return env;
}

std::string UniqueName(const std::string& base) {
  static std::atomic<int> counter{0};
  return base + std::to_string(counter++);
}

struct Raw {
  int status = 0;
  std::string body;
};

/// One HTTP call to the emulator's API with `authorization` ("Bot ..." for the game's backend).
Raw Api(const std::string& authorization, const std::string& method, const std::string& path,
        const std::string& body = {}) {
  platformpp::client::ClientCore core(Shared().Options());
  platformpp::net::HttpRequest request;
  request.method = method;
  request.url = core.ApiUrl(path);
  request.headers.emplace_back("Authorization", authorization);
  if (!body.empty()) {
    request.body = body;
    request.contentType = "application/json";
  }
  std::promise<platformpp::net::HttpResponse> promise;
  auto answer = promise.get_future();
  core.Http().Send(std::move(request), [&promise](platformpp::net::HttpResponse response) {
    promise.set_value(std::move(response));
  });
  auto response = answer.get();
  return Raw{response.status, response.body};
}

std::string Bot() {
  return "Bot " + Shared().app.botToken;
}

uint64_t IdOf(const std::string& body) {
  platformpp::json::Document document;
  if (!platformpp::json::Parse(body, document) || !document.IsObject()) return 0;
  return platformpp::json::GetSnowflake(document, "id").value_or(0);
}

struct Player {
  EmulatorAdmin::User user;
  std::string token;
  std::unique_ptr<Client> client;
  std::vector<uint64_t> created, updated;
  std::vector<std::pair<uint64_t, uint64_t>> deleted;

  uint64_t Id() const { return user.id; }
  std::string Bearer() const { return "Bearer " + token; }
};

std::unique_ptr<Player> NewPlayer(const std::string& base, const std::string& globalName,
                                  bool connect = true) {
  auto& e = Shared();
  auto player = std::make_unique<Player>();
  player->user = e.admin->CreateUser(UniqueName(base), globalName);
  player->token = e.admin->MintToken(player->user.id, e.app.id, "openid sdk.social_layer").accessToken;
  player->client = std::make_unique<Client>(e.Options());
  Client& client = *player->client;
  client.SetApplicationId(e.app.id);
  Player* p = player.get();
  client.SetMessageCreatedCallback([p](uint64_t id) { p->created.push_back(id); });
  client.SetMessageUpdatedCallback([p](uint64_t id) { p->updated.push_back(id); });
  client.SetMessageDeletedCallback(
      [p](uint64_t id, uint64_t channel) { p->deleted.emplace_back(id, channel); });
  bool updated = false;
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, player->token,
                     [&](const ClientResult& result) { updated = result.Successful(); });
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!updated && std::chrono::steady_clock::now() < deadline) {
    client.RunCallbacks();
    std::this_thread::sleep_for(1ms);
  }
  REQUIRE(updated);
  if (connect) {
    client.Connect();
    deadline = std::chrono::steady_clock::now() + 20s;
    while (client.GetStatus() != Client::Status::Ready && std::chrono::steady_clock::now() < deadline) {
      client.RunCallbacks();
      std::this_thread::sleep_for(1ms);
    }
    REQUIRE(client.GetStatus() == Client::Status::Ready);
  }
  return player;
}

/// Runs the players' callbacks until `done()`.
bool RunAll(std::initializer_list<Player*> players, const std::function<bool()>& done,
            std::chrono::milliseconds timeout = 15s) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    for (Player* player : players)
      player->client->RunCallbacks();
    std::this_thread::sleep_for(200us);
  }
  return true;
}

std::pair<ClientResult, uint64_t> SendDm(Player& from, uint64_t to, const std::string& content,
                                         const Metadata& metadata = {}) {
  std::optional<std::pair<ClientResult, uint64_t>> out;
  from.client->SendUserMessageWithMetadata(
      to, content, metadata, [&](const ClientResult& result, uint64_t id) { out.emplace(result, id); });
  REQUIRE(RunAll({&from}, [&] { return out.has_value(); }));
  return *out;
}

std::pair<ClientResult, uint64_t> SendLobby(Player& from, uint64_t lobby, const std::string& content) {
  std::optional<std::pair<ClientResult, uint64_t>> out;
  from.client->SendLobbyMessage(lobby, content,
                                [&](const ClientResult& result, uint64_t id) { out.emplace(result, id); });
  REQUIRE(RunAll({&from}, [&] { return out.has_value(); }));
  return *out;
}

ClientResult Await(Player& player, const std::function<void(std::function<void(ClientResult)>)>& start) {
  std::optional<ClientResult> out;
  start([&](ClientResult result) { out = std::move(result); });
  REQUIRE(RunAll({&player}, [&] { return out.has_value(); }));
  return *out;
}

std::pair<ClientResult, std::vector<MessageHandle>> History(
    Player& player, const std::function<void(Client::GetMessagesCallback)>& start) {
  std::optional<std::pair<ClientResult, std::vector<MessageHandle>>> out;
  start([&](const ClientResult& result, std::vector<MessageHandle> messages) {
    out.emplace(result, std::move(messages));
  });
  REQUIRE(RunAll({&player}, [&] { return out.has_value(); }));
  return std::move(*out);
}

std::size_t Count(const std::vector<uint64_t>& ids, uint64_t id) {
  return static_cast<std::size_t>(std::count(ids.begin(), ids.end(), id));
}

/// A lobby both players joined (PUT /lobbies with their own tokens), known to both Clients.
uint64_t JoinLobby(Player& a, Player& b) {
  std::string body = R"({"secret":")" + UniqueName("messaging-secret-") + R"("})";
  Raw first = Api(a.Bearer(), "PUT", "/lobbies", body);
  REQUIRE(first.status == 200);
  uint64_t lobby = IdOf(first.body);
  REQUIRE(lobby != 0);
  REQUIRE(Api(b.Bearer(), "PUT", "/lobbies", body).status == 200);
  REQUIRE(RunAll({&a, &b}, [&] {
    auto handle = a.client->GetLobbyHandle(lobby);
    return handle && handle->LobbyMemberIds().size() == 2 && b.client->GetLobbyHandle(lobby);
  }));
  return lobby;
}

}  // namespace

TEST_CASE("DMs between friends: delivered once, edited, deleted, history, summaries") {
  auto a = NewPlayer("dm_a", "Alice");
  auto b = NewPlayer("dm_b", "Bob");
  Shared().admin->MakeFriends(a->Id(), b->Id());
  // Named, not structured bindings: the lambdas below capture them (clang-tidy's clang 14 cannot).
  auto sentId = SendDm(*a, b->Id(), "hello Bob");
  auto& sent = std::get<0>(sentId);
  auto& id = std::get<1>(sentId);
  REQUIRE(sent.Successful());
  REQUIRE(id != 0);
  REQUIRE(
      RunAll({a.get(), b.get()}, [&] { return Count(b->created, id) == 1 && Count(a->created, id) == 1; }));
  auto received = b->client->GetMessageHandle(id);
  REQUIRE(received);
  CHECK(received->Content() == "hello Bob");
  CHECK(received->AuthorId() == a->Id());
  CHECK(received->RecipientId() == b->Id());
  CHECK(received->SentTimestamp() > 0);
  CHECK(received->EditedTimestamp() == 0);
  CHECK_FALSE(received->LobbyId());
  auto channel = b->client->GetChannelHandle(received->ChannelId());
  REQUIRE(channel);
  CHECK(channel->Type() == ChannelType::Dm);
  CHECK(channel->Name() == "Alice");
  CHECK(channel->Recipients().size() == 2);
  CHECK(a->client->GetChannelHandle(received->ChannelId())->Name() == "Bob");

  auto secondSecondId = SendDm(*a, b->Id(), "with pairs", {{"k", "v"}});
  auto& second = std::get<0>(secondSecondId);
  auto& secondId = std::get<1>(secondSecondId);
  REQUIRE(second.Successful());
  REQUIRE(RunAll({a.get(), b.get()}, [&] { return Count(b->created, secondId) == 1; }));
  CHECK(b->client->GetMessageHandle(secondId)->Metadata() == Metadata{{"k", "v"}});
  CHECK(secondId > id);

  // Edit: both hear of it.
  auto edited = Await(*a, [&](auto cb) { a->client->EditUserMessage(b->Id(), id, "hello again", cb); });
  REQUIRE(edited.Successful());
  REQUIRE(
      RunAll({a.get(), b.get()}, [&] { return Count(b->updated, id) == 1 && Count(a->updated, id) == 1; }));
  CHECK(b->client->GetMessageHandle(id)->Content() == "hello again");
  CHECK(b->client->GetMessageHandle(id)->EditedTimestamp() > 0);
  // Only the author edits.
  auto foreign = Await(*b, [&](auto cb) { b->client->EditUserMessage(a->Id(), id, "not yours", cb); });
  CHECK(foreign.Type() == ErrorType::HTTPError);
  CHECK(foreign.Status() == 403);

  // History, oldest first; 200 is the most one may ask for.
  auto [got, messages] = History(*b, [&](auto cb) { b->client->GetUserMessagesWithLimit(a->Id(), 200, cb); });
  REQUIRE(got.Successful());
  REQUIRE(messages.size() == 2);
  CHECK(messages[0].Id() == id);
  CHECK(messages[0].Content() == "hello again");
  CHECK(messages[1].Id() == secondId);
  auto [tooMany, none] = History(*b, [&](auto cb) { b->client->GetUserMessagesWithLimit(a->Id(), 201, cb); });
  CHECK(tooMany.Type() == ErrorType::ValidationError);
  auto [one, last] = History(*b, [&](auto cb) { b->client->GetUserMessagesWithLimit(a->Id(), 1, cb); });
  REQUIRE(last.size() == 1);
  CHECK(last[0].Id() == secondId);
  CHECK(Count(b->created, id) == 1);  // history brought nothing new to announce

  // Summaries: the last DM with each player.
  std::optional<std::vector<platformpp::UserMessageSummary>> summaries;
  a->client->GetUserMessageSummaries(
      [&](const ClientResult& result, std::vector<platformpp::UserMessageSummary> list) {
        CHECK(result.Successful());
        summaries = std::move(list);
      });
  REQUIRE(RunAll({a.get()}, [&] { return summaries.has_value(); }));
  REQUIRE(summaries->size() == 1);
  CHECK((*summaries)[0].UserId() == b->Id());
  CHECK((*summaries)[0].LastMessageId() == secondId);

  // Delete: both hear of it with the channel.
  auto deleted = Await(*a, [&](auto cb) { a->client->DeleteUserMessage(b->Id(), id, cb); });
  REQUIRE(deleted.Successful());
  REQUIRE(RunAll({a.get(), b.get()}, [&] { return !b->deleted.empty() && !a->deleted.empty(); }));
  CHECK(b->deleted[0] == std::make_pair(id, received->ChannelId()));
  CHECK_FALSE(b->client->GetMessageHandle(id));
  CHECK(b->client->GetMessageHandle(secondId));
}

TEST_CASE("DMs to strangers are refused (50007), and ephemeral when both are online in the game") {
  auto a = NewPlayer("eph_a", "Ann");
  auto offline = NewPlayer("eph_off", "Off", false);
  auto [refused, none] = SendDm(*a, offline->Id(), "hi stranger");
  CHECK(refused.Type() == ErrorType::HTTPError);
  CHECK(refused.Status() == 400);
  CHECK(refused.ErrorCode() == 50007);
  CHECK(none == 0);

  auto c = NewPlayer("eph_c", "Cid");
  auto sentId = SendDm(*a, c->Id(), "we play together");
  auto& sent = std::get<0>(sentId);
  auto& id = std::get<1>(sentId);
  REQUIRE(sent.Successful());
  REQUIRE(RunAll({a.get(), c.get()}, [&] { return Count(c->created, id) == 1; }));
  auto message = c->client->GetMessageHandle(id);
  REQUIRE(message);
  auto channel = c->client->GetChannelHandle(message->ChannelId());
  REQUIRE(channel);
  CHECK(channel->Type() == ChannelType::EphemeralDm);
  CHECK(channel->Name() == "Ann");
  // Delivered, not kept.
  auto [got, kept] = History(*c, [&](auto cb) { c->client->GetUserMessagesWithLimit(a->Id(), 50, cb); });
  CHECK(got.Successful());
  CHECK(kept.empty());
}

TEST_CASE("message content: 2000 characters are sent, 2001 are refused before sending") {
  auto a = NewPlayer("len_a", "A");
  auto b = NewPlayer("len_b", "B");
  Shared().admin->MakeFriends(a->Id(), b->Id());
  std::string longest;
  for (int i = 0; i < 2000; ++i)
    longest += "\xC3\xA9";  // "é": two bytes, one character
  auto okId = SendDm(*a, b->Id(), longest);
  auto& ok = std::get<0>(okId);
  auto& id = std::get<1>(okId);
  REQUIRE(ok.Successful());
  REQUIRE(RunAll({b.get()}, [&] { return Count(b->created, id) == 1; }));
  CHECK(b->client->GetMessageHandle(id)->Content() == longest);
  auto [over, none] = SendDm(*a, b->Id(), longest + "e");
  CHECK(over.Type() == ErrorType::ValidationError);
  auto [lobbyOver, none2] = SendLobby(*a, 1, std::string(2001, 'x'));
  CHECK(lobbyOver.Type() == ErrorType::ValidationError);
}

TEST_CASE("moderation metadata set by the backend, then cleared by an edit") {
  auto a = NewPlayer("mod_a", "A");
  auto b = NewPlayer("mod_b", "B");
  Shared().admin->MakeFriends(a->Id(), b->Id());
  auto sentId = SendDm(*a, b->Id(), "check me");
  auto& sent = std::get<0>(sentId);
  auto& id = std::get<1>(sentId);
  REQUIRE(sent.Successful());
  REQUIRE(RunAll({a.get(), b.get()}, [&] { return Count(b->created, id) == 1; }));
  Raw set = Api(Bot(), "PUT",
                "/partner-sdk/dms/" + std::to_string(a->Id()) + "/" + std::to_string(b->Id()) + "/messages/" +
                    std::to_string(id) + "/moderation-metadata",
                R"({"verdict":"ok","score":"0.02"})");
  REQUIRE(set.status == 204);
  REQUIRE(RunAll({a.get(), b.get()}, [&] { return Count(b->updated, id) == 1; }));
  CHECK(b->client->GetMessageHandle(id)->ModerationMetadata() ==
        Metadata{{"verdict", "ok"}, {"score", "0.02"}});
  auto edited = Await(*a, [&](auto cb) { a->client->EditUserMessage(b->Id(), id, "checked", cb); });
  REQUIRE(edited.Successful());
  REQUIRE(RunAll({a.get(), b.get()}, [&] { return Count(b->updated, id) == 2; }));
  CHECK(b->client->GetMessageHandle(id)->ModerationMetadata().empty());
  CHECK(b->client->GetMessageHandle(id)->Content() == "checked");

  // Lobby messages too.
  uint64_t lobby = JoinLobby(*a, *b);
  auto lobbySentLobbyMessage = SendLobby(*a, lobby, "lobby words");
  auto& lobbySent = std::get<0>(lobbySentLobbyMessage);
  auto& lobbyMessage = std::get<1>(lobbySentLobbyMessage);
  REQUIRE(lobbySent.Successful());
  REQUIRE(RunAll({a.get(), b.get()}, [&] { return Count(b->created, lobbyMessage) == 1; }));
  Raw lobbySet = Api(Bot(), "PUT",
                     "/lobbies/" + std::to_string(lobby) + "/messages/" + std::to_string(lobbyMessage) +
                         "/moderation-metadata",
                     R"({"flagged":"no"})");
  REQUIRE(lobbySet.status == 204);
  REQUIRE(RunAll({a.get(), b.get()}, [&] { return Count(b->updated, lobbyMessage) == 1; }));
  CHECK(b->client->GetMessageHandle(lobbyMessage)->ModerationMetadata() == Metadata{{"flagged", "no"}});
}

TEST_CASE("messages sent while a member was away are announced once, in order, after it reconnects") {
  auto a = NewPlayer("away_a", "A");
  auto b = NewPlayer("away_b", "B");
  uint64_t lobby = JoinLobby(*a, *b);
  auto beforeBeforeId = SendLobby(*a, lobby, "before");
  auto& before = std::get<0>(beforeBeforeId);
  auto& beforeId = std::get<1>(beforeBeforeId);
  REQUIRE(before.Successful());
  REQUIRE(RunAll({a.get(), b.get()}, [&] { return Count(b->created, beforeId) == 1; }));

  b->client->Disconnect();
  REQUIRE(RunAll({b.get()}, [&] { return b->client->GetStatus() == Client::Status::Disconnected; }));
  std::vector<uint64_t> missed;
  for (int i = 0; i < 5; ++i) {
    auto sentId = SendLobby(*a, lobby, "while away " + std::to_string(i));
    auto& sent = std::get<0>(sentId);
    auto& id = std::get<1>(sentId);
    REQUIRE(sent.Successful());
    missed.push_back(id);
  }
  b->client->Connect();
  REQUIRE(RunAll(
      {a.get(), b.get()}, [&] { return b->created.size() >= 6; }, 20s));
  auto afterAfterId = SendLobby(*a, lobby, "after");
  auto& after = std::get<0>(afterAfterId);
  auto& afterId = std::get<1>(afterAfterId);
  REQUIRE(after.Successful());
  REQUIRE(RunAll({a.get(), b.get()}, [&] { return Count(b->created, afterId) == 1; }));
  std::vector<uint64_t> expected{beforeId};
  expected.insert(expected.end(), missed.begin(), missed.end());
  expected.push_back(afterId);
  CHECK(b->created == expected);
  CHECK(b->client->GetMessageHandle(missed[4])->Content() == "while away 4");
}

TEST_CASE("lobby messages: order, window, history of 200 (201 refused), additional names, 72 hours") {
  auto a = NewPlayer("lob_a", "A");
  auto b = NewPlayer("lob_b", "B");
  uint64_t lobby = JoinLobby(*a, *b);
  auto channel = b->client->GetChannelHandle(lobby);
  REQUIRE(channel);
  CHECK(channel->Type() == ChannelType::Lobby);
  CHECK(channel->Recipients().size() == 2);

  // The backend gives A a character name; B sees it with A's messages.
  Raw named = Api(Bot(), "PUT", "/lobbies/" + std::to_string(lobby) + "/members/" + std::to_string(a->Id()),
                  R"({"additional_name":"Sir Reginald"})");
  REQUIRE(named.status == 200);

  std::vector<uint64_t> ids;
  for (int i = 0; i < 201; ++i) {
    std::optional<std::pair<ClientResult, uint64_t>> out;
    a->client->SendLobbyMessage(lobby, "m" + std::to_string(i),
                                [&](const ClientResult& result, uint64_t id) { out.emplace(result, id); });
    REQUIRE(RunAll({a.get(), b.get()}, [&] { return out.has_value(); }));
    REQUIRE(out->first.Successful());
    ids.push_back(out->second);
  }
  REQUIRE(RunAll({a.get(), b.get()}, [&] { return b->created.size() >= 201; }));
  CHECK(b->created == ids);  // each once, in order
  auto first = b->client->GetMessageHandle(ids[200]);
  REQUIRE(first);
  CHECK(first->AdditionalName() == std::optional<std::string>("Sir Reginald"));
  CHECK(first->LobbyId() == lobby);
  CHECK(first->ChannelId() == lobby);
  CHECK_FALSE(b->client->GetMessageHandle(ids[175]));  // only the 25 newest are kept
  CHECK(b->client->GetMessageHandle(ids[176]));

  auto [got, messages] = History(*b, [&](auto cb) { b->client->GetLobbyMessagesWithLimit(lobby, 200, cb); });
  REQUIRE(got.Successful());
  REQUIRE(messages.size() == 200);
  CHECK(messages.front().Id() == ids[1]);
  CHECK(messages.back().Id() == ids[200]);
  CHECK(messages.front().Content() == "m1");
  auto [over, none] = History(*b, [&](auto cb) { b->client->GetLobbyMessagesWithLimit(lobby, 201, cb); });
  CHECK(over.Type() == ErrorType::ValidationError);
  CHECK(b->created.size() == 201);  // history is not news

  // 72 hours by the emulator's clock.
  auto& admin = *Shared().admin;
  admin.AdvanceClock(72h - 1min);
  auto [recent, within] = History(*b, [&](auto cb) { b->client->GetLobbyMessagesWithLimit(lobby, 5, cb); });
  REQUIRE(recent.Successful());
  CHECK(within.size() == 5);
  admin.AdvanceClock(2min);
  auto [later, beyond] = History(*b, [&](auto cb) { b->client->GetLobbyMessagesWithLimit(lobby, 5, cb); });
  REQUIRE(later.Successful());
  CHECK(beyond.empty());
  auto [fresh, freshId] = SendLobby(*a, lobby, "new day");
  REQUIRE(fresh.Successful());
  auto [after, now] = History(*b, [&](auto cb) { b->client->GetLobbyMessagesWithLimit(lobby, 200, cb); });
  REQUIRE(now.size() == 1);
  CHECK(now[0].Id() == freshId);
}

}  // namespace messaging_test
