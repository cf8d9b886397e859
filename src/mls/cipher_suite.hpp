#pragma once
// MLS cipher suite 2, MLS_128_DHKEMP256_AES128GCM_SHA256_P256 (RFC 9420 section 5), the only one DAVE uses:
// SHA-256, HKDF-SHA256, AES-128-GCM, ECDSA P-256 with SHA-256 (DER signatures), and the labelled
// derivations MLS builds on them (section 5.1 to 5.2 and 8). HPKE is in hpke.hpp.

#include "mls/bytes.hpp"
#include "mls/openssl_util.hpp"

#include <cstdint>
#include <string_view>

namespace platformpp::mls {

constexpr uint16_t kProtocolVersion = 1;  // mls10
constexpr uint16_t kCipherSuite = 2;
constexpr std::size_t kHashSize = 32;       // KDF.Nh
constexpr std::size_t kAeadKeySize = 16;    // AEAD.Nk
constexpr std::size_t kAeadNonceSize = 12;  // AEAD.Nn
constexpr std::size_t kAeadTagSize = 16;
constexpr std::size_t kPublicKeySize = 65;   // SEC1 uncompressed P-256 point
constexpr std::size_t kPrivateKeySize = 32;  // P-256 scalar

Bytes Hash(ByteView data);
Bytes Hmac(ByteView key, ByteView data);
/// HKDF-Extract(salt, ikm) (an empty salt is HashLen zeros).
Secret Extract(ByteView salt, ByteView ikm);
/// HKDF-Expand(prk, info, length).
Secret Expand(ByteView prk, ByteView info, std::size_t length);

/// KDF.Expand(secret, KDFLabel{length, "MLS 1.0 " + label, context}, length)
Secret ExpandWithLabel(ByteView secret, std::string_view label, ByteView context, std::size_t length);
/// ExpandWithLabel(secret, label, "", Nh)
Secret DeriveSecret(ByteView secret, std::string_view label);
/// ExpandWithLabel(secret, label, uint32 generation, length)
Secret DeriveTreeSecret(ByteView secret, std::string_view label, uint32_t generation, std::size_t length);
/// Hash(RefHashInput{label, value}): KeyPackageRef, ProposalRef.
Bytes RefHash(std::string_view label, ByteView value);

/// AES-128-GCM: ciphertext || 16-byte tag.
Bytes AeadSeal(ByteView key, ByteView nonce, ByteView aad, ByteView plaintext);
/// Throws mls::Error when the tag does not verify.
Bytes AeadOpen(ByteView key, ByteView nonce, ByteView aad, ByteView ciphertext);

/// An ECDSA P-256 signature key.
class SignaturePrivateKey {
 public:
  static SignaturePrivateKey Generate();
  /// From the 32-byte scalar (as the test vectors give it).
  static SignaturePrivateKey FromScalar(ByteView scalar);

  const Bytes& PublicKey() const noexcept { return publicKey_; }
  Secret Scalar() const;
  /// ECDSA with SHA-256 over `message`, DER-encoded.
  Bytes Sign(ByteView message) const;

 private:
  explicit SignaturePrivateKey(detail::Pkey key);
  std::shared_ptr<EVP_PKEY> key_;  // immutable once made: copies share it
  Bytes publicKey_;
};

/// Whether `signature` (DER) is `publicKey`'s ECDSA P-256 / SHA-256 signature of `message`. A malformed key
/// or signature is simply not valid.
bool Verify(ByteView publicKey, ByteView message, ByteView signature);

/// Sign(key, SignContent{"MLS 1.0 " + label, content})
Bytes SignWithLabel(const SignaturePrivateKey& key, std::string_view label, ByteView content);
bool VerifyWithLabel(ByteView publicKey, std::string_view label, ByteView content, ByteView signature);

}  // namespace platformpp::mls
