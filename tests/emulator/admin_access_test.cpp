// The admin API's token (http/admin_access.hpp): every /_emulator request but the web console's files must
// carry it, the platform API does not look at it, and the live console socket's first message is checked
// the same way.
#include <doctest/doctest.h>

#include <string>

#include "console/console_stream.hpp"
#include "http/admin_access.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace admin_access_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

// 43 characters, as the server's random_token() makes them.
const std::string kToken = "Zm9vYmFyLWFkbWluLXRva2VuLW9mLXRoZS1lbXVsYXQ";

struct Fixture : ServiceBench {
  Fixture() { service.set_admin_token(kToken); }
};

}  // namespace

TEST_CASE_FIXTURE(Fixture, "an admin request without the token is refused with the platform's 401") {
  const auto response = raw("GET", "/_emulator/health");
  CHECK(response.status == 401);
  const auto body = parse(response.body);
  CHECK(str(body["message"]) == "401: Unauthorized");
  CHECK(body["code"].GetInt() == 0);
  // Nothing is done on a refused request: no user was made.
  CHECK(raw("POST", "/_emulator/users", R"({"username":"intruder"})").status == 401);
  CHECK(raw("GET", "/_emulator/state", {}, "Bearer " + kToken).body.find("intruder") == std::string::npos);
}

TEST_CASE_FIXTURE(Fixture, "only the exact token is taken: one character short, long or changed is refused") {
  CHECK(raw("GET", "/_emulator/health", {}, "Bearer " + kToken).status == 200);
  CHECK(raw("GET", "/_emulator/health", {}, "bearer " + kToken).status == 200);  // the scheme's case is free
  CHECK(raw("GET", "/_emulator/health", {}, "Bearer " + kToken.substr(1)).status == 401);
  CHECK(raw("GET", "/_emulator/health", {}, "Bearer " + kToken + "x").status == 401);
  std::string changed = kToken;
  changed.back() = changed.back() == 'a' ? 'b' : 'a';
  CHECK(raw("GET", "/_emulator/health", {}, "Bearer " + changed).status == 401);
  CHECK(raw("GET", "/_emulator/health", {}, "Bot " + kToken).status == 401);
  CHECK(raw("GET", "/_emulator/health", {}, kToken).status == 401);
  CHECK(raw("GET", "/_emulator/health", {}, "Bearer ").status == 401);
}

TEST_CASE_FIXTURE(Fixture, "every admin route wants it, whatever its method; the console's files do not") {
  for (const auto& request : std::vector<std::pair<std::string, std::string>>{
           {"POST", "/_emulator/apps"},
           {"POST", "/_emulator/state/reset"},
           {"GET", "/_emulator/state/export"},
           {"DELETE", "/_emulator/tokens/abc"},
           {"POST", "/_emulator/clock"},
           {"GET", "/_emulator/faults"},
           {"GET", "/_emulator/no-such-route"},  // not even a 404 tells what exists
           {"POST", "/_emulator/ui"},            // the files are GET only
       }) {
    CAPTURE(request.first);
    CAPTURE(request.second);
    CHECK(raw(request.first, request.second).status == 401);
  }
  // The page itself loads without the token (it then asks for it); whether the files are found depends on
  // the console directory, never on the token.
  CHECK(raw("GET", "/_emulator/ui").status != 401);
  CHECK(raw("GET", "/_emulator/ui/console.js").status != 401);
}

TEST_CASE_FIXTURE(Fixture, "the platform API and its web pages do not take the admin token") {
  // The platform API answers a request with the admin token as one without any token.
  CHECK(raw("GET", "/api/v10/users/@me", {}, "Bearer " + kToken).status == 401);
  CHECK(raw("GET", "/api/v10/gateway").status == 200);
}

TEST_CASE("a service built without a token (in a test's own process) leaves the admin API open") {
  ServiceBench bench;
  CHECK(bench.raw("GET", "/_emulator/health").status == 200);
  CHECK_FALSE(bench.service.admin_access().required());
}

TEST_CASE("the console socket's first message") {
  AdminAccess access;
  access.set_token(kToken);
  CHECK(access.accepts_token(console_admin_token(R"({"admin_token":")" + kToken + R"("})")));
  CHECK_FALSE(access.accepts_token(console_admin_token(R"({"admin_token":")" + kToken.substr(1) + R"("})")));
  CHECK_FALSE(access.accepts_token(console_admin_token(R"({"admin_token":42})")));
  CHECK_FALSE(access.accepts_token(console_admin_token(R"({"token":")" + kToken + R"("})")));
  CHECK_FALSE(access.accepts_token(console_admin_token("not json")));
  CHECK_FALSE(access.accepts_token(console_admin_token("")));
  CHECK(console_admin_token(R"(["admin_token"])").empty());
}

}  // namespace admin_access_test
