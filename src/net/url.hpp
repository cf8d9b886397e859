#pragma once
// Absolute http(s)/ws(s) URLs as the SDK uses them: scheme, host (IPv6 literals in brackets), port, target.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::net {

struct Url {
  std::string scheme;  ///< lower case: http, https, ws, wss
  std::string host;    ///< without brackets for IPv6 literals
  uint16_t port = 0;   ///< explicit or the scheme's default
  std::string target;  ///< path and query, at least "/"

  bool Secure() const noexcept { return scheme == "https" || scheme == "wss"; }
  /// "host:port" with brackets around IPv6 literals, for the Host header and connection pooling.
  std::string Authority() const;
  /// The path without the query.
  std::string_view Path() const noexcept;
};

std::optional<Url> ParseUrl(std::string_view text);

/// application/x-www-form-urlencoded / RFC 3986 unreserved escaping.
std::string UrlEncode(std::string_view text);
/// Percent-decoding ('+' as space); invalid escapes stay as they are.
std::string UrlDecode(std::string_view text);
/// The decoded value of `name` in the query of `target` ("/path?a=1&b=2"), empty when absent.
std::optional<std::string> QueryParameter(std::string_view target, std::string_view name);

}  // namespace platformpp::net
