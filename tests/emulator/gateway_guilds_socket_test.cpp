// Guilds over real sockets (part of emulator_gateway_test, whose main() takes the binary's path): READY
// `guilds` and CHANNEL_CREATE obfuscated after the cut-over date, the HTTP channel list omitting hidden
// channels, and op 8 Request Guild Members with its all-members limit.
#include <doctest/doctest.h>

#include <string>

#include "core/json.hpp"
#include "emulator_process.hpp"
#include "gateway_test_client.hpp"
#include "test_support.hpp"

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace gateway_guilds_socket_test {

using http_verb = HttpMethod;

std::string admin(EmulatorProcess& emulator, http_verb verb, const std::string& path,
                  const std::string& body = {}) {
  auto result = https_request(emulator, verb, "/_emulator" + path, body);
  REQUIRE_MESSAGE(result.status < 300, path << ": " << result.status << " " << result.body);
  return result.body;
}

std::string id_of(const std::string& body) {
  return str(parse(body)["id"]);
}

// Identify with `intents` (a bot asking for the entire member list needs GUILD_MEMBERS, 1 << 1).
std::string identify(const std::string& token, int intents = 0) {
  return R"({"op":2,"d":{"token":")" + token +
         R"(","properties":{"os":"linux","browser":"t","device":"t"},"intents":)" + std::to_string(intents) +
         "}}";
}

TEST_CASE("guilds over sockets: obfuscated READY and CHANNEL_CREATE, HTTP omission, RGM limit") {
  EmulatorProcess emulator{{"--no-ipc"}};
  // The cut-over (2026-11-16T00:00:00Z) must have passed; the fake clock never moves back, so only forward.
  const auto now = parse(admin(emulator, http_verb::get, "/clock"))["now_ms"].GetInt64();
  if (now < 1794787200000) admin(emulator, http_verb::post, "/clock", R"({"now":"2026-11-16T00:00:00Z"})");

  const auto app = parse(admin(emulator, http_verb::post, "/apps", R"({"name":"Guild Game"})"));
  const auto app_id = str(app["id"]);
  const auto bot_token = str(app["bot_token"]);
  const auto bot_id = str(app["bot_user_id"]);
  const auto owner = id_of(admin(emulator, http_verb::post, "/users", R"({"username":"owner"})"));
  const auto alice = id_of(admin(emulator, http_verb::post, "/users", R"({"username":"alice"})"));
  const auto token = str(parse(admin(emulator, http_verb::post, "/tokens",
                                     R"({"user_id":")" + alice + R"(","app_id":")" + app_id +
                                         R"(","scopes":"openid guilds"})"))["access_token"]);
  const auto guild = id_of(admin(emulator, http_verb::post, "/guilds",
                                 R"({"name":"Home","owner_id":")" + owner + R"(","banner":"b"})"));
  for (const auto& user : {alice, bot_id})
    admin(emulator, http_verb::post, "/guilds/" + guild + "/members", R"({"user_id":")" + user + R"("})");
  const auto hidden_overwrite = R"([{"id":")" + guild + R"(","type":0,"deny":"1024"}])";
  admin(emulator, http_verb::post, "/guilds/" + guild + "/channels", R"({"name":"general","position":0})");
  const auto secret =
      id_of(admin(emulator, http_verb::post, "/guilds/" + guild + "/channels",
                  R"({"name":"secret","position":1,"permission_overwrites":)" + hidden_overwrite + "}"));

  GatewayClient client(emulator);
  REQUIRE(client.next()["op"].GetInt() == 10);
  client.send(identify("Bearer " + token));
  auto ready = client.next_dispatch("READY");
  const auto& guilds = ready["d"]["guilds"];
  REQUIRE(guilds.Size() == 1);
  CHECK(str(guilds[0]["id"]) == guild);
  CHECK(str(guilds[0]["banner"]) == "b");
  REQUIRE(guilds[0]["channels"].Size() == 2);
  CHECK(str(guilds[0]["channels"][0]["name"]) == "general");
  const auto& hidden = guilds[0]["channels"][1];
  CHECK(str(hidden["id"]) == secret);
  CHECK(str(hidden["name"]) == "___hidden___");
  CHECK(hidden["flags"].GetUint64() == (std::uint64_t{1} << 17));

  const auto vault = id_of(
      admin(emulator, http_verb::post, "/guilds/" + guild + "/channels",
            R"({"name":"vault","position":2,"topic":"t","permission_overwrites":)" + hidden_overwrite + "}"));
  auto created = client.next_dispatch("CHANNEL_CREATE");
  CHECK(str(created["d"]["id"]) == vault);
  CHECK(str(created["d"]["name"]) == "___hidden___");
  CHECK_FALSE(created["d"].HasMember("topic"));
  REQUIRE(created["d"]["permission_overwrites"].Size() == 1);
  CHECK(str(created["d"]["permission_overwrites"][0]["deny"]) == "1024");

  const auto list = https_request(emulator, http_verb::get, "/api/v10/guilds/" + guild + "/channels", {},
                                  "Bearer " + token);
  REQUIRE(list.status == 200);
  const auto channels = parse(list.body);
  REQUIRE(channels.Size() == 1);
  CHECK(str(channels[0]["name"]) == "general");

  GatewayClient bot(emulator);
  REQUIRE(bot.next()["op"].GetInt() == 10);
  bot.send(identify(bot_token, 1 << 1));
  bot.next_dispatch("READY");
  const auto request = R"({"op":8,"d":{"guild_id":")" + guild + R"(","query":"","limit":0,"nonce":"x"}})";
  bot.send(request);
  auto chunk = bot.next_dispatch("GUILD_MEMBERS_CHUNK");
  CHECK(chunk["d"]["members"].Size() == 3);
  CHECK(str(chunk["d"]["nonce"]) == "x");
  bot.send(request);
  auto limited = bot.next();
  REQUIRE(limited["op"].GetInt() == 0);
  CHECK(str(limited["t"]) == "RATE_LIMITED");
  CHECK(limited["d"]["opcode"].GetInt() == 8);
  CHECK(limited["d"]["retry_after"].GetDouble() > 0.0);
  CHECK(limited["d"]["retry_after"].GetDouble() <= 30.0);
  CHECK(str(limited["d"]["meta"]["guild_id"]) == guild);
  CHECK(str(limited["d"]["meta"]["nonce"]) == "x");
}

}  // namespace gateway_guilds_socket_test
