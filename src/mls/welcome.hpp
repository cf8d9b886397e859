#pragma once
// Joining (RFC 9420 sections 12.4.3): GroupInfo, GroupSecrets, Welcome; and MLSMessage, the envelope of
// everything MLS sends.

#include "mls/bytes.hpp"
#include "mls/framing.hpp"
#include "mls/group_context.hpp"
#include "mls/key_package.hpp"
#include "mls/proposal.hpp"

#include <optional>
#include <variant>
#include <vector>

namespace platformpp::mls {

struct GroupInfo {
  GroupContext groupContext;
  std::vector<Extension> extensions;
  Bytes confirmationTag;
  uint32_t signer = 0;
  Bytes signature;

  void Write(Writer& out) const;
  static GroupInfo Read(Reader& in);
  Bytes Encode() const;
  Bytes ToBeSigned() const;
  void Sign(const SignaturePrivateKey& key);
  bool VerifySignature(ByteView publicKey) const;
  friend bool operator==(const GroupInfo&, const GroupInfo&) = default;

 private:
  void WriteContent(Writer& out) const;
};

struct GroupSecrets {
  Secret joinerSecret;
  std::optional<Secret> pathSecret;
  std::vector<PreSharedKeyId> psks;

  void Write(Writer& out) const;
  static GroupSecrets Read(Reader& in);
};

struct EncryptedGroupSecrets {
  Bytes newMember;  // KeyPackageRef
  HpkeCiphertext encryptedGroupSecrets;
  friend bool operator==(const EncryptedGroupSecrets&, const EncryptedGroupSecrets&) = default;
};

struct Welcome {
  uint16_t cipherSuite = kCipherSuite;
  std::vector<EncryptedGroupSecrets> secrets;
  Bytes encryptedGroupInfo;

  void Write(Writer& out) const;
  static Welcome Read(Reader& in);
  friend bool operator==(const Welcome&, const Welcome&) = default;
};

struct MlsMessage {
  uint16_t version = kProtocolVersion;
  std::variant<PublicMessage, PrivateMessage, Welcome, GroupInfo, KeyPackage> body;

  WireFormat Format() const;
  void Write(Writer& out) const;
  static MlsMessage Read(Reader& in);
  /// One whole message: trailing bytes are an error.
  static MlsMessage Decode(ByteView bytes);
  Bytes Encode() const;
  friend bool operator==(const MlsMessage&, const MlsMessage&) = default;
};

}  // namespace platformpp::mls
