// HTTP Basic credentials (RFC 7617) as confidential OAuth2 clients send them: base64("client_id:secret"),
// both parts form-urlencoded first (RFC 6749 section 2.3.1).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace platformpp::emulator {

struct BasicCredentials {
  std::string user;      // client_id
  std::string password;  // client_secret
};

// Standard base64 (with or without padding); nullopt on any other character.
std::optional<std::string> base64_decode(std::string_view text);
// The credentials of an "Authorization: Basic ..." header value; nullopt if it is another scheme or
// malformed.
std::optional<BasicCredentials> parse_basic_authorization(std::string_view header_value);

}  // namespace platformpp::emulator
