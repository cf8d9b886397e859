#pragma once
// The platform's error bodies: {"code", "message", "errors": {<json path>: {"_errors": [{code, message}]}}},
// the 429 body {"message", "retry_after", "global"}, and OAuth2's {"error", "error_description"}.

#include <platformpp/client_result.hpp>

#include <optional>
#include <string_view>

namespace platformpp::json {

/// Builds the details of an HTTPError from a non-2xx response. Never fails: a body that is not the platform's
/// shape still gives the status and a message. `retryAfterHeader` is the Retry-After header in seconds.
ClientResult::Details ParseErrorResponse(int status, std::string_view body,
                                         std::optional<double> retryAfterHeader);

}  // namespace platformpp::json
