// application/x-www-form-urlencoded bodies and URL query strings (the OAuth2 routes speak them), and building
// redirect URLs with percent-encoded parameters.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/http_message.hpp"

namespace platformpp::emulator {

// Decodes %XX escapes and '+' (space); nullopt on a malformed escape.
std::optional<std::string> percent_decode(std::string_view text);
// Escapes everything but RFC 3986 unreserved characters.
std::string percent_encode(std::string_view text);

class FormFields {
 public:
  // nullopt if any name or value has a malformed escape.
  static std::optional<FormFields> parse(std::string_view text);

  // The value of `name`; an empty value counts as absent (as OAuth2 servers treat it).
  [[nodiscard]] std::optional<std::string> get(std::string_view name) const;
  // The first parameter that occurs more than once, if any (RFC 6749 forbids repeating parameters).
  [[nodiscard]] std::optional<std::string> repeated() const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

// The request target's query string, without the '?' ("" if none).
std::string_view query_of(const HttpRequest& request);
// True if the Content-Type's media type is application/x-www-form-urlencoded.
bool has_form_content_type(const HttpRequest& request);
// `url` with `params` appended to its query ('?' or '&' as needed), values percent-encoded.
std::string append_query(std::string url, const std::vector<std::pair<std::string, std::string>>& params);

}  // namespace platformpp::emulator
