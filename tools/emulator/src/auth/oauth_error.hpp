// The RFC 6749 error body the OAuth2 endpoints answer with instead of the platform's error shape:
// {"error": "invalid_grant", "error_description": "...", "code"?: <platform code>}. `code` carries a platform
// error the SDK must tell apart (530017: merge while banned).
#pragma once

#include <optional>
#include <string_view>

#include "core/http_message.hpp"

namespace platformpp::emulator {

namespace oauth_error_code {
inline constexpr const char* kInvalidRequest = "invalid_request";
inline constexpr const char* kInvalidClient = "invalid_client";
inline constexpr const char* kInvalidGrant = "invalid_grant";
inline constexpr const char* kInvalidScope = "invalid_scope";
inline constexpr const char* kUnsupportedGrantType = "unsupported_grant_type";
inline constexpr const char* kUnsupportedResponseType = "unsupported_response_type";
inline constexpr const char* kAccessDenied = "access_denied";
}  // namespace oauth_error_code

// 400 normally; invalid_client is 401 with a WWW-Authenticate challenge (RFC 6749 section 5.2).
HttpResponse oauth_error(std::string_view error, std::string_view description,
                         std::optional<int> code = std::nullopt);

}  // namespace platformpp::emulator
