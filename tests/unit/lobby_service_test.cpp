// The lobby calls over a stand-in transport (no sockets): what each refuses before sending and in which order
// (the rules, the token, the application id), the request each writes, the joined lobby applied to the store
// only while the session is Ready, and JoinLinkedGuild's account check, invite URL and opener.
#include "lobby/lobby_service.hpp"

#include "api/api_session.hpp"
#include "api_stand_in.hpp"
#include "gateway/dispatch.hpp"
#include "lobby/lobby_store.hpp"
#include "lobby/lobby_validation.hpp"
#include "social/user_directory.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace lobby_service_test {

using namespace platformpp;
using platformpp::testing::ApiStandIn;

namespace {

constexpr uint64_t kApp = 1234567890123456789ULL;
constexpr uint64_t kSelf = 1000;

/// The player as READY made them known, or nobody yet.
struct Directory final : social::UserDirectory {
  std::optional<UserHandle> self;
  std::optional<UserHandle> CurrentUser() const override { return self; }
  std::optional<UserHandle> User(uint64_t userId) const override {
    if (self && self->Id() == userId) return self;
    return std::nullopt;
  }
  void Know(bool provisional) {
    UserHandle::Data data;
    data.id = kSelf;
    data.username = "player";
    data.provisional = provisional;
    self = UserHandle(std::move(data));
  }
};

std::string LobbyAnswer(uint64_t id) {
  return R"({"id":")" + std::to_string(id) + R"(","application_id":")" + std::to_string(kApp) +
         R"(","metadata":{"mode":"duel"},"members":[{"id":")" + std::to_string(kSelf) +
         R"(","metadata":null,"flags":0,"connected":true}],"linked_channel":null,"flags":0})";
}

/// The results of one kind of callback, in delivery order. Declared before the session: it ends what is
/// pending (ClientDestroyed) when destroyed, and those results land here.
template <class... T>
struct Seen {
  std::vector<std::pair<ClientResult, std::tuple<T...>>> results;
  std::function<void(ClientResult, T...)> Callback() {
    return [this](ClientResult result, T... values) {
      results.emplace_back(std::move(result), std::tuple<T...>(std::move(values)...));
    };
  }
};

struct Fixture {
  ApiStandIn standIn;
  Directory directory;
  bool ready = true;
  std::vector<std::string> opened;
  api::ApiSession session{testing::StandInOptions()};
  lobby::LobbyStore store{session.Runtime(), directory};
  lobby::LobbyService service{session, store, directory, [this] { return ready; },
                              [this](const std::string& url) { opened.push_back(url); }};

  explicit Fixture(bool token = true, bool applicationId = true) {
    session.SetTransportForTesting(standIn.Transport());
    if (token) session.Runtime().credentials.Set(AuthorizationTokenType::Bearer, "token");
    if (applicationId) session.Runtime().applicationId.store(kApp);
    // The store has had its READY (no lobbies yet), as it has whenever the session is Ready.
    store.OnDispatch(gateway::Dispatch("READY",
                                       R"({"v":10,"session_id":"s1","user":{"id":"1000",)"
                                       R"("username":"player"},"relationships":[],"guilds":[],"lobbies":[]})",
                                       1));
  }
  ~Fixture() { standIn.ShutDown(session); }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;
};

}  // namespace

TEST_CASE("lobby service: refused before sending: the rules, then the token, then the application id") {
  Seen<> left;
  SUBCASE("no token and a lobby id of 0: the rule is named first") {
    Fixture f(false, false);
    f.service.Leave(0, left.Callback());
    f.session.RunCallbacks();
    REQUIRE(left.results.size() == 1);
    CHECK(left.results[0].first.Type() == ErrorType::ValidationError);
    REQUIRE(left.results[0].first.FieldErrors().size() == 1);
    CHECK(left.results[0].first.FieldErrors()[0].path == "lobbyId");
    CHECK(f.standIn.requests.empty());
  }
  SUBCASE("no token") {
    Fixture f(false, true);
    f.service.Leave(7, left.Callback());
    f.session.RunCallbacks();
    REQUIRE(left.results.size() == 1);
    CHECK(left.results[0].first.Type() == ErrorType::ClientNotReady);
    CHECK(left.results[0].first.Error() == "no token: call UpdateToken first");
    CHECK(f.standIn.requests.empty());
  }
  SUBCASE("a token but no application id") {
    Fixture f(true, false);
    f.service.Leave(7, left.Callback());
    f.session.RunCallbacks();
    REQUIRE(left.results.size() == 1);
    CHECK(left.results[0].first.Type() == ErrorType::ClientNotReady);
    CHECK(left.results[0].first.Error() == "no application id: call SetApplicationId first");
    CHECK(f.standIn.requests.empty());
  }
  SUBCASE("everything there: DELETE of the player's membership, ended by the answer") {
    Fixture f;
    f.service.Leave(7, left.Callback());
    REQUIRE(f.standIn.requests.size() == 1);
    CHECK(f.standIn.requests[0].method == "DELETE");
    CHECK(f.standIn.requests[0].url == "https://api.test/api/v10/lobbies/7/members/@me");
    f.standIn.Answer(0, 204, "", "");
    f.session.RunCallbacks();
    REQUIRE(left.results.size() == 1);
    CHECK(left.results[0].first.Successful());
  }
}

TEST_CASE("lobby service: CreateOrJoin checks the secret by its limit and keeps it out of the logs") {
  Seen<uint64_t> joined;
  std::vector<std::string> lines;
  Fixture f;
  f.session.Log().AddCallback([&lines](const std::string& line, LoggingSeverity) { lines.push_back(line); },
                              LoggingSeverity::Verbose);
  f.service.CreateOrJoin(std::string(lobby::kMaxSecretLength + 1, 's'), nullptr, nullptr, joined.Callback());
  f.service.CreateOrJoin("", nullptr, nullptr, joined.Callback());
  CHECK(f.standIn.requests.empty());
  std::string secret(lobby::kMaxSecretLength, 'k');
  Metadata lobbyMetadata{{"mode", "duel"}};
  Metadata memberMetadata{{"team", "red"}};
  f.service.CreateOrJoin(secret, &lobbyMetadata, &memberMetadata, joined.Callback());
  REQUIRE(f.standIn.requests.size() == 1);
  CHECK(f.standIn.requests[0].method == "PUT");
  CHECK(f.standIn.requests[0].url == "https://api.test/api/v10/lobbies");
  CHECK(f.standIn.requests[0].body ==
        R"({"secret":")" + secret +
            R"(","lobby_metadata":{"mode":"duel"},"member_metadata":{"team":"red"}})");
  f.session.Log().Info("joining with " + secret);
  f.standIn.Answer(0, 200, LobbyAnswer(5000));
  f.session.RunCallbacks();

  REQUIRE(joined.results.size() == 3);
  CHECK(joined.results[0].first.Type() == ErrorType::ValidationError);
  CHECK(joined.results[0].first.FieldErrors().at(0).path == "secret");
  CHECK(joined.results[1].first.Type() == ErrorType::ValidationError);
  CHECK(joined.results[2].first.Successful());
  CHECK(std::get<0>(joined.results[2].second) == 5000);
  for (const std::string& line : lines)
    CHECK(line.find(secret) == std::string::npos);
}

TEST_CASE("lobby service: the joined lobby is in the store inside the callback, but only while Ready") {
  Seen<uint64_t> joined;
  std::optional<bool> knownInCallback;
  Fixture f;
  f.service.CreateOrJoin("secret", nullptr, nullptr, [&](const ClientResult& result, uint64_t id) {
    CHECK(result.Successful());
    knownInCallback = f.store.Get(id).has_value();
  });
  f.standIn.Answer(0, 200, LobbyAnswer(5000));
  f.session.RunCallbacks();
  REQUIRE(knownInCallback.has_value());
  CHECK(*knownInCallback);
  auto lobby = f.store.Get(5000);
  REQUIRE(lobby.has_value());
  CHECK(lobby->Metadata().at("mode") == "duel");

  // Not Ready (a reconnect in progress): the READY that follows brings the lobby, the answer is not applied.
  f.ready = false;
  f.service.CreateOrJoin("other", nullptr, nullptr, joined.Callback());
  f.standIn.Answer(1, 200, LobbyAnswer(5001));
  // A malformed answer ends the operation as an error, not a lobby id of 0 presented as success.
  f.service.CreateOrJoin("third", nullptr, nullptr, joined.Callback());
  f.standIn.Answer(2, 200, R"({"id":"not a snowflake"})");
  f.session.RunCallbacks();
  REQUIRE(joined.results.size() == 2);
  CHECK(joined.results[0].first.Successful());
  CHECK(std::get<0>(joined.results[0].second) == 5001);
  CHECK_FALSE(f.store.Get(5001).has_value());
  CHECK_FALSE(joined.results[1].first.Successful());
  CHECK(joined.results[1].first.Error().find("not a lobby") != std::string::npos);
}

TEST_CASE("lobby service: a lobby left is gone from the store inside the callback, announced once") {
  std::vector<uint64_t> deleted;
  std::optional<bool> knownInCallback;
  Fixture f;
  f.store.callbacks.deleted.Set([&](uint64_t id) { deleted.push_back(id); });
  f.store.OnDispatch(gateway::Dispatch("LOBBY_CREATE", LobbyAnswer(5000), 2));
  f.store.OnDispatch(gateway::Dispatch("LOBBY_CREATE", LobbyAnswer(5001), 3));
  f.service.Leave(5000, [&](const ClientResult& result) {
    CHECK(result.Successful());
    knownInCallback = f.store.Get(5000).has_value();
  });
  f.standIn.Answer(0, 204, "");
  f.session.RunCallbacks();
  REQUIRE(knownInCallback.has_value());
  CHECK_FALSE(*knownInCallback);
  f.store.OnDispatch(gateway::Dispatch("LOBBY_DELETE", R"({"id":"5000"})", 4));  // the dispatch, later
  f.session.RunCallbacks();
  CHECK(deleted == std::vector<uint64_t>{5000});

  // Joined again while the leave was on its way: the late answer leaves the lobby where it is.
  Seen<> left;
  f.service.Leave(5001, left.Callback());
  f.store.OnDispatch(gateway::Dispatch("LOBBY_DELETE", R"({"id":"5001"})", 5));
  f.store.OnDispatch(gateway::Dispatch("LOBBY_CREATE", LobbyAnswer(5001), 6));
  f.standIn.Answer(1, 204, "");
  // A refused leave changes nothing.
  f.service.Leave(5001, left.Callback());
  f.standIn.Answer(2, 404, R"({"code":10031,"message":"Unknown Lobby"})");
  f.session.RunCallbacks();
  REQUIRE(left.results.size() == 2);
  CHECK(left.results[0].first.Successful());
  CHECK_FALSE(left.results[1].first.Successful());
  CHECK(f.store.Get(5001).has_value());
  CHECK(deleted == std::vector<uint64_t>{5000, 5001});
}

TEST_CASE("lobby service: linking names one violation at a time, the lobby's first; unlinking sends null") {
  Seen<> linked;
  Fixture f;
  f.service.LinkChannel(0, 0, linked.Callback());
  f.service.LinkChannel(7, 0, linked.Callback());
  f.service.UnlinkChannel(0, linked.Callback());
  CHECK(f.standIn.requests.empty());
  f.service.LinkChannel(7, 9, linked.Callback());
  f.service.UnlinkChannel(7, linked.Callback());
  REQUIRE(f.standIn.requests.size() == 2);
  CHECK(f.standIn.requests[0].method == "PATCH");
  CHECK(f.standIn.requests[0].url == "https://api.test/api/v10/lobbies/7/channel-linking");
  CHECK(f.standIn.requests[0].body == R"({"channel_id":"9"})");
  CHECK(f.standIn.requests[1].body == R"({"channel_id":null})");
  f.standIn.Answer(0, 200, LobbyAnswer(7));
  f.standIn.Answer(1, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.session.RunCallbacks();

  REQUIRE(linked.results.size() == 5);
  auto onlyPath = [](const ClientResult& result) {
    REQUIRE(result.FieldErrors().size() == 1);
    return result.FieldErrors()[0].path;
  };
  CHECK(onlyPath(linked.results[0].first) == "lobbyId");
  CHECK(onlyPath(linked.results[1].first) == "channel_id");
  CHECK(onlyPath(linked.results[2].first) == "lobbyId");
  CHECK(linked.results[3].first.Successful());
  CHECK(linked.results[4].first.Status() == 403);
  CHECK(linked.results[4].first.ErrorCode() == 50013);
}

TEST_CASE(
    "lobby service: JoinLinkedGuild asks who the player is when READY has not said, then opens the invite") {
  Seen<std::string> joinedGuild;
  int mergeAsked = 0;
  Fixture f;
  f.service.JoinLinkedGuild(
      7, [&mergeAsked] { ++mergeAsked; }, joinedGuild.Callback());
  // Nobody known yet: the account's kind comes from GET /users/@me before the invite is asked for.
  REQUIRE(f.standIn.requests.size() == 1);
  CHECK(f.standIn.requests[0].method == "GET");
  CHECK(f.standIn.requests[0].url == "https://api.test/api/v10/users/@me");
  f.standIn.Answer(0, 200, R"({"id":"1000","username":"player","provisional":false})");
  REQUIRE(f.standIn.requests.size() == 2);
  CHECK(f.standIn.requests[1].method == "POST");
  CHECK(f.standIn.requests[1].url == "https://api.test/api/v10/lobbies/7/members/@me/invites");
  // The code goes into the URL encoded.
  f.standIn.Answer(1, 200, R"({"code":"ab c/d"})");
  f.session.RunCallbacks();

  REQUIRE(joinedGuild.results.size() == 1);
  CHECK(joinedGuild.results[0].first.Successful());
  std::string url = f.session.Runtime().Options().webBase + "/invite/ab%20c%2Fd";
  CHECK(std::get<0>(joinedGuild.results[0].second) == url);
  CHECK(f.opened == std::vector<std::string>{url});
  CHECK(mergeAsked == 0);

  // An answer without a code is malformed, and nothing is opened.
  f.directory.Know(false);
  f.service.JoinLinkedGuild(
      7, [&mergeAsked] { ++mergeAsked; }, joinedGuild.Callback());
  REQUIRE(f.standIn.requests.size() == 3);  // READY said: no GET /users/@me this time
  f.standIn.Answer(2, 200, R"({"code":""})");
  f.session.RunCallbacks();
  REQUIRE(joinedGuild.results.size() == 2);
  CHECK_FALSE(joinedGuild.results[1].first.Successful());
  CHECK(f.opened.size() == 1);
}

TEST_CASE("lobby service: a provisional account is asked to merge and never asks for an invite") {
  Seen<std::string> joinedGuild;
  std::vector<std::string> order;
  Fixture f;
  f.directory.Know(true);
  f.service.JoinLinkedGuild(
      7, [&order] { order.emplace_back("merge"); },
      [&order](const ClientResult& result, const std::string&) {
        order.emplace_back(result.Type() == ErrorType::ValidationError ? "refused" : "other");
      });
  // A lobby id of 0 is refused before the account is looked at.
  f.service.JoinLinkedGuild(
      0, [&order] { order.emplace_back("merge"); }, joinedGuild.Callback());
  f.session.RunCallbacks();
  CHECK(f.standIn.requests.empty());
  CHECK(order == std::vector<std::string>{"merge", "refused"});
  REQUIRE(joinedGuild.results.size() == 1);
  CHECK(joinedGuild.results[0].first.FieldErrors().at(0).path == "lobbyId");
}

TEST_CASE("lobby service: a call pending at shutdown ends once, as ClientDestroyed") {
  Seen<> left;
  Seen<std::string> joinedGuild;
  {
    Fixture f;
    f.service.Leave(7, left.Callback());
    f.service.JoinLinkedGuild(
        7, [] {}, joinedGuild.Callback());
    REQUIRE(f.standIn.requests.size() == 2);
  }
  REQUIRE(left.results.size() == 1);
  CHECK(left.results[0].first.Type() == ErrorType::ClientDestroyed);
  REQUIRE(joinedGuild.results.size() == 1);
  CHECK(joinedGuild.results[0].first.Type() == ErrorType::ClientDestroyed);
}

}  // namespace lobby_service_test
