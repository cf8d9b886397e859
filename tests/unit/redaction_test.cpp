// Secrets never reach a log sink: by shape and by value.
#include "core/redaction.hpp"

#include <doctest/doctest.h>

namespace redaction_test {

using platformpp::core::IsSensitiveHeader;
using platformpp::core::RedactByShape;
using platformpp::core::SecretRedactor;

TEST_CASE("credentials after an auth scheme are removed") {
  CHECK(RedactByShape("Authorization: Bearer abc.DEF-123_x") == "Authorization: Bearer [redacted]");
  CHECK(RedactByShape("authorization: bot MTIz.abc.def") == "authorization: bot [redacted]");
  CHECK(RedactByShape("Basic dXNlcjpwYXNz") == "Basic [redacted]");
  CHECK(RedactByShape("the Bearer of bad news") ==
        "the Bearer [redacted] bad news");  // shape wins: safe side
  CHECK(RedactByShape("Bearer") == "Bearer");
}

TEST_CASE("sensitive JSON string values are removed, other fields kept") {
  CHECK(RedactByShape(R"({"access_token": "a1b2c3", "expires_in": 604800, "scope": "openid"})") ==
        R"({"access_token": "[redacted]", "expires_in": 604800, "scope": "openid"})");
  CHECK(RedactByShape(R"({"refresh_token":"x\"y","id_token":"z"})") ==
        R"({"refresh_token":"[redacted]","id_token":"[redacted]"})");
  CHECK(RedactByShape(R"({"code": 50035, "message": "Invalid Form Body"})") ==
        R"({"code": 50035, "message": "Invalid Form Body"})");
  CHECK(RedactByShape(R"({"client_secret":"s3cr3t","external_auth_token":"eos"})") ==
        R"({"client_secret":"[redacted]","external_auth_token":"[redacted]"})");
}

TEST_CASE("sensitive form and query values are removed") {
  CHECK(RedactByShape("grant_type=authorization_code&code=abc123&code_verifier=xyz&redirect_uri=http") ==
        "grant_type=authorization_code&code=[redacted]&code_verifier=[redacted]&redirect_uri=http");
  CHECK(RedactByShape("/oauth2/authorize?client_id=1&code=zz&state=s") ==
        "/oauth2/authorize?client_id=1&code=[redacted]&state=s");
  CHECK(RedactByShape("barcode=123") == "barcode=123");  // whole keys only
}

TEST_CASE("the token segment of webhook and interaction routes is removed") {
  CHECK(RedactByShape("POST https://api.test/api/v10/interactions/42/aW50ZXJhY3Rpb24.x-y_z/callback") ==
        "POST https://api.test/api/v10/interactions/42/[redacted]/callback");
  CHECK(RedactByShape("PATCH /webhooks/7/tok3n/messages/@original") ==
        "PATCH /webhooks/7/[redacted]/messages/@original");
  CHECK(RedactByShape("POST /webhooks/7/tok3n?wait=true") == "POST /webhooks/7/[redacted]?wait=true");
  // A route without a token segment keeps its text.
  CHECK(RedactByShape("GET /webhooks/7") == "GET /webhooks/7");
  CHECK(RedactByShape("GET /webhooks/7/") == "GET /webhooks/7/");
  CHECK(RedactByShape("/applications/1/commands") == "/applications/1/commands");
}

TEST_CASE("known secret values are removed wherever they appear") {
  SecretRedactor redactor;
  redactor.AddSecret("tok_ABCDEFGHIJ");
  redactor.AddSecret("short");  // too short to be a credential: ignored
  CHECK(redactor.Redact("weird place tok_ABCDEFGHIJ and again tok_ABCDEFGHIJ.") ==
        "weird place [redacted] and again [redacted].");
  CHECK(redactor.Redact("short stays") == "short stays");
}

TEST_CASE("sensitive headers") {
  CHECK(IsSensitiveHeader("Authorization"));
  CHECK(IsSensitiveHeader("COOKIE"));
  CHECK_FALSE(IsSensitiveHeader("Content-Type"));
}

TEST_CASE("redaction is linear on long tokens") {
  std::string longText(200000, 'a');
  CHECK(RedactByShape(longText) == longText);
}

}  // namespace redaction_test
