// Building blocks of the OAuth2 routes: form/query encoding, HTTP Basic credentials, PKCE S256.
#include <doctest/doctest.h>

#include "auth/basic_auth.hpp"
#include "auth/code_challenge.hpp"
#include "core/form_encoding.hpp"
#include "test_support.hpp"

namespace oauth_primitives_test {

using namespace platformpp::emulator;

TEST_CASE("percent encoding round-trips and rejects malformed escapes") {
  CHECK(percent_encode("a b&c=d/é~") == "a%20b%26c%3Dd%2F%C3%A9~");
  CHECK(percent_decode("a%20b+c%2f") == "a b c/");
  CHECK_FALSE(percent_decode("%"));
  CHECK_FALSE(percent_decode("%4"));
  CHECK_FALSE(percent_decode("%zz"));
  CHECK(percent_decode(percent_encode("x&y=z%")) == "x&y=z%");
}

TEST_CASE("form fields: lookup, empty values, repeats, malformed input") {
  const auto form = FormFields::parse("a=1&b=&c=x%20y&&d");
  REQUIRE(form);
  CHECK(form->get("a") == "1");
  CHECK_FALSE(form->get("b"));  // empty counts as absent
  CHECK(form->get("c") == "x y");
  CHECK_FALSE(form->get("d"));
  CHECK_FALSE(form->get("zz"));
  CHECK_FALSE(form->repeated());
  CHECK(FormFields::parse("a=1&b=2&a=3")->repeated() == "a");
  CHECK_FALSE(FormFields::parse("a=%G1"));
  CHECK(append_query("http://h/cb", {{"code", "x y"}, {"state", "a&b"}}) ==
        "http://h/cb?code=x%20y&state=a%26b");
  CHECK(append_query("app:/authorize/callback?k=v", {{"code", "c"}}) == "app:/authorize/callback?k=v&code=c");
}

TEST_CASE("HTTP Basic credentials") {
  CHECK(base64_decode("aWQ6c2VjcmV0") == "id:secret");
  CHECK(base64_decode("YQ==") == "a");
  CHECK(base64_decode("YQ") == "a");
  CHECK_FALSE(base64_decode("Y"));
  CHECK_FALSE(base64_decode("a*b="));
  const auto credentials = parse_basic_authorization("Basic aWQ6c2VjcmV0");
  REQUIRE(credentials);
  CHECK(credentials->user == "id");
  CHECK(credentials->password == "secret");
  CHECK(parse_basic_authorization("basic aWQ6")->password.empty());
  CHECK_FALSE(parse_basic_authorization("Bearer aWQ6c2VjcmV0"));
  CHECK_FALSE(parse_basic_authorization("Basic bm9jb2xvbg=="));  // "nocolon"
}

TEST_CASE("PKCE S256 and verifier syntax") {
  // Computed independently (Python hashlib + base64.urlsafe_b64encode, padding stripped).
  CHECK(s256_code_challenge("abcdefghijklmnopqrstuvwxyz0123456789-._~ABC") ==
        "01ZMlLDptILCmAeK1WZ14Du9xRCvfr-aPWvX7e4Hk4U");
  CHECK_FALSE(is_valid_code_verifier(std::string(42, 'a')));
  CHECK(is_valid_code_verifier(std::string(43, 'a')));
  CHECK(is_valid_code_verifier(std::string(128, '~')));
  CHECK_FALSE(is_valid_code_verifier(std::string(129, 'a')));
  CHECK_FALSE(is_valid_code_verifier(std::string(42, 'a') + "+"));
  CHECK_FALSE(is_valid_code_verifier(std::string(42, 'a') + "="));
}

}  // namespace oauth_primitives_test
