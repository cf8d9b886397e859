#include "auth/code_challenge.hpp"

#include <openssl/sha.h>

#include <algorithm>

#include "core/random_token.hpp"

namespace platformpp::emulator {

bool is_valid_code_verifier(std::string_view verifier) noexcept {
  if (verifier.size() < kCodeVerifierMin || verifier.size() > kCodeVerifierMax) return false;
  return std::all_of(verifier.begin(), verifier.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
  });
}

std::string s256_code_challenge(std::string_view verifier) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
  return base64url_encode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

}  // namespace platformpp::emulator
