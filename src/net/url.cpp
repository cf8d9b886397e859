#include "net/url.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace platformpp::net {

std::string Url::Authority() const {
  bool ipv6 = host.find(':') != std::string::npos;
  std::string out = ipv6 ? "[" + host + "]" : host;
  bool defaultPort = (Secure() && port == 443) || (!Secure() && port == 80);
  if (!defaultPort) out += ":" + std::to_string(port);
  return out;
}

std::string_view Url::Path() const noexcept {
  std::string_view t = target;
  return t.substr(0, t.find('?'));
}

std::optional<Url> ParseUrl(std::string_view text) {
  Url url;
  std::size_t colon = text.find("://");
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  url.scheme.assign(text.substr(0, colon));
  std::transform(url.scheme.begin(), url.scheme.end(), url.scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  uint16_t defaultPort;
  if (url.scheme == "https" || url.scheme == "wss") {
    defaultPort = 443;
  } else if (url.scheme == "http" || url.scheme == "ws") {
    defaultPort = 80;
  } else {
    return std::nullopt;
  }
  std::string_view rest = text.substr(colon + 3);
  std::size_t slash = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, slash);
  std::string_view target = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
  if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;
  std::string_view portText;
  if (authority.front() == '[') {
    std::size_t close = authority.find(']');
    if (close == std::string_view::npos || close == 1) return std::nullopt;
    url.host.assign(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return std::nullopt;
      portText = after.substr(1);
    }
  } else {
    std::size_t portColon = authority.rfind(':');
    url.host.assign(authority.substr(0, portColon));
    if (portColon != std::string_view::npos) portText = authority.substr(portColon + 1);
    if (url.host.empty() || url.host.find(':') != std::string::npos) return std::nullopt;
  }
  // Registered names and IPv4 as RFC 3986 unreserved characters; IPv6 literals as hex digits, ':' and '.'.
  bool ipv6 = authority.front() == '[';
  for (char c : url.host) {
    auto u = static_cast<unsigned char>(c);
    bool ok = ipv6 ? (std::isxdigit(u) || c == ':' || c == '.')
                   : (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~');
    if (!ok) return std::nullopt;
  }
  if (ipv6 && url.host.find(':') == std::string::npos) return std::nullopt;
  url.port = defaultPort;
  if (!portText.empty()) {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), value);
    if (ec != std::errc() || end != portText.data() + portText.size() || value == 0 || value > 65535) {
      return std::nullopt;
    }
    url.port = static_cast<uint16_t>(value);
  }
  std::size_t hash = target.find('#');
  url.target.assign(target.substr(0, hash));
  if (url.target.empty() || url.target.front() != '/') url.target.insert(url.target.begin(), '/');
  for (char c : url.target) {
    if (c == ' ' || std::iscntrl(static_cast<unsigned char>(c))) return std::nullopt;
  }
  return url;
}

std::string UrlEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string UrlDecode(std::string_view text) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out.push_back(' ');
    } else if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::optional<std::string> QueryParameter(std::string_view target, std::string_view name) {
  std::size_t question = target.find('?');
  if (question == std::string_view::npos) return std::nullopt;
  std::string_view query = target.substr(question + 1);
  query = query.substr(0, query.find('#'));
  while (!query.empty()) {
    std::size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    std::size_t eq = pair.find('=');
    if (UrlDecode(pair.substr(0, eq)) == name) {
      return eq == std::string_view::npos ? std::string() : UrlDecode(pair.substr(eq + 1));
    }
    if (amp == std::string_view::npos) break;
    query = query.substr(amp + 1);
  }
  return std::nullopt;
}

}  // namespace platformpp::net
