#include "mls/bytes.hpp"

#include <openssl/crypto.h>

namespace platformpp::mls {

void Wipe(void* data, std::size_t size) noexcept {
  OPENSSL_cleanse(data, size);
}

bool operator==(const Secret& a, const Secret& b) noexcept {
  return a.Size() == b.Size() && CRYPTO_memcmp(a.Data(), b.Data(), a.Size()) == 0;
}

Bytes Concat(ByteView a, ByteView b) {
  Bytes out;
  out.reserve(a.size() + b.size());
  out.insert(out.end(), a.begin(), a.end());
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

}  // namespace platformpp::mls
