#pragma once
// The OAuth2 token endpoint (POST /oauth2/token, form-encoded) and revocation (POST /oauth2/token/revoke).

#include "auth/token_response.hpp"
#include "core/runtime.hpp"
#include "net/http_client.hpp"
#include "net/http_types.hpp"

#include <platformpp/authorization.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace platformpp::auth {

using FormFields = std::vector<std::pair<std::string, std::string>>;
/// accessToken, refreshToken, tokenType, expiresIn, scopes: the shape of the SDK's token callbacks.
using TokenCompletion =
    core::Completion<std::string, std::string, AuthorizationTokenType, int32_t, std::string>;

std::string FormEncode(const FormFields& fields);

/// Completes `completion` from a token response (`{access_token, refresh_token?, id_token?, token_type,
/// expires_in, scope}`) whose status has already been checked into `result`: registers its secrets with the
/// redactor and its expiry with the credentials. `onRefreshToken` sees a returned refresh token first.
void CompleteFromTokenResponse(core::Runtime& runtime, ClientResult result, const net::HttpResponse& response,
                               TokenCompletion& completion,
                               const std::function<void(const std::string&)>& onRefreshToken = {});

/// Posts `fields` to the token endpoint and completes with the token response. Every secret in the request
/// and the response is registered with the logger's redactor first.
void RequestToken(core::Runtime& runtime, net::HttpClient& http, const FormFields& fields,
                  TokenCompletion completion);

void RevokeToken(core::Runtime& runtime, net::HttpClient& http, uint64_t applicationId, std::string token,
                 core::Completion<> completion);

}  // namespace platformpp::auth
