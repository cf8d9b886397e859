#pragma once
// KeyPackage (RFC 9420 section 10): how a client announces itself to a group that may add it.

#include "mls/bytes.hpp"
#include "mls/cipher_suite.hpp"
#include "mls/hpke.hpp"
#include "mls/leaf_node.hpp"
#include "mls/tls_codec.hpp"

#include <cstdint>
#include <vector>

namespace platformpp::mls {

struct KeyPackage {
  uint16_t version = kProtocolVersion;
  uint16_t cipherSuite = kCipherSuite;
  Bytes initKey;  // HPKEPublicKey
  LeafNode leafNode;
  std::vector<Extension> extensions;
  Bytes signature;

  void Write(Writer& out) const;
  static KeyPackage Read(Reader& in);
  Bytes Encode() const;
  /// KeyPackageRef: RefHash("MLS 1.0 KeyPackage Reference", the encoded KeyPackage).
  Bytes Ref() const;

  Bytes ToBeSigned() const;
  void Sign(const SignaturePrivateKey& key);
  bool VerifySignature() const;

  friend bool operator==(const KeyPackage&, const KeyPackage&) = default;

 private:
  void WriteContent(Writer& out) const;
};

/// What a client keeps of a KeyPackage it made: the private keys to join with.
struct KeyPackageBundle {
  KeyPackage keyPackage;
  HpkePrivateKey initKey;
  HpkePrivateKey encryptionKey;
  SignaturePrivateKey signatureKey;
};

struct KeyPackageOptions {
  Bytes identity;  // the basic credential
  uint64_t notBefore = 0;
  uint64_t notAfter = UINT64_MAX;
  /// Proposal and extension types the client supports beyond the defaults (for DAVE: none).
  std::vector<uint16_t> extraExtensions;
  std::vector<uint16_t> extraProposals;
};

/// A fresh KeyPackage of cipher suite 2 with new init and encryption keys, signed with `signatureKey`.
KeyPackageBundle MakeKeyPackage(const SignaturePrivateKey& signatureKey, const KeyPackageOptions& options);

/// Checks a KeyPackage for use in a group (section 10.1): version and cipher suite, its signature and its
/// leaf node's, the leaf node's source and lifetime against `now` (seconds since the epoch), init key
/// different from the encryption key, and the capabilities the group requires. Throws mls::Error naming the
/// first check that failed.
void ValidateKeyPackage(const KeyPackage& keyPackage, uint64_t now,
                        const std::vector<uint16_t>& requiredExtensions,
                        const std::vector<uint16_t>& requiredProposals);

}  // namespace platformpp::mls
