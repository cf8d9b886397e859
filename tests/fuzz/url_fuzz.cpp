// URLs: from configuration and from the network (gateway URLs, redirects).
#include "net/url.hpp"

#include <cstddef>
#include <cstdint>
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
  (void)platformpp::net::UrlEncode(text);
  return 0;
}
