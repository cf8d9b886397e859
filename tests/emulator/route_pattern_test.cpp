#include <doctest/doctest.h>

#include <stdexcept>

#include "core/route_pattern.hpp"
#include "core/router.hpp"

namespace route_pattern_test {

using namespace platformpp::emulator;

TEST_CASE("path patterns match literals, one-segment wildcards and captures") {
  const auto pattern = PathPattern::parse("/users/{user_id}/channels/*");
  REQUIRE(pattern);
  PathParams params;
  CHECK(pattern->matches("/users/42/channels/7", &params));
  CHECK(params.at("user_id") == "42");
  CHECK_FALSE(pattern->matches("/users/42/channels"));
  CHECK_FALSE(pattern->matches("/users/42/channels/7/x"));
  CHECK_FALSE(pattern->matches("/users//channels/7"));
  CHECK_FALSE(pattern->matches("/guilds/42/channels/7"));
  CHECK_FALSE(pattern->matches("users/42/channels/7"));
}

TEST_CASE("a trailing /** matches zero or more remaining segments") {
  const auto pattern = PathPattern::parse("/lobbies/**");
  REQUIRE(pattern);
  CHECK(pattern->matches("/lobbies"));
  CHECK(pattern->matches("/lobbies/1"));
  CHECK(pattern->matches("/lobbies/1/members/2"));
  CHECK_FALSE(pattern->matches("/users/1"));
  CHECK(PathPattern::parse("/**")->matches("/anything/at/all"));
}

TEST_CASE("malformed patterns are rejected") {
  CHECK_FALSE(PathPattern::parse(""));
  CHECK_FALSE(PathPattern::parse("users"));
  CHECK_FALSE(PathPattern::parse("/a/**/b"));
  CHECK_FALSE(PathPattern::parse("/a/{}"));
  CHECK_FALSE(PathPattern::parse("/a/x**"));
}

TEST_CASE("route patterns carry a method or *") {
  const auto get = RoutePattern::parse("GET /users/@me");
  REQUIRE(get);
  CHECK(get->matches("GET", "/users/@me"));
  CHECK_FALSE(get->matches("POST", "/users/@me"));
  const auto any = RoutePattern::parse("* /users/*");
  REQUIRE(any);
  CHECK(any->matches("DELETE", "/users/1"));
  CHECK(RoutePattern::parse("get /gateway")->matches("GET", "/gateway"));
  CHECK_FALSE(RoutePattern::parse("/users/@me"));
  CHECK_FALSE(RoutePattern::parse("GET users"));
  CHECK_FALSE(RoutePattern::parse("G=T /users"));
}

TEST_CASE("router distinguishes found, 404 and 405") {
  Router router;
  router.add("GET", "/users/@me", [](const RouteContext&) { return HttpResponse::empty(200); });
  router.add("GET", "/users/{id}",
             [](const RouteContext& c) { return HttpResponse::json(200, c.params.at("id")); });
  router.add("PATCH", "/users/@me", [](const RouteContext&) { return HttpResponse::empty(204); });

  auto match = router.match("GET", "/users/@me");
  REQUIRE(match.kind == Router::MatchKind::found);
  CHECK(match.route->key == "GET /users/@me");

  match = router.match("GET", "/users/99");
  REQUIRE(match.kind == Router::MatchKind::found);
  CHECK(match.params.at("id") == "99");

  CHECK(router.match("PATCH", "/users/@me").kind == Router::MatchKind::found);
  CHECK(router.match("DELETE", "/users/@me").kind == Router::MatchKind::method_not_allowed);
  CHECK(router.match("GET", "/guilds").kind == Router::MatchKind::not_found);
  CHECK_THROWS_AS(router.add("GET", "bad", {}), std::invalid_argument);
}

}  // namespace route_pattern_test
