#include "auth/basic_auth.hpp"

#include "core/form_encoding.hpp"
#include "core/http_message.hpp"

namespace platformpp::emulator {

namespace {
int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
  while (!text.empty() && text.back() == '=')
    text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const int value = base64_value(c);
    if (value < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<unsigned>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

std::optional<BasicCredentials> parse_basic_authorization(std::string_view header_value) {
  const auto space = header_value.find(' ');
  if (space == std::string_view::npos || !iequals(header_value.substr(0, space), "Basic"))
    return std::nullopt;
  auto encoded = header_value.substr(space + 1);
  while (!encoded.empty() && encoded.front() == ' ')
    encoded.remove_prefix(1);
  const auto decoded = base64_decode(encoded);
  if (!decoded) return std::nullopt;
  const auto colon = decoded->find(':');
  if (colon == std::string::npos) return std::nullopt;
  auto user = percent_decode(std::string_view(*decoded).substr(0, colon));
  auto password = percent_decode(std::string_view(*decoded).substr(colon + 1));
  if (!user || !password) return std::nullopt;
  return BasicCredentials{std::move(*user), std::move(*password)};
}

}  // namespace platformpp::emulator
