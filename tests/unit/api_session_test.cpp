// The API session with a stand-in transport (no sockets): what it refuses before sending and in which order,
// the request it writes (URL, token, body), how each answer becomes the operation's one result (success, the
// platform's error, a malformed answer), and that an operation still pending at shutdown ends once, as
// ClientDestroyed.
#include "api/api_session.hpp"
#include "api_stand_in.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace api_session_test {

using namespace platformpp;
using platformpp::testing::ApiStandIn;
using platformpp::testing::HeaderOf;

namespace {

/// A callback's results, in the order RunCallbacks delivered them. Declared before the session in each test:
/// a session ends what is still pending (ClientDestroyed) when it is destroyed, and those callbacks write
/// here.
template <class T>
struct Results {
  std::vector<std::pair<ClientResult, T>> seen;
  std::function<void(ClientResult, T)> Callback() {
    return [this](ClientResult result, T value) { seen.emplace_back(std::move(result), std::move(value)); };
  }
};

struct Plain {
  std::vector<ClientResult> seen;
  std::function<void(ClientResult)> Callback() {
    return [this](ClientResult result) { seen.push_back(std::move(result)); };
  }
};

std::optional<std::string> DecodeName(const json::Value& value) {
  auto name = json::GetString(value, "name");
  if (!name) return std::nullopt;
  return std::string(*name);
}

}  // namespace

TEST_CASE("api session: refused before sending, in order: refusal, violations, token") {
  ApiStandIn standIn;
  Plain plain;
  api::ApiSession session(testing::StandInOptions());
  session.SetTransportForTesting(standIn.Transport());

  // No token: ClientNotReady, nothing sent.
  session.Perform(plain.Callback(), api::ApiRequest("GET", "/users/@me"));
  // Violations come before the token: one ValidationError naming every field.
  session.Perform(plain.Callback(),
                  api::ApiRequest("GET", "/lobbies/0", std::nullopt,
                                  {FieldError{"lobbyId", "BASE_TYPE_REQUIRED", "lobbyId: must not be 0"},
                                   FieldError{"userId", "BASE_TYPE_REQUIRED", "userId: must not be 0"}}));
  // A refusal comes before the violations.
  api::ApiRequest refused("GET", "/x", std::nullopt, {FieldError{"a", "B", "a: b"}});
  refused.refusal = ClientResult::Failure(ErrorType::ClientNotReady, "no application id");
  session.Perform(plain.Callback(), std::move(refused));
  session.RunCallbacks();

  CHECK(standIn.requests.empty());
  REQUIRE(plain.seen.size() == 3);
  CHECK(plain.seen[0].Type() == ErrorType::ClientNotReady);
  CHECK(plain.seen[0].Error() == "no token: call UpdateToken first");
  CHECK(plain.seen[1].Type() == ErrorType::ValidationError);
  CHECK(plain.seen[1].FieldErrors().size() == 2);
  CHECK(plain.seen[2].Type() == ErrorType::ClientNotReady);
  CHECK(plain.seen[2].Error() == "no application id");
}

TEST_CASE("api session: the request carries the API base, the current token and the JSON body") {
  ApiStandIn standIn;
  Plain plain;
  api::ApiSession session(testing::StandInOptions());
  session.SetTransportForTesting(standIn.Transport());
  session.Runtime().credentials.Set(AuthorizationTokenType::Bearer, "first-token");
  session.Perform(plain.Callback(), api::ApiRequest("PUT", "/lobbies", std::string(R"({"secret":"s"})")));
  session.Runtime().credentials.Set(AuthorizationTokenType::User, "second-token");
  session.Perform(plain.Callback(), api::ApiRequest("DELETE", "/lobbies/7/members/@me"));

  REQUIRE(standIn.requests.size() == 2);
  CHECK(standIn.requests[0].method == "PUT");
  CHECK(standIn.requests[0].url == "https://api.test/api/v10/lobbies");
  CHECK(HeaderOf(standIn.requests[0], "Authorization") == "Bearer first-token");
  CHECK(standIn.requests[0].body == R"({"secret":"s"})");
  CHECK(standIn.requests[0].contentType == "application/json");
  // Each request presents the token of its time (UpdateToken in between).
  CHECK(HeaderOf(standIn.requests[1], "Authorization") == "second-token");
  CHECK(standIn.requests[1].body.empty());
  CHECK(standIn.requests[1].contentType.empty());
}

TEST_CASE("api session: a fixed authorization (the bot's) on every request, kept out of the logs") {
  ApiStandIn standIn;
  std::vector<std::string> lines;
  Plain plain;
  api::ApiSession session(testing::StandInOptions(), "Bot bot-secret-value", "bot-secret-value");
  session.SetTransportForTesting(standIn.Transport());
  session.Log().AddCallback(
      [&lines](const std::string& message, LoggingSeverity) { lines.push_back(message); },
      LoggingSeverity::Verbose);
  session.Perform(plain.Callback(), api::ApiRequest("GET", "/lobbies/1"));
  REQUIRE(standIn.requests.size() == 1);
  CHECK(HeaderOf(standIn.requests[0], "Authorization") == "Bot bot-secret-value");
  session.Log().Info("the token is bot-secret-value");
  session.RunCallbacks();
  REQUIRE_FALSE(lines.empty());
  for (const std::string& line : lines)
    CHECK(line.find("bot-secret-value") == std::string::npos);
}

TEST_CASE("api session: a route's extra headers follow the session's own, never replace them") {
  ApiStandIn standIn;
  Plain plain;
  api::ApiSession session(testing::StandInOptions(), "Bot bot-secret-value", "bot-secret-value");
  session.SetTransportForTesting(standIn.Transport());
  api::ApiRequest request("DELETE", "/guilds/1/members/2");
  request.headers = {{"X-Audit-Log-Reason", "left%20the%20team"},
                     {"authorization", "Bot someone-else"},
                     {"Host", "evil.test"},
                     {"Content-Length", "0"},
                     {"User-Agent", "other"},
                     {"Content-Type", "text/plain"}};
  session.Perform(plain.Callback(), std::move(request));
  REQUIRE(standIn.requests.size() == 1);
  const auto& headers = standIn.requests[0].headers;
  REQUIRE(headers.size() == 2);
  CHECK(headers[0] == net::HttpHeader{"Authorization", "Bot bot-secret-value"});
  CHECK(headers[1] == net::HttpHeader{"X-Audit-Log-Reason", "left%20the%20team"});
}

TEST_CASE("api session: answers become one result each: success, the platform's error, malformed") {
  ApiStandIn standIn;
  Results<std::string> named;
  Plain plain;
  api::ApiSession session(testing::StandInOptions());
  session.SetTransportForTesting(standIn.Transport());
  session.Runtime().credentials.Set(AuthorizationTokenType::Bearer, "token");

  for (int i = 0; i < 4; ++i)
    session.Perform<std::string>(named.Callback(), api::ApiRequest("GET", "/thing"), "not a thing",
                                 DecodeName);
  session.Perform(plain.Callback(), api::ApiRequest("DELETE", "/thing"));
  session.Perform(plain.Callback(), api::ApiRequest("DELETE", "/thing"));
  REQUIRE(standIn.requests.size() == 6);

  standIn.Answer(0, 200, R"({"name":"lobby"})");
  standIn.Answer(1, 200, R"({"other":1})");                               // decoder refuses
  standIn.Answer(2, 200, "<html>", "text/html");                          // not JSON at all
  standIn.Answer(3, 404, R"({"code":10008,"message":"Unknown thing"})");  // the platform's error
  standIn.Answer(4, 204, "");
  standIn.Answer(5, 403, R"({"code":50001,"message":"Missing Access"})");
  session.RunCallbacks();

  REQUIRE(named.seen.size() == 4);
  CHECK(named.seen[0].first.Successful());
  CHECK(named.seen[0].second == "lobby");
  CHECK(named.seen[1].first.Type() == ErrorType::HTTPError);
  CHECK(named.seen[1].first.Error() == "malformed response: not a thing");
  CHECK(named.seen[1].second.empty());
  CHECK(named.seen[2].first.Type() == ErrorType::HTTPError);
  CHECK(named.seen[2].first.Error().find("malformed response") == 0);
  CHECK(named.seen[3].first.Status() == 404);
  CHECK(named.seen[3].first.ErrorCode() == 10008);
  REQUIRE(plain.seen.size() == 2);
  CHECK(plain.seen[0].Successful());
  CHECK(plain.seen[1].Status() == 403);
  CHECK(plain.seen[1].ErrorCode() == 50001);
}

TEST_CASE("api session: an operation pending at shutdown ends once, as ClientDestroyed") {
  Plain plain;
  Results<std::string> named;
  ApiStandIn standIn;
  {
    api::ApiSession session(testing::StandInOptions());
    session.SetTransportForTesting(standIn.Transport());
    session.Runtime().credentials.Set(AuthorizationTokenType::Bearer, "token");
    session.Perform(plain.Callback(), api::ApiRequest("POST", "/pending"));
    session.Perform<std::string>(named.Callback(), api::ApiRequest("GET", "/pending"), "not a thing",
                                 DecodeName);
    REQUIRE(standIn.handlers.size() == 2);
    session.BeginShutdown();
    // Started while shutting down: no request, and the callback hears ClientDestroyed.
    session.Perform(plain.Callback(), api::ApiRequest("POST", "/late"));
    CHECK(standIn.requests.size() == 2);
    // The transport lets go of its handlers unanswered, as the HTTP client does when it stops.
    standIn.handlers.clear();
    session.FinishShutdown();
    session.FinishShutdown();  // idempotent
  }
  REQUIRE(plain.seen.size() == 2);
  for (const ClientResult& result : plain.seen)
    CHECK(result.Type() == ErrorType::ClientDestroyed);
  REQUIRE(named.seen.size() == 1);
  CHECK(named.seen[0].first.Type() == ErrorType::ClientDestroyed);
}

}  // namespace api_session_test
