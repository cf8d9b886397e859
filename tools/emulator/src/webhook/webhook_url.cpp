#include "webhook/webhook_url.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "core/http_message.hpp"

namespace platformpp::emulator {

namespace {

// 127.a.b.c, each part a decimal 0-255 without leading zeros.
bool is_loopback_ipv4(std::string_view host) {
  std::array<int, 4> parts{};
  std::size_t index = 0;
  while (index < parts.size()) {
    const auto dot = host.find('.');
    const auto part = host.substr(0, dot);
    if (part.empty() || part.size() > 3 || (part.size() > 1 && part.front() == '0')) return false;
    const auto* end = part.data() + part.size();
    if (std::from_chars(part.data(), end, parts[index]).ptr != end || parts[index] > 255) return false;
    ++index;
    if (dot == std::string_view::npos) break;
    host.remove_prefix(dot + 1);
  }
  return index == parts.size() && host.find('.') == std::string_view::npos && parts[0] == 127;
}

std::optional<WebhookUrl> refuse(std::string& error, std::string why) {
  error = std::move(why);
  return std::nullopt;
}

}  // namespace

std::optional<WebhookUrl> parse_webhook_url(std::string_view text, std::string& error) {
  WebhookUrl url;
  url.text = std::string(text);
  const auto scheme_end = text.find("://");
  if (scheme_end == std::string_view::npos) return refuse(error, "Must be an absolute http or https URL.");
  const auto scheme = text.substr(0, scheme_end);
  if (iequals(scheme, "https")) {
    url.tls = true;
  } else if (!iequals(scheme, "http")) {
    return refuse(error, "The scheme must be http or https.");
  }
  auto rest = text.substr(scheme_end + 3);
  if (rest.find('#') != std::string_view::npos) return refuse(error, "A URL without a fragment is required.");
  const auto authority_end = std::min(rest.find_first_of("/?"), rest.size());
  auto authority = rest.substr(0, authority_end);
  const auto target = rest.substr(authority_end);
  url.target = target.empty() || target.front() == '?' ? "/" + std::string(target) : std::string(target);
  if (authority.find('@') != std::string_view::npos) return refuse(error, "User info is not allowed.");

  std::string_view port_text;
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return refuse(error, "Unbalanced brackets around the host.");
    url.host = std::string(authority.substr(1, close - 1));
    const auto after = authority.substr(close + 1);
    if (!after.empty() && !after.starts_with(':')) return refuse(error, "Malformed host and port.");
    if (!after.empty()) port_text = after.substr(1);
    if (url.host != "::1")
      return refuse(error, "The host must be loopback: 127.0.0.0/8, [::1] or localhost.");
  } else {
    const auto colon = authority.find(':');
    url.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
    std::transform(url.host.begin(), url.host.end(), url.host.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (url.host != "localhost" && !is_loopback_ipv4(url.host))
      return refuse(error, "The host must be loopback: 127.0.0.0/8, [::1] or localhost.");
  }
  url.address = url.host == "localhost" ? "127.0.0.1" : url.host;

  if (port_text.empty()) {
    url.port = url.tls ? 443 : 80;
  } else {
    unsigned port = 0;
    const auto* end = port_text.data() + port_text.size();
    if (port_text.size() > 5 || std::from_chars(port_text.data(), end, port).ptr != end || port == 0 ||
        port > 65535) {
      return refuse(error, "The port must be 1-65535.");
    }
    url.port = static_cast<std::uint16_t>(port);
  }
  return url;
}

}  // namespace platformpp::emulator
