// The socket-free fixture of the voice gateway tests: an EmulatorService on a frozen fake clock, three
// players (alice, bob, carol) of one application with live main Gateway sessions, and helpers to join a
// lobby's call and speak the voice gateway's JSON. Shared by voice_gateway_test.cpp and voice_dave_test.cpp.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "recording_gateway_peer.hpp"
#include "recording_voice_peer.hpp"
#include "service/emulator_service.hpp"
#include "test_support.hpp"

namespace platformpp::emulator::test::voice_fixture {

using GwPeer = RecordingGatewayPeer;
using VoicePeer = RecordingVoicePeer;

constexpr std::int64_t kStart = 1795000000000;  // 2026-11-18, fake clock

// A user's main Gateway connection and what it learnt of its calls.
struct Player {
  std::string user_id;
  GwPeer gateway;
  std::uint64_t connection = 0;
  std::string session_id;  // the main Gateway session
};

// The credentials LOBBY_VOICE_SERVER_UPDATE gave for one join.
struct Join {
  std::string lobby_id;
  std::string token;
  std::string endpoint;
};

// Users alice, bob and carol of application "Game", each with a live main Gateway session.
struct Fixture {
  std::int64_t real_now = kStart;
  FakeClock clock{[this] { return real_now; }, true, kStart};
  EmulatorService service{
      clock, ServiceEndpoints{"wss://127.0.0.1:1234", "https://127.0.0.1:1234/api/v10", "127.0.0.1:1234"},
      RateLimitSettings{1000000, 1000, 0}};
  std::string app_id, bot_token;
  std::map<std::string, std::string> tokens;
  std::map<std::string, Player> players;  // by name
  std::string alice, bob, carol;

  // `start`: the fake clock's time (frozen), 2026-11-18 by default.
  explicit Fixture(std::int64_t start = kStart)
      : real_now(start), clock([this] { return real_now; }, true, start) {
    service.set_voice_udp_port(50000);
    // Plain calls (no DAVE), as before 1 March 2026: the voice gateway's own mechanics. The E2EE rules and
    // DAVE have their tests in voice_dave_test.cpp.
    call("POST", "/_emulator/voice/settings", R"({"e2ee":"optional"})");
    auto app = parse(call("POST", "/_emulator/apps", R"({"name":"Game"})").body);
    app_id = str(app["id"]);
    bot_token = str(app["bot_token"]);
    alice = add_player("alice");
    bob = add_player("bob");
    carol = add_player("carol");
  }

  std::string add_player(const std::string& name) {
    auto user_id =
        str(parse(call("POST", "/_emulator/users", R"({"username":")" + name + R"("})").body)["id"]);
    tokens[user_id] = str(parse(call("POST", "/_emulator/tokens",
                                     R"({"user_id":")" + user_id + R"(","app_id":")" + app_id +
                                         R"(","scopes":"openid sdk.social_layer"})")
                                    .body)["access_token"]);
    auto& player = players[user_id];
    player.user_id = user_id;
    connect(player);
    return user_id;
  }
  void connect(Player& player) {
    player.gateway = GwPeer{};
    player.connection = service.gateway_opened(player.gateway, "/?v=10&encoding=json");
    service.gateway_received(
        player.connection,
        R"({"op":2,"d":{"token":"Bearer )" + tokens.at(player.user_id) + R"(","properties":{},"intents":0}})",
        true);
    REQUIRE_FALSE(player.gateway.closed);
    player.session_id = str(player.gateway.only("READY")["d"]["session_id"]);
  }
  Player& p(const std::string& user_id) { return players.at(user_id); }

  HttpResponse raw(std::string method, std::string target, std::string body = {}, std::string auth = {}) {
    HeaderList headers;
    if (!auth.empty()) headers.emplace_back("Authorization", std::move(auth));
    const auto outcome = service.handle(
        make_request(std::move(method), std::move(target), std::move(body), std::move(headers)));
    REQUIRE(outcome.delivery == Outcome::Delivery::respond);
    return outcome.response;
  }
  HttpResponse call(std::string method, std::string target, std::string body = {}) {
    auto response = raw(std::move(method), std::move(target), std::move(body));
    REQUIRE_MESSAGE(response.status < 300, response.body);
    return response;
  }
  HttpResponse as(const std::string& user, std::string method, const std::string& path,
                  std::string body = {}) {
    return raw(std::move(method), "/api/v10" + path, std::move(body), "Bearer " + tokens.at(user));
  }
  std::string lobby(const std::vector<std::string>& members) {
    std::string list;
    for (const auto& id : members)
      list += (list.empty() ? "" : ",") + std::string(R"({"id":")") + id + "\"}";
    const auto response =
        raw("POST", "/api/v10/lobbies", R"({"members":[)" + list + "]}", "Bot " + bot_token);
    REQUIRE_MESSAGE(response.status == 201, response.body);
    return str(parse(response.body)["id"]);
  }

  // Main Gateway op 4 from the user's connection.
  void voice_state(const std::string& user, const std::string& lobby_id, bool in_call, bool mute = false,
                   bool deaf = false) {
    const std::string channel = in_call ? "\"" + lobby_id + "\"" : "null";
    service.gateway_received(p(user).connection,
                             R"({"op":4,"d":{"lobby_id":")" + lobby_id + R"(","channel_id":)" + channel +
                                 R"(,"self_mute":)" + (mute ? "true" : "false") + R"(,"self_deaf":)" +
                                 (deaf ? "true" : "false") + "}}",
                             true);
  }
  Join join(const std::string& user, const std::string& lobby_id, bool mute = false, bool deaf = false) {
    voice_state(user, lobby_id, true, mute, deaf);
    const auto updates = p(user).gateway.dispatches("LOBBY_VOICE_SERVER_UPDATE");
    REQUIRE_FALSE(updates.empty());
    const auto& d = updates.back()["d"];
    REQUIRE(str(d["lobby_id"]) == lobby_id);
    return Join{lobby_id, str(d["token"]), str(d["endpoint"])};
  }

  std::uint64_t open(VoicePeer& peer, const std::string& target = "/voice/?v=8") {
    const auto id = service.voice_opened(peer, target);
    return id;
  }
  void send(std::uint64_t id, const std::string& json) { service.voice_received(id, json, true); }
  std::string identify_json(const std::string& lobby_id, const std::string& user, const std::string& session,
                            const std::string& token) {
    return R"({"op":0,"d":{"server_id":")" + lobby_id + R"(","user_id":")" + user + R"(","session_id":")" +
           session + R"(","token":")" + token + R"(","max_dave_protocol_version":0}})";
  }
  // Opens a voice connection and identifies for the join.
  std::uint64_t voice(VoicePeer& peer, const std::string& user, const Join& join) {
    const auto id = open(peer);
    send(id, identify_json(join.lobby_id, user, p(user).session_id, join.token));
    REQUIRE_FALSE(peer.closed);
    REQUIRE(peer.ops(2).size() == 1);
    return id;
  }
  void select(std::uint64_t id, const std::string& mode, int port = 40000) {
    send(id, R"({"op":1,"d":{"protocol":"udp","data":{"address":"127.0.0.1","port":)" + std::to_string(port) +
                 R"(,"mode":")" + mode + R"("}}})");
  }
  std::string resume_json(const Join& join, const std::string& session, std::int64_t seq_ack) {
    return R"({"op":7,"d":{"server_id":")" + join.lobby_id + R"(","session_id":")" + session +
           R"(","token":")" + join.token + R"(","seq_ack":)" + std::to_string(seq_ack) + "}}";
  }
  // A lobby the users join by secret (PUT /lobbies), so that they may leave it themselves.
  std::string secret_lobby(const std::string& secret, const std::vector<std::string>& members) {
    std::string id;
    for (const auto& user : members) {
      const auto response = as(user, "PUT", "/lobbies", R"({"secret":")" + secret + "\"}");
      REQUIRE_MESSAGE(response.status == 200, response.body);
      id = str(parse(response.body)["id"]);
    }
    return id;
  }
  // GET /lobbies/{id} as the backend (the route is the backend's).
  rapidjson::Document get_lobby(const std::string& lobby_id) {
    const auto response = raw("GET", "/api/v10/lobbies/" + lobby_id, {}, "Bot " + bot_token);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return parse(response.body);
  }
  rapidjson::Document sessions() { return parse(call("GET", "/_emulator/voice/sessions").body); }
  void settings(const std::string& body) { call("POST", "/_emulator/voice/settings", body); }
};

}  // namespace platformpp::emulator::test::voice_fixture
