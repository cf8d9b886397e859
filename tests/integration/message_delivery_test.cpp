// Nothing lost: 1,000 lobby messages from one Client to another member across 20 forced failures (requests
// lost, responses lost after the platform handled them, 5xx, and the receiver's Gateway dropped) arrive
// exactly once each, in order, and every send callback succeeds. Its own emulator, with the social rate
// limits off (docs/social-protocol.md, "Social SDK development rate limits").
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

namespace message_delivery_test {

namespace {

using platformpp::Client;
using platformpp::ClientResult;
using platformpp::testkit::EmulatorAdmin;
using namespace std::chrono_literals;

struct DeliveryEnv {
  std::unique_ptr<platformpp::testkit::EmulatorProcess> process;
  std::unique_ptr<EmulatorAdmin> admin;
  EmulatorAdmin::App app;
};

struct Member {
  EmulatorAdmin::User user;
  std::string token;
  std::unique_ptr<Client> client;
  std::vector<uint64_t> created;
  std::vector<uint64_t> unreadable;  // MessageCreated for a message GetMessageHandle did not give
};

std::unique_ptr<Member> Connect(DeliveryEnv& env, const std::string& name) {
  auto member = std::make_unique<Member>();
  member->user = env.admin->CreateUser(name);
  member->token = env.admin->MintToken(member->user.id, env.app.id, "openid sdk.social_layer").accessToken;
  member->client = std::make_unique<Client>(env.process->Connection().ClientOptionsFor());
  Client& client = *member->client;
  client.SetApplicationId(env.app.id);
  Member* m = member.get();
  client.SetMessageCreatedCallback([m](uint64_t id) {
    m->created.push_back(id);
    if (!m->client->GetMessageHandle(id)) m->unreadable.push_back(id);
  });
  bool updated = false;
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, member->token,
                     [&](const ClientResult& result) { updated = result.Successful(); });
  client.Connect();
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while ((!updated || client.GetStatus() != Client::Status::Ready) &&
         std::chrono::steady_clock::now() < deadline) {
    client.RunCallbacks();
    std::this_thread::sleep_for(1ms);
  }
  REQUIRE(updated);
  REQUIRE(client.GetStatus() == Client::Status::Ready);
  return member;
}

bool RunBoth(Member& a, Member& b, const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    a.client->RunCallbacks();
    b.client->RunCallbacks();
    std::this_thread::sleep_for(100us);
  }
  return true;
}

/// PUT /lobbies with the member's token: joins (or creates) the lobby of `secret`.
uint64_t JoinLobby(DeliveryEnv& env, const Member& member, const std::string& secret) {
  platformpp::client::ClientCore core(env.process->Connection().ClientOptionsFor());
  platformpp::net::HttpRequest request;
  request.method = "PUT";
  request.url = core.ApiUrl("/lobbies");
  request.headers.emplace_back("Authorization", "Bearer " + member.token);
  request.body = R"({"secret":")" + secret + R"("})";
  request.contentType = "application/json";
  std::promise<platformpp::net::HttpResponse> promise;
  auto answer = promise.get_future();
  core.Http().Send(std::move(request), [&promise](platformpp::net::HttpResponse response) {
    promise.set_value(std::move(response));
  });
  auto response = answer.get();
  REQUIRE(response.status == 200);
  platformpp::json::Document document;
  REQUIRE(platformpp::json::Parse(response.body, document));
  return platformpp::json::GetSnowflake(document, "id").value_or(0);
}

}  // namespace

TEST_CASE("1,000 lobby messages across 20 forced failures arrive exactly once each, in order") {
  DeliveryEnv env;
  platformpp::testkit::EmulatorProcess::Options options;
  options.binary = PLATFORMPP_EMULATOR_PATH;
  options.ipc = false;
  options.extraArguments = {"--no-social-rate-limits"};
  env.process = platformpp::testkit::EmulatorProcess::Start(options);
  env.admin = std::make_unique<EmulatorAdmin>(env.process->Connection());
  env.app = env.admin->CreateApp("Delivery Test Game");

  auto sender = Connect(env, "delivery_sender");
  std::atomic<int> resent{0};
  sender->client->AddLogCallback(
      [&resent](const std::string& message, platformpp::LoggingSeverity) {
        if (message.find("with the same nonce") != std::string::npos) ++resent;
      },
      platformpp::LoggingSeverity::Info);
  auto receiver = Connect(env, "delivery_receiver");
  uint64_t lobby = JoinLobby(env, *sender, "delivery-lobby");
  REQUIRE(lobby != 0);
  REQUIRE(JoinLobby(env, *receiver, "delivery-lobby") == lobby);

  constexpr int kMessages = 1000;
  constexpr int kBatches = 20;
  const std::string route = "POST /lobbies/{lobby_id}/messages";
  std::vector<std::optional<std::pair<ClientResult, uint64_t>>> results(kMessages);
  int answered = 0;
  int dropsOfReceiver = 0;
  for (int batch = 0; batch < kBatches; ++batch) {
    for (int i = batch * (kMessages / kBatches); i < (batch + 1) * (kMessages / kBatches); ++i) {
      sender->client->SendLobbyMessage(lobby, "message " + std::to_string(i),
                                       [&results, &answered, i](ClientResult result, uint64_t id) {
                                         results[i].emplace(std::move(result), id);
                                         ++answered;
                                       });
    }
    // One forced failure per batch, while its messages are queued or in flight. Four in a row outlast the
    // HTTP client's own retries (three attempts, plus one free retry when a kept-alive connection turns
    // out closed), so the outbox's retry (same nonce) is what gets the message through.
    switch (batch % 4) {
      case 0:  // requests lost
        env.admin->AddFault({.route = route, .drop = true, .count = 4});
        break;
      case 1:  // handled, then the responses lost: the retries must not create the message again
        env.admin->AddFault({.route = route, .dropAfter = true, .count = 4});
        break;
      case 2:
        env.admin->AddFault({.route = route, .status = 503, .count = 4});
        break;
      case 3:
        dropsOfReceiver += env.admin->DropGateway(EmulatorAdmin::GatewayTarget{{}, receiver->user.id});
        break;
    }
    int until = (batch + 1) * (kMessages / kBatches);
    REQUIRE(RunBoth(
        *sender, *receiver, [&] { return answered >= until; }, 120s));
  }
  CHECK(dropsOfReceiver == kBatches / 4);
  // Each of the 15 HTTP faults outlasted the HTTP client's own retries: the outbox sent the message again.
  CHECK(resent.load() >= 15);

  std::vector<uint64_t> ids;
  for (int i = 0; i < kMessages; ++i) {
    REQUIRE(results[i]);
    INFO("message " << i << ": " << results[i]->first.ToString());
    REQUIRE(results[i]->first.Successful());
    ids.push_back(results[i]->second);
  }
  for (int i = 1; i < kMessages; ++i)
    CHECK(ids[i] > ids[i - 1]);  // created in call order

  REQUIRE(RunBoth(
      *sender, *receiver, [&] { return receiver->created.size() >= kMessages; }, 60s));
  // A little longer: a duplicate would arrive now.
  RunBoth(
      *sender, *receiver, [] { return false; }, 500ms);
  CHECK(receiver->created.size() == kMessages);
  CHECK(receiver->created == ids);
  CHECK(sender->created == ids);
  // Each readable in its callback, however many arrived between two RunCallbacks.
  CHECK(receiver->unreadable.empty());
  CHECK(sender->unreadable.empty());

  // The platform's own view: the newest 200, in order, each once.
  std::optional<std::vector<platformpp::MessageHandle>> history;
  receiver->client->GetLobbyMessagesWithLimit(
      lobby, 200, [&](const ClientResult& result, std::vector<platformpp::MessageHandle> list) {
        CHECK(result.Successful());
        history = std::move(list);
      });
  REQUIRE(RunBoth(
      *sender, *receiver, [&] { return history.has_value(); }, 20s));
  REQUIRE(history->size() == 200);
  for (int i = 0; i < 200; ++i) {
    CHECK((*history)[i].Id() == ids[800 + i]);
    CHECK((*history)[i].Content() == "message " + std::to_string(800 + i));
  }
}

namespace {

/// Two members of one lobby, on an emulator of their own, for the catch-up tests: the receiver's session is
/// ended for good (op 9, not resumable) while the sender writes.
struct CatchUpLobby {
  DeliveryEnv env;
  std::unique_ptr<Member> sender, receiver;
  uint64_t lobby = 0;
  int readies = 0;  // the receiver's Ready statuses from EndReceiverSession on

  explicit CatchUpLobby(const std::string& name) {
    platformpp::testkit::EmulatorProcess::Options options;
    options.binary = PLATFORMPP_EMULATOR_PATH;
    options.ipc = false;
    options.extraArguments = {"--no-social-rate-limits"};
    env.process = platformpp::testkit::EmulatorProcess::Start(options);
    env.admin = std::make_unique<EmulatorAdmin>(env.process->Connection());
    env.app = env.admin->CreateApp(name + " Game");
    sender = Connect(env, name + "_sender");
    receiver = Connect(env, name + "_receiver");
    lobby = JoinLobby(env, *sender, name + "-lobby");
    REQUIRE(JoinLobby(env, *receiver, name + "-lobby") == lobby);
  }
  bool Run(const std::function<bool()>& done, std::chrono::milliseconds timeout = 20s) {
    return RunBoth(*sender, *receiver, done, timeout);
  }
  /// A lobby message from `who`, waited for; its id.
  uint64_t Send(Member& who, const std::string& content) {
    uint64_t sentId = 0;
    who.client->SendLobbyMessage(lobby, content, [&](const ClientResult& result, uint64_t id) {
      CHECK(result.Successful());
      sentId = id;
    });
    REQUIRE(Run([&] { return sentId != 0; }));
    return sentId;
  }
  void EndReceiverSession() {
    receiver->client->SetStatusChangedCallback([this](Client::Status status, Client::Error, int32_t) {
      if (status == Client::Status::Ready) ++readies;
    });
    REQUIRE(env.admin->InvalidateGateway(EmulatorAdmin::GatewayTarget{{}, receiver->user.id}, false) == 1);
  }
};

}  // namespace

TEST_CASE(
    "a new session's catch-up and the live messages that overtake it reach the game in the platform's "
    "order") {
  CatchUpLobby t("catchup");
  std::vector<uint64_t> sent{t.Send(*t.sender, "before the gap")};
  REQUIRE(t.Run([&] { return t.receiver->created.size() == 1; }));
  // What is sent before the receiver's new READY is missed, and its catch-up (the lobby's history) is held
  // back 1.5 s, so that a live message sent after the new READY arrives first.
  t.env.admin->AddFault({.route = "GET /lobbies/{lobby_id}/messages", .delayMs = 1500, .count = 1});
  t.EndReceiverSession();
  sent.push_back(t.Send(*t.sender, "in the gap"));
  REQUIRE(t.Run([&] { return t.readies == 1; }));
  sent.push_back(t.Send(*t.sender, "after the new session"));
  REQUIRE(t.Run([&] { return t.receiver->created.size() == 3; }));
  t.Run([] { return false; }, 300ms);  // a duplicate would come now
  // The missed message first, although the live one came first: each once, by id.
  CHECK(t.receiver->created == sent);
}

TEST_CASE("a new session's catch-up brings a missed message although the player's own came after it") {
  CatchUpLobby t("gap");
  const auto first = t.Send(*t.sender, "before the gap");
  REQUIRE(t.Run([&] { return t.receiver->created.size() == 1; }));
  // In the gap the sender writes, then the receiver itself (its HTTP works without the Gateway): its own
  // message, newer, is announced from its send's answer at once.
  t.EndReceiverSession();
  const auto missed = t.Send(*t.sender, "in the gap");
  const auto own = t.Send(*t.receiver, "the receiver's own, in the gap");
  REQUIRE(t.readies == 0);  // still in the gap: a new session waits 1 to 5 s after op 9
  REQUIRE(t.Run([&] { return t.readies == 1; }));
  // The catch-up brings the missed one, once.
  REQUIRE(t.Run([&] { return t.receiver->created.size() == 3; }));
  t.Run([] { return false; }, 300ms);
  CHECK(t.receiver->created == std::vector<uint64_t>{first, own, missed});
}

TEST_CASE("a new session's catch-up that fails is tried again, the live messages waiting for it") {
  CatchUpLobby t("retry");
  std::vector<uint64_t> sent{t.Send(*t.sender, "before the gap")};
  REQUIRE(t.Run([&] { return t.receiver->created.size() == 1; }));
  // The catch-up's first fetch fails (503 past the HTTP client's three attempts); it is tried again a second
  // later, and a live message sent meanwhile waits for it.
  t.env.admin->AddFault({.route = "GET /lobbies/{lobby_id}/messages", .status = 503, .count = 4});
  t.EndReceiverSession();
  sent.push_back(t.Send(*t.sender, "in the gap"));
  REQUIRE(t.Run([&] { return t.readies == 1; }));
  sent.push_back(t.Send(*t.sender, "after the new session"));
  REQUIRE(t.Run([&] { return t.receiver->created.size() == 3; }, 30s));
  t.Run([] { return false; }, 300ms);
  CHECK(t.receiver->created == sent);
}

TEST_CASE(
    "a catch-up of more missed messages than the 25 a channel keeps: each one the game hears of is readable "
    "in its callback") {
  CatchUpLobby t("many");
  std::vector<uint64_t> sent{t.Send(*t.sender, "before the gap")};
  REQUIRE(t.Run([&] { return t.receiver->created.size() == 1; }));
  // The catch-up is held back until all 40 are sent, so that they reach the game in one go.
  t.env.admin->AddFault({.route = "GET /lobbies/{lobby_id}/messages", .delayMs = 1500, .count = 1});
  t.EndReceiverSession();
  for (int i = 0; i < 40; ++i)
    sent.push_back(t.Send(*t.sender, "in the gap " + std::to_string(i)));
  REQUIRE(t.Run([&] { return t.receiver->created.size() == sent.size(); }, 30s));
  t.Run([] { return false; }, 300ms);
  CHECK(t.receiver->created == sent);
  CHECK(t.receiver->unreadable.empty());
  // Once heard of, the window is 25 again: the oldest are let go.
  CHECK_FALSE(t.receiver->client->GetMessageHandle(sent[1]));
  CHECK(t.receiver->client->GetMessageHandle(sent.back()));
}

TEST_CASE(
    "a new session's catch-up brings a DM in a conversation the player had never seen, sent in the gap") {
  // Found by the fault soak's 100-player mode: the first DM of a conversation, sent while the receiver had no
  // session, was lost for good. The catch-up knew only the channels the Client had announced messages in;
  // READY's private_channels now name the others, with their newest message.
  // The gap is the Client's random 1-5 s wait before it identifies again after op 9: on a loaded machine the
  // DM may take longer, reach the new session live and test nothing. Such a run is tried again, with new
  // users.
  for (int attempt = 1;; ++attempt) {
    CatchUpLobby t("firstdm" + std::to_string(attempt));
    t.env.admin->MakeFriends(t.sender->user.id, t.receiver->user.id);
    // The gap's start: the newest message the receiver's lost session brought.
    const auto first = t.Send(*t.sender, "before the gap");
    REQUIRE(t.Run([&] { return t.receiver->created.size() == 1; }));
    t.EndReceiverSession();
    uint64_t dm = 0;
    t.sender->client->SendUserMessage(t.receiver->user.id, "the first DM, in the gap",
                                      [&](const ClientResult& result, uint64_t id) {
                                        CHECK(result.Successful());
                                        dm = id;
                                      });
    REQUIRE(t.Run([&] { return dm != 0; }));
    if (t.readies != 0) {
      MESSAGE("attempt " << attempt << ": the receiver's new session came before the DM; trying again");
      REQUIRE(attempt < 3);
      continue;
    }
    REQUIRE(t.Run([&] { return t.readies == 1; }));
    CHECK(t.Run([&] { return t.receiver->created.size() == 2; }));
    t.Run([] { return false; }, 300ms);
    CHECK(t.receiver->created == std::vector<uint64_t>{first, dm});
    break;
  }
}

}  // namespace message_delivery_test
