// A guild with voice channels for the socket-free guild voice and soundboard tests: owner Olivia, member
// Alice (a user on the Gateway through the Social SDK's token), the bot with a role whose permissions each
// test chooses; a voice channel, a stage channel, a text channel, and a voice channel that denies the bot
// CONNECT. @everyone may view and connect.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "recording_gateway_peer.hpp"
#include "service/emulator_service.hpp"
#include "test_support.hpp"

namespace platformpp::emulator::test {

namespace voice_bits {
inline constexpr std::uint64_t kManageChannels = std::uint64_t{1} << 4;
inline constexpr std::uint64_t kViewAuditLog = std::uint64_t{1} << 7;
inline constexpr std::uint64_t kViewChannel = std::uint64_t{1} << 10;
inline constexpr std::uint64_t kConnect = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kSpeak = std::uint64_t{1} << 21;
inline constexpr std::uint64_t kManageGuildExpressions = std::uint64_t{1} << 30;
inline constexpr std::uint64_t kUseSoundboard = std::uint64_t{1} << 42;
inline constexpr std::uint64_t kCreateGuildExpressions = std::uint64_t{1} << 43;
inline constexpr std::uint64_t kUseExternalSounds = std::uint64_t{1} << 45;
inline constexpr std::uint64_t kSetVoiceChannelStatus = std::uint64_t{1} << 48;
// Intents.
inline constexpr std::uint64_t kGuilds = 1U << 0;
inline constexpr std::uint64_t kGuildExpressions = 1U << 3;
inline constexpr std::uint64_t kGuildVoiceStates = 1U << 7;
}  // namespace voice_bits

struct VoiceGuild {
  static constexpr std::int64_t kStart = 1795000000000;  // 2026-11-18, after the 2026-02-23 split

  // `seeded` false: nothing made (a restart loads the documents of another).
  explicit VoiceGuild(std::uint64_t bot_permissions, std::int64_t start = kStart, bool seeded = true)
      : real_now(start), clock([this] { return real_now; }, true, start) {
    if (!seeded) return;
    olivia = user("olivia");
    alice = user("alice");
    const auto app = parse(call("POST", "/_emulator/apps", R"({"name":"Game"})").body);
    app_id = str(app["id"]);
    bot_id = str(app["bot_user_id"]);
    bot_token = str(app["bot_token"]);
    guild_id = make_guild("Home");
    bot_role = role(guild_id, "Bot", bot_permissions);
    member(guild_id, bot_id, bot_role);
    member(guild_id, alice, "");
    voice = channel(guild_id, R"({"name":"Lounge","type":2})");
    stage = channel(guild_id, R"({"name":"Stage","type":13})");
    text = channel(guild_id, R"({"name":"general"})");
    locked = channel(guild_id, R"({"name":"Locked","type":2,"permission_overwrites":[{"id":")" + bot_id +
                                   R"(","type":1,"allow":"0","deny":")" +
                                   std::to_string(voice_bits::kConnect) + R"("}]})");
  }

  std::string make_guild(const std::string& name) {
    const auto everyone = voice_bits::kViewChannel | voice_bits::kConnect | voice_bits::kSpeak;
    return str(parse(call("POST", "/_emulator/guilds",
                          R"({"name":")" + name + R"(","owner_id":")" + olivia +
                              R"(","everyone_permissions":")" + std::to_string(everyone) + R"("})")
                         .body)["id"]);
  }
  std::string user(const std::string& name) {
    return str(parse(call("POST", "/_emulator/users", R"({"username":")" + name + R"("})").body)["id"]);
  }
  std::string role(const std::string& guild, const std::string& name, std::uint64_t permissions) {
    return str(
        parse(call("POST", "/_emulator/guilds/" + guild + "/roles",
                   R"({"name":")" + name + R"(","permissions":")" + std::to_string(permissions) + R"("})")
                  .body)["id"]);
  }
  void member(const std::string& guild, const std::string& user_id, const std::string& role_id) {
    call("POST", "/_emulator/guilds/" + guild + "/members",
         R"({"user_id":")" + user_id + R"(","roles":[)" + (role_id.empty() ? "" : "\"" + role_id + "\"") +
             "]}");
  }
  std::string channel(const std::string& guild, const std::string& body) {
    return str(parse(call("POST", "/_emulator/guilds/" + guild + "/channels", body).body)["id"]);
  }
  HttpResponse raw(std::string method, std::string target, std::string body = {}, HeaderList headers = {}) {
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
  // The API as the bot, at `path` under /api/v10.
  HttpResponse bot(std::string method, const std::string& path, std::string body = {},
                   const std::string& reason = {}) {
    HeaderList headers{{"Authorization", "Bot " + bot_token}, {"Content-Type", "application/json"}};
    if (!reason.empty()) headers.emplace_back("X-Audit-Log-Reason", reason);
    return raw(std::move(method), "/api/v10" + path, std::move(body), std::move(headers));
  }
  rapidjson::Document ok(const HttpResponse& response) {
    REQUIRE_MESSAGE(response.status < 300, response.body);
    return parse(response.body.empty() ? std::string("{}") : response.body);
  }
  // Identifies the bot with `intents` on `peer`; returns the connection.
  std::uint64_t connect_bot(RecordingGatewayPeer& peer, std::uint64_t intents) {
    const auto id = service.gateway_opened(peer, "/?v=10&encoding=json");
    service.gateway_received(id,
                             R"({"op":2,"d":{"token":")" + bot_token + R"(","properties":{},"intents":)" +
                                 std::to_string(intents) + "}}",
                             true);
    REQUIRE(peer.dispatches("READY").size() == 1);
    return id;
  }
  // Identifies a user (the Social SDK's token) on `peer`; returns the connection.
  std::uint64_t connect_user(RecordingGatewayPeer& peer, const std::string& user_id) {
    const auto token = str(parse(call("POST", "/_emulator/tokens",
                                      R"({"user_id":")" + user_id + R"(","app_id":")" + app_id +
                                          R"(","scopes":"openid sdk.social_layer"})")
                                     .body)["access_token"]);
    const auto id = service.gateway_opened(peer, "/?v=10&encoding=json");
    service.gateway_received(
        id, R"({"op":2,"d":{"token":"Bearer )" + token + R"(","properties":{},"intents":0}})", true);
    REQUIRE(peer.dispatches("READY").size() == 1);
    return id;
  }
  // op 4 for the guild: `channel` is an id or "null".
  void op4(std::uint64_t connection, const std::string& channel_id, bool self_mute = false,
           bool self_deaf = false, const std::string& guild = {}) {
    const auto channel_json = channel_id == "null" ? std::string("null") : "\"" + channel_id + "\"";
    service.gateway_received(connection,
                             R"({"op":4,"d":{"guild_id":")" + (guild.empty() ? guild_id : guild) +
                                 R"(","channel_id":)" + channel_json + R"(,"self_mute":)" +
                                 (self_mute ? "true" : "false") + R"(,"self_deaf":)" +
                                 (self_deaf ? "true" : "false") + "}}",
                             true);
  }

  std::int64_t real_now;
  FakeClock clock;
  EmulatorService service{
      clock, ServiceEndpoints{"wss://127.0.0.1:1234", "https://127.0.0.1:1234/api/v10", "127.0.0.1:1234"},
      RateLimitSettings{1000000, 1000, 0}};
  std::string olivia, alice, app_id, bot_id, bot_token, guild_id, bot_role, voice, stage, text, locked;
};

inline void check_error(const HttpResponse& response, int status, int code) {
  CHECK_MESSAGE(response.status == status, response.body);
  CHECK_MESSAGE(parse(response.body)["code"].GetInt() == code, response.body);
}

}  // namespace platformpp::emulator::test
