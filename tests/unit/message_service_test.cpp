// The message service fed Gateway dispatches directly (no sockets): the 25-message window per channel, each
// id announced once, callback order, malformed input; the wire decoding and the limits; and the outbox's
// policy (one in flight per channel, retries with the same attempt, the dedupe window, shutdown) driven by a
// fake scheduler and clock.
#include "messaging/message_service.hpp"
#include "client/client_core.hpp"
#include "json/timestamp.hpp"
#include "messaging/message_json.hpp"
#include "messaging/outbox.hpp"
#include "presence/presence_service.hpp"
#include "social/social_store.hpp"

#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace message_service_test {

using namespace platformpp;
using messaging::Outbox;

namespace {

constexpr uint64_t kApp = 1234567890123456789ULL;
constexpr uint64_t kSelf = 1000;
constexpr uint64_t kBob = 1001;
constexpr uint64_t kLobby = 5000;
constexpr uint64_t kOtherLobby = 5001;
constexpr uint64_t kDmChannel = 7000;

std::string User(uint64_t id, const std::string& username, const std::string& globalName = {}) {
  return R"({"id":")" + std::to_string(id) + R"(","username":")" + username + R"(","global_name":)" +
         (globalName.empty() ? std::string("null") : "\"" + globalName + "\"") +
         R"(,"avatar":null,"discriminator":"0","bot":false,"premium_type":0,"primary_guild":null,)"
         R"("provisional":false})";
}

std::string Ready() {
  return R"({"v":10,"session_id":"s1","user":)" + User(kSelf, "player") +
         R"(,"relationships":[{"id":"1001","type":1,"user":)" + User(kBob, "bob", "Bobby") +
         R"(,"since":"2026-11-20T10:00:00.000000+00:00","is_spam_request":false,"nickname":null}],)"
         R"("game_relationships":[],"presences":[],"guilds":[],"user_application_profiles":[]})";
}

std::string LobbyMessage(uint64_t id, uint64_t lobby, uint64_t author, const std::string& content,
                         const std::string& extra = {}) {
  return R"({"id":")" + std::to_string(id) + R"(","type":0,"content":")" + content + R"(","lobby_id":")" +
         std::to_string(lobby) + R"(","channel_id":")" + std::to_string(lobby) + R"(","author":)" +
         User(author, "u" + std::to_string(author)) +
         R"(,"flags":0,"application_id":"1234567890123456789","timestamp":"2026-11-22T20:00:00.250000+00:00",)"
         R"("edited_timestamp":null)" +
         extra + "}";
}

std::string DmMessage(uint64_t id, uint64_t author, uint64_t recipient, const std::string& content,
                      const std::string& extra = {}) {
  return R"({"id":")" + std::to_string(id) + R"(","type":0,"channel_id":")" + std::to_string(kDmChannel) +
         R"(","author":)" + User(author, author == kBob ? "bob" : "player") + R"(,"content":")" + content +
         R"(","timestamp":"2026-11-22T20:00:01Z","edited_timestamp":null,"flags":0,"recipient_id":")" +
         std::to_string(recipient) + "\"" + extra + "}";
}

struct Fixture {
  std::unique_ptr<client::ClientCore> core;
  std::vector<std::string> events;
  std::vector<uint64_t> unreadable;  // created or updated callbacks whose message Message() did not give
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
    Service().callbacks.created.Set([this](uint64_t id) {
      events.push_back("created " + std::to_string(id));
      if (!Service().Message(id)) unreadable.push_back(id);
    });
    Service().callbacks.updated.Set([this](uint64_t id) {
      events.push_back("updated " + std::to_string(id));
      if (!Service().Message(id)) unreadable.push_back(id);
    });
    Service().callbacks.deleted.Set([this](uint64_t id, uint64_t channel) {
      events.push_back("deleted " + std::to_string(id) + " in " + std::to_string(channel));
    });
    Feed("READY", Ready());
  }
  messaging::MessageService& Service() { return core->Messages(); }
  void Feed(std::string_view type, const std::string& data) {
    // As the Gateway does: every sink, in order.
    gateway::Dispatch dispatch{type, data, ++seq};
    core->Social().OnDispatch(dispatch);
    Service().OnDispatch(dispatch);
  }
  std::vector<std::string> Drain() {
    core->RunCallbacks();
    return std::exchange(events, {});
  }
};

using Events = std::vector<std::string>;
using Ids = std::vector<uint64_t>;

}  // namespace

TEST_CASE("a lobby message is kept with its fields and announced once") {
  Fixture f;
  f.Feed("LOBBY_MESSAGE_CREATE",
         LobbyMessage(10, kLobby, kBob, "hello",
                      R"(,"metadata":{"k":"v"},"moderation_metadata":{"m":"1"},"nonce":"123",)"
                      R"("lobby_member":{"additional_name":"Sir Bob"})"));
  CHECK(f.Drain() == Events{"created 10"});
  auto message = f.Service().Message(10);
  REQUIRE(message);
  CHECK(message->Content() == "hello");
  CHECK(message->AuthorId() == kBob);
  CHECK(message->ChannelId() == kLobby);
  CHECK(message->LobbyId() == kLobby);
  CHECK(message->RecipientId() == 0);
  CHECK(message->SentTimestamp() == 1795377600250ULL);
  CHECK(message->EditedTimestamp() == 0);
  CHECK(message->Metadata() == Metadata{{"k", "v"}});
  CHECK(message->ModerationMetadata() == Metadata{{"m", "1"}});
  CHECK(message->AdditionalName() == std::optional<std::string>("Sir Bob"));
  CHECK(message->ApplicationId() == kApp);
  CHECK(message->SentFromGame());
  REQUIRE(message->Author());
  CHECK(message->Author()->DisplayName() == "Bobby");  // as the Client knows Bob, not as the message said

  // The same id again (a replay, or the send's answer after the dispatch): kept, not announced again.
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(10, kLobby, kBob, "hello"));
  CHECK(f.Drain().empty());
  CHECK(f.Service().ChannelMessageIds(kLobby) == Ids{10});
}

TEST_CASE("the 25 newest messages of each channel are kept, older ones dropped") {
  Fixture f;
  for (uint64_t id = 1; id <= 26; ++id)
    f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(100 + id, kLobby, kBob, "m" + std::to_string(id)));
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(99, kOtherLobby, kBob, "other"));
  // 101 left the window before its callback ran: it stays readable until then.
  CHECK(f.Service().ChannelMessageIds(kLobby).front() == 102);
  CHECK(f.Service().Message(101));
  auto events = f.Drain();
  REQUIRE(events.size() == 27);
  CHECK(events.front() == "created 101");
  CHECK(events[25] == "created 126");
  CHECK(f.unreadable.empty());
  Ids kept = f.Service().ChannelMessageIds(kLobby);
  REQUIRE(kept.size() == 25);
  CHECK(kept.front() == 102);
  CHECK(kept.back() == 126);
  CHECK_FALSE(f.Service().Message(101));
  CHECK(f.Service().Message(102));
  CHECK(f.Service().Message(99));  // another channel has its own window
  CHECK(f.Service().ChannelMessageIds(kOtherLobby) == Ids{99});

  // The dropped one again: it was announced, so it is not news, and it is older than the window.
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(101, kLobby, kBob, "m1"));
  CHECK(f.Drain().empty());
  CHECK_FALSE(f.Service().Message(101));
  // A newer one pushes the oldest kept out.
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(127, kLobby, kBob, "m27"));
  CHECK(f.Drain() == Events{"created 127"});
  CHECK(f.Service().ChannelMessageIds(kLobby).front() == 103);
  CHECK_FALSE(f.Service().Message(102));
}

TEST_CASE("a message named by a queued callback stays readable until it ran, unless deleted meanwhile") {
  Fixture f;
  for (uint64_t id = 1; id <= 25; ++id)
    f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(100 + id, kLobby, kBob, "m" + std::to_string(id)));
  f.Drain();
  // An edit of a message older than every kept one: readable in its callback, then let go.
  f.Feed("LOBBY_MESSAGE_UPDATE", LobbyMessage(90, kLobby, kBob, "edited"));
  // An edit of the oldest kept, then two newer messages that push it and the next one out of the window.
  f.Feed("LOBBY_MESSAGE_UPDATE",
         LobbyMessage(101, kLobby, kBob, "m1 edited", R"(,"edited_timestamp":"2026-11-22T20:01:00Z")"));
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(126, kLobby, kBob, "m26"));
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(127, kLobby, kBob, "m27"));
  // 102 was announced already (its callback ran): it is let go at once.
  CHECK_FALSE(f.Service().Message(102));
  auto held = f.Service().Message(101);
  REQUIRE(held);
  CHECK(held->Content() == "m1 edited");
  // A delete while the created callback of 127 waits: gone for that callback too.
  f.Feed("LOBBY_MESSAGE_DELETE", R"({"id":"127","lobby_id":"5000","channel_id":"5000"})");
  CHECK(f.Drain() ==
        Events{"updated 90", "updated 101", "created 126", "created 127", "deleted 127 in 5000"});
  CHECK(f.unreadable == Ids{127});
  CHECK_FALSE(f.Service().Message(90));
  CHECK_FALSE(f.Service().Message(101));
  CHECK_FALSE(f.Service().Message(127));
}

TEST_CASE("updates replace the message; moderation metadata comes and an edit clears it") {
  Fixture f;
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(10, kLobby, kBob, "hi"));
  f.Feed("LOBBY_MESSAGE_UPDATE",
         LobbyMessage(10, kLobby, kBob, "hi", R"(,"moderation_metadata":{"score":"0.1"})"));
  CHECK(f.Drain() == Events{"created 10", "updated 10"});
  CHECK(f.Service().Message(10)->ModerationMetadata() == Metadata{{"score", "0.1"}});

  f.Feed("MESSAGE_CREATE", DmMessage(20, kSelf, kBob, "dm", R"(,"moderation_metadata":{"a":"b"})"));
  f.Feed("MESSAGE_UPDATE",
         R"({"id":"20","type":0,"channel_id":"7000","author":)" + User(kSelf, "player") +
             R"(,"content":"edited","timestamp":"2026-11-22T20:00:01Z",)"
             R"("edited_timestamp":"2026-11-22T20:05:00.000+00:00","flags":0,"recipient_id":"1001"})");
  CHECK(f.Drain() == Events{"created 20", "updated 20"});
  auto edited = f.Service().Message(20);
  REQUIRE(edited);
  CHECK(edited->Content() == "edited");
  CHECK(edited->ModerationMetadata().empty());
  CHECK(edited->EditedTimestamp() == 1795377900000ULL);
}

TEST_CASE("deletes remove the message and announce its channel; a late copy is not news") {
  Fixture f;
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(10, kLobby, kBob, "a"));
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(11, kLobby, kBob, "b"));
  f.Feed("LOBBY_MESSAGE_DELETE", R"({"id":"10","lobby_id":"5000","channel_id":"5000"})");
  f.Feed("MESSAGE_CREATE", DmMessage(20, kBob, kSelf, "dm"));
  f.Feed("MESSAGE_DELETE", R"({"id":"20","channel_id":"7000"})");
  CHECK(f.Drain() ==
        Events{"created 10", "created 11", "deleted 10 in 5000", "created 20", "deleted 20 in 7000"});
  CHECK_FALSE(f.Service().Message(10));
  CHECK_FALSE(f.Service().Message(20));
  CHECK(f.Service().ChannelMessageIds(kLobby) == Ids{11});
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(10, kLobby, kBob, "a"));
  CHECK(f.Drain().empty());
}

TEST_CASE("DMs: recipient, channel handle with the other player's name, ephemeral flag") {
  Fixture f;
  f.Feed("MESSAGE_CREATE", DmMessage(20, kBob, kSelf, "hey"));
  CHECK(f.Drain() == Events{"created 20"});
  auto message = f.Service().Message(20);
  REQUIRE(message);
  CHECK(message->RecipientId() == kSelf);
  CHECK_FALSE(message->LobbyId());
  CHECK_FALSE(message->SentFromGame());
  auto channel = f.Service().Channel(kDmChannel);
  REQUIRE(channel);
  CHECK(channel->Type() == ChannelType::Dm);
  CHECK(channel->Name() == "Bobby");
  CHECK(channel->Recipients() == Ids{kSelf, kBob});

  f.Feed("MESSAGE_CREATE", DmMessage(21, kSelf, kBob, "eph", R"(,"application_id":"1234567890123456789")"));
  f.Feed("MESSAGE_CREATE", R"({"id":"22","type":0,"channel_id":"7000","author":)" + User(kBob, "bob") +
                               R"(,"content":"e","timestamp":"2026-11-22T20:00:01Z","flags":64,)"
                               R"("recipient_id":"1000"})");
  CHECK(f.Drain() == Events{"created 21", "created 22"});
  CHECK(f.Service().Channel(kDmChannel)->Type() == ChannelType::EphemeralDm);
  CHECK_FALSE(f.Service().Channel(123456));
}

TEST_CASE("activity invites, guild messages and other dispatches are not kept") {
  Fixture f;
  f.Feed("MESSAGE_CREATE",
         DmMessage(30, kBob, kSelf, "",
                   R"(,"application_id":"1234567890123456789","activity":{"type":1,"party_id":"p"})"));
  f.Feed("MESSAGE_CREATE", DmMessage(31, kBob, kSelf, "guild", R"(,"guild_id":"900")"));
  f.Feed("PRESENCE_UPDATE", R"({"user":{"id":"1001"},"status":"online","activities":[]})");
  CHECK(f.Drain().empty());
  CHECK_FALSE(f.Service().Message(30));
  CHECK_FALSE(f.Service().Message(31));
  CHECK(f.warnings.empty());
}

TEST_CASE("malformed message dispatches are skipped with a warning that shows no contents") {
  Fixture f;
  f.warnings.clear();
  f.Feed("LOBBY_MESSAGE_CREATE", "{not json secret-payload");
  f.Feed("LOBBY_MESSAGE_CREATE", "[1]");
  f.Feed("LOBBY_MESSAGE_CREATE",
         R"({"id":"1","channel_id":"5000","lobby_id":"5000","content":"secret-payload"})");
  f.Feed("LOBBY_MESSAGE_CREATE", R"({"id":"1","channel_id":"5000","content":"secret-payload","author":)" +
                                     User(kBob, "bob") + "}");  // no lobby_id
  f.Feed(
      "LOBBY_MESSAGE_CREATE",
      LobbyMessage(1, kLobby, kBob, "secret-payload")
          .replace(LobbyMessage(1, kLobby, kBob, "secret-payload").find("2026-11-22T"), 11, "yesterday  "));
  f.Feed("MESSAGE_CREATE", R"({"id":"x","channel_id":"7000","author":)" + User(kBob, "bob") + "}");
  f.Feed("MESSAGE_CREATE",
         R"({"id":"2","channel_id":"7000","author":)" + User(kBob, "bob") + R"(,"content":5})");
  f.Feed("MESSAGE_DELETE", R"({"id":"2"})");
  f.Feed("LOBBY_MESSAGE_DELETE", R"({"channel_id":"5000"})");
  // 0 is no snowflake, for the message, its channel or its author.
  f.Feed("MESSAGE_CREATE", R"({"id":"0","channel_id":"7000","author":)" + User(kBob, "bob") + "}");
  f.Feed("MESSAGE_CREATE", R"({"id":"3","channel_id":0,"author":)" + User(kBob, "bob") + "}");
  f.Feed("MESSAGE_CREATE", R"({"id":"4","channel_id":"7000","author":{"id":"0","username":"z"}})");
  CHECK(f.Drain().empty());
  CHECK(f.warnings.size() == 12);
  for (const auto& warning : f.warnings)
    CHECK(warning.find("secret-payload") == std::string::npos);
  CHECK(f.Service().ChannelMessageIds(kLobby).empty());
}

TEST_CASE("callbacks replaced or cleared before delivery") {
  Fixture f;
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(10, kLobby, kBob, "a"));
  int calls = 0;
  f.Service().callbacks.created.Set([&](uint64_t) { ++calls; });
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(11, kLobby, kBob, "b"));
  f.core->RunCallbacks();
  CHECK(calls == 2);
  CHECK(f.events.empty());
  f.Service().callbacks.created.Set(nullptr);
  f.Feed("LOBBY_MESSAGE_CREATE", LobbyMessage(12, kLobby, kBob, "c"));
  f.core->RunCallbacks();
  CHECK(calls == 2);
}

// --- Wire decoding and limits
// --------------------------------------------------------------------------------

TEST_CASE("ISO 8601 timestamps to milliseconds since the epoch") {
  using json::ParseTimestampMs;
  CHECK(ParseTimestampMs("1970-01-01T00:00:00Z") == 0ULL);
  CHECK(ParseTimestampMs("1970-01-01T00:00:01.5Z") == 1500ULL);
  CHECK(ParseTimestampMs("2026-11-22T20:00:00.250000+00:00") == 1795377600250ULL);
  CHECK(ParseTimestampMs("2026-11-22T21:00:00.250+01:00") == 1795377600250ULL);
  CHECK(ParseTimestampMs("2000-02-29T00:00:00Z") == 951782400000ULL);
  CHECK_FALSE(ParseTimestampMs("2026-11-22T20:00:00"));  // no offset
  CHECK_FALSE(ParseTimestampMs("2026-13-22T20:00:00Z"));
  CHECK_FALSE(ParseTimestampMs("2026-11-22T20:00:00.Z"));
  CHECK_FALSE(ParseTimestampMs("2026-11-22T20:00:00Zjunk"));
  CHECK_FALSE(ParseTimestampMs(""));
}

TEST_CASE("content is 1 to 2000 characters, counted in code points") {
  using messaging::CheckContent;
  CHECK(CheckContent(std::string(2000, 'a')).empty());
  auto over = CheckContent(std::string(2001, 'a'));
  REQUIRE(over.size() == 1);
  CHECK(over[0].path == "content");
  CHECK(CheckContent("a").empty());
  CHECK(CheckContent("").size() == 1);
  std::string euro2000;
  for (int i = 0; i < 2000; ++i)
    euro2000 += "\xE2\x82\xAC";  // 3 bytes, one character
  CHECK(CheckContent(euro2000).empty());
  CHECK(CheckContent(euro2000 + "a").size() == 1);
  CHECK(CheckContent("\xC0\x80").size() == 1);  // overlong: not UTF-8
}

TEST_CASE("metadata is at most 1000 characters in total; history limit 1 to 200") {
  using messaging::CheckHistoryLimit;
  using messaging::CheckMetadata;
  CHECK(CheckMetadata({{"k", std::string(999, 'v')}}).empty());
  CHECK(CheckMetadata({{"k", std::string(1000, 'v')}}).size() == 1);
  CHECK(CheckMetadata({{"ab", std::string(499, 'v')}, {"cd", std::string(497, 'v')}}).empty());
  CHECK(CheckMetadata({{"ab", std::string(499, 'v')}, {"cd", std::string(498, 'v')}}).size() == 1);
  CHECK(CheckHistoryLimit(1).empty());
  CHECK(CheckHistoryLimit(200).empty());
  CHECK(CheckHistoryLimit(0).size() == 1);
  CHECK(CheckHistoryLimit(201).size() == 1);
  CHECK(CheckHistoryLimit(-1).size() == 1);
}

TEST_CASE("the message body carries the nonce with enforce_nonce") {
  std::string body = messaging::MessageBody("hi \"there\"", {{"k", "v"}}, "123456789");
  CHECK(body ==
        R"({"content":"hi \"there\"","metadata":{"k":"v"},"nonce":"123456789","enforce_nonce":true})");
  CHECK(messaging::MessageBody("x", {}, "1") == R"({"content":"x","nonce":"1","enforce_nonce":true})");
}

TEST_CASE("Client message calls refused before anything is sent") {
  ClientOptions options;
  options.ipcEnabled = false;
  options.apiBase = "https://127.0.0.1:9/api/v10";  // nothing listens
  Client client(options);
  std::vector<ClientResult> results;
  auto sent = [&](ClientResult result, uint64_t id) {
    CHECK(id == 0);
    results.push_back(std::move(result));
  };
  auto record = [&](ClientResult result) { results.push_back(std::move(result)); };
  auto history = [&](ClientResult result, const std::vector<MessageHandle>& messages) {
    CHECK(messages.empty());
    results.push_back(std::move(result));
  };
  auto wait = [&](std::size_t count) {
    for (int i = 0; i < 10000 && results.size() < count; ++i) {
      client.RunCallbacks();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(results.size() == count);
  };
  client.SendLobbyMessage(kLobby, "hi", sent);
  client.GetUserMessageSummaries(
      [&](ClientResult result, const std::vector<UserMessageSummary>&) { record(std::move(result)); });
  wait(2);
  CHECK(results[0].Type() == ErrorType::ClientNotReady);
  CHECK(results[1].Type() == ErrorType::ClientNotReady);
  results.clear();

  client.UpdateToken(AuthorizationTokenType::Bearer, "token", [](const ClientResult&) {});
  client.SendLobbyMessage(kLobby, std::string(2001, 'a'), sent);
  client.SendLobbyMessage(0, "hi", sent);
  client.SendUserMessage(kBob, "", sent);
  client.SendUserMessageWithMetadata(kBob, "hi", {{"k", std::string(1000, 'v')}}, sent);
  client.EditUserMessage(kBob, 5, std::string(2001, 'a'), record);
  client.DeleteUserMessage(kBob, 0, record);
  client.GetLobbyMessagesWithLimit(kLobby, 201, history);
  client.GetLobbyMessagesWithLimit(kLobby, 0, history);
  client.GetUserMessagesWithLimit(kBob, 201, history);
  wait(9);
  for (const auto& result : results)
    CHECK(result.Type() == ErrorType::ValidationError);
  CHECK(results[0].Error().find("content") != std::string::npos);
  CHECK(results[3].Error().find("metadata") != std::string::npos);
  CHECK(results[6].Error().find("limit") != std::string::npos);
  CHECK_FALSE(client.GetMessageHandle(1));
  CHECK_FALSE(client.GetChannelHandle(1));
}

// --- The outbox ------------------------------------------------------------------------------------------

namespace {

struct FakeOutbox {
  struct Started {
    Outbox::Key key;
    int message;
    std::chrono::milliseconds timeout;
    Outbox::Answer answer;
  };
  Outbox::Clock::time_point now{std::chrono::hours(1)};
  std::size_t token = 1;  // what Outbox::TokenId answers: the game's current token
  std::vector<std::pair<std::chrono::milliseconds, std::function<void()>>> scheduled;
  std::vector<Outbox::Wait> waits;  // why each task was scheduled
  std::vector<Started> started;
  std::vector<std::string> finished;  // "message: result"
  std::shared_ptr<Outbox> outbox;

  FakeOutbox() {
    outbox = std::make_shared<Outbox>(
        messaging::OutboxPolicy{},
        [this](Outbox::Wait why, std::chrono::milliseconds delay, std::function<void()> task) {
          waits.push_back(why);
          scheduled.emplace_back(delay, std::move(task));
        },
        [this] { return now; }, [this] { return token; });
  }
  void Send(Outbox::Key key, int message) {
    outbox->Enqueue(
        key,
        [this, key, message](std::chrono::milliseconds timeout, Outbox::Answer answer) {
          started.push_back(Started{key, message, timeout, std::move(answer)});
        },
        [this, message](const ClientResult& result, const net::HttpResponse* response) {
          finished.push_back(std::to_string(message) + ": " +
                             (result.Successful() ? "ok " + std::to_string(response ? response->status : 0)
                                                  : std::string(ErrorTypeToString(result.Type()))));
        });
  }
  // Answers the `index`-th started attempt; `attempts`: the HTTP client's tries (more than 1: it retried a
  // network error or a 5xx first).
  void Answer(std::size_t index, int status, ErrorType transport = ErrorType::None, int attempts = 1) {
    net::HttpResponse response;
    response.attempts = attempts;
    if (transport != ErrorType::None) {
      response.transport = ClientResult::Failure(transport, "test");
    } else {
      response.status = status;
      response.headers.emplace_back("Content-Type", "application/json");
      response.body = status < 300 ? R"({"id":"1"})" : R"({"message":"no","code":50007})";
    }
    auto answer = std::move(started.at(index).answer);
    answer(std::move(response));
  }
  void RunScheduled() {
    auto tasks = std::exchange(scheduled, {});
    for (auto& [delay, task] : tasks)
      task();
  }
};

const Outbox::Key kA{Outbox::Kind::Lobby, 1};
const Outbox::Key kB{Outbox::Kind::Dm, 1};  // same id, other kind: another channel

}  // namespace

TEST_CASE("outbox: one message in flight per channel, in call order") {
  FakeOutbox f;
  f.Send(kA, 1);
  f.Send(kA, 2);
  f.Send(kB, 3);
  f.Send(kA, 4);
  REQUIRE(f.started.size() == 2);
  CHECK(f.started[0].message == 1);
  CHECK(f.started[1].message == 3);
  CHECK(f.outbox->Pending() == 4);
  f.Answer(0, 200);
  REQUIRE(f.started.size() == 3);
  CHECK(f.started[2].message == 2);
  f.Answer(2, 201);
  f.Answer(1, 200);
  REQUIRE(f.started.size() == 4);
  CHECK(f.started[3].message == 4);
  f.Answer(3, 200);
  CHECK(f.finished == std::vector<std::string>{"1: ok 200", "2: ok 201", "3: ok 200", "4: ok 200"});
  CHECK(f.outbox->Pending() == 0);
  CHECK(f.scheduled.empty());
}

TEST_CASE("outbox: network errors and 5xx are sent again after a capped backoff; 4xx and 429 end it") {
  FakeOutbox f;
  f.Send(kA, 1);
  f.Send(kA, 2);
  f.Answer(0, 0, ErrorType::NetworkError);
  CHECK(f.started.size() == 1);  // message 2 waits: order is kept
  REQUIRE(f.scheduled.size() == 1);
  CHECK(f.scheduled[0].first >= std::chrono::milliseconds(50));
  CHECK(f.scheduled[0].first <= std::chrono::milliseconds(100));
  f.RunScheduled();
  REQUIRE(f.started.size() == 2);
  CHECK(f.started[1].message == 1);  // the same message (the same nonce)
  for (int i = 0; i < 10; ++i) {
    f.Answer(f.started.size() - 1, 503);
    REQUIRE(f.scheduled.size() == 1);
    CHECK(f.scheduled[0].first <= std::chrono::milliseconds(1500));
    f.now += f.scheduled[0].first;
    f.RunScheduled();
    CHECK(f.started.back().message == 1);
  }
  CHECK(f.scheduled.empty());
  f.Answer(f.started.size() - 1, 200);
  CHECK(f.started.back().message == 2);
  f.Answer(f.started.size() - 1, 400);
  CHECK(f.finished == std::vector<std::string>{"1: ok 200", "2: HTTPError"});

  f.Send(kA, 3);
  f.Answer(f.started.size() - 1, 429);
  f.Send(kA, 4);
  f.Answer(f.started.size() - 1, 0, ErrorType::ValidationError);  // an invalid request fails again
  CHECK(f.finished.back() == "4: ValidationError");
  CHECK(f.finished[2] == "3: HTTPError");
  CHECK(f.scheduled.empty());
}

TEST_CASE("outbox: retries stop before the platform's dedupe window ends") {
  FakeOutbox f;
  f.Send(kA, 1);
  CHECK(f.started[0].timeout <= std::chrono::seconds(30));
  // 4 min 29 s later it still tries (the margin is 30 s of the 5 minutes).
  f.now += std::chrono::seconds(269);
  f.Answer(0, 0, ErrorType::NetworkError);
  REQUIRE(f.scheduled.size() == 1);
  f.RunScheduled();
  REQUIRE(f.started.size() == 2);
  CHECK(f.started[1].timeout <= std::chrono::milliseconds(250));  // bounded by what is left of the window
  f.now += std::chrono::seconds(1);
  f.Answer(1, 502);
  CHECK(f.scheduled.empty());
  CHECK(f.finished == std::vector<std::string>{"1: NetworkError"});
}

TEST_CASE("outbox: shutdown ends every message with ClientDestroyed exactly once") {
  FakeOutbox f;
  f.Send(kA, 1);
  f.Send(kA, 2);
  f.Send(kB, 3);
  f.Answer(1, 0, ErrorType::NetworkError);  // message 3 waits for its retry
  f.outbox->Shutdown();
  CHECK(f.finished ==
        std::vector<std::string>{"1: ClientDestroyed", "2: ClientDestroyed", "3: ClientDestroyed"});
  f.Answer(0, 200);  // a late answer
  f.RunScheduled();  // a late retry
  f.Send(kA, 4);     // after shutdown
  CHECK(f.finished.size() == 4);
  CHECK(f.finished.back() == "4: ClientDestroyed");
  CHECK(f.started.size() == 2);
}

TEST_CASE("outbox: a 401 after a try that may have reached the platform waits for a new token") {
  FakeOutbox f;
  SUBCASE("the outbox's own retry came first") {
    f.Send(kA, 1);
    f.Send(kA, 2);
    f.Answer(0, 0, ErrorType::NetworkError);
    f.RunScheduled();
    REQUIRE(f.started.size() == 2);
    f.Answer(1, 401);
    CHECK(f.finished.empty());  // held, not failed: the first try may have posted it
    REQUIRE(f.waits.size() == 2);
    CHECK(f.waits[1] == Outbox::Wait::HoldForToken);
    for (int i = 0; i < 5; ++i) {  // the token did not change: no request, another look later
      f.now += f.scheduled.at(0).first;
      f.RunScheduled();
      CHECK(f.started.size() == 2);
      CHECK(f.waits.back() == Outbox::Wait::TokenPoll);
    }
    f.token = 2;  // the game signed in again
    f.RunScheduled();
    REQUIRE(f.started.size() == 3);
    CHECK(f.started[2].message == 1);  // the same message: the same nonce
    CHECK(f.scheduled.empty());
    f.Answer(2, 200);
    REQUIRE(f.started.size() == 4);
    CHECK(f.started[3].message == 2);  // order kept: message 2 waited behind it
    f.Answer(3, 200);
    CHECK(f.finished == std::vector<std::string>{"1: ok 200", "2: ok 200"});
  }
  SUBCASE("the HTTP client retried within the attempt; the token changed before the 401 came") {
    f.Send(kA, 1);
    f.token = 2;
    f.Answer(0, 401, ErrorType::None, 2);
    REQUIRE(f.started.size() == 2);  // sent again at once with the new token
    CHECK(f.scheduled.empty());
    f.Answer(1, 200);
    CHECK(f.finished == std::vector<std::string>{"1: ok 200"});
  }
  SUBCASE("no new token before the dedupe window closes: it ends with the 401") {
    f.Send(kA, 1);
    f.Answer(0, 401, ErrorType::None, 3);
    CHECK(f.finished.empty());
    f.now += std::chrono::seconds(269);  // the window's margin is 30 s of its 5 minutes
    f.RunScheduled();
    CHECK(f.finished.empty());
    REQUIRE(f.scheduled.size() == 1);
    f.now += std::chrono::seconds(1);
    f.RunScheduled();
    CHECK(f.finished == std::vector<std::string>{"1: HTTPError"});
    CHECK(f.scheduled.empty());
    CHECK(f.started.size() == 1);
  }
  SUBCASE("a 401 on a first, single try ends the message at once, as before") {
    f.Send(kA, 1);
    f.Answer(0, 401);
    CHECK(f.finished == std::vector<std::string>{"1: HTTPError"});
    CHECK(f.scheduled.empty());
  }
  SUBCASE("shutdown while held ends it once") {
    f.Send(kA, 1);
    f.Answer(0, 401, ErrorType::None, 2);
    f.outbox->Shutdown();
    f.token = 2;
    f.RunScheduled();
    CHECK(f.finished == std::vector<std::string>{"1: ClientDestroyed"});
    CHECK(f.started.size() == 1);
  }
}

TEST_CASE("outbox: nonces are decimal, at most 25 characters, unique") {
  FakeOutbox f;
  FakeOutbox other;
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    for (auto* box : {&f, &other}) {
      std::string nonce = box->outbox->NewNonce();
      CHECK(nonce.size() <= messaging::kMaxNonceLength);
      CHECK(nonce.find_first_not_of("0123456789") == std::string::npos);
      CHECK(seen.insert(nonce).second);
    }
  }
}

TEST_CASE("destroying the Client ends every queued send with ClientDestroyed exactly once") {
  ClientOptions options;
  options.ipcEnabled = false;
  options.apiBase = "https://127.0.0.1:9/api/v10";  // nothing listens: every attempt is a NetworkError
  auto client = std::make_unique<Client>(options);
  client->UpdateToken(AuthorizationTokenType::Bearer, "token", [](const ClientResult&) {});
  std::vector<ClientResult> results;
  for (int i = 0; i < 5; ++i) {
    client->SendLobbyMessage(kLobby, "queued " + std::to_string(i), [&](ClientResult result, uint64_t id) {
      CHECK(id == 0);
      results.push_back(std::move(result));
    });
  }
  client->SendUserMessage(kBob, "to a DM",
                          [&](const ClientResult& result, uint64_t) { results.push_back(result); });
  // Attempts fail and are retried (the window is minutes long): nothing ends on its own meanwhile.
  for (int i = 0; i < 300; ++i) {
    client->RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(results.empty());
  client.reset();
  REQUIRE(results.size() == 6);
  for (const auto& result : results)
    CHECK(result.Type() == ErrorType::ClientDestroyed);
}

}  // namespace message_service_test

namespace message_service_test {

TEST_CASE("MESSAGE_CREATE's two meanings are told apart by one rule: a DM with an activity is an invite") {
  Fixture f;
  std::vector<uint64_t> invites;
  f.core->Presence().callbacks.inviteCreated.Set(
      [&](const ActivityInvite& invite) { invites.push_back(invite.MessageId()); });
  // Through the Client's own table, as the Gateway hands dispatches over.
  const auto route = [&](std::string_view type, const std::string& data) {
    gateway::Dispatch dispatch{type, data, ++f.seq};
    f.core->DispatchTable().Route(dispatch);
  };
  route("READY", Ready());
  const std::string activity =
      R"(,"application_id":"1234567890123456789","activity":{"type":1,"party_id":"p"})";
  route("MESSAGE_CREATE", DmMessage(40, kBob, kSelf, "", activity));
  // A lobby message that carries an activity is a chat message: only a DM is an invite.
  route("MESSAGE_CREATE", LobbyMessage(41, kLobby, kBob, "look", activity));
  route("LOBBY_MESSAGE_CREATE", LobbyMessage(42, kLobby, kBob, "look", activity));
  f.core->RunCallbacks();
  CHECK(invites == Ids{40});
  CHECK_FALSE(f.Service().Message(40));
  CHECK(f.Service().Message(41));
  CHECK(f.Service().Message(42));
  // Each message is one of the two, never both.
  const auto owners = f.core->DispatchTable().OwnersOf("MESSAGE_CREATE");
  REQUIRE(owners.size() == 2);
  CHECK(owners[0].feature == "presence");
  CHECK(owners[0].meaning == "activity invite");
  CHECK(owners[1].feature == "messages");
  CHECK(owners[1].meaning == "direct message");
}

}  // namespace message_service_test
