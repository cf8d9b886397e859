#include "net/http_types.hpp"

#include <algorithm>
#include <cctype>

namespace platformpp::net {

std::string_view HttpResponse::Header(std::string_view name) const noexcept {
  for (const HttpHeader& header : headers) {
    if (header.first.size() == name.size() &&
        std::equal(name.begin(), name.end(), header.first.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        })) {
      return header.second;
    }
  }
  return {};
}

bool IsIdempotentMethod(std::string_view method) noexcept {
  return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" || method == "OPTIONS";
}

}  // namespace platformpp::net
