#include "auth/token_response.hpp"

#include "json/json.hpp"
#include "net/http_result.hpp"

#include <algorithm>
#include <climits>
#include <string_view>
#include <utility>

namespace platformpp::auth {

ClientResult TokenEndpointResult(const net::HttpResponse& response) {
  ClientResult result = net::ResultOf(response);
  // Only a 4xx is the client's failure (RFC 6749 section 5.2); any other status stays as the HTTP layer read it.
  if (result.Successful() || result.Type() != ErrorType::HTTPError || response.status < 400 ||
      response.status >= 500 || result.OAuthError().empty()) {
    return result;
  }
  ClientResult::Details details;
  details.type = ErrorType::AuthorizationFailed;
  details.status = result.Status();
  details.errorCode = result.ErrorCode();
  details.oauthError = result.OAuthError();
  details.error = result.Error();
  details.fieldErrors = result.FieldErrors();
  details.responseBody = result.ResponseBody();
  return ClientResult(std::move(details));
}

std::variant<TokenResponse, ClientResult> ParseTokenResponse(const net::HttpResponse& response) {
  json::Document body;
  ClientResult result = net::ParseJsonResponse(response, body);
  if (!result.Successful()) return result;
  auto access = json::GetString(body, "access_token");
  if (!access || access->empty()) {
    return ClientResult::Failure(ErrorType::HTTPError, "malformed response: token response without access_token");
  }
  TokenResponse token;
  token.accessToken = std::string(*access);
  token.refreshToken = std::string(json::GetString(body, "refresh_token").value_or(""));
  if (auto id = json::GetString(body, "id_token")) token.idToken = std::string(*id);
  token.expiresIn =
      static_cast<int32_t>(std::clamp<int64_t>(json::GetInt(body, "expires_in").value_or(0), 0, INT32_MAX));
  const std::string_view type = json::GetString(body, "token_type").value_or("Bearer");
  token.tokenType =
      type == "Bearer" || type == "bearer" ? AuthorizationTokenType::Bearer : AuthorizationTokenType::User;
  token.scopes = std::string(json::GetString(body, "scope").value_or(""));
  return token;
}

}  // namespace platformpp::auth
