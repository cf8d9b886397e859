// URLs: from configuration and from the network (gateway URLs, redirects), and the query of the request the
// browser makes to the Authorize redirect listener (its code, state and error, percent-decoded).
#include "net/url.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto url = platformpp::net::ParseUrl(text);
  if (url) {
    if (url->host.empty() || url->port == 0 || url->target.empty() || url->target.front() != '/')
      __builtin_trap();
    // What we print back parses to the same place.
    auto again = platformpp::net::ParseUrl(url->scheme + "://" + url->Authority() + url->target);
    if (!again || again->host != url->host || again->port != url->port || again->target != url->target) {
      __builtin_trap();
    }
  }
  // Whatever the bytes, encoding then decoding gives them back, and an encoded form is plain ASCII.
  const std::string encoded = platformpp::net::UrlEncode(text);
  if (platformpp::net::UrlDecode(encoded) != text) __builtin_trap();
  for (const char c : encoded) {
    if (static_cast<unsigned char>(c) < 0x21 || static_cast<unsigned char>(c) > 0x7e) __builtin_trap();
  }
  (void)platformpp::net::UrlDecode(text);
  // The redirect's target as the listener reads it: "/callback?code=...&state=..." from the network.
  for (const char* name : {"code", "state", "error", "error_description"}) {
    if (auto value = platformpp::net::QueryParameter(text, name); value && value->size() > text.size()) {
      __builtin_trap();  // a decoded value is never longer than what it came from
    }
  }
  return 0;
}
