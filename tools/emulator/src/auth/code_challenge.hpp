// PKCE (RFC 7636), S256 only: the platform accepts no "plain" challenges.
#pragma once

#include <string>
#include <string_view>

namespace platformpp::emulator {

inline constexpr std::size_t kCodeVerifierMin = 43, kCodeVerifierMax = 128;

// 43..128 characters of [A-Za-z0-9-._~]. Challenges share the syntax (an S256 challenge is 43 characters).
bool is_valid_code_verifier(std::string_view verifier) noexcept;
// base64url-no-padding(SHA-256(verifier)).
std::string s256_code_challenge(std::string_view verifier);

}  // namespace platformpp::emulator
