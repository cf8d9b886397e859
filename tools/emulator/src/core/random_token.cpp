#include "core/random_token.hpp"

#include <openssl/rand.h>

#include <stdexcept>
#include <vector>

namespace platformpp::emulator {

std::string base64url_encode(std::string_view data) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  out.reserve((data.size() * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    const auto n = (static_cast<unsigned>(static_cast<unsigned char>(data[i])) << 16) |
                   (static_cast<unsigned>(static_cast<unsigned char>(data[i + 1])) << 8) |
                   static_cast<unsigned char>(data[i + 2]);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  const std::size_t rest = data.size() - i;
  if (rest > 0) {
    unsigned n = static_cast<unsigned>(static_cast<unsigned char>(data[i])) << 16;
    if (rest == 2) n |= static_cast<unsigned>(static_cast<unsigned char>(data[i + 1])) << 8;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    if (rest == 2) out += kAlphabet[(n >> 6) & 63];
  }
  return out;
}

std::string random_token(std::size_t bytes) {
  std::vector<unsigned char> buffer(bytes);
  if (RAND_bytes(buffer.data(), static_cast<int>(buffer.size())) != 1) {
    throw std::runtime_error("OpenSSL RAND_bytes failed");
  }
  return base64url_encode(std::string_view(reinterpret_cast<const char*>(buffer.data()), buffer.size()));
}

}  // namespace platformpp::emulator
