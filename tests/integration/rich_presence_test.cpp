// Rich presence against the emulator: what a player sets reaches a friend (over the Gateway's op 3, or over
// the desktop client's SET_ACTIVITY with no token at all), invalid activities never leave the SDK, and the
// presence comes back after reconnects of either connection (docs/social-protocol.md).
#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "core/runtime.hpp"
#include "emulator_fixture.hpp"
#include "gateway/gateway_connection.hpp"
#include "ipc/ipc_link.hpp"
#include "net/http_client.hpp"
#include "presence/presence_service.hpp"
#include "social/social_store.hpp"

#include <platformpp/activity.hpp>
#include <platformpp/client.hpp>
#include <platformpp/io_context.hpp>
#include <platformpp/social.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rich_presence_test {

namespace {

using platformpp::Activity;
using platformpp::ActivityTypes;
using platformpp::Client;
using platformpp::ClientResult;
using platformpp::ErrorType;
using platformpp::StatusType;
using namespace std::chrono_literals;

struct Player {
  platformpp::testkit::EmulatorAdmin::User user;
  std::string token;
  std::unique_ptr<Client> client;
  uint64_t Id() const { return user.id; }
};

std::string UniqueName(const std::string& base) {
  static std::atomic<int> counter{0};
  return base + std::to_string(counter++);
}

/// A user with a Client; Ready on the Gateway when `connect`.
std::unique_ptr<Player> NewPlayer(const std::string& base, bool connect = true,
                                  std::optional<platformpp::testkit::EmulatorAdmin::User> existing = {}) {
  auto& e = itest::Shared();
  auto player = std::make_unique<Player>();
  player->user = existing ? *existing : e.admin->CreateUser(UniqueName(base));
  player->token = e.admin->MintToken(player->user.id, e.app.id, "openid sdk.social_layer").accessToken;
  player->client = std::make_unique<Client>(e.Options());
  Client& client = *player->client;
  client.SetApplicationId(e.app.id);
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

/// Runs every Client's callbacks until `done()`.
bool RunAll(const std::vector<Client*>& clients, const std::function<bool()>& done,
            std::chrono::milliseconds timeout = 10s) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    for (Client* c : clients)
      c->RunCallbacks();
    std::this_thread::sleep_for(200us);
  }
  return true;
}

void RunFor(const std::vector<Client*>& clients, std::chrono::milliseconds duration) {
  RunAll(
      clients, [] { return false; }, duration);
}

ClientResult AwaitResult(Client& client, const std::function<void(Client::UpdateRichPresenceCallback)>& start,
                         const std::vector<Client*>& others = {}) {
  auto out = std::make_shared<std::optional<ClientResult>>();
  start([out](ClientResult result) { *out = std::move(result); });
  std::vector<Client*> all = others;
  all.push_back(&client);
  REQUIRE(RunAll(
      all, [&] { return out->has_value(); }, 20s));
  return **out;
}

ClientResult Update(Client& client, Activity activity, const std::vector<Client*>& others = {}) {
  return AwaitResult(
      client, [&](auto cb) { client.UpdateRichPresence(activity, cb); }, others);
}

Activity Playing(const std::string& state) {
  Activity a;
  a.SetName("Integration Test Game");
  a.SetType(ActivityTypes::Playing);
  a.SetState(state);
  a.SetDetails("Ranked match");
  platformpp::ActivityParty party;
  party.SetId("party-" + state);
  party.SetCurrentSize(1);
  party.SetMaxSize(4);
  a.SetParty(party);
  platformpp::ActivitySecrets secrets;
  secrets.SetJoin("join-secret-" + state);
  a.SetSecrets(secrets);
  platformpp::ActivityButton button;
  button.SetLabel("Watch");
  button.SetUrl("https://example.com/watch");
  a.AddButton(button);
  return a;
}

/// What `viewer` currently knows of `userId`'s activity in this game: its state, or empty.
std::string SeenState(Client& viewer, uint64_t userId) {
  auto user = viewer.GetUser(userId);
  if (!user) return {};
  auto activity = user->GameActivity();
  if (!activity || !activity->State()) return {};
  return *activity->State();
}

void BeFriends(Player& a, Player& b) {
  itest::Shared().admin->MakeFriends(a.Id(), b.Id());
  REQUIRE(RunAll({a.client.get(), b.client.get()}, [&] {
    return a.client->GetRelationshipHandle(b.Id()).DiscordRelationshipType() ==
               platformpp::RelationshipType::Friend &&
           b.client->GetRelationshipHandle(a.Id()).DiscordRelationshipType() ==
               platformpp::RelationshipType::Friend;
  }));
}

std::string SessionOf(uint64_t userId) {
  for (const auto& s : itest::Shared().admin->GatewaySessions()) {
    if (s.userId == userId && s.connected) return s.sessionId;
  }
  return {};
}

bool SessionExists(const std::string& sessionId) {
  for (const auto& s : itest::Shared().admin->GatewaySessions()) {
    if (s.sessionId == sessionId) return true;
  }
  return false;
}

/// The desktop client's user is `userId` while this lives (the emulator's consent user).
struct ConsentScope {
  explicit ConsentScope(uint64_t userId) { itest::Shared().admin->SetConsent(userId); }
  ~ConsentScope() {
    itest::Shared().admin->SetConsent(itest::Shared().user.id);
    itest::Shared().admin->RestoreIpc();
  }
};

}  // namespace

TEST_CASE("rich presence: A's activity and status reach friend B; cleared, it goes away") {
  auto a = NewPlayer("rp_a");
  auto b = NewPlayer("rp_b");
  BeFriends(*a, *b);
  std::vector<Client*> both{a->client.get(), b->client.get()};

  ClientResult result = Update(*a->client, Playing("In the lobby"), both);
  REQUIRE_MESSAGE(result.Successful(), result.ToString());
  REQUIRE(RunAll(both, [&] { return SeenState(*b->client, a->Id()) == "In the lobby"; }));
  auto seen = *b->client->GetUser(a->Id())->GameActivity();
  CHECK(seen.Details() == "Ranked match");
  CHECK(seen.ApplicationId() == itest::Shared().app.id);  // set by the server from A's token
  REQUIRE(seen.Party());
  CHECK(seen.Party()->Id() == "party-In the lobby");
  CHECK(seen.Party()->MaxSize() == 4);
  CHECK_FALSE((seen.Secrets() && !seen.Secrets()->Join().empty()));  // never fanned out
  REQUIRE(seen.GetButtons().size() == 1);
  CHECK(seen.GetButtons()[0].Label() == "Watch");
  CHECK(seen.GetButtons()[0].Url().empty());  // labels only

  // A later update replaces it.
  REQUIRE(Update(*a->client, Playing("In a match"), both).Successful());
  REQUIRE(RunAll(both, [&] { return SeenState(*b->client, a->Id()) == "In a match"; }));

  // Online status; the activity stays.
  result = AwaitResult(
      *a->client, [&](auto cb) { a->client->SetOnlineStatus(StatusType::Dnd, cb); }, both);
  REQUIRE_MESSAGE(result.Successful(), result.ToString());
  REQUIRE(RunAll(both, [&] { return b->client->GetUser(a->Id())->Status() == StatusType::Dnd; }));
  CHECK(SeenState(*b->client, a->Id()) == "In a match");

  // Invisible: friends see A offline.
  REQUIRE(AwaitResult(
              *a->client, [&](auto cb) { a->client->SetOnlineStatus(StatusType::Invisible, cb); }, both)
              .Successful());
  REQUIRE(RunAll(both, [&] { return b->client->GetUser(a->Id())->Status() == StatusType::Offline; }));
  REQUIRE(AwaitResult(
              *a->client, [&](auto cb) { a->client->SetOnlineStatus(StatusType::Online, cb); }, both)
              .Successful());
  REQUIRE(RunAll(both, [&] { return b->client->GetUser(a->Id())->Status() == StatusType::Online; }));

  a->client->ClearRichPresence();
  REQUIRE(RunAll(both, [&] { return !b->client->GetUser(a->Id())->GameActivity(); }));
  CHECK(b->client->GetUser(a->Id())->Status() == StatusType::Online);

  // Not a status a player can choose.
  result = AwaitResult(*a->client, [&](auto cb) { a->client->SetOnlineStatus(StatusType::Blocked, cb); });
  CHECK(result.Type() == ErrorType::ValidationError);
}

TEST_CASE("rich presence: invalid activities are refused with the field named, and nothing is sent") {
  auto a = NewPlayer("rp_invalid_a");
  auto b = NewPlayer("rp_invalid_b");
  BeFriends(*a, *b);
  std::vector<Client*> both{a->client.get(), b->client.get()};
  REQUIRE(Update(*a->client, Playing("valid one"), both).Successful());
  REQUIRE(RunAll(both, [&] { return SeenState(*b->client, a->Id()) == "valid one"; }));
  const std::string sessionBefore = SessionOf(a->Id());
  REQUIRE_FALSE(sessionBefore.empty());

  struct Case {
    std::string path;
    std::function<void(Activity&)> spoil;
  };
  std::vector<Case> cases = {
      {"activity.state", [](Activity& x) { x.SetState("x"); }},
      {"activity.details", [](Activity& x) { x.SetDetails(std::string(129, 'd')); }},
      {"activity.type", [](Activity& x) { x.SetType(ActivityTypes::Streaming); }},
      {"activity.buttons",
       [](Activity& x) {
         platformpp::ActivityButton extra;
         extra.SetLabel("More");
         extra.SetUrl("https://example.com");
         x.AddButton(extra);
         x.AddButton(extra);
       }},
      {"activity.state_url", [](Activity& x) { x.SetStateUrl("ftp://example.com"); }},
      {"activity.party.id",
       [](Activity& x) {
         auto p = *x.Party();
         p.SetId("p");
         x.SetParty(p);
       }},
      // Every field within its limit, but together over the Gateway's 4096-byte payload limit.
      {"activity",
       [](Activity& x) {
         auto emoji = [](int n) {
           std::string text;
           for (int i = 0; i < n; ++i)
             text += "\xF0\x9F\x8E\xAE";
           return text;
         };
         x.SetName(emoji(128));
         x.SetState(emoji(128));
         x.SetDetails(emoji(128));
         platformpp::ActivityAssets assets;
         assets.SetLargeImage(emoji(256));
         assets.SetSmallImage(emoji(256));
         assets.SetLargeText(emoji(128));
         assets.SetSmallText(emoji(128));
         x.SetAssets(assets);
       }},
  };
  for (const auto& c : cases) {
    CAPTURE(c.path);
    Activity bad = Playing("never seen");
    c.spoil(bad);
    ClientResult result = Update(*a->client, bad, both);
    CHECK(result.Type() == ErrorType::ValidationError);
    bool named = false;
    for (const auto& f : result.FieldErrors())
      named = named || f.path == c.path;
    CHECK(named);
    CHECK(result.Error().find(c.path) != std::string::npos);
  }
  // Nothing reached the emulator: B still sees the valid activity, and A's connection was never closed for a
  // bad payload (it would be, with a decode error).
  RunFor(both, 500ms);
  CHECK(SeenState(*b->client, a->Id()) == "valid one");
  CHECK(SessionOf(a->Id()) == sessionBefore);
  CHECK(a->client->GetStatus() == Client::Status::Ready);

  // The SDK still works: the next valid one goes out.
  REQUIRE(Update(*a->client, Playing("valid two"), both).Successful());
  REQUIRE(RunAll(both, [&] { return SeenState(*b->client, a->Id()) == "valid two"; }));
}

TEST_CASE("rich presence: over the desktop client with no token and no Connect, it reaches a friend") {
  auto x = NewPlayer("rp_ipc_x", /*connect=*/false);  // the desktop client's user
  auto b = NewPlayer("rp_ipc_b");
  itest::Shared().admin->MakeFriends(x->Id(), b->Id());
  REQUIRE(RunAll({b->client.get()}, [&] {
    return b->client->GetRelationshipHandle(x->Id()).DiscordRelationshipType() ==
           platformpp::RelationshipType::Friend;
  }));
  ConsentScope consent(x->Id());

  Client game(itest::Shared().Options());  // no token, never connected
  game.SetApplicationId(itest::Shared().app.id);
  std::vector<Client*> both{&game, b->client.get()};

  // Refused before anything is sent: the desktop client keeps no activity from this game.
  Activity bad = Playing("never seen");
  bad.SetType(ActivityTypes::CustomStatus);
  ClientResult refused = Update(game, bad, both);
  CHECK(refused.Type() == ErrorType::ValidationError);
  REQUIRE_FALSE(refused.FieldErrors().empty());
  CHECK(refused.FieldErrors()[0].path == "activity.type");
  for (const auto& connection : itest::Shared().admin->IpcStatus().connections) {
    CHECK(connection.activityJson.find("never seen") == std::string::npos);
  }

  ClientResult result = Update(game, Playing("From the desktop"), both);
  REQUIRE_MESSAGE(result.Successful(), result.ToString());
  CHECK(game.GetStatus() == Client::Status::Disconnected);
  REQUIRE(RunAll(both, [&] { return SeenState(*b->client, x->Id()) == "From the desktop"; }));
  bool stored = false;
  for (const auto& connection : itest::Shared().admin->IpcStatus().connections) {
    stored = stored || connection.activityJson.find("From the desktop") != std::string::npos;
  }
  CHECK(stored);

  // The desktop client quits: the activity goes with it; it comes back, and the SDK sets it again.
  itest::Shared().admin->DropIpc();
  REQUIRE(RunAll(both, [&] { return SeenState(*b->client, x->Id()).empty(); }));
  itest::Shared().admin->RestoreIpc();
  CHECK(RunAll(
      both, [&] { return SeenState(*b->client, x->Id()) == "From the desktop"; }, 20s));

  // Cleared over the desktop client too.
  game.ClearRichPresence();
  CHECK(RunAll(both, [&] { return SeenState(*b->client, x->Id()).empty(); }));
}

TEST_CASE("rich presence: nowhere to send it is ClientNotReady") {
  platformpp::ClientOptions options = itest::Shared().Options();
  options.ipcEnabled = false;
  Client game(options);
  game.SetApplicationId(itest::Shared().app.id);
  ClientResult result = Update(game, Playing("nowhere"));
  CHECK(result.Type() == ErrorType::ClientNotReady);
  result = AwaitResult(game, [&](auto cb) { game.SetOnlineStatus(StatusType::Idle, cb); });
  CHECK(result.Type() == ErrorType::ClientNotReady);
}

TEST_CASE("rich presence: sent again after a resume and after a fresh identify") {
  auto a = NewPlayer("rp_again_a");
  auto b = NewPlayer("rp_again_b");
  BeFriends(*a, *b);
  const std::string sessionA = SessionOf(a->Id());
  REQUIRE_FALSE(sessionA.empty());
  // A second session of the same user: what it sets replaces A's presence on the server, so only a re-send
  // from A's Client can bring A's activity back.
  auto a2 = NewPlayer("rp_again_a2", true, a->user);
  std::vector<Client*> all{a->client.get(), a2->client.get(), b->client.get()};

  REQUIRE(Update(*a->client, Playing("mine"), all).Successful());
  REQUIRE(RunAll(all, [&] { return SeenState(*b->client, a->Id()) == "mine"; }));
  REQUIRE(Update(*a2->client, Playing("other"), all).Successful());
  REQUIRE(RunAll(all, [&] { return SeenState(*b->client, a->Id()) == "other"; }));

  // The connection breaks; the SDK resumes the session and sends its presence again.
  platformpp::testkit::EmulatorAdmin::GatewayTarget target;
  target.sessionId = sessionA;
  REQUIRE(itest::Shared().admin->DropGateway(target) == 1);
  CHECK(RunAll(
      all, [&] { return SeenState(*b->client, a->Id()) == "mine"; }, 30s));
  CHECK(a->client->GetStatus() == Client::Status::Ready);

  REQUIRE(Update(*a2->client, Playing("other again"), all).Successful());
  REQUIRE(RunAll(all, [&] { return SeenState(*b->client, a->Id()) == "other again"; }));

  // The session ends (op 9, not resumable): a fresh Identify, READY, and the presence goes out again.
  REQUIRE(SessionExists(sessionA));  // resumed, not replaced
  REQUIRE(itest::Shared().admin->InvalidateGateway(target, false) == 1);
  CHECK(RunAll(
      all, [&] { return SeenState(*b->client, a->Id()) == "mine"; }, 30s));
  CHECK_FALSE(SessionExists(sessionA));
}

TEST_CASE("gateway Send: dropped when not Ready or over 4096 bytes, handed to the socket when Ready") {
  auto a = NewPlayer("rp_send_a", /*connect=*/false);
  auto b = NewPlayer("rp_send_b");
  itest::Shared().admin->MakeFriends(a->Id(), b->Id());
  platformpp::ClientOptions clientOptions = itest::Shared().Options();

  auto io = std::make_shared<platformpp::IoContext>(1);
  auto queue = std::make_shared<platformpp::core::CallbackQueue>();
  auto logger = std::make_shared<platformpp::core::Logger>(queue);
  platformpp::net::HttpClientOptions httpOptions;
  httpOptions.caFile = clientOptions.caFile;
  platformpp::net::HttpClient http(*io, logger, httpOptions);
  platformpp::gateway::GatewayOptions options;
  options.apiBase = clientOptions.apiBase;
  options.caFile = clientOptions.caFile;
  options.token = [token = a->token] { return "Bearer " + token; };
  platformpp::gateway::GatewayConnection gateway(*io, logger, http, options);
  std::atomic<bool> ready{false};
  gateway.SetStatusHandler(
      [&](Client::Status status, Client::Error, int32_t) { ready = status == Client::Status::Ready; });

  auto send = [&](std::string payload) {
    auto promise = std::make_shared<std::promise<bool>>();
    auto future = promise->get_future();
    gateway.Send(std::move(payload), [promise](bool sent) { promise->set_value(sent); });
    REQUIRE(future.wait_for(10s) == std::future_status::ready);
    return future.get();
  };
  auto presence = [](const std::string& state) {
    return R"({"op":3,"d":{"since":null,"activities":[{"name":"G","type":0,"state":")" + state +
           R"("}],"status":"online","afk":false}})";
  };

  CHECK_FALSE(send(presence("before connect")));  // no session
  gateway.Connect();
  REQUIRE(RunAll(
      {b->client.get()}, [&] { return ready.load(); }, 20s));

  std::string big = presence(std::string(4096, 'x'));
  REQUIRE(big.size() > platformpp::gateway::kMaxClientPayloadBytes);
  CHECK_FALSE(send(big));
  std::string limit = presence(std::string(4096 - presence("").size(), 'y'));
  REQUIRE(limit.size() == platformpp::gateway::kMaxClientPayloadBytes);
  CHECK(send(limit));  // exactly at the limit: accepted by the platform
  CHECK(send(presence("raw send")));
  CHECK(RunAll({b->client.get()}, [&] { return SeenState(*b->client, a->Id()) == "raw send"; }));
  CHECK(ready.load());  // nothing made the server close the connection
  gateway.Shutdown();
}

// The window the 1-hour fault soak's presence finding pointed at (docs/fault-soak.md): READY's resend of the
// presence ran as the dispatch was handled, before the session's status became Ready. A game thread's
// UpdateRichPresence landing in between found the session not Ready (so did not send) while the resend had
// already read the old activity: friends kept the old one until the next change. Here the update is made at
// exactly that point, from the sink that handles READY, as a game thread would make it there.
TEST_CASE("rich presence: an update made between READY's dispatch and the Ready status goes out") {
  auto a = NewPlayer("rp_window_a", /*connect=*/false);
  auto b = NewPlayer("rp_window_b");
  itest::Shared().admin->MakeFriends(a->Id(), b->Id());

  platformpp::ClientOptions clientOptions = itest::Shared().Options();
  clientOptions.ipcEnabled = false;  // the Gateway or nothing: no desktop client to fall back on
  platformpp::core::Runtime runtime(clientOptions);
  platformpp::net::HttpClientOptions httpOptions;
  httpOptions.caFile = clientOptions.caFile;
  platformpp::net::HttpClient http(runtime.Io(), runtime.LoggerPtr(), httpOptions);
  platformpp::ipc::IpcLink ipc(runtime.Io(), runtime.LoggerPtr(),
                               platformpp::ipc::IpcLinkOptions{false, "", ""});
  platformpp::gateway::GatewayOptions options;
  options.apiBase = clientOptions.apiBase;
  options.caFile = clientOptions.caFile;
  options.token = [token = a->token] { return "Bearer " + token; };
  platformpp::gateway::GatewayConnection gateway(runtime.Io(), runtime.LoggerPtr(), http, options);
  platformpp::social::SocialStore social(runtime, gateway);
  platformpp::presence::PresenceService presence(runtime, http, gateway, ipc, social);

  std::atomic<int> outcomes{0};
  std::atomic<bool> secondAskedNotReady{false};
  std::atomic<bool> asked{false};
  std::atomic<bool> askedBeforeReady{false};  // read on this thread: doctest's assertions are not thread-safe
  gateway.SetDispatchSink([&](const platformpp::gateway::Dispatch& dispatch) {
    social.OnDispatch(dispatch);
    presence.OnDispatch(dispatch);
    if (dispatch.type == "READY" && !asked.exchange(true)) {
      askedBeforeReady = gateway.CurrentStatus() != Client::Status::Ready;  // the window: READY handled
      presence.UpdateRichPresence(Playing("second"), [&](const ClientResult& result) {
        secondAskedNotReady = result.Type() == ErrorType::ClientNotReady;
        ++outcomes;
      });
    }
  });
  // Kept for the next READY: nowhere to send it yet.
  presence.UpdateRichPresence(Playing("first"), [&](const ClientResult&) { ++outcomes; });
  gateway.Connect();

  CHECK(RunAll({b->client.get()}, [&] {
    runtime.Queue().Drain();
    return SeenState(*b->client, a->Id()) == "second";
  }));
  CHECK(askedBeforeReady.load());
  CHECK(outcomes.load() == 2);
  CHECK(secondAskedNotReady.load());  // it found the session not Ready: the resend is what carried it
  gateway.Shutdown();
  runtime.Queue().Drain();
}

}  // namespace rich_presence_test
