#include "mls/leaf_node.hpp"

#include <set>
#include <string>

namespace platformpp::mls {

namespace {

void WriteU16List(Writer& out, const std::vector<uint16_t>& values) {
  out.Nested([&](Writer& inner) {
    for (uint16_t value : values)
      inner.U16(value);
  });
}

std::vector<uint16_t> ReadU16List(Reader& in) {
  std::vector<uint16_t> values;
  in.Items([&](Reader& item) { values.push_back(item.U16()); });
  return values;
}

}  // namespace

void Credential::Write(Writer& out) const {
  out.U16(type);
  if (type == kCredentialBasic) {
    out.Vector(identity);
  } else if (type == kCredentialX509) {
    out.Nested([&](Writer& inner) {
      for (const Bytes& certificate : certificates)
        inner.Vector(certificate);
    });
  } else {
    throw Error("MLS: cannot encode credential type " + std::to_string(type));
  }
}

Credential Credential::Read(Reader& in) {
  Credential credential;
  credential.type = in.U16();
  if (credential.type == kCredentialBasic) {
    credential.identity = in.Vector();
  } else if (credential.type == kCredentialX509) {
    in.Items([&](Reader& item) { credential.certificates.push_back(item.Vector()); });
  } else {
    in.Fail("unknown credential type " + std::to_string(credential.type));
  }
  return credential;
}

void Capabilities::Write(Writer& out) const {
  WriteU16List(out, versions);
  WriteU16List(out, cipherSuites);
  WriteU16List(out, extensions);
  WriteU16List(out, proposals);
  WriteU16List(out, credentials);
}

Capabilities Capabilities::Read(Reader& in) {
  Capabilities capabilities;
  capabilities.versions = ReadU16List(in);
  capabilities.cipherSuites = ReadU16List(in);
  capabilities.extensions = ReadU16List(in);
  capabilities.proposals = ReadU16List(in);
  capabilities.credentials = ReadU16List(in);
  return capabilities;
}

void WriteExtensions(Writer& out, const std::vector<Extension>& extensions) {
  out.Nested([&](Writer& inner) {
    for (const Extension& extension : extensions) {
      inner.U16(extension.type);
      inner.Vector(extension.data);
    }
  });
}

std::vector<Extension> ReadExtensions(Reader& in) {
  std::vector<Extension> extensions;
  std::set<uint16_t> seen;
  in.Items([&](Reader& item) {
    Extension extension;
    extension.type = item.U16();
    if (!seen.insert(extension.type).second)
      item.Fail("extension type " + std::to_string(extension.type) + " appears twice");
    extension.data = item.Vector();
    extensions.push_back(std::move(extension));
  });
  return extensions;
}

void LeafNode::WriteContent(Writer& out) const {
  out.Vector(encryptionKey);
  out.Vector(signatureKey);
  credential.Write(out);
  capabilities.Write(out);
  out.U8(static_cast<uint8_t>(source));
  switch (source) {
    case LeafNodeSource::KeyPackage:
      out.U64(lifetime.notBefore);
      out.U64(lifetime.notAfter);
      break;
    case LeafNodeSource::Update:
      break;
    case LeafNodeSource::Commit:
      out.Vector(parentHash);
      break;
  }
  WriteExtensions(out, extensions);
}

void LeafNode::Write(Writer& out) const {
  WriteContent(out);
  out.Vector(signature);
}

Bytes LeafNode::Encode() const {
  Writer out;
  Write(out);
  return std::move(out).Take();
}

LeafNode LeafNode::Read(Reader& in) {
  LeafNode leaf;
  leaf.encryptionKey = in.Vector();
  leaf.signatureKey = in.Vector();
  leaf.credential = Credential::Read(in);
  leaf.capabilities = Capabilities::Read(in);
  const uint8_t source = in.U8();
  switch (source) {
    case 1:
      leaf.source = LeafNodeSource::KeyPackage;
      leaf.lifetime.notBefore = in.U64();
      leaf.lifetime.notAfter = in.U64();
      break;
    case 2:
      leaf.source = LeafNodeSource::Update;
      break;
    case 3:
      leaf.source = LeafNodeSource::Commit;
      leaf.parentHash = in.Vector();
      break;
    default:
      in.Fail("unknown leaf node source " + std::to_string(source));
  }
  leaf.extensions = ReadExtensions(in);
  leaf.signature = in.Vector();
  return leaf;
}

Bytes LeafNode::ToBeSigned(ByteView groupId, LeafIndex leaf) const {
  Writer out;
  WriteContent(out);
  if (source != LeafNodeSource::KeyPackage) {
    out.Vector(groupId);
    out.U32(leaf);
  }
  return std::move(out).Take();
}

void LeafNode::Sign(const SignaturePrivateKey& key, ByteView groupId, LeafIndex leaf) {
  if (key.PublicKey() != signatureKey) throw Error("MLS: a leaf node signed with another key than its own");
  signature = SignWithLabel(key, "LeafNodeTBS", ToBeSigned(groupId, leaf));
}

bool LeafNode::VerifySignature(ByteView groupId, LeafIndex leaf) const {
  return VerifyWithLabel(signatureKey, "LeafNodeTBS", ToBeSigned(groupId, leaf), signature);
}

}  // namespace platformpp::mls
