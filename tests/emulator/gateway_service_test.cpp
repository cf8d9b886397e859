// The Gateway's session logic without sockets: a fake GatewayPeer records what the service sends.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "service_bench.hpp"
#include "test_support.hpp"

namespace gateway_service_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

struct FakePeer final : GatewayPeer {
  void enable_compression() override { compressed = true; }
  void send(std::string json) override {
    if (!closed && !dropped) sent.push_back(std::move(json));
  }
  void close(int code, std::string reason) override {
    closed = true;
    close_code = code;
    close_reason = std::move(reason);
  }
  void drop() override { dropped = true; }

  rapidjson::Document last() {
    REQUIRE(!sent.empty());
    return parse(sent.back());
  }

  std::vector<std::string> sent;
  bool compressed = false;
  bool closed = false;
  bool dropped = false;
  int close_code = 0;
  std::string close_reason;
};

struct Fixture : ServiceBench {
  std::string user_id;
  std::string app_id;
  std::string bot_token;
  std::string token;

  Fixture() : ServiceBench(kBenchStart, Pace::live) {
    user_id = user("alice");
    const auto app = app_json("Game");
    app_id = str(app["id"]);
    bot_token = str(app["bot_token"]);
    token = ServiceBench::token(user_id, app_id);
  }

  // Opens a connection and identifies; returns (connection id, session id).
  std::pair<std::uint64_t, std::string> ready(FakePeer& peer) {
    const auto id = service.gateway_opened(peer, "/?v=10&encoding=json");
    service.gateway_received(
        id, R"({"op":2,"d":{"token":"Bearer )" + token + R"(","properties":{},"intents":0}})", true);
    auto ready_payload = peer.last();
    REQUIRE(str(ready_payload["t"]) == "READY");
    return {id, str(ready_payload["d"]["session_id"])};
  }

  // A tick a few ms on, then a Resume: false when it gets op 9 false (the session was forgotten).
  bool resumable_after_tick(const std::string& session_id) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    service.gateway_tick();
    FakePeer late;
    resume(late, session_id, 1);
    return !late.last()["d"].IsFalse();
  }

  std::uint64_t resume(FakePeer& peer, const std::string& session_id, std::int64_t seq) {
    const auto id = service.gateway_opened(peer, "/?v=10");
    service.gateway_received(id,
                             R"({"op":6,"d":{"token":"Bearer )" + token + R"(","session_id":")" + session_id +
                                 R"(","seq":)" + std::to_string(seq) + "}}",
                             true);
    return id;
  }

  // An API request with an Authorization header, whatever its status.
  HttpResponse get(const std::string& path, const std::string& authorization) {
    HeaderList headers;
    if (!authorization.empty()) headers.emplace_back("Authorization", authorization);
    return service.handle(make_request("GET", "/api/v10" + path, {}, std::move(headers))).response;
  }

  void inject(int n) {
    call("POST", "/_emulator/gateway/dispatch",
         R"({"user_id":")" + user_id + R"(","t":"TEST_EVENT","d":{"n":)" + std::to_string(n) + "}}");
  }
};

}  // namespace

TEST_CASE_FIXTURE(Fixture, "gateway: the query selects version, encoding and compression") {
  FakePeer none;
  service.gateway_opened(none, "/");
  CHECK(none.close_code == 4012);
  FakePeer v9;
  service.gateway_opened(v9, "/?v=9&encoding=json");
  CHECK(v9.close_code == 4012);
  FakePeer etf;
  service.gateway_opened(etf, "/?v=10&encoding=etf");
  CHECK(etf.close_code == 4002);
  FakePeer zlib;
  service.gateway_opened(zlib, "/?v=10&encoding=json&compress=zlib-stream");
  CHECK(zlib.compressed);
  CHECK_FALSE(zlib.closed);
  CHECK(zlib.last()["op"].GetInt() == 10);
}

TEST_CASE_FIXTURE(Fixture, "gateway: a seq older than the buffer gets op 9 false; a seq ahead closes 4007") {
  call("POST", "/_emulator/gateway/limits", R"({"buffer_size":2})");
  FakePeer first;
  const auto [id, session_id] = ready(first);
  service.gateway_disconnected(id, std::nullopt);  // a drop
  for (int n = 1; n <= 3; ++n)
    inject(n);  // s = 2, 3, 4; only 3 and 4 stay buffered

  FakePeer ahead;
  resume(ahead, session_id, 5);
  CHECK(ahead.close_code == 4007);

  FakePeer replayable;
  resume(replayable, session_id, 2);     // needs 3 and 4: buffered
  REQUIRE(replayable.sent.size() == 4);  // Hello, 3, 4, RESUMED
  CHECK(parse(replayable.sent[1])["s"].GetInt() == 3);
  CHECK(parse(replayable.sent[2])["s"].GetInt() == 4);
  CHECK(str(parse(replayable.sent[3])["t"]) == "RESUMED");
  CHECK(first.sent.size() == 2);  // Hello and READY: the dropped connection got nothing more
}

TEST_CASE_FIXTURE(Fixture, "gateway: too old a seq ends the session") {
  call("POST", "/_emulator/gateway/limits", R"({"buffer_size":2})");
  FakePeer first;
  const auto [id, session_id] = ready(first);
  service.gateway_disconnected(id, 4000);
  for (int n = 1; n <= 3; ++n)
    inject(n);
  FakePeer late;
  resume(late, session_id, 1);  // needs s 2, evicted
  CHECK(late.last()["op"].GetInt() == 9);
  CHECK(late.last()["d"].IsFalse());
  CHECK_FALSE(late.closed);
  FakePeer again;
  resume(again, session_id, 4);
  CHECK(again.last()["d"].IsFalse());
}

TEST_CASE_FIXTURE(Fixture, "gateway: a session is forgotten after its resume window") {
  call("POST", "/_emulator/gateway/limits", R"({"resume_window_ms":0})");
  FakePeer first;
  const auto [id, session_id] = ready(first);
  service.gateway_disconnected(id, std::nullopt);
  CHECK_FALSE(resumable_after_tick(session_id));
}

// The tick scans only from the earliest deadline it knows of: one set later and shorter is due at once.
TEST_CASE_FIXTURE(Fixture, "gateway: a resume window shortened after the drop applies at the next tick") {
  FakePeer first;
  const auto [id, session_id] = ready(first);
  service.gateway_disconnected(id, 4000);
  service.gateway_tick();  // inside the default 60 s window: kept, and the next scan is due in a minute
  FakePeer kept;
  const auto kept_id = resume(kept, session_id, 1);
  CHECK(str(kept.last()["t"]) == "RESUMED");
  service.gateway_disconnected(kept_id, 4000);
  service.gateway_tick();
  call("POST", "/_emulator/gateway/limits", R"({"resume_window_ms":0})");
  CHECK_FALSE(resumable_after_tick(session_id));
}

TEST_CASE_FIXTURE(Fixture, "gateway: client close 1001 ends the session; 4000 keeps it") {
  FakePeer a;
  const auto [a_id, a_session] = ready(a);
  service.gateway_disconnected(a_id, 1001);
  FakePeer b;
  const auto [b_id, b_session] = ready(b);
  service.gateway_disconnected(b_id, 4000);
  const auto sessions = parse(call("GET", "/_emulator/gateway/sessions").body);
  REQUIRE(sessions["sessions"].Size() == 1);
  CHECK(str(sessions["sessions"][0]["session_id"]) == b_session);
  CHECK(sessions["sessions"][0]["resumable"].GetBool());
  CHECK_FALSE(sessions["sessions"][0]["connected"].GetBool());
}

TEST_CASE_FIXTURE(Fixture, "gateway: binary frames and non-object payloads close with 4002") {
  FakePeer binary;
  const auto id = service.gateway_opened(binary, "/?v=10");
  service.gateway_received(id, R"({"op":1,"d":null})", false);
  CHECK(binary.close_code == 4002);
  FakePeer array;
  const auto id2 = service.gateway_opened(array, "/?v=10");
  service.gateway_received(id2, "[1]", true);
  CHECK(array.close_code == 4002);
  FakePeer no_op;
  const auto id3 = service.gateway_opened(no_op, "/?v=10");
  service.gateway_received(id3, R"({"d":null})", true);
  CHECK(no_op.close_code == 4002);
}

TEST_CASE_FIXTURE(Fixture, "gateway admin: bad bodies are 50035, unknown users 10013") {
  auto raw = [&](const std::string& path, const std::string& body) {
    return service.handle(make_request("POST", "/_emulator" + path, body)).response;
  };
  CHECK(raw("/gateway/close", R"({"code":999})").status == 400);
  CHECK(raw("/gateway/heartbeat-interval", R"({"ms":5})").status == 400);
  CHECK(raw("/gateway/dispatch", R"({"user_id":"1","t":"lower"})").status == 400);
  CHECK(raw("/gateway/dispatch", R"({"user_id":"1","t":"OK"})").status == 404);
  CHECK(raw("/friendships", R"({"user_id":")" + user_id + R"(","other_user_id":")" + user_id + R"("})")
            .status == 400);
  CHECK(raw("/friendships", R"({"user_id":")" + user_id + R"(","other_user_id":"1"})").status == 404);
  const auto limits = parse(raw("/gateway/limits", R"({"reset":true})").body);
  CHECK(limits["heartbeat_interval_ms"].GetInt() == 45000);
  CHECK(limits["identify_budget"].GetInt() == 1000);
}

// ---- what a bot library asks before its first Gateway frame -----------------------------------------------

TEST_CASE_FIXTURE(Fixture,
                  "GET /gateway/bot: the URL, one shard and the identify budget left, for bot tokens") {
  auto bot = parse(get("/gateway/bot", "Bot " + bot_token).body);
  CHECK(str(bot["url"]) == "wss://127.0.0.1:1234");
  CHECK(bot["shards"].GetInt() == 1);
  const auto& limit = bot["session_start_limit"];
  CHECK(limit["total"].GetInt() == 1000);
  CHECK(limit["remaining"].GetInt() == 1000);
  CHECK(limit["reset_after"].GetInt64() == 24 * 3600 * 1000);
  CHECK(limit["max_concurrency"].GetInt() == 1);
  // An Identify of the application uses one start; the window counts from it.
  FakePeer peer;
  ready(peer);
  real_now += 1000;
  bot = parse(get("/gateway/bot", "Bot " + bot_token).body);
  CHECK(bot["session_start_limit"]["remaining"].GetInt() == 999);
  CHECK(bot["session_start_limit"]["reset_after"].GetInt64() == 24 * 3600 * 1000 - 1000);
  // The budget crossed: none left.
  call("POST", "/_emulator/gateway/limits", R"({"identify_budget":1})");
  CHECK(parse(get("/gateway/bot", "Bot " + bot_token).body)["session_start_limit"]["remaining"].GetInt() ==
        0);
  // A user's token, none, or a wrong one: 401.
  CHECK(get("/gateway/bot", "Bearer " + token).status == 401);
  CHECK(get("/gateway/bot", "").status == 401);
  CHECK(get("/gateway/bot", "Bot nope").status == 401);
}

TEST_CASE_FIXTURE(Fixture, "GET /applications/@me and /oauth2/applications/@me: the bot's application") {
  for (const char* path : {"/applications/@me", "/oauth2/applications/@me"}) {
    CAPTURE(path);
    const auto response = get(path, "Bot " + bot_token);
    REQUIRE(response.status == 200);
    const auto app = parse(response.body);
    CHECK(str(app["id"]) == app_id);
    CHECK(str(app["name"]) == "Game");
    CHECK(app["bot"]["bot"].GetBool());
    // An Ed25519 public key, hex.
    CHECK(str(app["verify_key"]).size() == 64);
    CHECK(str(app["verify_key"]).find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(app["approximate_user_authorization_count"].GetInt() == 1);  // alice's grant
    CHECK(get(path, "Bearer " + token).status == 401);
  }
  // Each application has its own key.
  const auto other = parse(call("POST", "/_emulator/apps", R"({"name":"Other"})").body);
  CHECK(str(parse(get("/applications/@me", "Bot " + str(other["bot_token"])).body)["verify_key"]) !=
        str(parse(get("/applications/@me", "Bot " + bot_token).body)["verify_key"]));
}

TEST_CASE_FIXTURE(Fixture, "gateway: a bot's shard must be [id, count] with 0 <= id < count (4010)") {
  std::deque<FakePeer> peers;  // the service keeps talking to its connections: they outlive the lambda
  const auto identify = [&](const std::string& shard) {
    auto& peer = peers.emplace_back();
    const auto id = service.gateway_opened(peer, "/?v=10&encoding=json");
    service.gateway_received(id,
                             R"({"op":2,"d":{"token":"Bot )" + bot_token +
                                 R"(","properties":{},"intents":513,"shard":)" + shard + "}}",
                             true);
    return peer.closed ? peer.close_code : 0;
  };
  CHECK(identify("[0,1]") == 0);
  CHECK(identify("[1,2]") == 0);
  CHECK(identify("null") == 0);
  CHECK(identify("[1,1]") == 4010);  // one past the last shard
  CHECK(identify("[0,0]") == 4010);
  CHECK(identify("[-1,2]") == 4010);
  CHECK(identify("[0]") == 4010);
  CHECK(identify("\"0,1\"") == 4010);
}

namespace {

// A bot identifying with `intents` and `shard` ("null" for none): the close code (0 when open) and what it
// got.
struct BotSession {
  std::unique_ptr<FakePeer> peer = std::make_unique<FakePeer>();
  std::vector<rapidjson::Document> dispatches(const std::string& type) const {
    std::vector<rapidjson::Document> found;
    for (const auto& text : peer->sent) {
      auto payload = parse(text);
      if (payload.HasMember("t") && payload["t"].IsString() && str(payload["t"]) == type) {
        found.push_back(std::move(payload));
      }
    }
    return found;
  }
};

BotSession bot_identify(EmulatorService& service, const std::string& bot_token, std::uint64_t intents,
                        const std::string& shard) {
  BotSession session;
  const auto id = service.gateway_opened(*session.peer, "/?v=10&encoding=json");
  service.gateway_received(id,
                           R"({"op":2,"d":{"token":"Bot )" + bot_token + R"(","properties":{},"intents":)" +
                               std::to_string(intents) + R"(,"shard":)" + shard + "}}",
                           true);
  return session;
}

}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "gateway: a bot gets its guilds as unavailable in READY, then a GUILD_CREATE each") {
  const auto bot_user = str(parse(get("/applications/@me", "Bot " + bot_token).body)["bot"]["id"]);
  std::vector<std::string> guilds;
  for (int i = 0; i < 6; ++i) {
    const auto guild =
        str(parse(call("POST", "/_emulator/guilds",
                       R"({"name":"Guild )" + std::to_string(i) + R"(","owner_id":")" + user_id + R"("})")
                      .body)["id"]);
    call("POST", "/_emulator/guilds/" + guild + "/members", R"({"user_id":")" + bot_user + R"("})");
    call("POST", "/_emulator/guilds/" + guild + "/channels", R"({"name":"general","type":0})");
    guilds.push_back(guild);
  }
  const auto shard_of = [](const std::string& guild) { return (std::stoull(guild) >> 22) % 2; };

  SUBCASE("one shard: every guild; members: the bot's own without GUILD_MEMBERS, all with it") {
    const auto session = bot_identify(service, bot_token, 1, "null");
    REQUIRE_FALSE(session.peer->closed);
    const auto ready_payload = session.dispatches("READY");
    REQUIRE(ready_payload.size() == 1);
    const auto& ready_guilds = ready_payload[0]["d"]["guilds"];
    REQUIRE(ready_guilds.Size() == guilds.size());
    for (const auto& stub : ready_guilds.GetArray()) {
      CHECK(stub["unavailable"].GetBool());
      CHECK_FALSE(stub.HasMember("name"));
    }
    const auto created = session.dispatches("GUILD_CREATE");
    REQUIRE(created.size() == guilds.size());
    const auto& guild = created[0]["d"];
    CHECK(str(guild["id"]) == guilds[0]);
    CHECK(str(guild["name"]) == "Guild 0");
    CHECK(guild["channels"].Size() == 1);
    CHECK(guild["member_count"].GetInt() == 2);
    REQUIRE(guild["members"].Size() == 1);
    CHECK(str(guild["members"][0]["user"]["id"]) == bot_user);
    const auto with_members = bot_identify(service, bot_token, 1 | 2, "null");
    CHECK(with_members.dispatches("GUILD_CREATE")[0]["d"]["members"].Size() == 2);
    // Without the GUILDS intent: the stubs, no GUILD_CREATE.
    const auto without = bot_identify(service, bot_token, 512, "null");
    CHECK(without.dispatches("READY")[0]["d"]["guilds"].Size() == guilds.size());
    CHECK(without.dispatches("GUILD_CREATE").empty());
  }
  SUBCASE("two shards: each gets the guilds with (id >> 22) % 2 == its id, and their channel events") {
    const auto shard0 = bot_identify(service, bot_token, 1, "[0,2]");
    const auto shard1 = bot_identify(service, bot_token, 1, "[1,2]");
    std::size_t expected0 = 0;
    for (const auto& guild : guilds)
      expected0 += shard_of(guild) == 0 ? 1 : 0;
    CHECK(shard0.dispatches("READY")[0]["d"]["guilds"].Size() == expected0);
    CHECK(shard1.dispatches("READY")[0]["d"]["guilds"].Size() == guilds.size() - expected0);
    CHECK(shard0.dispatches("READY")[0]["d"]["shard"][1].GetInt() == 2);
    for (const auto& created : shard0.dispatches("GUILD_CREATE"))
      CHECK(shard_of(str(created["d"]["id"])) == 0);
    for (const auto& created : shard1.dispatches("GUILD_CREATE"))
      CHECK(shard_of(str(created["d"]["id"])) == 1);
    CHECK(shard0.dispatches("GUILD_CREATE").size() + shard1.dispatches("GUILD_CREATE").size() ==
          guilds.size());
    // A channel event of one guild reaches its shard only.
    call("POST", "/_emulator/guilds/" + guilds[0] + "/channels", R"({"name":"news","type":0})");
    const auto& mine = shard_of(guilds[0]) == 0 ? shard0 : shard1;
    const auto& other = shard_of(guilds[0]) == 0 ? shard1 : shard0;
    CHECK(mine.dispatches("CHANNEL_CREATE").size() == 1);
    CHECK(other.dispatches("CHANNEL_CREATE").empty());
  }
}

TEST_CASE_FIXTURE(Fixture,
                  "gateway: a bot may ask only for the privileged intents its application enabled (4014)") {
  constexpr std::uint64_t kGuildMembers = 1U << 1;
  constexpr std::uint64_t kPresences = 1U << 8;
  constexpr std::uint64_t kMessageContent = 1U << 15;
  const auto flags = [&] {
    return parse(get("/applications/@me", "Bot " + bot_token).body)["flags"].GetUint64();
  };
  CHECK(flags() == ((1U << 12) | (1U << 14) | (1U << 18)));  // all enabled by default
  CHECK_FALSE(
      bot_identify(service, bot_token, kGuildMembers | kPresences | kMessageContent, "null").peer->closed);

  const auto off =
      parse(call("POST", "/_emulator/apps/" + app_id + "/intents", R"({"guild_members":false})").body);
  CHECK_FALSE(off["guild_members"].GetBool());
  CHECK(off["presences"].GetBool());
  CHECK(flags() == ((1U << 12) | (1U << 18)));
  CHECK(bot_identify(service, bot_token, kGuildMembers, "null").peer->close_code == 4014);
  CHECK_FALSE(bot_identify(service, bot_token, kPresences | kMessageContent | 1, "null").peer->closed);

  call("POST", "/_emulator/apps/" + app_id + "/intents", R"({"presences":false,"message_content":false})");
  CHECK(flags() == 0);
  CHECK(bot_identify(service, bot_token, kPresences, "null").peer->close_code == 4014);
  CHECK(bot_identify(service, bot_token, kMessageContent, "null").peer->close_code == 4014);
  CHECK_FALSE(bot_identify(service, bot_token, 1 | 512, "null").peer->closed);  // none privileged

  call("POST", "/_emulator/apps/" + app_id + "/intents", R"({"guild_members":true})");
  CHECK_FALSE(bot_identify(service, bot_token, kGuildMembers, "null").peer->closed);
}

namespace {

// The types of the dispatches a peer got, in order.
std::vector<std::string> dispatch_types(const FakePeer& peer) {
  std::vector<std::string> types;
  for (const auto& text : peer.sent) {
    const auto payload = parse(text);
    if (payload["op"].GetInt() == 0) types.push_back(str(payload["t"]));
  }
  return types;
}

}  // namespace

// Nothing a client sends goes unanswered: every opcode a client may send gets its documented answer (or, for
// op 3, its effect on the others), and every other opcode, a payload too early or a malformed one, its close.
TEST_CASE_FIXTURE(Fixture, "gateway: every client opcode gets its answer or its close") {
  const auto bob = str(parse(call("POST", "/_emulator/users", R"({"username":"bob"})").body)["id"]);
  call("POST", "/_emulator/friendships",
       R"({"user_id":")" + user_id + R"(","other_user_id":")" + bob + R"("})");
  const auto bob_token = str(parse(
      call("POST", "/_emulator/tokens",
           R"({"user_id":")" + bob + R"(","app_id":")" + app_id + R"(","scopes":"openid sdk.social_layer"})")
          .body)["access_token"]);
  const auto guild_id = str(parse(
      call("POST", "/_emulator/guilds", R"({"name":"Home","owner_id":")" + user_id + R"("})").body)["id"]);
  HeaderList bot_auth{{"Authorization", "Bot " + bot_token}};
  const auto lobby = service.handle(
      make_request("POST", "/api/v10/lobbies", R"({"members":[{"id":")" + user_id + R"("}]})", bot_auth));
  REQUIRE(lobby.response.status == 201);
  const auto lobby_id = str(parse(lobby.response.body)["id"]);

  FakePeer friend_peer;
  const auto friend_id = service.gateway_opened(friend_peer, "/?v=10&encoding=json");
  service.gateway_received(
      friend_id, R"({"op":2,"d":{"token":"Bearer )" + bob_token + R"(","properties":{},"intents":0}})", true);
  REQUIRE(dispatch_types(friend_peer).front() == "READY");

  // Identified connections (the lobby's dispatches may follow READY, so READY is looked for, not taken last).
  const auto identified = [&](FakePeer& fresh) {
    const auto fresh_id = service.gateway_opened(fresh, "/?v=10&encoding=json");
    service.gateway_received(
        fresh_id, R"({"op":2,"d":{"token":"Bearer )" + token + R"(","properties":{},"intents":0}})", true);
    const auto types = dispatch_types(fresh);
    REQUIRE((!types.empty() && types.front() == "READY"));
    return std::make_pair(fresh_id, str(parse(fresh.sent[1])["d"]["session_id"]));
  };
  FakePeer peer;
  const auto first = identified(peer);
  const auto id = first.first;
  const auto session_id = first.second;
  const auto answered = [&](const std::string& payload) {
    const auto before = peer.sent.size();
    service.gateway_received(id, payload, true);
    REQUIRE_FALSE(peer.closed);
    std::vector<std::string> answers;
    for (auto i = before; i < peer.sent.size(); ++i) {
      const auto message = parse(peer.sent[i]);
      answers.push_back(message["op"].GetInt() == 0 ? str(message["t"])
                                                    : "op " + std::to_string(message["op"].GetInt()));
    }
    return answers;
  };
  CHECK(answered(R"({"op":1,"d":null})") == std::vector<std::string>{"op 11"});
  const auto presences_before = friend_peer.sent.size();
  CHECK(answered(R"({"op":3,"d":{"since":null,"activities":[],"status":"online","afk":false}})").empty());
  CHECK(friend_peer.sent.size() > presences_before);  // op 3 is answered to the friends
  CHECK(answered(R"({"op":4,"d":{"lobby_id":")" + lobby_id + R"(","channel_id":")" + lobby_id +
                 R"(","self_mute":false,"self_deaf":false}})") ==
        std::vector<std::string>{"LOBBY_VOICE_STATE_UPDATE", "LOBBY_VOICE_SERVER_UPDATE"});
  CHECK(answered(R"({"op":8,"d":{"guild_id":")" + guild_id + R"(","query":"","limit":0}})") ==
        std::vector<std::string>{"GUILD_MEMBERS_CHUNK"});
  CHECK(answered(R"({"op":31,"d":{"guild_ids":[")" + guild_id + R"("]}})") ==
        std::vector<std::string>{"SOUNDBOARD_SOUNDS"});
  CHECK(answered(R"({"op":43,"d":{"guild_id":")" + guild_id + R"(","fields":["status"]}})") ==
        std::vector<std::string>{"CHANNEL_INFO"});
  // op 6 on a new connection: the missed dispatches, then RESUMED.
  service.gateway_disconnected(id, 4000);
  FakePeer again;
  resume(again, session_id, 1);
  CHECK_FALSE(again.closed);
  const auto resumed = dispatch_types(again);
  CHECK(std::find(resumed.begin(), resumed.end(), "RESUMED") != resumed.end());

  // Every other opcode closes with 4001, after Identify as before it.
  for (int op = -1; op <= 50; ++op) {
    if (op == 1 || op == 2 || op == 3 || op == 4 || op == 6 || op == 8 || op == 31 || op == 43) continue;
    CAPTURE(op);
    FakePeer other;
    const auto [other_id, other_session] = identified(other);
    service.gateway_received(other_id, R"({"op":)" + std::to_string(op) + R"(,"d":{}})", true);
    CHECK(other.close_code == 4001);
  }
  // The identified ops before Identify: 4003. A second Identify: 4005.
  for (const int op : {3, 4, 8, 31, 43}) {
    CAPTURE(op);
    FakePeer early;
    const auto early_id = service.gateway_opened(early, "/?v=10&encoding=json");
    service.gateway_received(early_id, R"({"op":)" + std::to_string(op) + R"(,"d":{}})", true);
    CHECK(early.close_code == 4003);
  }
  // Malformed: a d that is not what the opcode takes closes with 4002.
  for (const int op : {2, 3, 4, 6, 8, 31, 43}) {
    CAPTURE(op);
    FakePeer bad;
    if (op == 2 || op == 6) {
      const auto bad_id = service.gateway_opened(bad, "/?v=10&encoding=json");
      service.gateway_received(bad_id, R"({"op":)" + std::to_string(op) + R"(,"d":"x"})", true);
    } else {
      const auto [bad_id, bad_session] = identified(bad);
      service.gateway_received(bad_id, R"({"op":)" + std::to_string(op) + R"(,"d":"x"})", true);
    }
    CHECK(bad.close_code == 4002);
  }
}

}  // namespace gateway_service_test
