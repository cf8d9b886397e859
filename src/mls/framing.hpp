#pragma once
// Message framing (RFC 9420 section 6): senders, FramedContent, its signature and tags, PublicMessage,
// PrivateMessage (parsed only: DAVE never sends one), MLSMessage, and the transcript hashes (section 8.2).

#include "mls/bytes.hpp"
#include "mls/group_context.hpp"
#include "mls/key_package.hpp"
#include "mls/proposal.hpp"
#include "mls/tls_codec.hpp"

#include <cstdint>
#include <optional>
#include <variant>

namespace platformpp::mls {

struct GroupInfo;
struct Welcome;

enum class WireFormat : uint16_t {
  PublicMessage = 1,
  PrivateMessage = 2,
  Welcome = 3,
  GroupInfo = 4,
  KeyPackage = 5,
};

enum class SenderType : uint8_t { Member = 1, External = 2, NewMemberProposal = 3, NewMemberCommit = 4 };

struct Sender {
  SenderType type = SenderType::Member;
  uint32_t index = 0;  // the leaf index of a member, the ExternalSenders index of an external sender
  friend bool operator==(const Sender&, const Sender&) = default;
};

enum class ContentType : uint8_t { Application = 1, Proposal = 2, Commit = 3 };

struct FramedContent {
  Bytes groupId;
  uint64_t epoch = 0;
  Sender sender;
  Bytes authenticatedData;
  std::variant<Bytes, Proposal, Commit> body;  // application data, a proposal or a commit

  ContentType Type() const;
  void Write(Writer& out) const;
  static FramedContent Read(Reader& in);
  friend bool operator==(const FramedContent&, const FramedContent&) = default;
};

struct FramedContentAuthData {
  Bytes signature;
  Bytes confirmationTag;  // commits only
  friend bool operator==(const FramedContentAuthData&, const FramedContentAuthData&) = default;
};

/// FramedContent with its authentication: what a commit or proposal is once it is verified.
struct AuthenticatedContent {
  WireFormat wireFormat = WireFormat::PublicMessage;
  FramedContent content;
  FramedContentAuthData auth;

  /// FramedContentTBS: members and new-member commits sign the GroupContext too.
  Bytes ToBeSigned(const GroupContext& context) const;
  void Sign(const SignaturePrivateKey& key, const GroupContext& context);
  bool VerifySignature(ByteView publicKey, const GroupContext& context) const;
  /// ConfirmedTranscriptHashInput (commits).
  Bytes ConfirmedTranscriptHashInput() const;
  void Write(Writer& out) const;
  static AuthenticatedContent Read(Reader& in);
  friend bool operator==(const AuthenticatedContent&, const AuthenticatedContent&) = default;
};

struct PublicMessage {
  FramedContent content;
  FramedContentAuthData auth;
  Bytes membershipTag;  // member senders only

  AuthenticatedContent Authenticated() const;
  /// MAC(membership_key, AuthenticatedContentTBM)
  static Bytes MembershipTag(const AuthenticatedContent& content, const GroupContext& context,
                             const Secret& membershipKey);
  bool VerifyMembershipTag(const GroupContext& context, const Secret& membershipKey) const;
  /// Builds the message from authenticated content, with its membership tag when the sender is a member.
  static PublicMessage From(const AuthenticatedContent& authenticated, const GroupContext& context,
                            const Secret& membershipKey);

  void Write(Writer& out) const;
  static PublicMessage Read(Reader& in);
  friend bool operator==(const PublicMessage&, const PublicMessage&) = default;
};

struct PrivateMessage {
  Bytes groupId;
  uint64_t epoch = 0;
  ContentType contentType = ContentType::Application;
  Bytes authenticatedData;
  Bytes encryptedSenderData;
  Bytes ciphertext;

  void Write(Writer& out) const;
  static PrivateMessage Read(Reader& in);
  friend bool operator==(const PrivateMessage&, const PrivateMessage&) = default;
};

/// MAC = HMAC-SHA256 (the cipher suite's KDF hash); compared in constant time.
Bytes Mac(ByteView key, ByteView data);
bool MacEqual(ByteView a, ByteView b);

/// confirmation_tag = MAC(confirmation_key, confirmed_transcript_hash)
Bytes ConfirmationTag(const Secret& confirmationKey, ByteView confirmedTranscriptHash);

struct TranscriptHashes {
  Bytes confirmed;
  Bytes interim;
  /// The hashes after a commit, from the interim hash before it.
  static TranscriptHashes After(ByteView interimBefore, const AuthenticatedContent& commit);
  /// The interim hash from a confirmed hash and its confirmation tag.
  static Bytes Interim(ByteView confirmed, ByteView confirmationTag);
};

}  // namespace platformpp::mls
