// The OAuth2 token endpoint's answers as the network delivers them (auth/token_response.hpp): the result of
// any status and body, and the token response read from a successful one.
#include "auth/token_response.hpp"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Layout: one byte for the status (200 + 2 n: successes, 4xx with RFC 6749 bodies, 5xx), then the body.
  if (size < 1) return 0;
  platformpp::net::HttpResponse response;
  response.status = 200 + data[0] * 2;
  response.headers.emplace_back("Content-Type", "application/json");
  response.body.assign(reinterpret_cast<const char*>(data + 1), size - 1);

  const auto result = platformpp::auth::TokenEndpointResult(response);
  // AuthorizationFailed only for a 4xx that names an OAuth2 error; a success stays one.
  if (result.Type() == platformpp::ErrorType::AuthorizationFailed &&
      (response.status >= 500 || response.status < 400 || result.OAuthError().empty())) {
    __builtin_trap();
  }
  const auto parsed = platformpp::auth::ParseTokenResponse(response);
  if (const auto* token = std::get_if<platformpp::auth::TokenResponse>(&parsed)) {
    if (token->accessToken.empty() || token->expiresIn < 0) __builtin_trap();
  } else if (std::get<platformpp::ClientResult>(parsed).Successful()) {
    __builtin_trap();  // no token and yet no failure
  }
  return 0;
}
