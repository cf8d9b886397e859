#include "net/url.hpp"

#include <doctest/doctest.h>

namespace url_test {

using platformpp::net::ParseUrl;
using platformpp::net::UrlEncode;

TEST_CASE("URLs the SDK meets") {
  auto a = ParseUrl("https://127.0.0.1:8443/api/v10/users/@me?x=1#frag");
  REQUIRE(a);
  CHECK(a->scheme == "https");
  CHECK(a->host == "127.0.0.1");
  CHECK(a->port == 8443);
  CHECK(a->target == "/api/v10/users/@me?x=1");
  CHECK(a->Path() == "/api/v10/users/@me");
  CHECK(a->Authority() == "127.0.0.1:8443");

  auto b = ParseUrl("HTTPS://discord.com");
  REQUIRE(b);
  CHECK(b->port == 443);
  CHECK(b->target == "/");
  CHECK(b->Authority() == "discord.com");

  auto c = ParseUrl("http://[::1]:9000/x");
  REQUIRE(c);
  CHECK(c->host == "::1");
  CHECK(c->Authority() == "[::1]:9000");
  CHECK_FALSE(c->Secure());
}

TEST_CASE("malformed URLs are refused") {
  for (const char* bad :
       {"", "nope", "ftp://x/", "https://", "https://:80/", "https://h:0/", "https://h:65536/",
        "https://h:12ab/", "https://u@h/", "https://[::1/", "https://h/a b", "https://h\r\n/", "wss://[[]/",
        "https://[1.2.3.4]/", "https://ho st/", "https://h\"/"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseUrl(bad));
  }
}

TEST_CASE("form encoding") {
  CHECK(UrlEncode("a b&c=d/é~") == "a%20b%26c%3Dd%2F%C3%A9~");
}

}  // namespace url_test
