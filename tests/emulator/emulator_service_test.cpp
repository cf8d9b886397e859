// The emulator's request handling end to end, without sockets.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/snowflake.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace emulator_service_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

struct Fixture : ServiceBench {
  Fixture() : ServiceBench(kBenchStart, Pace::live) {}

  std::string create_user(const std::string& username) {
    const auto response = raw("POST", "/_emulator/users", R"({"username":")" + username + R"("})");
    REQUIRE(response.status == 200);
    return str(parse(response.body)["id"]);
  }

  rapidjson::Document create_app(const std::string& name) {
    const auto response = raw("POST", "/_emulator/apps", R"({"name":")" + name + R"("})");
    REQUIRE(response.status == 200);
    return parse(response.body);
  }

  std::string mint_token(const std::string& user_id, const std::string& app_id) {
    const auto response = raw("POST", "/_emulator/tokens",
                              R"({"user_id":")" + user_id + R"(","app_id":")" + app_id +
                                  R"(","scopes":"openid sdk.social_layer"})");
    REQUIRE(response.status == 200);
    return str(parse(response.body)["access_token"]);
  }
};

int error_code_of(const HttpResponse& response) {
  return parse(response.body)["code"].GetInt();
}

}  // namespace

TEST_CASE_FIXTURE(Fixture, "health") {
  const auto response = raw("GET", "/_emulator/health");
  CHECK(response.status == 200);
  const auto body = parse(response.body);
  CHECK(body["ok"].GetBool());
  CHECK(str(body["version"]) == "0.1.0");
  CHECK(body["uptime_ms"].IsInt64());
  CHECK_FALSE(response.header("X-RateLimit-Limit"));  // the admin API is not rate-limited
}

TEST_CASE_FIXTURE(Fixture, "routing errors: 404, 405 and unknown API versions") {
  auto response = raw("GET", "/api/v10/nope");
  CHECK(response.status == 404);
  CHECK(str(parse(response.body)["message"]) == "404: Not Found");
  CHECK(response.header("X-RateLimit-Bucket"));

  response = raw("POST", "/api/v10/gateway");
  CHECK(response.status == 405);
  CHECK(str(parse(response.body)["message"]) == "405: Method Not Allowed");

  response = raw("GET", "/api/v9/gateway");
  CHECK(response.status == 400);
  CHECK(error_code_of(response) == 50041);
  CHECK(str(parse(response.body)["message"]) == "Invalid API version");

  CHECK(raw("GET", "/").status == 404);
  CHECK(raw("GET", "/_emulator/nope").status == 404);
  CHECK(raw("PUT", "/_emulator/health").status == 405);
}

TEST_CASE_FIXTURE(Fixture, "gateway URL, with the query string ignored") {
  const auto response = raw("GET", "/api/v10/gateway?v=10");
  CHECK(response.status == 200);
  CHECK(response.header("Content-Type") == "application/json");
  CHECK(str(parse(response.body)["url"]) == "wss://127.0.0.1:1234");
}

TEST_CASE_FIXTURE(Fixture, "users/@me with bearer and bot tokens, expiry and revocation") {
  const auto user_id = create_user("player.one");
  const auto app = create_app("My Game");
  const auto token = mint_token(user_id, str(app["id"]));

  auto response = raw("GET", "/api/v10/users/@me", {}, {{"Authorization", "Bearer " + token}});
  REQUIRE(response.status == 200);
  auto user = parse(response.body);
  CHECK(str(user["id"]) == user_id);
  CHECK(str(user["username"]) == "player.one");
  CHECK(user["global_name"].IsNull());
  CHECK(str(user["discriminator"]) == "0");
  CHECK(user["avatar"].IsNull());
  CHECK_FALSE(user["bot"].GetBool());
  CHECK(user["flags"].GetInt() == 0);
  CHECK(user["premium_type"].GetInt() == 0);

  response = raw("GET", "/api/v10/users/@me", {}, {{"Authorization", "Bot " + str(app["bot_token"])}});
  REQUIRE(response.status == 200);
  user = parse(response.body);
  CHECK(user["bot"].GetBool());
  CHECK(str(user["id"]) == str(app["bot_user_id"]));

  response = raw("GET", "/api/v10/users/@me");
  CHECK(response.status == 401);
  CHECK(str(parse(response.body)["message"]) == "401: Unauthorized");
  CHECK(raw("GET", "/api/v10/users/@me", {}, {{"Authorization", "Bearer nope"}}).status == 401);
  CHECK(raw("GET", "/api/v10/users/@me", {}, {{"Authorization", token}}).status == 401);

  // Expiry by the fake clock: valid 1 ms before 604800 s, invalid at it.
  clock.advance(604'800'000 - 1);
  CHECK(raw("GET", "/api/v10/users/@me", {}, {{"Authorization", "Bearer " + token}}).status == 200);
  clock.advance(1);
  CHECK(raw("GET", "/api/v10/users/@me", {}, {{"Authorization", "Bearer " + token}}).status == 401);

  const auto fresh = mint_token(user_id, str(app["id"]));
  CHECK(raw("DELETE", "/_emulator/tokens/" + fresh).status == 204);
  CHECK(raw("GET", "/api/v10/users/@me", {}, {{"Authorization", "Bearer " + fresh}}).status == 401);
  CHECK(raw("DELETE", "/_emulator/tokens/" + fresh).status == 204);  // idempotent
}

TEST_CASE_FIXTURE(Fixture, "creating users validates username and uniqueness") {
  const auto id = create_user("ab");
  CHECK(decode_snowflake(std::stoull(id)).timestamp_ms == clock.now_ms());

  auto response = raw("POST", "/_emulator/users", R"({"username":"ab"})");
  CHECK(response.status == 400);
  auto body = parse(response.body);
  CHECK(body["code"].GetInt() == 50035);
  CHECK(str(body["errors"]["username"]["_errors"][0]["code"]) == "USERNAME_ALREADY_TAKEN");

  response = raw("POST", "/_emulator/users", R"({"username":"a"})");
  CHECK(str(parse(response.body)["errors"]["username"]["_errors"][0]["code"]) == "BASE_TYPE_BAD_LENGTH");
  response = raw("POST", "/_emulator/users", R"({"global_name":"X"})");
  CHECK(str(parse(response.body)["errors"]["username"]["_errors"][0]["code"]) == "BASE_TYPE_REQUIRED");
  response = raw("POST", "/_emulator/users", R"({"username":5})");
  CHECK(str(parse(response.body)["errors"]["username"]["_errors"][0]["code"]) == "BASE_TYPE_STRING");

  response = raw("POST", "/_emulator/users",
                 R"({"username":")" + std::string(32, 'z') + R"(","global_name":"Zed"})");
  CHECK(response.status == 200);
  CHECK(str(parse(response.body)["global_name"]) == "Zed");
  CHECK(raw("POST", "/_emulator/users", R"({"username":")" + std::string(33, 'y') + R"("})").status == 400);
}

TEST_CASE_FIXTURE(Fixture, "JSON bodies: content type, syntax and root type") {
  auto response = raw("POST", "/_emulator/users", R"({"username":"abc"})", {{"Content-Type", "text/plain"}});
  CHECK(response.status == 415);
  response = raw("POST", "/_emulator/users", R"({"username":)");
  CHECK(response.status == 400);
  CHECK(error_code_of(response) == 50109);
  CHECK(str(parse(response.body)["message"]) == "The request body contains invalid JSON.");
  CHECK(error_code_of(raw("POST", "/_emulator/users", R"({"a":1} trailing)")) == 50109);
  CHECK(error_code_of(raw("POST", "/_emulator/users", "[1,2]")) == 50035);
  CHECK(error_code_of(raw("POST", "/_emulator/users", std::string(100'000, '['))) ==
        50109);  // no stack overflow
  CHECK(error_code_of(raw("POST", "/_emulator/users", "{\"username\":\"\xff\xfe\"}")) == 50109);  // bad UTF-8
  response = raw("POST", "/_emulator/users", R"({"username":"abc"})",
                 {{"Content-Type", "application/json; charset=utf-8"}});
  CHECK(response.status == 200);
}

TEST_CASE_FIXTURE(Fixture, "creating apps validates name and parent") {
  auto response = raw("POST", "/_emulator/apps", R"({"name":""})");
  CHECK(response.status == 400);
  CHECK(str(parse(response.body)["errors"]["name"]["_errors"][0]["code"]) == "BASE_TYPE_BAD_LENGTH");
  CHECK(raw("POST", "/_emulator/apps", R"({"name":")" + std::string(101, 'n') + R"("})").status == 400);
  const auto parent = create_app(std::string(100, 'n'));
  CHECK(str(parent["client_secret"]).size() >= 43);  // 32 random bytes in base64url
  CHECK(parent["public_client"].GetBool());
  CHECK_FALSE(parent.HasMember("parent_id"));

  response = raw("POST", "/_emulator/apps", R"({"name":"child","parent_id":")" + str(parent["id"]) + R"("})");
  REQUIRE(response.status == 200);
  CHECK(str(parse(response.body)["parent_id"]) == str(parent["id"]));
  response = raw("POST", "/_emulator/apps", R"({"name":"orphan","parent_id":"123"})");
  CHECK(response.status == 404);
  CHECK(error_code_of(response) == 10002);
}

TEST_CASE_FIXTURE(Fixture, "minting tokens") {
  const auto user_id = create_user("minter");
  const auto app_id = str(create_app("game")["id"]);
  auto response = raw("POST", "/_emulator/tokens",
                      R"({"user_id":")" + user_id + R"(","app_id":")" + app_id +
                          R"(","scopes":["openid","sdk.social_layer"]})");
  REQUIRE(response.status == 200);
  auto body = parse(response.body);
  CHECK(str(body["token_type"]) == "Bearer");
  CHECK(body["expires_in"].GetInt() == 604800);
  CHECK(str(body["scope"]) == "openid sdk.social_layer");
  CHECK(str(body["access_token"]).size() >= 43);
  CHECK(str(body["access_token"])
            .find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
        std::string::npos);
  CHECK(str(body["refresh_token"]) != str(body["access_token"]));

  response =
      raw("POST", "/_emulator/tokens", R"({"user_id":"1","app_id":")" + app_id + R"(","scopes":"openid"})");
  CHECK(response.status == 404);
  CHECK(error_code_of(response) == 10013);
  response =
      raw("POST", "/_emulator/tokens", R"({"user_id":")" + user_id + R"(","app_id":"1","scopes":"openid"})");
  CHECK(response.status == 404);
  CHECK(error_code_of(response) == 10002);

  response =
      raw("POST", "/_emulator/tokens", R"({"user_id":")" + user_id + R"(","app_id":"1","scopes":["ok",3]})");
  body = parse(response.body);
  CHECK(body["code"].GetInt() == 50035);
  CHECK(body["errors"]["scopes"]["1"]["_errors"].IsArray());
  response =
      raw("POST", "/_emulator/tokens", R"({"user_id":")" + user_id + R"(","app_id":"1","scopes":"  "})");
  CHECK(parse(response.body)["errors"]["scopes"]["_errors"].IsArray());
  response = raw("POST", "/_emulator/tokens", R"({})");
  body = parse(response.body);
  CHECK(body["errors"].HasMember("user_id"));
  CHECK(body["errors"].HasMember("app_id"));
  CHECK(body["errors"].HasMember("scopes"));
}

TEST_CASE_FIXTURE(Fixture, "admin clock: get, advance, set, freeze and no going back") {
  auto body = parse(raw("GET", "/_emulator/clock").body);
  CHECK(body["now_ms"].GetInt64() == real_now);
  CHECK(str(body["now"]) == format_rfc3339_ms(real_now));
  CHECK_FALSE(body["frozen"].GetBool());

  body = parse(raw("POST", "/_emulator/clock", R"({"advance_ms":3600000,"frozen":true})").body);
  CHECK(body["now_ms"].GetInt64() == real_now + 3'600'000);
  CHECK(body["frozen"].GetBool());
  real_now += 5000;
  CHECK(parse(raw("GET", "/_emulator/clock").body)["now_ms"].GetInt64() == real_now - 5000 + 3'600'000);

  body = parse(raw("POST", "/_emulator/clock", R"({"now":"2030-01-01T00:00:00.000Z"})").body);
  CHECK(str(body["now"]) == "2030-01-01T00:00:00.000Z");

  auto response = raw("POST", "/_emulator/clock", R"({"now":"2029-12-31T23:59:59.999Z"})");
  CHECK(response.status == 400);
  CHECK(parse(response.body)["errors"]["now"]["_errors"].IsArray());
  CHECK(raw("POST", "/_emulator/clock", R"({"advance_ms":-1})").status == 400);
  CHECK(raw("POST", "/_emulator/clock", R"({"now":"yesterday"})").status == 400);
  CHECK(raw("POST", "/_emulator/clock", R"({"frozen":"yes"})").status == 400);
  CHECK(parse(raw("GET", "/_emulator/clock").body)["now_ms"].GetInt64() ==
        *parse_rfc3339("2030-01-01T00:00:00Z"));
}

TEST_CASE_FIXTURE(Fixture, "API responses carry rate-limit headers and 429 past the limit") {
  raw("POST", "/_emulator/clock", R"({"frozen":true})");
  REQUIRE(
      raw("POST", "/_emulator/ratelimits", R"({"route":"GET /gateway","limit":1,"window_ms":300})").status ==
      200);
  auto response = raw("GET", "/api/v10/gateway");
  CHECK(response.status == 200);
  CHECK(response.header("X-RateLimit-Limit") == "1");
  CHECK(response.header("X-RateLimit-Remaining") == "0");
  CHECK(response.header("X-RateLimit-Reset-After") == "0.300");
  CHECK(response.header("X-RateLimit-Reset") == format_seconds(clock.now_ms() + 300));
  const auto bucket = std::string(*response.header("X-RateLimit-Bucket"));

  raw("POST", "/_emulator/clock", R"({"advance_ms":100})");
  response = raw("GET", "/api/v10/gateway");
  CHECK(response.status == 429);
  CHECK(response.header("Retry-After") == "1");
  CHECK(response.header("X-RateLimit-Scope") == "user");
  CHECK_FALSE(response.header("X-RateLimit-Global"));
  CHECK(response.header("X-RateLimit-Bucket") == bucket);
  auto body = parse(response.body);
  CHECK(str(body["message"]) == "You are being rate limited.");
  CHECK(body["retry_after"].GetDouble() == doctest::Approx(0.2));
  CHECK_FALSE(body["global"].GetBool());

  raw("POST", "/_emulator/clock", R"({"advance_ms":200})");
  CHECK(raw("GET", "/api/v10/gateway").status == 200);

  REQUIRE(raw("POST", "/_emulator/ratelimits", R"({"global_per_second":2})").status == 200);
  CHECK(raw("GET", "/api/v10/nope", {}, {{"Authorization", "Bearer x"}}).status == 404);
  CHECK(raw("GET", "/api/v10/users/@me", {}, {{"Authorization", "Bearer x"}}).status == 401);
  response = raw("GET", "/api/v10/users/@me", {}, {{"Authorization", "Bearer x"}});
  CHECK(response.status == 429);
  CHECK(response.header("X-RateLimit-Global") == "true");
  CHECK(response.header("X-RateLimit-Scope") == "global");
  CHECK(parse(response.body)["global"].GetBool());

  CHECK(raw("DELETE", "/_emulator/ratelimits").status == 204);
  body = parse(raw("GET", "/_emulator/ratelimits").body);
  CHECK(body["global_per_second"].GetInt() == 50);
  CHECK(body["rules"].Empty());
  CHECK(raw("GET", "/api/v10/gateway").header("X-RateLimit-Limit") == "50");
  CHECK(raw("POST", "/_emulator/ratelimits", R"({"route":"GET gateway","limit":1,"window_ms":1})").status ==
        400);
  CHECK(raw("POST", "/_emulator/ratelimits", R"({"route":"GET /gateway","limit":0,"window_ms":1})").status ==
        400);
  CHECK(raw("POST", "/_emulator/ratelimits", R"({})").status == 400);
}

TEST_CASE_FIXTURE(Fixture, "faults: status, 429, raw body, drop, truncate, delay and count") {
  auto add = [&](const std::string& json) {
    const auto response = raw("POST", "/_emulator/faults", json);
    REQUIRE(response.status == 200);
    return str(parse(response.body)["id"]);
  };

  add(R"({"route":"GET /gateway","status":503})");
  auto response = raw("GET", "/api/v10/gateway");
  CHECK(response.status == 503);
  CHECK(error_code_of(response) == 0);
  CHECK(raw("GET", "/api/v10/gateway").status == 200);  // count defaults to 1

  add(R"({"route":"* /users/*","status":429,"retry_after":2.5,"global":true})");
  response = raw("GET", "/api/v10/users/@me");
  CHECK(response.status == 429);
  CHECK(response.header("Retry-After") == "3");
  CHECK(response.header("X-RateLimit-Remaining") == "0");
  CHECK(response.header("X-RateLimit-Reset-After") == "2.500");
  CHECK(response.header("X-RateLimit-Global") == "true");
  CHECK(response.header("X-RateLimit-Scope") == "global");
  CHECK(parse(response.body)["retry_after"].GetDouble() == doctest::Approx(2.5));

  add(R"({"route":"GET /gateway","body":"{not json","count":2})");
  response = raw("GET", "/api/v10/gateway");
  CHECK(response.status == 200);
  CHECK(response.body == "{not json");
  CHECK(response.header("Content-Type") == "application/json");
  CHECK(raw("GET", "/api/v10/gateway").body == "{not json");
  add(R"({"route":"GET /gateway","body":"<html>","content_type":"text/html","status":502})");
  response = raw("GET", "/api/v10/gateway");
  CHECK(response.status == 502);
  CHECK(response.header("Content-Type") == "text/html");

  add(R"({"route":"GET /gateway","drop":true})");
  CHECK(service.handle(make_request("GET", "/api/v10/gateway")).delivery == Outcome::Delivery::drop);
  add(R"({"route":"GET /gateway","truncate":true})");
  auto outcome = service.handle(make_request("GET", "/api/v10/gateway"));
  CHECK(outcome.delivery == Outcome::Delivery::truncate);
  CHECK(outcome.response.status == 200);

  add(R"({"route":"GET /gateway","delay_ms":250})");
  const auto plan = service.plan(make_request("GET", "/api/v10/gateway"));
  CHECK(plan.delay.count() == 250);
  CHECK(service.complete(make_request("GET", "/api/v10/gateway"), plan).response.status == 200);

  // Faults apply to the API only, not to the admin API.
  add(R"({"route":"* /**","status":500,"count":0})");
  CHECK(raw("GET", "/_emulator/health").status == 200);
  CHECK(raw("GET", "/api/v10/gateway").status == 500);
  CHECK(raw("GET", "/api/v10/gateway").status == 500);
  auto listed = parse(raw("GET", "/_emulator/faults").body);
  REQUIRE(listed["faults"].Size() == 1);
  CHECK(str(listed["faults"][0]["route"]) == "* /**");
  CHECK(listed["faults"][0]["count"].GetInt() == 0);
  CHECK(raw("DELETE", "/_emulator/faults").status == 204);
  CHECK(parse(raw("GET", "/_emulator/faults").body)["faults"].Empty());
  CHECK(raw("GET", "/api/v10/gateway").status == 200);

  response = raw("POST", "/_emulator/faults", R"({"route":"/gateway","status":99,"count":-1})");
  CHECK(response.status == 400);
  const auto body = parse(response.body);
  CHECK(body["errors"].HasMember("route"));
  CHECK(body["errors"].HasMember("status"));
  CHECK(body["errors"].HasMember("count"));
}

TEST_CASE_FIXTURE(Fixture, "random input never throws and always gets a well-formed answer") {
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const std::vector<std::string> targets = {"/_emulator/users",
                                            "/_emulator/apps",
                                            "/_emulator/tokens",
                                            "/_emulator/clock",
                                            "/_emulator/faults",
                                            "/_emulator/ratelimits",
                                            "/api/v10/users/@me",
                                            "/api/v10/gateway",
                                            "/api/v10",
                                            "/api/v",
                                            "/_emulator/tokens/%00",
                                            "//"};
  const std::vector<std::string> fragments = {"{",
                                              "}",
                                              "[",
                                              "]",
                                              "\"username\"",
                                              ":",
                                              ",",
                                              "\"route\"",
                                              "\"* /**\"",
                                              "1e999",
                                              "-1",
                                              "null",
                                              "true",
                                              "\"\\u0000\"",
                                              "\xff",
                                              "\"scopes\"",
                                              "\"now\"",
                                              "\"advance_ms\"",
                                              "9223372036854775807",
                                              "\"status\""};
  const std::vector<std::string> methods = {"GET", "POST", "DELETE", "PUT", "PATCH", "BREW"};
  raw("DELETE", "/_emulator/faults");
  for (int i = 0; i < 3000; ++i) {
    std::string body;
    const auto pieces = next() % 12;
    for (std::uint64_t j = 0; j < pieces; ++j)
      body += fragments[next() % fragments.size()];
    auto request = make_request(methods[next() % methods.size()], targets[next() % targets.size()], body);
    Outcome outcome;
    CHECK_NOTHROW(outcome = service.handle(request));
    if (outcome.delivery != Outcome::Delivery::respond)
      continue;  // a random fault body may ask for drop/truncate
    CHECK(outcome.response.status >= 200);
    CHECK(outcome.response.status <= 599);
  }
}

}  // namespace emulator_service_test
