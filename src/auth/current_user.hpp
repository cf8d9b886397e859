#pragma once
// Who a token belongs to: GET /users/@me.

#include "core/runtime.hpp"
#include "net/http_client.hpp"

#include <platformpp/authorization.hpp>

namespace platformpp::auth {

void FetchCurrentUser(core::Runtime& runtime, net::HttpClient& http, AuthorizationTokenType tokenType,
                      const std::string& token, core::Completion<uint64_t, std::string> completion);

/// The Authorization header value for a token of `tokenType`.
std::string AuthorizationHeader(AuthorizationTokenType tokenType, const std::string& token);

}  // namespace platformpp::auth
