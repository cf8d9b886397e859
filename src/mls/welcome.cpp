#include "mls/welcome.hpp"

#include <string>

namespace platformpp::mls {

void GroupInfo::WriteContent(Writer& out) const {
  groupContext.Write(out);
  WriteExtensions(out, extensions);
  out.Vector(confirmationTag);
  out.U32(signer);
}

void GroupInfo::Write(Writer& out) const {
  WriteContent(out);
  out.Vector(signature);
}

GroupInfo GroupInfo::Read(Reader& in) {
  GroupInfo info;
  info.groupContext = GroupContext::Read(in);
  info.extensions = ReadExtensions(in);
  info.confirmationTag = in.Vector();
  info.signer = in.U32();
  info.signature = in.Vector();
  return info;
}

Bytes GroupInfo::Encode() const {
  Writer out;
  Write(out);
  return std::move(out).Take();
}

Bytes GroupInfo::ToBeSigned() const {
  Writer out;
  WriteContent(out);
  return std::move(out).Take();
}

void GroupInfo::Sign(const SignaturePrivateKey& key) {
  signature = SignWithLabel(key, "GroupInfoTBS", ToBeSigned());
}

bool GroupInfo::VerifySignature(ByteView publicKey) const {
  return VerifyWithLabel(publicKey, "GroupInfoTBS", ToBeSigned(), signature);
}

void GroupSecrets::Write(Writer& out) const {
  out.Vector(joinerSecret);
  out.U8(pathSecret ? 1 : 0);
  if (pathSecret) out.Vector(*pathSecret);
  out.Nested([&](Writer& list) {
    for (const PreSharedKeyId& psk : psks)
      WritePreSharedKeyId(list, psk);
  });
}

GroupSecrets GroupSecrets::Read(Reader& in) {
  GroupSecrets secrets;
  secrets.joinerSecret = Secret(in.Vector());
  if (in.Present()) secrets.pathSecret = Secret(in.Vector());
  in.Items([&](Reader& item) { secrets.psks.push_back(ReadPreSharedKeyId(item)); });
  return secrets;
}

void Welcome::Write(Writer& out) const {
  out.U16(cipherSuite);
  out.Nested([&](Writer& list) {
    for (const EncryptedGroupSecrets& entry : secrets) {
      list.Vector(entry.newMember);
      WriteHpkeCiphertext(list, entry.encryptedGroupSecrets);
    }
  });
  out.Vector(encryptedGroupInfo);
}

Welcome Welcome::Read(Reader& in) {
  Welcome welcome;
  welcome.cipherSuite = in.U16();
  in.Items([&](Reader& item) {
    EncryptedGroupSecrets entry;
    entry.newMember = item.Vector();
    entry.encryptedGroupSecrets = ReadHpkeCiphertext(item);
    welcome.secrets.push_back(std::move(entry));
  });
  welcome.encryptedGroupInfo = in.Vector();
  return welcome;
}

WireFormat MlsMessage::Format() const {
  return static_cast<WireFormat>(body.index() + 1);  // the variant follows the wire formats
}

void MlsMessage::Write(Writer& out) const {
  out.U16(version);
  out.U16(static_cast<uint16_t>(Format()));
  std::visit([&](const auto& message) { message.Write(out); }, body);
}

MlsMessage MlsMessage::Read(Reader& in) {
  MlsMessage message;
  message.version = in.U16();
  if (message.version != kProtocolVersion) in.Fail("protocol version " + std::to_string(message.version));
  const uint16_t format = in.U16();
  switch (format) {
    case 1:
      message.body = PublicMessage::Read(in);
      break;
    case 2:
      message.body = PrivateMessage::Read(in);
      break;
    case 3:
      message.body = Welcome::Read(in);
      break;
    case 4:
      message.body = GroupInfo::Read(in);
      break;
    case 5:
      message.body = KeyPackage::Read(in);
      break;
    default:
      in.Fail("unknown wire format " + std::to_string(format));
  }
  return message;
}

MlsMessage MlsMessage::Decode(ByteView bytes) {
  Reader in(bytes, "MLSMessage");
  MlsMessage message = Read(in);
  in.ExpectDone();
  return message;
}

Bytes MlsMessage::Encode() const {
  Writer out;
  Write(out);
  return std::move(out).Take();
}

}  // namespace platformpp::mls
