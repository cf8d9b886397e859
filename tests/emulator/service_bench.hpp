// An emulator service on a fake clock, without sockets, and the seeding every route test starts with: the
// route tests' fixtures derive from it (or hold one) instead of each building its own copy.
#pragma once

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <cstdint>
#include <string>
#include <utility>

#include "gateway/gateway.hpp"
#include "guild/permissions.hpp"
#include "service/emulator_service.hpp"
#include "test_support.hpp"

namespace platformpp::emulator::test {

/// 2026-11-18 (after the permission split): when the route tests' emulator starts unless told otherwise.
inline constexpr std::int64_t kBenchStart = 1795000000000;

/// How a bench's clock and rate limits run.
enum class Pace {
  /// Time stands at the start and moves only by clock.advance() or set(); rate limits out of the way, so a
  /// test meets only its route's own rules.
  frozen,
  /// Time is real_now, which the test moves; the platform's default rate limits apply.
  live,
};

/// An application made through /_emulator/apps: its id and its bot's user id and token.
struct BenchApp {
  /// The application's id.
  std::string id;
  /// Its bot user's id.
  std::string bot_id;
  /// Its bot's token (without "Bot ").
  std::string bot_token;
};

/// An EmulatorService on a FakeClock, requests through service.handle() without sockets, and the admin API's
/// seeding: users, applications, a guild with its roles, members and channels. Every helper REQUIREs what it
/// needs (a request answered at once; a seeding call's success), so a test reads only what it checks.
struct ServiceBench {
  /// An emulator whose clock starts at `start` (real_now then moves it under Pace::live).
  explicit ServiceBench(std::int64_t start = kBenchStart, Pace pace = Pace::frozen)
      : real_now(start),
        clock([this] { return real_now; }, pace == Pace::frozen),
        service(clock,
                ServiceEndpoints{"wss://127.0.0.1:1234", "https://127.0.0.1:1234/api/v10", "127.0.0.1:1234"},
                pace == Pace::frozen ? RateLimitSettings{1000000, 1000, 0} : RateLimitSettings{}) {}
  /// Not copied or moved: the clock reads this bench's real_now.
  ServiceBench(const ServiceBench&) = delete;
  /// Not copied or moved: the clock reads this bench's real_now.
  ServiceBench& operator=(const ServiceBench&) = delete;

  /// The "real" time the fake clock reads (under Pace::frozen only its start matters).
  std::int64_t real_now = kBenchStart;
  /// The service's clock.
  FakeClock clock;
  /// The emulator under test.
  EmulatorService service;
  /// The guild that role(), member() and channel() seed (guild() sets it when it is empty).
  std::string guild_id;
  /// How far real_now moves before each request: a Pace::live test paced under the rate limits (0: it
  /// stands).
  std::int64_t step_ms = 0;

  /// Any request, whatever its status; REQUIREs an answer now (not deferred, not a socket upgrade).
  HttpResponse raw(std::string method, std::string target, std::string body = {}, HeaderList headers = {}) {
    real_now += step_ms;
    const auto outcome = service.handle(
        make_request(std::move(method), std::move(target), std::move(body), std::move(headers)));
    REQUIRE(outcome.delivery == Outcome::Delivery::respond);
    return outcome.response;
  }
  /// raw() with this Authorization header ("Bot …" or "Bearer …"; none when empty).
  HttpResponse raw(std::string method, std::string target, std::string body,
                   const std::string& authorization) {
    HeaderList headers;
    if (!authorization.empty()) headers.emplace_back("Authorization", authorization);
    return raw(std::move(method), std::move(target), std::move(body), std::move(headers));
  }
  /// A call that must succeed (status below 300): the admin API's seeding and setup.
  HttpResponse call(std::string method, std::string target, std::string body = {}) {
    auto response = raw(std::move(method), std::move(target), std::move(body));
    REQUIRE_MESSAGE(response.status < 300, response.body);
    return response;
  }
  /// call(), its answer as JSON ({} for none).
  rapidjson::Document call_json(std::string method, std::string target, std::string body = {}) {
    const auto response = call(std::move(method), std::move(target), std::move(body));
    return parse(response.body.empty() ? std::string("{}") : response.body);
  }
  /// A request under /api/v10 with this Authorization ("Bot …" or "Bearer …") and then `headers`; a body
  /// goes as JSON unless they say otherwise.
  HttpResponse as(const std::string& authorization, std::string method, const std::string& path,
                  std::string body = {}, HeaderList headers = {}) {
    headers.insert(headers.begin(), {"Authorization", authorization});
    return raw(std::move(method), "/api/v10" + path, std::move(body), std::move(headers));
  }
  /// as() with Content-Type: application/json even without a body, as a bot library sends it.
  HttpResponse as_json(const std::string& authorization, std::string method, const std::string& path,
                       std::string body = {}) {
    return as(authorization, std::move(method), path, std::move(body),
              {{"Content-Type", "application/json"}});
  }
  /// REQUIREs a success; its body as JSON ({} for none: a 204).
  static rapidjson::Document ok(const HttpResponse& response) {
    REQUIRE_MESSAGE(response.status < 300, response.body);
    return parse(response.body.empty() ? std::string("{}") : response.body);
  }

  /// A new user named `name`; its id.
  std::string user(const std::string& name) {
    return str(parse(call("POST", "/_emulator/users", R"({"username":")" + name + R"("})").body)["id"]);
  }
  /// A new application named `name`: its whole answer (id, bot_user_id, bot_token, client_secret,
  /// verify_key).
  rapidjson::Document app_json(const std::string& name) {
    return parse(call("POST", "/_emulator/apps", R"({"name":")" + name + R"("})").body);
  }
  /// A new application named `name`: its id, bot user and bot token.
  BenchApp app(const std::string& name) {
    const auto json = app_json(name);
    return {str(json["id"]), str(json["bot_user_id"]), str(json["bot_token"])};
  }
  /// An access token of `user_id` for application `app_id` with these scopes, minted by the admin API.
  std::string token(const std::string& user_id, const std::string& app_id,
                    const std::string& scopes = "openid sdk.social_layer") {
    return str(parse(
        call("POST", "/_emulator/tokens",
             R"({"user_id":")" + user_id + R"(","app_id":")" + app_id + R"(","scopes":")" + scopes + R"("})")
            .body)["access_token"]);
  }
  /// A new guild owned by `owner`; `extra` is more JSON members ("," first). Its id, which becomes guild_id
  /// if that is still empty.
  std::string guild(const std::string& owner, const std::string& name = "Home",
                    const std::string& extra = {}) {
    auto id = str(parse(call("POST", "/_emulator/guilds",
                             R"({"name":")" + name + R"(","owner_id":")" + owner + "\"" + extra + "}")
                            .body)["id"]);
    if (guild_id.empty()) guild_id = id;
    return id;
  }
  /// A new role of guild_id with these permission bits (the admin's roles go on top); its id.
  std::string role(const std::string& name, std::uint64_t permissions) {
    return str(
        parse(call("POST", "/_emulator/guilds/" + guild_id + "/roles",
                   R"({"name":")" + name + R"(","permissions":")" + std::to_string(permissions) + R"("})")
                  .body)["id"]);
  }
  /// Adds `user_id` to guild_id (or to `guild`), with `role_id` when given.
  HttpResponse member(const std::string& user_id, const std::string& role_id = {},
                      const std::string& guild = {}) {
    return call("POST", "/_emulator/guilds/" + (guild.empty() ? guild_id : guild) + "/members",
                R"({"user_id":")" + user_id + "\"" +
                    (role_id.empty() ? "" : R"(,"roles":[")" + role_id + "\"]") + "}");
  }
  /// A new channel of guild_id from its JSON body; its id.
  std::string channel(const std::string& body) {
    return str(parse(call("POST", "/_emulator/guilds/" + guild_id + "/channels", body).body)["id"]);
  }

  /// Opens a gateway connection on `peer` and sends Identify with `token` (as the connection sends it: a bare
  /// bot token, "Bot …" or "Bearer …") and `intents`; `extra` is more members of its d ("," first). The
  /// connection's id; the caller checks what came back.
  std::uint64_t identify(GatewayPeer& peer, const std::string& token, std::uint64_t intents,
                         const std::string& extra = {}) {
    const auto id = service.gateway_opened(peer, "/?v=10&encoding=json");
    service.gateway_received(id,
                             R"({"op":2,"d":{"token":")" + token + R"(","properties":{},"intents":)" +
                                 std::to_string(intents) + extra + "}}",
                             true);
    return id;
  }
};

}  // namespace platformpp::emulator::test
