#pragma once
// The platform's side of webhook events in tests: an application key pair (libsodium), and requests signed
// with it as the platform signs them (Ed25519 over the timestamp header followed by the body).

#include <doctest/doctest.h>
#include <sodium.h>

#include <array>
#include <string>

namespace webhook_test {

struct Signer {
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> publicKey{};
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> secretKey{};
  Signer() {
    REQUIRE(sodium_init() >= 0);
    crypto_sign_keypair(publicKey.data(), secretKey.data());
  }
  std::string PublicHex() const {
    std::array<char, 2 * crypto_sign_PUBLICKEYBYTES + 1> hex{};
    sodium_bin2hex(hex.data(), hex.size(), publicKey.data(), publicKey.size());
    return hex.data();
  }
  std::string Sign(const std::string& timestamp, const std::string& body) const {
    const std::string message = timestamp + body;
    std::array<unsigned char, crypto_sign_BYTES> signature{};
    crypto_sign_detached(signature.data(), nullptr, reinterpret_cast<const unsigned char*>(message.data()),
                         message.size(), secretKey.data());
    std::array<char, 2 * crypto_sign_BYTES + 1> hex{};
    sodium_bin2hex(hex.data(), hex.size(), signature.data(), signature.size());
    return hex.data();
  }
};

}  // namespace webhook_test
