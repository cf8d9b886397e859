#pragma once
// What the HTTP client sends and receives, free of Beast types so that callers stay light to compile.

#include <platformpp/client_result.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace platformpp::net {

using HttpHeader = std::pair<std::string, std::string>;

struct HttpRequest {
  std::string method = "GET";
  std::string url;  ///< absolute
  std::vector<HttpHeader> headers;
  std::string body;
  std::string contentType;  ///< sent as Content-Type when the body is not empty
  /// Per-exchange timeout; empty = the client's (SetHttpRequestTimeout).
  std::optional<std::chrono::milliseconds> timeout;
  /// Retry network errors and 5xx even though the method is not idempotent (the body carries its own guard,
  /// e.g. a nonce with enforce_nonce). GET, HEAD, PUT, DELETE and OPTIONS are always retry-safe.
  bool retrySafe = false;
};

struct HttpResponse {
  /// Not Successful when no usable response arrived (NetworkError, timeout, invalid request). Then `status`
  /// is 0.
  ClientResult transport;
  int status = 0;
  std::vector<HttpHeader> headers;
  std::string body;
  int attempts = 0;  ///< network attempts made (1 = first try succeeded)

  /// Value of the first header named `name` (case-insensitive), empty when absent.
  std::string_view Header(std::string_view name) const noexcept;
  bool Ok() const noexcept { return transport.Successful() && status >= 200 && status < 300; }
};

bool IsIdempotentMethod(std::string_view method) noexcept;

}  // namespace platformpp::net
