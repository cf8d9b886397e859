#include "auth/pkce.hpp"

#include <openssl/rand.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <vector>

namespace platformpp::auth {

std::string Base64UrlNoPadding(const unsigned char* data, std::size_t size) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  out.reserve((size * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    uint32_t v = (uint32_t{data[i]} << 16) | (uint32_t{data[i + 1]} << 8) | data[i + 2];
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  if (size - i == 1) {
    uint32_t v = uint32_t{data[i]} << 16;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
  } else if (size - i == 2) {
    uint32_t v = (uint32_t{data[i]} << 16) | (uint32_t{data[i + 1]} << 8);
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
  }
  return out;
}

std::string SecureRandomToken(std::size_t bytes) {
  std::vector<unsigned char> buffer(bytes);
  if (RAND_bytes(buffer.data(), static_cast<int>(buffer.size())) != 1) {
    throw std::runtime_error("no secure randomness available");
  }
  return Base64UrlNoPadding(buffer.data(), buffer.size());
}

std::string S256Challenge(std::string_view verifier) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
  return Base64UrlNoPadding(digest, sizeof digest);
}

bool IsValidCodeVerifier(std::string_view verifier) noexcept {
  return verifier.size() >= 43 && verifier.size() <= 128 &&
         std::all_of(verifier.begin(), verifier.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~';
         });
}

AuthorizationCodeVerifier CreateCodeVerifier() {
  std::string verifier = SecureRandomToken(32);
  AuthorizationCodeChallenge challenge;
  challenge.SetMethod(AuthenticationCodeChallengeMethod::S256);
  challenge.SetChallenge(S256Challenge(verifier));
  return AuthorizationCodeVerifier(std::move(challenge), std::move(verifier));
}

}  // namespace platformpp::auth
