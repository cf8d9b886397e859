// The conformance check itself: it must catch what it is there to catch, or every run it passes says nothing.
#include <doctest/doctest.h>

#include <string>

#include "gateway_dispatch_conformance.hpp"
#include "openapi_conformance.hpp"

namespace platformpp::emulator::test::openapi_conformance_test {

const std::string kDirectory = PLATFORMPP_OPENAPI_DIR;

OpenApiConformance::Report answer(std::string_view method, std::string_view route, int status,
                                  std::string_view body, bool divergences = true) {
  OpenApiConformance conformance(kDirectory + "/openapi-subset.json");
  if (divergences) conformance.apply_divergences(kDirectory + "/schema-divergences.json");
  conformance.check(method, route, status, body);
  return conformance.report();
}

OpenApiConformance::Report request(std::string_view method, std::string_view url, std::string_view body) {
  OpenApiConformance conformance(kDirectory + "/openapi-subset.json");
  conformance.apply_divergences(kDirectory + "/schema-divergences.json");
  conformance.check_request(method, url, body.empty() ? "" : "application/json", body);
  return conformance.report();
}

constexpr std::string_view kUser =
    R"({"id":"1","username":"a","global_name":null,"discriminator":"0","avatar":null,"public_flags":0,"flags":0,"mfa_enabled":false,"locale":"en-US"})";

TEST_CASE("conformance: a response missing a required member is a mismatch that names it") {
  const std::string lobby = R"({"id":"5","application_id":"6","metadata":null,"members":[],"flags":0})";
  CHECK(answer("GET", "/lobbies/{lobby_id}", 200, lobby).mismatch_count == 0);
  const auto missing =
      answer("GET", "/lobbies/{lobby_id}", 200, R"({"id":"5","metadata":null,"members":[],"flags":0})");
  REQUIRE(missing.mismatches.count("GET /lobbies/{lobby_id} 200") == 1);
  CHECK(missing.mismatches.at("GET /lobbies/{lobby_id} 200")[0].find("missing: application_id") !=
        std::string::npos);
  // null where the schema allows only absence
  CHECK(answer(
            "GET", "/lobbies/{lobby_id}", 200,
            R"({"id":"5","application_id":"6","metadata":null,"members":[],"flags":0,"linked_channel":null})")
            .mismatch_count == 1);
  CHECK(answer("GET", "/users/@me", 200, kUser).mismatch_count == 0);
}

TEST_CASE("conformance: a status the route does not document, and an undocumented route") {
  const auto report = answer("POST", "/lobbies/{lobby_id}/messages", 200, "{}");
  CHECK(report.mismatches.count("POST /lobbies/{lobby_id}/messages 200") == 1);
  CHECK(answer("GET", "/users/@me/relationships", 200, "[]")
            .undocumented.count("GET /users/@me/relationships") == 1);
}

TEST_CASE("conformance: the divergences change only what they name, each with its reason") {
  const std::string form_error =
      R"({"code":50035,"message":"Invalid Form Body","errors":{"content":{"_errors":[{"code":"BASE_TYPE_REQUIRED","message":"This field is required"}]}}})";
  CHECK(answer("POST", "/lobbies", 400, form_error, false).mismatch_count == 1);  // the document as published
  CHECK(answer("POST", "/lobbies", 400, form_error).mismatch_count == 0);
  // The top-level code stays an integer.
  CHECK(answer("POST", "/lobbies", 400, R"({"code":"50035","message":"Invalid Form Body"})").mismatch_count ==
        1);
  CHECK(answer("GET", "/users/@me", 429, R"({"code":0,"message":"m","retry_after":1.5,"global":false})")
            .mismatch_count == 0);
  CHECK(answer("GET", "/users/@me", 429, R"({"message":"m","retry_after":1.5,"global":false})")
            .mismatch_count == 1);
}

TEST_CASE(
    "conformance: requests: the most specific route, the request schema, bodies where none is described") {
  const std::string base = "https://127.0.0.1:4433/api/v10";
  auto report = request("PATCH", base + "/users/@me", R"({"global_name":"Sir Provisional"})");
  CHECK(report.requests_validated == 1);
  CHECK(report.mismatch_count == 0);
  CHECK(report.operations_validated.count("request PATCH /users/@me") == 1);  // not /users/{user_id}
  CHECK(request("PATCH", base + "/users/@me", R"({"global_name":""})").mismatch_count == 1);
  CHECK(request("PATCH", base + "/users/@me", R"({"global_name":"x","bio":"y"})").mismatch_count == 1);
  CHECK(request("PATCH", base + "/users/@me", "").mismatch_count == 1);  // the body is required
  CHECK(request("POST", base + "/lobbies/7/members/@me/invites", "").mismatch_count == 0);
  CHECK(request("POST", base + "/lobbies/7/members/@me/invites", "{}").mismatch_count == 1);
  const auto lobby = request("PUT", base + "/lobbies?x=1", R"({"secret":"s"})");
  CHECK(lobby.mismatch_count == 0);
  CHECK(lobby.requests_validated == 1);
  CHECK(request("PUT", base + "/lobbies", R"({"secret":7})").mismatch_count == 1);
  const auto relationships = request("PUT", base + "/users/@me/relationships/42", "{}");
  CHECK(relationships.undocumented_requests.count("PUT /users/@me/relationships/42") == 1);
  CHECK(request("GET", "https://127.0.0.1:4433/_emulator/health", "").requests_seen == 0);
  CHECK(
      OpenApiConformance::path_matches("/users/@me/relationships/{user_id}", "/users/@me/relationships/42"));
  CHECK_FALSE(
      OpenApiConformance::path_matches("/users/@me/relationships/{user_id}", "/users/@me/relationships"));
  CHECK_FALSE(
      OpenApiConformance::path_matches("/users/@me/relationships/{user_id}", "/users/@me/relationships/"));
}

}  // namespace platformpp::emulator::test::openapi_conformance_test

namespace platformpp::emulator::test::gateway_dispatch_conformance_test {

TEST_CASE(
    "conformance: dispatches: a missing required member, a wrong type and an undescribed event are caught") {
  GatewayDispatchConformance shapes(PLATFORMPP_GATEWAY_SCHEMAS);
  shapes.check("RESUMED", "null");
  shapes.check("RESUMED", "{}");  // the package types d as absent: null
  shapes.check("LOBBY_DELETE", R"({"id":"5","reason":"deleted"})");
  shapes.check("LOBBY_DELETE", R"({"id":"5","reason":"gone"})");  // not one of its reasons
  shapes.check("MESSAGE_DELETE", R"({"id":"1","channel_id":"2"})");
  shapes.check("MESSAGE_DELETE", R"({"id":"1"})");
  shapes.check("NOT_AN_EVENT", "{}");
  const auto report = shapes.report();
  CHECK(report.validated == 6);
  CHECK(report.without_schema == std::set<std::string>{"NOT_AN_EVENT"});
  REQUIRE(report.mismatches.count("RESUMED") == 1);
  CHECK(report.mismatches.at("RESUMED").size() == 1);
  REQUIRE(report.mismatches.count("LOBBY_DELETE") == 1);
  CHECK(report.mismatches.at("LOBBY_DELETE").size() == 1);
  REQUIRE(report.mismatches.count("MESSAGE_DELETE") == 1);
  CHECK(report.mismatches.at("MESSAGE_DELETE")[0].find("missing: channel_id") != std::string::npos);
}

}  // namespace platformpp::emulator::test::gateway_dispatch_conformance_test
