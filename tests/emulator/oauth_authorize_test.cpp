// /oauth2/authorize (the headless consent page) and /_emulator/authorize, /_emulator/consent.
#include <doctest/doctest.h>

#include "oauth_fixture.hpp"

namespace oauth_authorize_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {
Params with(Params params, const std::string& name, const std::string& value) {
  bool replaced = false;
  for (auto& [key, existing] : params) {
    if (key == name) existing = value, replaced = true;
  }
  if (!replaced) params.emplace_back(name, value);
  return params;
}
Params without(Params params, const std::string& name) {
  std::erase_if(params, [&](const auto& entry) { return entry.first == name; });
  return params;
}
}  // namespace

TEST_CASE_FIXTURE(OAuthFixture, "the web page redirects with a code and the echoed, encoded state") {
  const auto response = authorize_raw(authorize_params(), "/oauth2/authorize");
  REQUIRE(response.status == 302);
  const auto location = std::string(*response.header("Location"));
  CHECK(location.starts_with(std::string(kRedirect) + "?code="));
  CHECK(location.ends_with("&state=st%26ate%201"));
  CHECK(query_param(location, "state") == "st&ate 1");
  CHECK_FALSE(response.header("X-RateLimit-Limit"));  // a web page, not the API

  // The admin twin answers the same location as JSON; without state nothing is echoed.
  const auto json_location = authorize_location(without(authorize_params(), "state"));
  CHECK(json_location.find("state=") == std::string::npos);
  CHECK(query_param(json_location, "code").size() >= 43);
  CHECK(call("POST", "/oauth2/authorize").status == 405);
}

TEST_CASE_FIXTURE(OAuthFixture, "client and redirect URI problems are shown, not redirected") {
  auto response = authorize_raw(with(authorize_params(), "client_id", "123"));
  CHECK(response.status == 400);
  CHECK(oauth_error_of(response) == "invalid_request");
  CHECK(str(parse(response.body)["error_description"]) == "Unknown client_id.");
  CHECK(authorize_raw(without(authorize_params(), "client_id")).status == 400);
  CHECK(authorize_raw(without(authorize_params(), "redirect_uri")).status == 400);
  CHECK(authorize_raw(authorize_params(), "/oauth2/authorize").status == 302);

  // Loopback on any port and path, custom-scheme callbacks: always allowed. Others must be registered.
  for (const char* uri :
       {"http://127.0.0.1/callback", "http://127.0.0.1:1/x/y", "http://127.0.0.1:65535",
        "http://[::1]:8080/cb", "com.example.game:/authorize/callback", "discord-123:/authorize/callback"}) {
    CAPTURE(uri);
    CHECK(authorize_raw(with(authorize_params(), "redirect_uri", uri)).status == 200);
  }
  for (const char* uri : {"https://127.0.0.1/callback", "http://127.0.0.1.evil.com/cb",
                          "http://127.0.0.1:99999/", "http://127.0.0.1:/cb", "http://localhost:80/cb",
                          "https://game.example/cb", "http://127.0.0.1/cb#frag", "https:/authorize/callback",
                          "app:/authorize/other", "1app:/authorize/callback"}) {
    CAPTURE(uri);
    response = authorize_raw(with(authorize_params(), "redirect_uri", uri));
    CHECK(response.status == 400);
    CHECK(oauth_error_of(response) == "invalid_request");
  }

  const auto app = parse(
      call("POST", "/_emulator/apps", R"({"name":"Web","redirect_uris":["https://game.example/cb"]})").body);
  CHECK(str(app["redirect_uris"][0]) == "https://game.example/cb");
  auto params = with(authorize_params(), "client_id", str(app["id"]));
  CHECK(authorize_raw(with(params, "redirect_uri", "https://game.example/cb")).status == 200);
  CHECK(authorize_raw(with(params, "redirect_uri", "https://game.example/cb2")).status == 400);
  // With exactly one registered URI, redirect_uri may be left out.
  CHECK(authorize_location(without(params, "redirect_uri")).starts_with("https://game.example/cb?code="));

  response = call("POST", "/_emulator/apps", R"({"name":"Bad","redirect_uris":["no-scheme","x#y",5]})");
  CHECK(response.status == 400);
  const auto document = parse(response.body);  // keep it alive: GetObject() is a view into it
  const auto errors = document["errors"]["redirect_uris"].GetObject();
  CHECK(errors.HasMember("0"));
  CHECK(errors.HasMember("1"));
  CHECK(errors.HasMember("2"));
}

TEST_CASE_FIXTURE(OAuthFixture, "request errors go back to the redirect URI") {
  auto error_of = [&](const Params& params) {
    const auto location = authorize_location(params);
    CHECK(location.starts_with(kRedirect));
    CHECK(query_param(location, "code").empty());
    CHECK(query_param(location, "state") == "st&ate 1");
    CHECK_FALSE(query_param(location, "error_description").empty());
    return query_param(location, "error");
  };
  CHECK(error_of(with(authorize_params(), "response_type", "token")) == "unsupported_response_type");
  CHECK(error_of(without(authorize_params(), "response_type")) == "unsupported_response_type");
  CHECK(error_of(without(authorize_params(), "scope")) == "invalid_scope");
  CHECK(error_of(with(authorize_params(), "scope", "   ")) == "invalid_scope");
  CHECK(error_of(with(authorize_params(), "code_challenge_method", "plain")) == "invalid_request");
  CHECK(error_of(without(authorize_params(), "code_challenge_method")) == "invalid_request");
  CHECK(error_of(without(authorize_params(), "code_challenge")) == "invalid_request");
  CHECK(error_of(with(authorize_params(), "code_challenge", "short")) == "invalid_request");
  // prompt is accepted (and ignored: consent is always given headlessly).
  CHECK_FALSE(query_param(authorize_location(with(authorize_params(), "prompt", "none")), "code").empty());
  CHECK(authorize_raw(with(authorize_params(), "state", "a")).status == 200);
  CHECK(call("GET", "/_emulator/authorize?client_id=" + app_id + "&client_id=" + app_id).status == 400);
}

TEST_CASE_FIXTURE(OAuthFixture, "consent: default user, chosen user, deny") {
  // Default: the first user created; the code is bound to them.
  auto tokens = login();
  CHECK(str(me(str(tokens["access_token"]))["id"]) == user_id);

  const auto second = create_user("player.two");
  auto response = call("POST", "/_emulator/consent", R"({"user_id":")" + second + R"("})");
  REQUIRE(response.status == 200);
  CHECK(str(parse(response.body)["user_id"]) == second);
  CHECK_FALSE(parse(response.body)["deny"].GetBool());
  tokens = login();
  CHECK(str(me(str(tokens["access_token"]))["id"]) == second);

  response = call("POST", "/_emulator/consent", R"({"deny":true})");
  CHECK(parse(response.body)["deny"].GetBool());
  const auto location = authorize_location(authorize_params());
  CHECK(query_param(location, "error") == "access_denied");
  CHECK_FALSE(query_param(location, "error_description").empty());
  CHECK(query_param(location, "state") == "st&ate 1");
  CHECK(query_param(location, "code").empty());
  call("POST", "/_emulator/consent", R"({})");  // deny resets to false
  CHECK_FALSE(query_param(authorize_location(authorize_params()), "code").empty());

  CHECK(call("POST", "/_emulator/consent", R"({"user_id":"1"})").status == 404);
  const auto app = parse(call("POST", "/_emulator/apps", R"({"name":"Other"})").body);
  response = call("POST", "/_emulator/consent", R"({"user_id":")" + str(app["bot_user_id"]) + R"("})");
  CHECK(response.status == 400);
  CHECK(parse(response.body)["code"].GetInt() == 50035);
}

TEST_CASE("authorize without any user is a 400") {
  FakeClock clock;
  EmulatorService service{clock, ServiceEndpoints{"wss://x", "https://x/api/v10", "x"}};
  const auto app =
      parse(service.handle(make_request("POST", "/_emulator/apps", R"({"name":"G"})")).response.body);
  const auto response =
      service
          .handle(make_request("GET", "/oauth2/authorize?response_type=code&scope=openid&client_id=" +
                                          str(app["id"]) + "&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb"))
          .response;
  CHECK(response.status == 400);
  CHECK(str(parse(response.body)["error"]) == "invalid_request");
  CHECK(str(parse(response.body)["error_description"]).find("consent") != std::string::npos);
}

}  // namespace oauth_authorize_test
