#include "http/admin_access.hpp"

#include <sodium.h>

namespace platformpp::emulator {

bool AdminAccess::accepts_header(std::optional<std::string_view> authorization) const {
  if (!required()) return true;
  constexpr std::string_view kScheme = "Bearer ";
  if (!authorization || authorization->size() <= kScheme.size()) return false;
  // The scheme is case-insensitive (RFC 9110, 11.1); the token is not.
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    const auto c = static_cast<unsigned char>((*authorization)[i]);
    if (static_cast<char>(c | 0x20U) != (kScheme[i] | 0x20)) return false;
  }
  return accepts_token(authorization->substr(kScheme.size()));
}

bool AdminAccess::accepts_token(std::string_view presented) const {
  if (!required()) return true;
  // The length is not secret (every token is 43 characters); the content is compared without an early exit.
  if (presented.size() != token_.size()) return false;
  return sodium_memcmp(presented.data(), token_.data(), token_.size()) == 0;
}

bool AdminAccess::is_public(std::string_view method, std::string_view admin_path) {
  if (method != "GET" && method != "HEAD") return false;
  return admin_path == "/ui" || admin_path.starts_with("/ui/");
}

}  // namespace platformpp::emulator
