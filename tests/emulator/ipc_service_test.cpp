// The desktop-client stand-in's protocol logic without sockets: a fake peer collects what the service sends.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "ipc/ipc_peer.hpp"
#include "oauth_fixture.hpp"

namespace ipc_service_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

struct FakePeer final : IpcPeer {
  std::vector<IpcFrame> frames;
  bool closed = false;
  IpcFrameDecoder decoder;

  void send(std::string bytes) override {
    REQUIRE_FALSE(closed);
    decoder.feed(bytes);
    while (auto frame = decoder.next())
      frames.push_back(std::move(*frame));
    REQUIRE(decoder.buffered() == 0);
  }
  void close() override { closed = true; }
};

struct FakeListener final : IpcListenerControl {
  bool is_listening = true;
  std::string socket_path = "/run/test/platformpp-ipc-0";
  int restores = 0;
  [[nodiscard]] bool listening() const override { return is_listening; }
  [[nodiscard]] const std::string& path() const override { return socket_path; }
  void stop() override { is_listening = false; }
  std::optional<std::string> restore() override {
    ++restores;
    is_listening = true;
    return std::nullopt;
  }
};

struct Connection {
  EmulatorService& service;
  FakePeer peer;
  std::uint64_t id;

  explicit Connection(EmulatorService& s) : service(s), id(s.ipc_connected(peer)) {}
  ~Connection() { service.ipc_disconnected(id); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void send(IpcOpcode opcode, std::string_view payload) {
    service.ipc_received(id, encode_ipc_frame(opcode, payload));
  }
  const IpcFrame& last() {
    REQUIRE_FALSE(peer.frames.empty());
    return peer.frames.back();
  }
  rapidjson::Document last_json() { return parse(last().payload); }
  // The CLOSE frame's {code, message} after which the peer was closed.
  int close_code() {
    REQUIRE(peer.closed);
    REQUIRE(last().opcode == IpcOpcode::close);
    return last_json()["code"].GetInt();
  }
  rapidjson::Document handshake(const std::string& client_id) {
    send(IpcOpcode::handshake, R"({"v":1,"client_id":")" + client_id + R"("})");
    REQUIRE_FALSE(peer.closed);
    REQUIRE(last().opcode == IpcOpcode::frame);
    return last_json();
  }
  // Sends a command and returns the response frame.
  rapidjson::Document command(const std::string& json) {
    const auto before = peer.frames.size();
    send(IpcOpcode::frame, json);
    REQUIRE(peer.frames.size() == before + 1);
    REQUIRE(last().opcode == IpcOpcode::frame);
    return last_json();
  }
};

struct IpcFixture : OAuthFixture {
  FakeListener listener;
  IpcFixture() { service.set_ipc_listener(&listener); }

  std::string authorize_command(const std::string& extra_args = {}, const std::string& client = {}) {
    return R"({"cmd":"AUTHORIZE","nonce":"n1","args":{"client_id":")" + (client.empty() ? app_id : client) +
           R"(","scopes":["openid","sdk.social_layer"],"code_challenge":")" + s256_code_challenge(kVerifier) +
           R"(","code_challenge_method":"S256")" + extra_args + "}}";
  }
  rapidjson::Document ipc_status() {
    const auto response = call("GET", "/_emulator/ipc");
    REQUIRE(response.status == 200);
    return parse(response.body);
  }
};

int rpc_error(const rapidjson::Document& response) {
  REQUIRE(response["evt"].IsString());
  CHECK(str(response["evt"]) == "ERROR");
  return response["data"]["code"].GetInt();
}

}  // namespace

TEST_CASE_FIXTURE(IpcFixture, "handshake answers READY with the consenting user and the API endpoint") {
  Connection ipc(service);
  const auto ready = ipc.handshake(app_id);
  CHECK(str(ready["cmd"]) == "DISPATCH");
  CHECK(str(ready["evt"]) == "READY");
  CHECK(ready["data"]["v"].GetInt() == 1);
  CHECK(str(ready["data"]["config"]["api_endpoint"]) == "https://127.0.0.1:1234/api/v10");
  CHECK(str(ready["data"]["config"]["cdn_host"]) == "127.0.0.1:1234");
  CHECK(str(ready["data"]["config"]["environment"]) == "production");
  CHECK(str(ready["data"]["user"]["id"]) == user_id);
  CHECK(str(ready["data"]["user"]["username"]) == "player.one");
  CHECK(str(ready["data"]["user"]["discriminator"]) == "0");
  CHECK(ready["data"]["user"]["global_name"].IsNull());
  CHECK(ready["data"]["user"]["avatar"].IsNull());

  const auto status = ipc_status();
  CHECK(status["listening"].GetBool());
  CHECK(str(status["path"]) == "/run/test/platformpp-ipc-0");
  CHECK(status["handshakes"].GetInt() == 1);
  REQUIRE(status["connections"].Size() == 1);
  CHECK(str(status["connections"][0]["client_id"]) == app_id);
  CHECK(status["connections"][0]["activity"].IsNull());
}

TEST_CASE("READY without a consenting user has no user") {
  FakeClock clock{[] { return std::int64_t{1'795'000'000'000}; }, true};
  EmulatorService service{clock, ServiceEndpoints{"wss://x", "https://x/api/v10", "x"}};
  const auto app = service.handle(make_request("POST", "/_emulator/apps", R"({"name":"Game"})"));
  Connection ipc(service);
  const auto ready = ipc.handshake(str(parse(app.response.body)["id"]));
  CHECK_FALSE(ready["data"].HasMember("user"));
}

TEST_CASE_FIXTURE(IpcFixture, "handshake failures close the connection with a code") {
  SUBCASE("version") {
    Connection ipc(service);
    ipc.send(IpcOpcode::handshake, R"({"v":2,"client_id":")" + app_id + R"("})");
    CHECK(ipc.close_code() == 4004);
    CHECK(str(ipc.last_json()["message"]) == "Invalid version");
  }
  SUBCASE("missing version") {
    Connection ipc(service);
    ipc.send(IpcOpcode::handshake, R"({"client_id":")" + app_id + R"("})");
    CHECK(ipc.close_code() == 4004);
  }
  SUBCASE("unknown client id") {
    Connection ipc(service);
    ipc.send(IpcOpcode::handshake, R"({"v":1,"client_id":"123"})");
    CHECK(ipc.close_code() == 4000);
    CHECK(str(ipc.last_json()["message"]) == "Invalid client ID");
  }
  SUBCASE("client id not a string") {
    Connection ipc(service);
    ipc.send(IpcOpcode::handshake, R"({"v":1,"client_id":5})");
    CHECK(ipc.close_code() == 4000);
  }
  SUBCASE("bad JSON") {
    Connection ipc(service);
    ipc.send(IpcOpcode::handshake, R"({"v":1,)");
    CHECK(ipc.close_code() == 1007);
  }
  SUBCASE("a FRAME first") {
    Connection ipc(service);
    ipc.send(IpcOpcode::frame, R"({"cmd":"AUTHORIZE","nonce":"1","args":{}})");
    CHECK(ipc.close_code() == 1002);
  }
  SUBCASE("a second HANDSHAKE") {
    Connection ipc(service);
    ipc.handshake(app_id);
    ipc.send(IpcOpcode::handshake, R"({"v":1,"client_id":")" + app_id + R"("})");
    CHECK(ipc.close_code() == 1002);
  }
  SUBCASE("unknown opcode") {
    Connection ipc(service);
    service.ipc_received(ipc.id, std::string("\x07\x00\x00\x00\x00\x00\x00\x00", 8));
    CHECK(ipc.close_code() == 1002);
  }
  SUBCASE("oversized frame") {
    Connection ipc(service);
    ipc.handshake(app_id);
    service.ipc_received(ipc.id, std::string("\x01\x00\x00\x00\x01\x00\x01\x00", 8));
    CHECK(ipc.close_code() == 1009);
  }
  CHECK(service.ipc_connection_count() == 0);
  CHECK(ipc_status()["handshakes"].GetInt() <= 1);
}

TEST_CASE_FIXTURE(IpcFixture, "PING gets a PONG with the same bytes; CLOSE closes without an answer") {
  Connection ipc(service);
  ipc.send(IpcOpcode::ping, "not even json \x01");
  CHECK(ipc.last().opcode == IpcOpcode::pong);
  CHECK(ipc.last().payload == "not even json \x01");
  ipc.handshake(app_id);
  const auto frames = ipc.peer.frames.size();
  ipc.send(IpcOpcode::close, R"({"code":1000,"message":"bye"})");
  CHECK(ipc.peer.closed);
  CHECK(ipc.peer.frames.size() == frames);
  CHECK(service.ipc_connection_count() == 0);
}

TEST_CASE_FIXTURE(IpcFixture, "commands: nonce, unknown commands and payload errors") {
  Connection ipc(service);
  ipc.handshake(app_id);
  auto response = ipc.command(R"({"cmd":"AUTHORIZE","args":{}})");
  CHECK(rpc_error(response) == 4000);
  CHECK(response["nonce"].IsNull());
  CHECK(str(response["cmd"]) == "AUTHORIZE");
  response = ipc.command(R"({"cmd":"FROBNICATE","nonce":"n7","args":{}})");
  CHECK(rpc_error(response) == 4002);
  CHECK(str(response["data"]["message"]) == "Invalid command");
  CHECK(str(response["nonce"]) == "n7");
  CHECK(rpc_error(ipc.command(R"({"nonce":"n8"})")) == 4000);
  CHECK(rpc_error(ipc.command(R"({"cmd":"AUTHORIZE","nonce":"n9"})")) == 4000);
  CHECK(rpc_error(ipc.command(R"({"cmd":"AUTHORIZE","nonce":"n9","args":{"client_id":")" + app_id +
                              R"(","scopes":"openid"}})")) == 4000);
  // Bad JSON after the handshake closes the connection too.
  ipc.send(IpcOpcode::frame, "[1,2");
  CHECK(ipc.close_code() == 1007);
}

TEST_CASE_FIXTURE(IpcFixture, "AUTHORIZE consents and the code is exchanged like a browser code") {
  Connection ipc(service);
  ipc.handshake(app_id);
  auto response = ipc.command(authorize_command(R"(,"state":"s-1","prompt":"none")"));
  CHECK(str(response["cmd"]) == "AUTHORIZE");
  CHECK(str(response["nonce"]) == "n1");
  CHECK(response["evt"].IsNull());
  const auto code = str(response["data"]["code"]);
  CHECK(str(response["data"]["state"]) == "s-1");

  const std::string callback = "discord-" + app_id + ":/authorize/callback";
  SUBCASE("right verifier and redirect: tokens, then the code is spent") {
    auto token_response = exchange(code, kVerifier, callback);
    REQUIRE_MESSAGE(token_response.status == 200, token_response.body);
    CHECK(str(me(str(parse(token_response.body)["access_token"]))["id"]) == user_id);
    CHECK(oauth_error_of(exchange(code, kVerifier, callback)) == "invalid_grant");
  }
  SUBCASE("wrong verifier") {
    CHECK(oauth_error_of(exchange(code, std::string(43, 'z'), callback)) == "invalid_grant");
  }
  SUBCASE("wrong redirect") {
    CHECK(oauth_error_of(exchange(code, kVerifier, kRedirect)) == "invalid_grant");
  }
  SUBCASE("expired") {
    clock.advance(kAuthorizationCodeLifetimeMs);
    CHECK(oauth_error_of(exchange(code, kVerifier, callback)) == "invalid_grant");
  }
}

TEST_CASE_FIXTURE(IpcFixture, "AUTHORIZE with a redirect_uri binds the code to it") {
  Connection ipc(service);
  ipc.handshake(app_id);
  auto response = ipc.command(authorize_command(R"(,"redirect_uri":")" + std::string(kRedirect) + R"(")"));
  REQUIRE(response["evt"].IsNull());
  CHECK(exchange(str(response["data"]["code"])).status == 200);
  response = ipc.command(authorize_command(R"(,"redirect_uri":"https://evil.example/cb")"));
  CHECK(rpc_error(response) == 5000);
}

TEST_CASE_FIXTURE(IpcFixture, "AUTHORIZE refusals") {
  Connection ipc(service);
  ipc.handshake(app_id);
  SUBCASE("deny") {
    CHECK(call("POST", "/_emulator/consent", R"({"deny":true})").status == 200);
    const auto response = ipc.command(authorize_command());
    CHECK(rpc_error(response) == 5000);
    CHECK(str(response["data"]["message"]) == "User denied authorization");
  }
  SUBCASE("another client id") {
    const auto other = str(parse(call("POST", "/_emulator/apps", R"({"name":"Other"})").body)["id"]);
    CHECK(rpc_error(ipc.command(authorize_command({}, other))) == 4007);
  }
  SUBCASE("no scopes") {
    const auto response = ipc.command(R"({"cmd":"AUTHORIZE","nonce":"1","args":{"client_id":")" + app_id +
                                      R"(","scopes":[]}})");
    CHECK(rpc_error(response) == 5000);
    CHECK(str(response["data"]["message"]).find("invalid_scope") != std::string::npos);
  }
  SUBCASE("plain PKCE") {
    const auto response =
        ipc.command(R"({"cmd":"AUTHORIZE","nonce":"1","args":{"client_id":")" + app_id +
                    R"(","scopes":["openid"],"code_challenge":")" + s256_code_challenge(kVerifier) +
                    R"(","code_challenge_method":"plain"}})");
    CHECK(rpc_error(response) == 5000);
  }
}

TEST_CASE("AUTHORIZE without a consenting user is an OAuth2 error") {
  FakeClock clock{[] { return std::int64_t{1'795'000'000'000}; }, true};
  EmulatorService service{clock, ServiceEndpoints{"wss://x", "https://x/api/v10", "x"}};
  const auto app_id = str(parse(
      service.handle(make_request("POST", "/_emulator/apps", R"({"name":"Game"})")).response.body)["id"]);
  Connection ipc(service);
  ipc.handshake(app_id);
  const auto response = ipc.command(R"({"cmd":"AUTHORIZE","nonce":"1","args":{"client_id":")" + app_id +
                                    R"(","scopes":["openid"]}})");
  CHECK(rpc_error(response) == 5000);
}

TEST_CASE_FIXTURE(IpcFixture, "AUTHENTICATE") {
  Connection ipc(service);
  ipc.handshake(app_id);
  const auto tokens = login();
  const auto access_token = str(tokens["access_token"]);
  auto response =
      ipc.command(R"({"cmd":"AUTHENTICATE","nonce":"a","args":{"access_token":")" + access_token + R"("}})");
  REQUIRE(response["evt"].IsNull());
  CHECK(str(response["data"]["user"]["id"]) == user_id);
  CHECK(str(response["data"]["application"]["id"]) == app_id);
  CHECK(str(response["data"]["application"]["name"]) == "Game");
  CHECK(response["data"]["scopes"].Size() == 2);
  CHECK(response["data"]["expires"].IsString());
  CHECK(str(response["data"]["access_token"]) == access_token);

  CHECK(rpc_error(ipc.command(R"({"cmd":"AUTHENTICATE","nonce":"b","args":{"access_token":"nope"}})")) ==
        4009);
  CHECK(rpc_error(ipc.command(R"({"cmd":"AUTHENTICATE","nonce":"c","args":{}})")) == 4000);
  clock.advance(kAccessTokenLifetimeS * 1000);
  CHECK(rpc_error(ipc.command(R"({"cmd":"AUTHENTICATE","nonce":"d","args":{"access_token":")" + access_token +
                              R"("}})")) == 4009);
}

TEST_CASE_FIXTURE(IpcFixture, "SUBSCRIBE, UNSUBSCRIBE and AUTHORIZE_REQUEST dispatch") {
  Connection subscribed(service);
  subscribed.handshake(app_id);
  Connection other(service);
  other.handshake(app_id);
  auto response =
      subscribed.command(R"({"cmd":"SUBSCRIBE","evt":"AUTHORIZE_REQUEST","args":{},"nonce":"s"})");
  CHECK(response["evt"].IsNull());
  CHECK(str(response["data"]["evt"]) == "AUTHORIZE_REQUEST");
  for (const char* event : {"ACTIVITY_JOIN", "ACTIVITY_JOIN_REQUEST", "ACTIVITY_SPECTATE", "GUILD_STATUS"}) {
    CHECK(other
              .command(std::string(R"({"cmd":"SUBSCRIBE","args":{},"nonce":"s","evt":")") + event +
                       R"("})")["evt"]
              .IsNull());
  }
  CHECK(rpc_error(other.command(R"({"cmd":"SUBSCRIBE","evt":"NOPE","args":{},"nonce":"s"})")) == 4004);
  CHECK(rpc_error(other.command(R"({"cmd":"SUBSCRIBE","args":{},"nonce":"s"})")) == 4000);

  const auto status = ipc_status();
  REQUIRE(status["connections"].Size() == 2);
  CHECK(status["connections"][0]["subscriptions"].Size() == 1);
  CHECK(status["connections"][1]["subscriptions"].Size() == 4);

  const auto before = subscribed.peer.frames.size();
  auto delivered = call("POST", "/_emulator/ipc/authorize-request");
  REQUIRE(delivered.status == 200);
  CHECK(parse(delivered.body)["delivered"].GetInt() == 1);
  REQUIRE(subscribed.peer.frames.size() == before + 1);
  CHECK(subscribed.last().payload == R"({"cmd":"DISPATCH","evt":"AUTHORIZE_REQUEST","data":{}})");

  delivered = call("POST", "/_emulator/ipc/authorize-request", R"({"application_id":")" + app_id + R"("})");
  CHECK(parse(delivered.body)["delivered"].GetInt() == 1);
  const auto other_app = str(parse(call("POST", "/_emulator/apps", R"({"name":"Other"})").body)["id"]);
  delivered =
      call("POST", "/_emulator/ipc/authorize-request", R"({"application_id":")" + other_app + R"("})");
  CHECK(parse(delivered.body)["delivered"].GetInt() == 0);
  CHECK(call("POST", "/_emulator/ipc/authorize-request", R"({"application_id":"1"})").status == 404);

  response = subscribed.command(R"({"cmd":"UNSUBSCRIBE","evt":"AUTHORIZE_REQUEST","args":{},"nonce":"u"})");
  CHECK(str(response["data"]["evt"]) == "AUTHORIZE_REQUEST");
  CHECK(parse(call("POST", "/_emulator/ipc/authorize-request").body)["delivered"].GetInt() == 0);
}

TEST_CASE_FIXTURE(IpcFixture, "SET_ACTIVITY stores, echoes and clears; types 0, 2, 3, 5 only") {
  Connection ipc(service);
  ipc.handshake(app_id);
  for (const int type : {0, 2, 3, 5}) {
    const auto response =
        ipc.command(R"({"cmd":"SET_ACTIVITY","nonce":"a","args":{"pid":42,"activity":{"type":)" +
                    std::to_string(type) + R"(,"state":"In a match"}}})");
    REQUIRE(response["evt"].IsNull());
    CHECK(response["data"]["type"].GetInt() == type);
    CHECK(str(response["data"]["state"]) == "In a match");
  }
  for (const char* type : {"1", "4", "6", "-1", "\"0\"", "2.5"}) {
    CHECK(rpc_error(ipc.command(
              std::string(R"({"cmd":"SET_ACTIVITY","nonce":"a","args":{"pid":42,"activity":{"type":)") +
              type + "}}}")) == 4000);
  }
  CHECK(rpc_error(ipc.command(R"({"cmd":"SET_ACTIVITY","nonce":"a","args":{"activity":null}})")) == 4000);
  CHECK(str(ipc_status()["connections"][0]["activity"]["state"]) == "In a match");
  const auto cleared = ipc.command(R"({"cmd":"SET_ACTIVITY","nonce":"a","args":{"pid":42,"activity":null}})");
  CHECK(cleared["evt"].IsNull());
  CHECK(cleared["data"].IsNull());
  CHECK(ipc_status()["connections"][0]["activity"].IsNull());
}

TEST_CASE_FIXTURE(IpcFixture, "admin drop, restore and close") {
  Connection first(service);
  first.handshake(app_id);
  Connection second(service);
  second.handshake(app_id);

  auto response = call("POST", "/_emulator/ipc/close", R"({"code":4003,"message":"Token revoked"})");
  REQUIRE(response.status == 200);
  CHECK(parse(response.body)["closed"].GetInt() == 2);
  CHECK(first.close_code() == 4003);
  CHECK(str(second.last_json()["message"]) == "Token revoked");
  CHECK(listener.is_listening);
  CHECK(call("POST", "/_emulator/ipc/close", R"({"message":"x"})").status == 400);

  Connection third(service);
  third.handshake(app_id);
  const auto frames = third.peer.frames.size();
  response = call("POST", "/_emulator/ipc/drop");
  REQUIRE(response.status == 200);
  CHECK_FALSE(parse(response.body)["listening"].GetBool());
  CHECK(third.peer.closed);
  CHECK(third.peer.frames.size() == frames);  // no CLOSE frame: the client just went away
  CHECK_FALSE(listener.is_listening);
  CHECK(call("POST", "/_emulator/ipc/drop").status == 200);  // idempotent

  response = call("POST", "/_emulator/ipc/restore");
  REQUIRE(response.status == 200);
  CHECK(parse(response.body)["listening"].GetBool());
  CHECK(parse(response.body)["handshakes"].GetInt() == 3);
  CHECK(parse(response.body)["connections"].Size() == 0);
}

TEST_CASE("without a listener (--no-ipc) the status says so and restore is refused") {
  FakeClock clock{[] { return std::int64_t{1'795'000'000'000}; }, true};
  EmulatorService service{clock, ServiceEndpoints{"wss://x", "https://x/api/v10", "x"}};
  const auto status = parse(service.handle(make_request("GET", "/_emulator/ipc")).response.body);
  CHECK_FALSE(status["listening"].GetBool());
  CHECK(status["path"].IsNull());
  CHECK(service.handle(make_request("POST", "/_emulator/ipc/drop")).response.status == 200);
  CHECK(service.handle(make_request("POST", "/_emulator/ipc/restore")).response.status == 409);
}

}  // namespace ipc_service_test
