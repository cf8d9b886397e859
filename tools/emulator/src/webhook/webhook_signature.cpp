#include "webhook/webhook_signature.hpp"

#include <sodium.h>

#include <array>
#include <stdexcept>

namespace platformpp::emulator {

std::string sign_webhook(std::string_view secret_key, std::string_view timestamp, std::string_view body) {
  if (secret_key.size() != crypto_sign_SECRETKEYBYTES)
    throw std::invalid_argument("sign_webhook: not an Ed25519 secret key");
  std::string message;
  message.reserve(timestamp.size() + body.size());
  message.append(timestamp).append(body);
  std::array<unsigned char, crypto_sign_BYTES> signature{};
  crypto_sign_detached(signature.data(), nullptr, reinterpret_cast<const unsigned char*>(message.data()),
                       message.size(), reinterpret_cast<const unsigned char*>(secret_key.data()));
  std::array<char, crypto_sign_BYTES * 2 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), signature.data(), signature.size());
  return std::string(hex.data(), crypto_sign_BYTES * 2);
}

}  // namespace platformpp::emulator
