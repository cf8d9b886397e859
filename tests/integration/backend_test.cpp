// platformpp::backend against the emulator: the game server's lobby calls with the bot token, their rules
// (checked before sending), the dispatches players see, provisional tokens, and a bot token that never
// reaches a log line, even at Verbose.
#include "emulator_fixture.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace backend_test {

namespace {

using platformpp::Client;
using platformpp::ClientResult;
using platformpp::ErrorType;
using platformpp::Metadata;
using platformpp::backend::BackendClient;
using platformpp::backend::Lobby;
using platformpp::backend::LobbyArgs;
using platformpp::backend::LobbyMember;
using platformpp::backend::LobbyMemberArgs;
using App = platformpp::testkit::EmulatorAdmin::App;
using namespace std::chrono_literals;

std::string UniqueName(const std::string& base) {
  static std::atomic<int> counter{0};
  return base + std::to_string(counter++);
}

struct Backend {
  App app;
  std::unique_ptr<BackendClient> client;
  std::vector<std::string> logs;

  Backend() {
    auto& e = itest::Shared();
    app = e.admin->CreateApp(UniqueName("Backend Game "));
    platformpp::backend::BackendOptions options;
    options.apiBase = e.process->Connection().apiBase;
    options.caFile = e.process->Connection().caFile;
    options.botToken = app.botToken;
    client = std::make_unique<BackendClient>(std::move(options));
    client->AddLogCallback(
        [this](const std::string& message, platformpp::LoggingSeverity) { logs.push_back(message); },
        platformpp::LoggingSeverity::Verbose);
  }

  template <class... Args, class Start>
  std::pair<ClientResult, std::tuple<Args...>> Call(Start start) {
    auto out = std::make_shared<std::optional<std::pair<ClientResult, std::tuple<Args...>>>>();
    start([out](ClientResult result, Args... args) {
      *out = std::make_pair(std::move(result), std::make_tuple(std::move(args)...));
    });
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!out->has_value() && std::chrono::steady_clock::now() < deadline) {
      client->WaitForCallbacks(50);
      client->RunCallbacks();
    }
    REQUIRE(out->has_value());
    return std::move(**out);
  }

  std::pair<ClientResult, Lobby> Create(LobbyArgs args) {
    // Named, not structured bindings: the lambdas below capture them (clang-tidy's clang 14 cannot).
    auto resultLobby = Call<Lobby>([&](auto cb) { client->CreateLobby(args, cb); });
    auto& result = std::get<0>(resultLobby);
    auto& lobby = std::get<1>(resultLobby);
    return {result, std::get<0>(lobby)};
  }
  std::pair<ClientResult, LobbyMember> Add(uint64_t lobbyId, LobbyMemberArgs member) {
    auto [result, out] = Call<LobbyMember>([&](auto cb) { client->AddLobbyMember(lobbyId, member, cb); });
    return {result, std::get<0>(out)};
  }
  std::pair<ClientResult, std::vector<LobbyMember>> Bulk(uint64_t lobbyId,
                                                         std::vector<LobbyMemberArgs> members) {
    auto [result, out] = Call<std::vector<LobbyMember>>(
        [&](auto cb) { client->BulkUpdateLobbyMembers(lobbyId, std::move(members), cb); });
    return {result, std::get<0>(out)};
  }
};

uint64_t NewUser(const std::string& base) {
  return itest::Shared().admin->CreateUser(UniqueName(base)).id;
}

/// A player of `app` whose Client is Ready.
std::unique_ptr<Client> ConnectedPlayer(const App& app, uint64_t userId) {
  return itest::ReadyClient(app.id, userId);
}

LobbyMemberArgs MemberArgs(uint64_t id) {
  LobbyMemberArgs member;
  member.id = id;
  return member;
}

}  // namespace

TEST_CASE("backend: create, get, update and delete a lobby; a player sees each change") {
  Backend backend;
  uint64_t playerId = NewUser("backend_player");
  auto player = ConnectedPlayer(backend.app, playerId);
  std::vector<std::string> events;
  player->SetLobbyUpdatedCallback([&](uint64_t id) { events.push_back("updated " + std::to_string(id)); });
  player->SetLobbyDeletedCallback([&](uint64_t id) { events.push_back("deleted " + std::to_string(id)); });

  LobbyArgs args;
  args.metadata = Metadata{{"mode", "ranked"}};
  args.idleTimeoutSeconds = 5;
  LobbyMemberArgs member = MemberArgs(playerId);
  member.metadata = Metadata{{"team", "blue"}};
  member.additionalName = "Sir Lancelot";
  args.members.push_back(member);
  auto createdLobby = backend.Create(args);
  auto& created = std::get<0>(createdLobby);
  auto& lobby = std::get<1>(createdLobby);
  REQUIRE(created.Successful());
  CHECK(lobby.id != 0);
  CHECK(lobby.applicationId == backend.app.id);
  CHECK(lobby.metadata == Metadata{{"mode", "ranked"}});
  REQUIRE(lobby.members.size() == 1);
  CHECK(lobby.members[0].id == playerId);
  CHECK(lobby.members[0].metadata == Metadata{{"team", "blue"}});
  CHECK(player->GetLobbyIds().size() <= 1);
  CHECK(itest::RunUntil(*player, [&] { return player->GetLobbyHandle(lobby.id).has_value(); }));
  CHECK(player->GetLobbyHandle(lobby.id)->GetLobbyMemberHandle(playerId)->Metadata() ==
        Metadata{{"team", "blue"}});

  auto [got, fetched] = backend.Call<Lobby>([&](auto cb) { backend.client->GetLobby(lobby.id, cb); });
  REQUIRE(got.Successful());
  CHECK(std::get<0>(fetched).id == lobby.id);
  CHECK(std::get<0>(fetched).members.size() == 1);

  LobbyArgs change;
  change.metadata = Metadata{{"mode", "casual"}};
  change.idleTimeoutSeconds = 604800;
  auto [updated, after] =
      backend.Call<Lobby>([&](auto cb) { backend.client->UpdateLobby(lobby.id, change, cb); });
  REQUIRE(updated.Successful());
  CHECK(std::get<0>(after).metadata == Metadata{{"mode", "casual"}});
  CHECK(itest::RunUntil(*player, [&] { return !events.empty(); }));
  CHECK(player->GetLobbyHandle(lobby.id)->Metadata() == Metadata{{"mode", "casual"}});
  CHECK(events == std::vector<std::string>{"updated " + std::to_string(lobby.id)});

  // Update takes no members; idle timeouts outside 5..604800 are refused before sending.
  LobbyArgs withMembers;
  withMembers.members.push_back(MemberArgs(playerId));
  auto refused =
      backend.Call<Lobby>([&](auto cb) { backend.client->UpdateLobby(lobby.id, withMembers, cb); }).first;
  CHECK(refused.Type() == ErrorType::ValidationError);
  for (int32_t timeout : {4, 604801}) {
    LobbyArgs bad;
    bad.idleTimeoutSeconds = timeout;
    auto result = backend.Create(bad).first;
    CHECK(result.Type() == ErrorType::ValidationError);
    REQUIRE(result.FieldErrors().size() == 1);
    CHECK(result.FieldErrors()[0].path == "idle_timeout_seconds");
  }
  // Metadata: 1000 characters pass, 1001 do not (lobby and member).
  LobbyArgs full;
  full.metadata = Metadata{{"k", std::string(999, 'v')}};
  CHECK(backend.Create(full).first.Successful());
  full.metadata = Metadata{{"k", std::string(1000, 'v')}};
  CHECK(backend.Create(full).first.Type() == ErrorType::ValidationError);
  LobbyMemberArgs heavy = MemberArgs(playerId);
  heavy.metadata = Metadata{{"k", std::string(1000, 'v')}};
  auto heavyResult = backend.Add(lobby.id, heavy).first;
  CHECK(heavyResult.Type() == ErrorType::ValidationError);
  REQUIRE(heavyResult.FieldErrors().size() == 1);
  CHECK(heavyResult.FieldErrors()[0].path == "member.metadata");
  heavy.metadata = Metadata{{"k", std::string(999, 'v')}};
  CHECK(backend.Add(lobby.id, heavy).first.Successful());

  auto deleted = backend.Call<>([&](auto cb) { backend.client->DeleteLobby(lobby.id, cb); }).first;
  REQUIRE(deleted.Successful());
  CHECK(itest::RunUntil(*player, [&] { return events.size() >= 2; }));
  CHECK_FALSE(player->GetLobbyHandle(lobby.id));
  CHECK(events == std::vector<std::string>{"updated " + std::to_string(lobby.id),
                                           "deleted " + std::to_string(lobby.id)});
  auto gone = backend.Call<Lobby>([&](auto cb) { backend.client->GetLobby(lobby.id, cb); }).first;
  CHECK(gone.Status() == 404);
  CHECK(gone.ErrorCode() == 10031);
}

TEST_CASE("backend: members with additional names of 1 to 80 characters, added, updated and removed") {
  Backend backend;
  uint64_t userId = NewUser("backend_member");
  auto createdLobby = backend.Create({});
  auto& created = std::get<0>(createdLobby);
  auto& lobby = std::get<1>(createdLobby);
  REQUIRE(created.Successful());

  LobbyMemberArgs member = MemberArgs(userId);
  member.additionalName = std::string(80, 'n');
  member.flags = 1;
  auto [added, out] = backend.Add(lobby.id, member);
  REQUIRE(added.Successful());
  CHECK(out.id == userId);
  CHECK(out.additionalName == std::string(80, 'n'));
  CHECK(out.flags == 1);

  for (const std::string& bad : {std::string(81, 'n'), std::string()}) {
    member.additionalName = bad;
    auto refused = backend.Add(lobby.id, member).first;
    CHECK(refused.Type() == ErrorType::ValidationError);
    REQUIRE(refused.FieldErrors().size() == 1);
    CHECK(refused.FieldErrors()[0].path == "member.additional_name");
  }
  member.additionalName = "A";
  auto [renamed, again] = backend.Add(lobby.id, member);
  REQUIRE(renamed.Successful());
  CHECK(again.additionalName == "A");

  auto removed =
      backend.Call<>([&](auto cb) { backend.client->RemoveLobbyMember(lobby.id, userId, cb); }).first;
  CHECK(removed.Successful());
  auto [got, fetched] = backend.Call<Lobby>([&](auto cb) { backend.client->GetLobby(lobby.id, cb); });
  REQUIRE(got.Successful());
  CHECK(std::get<0>(fetched).members.empty());
  auto twice =
      backend.Call<>([&](auto cb) { backend.client->RemoveLobbyMember(lobby.id, userId, cb); }).first;
  CHECK(twice.Status() == 404);
}

TEST_CASE("backend: bulk member operations, 25 pass and 26 are refused") {
  Backend backend;
  auto createdLobby = backend.Create({});
  auto& created = std::get<0>(createdLobby);
  auto& lobby = std::get<1>(createdLobby);
  REQUIRE(created.Successful());
  std::vector<LobbyMemberArgs> members;
  for (int i = 0; i < 26; ++i) {
    LobbyMemberArgs member = MemberArgs(NewUser("bulk"));
    member.metadata = Metadata{{"slot", std::to_string(i)}};
    members.push_back(member);
  }
  auto refused = backend.Bulk(lobby.id, members).first;
  CHECK(refused.Type() == ErrorType::ValidationError);
  CHECK(refused.FieldErrors()[0].path == "members");
  CHECK(backend.Bulk(lobby.id, {}).first.Type() == ErrorType::ValidationError);

  std::vector<LobbyMemberArgs> first25(members.begin(), members.begin() + 25);
  auto [ok, out] = backend.Bulk(lobby.id, first25);
  REQUIRE(ok.Successful());
  CHECK(out.size() == 25);
  auto [got, fetched] = backend.Call<Lobby>([&](auto cb) { backend.client->GetLobby(lobby.id, cb); });
  REQUIRE(got.Successful());
  CHECK(std::get<0>(fetched).members.size() == 25);

  // One request of mixed operations: remove the first, update the second, add the 26th.
  std::vector<LobbyMemberArgs> mixed;
  mixed.push_back(members[0]);
  mixed.back().remove = true;
  mixed.push_back(members[1]);
  mixed.back().additionalName = "Captain";
  mixed.push_back(members[25]);
  auto [mixedOk, mixedOut] = backend.Bulk(lobby.id, mixed);
  REQUIRE(mixedOk.Successful());
  auto [got2, fetched2] = backend.Call<Lobby>([&](auto cb) { backend.client->GetLobby(lobby.id, cb); });
  REQUIRE(got2.Successful());
  const Lobby& now = std::get<0>(fetched2);
  CHECK(now.members.size() == 25);
  auto find = [&](uint64_t id) {
    return std::find_if(now.members.begin(), now.members.end(),
                        [&](const LobbyMember& m) { return m.id == id; });
  };
  CHECK(find(members[0].id) == now.members.end());
  REQUIRE(find(members[1].id) != now.members.end());
  CHECK(find(members[1].id)->additionalName == "Captain");
  CHECK(find(members[25].id) != now.members.end());
}

TEST_CASE("backend: linking a channel and inviting a member to its guild") {
  auto& e = itest::Shared();
  Backend backend;
  uint64_t userId = NewUser("backend_link");
  LobbyArgs args;
  args.members.push_back(MemberArgs(userId));
  auto createdLobby = backend.Create(args);
  auto& created = std::get<0>(createdLobby);
  auto& lobby = std::get<1>(createdLobby);
  REQUIRE(created.Successful());
  auto noChannel = backend
                       .Call<std::string>([&](auto cb) {
                         backend.client->CreateLinkedLobbyGuildInviteForUser(lobby.id, userId, cb);
                       })
                       .first;
  CHECK(noChannel.Status() == 400);
  // An unknown channel is refused; unlinking works without one.
  auto unknown =
      backend.Call<Lobby>([&](auto cb) { backend.client->SetLobbyLinkedChannel(lobby.id, 999999, cb); })
          .first;
  CHECK(unknown.Status() == 404);
  auto [unlinked, after] = backend.Call<Lobby>(
      [&](auto cb) { backend.client->SetLobbyLinkedChannel(lobby.id, std::nullopt, cb); });
  CHECK(unlinked.Successful());
  CHECK_FALSE(std::get<0>(after).linkedChannelId);
  (void)e;
}

TEST_CASE("backend: moderation metadata rules and provisional tokens") {
  Backend backend;
  Metadata six{{"a", ""}, {"b", ""}, {"c", ""}, {"d", ""}, {"e", ""}, {"f", ""}};
  auto refused =
      backend.Call<>([&](auto cb) { backend.client->SetLobbyMessageModerationMetadata(1, 2, six, cb); })
          .first;
  CHECK(refused.Type() == ErrorType::ValidationError);
  Metadata longValue{{"a", std::string(2001, 'x')}};
  auto tooLong =
      backend
          .Call<>([&](auto cb) { backend.client->SetUserMessageModerationMetadata(1, 2, 3, longValue, cb); })
          .first;
  CHECK(tooLong.Type() == ErrorType::ValidationError);

  auto [got, token] = backend.Call<platformpp::backend::ProvisionalToken>(
      [&](auto cb) { backend.client->GetProvisionalToken(UniqueName("ext-"), "Guest Player", cb); });
  REQUIRE(got.Successful());
  CHECK_FALSE(std::get<0>(token).accessToken.empty());
  CHECK(std::get<0>(token).expiresIn > 0);
  auto badName = backend
                     .Call<platformpp::backend::ProvisionalToken>([&](auto cb) {
                       backend.client->GetProvisionalToken("ext", std::string(33, 'g'), cb);
                     })
                     .first;
  CHECK(badName.Type() == ErrorType::ValidationError);
  auto noId = backend
                  .Call<platformpp::backend::ProvisionalToken>(
                      [&](auto cb) { backend.client->GetProvisionalToken("", std::nullopt, cb); })
                  .first;
  CHECK(noId.Type() == ErrorType::ValidationError);
}

TEST_CASE("backend: the bot token never appears in logs, even at Verbose") {
  auto& e = itest::Shared();
  itest::FaultScope faults;
  Backend backend;
  // A successful call, a refused one and one that fails on the wire all log something.
  CHECK(backend.Create({}).first.Successful());
  auto missing = backend.Call<Lobby>([&](auto cb) { backend.client->GetLobby(12345, cb); }).first;
  CHECK(missing.Status() == 404);
  platformpp::testkit::EmulatorAdmin::Fault fault;
  fault.route = "POST /lobbies";
  fault.status = 500;
  fault.count = 5;
  e.admin->AddFault(fault);
  CHECK_FALSE(backend.Create({}).first.Successful());
  CHECK_FALSE(backend.logs.empty());
  REQUIRE(backend.app.botToken.size() > 8);
  // The requests were logged, with their Authorization header, redacted.
  CHECK(std::any_of(backend.logs.begin(), backend.logs.end(), [](const std::string& line) {
    return line.find("Authorization: [redacted]") != std::string::npos;
  }));
  for (const auto& line : backend.logs)
    CHECK(line.find(backend.app.botToken) == std::string::npos);
}

TEST_CASE("backend: destroying it with calls in flight ends each with ClientDestroyed, once") {
  auto& e = itest::Shared();
  itest::FaultScope faults;
  Backend backend;
  platformpp::testkit::EmulatorAdmin::Fault slow;
  slow.route = "POST /lobbies";
  slow.delayMs = 30000;
  slow.count = 1;
  e.admin->AddFault(slow);
  std::vector<ErrorType> ends;
  backend.client->CreateLobby({}, [&](const ClientResult& r, const Lobby&) { ends.push_back(r.Type()); });
  // The premise: the request reached the emulator (it used up its fault), where it is held.
  REQUIRE(itest::WaitUntilFaultsTaken());
  backend.client.reset();
  CHECK(ends == std::vector<ErrorType>{ErrorType::ClientDestroyed});
}

TEST_CASE(
    "backend: moderation metadata on a real lobby message and DM reaches the players; an edit clears it") {
  Backend backend;
  const uint64_t aId = NewUser("mod_a_"), bId = NewUser("mod_b_");
  itest::Shared().admin->MakeFriends(aId, bId);
  auto a = ConnectedPlayer(backend.app, aId);
  auto b = ConnectedPlayer(backend.app, bId);
  auto pump = [&](const std::function<bool()>& done) {
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      a->RunCallbacks();
      b->RunCallbacks();
      backend.client->RunCallbacks();
      std::this_thread::sleep_for(200us);
    }
    return true;
  };
  std::vector<uint64_t> updated;
  b->SetMessageUpdatedCallback([&](uint64_t id) { updated.push_back(id); });

  LobbyArgs args;
  args.members = {MemberArgs(aId), MemberArgs(bId)};
  auto createdLobby = backend.Create(args);
  auto& created = std::get<0>(createdLobby);
  auto& lobby = std::get<1>(createdLobby);
  REQUIRE(created.Successful());
  REQUIRE(pump([&] { return b->GetLobbyHandle(lobby.id).has_value(); }));

  // A lobby message: the server's pairs reach the other member with MessageUpdated.
  std::optional<uint64_t> lobbyMessage;
  a->SendLobbyMessage(lobby.id, "first blood", [&](const ClientResult& r, uint64_t id) {
    CHECK(r.Successful());
    lobbyMessage = id;
  });
  REQUIRE(pump([&] { return lobbyMessage && b->GetMessageHandle(*lobbyMessage).has_value(); }));
  auto set = backend
                 .Call<>([&](auto cb) {
                   backend.client->SetLobbyMessageModerationMetadata(lobby.id, *lobbyMessage,
                                                                     {{"verdict", "ok"}}, cb);
                 })
                 .first;
  CHECK(set.Successful());
  REQUIRE(pump([&] { return std::count(updated.begin(), updated.end(), *lobbyMessage) == 1; }));
  CHECK(b->GetMessageHandle(*lobbyMessage)->ModerationMetadata() == Metadata{{"verdict", "ok"}});

  // A DM: flagged by the server, then edited by its author, which clears the pairs.
  std::optional<uint64_t> dm;
  a->SendUserMessage(bId, "psst", [&](const ClientResult& r, uint64_t id) {
    CHECK(r.Successful());
    dm = id;
  });
  REQUIRE(pump([&] { return dm && b->GetMessageHandle(*dm).has_value(); }));
  set = backend
            .Call<>([&](auto cb) {
              backend.client->SetUserMessageModerationMetadata(aId, bId, *dm, {{"flag", "review"}}, cb);
            })
            .first;
  CHECK(set.Successful());
  REQUIRE(pump([&] { return std::count(updated.begin(), updated.end(), *dm) == 1; }));
  CHECK(b->GetMessageHandle(*dm)->ModerationMetadata() == Metadata{{"flag", "review"}});
  bool edited = false;
  a->EditUserMessage(bId, *dm, "psst!", [&](const ClientResult& r) { edited = r.Successful(); });
  REQUIRE(pump([&] { return edited && std::count(updated.begin(), updated.end(), *dm) == 2; }));
  CHECK(b->GetMessageHandle(*dm)->ModerationMetadata().empty());
  CHECK(b->GetMessageHandle(*dm)->Content() == "psst!");
}

}  // namespace backend_test
