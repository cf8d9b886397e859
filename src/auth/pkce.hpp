#pragma once
// PKCE (RFC 7636, S256 only) and the secure random values of the authorization flow.

#include <platformpp/authorization.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace platformpp::auth {

/// base64url without padding (RFC 4648 section 5).
std::string Base64UrlNoPadding(const unsigned char* data, std::size_t size);
/// `bytes` bytes from the OS CSPRNG, base64url-encoded. Throws std::runtime_error if no randomness is
/// available.
std::string SecureRandomToken(std::size_t bytes);
/// base64url-no-padding(SHA-256(verifier)).
std::string S256Challenge(std::string_view verifier);
/// 43 to 128 characters of [A-Za-z0-9-._~] (RFC 7636 section 4.1).
bool IsValidCodeVerifier(std::string_view verifier) noexcept;
/// 32 random bytes: a 43-character verifier, and its S256 challenge.
AuthorizationCodeVerifier CreateCodeVerifier();

}  // namespace platformpp::auth
