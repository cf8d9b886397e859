#include "mls/key_package.hpp"

#include <algorithm>
#include <string>

namespace platformpp::mls {

namespace {

bool Contains(const std::vector<uint16_t>& values, uint16_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// Extension types every implementation supports without listing them (RFC 9420 section 7.2).
bool IsDefaultExtension(uint16_t type) {
  return type >= kExtensionApplicationId && type <= kExtensionExternalSenders;
}

}  // namespace

void KeyPackage::WriteContent(Writer& out) const {
  out.U16(version);
  out.U16(cipherSuite);
  out.Vector(initKey);
  leafNode.Write(out);
  WriteExtensions(out, extensions);
}

void KeyPackage::Write(Writer& out) const {
  WriteContent(out);
  out.Vector(signature);
}

KeyPackage KeyPackage::Read(Reader& in) {
  KeyPackage keyPackage;
  keyPackage.version = in.U16();
  keyPackage.cipherSuite = in.U16();
  keyPackage.initKey = in.Vector();
  keyPackage.leafNode = LeafNode::Read(in);
  keyPackage.extensions = ReadExtensions(in);
  keyPackage.signature = in.Vector();
  return keyPackage;
}

Bytes KeyPackage::Encode() const {
  Writer out;
  Write(out);
  return std::move(out).Take();
}

Bytes KeyPackage::Ref() const {
  return RefHash("MLS 1.0 KeyPackage Reference", Encode());
}

Bytes KeyPackage::ToBeSigned() const {
  Writer out;
  WriteContent(out);
  return std::move(out).Take();
}

void KeyPackage::Sign(const SignaturePrivateKey& key) {
  if (key.PublicKey() != leafNode.signatureKey)
    throw Error("MLS: a KeyPackage signed with another key than its leaf's");
  signature = SignWithLabel(key, "KeyPackageTBS", ToBeSigned());
}

bool KeyPackage::VerifySignature() const {
  return VerifyWithLabel(leafNode.signatureKey, "KeyPackageTBS", ToBeSigned(), signature);
}

KeyPackageBundle MakeKeyPackage(const SignaturePrivateKey& signatureKey, const KeyPackageOptions& options) {
  HpkePrivateKey initKey = HpkePrivateKey::Generate();
  HpkePrivateKey encryptionKey = HpkePrivateKey::Generate();
  KeyPackage keyPackage;
  keyPackage.initKey = initKey.PublicKey();
  LeafNode& leaf = keyPackage.leafNode;
  leaf.encryptionKey = encryptionKey.PublicKey();
  leaf.signatureKey = signatureKey.PublicKey();
  leaf.credential.type = kCredentialBasic;
  leaf.credential.identity = options.identity;
  leaf.capabilities.versions = {kProtocolVersion};
  leaf.capabilities.cipherSuites = {kCipherSuite};
  leaf.capabilities.extensions = options.extraExtensions;
  leaf.capabilities.proposals = options.extraProposals;
  leaf.capabilities.credentials = {kCredentialBasic};
  leaf.source = LeafNodeSource::KeyPackage;
  leaf.lifetime = {options.notBefore, options.notAfter};
  leaf.Sign(signatureKey, {}, 0);
  keyPackage.Sign(signatureKey);
  return {std::move(keyPackage), std::move(initKey), std::move(encryptionKey), signatureKey};
}

void ValidateKeyPackage(const KeyPackage& keyPackage, uint64_t now,
                        const std::vector<uint16_t>& requiredExtensions,
                        const std::vector<uint16_t>& requiredProposals) {
  auto fail = [](const std::string& why) { throw Error("MLS: KeyPackage refused: " + why); };
  const LeafNode& leaf = keyPackage.leafNode;
  if (keyPackage.version != kProtocolVersion) fail("protocol version " + std::to_string(keyPackage.version));
  if (keyPackage.cipherSuite != kCipherSuite) fail("cipher suite " + std::to_string(keyPackage.cipherSuite));
  if (!keyPackage.VerifySignature()) fail("its signature does not verify");
  if (leaf.source != LeafNodeSource::KeyPackage) fail("its leaf node does not come from a KeyPackage");
  if (!leaf.VerifySignature({}, 0)) fail("its leaf node's signature does not verify");
  if (now < leaf.lifetime.notBefore || now > leaf.lifetime.notAfter) fail("outside its lifetime");
  if (keyPackage.initKey == leaf.encryptionKey) fail("its init key is its encryption key");
  const Capabilities& capabilities = leaf.capabilities;
  if (!Contains(capabilities.versions, kProtocolVersion)) fail("it does not list MLS 1.0");
  if (!Contains(capabilities.cipherSuites, kCipherSuite)) fail("it does not list cipher suite 2");
  if (!Contains(capabilities.credentials, leaf.credential.type))
    fail("it does not list its own credential type");
  for (uint16_t type : requiredExtensions) {
    if (!IsDefaultExtension(type) && !Contains(capabilities.extensions, type))
      fail("it does not support the required extension " + std::to_string(type));
  }
  for (uint16_t type : requiredProposals) {
    if (type > 7 && !Contains(capabilities.proposals, type))
      fail("it does not support the required proposal " + std::to_string(type));
  }
  for (const Extension& extension : leaf.extensions) {
    if (!IsDefaultExtension(extension.type) && !Contains(capabilities.extensions, extension.type))
      fail("its leaf carries extension " + std::to_string(extension.type) + " it does not list");
  }
}

}  // namespace platformpp::mls
