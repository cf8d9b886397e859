#pragma once
// OpenSSL handles and error reporting for the MLS layer (private to src/mls).

#include "mls/bytes.hpp"

#include <openssl/evp.h>

#include <memory>
#include <string_view>

namespace platformpp::mls::detail {

/// Throws mls::Error with `what` and the reasons OpenSSL queued (the queue is emptied).
[[noreturn]] void ThrowOpenSsl(std::string_view what);
/// Throws unless `ok` is 1, the OpenSSL convention for success.
inline void Check(int ok, std::string_view what) {
  if (ok != 1) ThrowOpenSsl(what);
}
/// Forgets what OpenSSL queued for an expected failure (a signature that does not verify).
void ClearOpenSslErrors() noexcept;

struct PkeyFree {
  void operator()(EVP_PKEY* key) const noexcept { EVP_PKEY_free(key); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

// P-256 keys (SEC1 uncompressed public keys of 65 bytes, 32-byte big-endian private scalars), for both
// the signature keys (ECDSA) and the HPKE keys (DHKEM).
constexpr std::size_t kP256ScalarSize = 32;
constexpr std::size_t kP256PublicKeySize = 65;

Pkey P256Generate();
/// A private key from its scalar; the scalar must be in [1, n-1].
Pkey P256FromScalar(ByteView scalar);
/// Whether a 32-byte big-endian value is a valid scalar (in [1, n-1]).
bool P256ScalarValid(ByteView scalar);
/// A public key from its uncompressed encoding; the point must be on the curve.
Pkey P256FromPublic(ByteView encoded);
Bytes P256PublicBytes(const EVP_PKEY* key);
Secret P256Scalar(const EVP_PKEY* key);
/// ECDH: the x-coordinate of priv * peer (32 bytes).
Secret P256Dh(EVP_PKEY* priv, EVP_PKEY* peer);

}  // namespace platformpp::mls::detail
