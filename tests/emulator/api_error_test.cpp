#include <doctest/doctest.h>

#include "core/api_error.hpp"
#include "test_support.hpp"

namespace api_error_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

TEST_CASE("error bodies without field errors have code and message only") {
  const auto body = parse(error_body(10013, "Unknown User"));
  CHECK(body["code"].GetInt() == 10013);
  CHECK(str(body["message"]) == "Unknown User");
  CHECK_FALSE(body.HasMember("errors"));
}

TEST_CASE("field errors nest along the JSON path and end in _errors") {
  FieldErrors errors;
  errors.add({"username"}, required_field_issue());
  errors.add({"scopes", "1"}, {"BASE_TYPE_STRING", "Must be a string."});
  errors.add({"scopes", "1"}, {"OTHER", "Second issue."});
  const auto response = invalid_form_body(errors);
  CHECK(response.status == 400);
  CHECK(response.header("Content-Type") == "application/json");
  const auto body = parse(response.body);
  CHECK(body["code"].GetInt() == 50035);
  CHECK(str(body["message"]) == "Invalid Form Body");
  const auto& username = body["errors"]["username"]["_errors"];
  REQUIRE(username.IsArray());
  CHECK(str(username[0]["code"]) == "BASE_TYPE_REQUIRED");
  CHECK(str(username[0]["message"]) == "This field is required");
  const auto& scope = body["errors"]["scopes"]["1"]["_errors"];
  REQUIRE(scope.Size() == 2);
  CHECK(str(scope[1]["code"]) == "OTHER");
}

TEST_CASE("status errors use code 0 and the status line") {
  auto body = parse(status_error(404).body);
  CHECK(body["code"].GetInt() == 0);
  CHECK(str(body["message"]) == "404: Not Found");
  body = parse(status_error(405).body);
  CHECK(str(body["message"]) == "405: Method Not Allowed");
  CHECK(str(parse(status_error(401).body)["message"]) == "401: Unauthorized");
}

}  // namespace api_error_test
