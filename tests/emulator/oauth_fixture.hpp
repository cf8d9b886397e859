// A service with one game app and one consenting user, plus helpers for the OAuth2 and partner-sdk routes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "auth/code_challenge.hpp"
#include "core/form_encoding.hpp"
#include "core/random_token.hpp"
#include "service/emulator_service.hpp"
#include "test_support.hpp"

namespace platformpp::emulator::test {

inline constexpr const char* kRedirect = "http://127.0.0.1:53134/callback";
// 43 characters, every class of [A-Za-z0-9-._~].
inline const std::string kVerifier = "abcdefghijklmnopqrstuvwxyz0123456789-._~ABC";

using Params = std::vector<std::pair<std::string, std::string>>;

inline std::string form_body(const Params& params) {
  std::string body;
  for (const auto& [name, value] : params) {
    if (!body.empty()) body += '&';
    body += percent_encode(name) + "=" + percent_encode(value);
  }
  return body;
}

// The value of `name` in a URL's query, decoded ("" if absent).
inline std::string query_param(const std::string& url, const std::string& name) {
  const auto question = url.find('?');
  if (question == std::string::npos) return {};
  const auto fields = FormFields::parse(std::string_view(url).substr(question + 1));
  REQUIRE(fields);
  return fields->get(name).value_or("");
}

struct OAuthFixture {
  std::int64_t real_now = 1'795'000'000'000;
  FakeClock clock{[this] { return real_now; }, true};
  // Frozen time: every call lands in one rate-limit window, so the limits are lifted out of the way.
  EmulatorService service{
      clock, ServiceEndpoints{"wss://127.0.0.1:1234", "https://127.0.0.1:1234/api/v10", "127.0.0.1:1234"},
      RateLimitSettings{1'000'000, 1000, 0}};
  std::string user_id;
  std::string app_id;
  std::string client_secret;
  std::string bot_token;

  OAuthFixture() {
    user_id = create_user("player.one");
    const auto app = parse(call("POST", "/_emulator/apps", R"({"name":"Game"})").body);
    app_id = str(app["id"]);
    client_secret = str(app["client_secret"]);
    bot_token = str(app["bot_token"]);
  }

  HttpResponse call(std::string method, std::string target, std::string body = {}, HeaderList headers = {}) {
    const auto outcome = service.handle(
        make_request(std::move(method), std::move(target), std::move(body), std::move(headers)));
    REQUIRE(outcome.delivery == Outcome::Delivery::respond);
    return outcome.response;
  }

  std::string create_user(const std::string& username) {
    const auto response = call("POST", "/_emulator/users", R"({"username":")" + username + R"("})");
    REQUIRE(response.status == 200);
    return str(parse(response.body)["id"]);
  }

  Params authorize_params(const std::string& verifier = kVerifier) const {
    return {{"response_type", "code"},
            {"client_id", app_id},
            {"scope", "openid sdk.social_layer"},
            {"state", "st&ate 1"},
            {"redirect_uri", kRedirect},
            {"code_challenge", s256_code_challenge(verifier)},
            {"code_challenge_method", "S256"}};
  }

  // GET /_emulator/authorize; the "location" of a 200, or "" (with the failed status checked by callers).
  HttpResponse authorize_raw(const Params& params, const std::string& base = "/_emulator/authorize") {
    return call("GET", base + "?" + form_body(params));
  }
  std::string authorize_location(const Params& params) {
    const auto response = authorize_raw(params);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["location"]);
  }
  std::string authorize_code(const std::string& verifier = kVerifier) {
    auto code = query_param(authorize_location(authorize_params(verifier)), "code");
    REQUIRE_FALSE(code.empty());
    return code;
  }

  HttpResponse token(const Params& params, HeaderList headers = {}) {
    headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    return call("POST", "/api/v10/oauth2/token", form_body(params), std::move(headers));
  }
  HttpResponse exchange(const std::string& code, std::string verifier = kVerifier,
                        std::string redirect = kRedirect, Params extra = {}) {
    Params params = {{"grant_type", "authorization_code"},
                     {"client_id", app_id},
                     {"code", code},
                     {"redirect_uri", std::move(redirect)},
                     {"code_verifier", std::move(verifier)}};
    params.insert(params.end(), extra.begin(), extra.end());
    return token(params);
  }
  HttpResponse refresh(const std::string& refresh_token) {
    return token({{"grant_type", "refresh_token"}, {"client_id", app_id}, {"refresh_token", refresh_token}});
  }
  // A full authorize + exchange for the consenting user; the token response.
  rapidjson::Document login() {
    const auto response = exchange(authorize_code());
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return parse(response.body);
  }

  int me_status(const std::string& access_token) {
    return call("GET", "/api/v10/users/@me", {}, {{"Authorization", "Bearer " + access_token}}).status;
  }

  HttpResponse partner_token(const std::string& type, const std::string& external_token) {
    return call("POST", "/api/v10/partner-sdk/token",
                R"({"client_id":")" + app_id + R"(","external_auth_type":")" + type +
                    R"(","external_auth_token":")" + external_token + R"("})");
  }
  // The user behind an access token, via /users/@me.
  rapidjson::Document me(const std::string& access_token) {
    const auto response =
        call("GET", "/api/v10/users/@me", {}, {{"Authorization", "Bearer " + access_token}});
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return parse(response.body);
  }
};

inline std::string oauth_error_of(const HttpResponse& response) {
  const auto body = parse(response.body);
  REQUIRE(body.HasMember("error"));
  return str(body["error"]);
}

}  // namespace platformpp::emulator::test
