// The lobby store fed Gateway dispatches directly (no sockets): state, callbacks (order, exactly once, none
// for the first READY), a later READY's differences, the answer of a join applied before its LOBBY_CREATE,
// and malformed input. Also the lobby rules (lobby_validation) and wire parsing (lobby_json).
#include "lobby/lobby_store.hpp"
#include "client/client_core.hpp"
#include "core/validation_result.hpp"
#include "lobby/lobby_json.hpp"
#include "lobby/lobby_validation.hpp"
#include "social/social_store.hpp"

#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lobby_store_test {

using namespace platformpp;

namespace {

constexpr uint64_t kApp = 1234567890123456789ULL;
constexpr uint64_t kOtherApp = 42;
constexpr uint64_t kSelf = 1000;
constexpr uint64_t kBob = 1001;
constexpr uint64_t kCarol = 1002;
constexpr uint64_t kLobby = 5000;
constexpr uint64_t kLobby2 = 5001;

std::string User(uint64_t id, const std::string& username) {
  return R"({"id":")" + std::to_string(id) + R"(","username":")" + username +
         R"(","global_name":null,"avatar":null,"discriminator":"0","bot":false,"premium_type":0,)"
         R"("primary_guild":null,"provisional":false})";
}

std::string Member(uint64_t id, const std::string& username, bool connected = true,
                   const std::string& metadata = "null", int flags = 0, bool withUser = true) {
  return R"({"id":")" + std::to_string(id) + R"(","metadata":)" + metadata + R"(,"flags":)" +
         std::to_string(flags) + R"(,"connected":)" + (connected ? "true" : "false") +
         (withUser ? R"(,"user":)" + User(id, username) : std::string()) + "}";
}

std::string Lobby(uint64_t id, const std::vector<std::string>& members, const std::string& metadata = "null",
                  const std::string& linked = "null", uint64_t app = kApp) {
  std::string list;
  for (const auto& m : members)
    list += (list.empty() ? "" : ",") + m;
  return R"({"id":")" + std::to_string(id) + R"(","application_id":")" + std::to_string(app) +
         R"(","metadata":)" + metadata + R"(,"members":[)" + list + R"(],"linked_channel":)" + linked +
         R"(,"flags":0})";
}

std::string MemberEvent(uint64_t lobby, const std::string& member, uint64_t app = kApp) {
  return R"({"lobby_id":")" + std::to_string(lobby) + R"(","application_id":")" + std::to_string(app) +
         R"(","member":)" + member + "}";
}

std::string Ready(const std::vector<std::string>& lobbies) {
  std::string list;
  for (const auto& l : lobbies)
    list += (list.empty() ? "" : ",") + l;
  return R"({"v":10,"session_id":"s1","user":)" + User(kSelf, "player") +
         R"(,"relationships":[],"presences":[],"guilds":[],"lobbies":[)" + list + "]}";
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
    store.callbacks.created.Set([this](uint64_t id) { events.push_back("created " + std::to_string(id)); });
    store.callbacks.updated.Set([this](uint64_t id) { events.push_back("updated " + std::to_string(id)); });
    store.callbacks.deleted.Set([this](uint64_t id) { events.push_back("deleted " + std::to_string(id)); });
    store.callbacks.memberAdded.Set([this](uint64_t lobby, uint64_t member) {
      events.push_back("added " + std::to_string(lobby) + " " + std::to_string(member));
    });
    store.callbacks.memberUpdated.Set([this](uint64_t lobby, uint64_t member) {
      events.push_back("member updated " + std::to_string(lobby) + " " + std::to_string(member));
    });
    store.callbacks.memberRemoved.Set([this](uint64_t lobby, uint64_t member) {
      events.push_back("removed " + std::to_string(lobby) + " " + std::to_string(member));
    });
  }
  lobby::LobbyStore& Store() { return core->Lobbies(); }
  // As the Gateway does: every sink, in registration order (the social store knows the users).
  void Feed(std::string_view type, const std::string& data) {
    gateway::Dispatch dispatch{type, data, ++seq};
    core->Social().OnDispatch(dispatch);
    Store().OnDispatch(dispatch);
  }
  std::vector<std::string> Drain() {
    core->RunCallbacks();
    return std::exchange(events, {});
  }
};

using Events = std::vector<std::string>;
using Ids = std::vector<uint64_t>;

// The parsed JSON of `text`.
std::optional<lobby::LobbyRecord> ParseLobbyText(const std::string& text) {
  json::Document document;
  if (!json::Parse(text, document)) return std::nullopt;
  return lobby::ParseLobby(document);
}

}  // namespace

TEST_CASE("before READY there are no lobbies") {
  Fixture f;
  CHECK(f.Store().Ids().empty());
  CHECK_FALSE(f.Store().Get(kLobby));
}

TEST_CASE("the first READY loads lobbies and members without callbacks") {
  Fixture f;
  f.Feed("READY",
         Ready({Lobby(kLobby, {Member(kSelf, "player"), Member(kBob, "bob", false, R"({"role":"tank"})", 1)},
                      R"({"mode":"ranked"})", R"({"id":"77","name":"lobby-chat","type":0,"guild_id":"66"})"),
                Lobby(kLobby2, {Member(kSelf, "player")}),
                Lobby(9999, {Member(kSelf, "player")}, "null", "null", kOtherApp)}));
  CHECK(f.Drain().empty());
  CHECK(f.warnings.empty());
  CHECK(f.Store().Ids() == Ids{kLobby, kLobby2});  // another application's lobby is not this game's

  auto lobby = f.Store().Get(kLobby);
  REQUIRE(lobby);
  CHECK(lobby->Id() == kLobby);
  CHECK(lobby->Metadata() == Metadata{{"mode", "ranked"}});
  CHECK(lobby->LobbyMemberIds() == Ids{kSelf, kBob});
  REQUIRE(lobby->LinkedChannel());
  CHECK(lobby->LinkedChannel()->Id() == 77);
  CHECK(lobby->LinkedChannel()->Name() == "lobby-chat");
  CHECK(lobby->LinkedChannel()->GuildId() == 66);
  CHECK_FALSE(lobby->GetCallInfoHandle());
  auto bob = lobby->GetLobbyMemberHandle(kBob);
  REQUIRE(bob);
  CHECK(bob->Metadata() == Metadata{{"role", "tank"}});
  CHECK(bob->Flags() == 1);
  CHECK(bob->CanLinkLobby());
  CHECK_FALSE(bob->Connected());
  REQUIRE(bob->User());  // from the member's `user`
  CHECK(bob->User()->Username() == "bob");
  auto self = lobby->GetLobbyMemberHandle(kSelf);
  REQUIRE(self);
  CHECK(self->Connected());
  CHECK_FALSE(self->CanLinkLobby());
  REQUIRE(self->User());  // from the social store
  CHECK(self->User()->Id() == kSelf);
  CHECK_FALSE(lobby->GetLobbyMemberHandle(kCarol));
  CHECK_FALSE(f.Store().Get(kLobby2)->LinkedChannel());
}

TEST_CASE(
    "LOBBY_CREATE, member add / update / connect / disconnect / remove, LOBBY_UPDATE and LOBBY_DELETE") {
  Fixture f;
  f.Feed("READY", Ready({}));
  f.Feed("LOBBY_CREATE", Lobby(kLobby, {Member(kSelf, "player")}));
  CHECK(f.Drain() == Events{"created 5000"});  // its members come with it
  REQUIRE(f.Store().Get(kLobby));

  f.Feed("LOBBY_MEMBER_ADD", MemberEvent(kLobby, Member(kBob, "bob", true)));
  CHECK(f.Drain() == Events{"added 5000 1001"});
  CHECK(f.Store().Get(kLobby)->LobbyMemberIds() == Ids{kSelf, kBob});
  // The same add again (a duplicate) changes nothing and announces nothing.
  f.Feed("LOBBY_MEMBER_ADD", MemberEvent(kLobby, Member(kBob, "bob", true)));
  CHECK(f.Drain().empty());

  f.Feed("LOBBY_MEMBER_DISCONNECT", MemberEvent(kLobby, Member(kBob, "bob", true)));
  CHECK(f.Drain() == Events{"member updated 5000 1001"});
  CHECK_FALSE(f.Store().Get(kLobby)->GetLobbyMemberHandle(kBob)->Connected());
  f.Feed("LOBBY_MEMBER_DISCONNECT", MemberEvent(kLobby, Member(kBob, "bob", false)));
  CHECK(f.Drain().empty());  // already disconnected
  f.Feed("LOBBY_MEMBER_CONNECT", MemberEvent(kLobby, Member(kBob, "bob", false)));
  CHECK(f.Drain() == Events{"member updated 5000 1001"});
  CHECK(f.Store().Get(kLobby)->GetLobbyMemberHandle(kBob)->Connected());

  f.Feed("LOBBY_MEMBER_UPDATE", MemberEvent(kLobby, Member(kBob, "bob", true, R"({"ready":"yes"})", 1)));
  CHECK(f.Drain() == Events{"member updated 5000 1001"});
  auto bob = f.Store().Get(kLobby)->GetLobbyMemberHandle(kBob);
  CHECK(bob->Metadata() == Metadata{{"ready", "yes"}});
  CHECK(bob->CanLinkLobby());

  f.Feed("LOBBY_UPDATE", Lobby(kLobby,
                               {Member(kSelf, "player"), Member(kBob, "bob", true, R"({"ready":"yes"})", 1),
                                Member(kCarol, "carol")},
                               R"({"map":"dust"})"));
  CHECK(f.Drain() == Events{"updated 5000", "added 5000 1002"});
  CHECK(f.Store().Get(kLobby)->Metadata() == Metadata{{"map", "dust"}});

  f.Feed("LOBBY_MEMBER_REMOVE", MemberEvent(kLobby, Member(kBob, "bob")));
  CHECK(f.Drain() == Events{"removed 5000 1001"});
  CHECK(f.Store().Get(kLobby)->LobbyMemberIds() == Ids{kSelf, kCarol});
  f.Feed("LOBBY_MEMBER_REMOVE", MemberEvent(kLobby, Member(kBob, "bob")));
  CHECK(f.Drain().empty());  // once

  f.Feed("LOBBY_DELETE", R"({"id":"5000","reason":"removed"})");
  CHECK(f.Drain() == Events{"deleted 5000"});
  CHECK_FALSE(f.Store().Get(kLobby));
  CHECK(f.Store().Ids().empty());
  f.Feed("LOBBY_DELETE", R"({"id":"5000","reason":"removed"})");
  CHECK(f.Drain().empty());  // once
  CHECK(f.warnings.empty());
}

TEST_CASE("the state is in place before each callback runs") {
  Fixture f;
  f.Feed("READY", Ready({}));
  std::vector<bool> seen;
  f.Store().callbacks.created.Set([&](uint64_t id) { seen.push_back(f.Store().Get(id).has_value()); });
  f.Store().callbacks.memberAdded.Set([&](uint64_t lobby, uint64_t member) {
    seen.push_back(f.Store().Get(lobby)->GetLobbyMemberHandle(member).has_value());
  });
  f.Store().callbacks.deleted.Set([&](uint64_t id) { seen.push_back(!f.Store().Get(id)); });
  f.Feed("LOBBY_CREATE", Lobby(kLobby, {Member(kSelf, "player")}));
  f.Feed("LOBBY_MEMBER_ADD", MemberEvent(kLobby, Member(kBob, "bob")));
  f.core->RunCallbacks();
  f.Feed("LOBBY_DELETE", R"({"id":"5000"})");
  f.core->RunCallbacks();
  CHECK(seen == std::vector<bool>{true, true, true});
}

TEST_CASE("a later READY announces what changed since the last session") {
  Fixture f;
  f.Feed("READY", Ready({Lobby(kLobby, {Member(kSelf, "player"), Member(kBob, "bob")}),
                         Lobby(kLobby2, {Member(kSelf, "player")})}));
  CHECK(f.Drain().empty());
  // Meanwhile: kLobby2 was deleted, kLobby got new metadata, Bob left and Carol joined, a new lobby 5002.
  f.Feed("READY", Ready({Lobby(kLobby, {Member(kSelf, "player"), Member(kCarol, "carol")}, R"({"a":"b"})"),
                         Lobby(5002, {Member(kSelf, "player")})}));
  CHECK(f.Drain() ==
        Events{"deleted 5001", "updated 5000", "removed 5000 1001", "added 5000 1002", "created 5002"});
  CHECK(f.Store().Ids() == Ids{kLobby, 5002});
  // The same READY again: nothing changed.
  f.Feed("READY", Ready({Lobby(kLobby, {Member(kSelf, "player"), Member(kCarol, "carol")}, R"({"a":"b"})"),
                         Lobby(5002, {Member(kSelf, "player")})}));
  CHECK(f.Drain().empty());
}

TEST_CASE("a join's answer is applied before its LOBBY_CREATE, announced once") {
  Fixture f;
  f.Feed("READY", Ready({}));
  auto answer = ParseLobbyText(Lobby(kLobby, {Member(kSelf, "player", false, "null", 0, false),
                                              Member(kBob, "bob", false, "null", 0, false)}));
  REQUIRE(answer);
  uint64_t generation = f.Store().Generation();
  f.Store().ApplyJoined(*answer, generation);
  CHECK(f.Drain() == Events{"created 5000"});
  auto lobby = f.Store().Get(kLobby);
  REQUIRE(lobby);
  CHECK(lobby->GetLobbyMemberHandle(kSelf)->Connected());  // the player, while the session is up
  CHECK(lobby->GetLobbyMemberHandle(kSelf)->User());
  // Its LOBBY_CREATE replaces it silently (Bob is connected after all: no member update for that).
  f.Feed("LOBBY_CREATE", Lobby(kLobby, {Member(kSelf, "player"), Member(kBob, "bob", true)}));
  CHECK(f.Drain().empty());
  CHECK(f.Store().Get(kLobby)->GetLobbyMemberHandle(kBob)->Connected());
  // A later LOBBY_CREATE of a known lobby is a change like any other.
  f.Feed("LOBBY_CREATE", Lobby(kLobby, {Member(kSelf, "player")}));
  CHECK(f.Drain() == Events{"removed 5000 1001"});

  SUBCASE("the LOBBY_CREATE first: the answer changes nothing") {
    f.Feed("LOBBY_CREATE", Lobby(kLobby2, {Member(kSelf, "player")}));
    CHECK(f.Drain() == Events{"created 5001"});
    auto again = ParseLobbyText(Lobby(kLobby2, {Member(kSelf, "player"), Member(kBob, "bob")}));
    f.Store().ApplyJoined(*again, f.Store().Generation());
    CHECK(f.Drain().empty());
    CHECK(f.Store().Get(kLobby2)->LobbyMemberIds() == Ids{kSelf});
  }
  SUBCASE("left before the answer arrived: the stale answer is not applied") {
    uint64_t sent = f.Store().Generation();
    f.Feed("LOBBY_CREATE", Lobby(kLobby2, {Member(kSelf, "player")}));
    f.Feed("LOBBY_DELETE", R"({"id":"5001","reason":"removed"})");
    CHECK(f.Drain() == Events{"created 5001", "deleted 5001"});
    f.Store().ApplyJoined(*ParseLobbyText(Lobby(kLobby2, {Member(kSelf, "player")})), sent);
    CHECK(f.Drain().empty());
    CHECK_FALSE(f.Store().Get(kLobby2));
    // Joining again after the delete is applied.
    f.Store().ApplyJoined(*ParseLobbyText(Lobby(kLobby2, {Member(kSelf, "player")})), f.Store().Generation());
    CHECK(f.Drain() == Events{"created 5001"});
  }
}

TEST_CASE("an answer before any READY is not applied") {
  Fixture f;
  f.Store().ApplyJoined(*ParseLobbyText(Lobby(kLobby, {Member(kSelf, "player")})), 0);
  CHECK(f.Drain().empty());
  CHECK_FALSE(f.Store().Get(kLobby));
}

TEST_CASE("a callback set later replaces the earlier one for what is still queued") {
  Fixture f;
  f.Feed("READY", Ready({}));
  f.Feed("LOBBY_CREATE", Lobby(kLobby, {Member(kSelf, "player")}));
  int later = 0;
  f.Store().callbacks.created.Set([&](uint64_t) { ++later; });
  CHECK(f.Drain().empty());
  CHECK(later == 1);
}

TEST_CASE("malformed dispatches are skipped with a warning that names no content") {
  Fixture f;
  f.Feed("READY", Ready({Lobby(kLobby, {Member(kSelf, "player")})}));
  CHECK(f.Drain().empty());
  const std::string marker = "SENSITIVE-CONTENT";
  f.Feed("LOBBY_CREATE", "{not json " + marker);
  f.Feed("LOBBY_CREATE", R"({"id":"0","members":[]})");
  f.Feed("LOBBY_UPDATE", R"({"id":"5000","metadata":{"k":1},"members":[]})");  // a value that is not a string
  f.Feed("LOBBY_UPDATE", R"({"id":"5000","metadata":null,"members":[{"id":"x"}]})");
  f.Feed("LOBBY_UPDATE", R"({"id":"5000","metadata":null,"members":"")" + marker + R"("})");
  f.Feed("LOBBY_MEMBER_ADD", R"({"lobby_id":"5000","member":{"id":"1001","metadata":")" + marker + R"("}})");
  f.Feed("LOBBY_MEMBER_ADD", R"({"lobby_id":"5000"})");
  f.Feed("LOBBY_MEMBER_UPDATE", R"({"lobby_id":"5000","member":{"id":"1001","flags":-1}})");
  f.Feed("LOBBY_DELETE", R"({"id":")" + marker + R"("})");
  f.Feed("LOBBY_DELETE", "[]");
  CHECK(f.Drain().empty());
  CHECK(f.warnings.size() == 10);
  for (const auto& warning : f.warnings)
    CHECK(warning.find(marker) == std::string::npos);
  // The state is untouched.
  auto lobby = f.Store().Get(kLobby);
  REQUIRE(lobby);
  CHECK(lobby->LobbyMemberIds() == Ids{kSelf});
  CHECK(lobby->Metadata().empty());

  f.warnings.clear();
  f.Feed("READY", Ready({Lobby(kLobby, {Member(kSelf, "player")}), R"({"id":"5001","members":7})"}));
  CHECK(f.Drain().empty());  // the good lobby is unchanged, the bad one skipped
  CHECK(f.warnings.size() == 1);
  CHECK(f.Store().Ids() == Ids{kLobby});
}

TEST_CASE("dispatches for unknown lobbies or another application change nothing") {
  Fixture f;
  f.Feed("READY", Ready({Lobby(kLobby, {Member(kSelf, "player")})}));
  f.Feed("LOBBY_MEMBER_ADD", MemberEvent(kLobby2, Member(kBob, "bob")));
  f.Feed("LOBBY_MEMBER_ADD", MemberEvent(kLobby, Member(kBob, "bob"), kOtherApp));
  f.Feed("LOBBY_CREATE", Lobby(kLobby2, {Member(kSelf, "player")}, "null", "null", kOtherApp));
  f.Feed("LOBBY_DELETE", R"({"id":"5001"})");
  CHECK(f.Drain().empty());
  CHECK(f.warnings.empty());
  CHECK(f.Store().Ids() == Ids{kLobby});
  CHECK(f.Store().Get(kLobby)->LobbyMemberIds() == Ids{kSelf});
}

TEST_CASE("lobby rules: secret, metadata, additional name, idle timeout, moderation metadata") {
  auto errors = [](auto check) {
    std::vector<FieldError> e;
    check(e);
    return e;
  };
  CHECK(errors([](auto& e) { lobby::CheckSecret(std::string(250, 's'), "secret", e); }).empty());
  auto secret = errors([](auto& e) { lobby::CheckSecret(std::string(251, 's'), "secret", e); });
  REQUIRE(secret.size() == 1);
  CHECK(secret[0].path == "secret");
  CHECK(secret[0].code == "BASE_TYPE_BAD_LENGTH");
  CHECK(errors([](auto& e) { lobby::CheckSecret("", "secret", e); }).size() == 1);
  // Code points, not bytes: 250 two-byte characters pass.
  std::string wide;
  for (int i = 0; i < 250; ++i)
    wide += "\xC3\xA9";
  CHECK(errors([&](auto& e) { lobby::CheckSecret(wide, "secret", e); }).empty());
  CHECK(errors([&](auto& e) { lobby::CheckSecret(wide + "x", "secret", e); }).size() == 1);
  CHECK(errors([](auto& e) { lobby::CheckSecret("\xC3", "secret", e); })[0].code == "STRING_TYPE_INVALID");

  // 1000 code points in total, keys and values.
  Metadata full{{std::string(10, 'k'), std::string(490, 'v')}, {std::string(500, 'x'), ""}};
  CHECK(lobby::MetadataLength(full) == 1000u);
  CHECK(errors([&](auto& e) { lobby::CheckMetadata(full, "lobby_metadata", e); }).empty());
  full.begin()->second += "v";
  auto over = errors([&](auto& e) { lobby::CheckMetadata(full, "lobby_metadata", e); });
  REQUIRE(over.size() == 1);
  CHECK(over[0].path == "lobby_metadata");
  Metadata pairs;
  for (int i = 0; i < 25; ++i)
    pairs["k" + std::to_string(i)] = "v";
  CHECK(errors([&](auto& e) { lobby::CheckMetadata(pairs, "m", e); }).empty());
  pairs["k25"] = "v";
  CHECK(errors([&](auto& e) { lobby::CheckMetadata(pairs, "m", e); }).size() == 1);
  Metadata invalid{{"k", "\xFF"}};
  CHECK(errors([&](auto& e) { lobby::CheckMetadata(invalid, "m", e); }).size() == 1);

  CHECK(errors([](auto& e) { lobby::CheckAdditionalName(std::string(80, 'n'), "n", e); }).empty());
  CHECK(errors([](auto& e) { lobby::CheckAdditionalName(std::string(81, 'n'), "n", e); }).size() == 1);
  CHECK(errors([](auto& e) { lobby::CheckAdditionalName("", "n", e); }).size() == 1);
  CHECK(errors([](auto& e) { lobby::CheckAdditionalName("n", "n", e); }).empty());

  CHECK(errors([](auto& e) { lobby::CheckIdleTimeout(5, "t", e); }).empty());
  CHECK(errors([](auto& e) { lobby::CheckIdleTimeout(4, "t", e); }).size() == 1);
  CHECK(errors([](auto& e) { lobby::CheckIdleTimeout(604800, "t", e); }).empty());
  CHECK(errors([](auto& e) { lobby::CheckIdleTimeout(604801, "t", e); }).size() == 1);

  Metadata five{{"a", std::string(2000, 'x')}, {"b", ""}, {"c", ""}, {"d", ""}, {"e", ""}};
  CHECK(errors([&](auto& e) { lobby::CheckModerationMetadata(five, "m", e); }).empty());
  five["a"] += "x";
  CHECK(errors([&](auto& e) { lobby::CheckModerationMetadata(five, "m", e); }).size() == 1);
  five["a"].pop_back();
  five["f"] = "";
  CHECK(errors([&](auto& e) { lobby::CheckModerationMetadata(five, "m", e); }).size() == 1);

  auto result = core::ValidationResult(std::move(secret));
  CHECK(result.Type() == ErrorType::ValidationError);
  REQUIRE(result.FieldErrors().size() == 1);
  CHECK(result.FieldErrors()[0].path == "secret");
  CHECK(core::ValidationResult({}).Successful());
}

TEST_CASE("lobby JSON: HTTP answers without user and connected, additional names") {
  auto lobby = ParseLobbyText(
      R"({"id":"1","application_id":"2","metadata":null,"members":[{"id":"3","metadata":{"a":"b"},"flags":1,)"
      R"("additional_name":"Knight"}],"linked_channel":null,"flags":0})");
  REQUIRE(lobby);
  REQUIRE(lobby->members.size() == 1);
  CHECK(lobby->members[0].additionalName == "Knight");
  CHECK(lobby->members[0].flags == 1);
  CHECK_FALSE(lobby->members[0].connected);
  CHECK_FALSE(lobby->members[0].user);
  // A member's user must be the member.
  CHECK_FALSE(ParseLobbyText(R"({"id":"1","members":[{"id":"3","user":)" + User(4, "x") + "}]}"));
  // Duplicate members are malformed.
  CHECK_FALSE(ParseLobbyText(R"({"id":"1","members":[{"id":"3"},{"id":"3"}]})"));
}

TEST_CASE("Client lobby calls check their rules before sending anything") {
  // Nothing listens at this address: a request that went out would end as a NetworkError.
  ClientOptions options;
  options.ipcEnabled = false;
  options.apiBase = "http://127.0.0.1:1/api/v10";
  Client client(options);
  client.SetApplicationId(kApp);
  bool tokenSet = false;
  client.UpdateToken(AuthorizationTokenType::Bearer, "token-for-the-unit-test",
                     [&](const ClientResult&) { tokenSet = true; });
  auto run = [&](auto& done) {
    for (int i = 0; i < 2000 && !done; ++i) {
      client.RunCallbacks();
      client.WaitForCallbacks(5);
    }
    REQUIRE(done);
  };
  run(tokenSet);
  auto join = [&](const std::string& secret, std::optional<Metadata> lobbyMetadata = std::nullopt,
                  const std::optional<Metadata>& memberMetadata = std::nullopt) {
    std::optional<ClientResult> out;
    auto cb = [&](ClientResult r, uint64_t) { out = std::move(r); };
    if (lobbyMetadata) {
      client.CreateOrJoinLobbyWithMetadata(secret, *lobbyMetadata, memberMetadata.value_or(Metadata{}), cb);
    } else {
      client.CreateOrJoinLobby(secret, cb);
    }
    bool done = false;
    for (int i = 0; i < 2000 && !out; ++i) {
      client.RunCallbacks();
      client.WaitForCallbacks(5);
    }
    done = out.has_value();
    REQUIRE(done);
    return *out;
  };
  auto sent = join(std::string(250, 's'));
  CHECK(sent.Type() == ErrorType::NetworkError);  // within the rules: it went out
  auto refused = join(std::string(251, 's'));
  CHECK(refused.Type() == ErrorType::ValidationError);
  REQUIRE(refused.FieldErrors().size() == 1);
  CHECK(refused.FieldErrors()[0].path == "secret");

  Metadata thousand{{"k", std::string(999, 'v')}};
  Metadata over{{"k", std::string(1000, 'v')}};
  CHECK(join("s", thousand, thousand).Type() == ErrorType::NetworkError);
  auto lobbyOver = join("s", over, thousand);
  CHECK(lobbyOver.Type() == ErrorType::ValidationError);
  CHECK(lobbyOver.FieldErrors()[0].path == "lobby_metadata");
  auto memberOver = join("s", thousand, over);
  CHECK(memberOver.Type() == ErrorType::ValidationError);
  CHECK(memberOver.FieldErrors()[0].path == "member_metadata");

  std::optional<ClientResult> link;
  client.LinkChannelToLobby(5, 0, [&](ClientResult r) { link = std::move(r); });
  std::optional<ClientResult> leave;
  client.LeaveLobby(0, [&](ClientResult r) { leave = std::move(r); });
  client.RunCallbacks();
  REQUIRE(link);
  CHECK(link->Type() == ErrorType::ValidationError);
  REQUIRE(leave);
  CHECK(leave->Type() == ErrorType::ValidationError);
}

TEST_CASE("lobby call: voice_states and LOBBY_VOICE_STATE_UPDATE make the lobby's CallInfoHandle") {
  Fixture f;
  auto lobbyWithCall = Lobby(kLobby, {Member(kSelf, "player"), Member(kBob, "bob")});
  lobbyWithCall.insert(lobbyWithCall.size() - 1,
                       R"(,"voice_states":[{"user_id":"1001","session_id":"sb","channel_id":"5000",)"
                       R"("self_mute":true,"self_deaf":false}])");
  f.Feed("READY", Ready({lobbyWithCall, Lobby(kLobby2, {Member(kSelf, "player")})}));
  auto call = f.Store().Get(kLobby)->GetCallInfoHandle();
  REQUIRE(call);
  CHECK(call->ChannelId() == kLobby);
  CHECK(call->GuildId() == 0);
  CHECK(call->GetParticipants() == Ids{kBob});
  CHECK_FALSE(f.Store().Get(kLobby2)->GetCallInfoHandle());

  const auto state = [](uint64_t lobby, uint64_t user, bool inCall, bool mute = false) {
    return R"({"lobby_id":")" + std::to_string(lobby) + R"(","user_id":")" + std::to_string(user) +
           R"(","session_id":"s","channel_id":)" + (inCall ? "\"" + std::to_string(lobby) + "\"" : "null") +
           R"(,"self_mute":)" + (mute ? "true" : "false") + R"(,"self_deaf":false})";
  };
  f.Feed("LOBBY_VOICE_STATE_UPDATE", state(kLobby, kSelf, true));
  f.Feed("LOBBY_VOICE_STATE_UPDATE", state(kLobby, kSelf, true, true));  // an update, not a second entry
  CHECK(f.Store().Get(kLobby)->GetCallInfoHandle()->GetParticipants() == Ids{kBob, kSelf});
  // A lobby update without voice_states (as HTTP answers carry) keeps the call.
  f.Feed("LOBBY_UPDATE", Lobby(kLobby, {Member(kSelf, "player"), Member(kBob, "bob")}, R"({"k":"v"})"));
  CHECK(f.Store().Get(kLobby)->GetCallInfoHandle()->GetParticipants() == Ids{kBob, kSelf});
  f.Feed("LOBBY_VOICE_STATE_UPDATE", state(kLobby, kBob, false));
  f.Feed("LOBBY_VOICE_STATE_UPDATE", state(kLobby, kSelf, false));
  CHECK_FALSE(f.Store().Get(kLobby)->GetCallInfoHandle());
  // Voice states fire no lobby callbacks (the Call announces participants).
  CHECK(f.Drain() == Events{"updated 5000"});

  // Malformed: a channel that is not the lobby, a missing user, a bad boolean; an unknown lobby is ignored.
  f.Feed("LOBBY_VOICE_STATE_UPDATE", R"({"lobby_id":"5000","user_id":"1001","channel_id":"77"})");
  f.Feed("LOBBY_VOICE_STATE_UPDATE", R"({"lobby_id":"5000","channel_id":"5000"})");
  f.Feed("LOBBY_VOICE_STATE_UPDATE",
         R"({"lobby_id":"5000","user_id":"1001","channel_id":"5000","self_mute":1})");
  f.Feed("LOBBY_VOICE_STATE_UPDATE", state(777, kBob, true));
  CHECK_FALSE(f.Store().Get(kLobby)->GetCallInfoHandle());
  CHECK(f.Drain().empty());  // log callbacks run inside RunCallbacks too
  CHECK(f.warnings.size() == 3);
  // A lobby whose voice_states is malformed is malformed.
  CHECK_FALSE(ParseLobbyText(R"({"id":"1","voice_states":{}})"));
  CHECK_FALSE(ParseLobbyText(R"({"id":"1","voice_states":[{"user_id":"2"},{"user_id":"2"}]})"));
  CHECK(ParseLobbyText(R"({"id":"1","voice_states":[{"user_id":"2"}]})"));
}

}  // namespace lobby_store_test

namespace lobby_store_test {

// What a feature built on the store (voice) hears, and that it may read the store while it hears it.
struct ChangeRecorder final : lobby::LobbyChangeListener {
  explicit ChangeRecorder(const lobby::LobbyStore& store) : store(store) {}
  void OnLobbyVoiceStates(uint64_t lobbyId) override {
    std::string line = "states " + std::to_string(lobbyId) + ":";
    if (auto states = store.VoiceStates(lobbyId)) {  // the store's lock is free
      for (const auto& state : *states)
        line += " " + std::to_string(state.userId);
    } else {
      line += " unknown";
    }
    heard.push_back(line);
  }
  void OnLobbyVoiceStateChanged(const lobby::VoiceStateEvent& event) override {
    heard.push_back("voice " + std::to_string(event.lobbyId) + " " + std::to_string(event.state.userId) +
                    (event.inCall ? " in" : " out"));
  }
  void OnLobbyMemberRemoved(uint64_t lobbyId, uint64_t userId) override {
    heard.push_back("removed " + std::to_string(lobbyId) + " " + std::to_string(userId));
  }
  void OnLobbyDeleted(uint64_t lobbyId) override { heard.push_back("deleted " + std::to_string(lobbyId)); }

  const lobby::LobbyStore& store;
  std::vector<std::string> heard;
};

TEST_CASE("the store tells its listener each change it applied, once applied, in dispatch order") {
  Fixture f;
  ChangeRecorder recorder(f.Store());
  f.Store().SetChangeListener(&recorder);
  auto lobbyWithCall = Lobby(kLobby, {Member(kSelf, "player"), Member(kBob, "bob")});
  lobbyWithCall.insert(lobbyWithCall.size() - 1,
                       R"(,"voice_states":[{"user_id":"1001","session_id":"sb","channel_id":"5000"}])");
  f.Feed("READY", Ready({lobbyWithCall, Lobby(kLobby2, {Member(kSelf, "player")})}));
  f.Feed("LOBBY_VOICE_STATE_UPDATE",
         R"({"lobby_id":"5000","user_id":"1000","session_id":"s","channel_id":"5000"})");
  f.Feed("LOBBY_VOICE_STATE_UPDATE",  // a lobby the store does not know: nothing to tell
         R"({"lobby_id":"777","user_id":"1000","session_id":"s","channel_id":"777"})");
  f.Feed("LOBBY_UPDATE", Lobby(kLobby, {Member(kSelf, "player"), Member(kBob, "bob")}));
  f.Feed("LOBBY_MEMBER_REMOVE", MemberEvent(kLobby, Member(kBob, "bob")));
  f.Feed("LOBBY_MEMBER_REMOVE", MemberEvent(kLobby, Member(kBob, "bob")));  // not a member any more
  f.Feed("LOBBY_DELETE", R"({"id":"5001"})");
  f.Feed("LOBBY_DELETE", R"({"id":"5001"})");  // gone already
  f.Feed("READY", Ready({}));                  // a new session without kLobby
  CHECK(recorder.heard == Events{"states 5000: 1001", "states 5001: unknown", "voice 5000 1000 in",
                                 "states 5000: 1001 1000", "removed 5000 1001", "deleted 5001",
                                 "deleted 5000"});
  f.Store().SetChangeListener(nullptr);
}

}  // namespace lobby_store_test
