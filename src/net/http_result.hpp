#pragma once
// Turning an HTTP response into what an SDK operation reports.

#include "json/json.hpp"
#include "net/http_types.hpp"

#include <platformpp/client_result.hpp>

namespace platformpp::net {

/// Success for 2xx; the transport failure, or an HTTPError parsed from the platform's error body, otherwise.
ClientResult ResultOf(const HttpResponse& response);

/// For routes that answer JSON: ResultOf, then the body must be declared application/json and parse. A body
/// that does not is an HTTPError ("malformed response ..."), never a crash or a half-filled success.
ClientResult ParseJsonResponse(const HttpResponse& response, json::Document& document);

}  // namespace platformpp::net
