#include "net/http_types.hpp"

#include <algorithm>

namespace platformpp::net {

std::string_view HttpHeaders::Find(std::string_view name) const noexcept {
  // ASCII folding, not std::tolower: field names are ASCII, and a locale call per character showed up in
  // every response's rate-limit header lookups.
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  for (Field field : *this) {
    if (field.first.size() == name.size() &&
        std::equal(name.begin(), name.end(), field.first.begin(),
                   [&lower](char a, char b) { return a == b || lower(a) == lower(b); })) {
      return field.second;
    }
  }
  return {};
}

bool IsIdempotentMethod(std::string_view method) noexcept {
  return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" || method == "OPTIONS";
}

}  // namespace platformpp::net
