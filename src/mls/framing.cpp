#include "mls/framing.hpp"

#include <openssl/crypto.h>

#include <string>

namespace platformpp::mls {

namespace {

void WriteSender(Writer& out, const Sender& sender) {
  out.U8(static_cast<uint8_t>(sender.type));
  if (sender.type == SenderType::Member || sender.type == SenderType::External) out.U32(sender.index);
}

Sender ReadSender(Reader& in) {
  Sender sender;
  const uint8_t type = in.U8();
  if (type < 1 || type > 4) in.Fail("unknown sender type " + std::to_string(type));
  sender.type = static_cast<SenderType>(type);
  if (sender.type == SenderType::Member || sender.type == SenderType::External) sender.index = in.U32();
  return sender;
}

void WriteAuth(Writer& out, const FramedContentAuthData& auth, ContentType type) {
  out.Vector(auth.signature);
  if (type == ContentType::Commit) out.Vector(auth.confirmationTag);
}

FramedContentAuthData ReadAuth(Reader& in, ContentType type) {
  FramedContentAuthData auth;
  auth.signature = in.Vector();
  if (type == ContentType::Commit) auth.confirmationTag = in.Vector();
  return auth;
}

bool SignsGroupContext(SenderType type) {
  return type == SenderType::Member || type == SenderType::NewMemberCommit;
}

}  // namespace

ContentType FramedContent::Type() const {
  return static_cast<ContentType>(body.index() + 1);  // application, proposal, commit
}

void FramedContent::Write(Writer& out) const {
  out.Vector(groupId);
  out.U64(epoch);
  WriteSender(out, sender);
  out.Vector(authenticatedData);
  out.U8(static_cast<uint8_t>(Type()));
  if (const auto* data = std::get_if<Bytes>(&body)) {
    out.Vector(*data);
  } else if (const auto* proposal = std::get_if<Proposal>(&body)) {
    proposal->Write(out);
  } else {
    std::get<Commit>(body).Write(out);
  }
}

FramedContent FramedContent::Read(Reader& in) {
  FramedContent content;
  content.groupId = in.Vector();
  content.epoch = in.U64();
  content.sender = ReadSender(in);
  content.authenticatedData = in.Vector();
  const uint8_t type = in.U8();
  switch (type) {
    case 1:
      content.body = in.Vector();
      break;
    case 2:
      content.body = Proposal::Read(in);
      break;
    case 3:
      content.body = Commit::Read(in);
      break;
    default:
      in.Fail("unknown content type " + std::to_string(type));
  }
  return content;
}

Bytes AuthenticatedContent::ToBeSigned(const GroupContext& context) const {
  Writer out;
  out.U16(kProtocolVersion);
  out.U16(static_cast<uint16_t>(wireFormat));
  content.Write(out);
  if (SignsGroupContext(content.sender.type)) context.Write(out);
  return std::move(out).Take();
}

void AuthenticatedContent::Sign(const SignaturePrivateKey& key, const GroupContext& context) {
  auth.signature = SignWithLabel(key, "FramedContentTBS", ToBeSigned(context));
}

bool AuthenticatedContent::VerifySignature(ByteView publicKey, const GroupContext& context) const {
  return VerifyWithLabel(publicKey, "FramedContentTBS", ToBeSigned(context), auth.signature);
}

Bytes AuthenticatedContent::ConfirmedTranscriptHashInput() const {
  Writer out;
  out.U16(static_cast<uint16_t>(wireFormat));
  content.Write(out);
  out.Vector(auth.signature);
  return std::move(out).Take();
}

void AuthenticatedContent::Write(Writer& out) const {
  out.U16(static_cast<uint16_t>(wireFormat));
  content.Write(out);
  WriteAuth(out, auth, content.Type());
}

AuthenticatedContent AuthenticatedContent::Read(Reader& in) {
  AuthenticatedContent authenticated;
  const uint16_t format = in.U16();
  if (format != 1 && format != 2) in.Fail("authenticated content of wire format " + std::to_string(format));
  authenticated.wireFormat = static_cast<WireFormat>(format);
  authenticated.content = FramedContent::Read(in);
  authenticated.auth = ReadAuth(in, authenticated.content.Type());
  return authenticated;
}

AuthenticatedContent PublicMessage::Authenticated() const {
  return {WireFormat::PublicMessage, content, auth};
}

Bytes PublicMessage::MembershipTag(const AuthenticatedContent& content, const GroupContext& context,
                                   const Secret& membershipKey) {
  Writer tbm;
  tbm.Raw(content.ToBeSigned(context));
  WriteAuth(tbm, content.auth, content.content.Type());
  return Mac(membershipKey, tbm.Data());
}

bool PublicMessage::VerifyMembershipTag(const GroupContext& context, const Secret& membershipKey) const {
  if (content.sender.type != SenderType::Member) return membershipTag.empty();
  return MacEqual(MembershipTag(Authenticated(), context, membershipKey), membershipTag);
}

PublicMessage PublicMessage::From(const AuthenticatedContent& authenticated, const GroupContext& context,
                                  const Secret& membershipKey) {
  if (authenticated.wireFormat != WireFormat::PublicMessage)
    throw Error("MLS: content signed for another wire format");
  PublicMessage message{authenticated.content, authenticated.auth, {}};
  if (authenticated.content.sender.type == SenderType::Member)
    message.membershipTag = MembershipTag(authenticated, context, membershipKey);
  return message;
}

void PublicMessage::Write(Writer& out) const {
  content.Write(out);
  WriteAuth(out, auth, content.Type());
  if (content.sender.type == SenderType::Member) out.Vector(membershipTag);
}

PublicMessage PublicMessage::Read(Reader& in) {
  PublicMessage message;
  message.content = FramedContent::Read(in);
  message.auth = ReadAuth(in, message.content.Type());
  if (message.content.sender.type == SenderType::Member) message.membershipTag = in.Vector();
  return message;
}

void PrivateMessage::Write(Writer& out) const {
  out.Vector(groupId);
  out.U64(epoch);
  out.U8(static_cast<uint8_t>(contentType));
  out.Vector(authenticatedData);
  out.Vector(encryptedSenderData);
  out.Vector(ciphertext);
}

PrivateMessage PrivateMessage::Read(Reader& in) {
  PrivateMessage message;
  message.groupId = in.Vector();
  message.epoch = in.U64();
  const uint8_t type = in.U8();
  if (type < 1 || type > 3) in.Fail("unknown content type " + std::to_string(type));
  message.contentType = static_cast<ContentType>(type);
  message.authenticatedData = in.Vector();
  message.encryptedSenderData = in.Vector();
  message.ciphertext = in.Vector();
  return message;
}

Bytes Mac(ByteView key, ByteView data) {
  return Hmac(key, data);
}

bool MacEqual(ByteView a, ByteView b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

Bytes ConfirmationTag(const Secret& confirmationKey, ByteView confirmedTranscriptHash) {
  return Mac(confirmationKey, confirmedTranscriptHash);
}

TranscriptHashes TranscriptHashes::After(ByteView interimBefore, const AuthenticatedContent& commit) {
  if (commit.content.Type() != ContentType::Commit) throw Error("MLS: transcript hashes of a non-commit");
  TranscriptHashes hashes;
  hashes.confirmed = Hash(Concat(interimBefore, commit.ConfirmedTranscriptHashInput()));
  hashes.interim = Interim(hashes.confirmed, commit.auth.confirmationTag);
  return hashes;
}

Bytes TranscriptHashes::Interim(ByteView confirmed, ByteView confirmationTag) {
  Writer input;
  input.Raw(confirmed);
  input.Vector(confirmationTag);
  return Hash(input.Data());
}

}  // namespace platformpp::mls
