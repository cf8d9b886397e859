#pragma once
// The OAuth2 token endpoint's answers read from the network, apart from what the SDK then does with them (the
// redactor, the credentials, the callbacks: token_endpoint.hpp), so that the parsing is checked on its own
// and fuzzed (tests/fuzz/token_response_fuzz.cpp).

#include <platformpp/authorization.hpp>
#include <platformpp/client_result.hpp>

#include "net/http_types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace platformpp::auth {

/// Token endpoint failures: OAuth2 errors (4xx with an RFC 6749 body) become AuthorizationFailed carrying the
/// `error` code in OAuthError() (e.g. "invalid_grant"); transport and 5xx failures stay as they are.
ClientResult TokenEndpointResult(const net::HttpResponse& response);

/// A token response's fields (`{access_token, refresh_token?, id_token?, token_type, expires_in, scope}`).
struct TokenResponse {
  std::string accessToken;  ///< never empty
  std::string refreshToken;
  std::optional<std::string> idToken;
  AuthorizationTokenType tokenType = AuthorizationTokenType::Bearer;
  int32_t expiresIn = 0;  ///< seconds, 0 to INT32_MAX (a negative or larger value is clamped)
  std::string scopes;
};

/// The token response of a successful answer, or why there is none (the answer's body is not JSON, or has no
/// access token): an HTTPError naming it.
std::variant<TokenResponse, ClientResult> ParseTokenResponse(const net::HttpResponse& response);

}  // namespace platformpp::auth
