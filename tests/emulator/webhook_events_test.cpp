// Webhook events from the real binary (plain HTTP) to a game server played by this test: a small Beast HTTP
// server that checks every POST with the SDK's platformpp::backend::VerifyWebhookEvent and answers as each
// test scripts it (a status, or a dropped connection). Driven through platformpp::testkit.
#include "server/asio_prelude.hpp"

#define DOCTEST_CONFIG_IMPLEMENT

#include <doctest/doctest.h>
#include <rapidjson/document.h>
#include <platformpp/testkit/emulator.hpp>
#include <platformpp/webhook_events.hpp>

#include <algorithm>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "http_test_client.hpp"

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

std::string g_binary;

// One POST the game server received, and what the SDK's check made of it.
struct Received {
  std::string body;
  std::string signature;
  std::string timestamp;
  platformpp::backend::WebhookVerification verification;
};

// What the game server does with the next request.
struct Action {
  int status = 204;
  bool drop = false;  // read the request, then close without answering
};

// The game server: one connection at a time (the emulator closes each after its answer).
class GameServer {
 public:
  GameServer() : acceptor_(io_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { serve(); });
  }
  ~GameServer() {
    stopping_ = true;
    beast::error_code ec;
    tcp::socket poke(io_);
    poke.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_), ec);  // wakes accept()
    thread_.join();
  }
  GameServer(const GameServer&) = delete;
  GameServer& operator=(const GameServer&) = delete;

  [[nodiscard]] std::string url(const std::string& path = "/webhooks") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  void set_public_key(std::string key) {
    const std::lock_guard lock(mutex_);
    public_key_ = std::move(key);
  }
  // The next requests' answers, in order; 204 once they are used up.
  void script(std::vector<Action> actions) {
    const std::lock_guard lock(mutex_);
    script_.assign(actions.begin(), actions.end());
  }
  // Waits until `count` requests arrived in all (fails the test after 10 s); returns them all.
  std::vector<Received> wait_for(std::size_t count) {
    std::unique_lock lock(mutex_);
    const bool arrived =
        changed_.wait_for(lock, std::chrono::seconds(10), [&] { return received_.size() >= count; });
    CHECK_MESSAGE(arrived, "the game server got " << received_.size() << " requests, not " << count);
    return received_;
  }
  [[nodiscard]] std::size_t count() {
    const std::lock_guard lock(mutex_);
    return received_.size();
  }

 private:
  void serve() {
    while (!stopping_) {
      tcp::socket socket(io_);
      beast::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec || stopping_) continue;
      handle(std::move(socket));
    }
  }

  void handle(tcp::socket socket) {
    beast::flat_buffer buffer;
    http::request<http::string_body> request;
    beast::error_code ec;
    http::read(socket, buffer, request, ec);
    if (ec) return;
    Received received;
    received.body = request.body();
    received.signature = std::string(request["X-Signature-Ed25519"]);
    received.timestamp = std::string(request["X-Signature-Timestamp"]);
    Action action;
    {
      const std::lock_guard lock(mutex_);
      received.verification = platformpp::backend::VerifyWebhookEvent(public_key_, received.signature,
                                                                      received.timestamp, received.body);
      if (!script_.empty()) {
        action = script_.front();
        script_.pop_front();
      }
    }
    if (!action.drop) {
      http::response<http::string_body> response(static_cast<http::status>(action.status), 11);
      response.keep_alive(false);
      response.prepare_payload();
      http::write(socket, response, ec);
    }
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
    {
      const std::lock_guard lock(mutex_);
      received_.push_back(std::move(received));
    }
    changed_.notify_all();
  }

  net::io_context io_;
  tcp::acceptor acceptor_;
  unsigned short port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string public_key_;
  std::deque<Action> script_;
  std::vector<Received> received_;
};

EmulatorAdmin::WebhookEventsConfig webhook_config(std::string url, std::vector<std::string> event_types = {},
                                                  std::string ca_file = {}) {
  EmulatorAdmin::WebhookEventsConfig config;
  config.url = std::move(url);
  config.eventTypes = std::move(event_types);
  config.retryBaseMs = 20;
  config.caFile = std::move(ca_file);
  return config;
}

struct ApiResult {
  int status = 0;
  std::string body;
};

// One request to the emulator's plain-HTTP port (forms for the OAuth2 routes, JSON elsewhere).
ApiResult call(int port, const std::string& method, const std::string& target, const std::string& body = {},
               const std::string& authorization = {}, bool form = false) {
  std::string request = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
  if (!authorization.empty()) request += "Authorization: " + authorization + "\r\n";
  if (!body.empty()) {
    request += std::string("Content-Type: ") +
               (form ? "application/x-www-form-urlencoded" : "application/json") + "\r\n";
  }
  request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  const auto answer = platformpp::emulator::test::raw_exchange(static_cast<unsigned short>(port), request);
  ApiResult result;
  if (answer.size() > 12) result.status = std::stoi(answer.substr(9, 3));
  const auto split = answer.find("\r\n\r\n");
  if (split != std::string::npos) result.body = answer.substr(split + 4);
  return result;
}

rapidjson::Document parse(const std::string& text) {
  rapidjson::Document document;
  document.Parse(text.data(), text.size());
  REQUIRE_FALSE(document.HasParseError());
  return document;
}

std::string text(const rapidjson::Value& value, const char* name) {
  const auto member = value.FindMember(name);
  if (member == value.MemberEnd() || !member->value.IsString()) return {};
  return std::string(member->value.GetString(), member->value.GetStringLength());
}

// An emulator on plain HTTP with one application whose URL is the game server's, and a user.
struct Fixture {
  explicit Fixture(std::vector<std::string> event_types = {}) {
    EmulatorProcess::Options options;
    options.binary = g_binary;
    options.plainHttp = true;
    options.ipc = false;
    process = EmulatorProcess::Start(options);
    port = process->Connection().port;
    admin = std::make_unique<EmulatorAdmin>(process->Connection());
    app = admin->CreateApp("Webhook Game");
    user = admin->CreateUser("player");
    const auto me = parse(call(port, "GET", "/api/v10/applications/@me", {}, "Bot " + app.botToken).body);
    verify_key = text(me, "verify_key");
    REQUIRE(verify_key.size() == 64);
    server.set_public_key(verify_key);
    admin->SetWebhookEvents(app.id, webhook_config(server.url(), std::move(event_types)));
    REQUIRE(server.wait_for(1).size() == 1);  // the PING
  }

  // The authorization-code grant of a confidential client: {access_token, refresh_token, ...}.
  rapidjson::Document code_grant(const std::string& scopes) {
    const auto authorize =
        admin->Request("GET", "/authorize?response_type=code&client_id=" + std::to_string(app.id) +
                                  "&scope=" + scopes + "&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb");
    REQUIRE(authorize.status == 200);
    const auto code = EmulatorAdmin::CodeFromRedirect(text(parse(authorize.body), "location"));
    REQUIRE_FALSE(code.empty());
    const auto answer =
        call(port, "POST", "/api/v10/oauth2/token",
             "grant_type=authorization_code&code=" + code +
                 "&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&client_id=" + std::to_string(app.id) +
                 "&client_secret=" + app.clientSecret,
             {}, true);
    REQUIRE(answer.status == 200);
    return parse(answer.body);
  }

  // The game's player `external_user_id` gets a provisional account (bot token), then links it: the
  // authorization-code grant with that account's token merges it into the user. The grant's answer.
  ApiResult link_game_account(const std::string& external_user_id) {
    const auto provisional =
        call(port, "POST", "/api/v10/partner-sdk/token/bot",
             R"({"external_user_id":")" + external_user_id + "\"}", "Bot " + app.botToken);
    REQUIRE(provisional.status == 200);
    const auto authorize =
        admin->Request("GET", "/authorize?response_type=code&client_id=" + std::to_string(app.id) +
                                  "&scope=identify&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb");
    const auto code = EmulatorAdmin::CodeFromRedirect(text(parse(authorize.body), "location"));
    auto merged = call(port, "POST", "/api/v10/oauth2/token",
                       "grant_type=authorization_code&code=" + code +
                           "&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&client_id=" + std::to_string(app.id) +
                           "&client_secret=" + app.clientSecret +
                           "&external_auth_type=DISCORD_BOT_ISSUED_ACCESS_TOKEN&external_auth_token=" +
                           text(parse(provisional.body), "access_token"),
                       {}, true);
    REQUIRE(merged.status == 200);
    return merged;
  }

  ApiResult refresh(const std::string& refresh_token) {
    return call(port, "POST", "/api/v10/oauth2/token",
                "grant_type=refresh_token&refresh_token=" + refresh_token +
                    "&client_id=" + std::to_string(app.id) + "&client_secret=" + app.clientSecret,
                {}, true);
  }

  // The deliveries once none is pending or being sent: the test's server records a request just after
  // answering it, so the emulator may not have read that answer yet when the test sees the request.
  std::vector<EmulatorAdmin::WebhookDelivery> settled_deliveries() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (;;) {
      auto deliveries = admin->WebhookDeliveries(app.id);
      const bool busy = std::any_of(deliveries.begin(), deliveries.end(), [](const auto& delivery) {
        return delivery.state == "pending" || delivery.state == "sending";
      });
      if (!busy || std::chrono::steady_clock::now() > deadline) return deliveries;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  GameServer server;
  std::unique_ptr<EmulatorProcess> process;
  int port = 0;
  std::unique_ptr<EmulatorAdmin> admin;
  EmulatorAdmin::App app;
  EmulatorAdmin::User user;
  std::string verify_key;
};

// The event of a verified request: its name, and its body parsed.
struct Event {
  std::string type;
  rapidjson::Document body;
};

Event event_of(const Received& received) {
  CHECK(received.verification.status == 204);
  REQUIRE(received.verification.event);
  Event event{received.verification.event->eventType, parse(received.body)};
  CHECK(event.body["version"].GetInt() == 1);
  CHECK(event.body["type"].GetInt() == 1);
  return event;
}

void check_invalid_grant(const ApiResult& result) {
  CHECK(result.status == 400);
  CHECK(text(parse(result.body), "error") == "invalid_grant");
}

}  // namespace

TEST_CASE("webhook events: the URL is PINGed first and taken only if it answers 204") {
  Fixture fixture;
  const auto ping = fixture.server.wait_for(1).front();
  CHECK(ping.verification.status == 204);
  REQUIRE(ping.verification.event);
  CHECK(ping.verification.event->type == platformpp::backend::WebhookEvent::Type::Ping);
  CHECK(ping.verification.event->applicationId == fixture.app.id);

  // A URL answering 500 to the PING is refused, and so is one where nothing listens or that is not loopback.
  fixture.server.script({{500}});
  CHECK_THROWS_WITH_AS(
      fixture.admin->SetWebhookEvents(fixture.app.id, webhook_config(fixture.server.url("/other"))),
      doctest::Contains("answered 500"), std::runtime_error);
  CHECK(fixture.server.wait_for(2).size() == 2);  // recorded just after it answered
  CHECK_THROWS_WITH_AS(
      fixture.admin->SetWebhookEvents(fixture.app.id, webhook_config("http://127.0.0.1:1/x")),
      doctest::Contains("connection refused"), std::runtime_error);
  CHECK_THROWS_WITH_AS(
      fixture.admin->SetWebhookEvents(fixture.app.id, webhook_config("http://example.com/x")),
      doctest::Contains("loopback"), std::runtime_error);
  CHECK_THROWS_AS(
      fixture.admin->SetWebhookEvents(fixture.app.id, webhook_config(fixture.server.url(), {"NOT_AN_EVENT"})),
      std::runtime_error);
  // The emulator's own port: the PING is answered (401: it carries no admin token) while the PUT waits, so
  // its one thread is not blocked.
  CHECK_THROWS_WITH_AS(fixture.admin->SetWebhookEvents(
                           fixture.app.id, webhook_config("http://localhost:" + std::to_string(fixture.port) +
                                                          "/_emulator/health")),
                       doctest::Contains("answered 401"), std::runtime_error);

  // The refused URLs left the first one in place: events still go there.
  const auto before = fixture.server.count();
  fixture.admin->MintToken(fixture.user.id, fixture.app.id, "identify");
  fixture.admin->RemoveApplication(fixture.user.id, fixture.app.id);
  const auto received = fixture.server.wait_for(before + 1);
  CHECK(event_of(received.back()).type == "APPLICATION_DEAUTHORIZED");

  const auto deliveries = fixture.settled_deliveries();
  // The PINGs (accepted, 500, refused, 401) and the event.
  REQUIRE(deliveries.size() == 5);
  CHECK(deliveries[0].eventType == "PING");
  CHECK(deliveries[0].state == "delivered");
  CHECK(deliveries[1].state == "failed");
  CHECK(deliveries[1].attempts.at(0).status == 500);
  CHECK(deliveries[2].attempts.at(0).error.find("connection refused") != std::string::npos);
  CHECK(deliveries[3].attempts.at(0).status == 401);
  CHECK(deliveries[4].eventType == "APPLICATION_DEAUTHORIZED");
  CHECK(deliveries[4].state == "delivered");
}

TEST_CASE("webhook events: https URLs are verified against the CA given, else the system's store") {
  Fixture fixture;
  // Another emulator, on TLS, stands for a game server with its own CA: its answer (401 to a POST on
  // /_emulator/health without its admin token) shows the TLS exchange worked.
  EmulatorProcess::Options options;
  options.binary = g_binary;
  options.ipc = false;
  auto tls_server = EmulatorProcess::Start(options);
  const auto url = "https://127.0.0.1:" + std::to_string(tls_server->Connection().port) + "/_emulator/health";
  CHECK_THROWS_WITH_AS(fixture.admin->SetWebhookEvents(
                           fixture.app.id, webhook_config(url, {}, tls_server->Connection().caFile)),
                       doctest::Contains("answered 401"), std::runtime_error);
  CHECK_THROWS_WITH_AS(fixture.admin->SetWebhookEvents(fixture.app.id, webhook_config(url)),
                       doctest::Contains("TLS"), std::runtime_error);
}

TEST_CASE("webhook events: APPLICATION_AUTHORIZED on a code grant, APPLICATION_DEAUTHORIZED on revocation") {
  Fixture fixture;
  const auto tokens = fixture.code_grant("identify%20openid");
  auto received = fixture.server.wait_for(2);
  auto authorized = event_of(received[1]);
  CHECK(authorized.type == "APPLICATION_AUTHORIZED");
  CHECK(text(authorized.body, "application_id") == std::to_string(fixture.app.id));
  const auto& data = authorized.body["event"]["data"];
  CHECK(data["integration_type"].GetInt() == 1);
  CHECK(text(data["user"], "id") == std::to_string(fixture.user.id));
  REQUIRE(data["scopes"].Size() == 2);
  CHECK(std::string(data["scopes"][0].GetString()) == "identify");

  // 32 days on the fake clock (more than any month, so the month always changes; 30 days from 1 December
  // stayed in December): event.timestamp follows it, the signature's timestamp stays real time (the
  // receiver's 5-minute window is checked against its own clock).
  fixture.admin->AdvanceClock(std::chrono::hours(24 * 32));
  const auto revoke =
      call(fixture.port, "POST", "/api/v10/oauth2/token/revoke",
           "token=" + text(tokens, "access_token") + "&client_id=" + std::to_string(fixture.app.id) +
               "&client_secret=" + fixture.app.clientSecret,
           {}, true);
  CHECK(revoke.status == 200);
  received = fixture.server.wait_for(3);
  const auto deauthorized = event_of(received[2]);
  CHECK(deauthorized.type == "APPLICATION_DEAUTHORIZED");
  CHECK(text(deauthorized.body["event"]["data"]["user"], "id") == std::to_string(fixture.user.id));
  CHECK(text(deauthorized.body["event"], "timestamp") > text(authorized.body["event"], "timestamp"));
  CHECK(text(deauthorized.body["event"], "timestamp").substr(0, 7) !=
        text(authorized.body["event"], "timestamp").substr(0, 7));
  check_invalid_grant(fixture.refresh(text(tokens, "refresh_token")));
}

TEST_CASE("webhook events: a guild install (scope bot) is APPLICATION_AUTHORIZED with integration_type 0") {
  Fixture fixture;
  const auto owned = fixture.admin->CreateGuild("Owned", fixture.user.id);
  const auto other_owner = fixture.admin->CreateUser("someone");
  const auto foreign = fixture.admin->CreateGuild("Foreign", other_owner.id);
  fixture.admin->AddGuildMember(foreign, fixture.user.id);  // a member without MANAGE_GUILD
  const auto app_id = std::to_string(fixture.app.id);

  // The bot flow: no code, no redirect; the bot joins with a role holding the permissions asked for.
  const auto installed = fixture.admin->Request(
      "GET", "/authorize?client_id=" + app_id +
                 "&scope=bot%20applications.commands&permissions=2048&guild_id=" + std::to_string(owned));
  REQUIRE_MESSAGE(installed.status == 200, installed.body);
  CHECK(text(parse(installed.body), "guild_id") == std::to_string(owned));
  CHECK(text(parse(installed.body), "permissions") == "2048");
  auto received = fixture.server.wait_for(2);
  const auto event = event_of(received[1]);
  CHECK(event.type == "APPLICATION_AUTHORIZED");
  const auto& data = event.body["event"]["data"];
  CHECK(data["integration_type"].GetInt() == 0);
  CHECK(text(data["guild"], "id") == std::to_string(owned));
  CHECK(text(data["guild"], "name") == "Owned");
  CHECK(text(data["user"], "id") == std::to_string(fixture.user.id));
  REQUIRE(data["scopes"].Size() == 2);
  // The SDK's receiver reads it as a guild install.
  const auto& typed =
      std::get<platformpp::backend::ApplicationAuthorized>(received[1].verification.event->data);
  CHECK(typed.integrationType == 0);
  CHECK(typed.guildId == owned);
  // The bot is a member now, and the application counts the guild.
  const auto guilds =
      call(fixture.port, "GET", "/api/v10/users/@me/guilds", {}, "Bot " + fixture.app.botToken);
  REQUIRE(guilds.status == 200);
  CHECK(parse(guilds.body).Size() == 1);
  auto me =
      parse(call(fixture.port, "GET", "/api/v10/applications/@me", {}, "Bot " + fixture.app.botToken).body);
  CHECK(me["approximate_guild_count"].GetInt() == 1);

  // A guild where the user lacks MANAGE_GUILD: access_denied, nothing installed, no event.
  const auto refused = fixture.admin->Request(
      "GET", "/authorize?client_id=" + app_id + "&scope=bot&guild_id=" + std::to_string(foreign));
  CHECK(refused.status == 400);
  CHECK(text(parse(refused.body), "error") == "access_denied");
  // No guild named: the headless consent cannot pick one.
  CHECK(fixture.admin->Request("GET", "/authorize?client_id=" + app_id + "&scope=bot").status == 400);
  // Scope bot with a user install is a contradiction.
  CHECK(text(parse(fixture.admin
                       ->Request("GET", "/authorize?client_id=" + app_id +
                                            "&scope=bot&integration_type=1&guild_id=" + std::to_string(owned))
                       .body),
             "error") == "invalid_scope");

  // The advanced bot flow (another scope, a code): the redirect names the guild, the token carries it, and
  // the one APPLICATION_AUTHORIZED is the guild install's.
  const auto second = fixture.admin->CreateGuild("Second", fixture.user.id);
  const auto authorize = fixture.admin->Request(
      "GET", "/authorize?response_type=code&client_id=" + app_id +
                 "&scope=bot%20identify&permissions=0&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&guild_id=" +
                 std::to_string(second));
  REQUIRE_MESSAGE(authorize.status == 200, authorize.body);
  const auto location = text(parse(authorize.body), "location");
  CHECK(location.find("guild_id=" + std::to_string(second)) != std::string::npos);
  CHECK(location.find("permissions=0") != std::string::npos);
  const auto code = EmulatorAdmin::CodeFromRedirect(location);
  const auto token = call(fixture.port, "POST", "/api/v10/oauth2/token",
                          "grant_type=authorization_code&code=" + code +
                              "&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&client_id=" + app_id +
                              "&client_secret=" + fixture.app.clientSecret,
                          {}, true);
  REQUIRE_MESSAGE(token.status == 200, token.body);
  CHECK(text(parse(token.body)["guild"], "id") == std::to_string(second));
  received = fixture.server.wait_for(3);
  const auto advanced = event_of(received[2]);
  CHECK(advanced.body["event"]["data"]["integration_type"].GetInt() == 0);
  CHECK(text(advanced.body["event"]["data"]["guild"], "id") == std::to_string(second));
  me = parse(call(fixture.port, "GET", "/api/v10/applications/@me", {}, "Bot " + fixture.app.botToken).body);
  CHECK(me["approximate_guild_count"].GetInt() == 2);
  // The code exchange announced nothing more: the emulator queues an event when it happens, so its outbox
  // already holds everything these requests made (the PING and two installs).
  CHECK(fixture.admin->WebhookDeliveries(fixture.app.id).size() == 3);
}

TEST_CASE("webhook events: approximate_user_install_count counts users who installed applications.commands") {
  Fixture fixture;
  const auto count = [&] {
    return parse(call(fixture.port, "GET", "/api/v10/applications/@me", {}, "Bot " + fixture.app.botToken)
                     .body)["approximate_user_install_count"]
        .GetInt();
  };
  CHECK(count() == 0);
  fixture.code_grant("identify");
  CHECK(count() == 0);  // an authorization, not an install
  fixture.code_grant("identify%20applications.commands");
  CHECK(count() == 1);
  fixture.code_grant("applications.commands");
  CHECK(count() == 1);  // the same user
  const auto other = fixture.admin->CreateUser("other");
  fixture.admin->MintToken(other.id, fixture.app.id, "applications.commands");
  CHECK(count() == 2);
}

TEST_CASE("webhook events: QUEST_USER_ENROLLMENT when the admin enrols a user in a quest") {
  Fixture fixture;
  const auto path = "/applications/" + std::to_string(fixture.app.id) + "/quest-enrollments";
  const auto enrolled = fixture.admin->Request(
      "POST", path, R"({"user_id":")" + std::to_string(fixture.user.id) + R"(","quest_id":"1234"})");
  REQUIRE_MESSAGE(enrolled.status == 200, enrolled.body);
  const auto received = fixture.server.wait_for(2);
  const auto event = event_of(received[1]);
  CHECK(event.type == "QUEST_USER_ENROLLMENT");
  const auto& data = event.body["event"]["data"];
  CHECK(text(data, "quest_id") == "1234");
  CHECK(text(data, "user_id") == std::to_string(fixture.user.id));
  CHECK(text(data["user"], "id") == std::to_string(fixture.user.id));
  CHECK(text(data, "enrolled_at") == text(event.body["event"], "timestamp"));
  CHECK(
      std::holds_alternative<platformpp::backend::QuestUserEnrollment>(received[1].verification.event->data));
  // An unknown user or a missing quest id is refused; nothing is sent.
  CHECK(fixture.admin->Request("POST", path, R"({"user_id":"1","quest_id":"9"})").status == 404);
  CHECK(fixture.admin->Request("POST", path, R"({"user_id":")" + std::to_string(fixture.user.id) + R"("})")
            .status == 400);
  CHECK(
      fixture.admin->Request("POST", "/applications/1/quest-enrollments", R"({"user_id":"1","quest_id":"9"})")
          .status == 404);
  CHECK(fixture.admin->WebhookDeliveries(fixture.app.id).size() == 2);  // the PING and the one enrolment
}

TEST_CASE("webhook events: APPLICATION_DEAUTHORIZED when the user removes the app, then invalid_grant") {
  Fixture fixture;
  const auto first = fixture.admin->MintToken(fixture.user.id, fixture.app.id, "identify");
  const auto second = fixture.admin->MintToken(fixture.user.id, fixture.app.id, "identify");
  // One login's token deleted among two: the app is still authorized, nothing is sent.
  fixture.admin->DeleteToken(first.accessToken);
  fixture.admin->RemoveApplication(fixture.user.id, fixture.app.id);
  const auto received = fixture.server.wait_for(2);
  const auto event = event_of(received[1]);
  CHECK(event.type == "APPLICATION_DEAUTHORIZED");
  CHECK(text(event.body["event"]["data"]["user"], "id") == std::to_string(fixture.user.id));
  check_invalid_grant(fixture.refresh(second.refreshToken));
  // Nothing left to remove: no second event.
  fixture.admin->RemoveApplication(fixture.user.id, fixture.app.id);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(fixture.server.count() == 2);
}

TEST_CASE("webhook events: APPLICATION_DEAUTHORIZED on unmerge of a provisional account") {
  Fixture fixture;
  const auto bot = "Bot " + fixture.app.botToken;
  const auto merged = fixture.link_game_account("gamer-1");
  CHECK(event_of(fixture.server.wait_for(2)[1]).type == "APPLICATION_AUTHORIZED");

  const auto unmerge = call(fixture.port, "POST", "/api/v10/partner-sdk/provisional-accounts/unmerge/bot",
                            R"({"external_user_id":"gamer-1"})", bot);
  CHECK(unmerge.status == 204);
  const auto event = event_of(fixture.server.wait_for(3)[2]);
  CHECK(event.type == "APPLICATION_DEAUTHORIZED");
  CHECK(text(event.body["event"]["data"]["user"], "id") == std::to_string(fixture.user.id));
  check_invalid_grant(fixture.refresh(text(parse(merged.body), "refresh_token")));
}

TEST_CASE("webhook events: lobby messages and game DMs") {
  Fixture fixture;
  fixture.admin->SetSocialRateLimits(false);
  const auto friend_user = fixture.admin->CreateUser("friend");
  fixture.admin->MakeFriends(fixture.user.id, friend_user.id);
  const auto token =
      "Bearer " + fixture.admin->MintToken(fixture.user.id, fixture.app.id, "identify").accessToken;
  const auto bot = "Bot " + fixture.app.botToken;

  const auto lobby = call(fixture.port, "PUT", "/api/v10/lobbies", R"({"secret":"room"})", token);
  REQUIRE(lobby.status == 200);
  const auto lobby_id = text(parse(lobby.body), "id");
  const auto sent =
      call(fixture.port, "POST", "/api/v10/lobbies/" + lobby_id + "/messages", R"({"content":"gg"})", token);
  REQUIRE(sent.status == 201);
  const auto message_id = text(parse(sent.body), "id");
  CHECK(call(fixture.port, "PUT",
             "/api/v10/lobbies/" + lobby_id + "/messages/" + message_id + "/moderation-metadata",
             R"({"verdict":"ok"})", bot)
            .status == 204);
  CHECK(fixture.admin->Request("DELETE", "/lobbies/" + lobby_id + "/messages/" + message_id).status == 204);

  const auto channel = call(fixture.port, "POST", "/api/v10/users/@me/channels",
                            R"({"recipient_id":")" + std::to_string(friend_user.id) + R"("})", token);
  REQUIRE(channel.status == 200);
  const auto channel_id = text(parse(channel.body), "id");
  const auto dm = call(fixture.port, "POST", "/api/v10/channels/" + channel_id + "/messages",
                       R"({"content":"hi"})", token);
  REQUIRE(dm.status == 200);
  const auto dm_id = text(parse(dm.body), "id");
  CHECK(call(fixture.port, "PATCH", "/api/v10/channels/" + channel_id + "/messages/" + dm_id,
             R"({"content":"hello"})", token)
            .status == 200);
  CHECK(call(fixture.port, "DELETE", "/api/v10/channels/" + channel_id + "/messages/" + dm_id, {}, token)
            .status == 204);

  const auto received = fixture.server.wait_for(7);
  REQUIRE(received.size() == 7);
  const auto created = event_of(received[1]);
  CHECK(created.type == "LOBBY_MESSAGE_CREATE");
  CHECK(text(created.body["event"]["data"], "lobby_id") == lobby_id);
  CHECK(text(created.body["event"]["data"], "content") == "gg");
  const auto updated = event_of(received[2]);
  CHECK(updated.type == "LOBBY_MESSAGE_UPDATE");
  CHECK(text(updated.body["event"]["data"]["moderation_metadata"], "verdict") == "ok");
  const auto deleted = event_of(received[3]);
  CHECK(deleted.type == "LOBBY_MESSAGE_DELETE");
  CHECK(text(deleted.body["event"]["data"], "id") == message_id);
  CHECK(text(deleted.body["event"]["data"], "lobby_id") == lobby_id);

  const auto dm_created = event_of(received[4]);
  CHECK(dm_created.type == "GAME_DIRECT_MESSAGE_CREATE");
  CHECK(text(dm_created.body["event"]["data"], "channel_id") == channel_id);
  CHECK(text(dm_created.body["event"]["data"], "content") == "hi");
  const auto dm_updated = event_of(received[5]);
  CHECK(dm_updated.type == "GAME_DIRECT_MESSAGE_UPDATE");
  CHECK(text(dm_updated.body["event"]["data"], "content") == "hello");
  const auto dm_deleted = event_of(received[6]);
  CHECK(dm_deleted.type == "GAME_DIRECT_MESSAGE_DELETE");
  CHECK(text(dm_deleted.body["event"]["data"], "id") == dm_id);
  CHECK(text(dm_deleted.body["event"]["data"], "channel_id") == channel_id);
}

TEST_CASE("webhook events: retried after a dropped connection and after a 500, with the same bytes") {
  Fixture fixture;
  fixture.server.script({{204, true}, {500}});
  fixture.admin->MintToken(fixture.user.id, fixture.app.id, "identify");
  fixture.admin->RemoveApplication(fixture.user.id, fixture.app.id);
  const auto received = fixture.server.wait_for(4);
  REQUIRE(received.size() == 4);
  for (std::size_t i = 1; i < 4; ++i) {
    CHECK(received[i].body == received[1].body);    // one event, byte for byte
    CHECK(received[i].verification.status == 204);  // each attempt signed with its own timestamp
  }
  const auto deliveries = fixture.settled_deliveries();
  REQUIRE(deliveries.size() == 2);
  CHECK(deliveries[1].state == "delivered");
  CHECK(deliveries[1].body == received[1].body);
  REQUIRE(deliveries[1].attempts.size() == 3);
  CHECK(deliveries[1].attempts[0].status == 0);
  CHECK(deliveries[1].attempts[0].error == "connection closed without an answer");
  CHECK(deliveries[1].attempts[1].status == 500);
  CHECK(deliveries[1].attempts[2].status == 204);
  CHECK(deliveries[1].attempts[2].error.empty());
}

TEST_CASE("webhook events: a delivery gives up after 5 attempts") {
  Fixture fixture;
  fixture.server.script({{500}, {503}, {500}, {502}, {500}});
  fixture.admin->MintToken(fixture.user.id, fixture.app.id, "identify");
  fixture.admin->RemoveApplication(fixture.user.id, fixture.app.id);
  const auto received = fixture.server.wait_for(6);
  // Nothing after the fifth (20 + 40 + 80 + 160 ms of retries are long over after a second).
  std::this_thread::sleep_for(std::chrono::seconds(1));
  CHECK(fixture.server.count() == 6);
  for (std::size_t i = 2; i < received.size(); ++i)
    CHECK(received[i].body == received[1].body);
  const auto deliveries = fixture.settled_deliveries();
  REQUIRE(deliveries.size() == 2);
  CHECK(deliveries[1].state == "failed");
  CHECK(deliveries[1].attempts.size() == 5);
  CHECK(deliveries[1].attempts[4].status == 500);
}

TEST_CASE("webhook events: event_types filters what is sent") {
  Fixture fixture({"APPLICATION_DEAUTHORIZED"});
  fixture.code_grant("identify");  // APPLICATION_AUTHORIZED is filtered out
  fixture.admin->RemoveApplication(fixture.user.id, fixture.app.id);
  const auto received = fixture.server.wait_for(2);
  CHECK(event_of(received[1]).type == "APPLICATION_DEAUTHORIZED");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(fixture.server.count() == 2);
  CHECK(fixture.admin->WebhookDeliveries(fixture.app.id).size() == 2);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: emulator_webhook_test <path to platformpp-emulator> [doctest options]\n");
    return 2;
  }
  g_binary = argv[1];
  doctest::Context context;
  context.applyCommandLine(argc - 1, argv + 1);
  return context.run();
}

TEST_CASE("webhook events: ENTITLEMENT_CREATE for a purchase, nothing on renewal") {
  Fixture fixture;
  const auto gold = fixture.admin->CreateSku(fixture.app.id, "Gold", EmulatorAdmin::SkuType::Subscription);
  const auto purchase = fixture.admin->Purchase(fixture.app.id, fixture.user.id, gold);
  auto received = fixture.server.wait_for(2);
  const auto created = event_of(received[1]);
  CHECK(created.type == "ENTITLEMENT_CREATE");
  const auto& entitlement = created.body["event"]["data"];
  CHECK(text(entitlement, "sku_id") == std::to_string(gold));
  CHECK(text(entitlement, "user_id") == std::to_string(fixture.user.id));
  CHECK(entitlement["ends_at"].IsNull());
  CHECK(entitlement["type"].GetInt() == 1);
  // A month on the fake clock: the subscription renews, and the game server hears nothing of it.
  REQUIRE(purchase.subscriptionId != 0);
  const auto period_start = [&] {
    const auto state = parse(fixture.admin->PremiumState(fixture.app.id));
    return text(state["subscriptions"][0], "current_period_start");
  };
  const auto first_period = period_start();
  fixture.admin->AdvanceClock(std::chrono::hours(24 * 31));
  CHECK(period_start() != first_period);  // renewed
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(fixture.server.count() == 2);
}

TEST_CASE("webhook events: revoking the last authorization severs the linked game account") {
  Fixture fixture;
  const auto bot = "Bot " + fixture.app.botToken;
  const auto merged = fixture.link_game_account("gamer-2");
  // Who the game's identity reaches (asking makes a grant when it reaches the player: ask only afterwards).
  const auto user_of_identity = [&] {
    const auto token = call(fixture.port, "POST", "/api/v10/partner-sdk/token/bot",
                            R"({"external_user_id":"gamer-2"})", bot);
    REQUIRE(token.status == 200);
    const auto me = call(fixture.port, "GET", "/api/v10/users/@me", {},
                         "Bearer " + text(parse(token.body), "access_token"));
    REQUIRE(me.status == 200);
    return text(parse(me.body), "id");
  };
  const auto revoke = call(fixture.port, "POST", "/api/v10/oauth2/token/revoke",
                           "token=" + text(parse(merged.body), "access_token") + "&client_id=" +
                               std::to_string(fixture.app.id) + "&client_secret=" + fixture.app.clientSecret,
                           {}, true);
  CHECK(revoke.status == 200);
  const auto received = fixture.server.wait_for(3);
  CHECK(event_of(received[2]).type == "APPLICATION_DEAUTHORIZED");
  // Severed: the identity has a provisional account of its own again.
  CHECK(user_of_identity() != std::to_string(fixture.user.id));
  check_invalid_grant(fixture.refresh(text(parse(merged.body), "refresh_token")));
}
