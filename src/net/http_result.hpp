#pragma once
// Turning an HTTP response into what an SDK operation reports.

#include "json/json.hpp"
#include "net/http_types.hpp"
#include "net/rate_limiter.hpp"

#include <platformpp/client_result.hpp>

namespace platformpp::net {

/// Success for 2xx; the transport failure, or an HTTPError parsed from the platform's error body, otherwise.
ClientResult ResultOf(const HttpResponse& response);

/// For routes that answer JSON: ResultOf, then the body must be declared application/json and parse. A body
/// that does not is an HTTPError ("malformed response ..."), never a crash or a half-filled success.
ClientResult ParseJsonResponse(const HttpResponse& response, json::Document& document);

/// The X-RateLimit-* and Retry-After headers of a response; malformed values are left empty.
RateLimitHeaders ReadRateLimitHeaders(const HttpResponse& response);

/// How long a 429 asks to wait, in seconds: the body's precise `retry_after`, else Retry-After, else
/// Reset-After, else 1. Sets `global` when the body says so.
double RetryAfterSeconds(const HttpResponse& response, const RateLimitHeaders& limits, bool& global);

}  // namespace platformpp::net
