#pragma once
// HPKE (RFC 9180) in base mode with DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and AES-128-GCM: the suite of
// MLS cipher suite 2. OpenSSL 3.0 has no HPKE, so it is built here on the cipher suite's primitives.
// Also MLS's EncryptWithLabel / DecryptWithLabel (RFC 9420 section 5.1.3).

#include "mls/bytes.hpp"
#include "mls/openssl_util.hpp"

#include <cstdint>
#include <memory>
#include <string_view>

namespace platformpp::mls {

/// An HPKE (DHKEM P-256) key pair.
class HpkePrivateKey {
 public:
  static HpkePrivateKey Generate();
  static HpkePrivateKey FromScalar(ByteView scalar);
  /// DeriveKeyPair(ikm) (RFC 9180 section 7.1.3): how MLS turns a path or node secret into a key pair.
  static HpkePrivateKey Derive(ByteView ikm);

  const Bytes& PublicKey() const noexcept { return publicKey_; }
  Secret Scalar() const;
  EVP_PKEY* Native() const noexcept { return key_.get(); }

 private:
  explicit HpkePrivateKey(detail::Pkey key);
  std::shared_ptr<EVP_PKEY> key_;  // immutable once made: copies share it
  Bytes publicKey_;
};

/// A base-mode HPKE context (one direction): Seal or Open messages in order, and Export.
class HpkeContext {
 public:
  Bytes Seal(ByteView aad, ByteView plaintext);
  /// Throws mls::Error when the ciphertext does not authenticate.
  Bytes Open(ByteView aad, ByteView ciphertext);
  Secret Export(ByteView exporterContext, std::size_t length) const;

 private:
  friend struct HpkeSetup;
  HpkeContext(ByteView sharedSecret, ByteView info);
  Bytes Nonce() const;  // base_nonce XOR the sequence number
  Secret key_;
  Secret baseNonce_;
  Secret exporterSecret_;
  uint64_t sequence_ = 0;
};

struct HpkeSetup {
  /// SetupBaseS: a fresh ephemeral key; `enc` goes to the receiver.
  static std::pair<Bytes, HpkeContext> Sender(ByteView receiverPublicKey, ByteView info);
  /// SetupBaseR
  static HpkeContext Receiver(ByteView enc, const HpkePrivateKey& receiver, ByteView info);
};

/// HPKECiphertext {kem_output, ciphertext}
struct HpkeCiphertext {
  Bytes kemOutput;
  Bytes ciphertext;
  friend bool operator==(const HpkeCiphertext&, const HpkeCiphertext&) = default;
};

/// SealBase(publicKey, EncryptContext{"MLS 1.0 " + label, context}, "", plaintext)
HpkeCiphertext EncryptWithLabel(ByteView publicKey, std::string_view label, ByteView context,
                                ByteView plaintext);
/// The reverse; throws mls::Error when it does not decrypt.
Bytes DecryptWithLabel(const HpkePrivateKey& key, std::string_view label, ByteView context,
                       const HpkeCiphertext& ciphertext);

}  // namespace platformpp::mls
