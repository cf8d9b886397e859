#pragma once
// LeafNode and what it is made of (RFC 9420 sections 5.3, 7.2): credentials, capabilities, lifetimes,
// extensions; its encoding, its to-be-signed form and its signature.

#include "mls/bytes.hpp"
#include "mls/cipher_suite.hpp"
#include "mls/tls_codec.hpp"
#include "mls/tree_math.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace platformpp::mls {

constexpr uint16_t kCredentialBasic = 1;
constexpr uint16_t kCredentialX509 = 2;

// Extension types (RFC 9420 section 17.3).
constexpr uint16_t kExtensionApplicationId = 1;
constexpr uint16_t kExtensionRatchetTree = 2;
constexpr uint16_t kExtensionRequiredCapabilities = 3;
constexpr uint16_t kExtensionExternalPub = 4;
constexpr uint16_t kExtensionExternalSenders = 5;

struct Credential {
  uint16_t type = kCredentialBasic;
  Bytes identity;                   // basic
  std::vector<Bytes> certificates;  // x509 (parsed and carried, never trusted here)

  void Write(Writer& out) const;
  static Credential Read(Reader& in);
  friend bool operator==(const Credential&, const Credential&) = default;
};

struct Capabilities {
  std::vector<uint16_t> versions;
  std::vector<uint16_t> cipherSuites;
  std::vector<uint16_t> extensions;
  std::vector<uint16_t> proposals;
  std::vector<uint16_t> credentials;

  void Write(Writer& out) const;
  static Capabilities Read(Reader& in);
  friend bool operator==(const Capabilities&, const Capabilities&) = default;
};

struct Lifetime {
  uint64_t notBefore = 0;
  uint64_t notAfter = 0;
  friend bool operator==(const Lifetime&, const Lifetime&) = default;
};

struct Extension {
  uint16_t type = 0;
  Bytes data;
  friend bool operator==(const Extension&, const Extension&) = default;
};
void WriteExtensions(Writer& out, const std::vector<Extension>& extensions);
/// Refuses a list that names one extension type twice.
std::vector<Extension> ReadExtensions(Reader& in);

enum class LeafNodeSource : uint8_t { KeyPackage = 1, Update = 2, Commit = 3 };

struct LeafNode {
  Bytes encryptionKey;  // HPKEPublicKey
  Bytes signatureKey;   // SignaturePublicKey
  Credential credential;
  Capabilities capabilities;
  LeafNodeSource source = LeafNodeSource::KeyPackage;
  Lifetime lifetime;  // source KeyPackage
  Bytes parentHash;   // source Commit
  std::vector<Extension> extensions;
  Bytes signature;

  void Write(Writer& out) const;
  static LeafNode Read(Reader& in);
  Bytes Encode() const;

  /// LeafNodeTBS: the group and the leaf's position are part of what is signed unless it comes from a
  /// KeyPackage.
  Bytes ToBeSigned(ByteView groupId, LeafIndex leaf) const;
  void Sign(const SignaturePrivateKey& key, ByteView groupId, LeafIndex leaf);
  bool VerifySignature(ByteView groupId, LeafIndex leaf) const;

  friend bool operator==(const LeafNode&, const LeafNode&) = default;

 private:
  void WriteContent(Writer& out) const;
};

}  // namespace platformpp::mls
