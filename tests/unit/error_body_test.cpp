// The platform's error bodies, parsed into ClientResult.
#include "json/error_body.hpp"
#include "net/http_result.hpp"

#include <doctest/doctest.h>

namespace error_body_test {

using platformpp::ErrorType;
using platformpp::json::ParseErrorResponse;

TEST_CASE("nested errors are flattened to field paths") {
  auto d = ParseErrorResponse(400, R"({"code": 50035, "message": "Invalid Form Body", "errors": {
    "activity": {"state": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 2 and 128 in length."}]}},
    "members": {"3": {"id": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}}}}})",
                              std::nullopt);
  CHECK(d.type == ErrorType::HTTPError);
  CHECK(d.status == 400);
  CHECK(d.errorCode == 50035);
  CHECK(d.error == "Invalid Form Body");
  CHECK_FALSE(d.retryable);
  REQUIRE(d.fieldErrors.size() == 2);
  CHECK(d.fieldErrors[0].path == "activity.state");
  CHECK(d.fieldErrors[0].code == "BASE_TYPE_BAD_LENGTH");
  CHECK(d.fieldErrors[1].path == "members.3.id");
}

TEST_CASE("429 bodies give retry_after and are retryable") {
  auto d = ParseErrorResponse(
      429, R"({"message": "You are being rate limited.", "retry_after": 0.25, "global": false})", 1.0);
  CHECK(d.retryable);
  CHECK(d.retryAfter == doctest::Approx(0.25));
  auto header = ParseErrorResponse(429, "not json", 2.0);
  CHECK(header.retryAfter == doctest::Approx(2.0));
}

TEST_CASE("OAuth2 errors keep their error code") {
  auto d = ParseErrorResponse(
      400, R"({"error": "invalid_grant", "error_description": "Invalid refresh token"})", std::nullopt);
  CHECK(d.oauthError == "invalid_grant");
  CHECK(d.error == "Invalid refresh token");
}

TEST_CASE("bodies that are not the platform's shape still give a clean error") {
  for (const char* body : {"", "<html>oops</html>", "[1,2]", "{\"code\": \"nan\"}", "{\"errors\": 5}", "{",
                           "{\"message\": 12}"}) {
    CAPTURE(body);
    auto d = ParseErrorResponse(502, body, std::nullopt);
    CHECK(d.status == 502);
    CHECK(d.retryable);
    CHECK_FALSE(d.error.empty());
  }
}

TEST_CASE("deep nesting does not overflow the stack") {
  std::string deep = "{\"errors\":";
  for (int i = 0; i < 100000; ++i)
    deep += "{\"a\":";
  deep += "1";
  for (int i = 0; i < 100000; ++i)
    deep += "}";
  deep += "}";
  auto d = ParseErrorResponse(400, deep, std::nullopt);
  CHECK(d.fieldErrors.empty());
}

TEST_CASE("JSON routes refuse a wrong content type and bad JSON") {
  platformpp::net::HttpResponse response;
  response.status = 200;
  response.headers = {{"Content-Type", "text/html"}};
  response.body = "{}";
  platformpp::json::Document document;
  auto wrongType = platformpp::net::ParseJsonResponse(response, document);
  CHECK(wrongType.Type() == ErrorType::HTTPError);
  CHECK(wrongType.Error().find("Content-Type") != std::string::npos);
  response.headers = {{"content-type", "application/json; charset=utf-8"}};
  response.body = "{\"id\": ";
  auto badJson = platformpp::net::ParseJsonResponse(response, document);
  CHECK(badJson.Type() == ErrorType::HTTPError);
  CHECK(badJson.Error().find("invalid JSON") != std::string::npos);
  response.body = "{\"id\": \"1\"}";
  CHECK(platformpp::net::ParseJsonResponse(response, document).Successful());
}

}  // namespace error_body_test
