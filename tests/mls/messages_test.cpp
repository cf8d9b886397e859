// MLS messages against the RFC 9420 vectors: messages (every structure decodes and re-encodes to the same
// bytes), message-protection (PublicMessage signatures and membership tags; the PrivateMessage parts are
// skipped: DAVE never sends one), transcript-hashes and welcome.
#include "vectors.hpp"

#include "mls/framing.hpp"
#include "mls/key_schedule.hpp"
#include "mls/ratchet_tree.hpp"
#include "mls/welcome.hpp"

#include <doctest/doctest.h>

#include <functional>

namespace messages_test {

using namespace platformpp::mls;
using mls_vectors::Hex;
using mls_vectors::Load;
using mls_vectors::ToHex;

// Decodes `bytes` with `read` (all of them must be used) and encodes the result with `write`.
template <class T>
Bytes RoundTrip(const Bytes& bytes, const std::function<T(Reader&)>& read,
                const std::function<void(Writer&, const T&)>& write) {
  Reader in(bytes, "vector");
  T value = read(in);
  in.ExpectDone();
  Writer out;
  write(out, value);
  return std::move(out).Take();
}

TEST_CASE("MLS vectors: messages decode and re-encode byte for byte") {
  auto cases = Load("messages.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO("messages.json #" << i);
    for (const char* field :
         {"mls_welcome", "mls_group_info", "mls_key_package", "public_message_application",
          "public_message_proposal", "public_message_commit", "private_message"}) {
      INFO(field);
      const Bytes bytes = Hex(c[field]);
      CHECK(ToHex(MlsMessage::Decode(bytes).Encode()) == ToHex(bytes));
    }
    auto check = [&]<class T>(const char* field, std::function<T(Reader&)> read,
                              std::function<void(Writer&, const T&)> write) {
      INFO(field);
      const Bytes bytes = Hex(c[field]);
      CHECK(ToHex(RoundTrip<T>(bytes, read, write)) == ToHex(bytes));
    };
    check.operator()<RatchetTree>("ratchet_tree", RatchetTree::Read,
                                  [](Writer& o, const RatchetTree& t) { t.Write(o); });
    check.operator()<GroupSecrets>("group_secrets", GroupSecrets::Read,
                                   [](Writer& o, const GroupSecrets& s) { s.Write(o); });
    check.operator()<KeyPackage>("add_proposal", KeyPackage::Read,
                                 [](Writer& o, const KeyPackage& k) { k.Write(o); });
    check.operator()<LeafNode>("update_proposal", LeafNode::Read,
                               [](Writer& o, const LeafNode& l) { l.Write(o); });
    check.operator()<uint32_t>(
        "remove_proposal", [](Reader& r) { return r.U32(); }, [](Writer& o, const uint32_t& v) { o.U32(v); });
    check.operator()<PreSharedKeyId>("pre_shared_key_proposal", ReadPreSharedKeyId, WritePreSharedKeyId);
    check.operator()<Proposal>(
        "re_init_proposal",
        [](Reader& r) {
          ReInitProposal reinit;
          reinit.groupId = r.Vector();
          reinit.version = r.U16();
          reinit.cipherSuite = r.U16();
          reinit.extensions = ReadExtensions(r);
          return Proposal{std::move(reinit)};
        },
        [](Writer& o, const Proposal& p) {
          Bytes full = p.Encode();
          o.Raw(ByteView(full).subspan(2));  // without the proposal type
        });
    check.operator()<Bytes>(
        "external_init_proposal", [](Reader& r) { return r.Vector(); },
        [](Writer& o, const Bytes& b) { o.Vector(b); });
    check.operator()<std::vector<Extension>>("group_context_extensions_proposal", ReadExtensions,
                                             WriteExtensions);
    check.operator()<Commit>("commit", Commit::Read,
                             [](Writer& o, const Commit& commit) { commit.Write(o); });
  }
}

TEST_CASE("MLS vectors: message-protection (PublicMessage)") {
  auto cases = Load("message-protection.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO("message-protection.json #" << i);
    REQUIRE(c["cipher_suite"].GetInt() == 2);
    GroupContext context;
    context.groupId = Hex(c["group_id"]);
    context.epoch = c["epoch"].GetUint64();
    context.treeHash = Hex(c["tree_hash"]);
    context.confirmedTranscriptHash = Hex(c["confirmed_transcript_hash"]);
    const Secret membershipKey(Hex(c["membership_key"]));
    const Bytes signaturePub = Hex(c["signature_pub"]);

    // The proposal and the commit as the vectors' PublicMessages: they verify and carry the given content.
    for (const char* kind : {"proposal", "commit"}) {
      INFO(kind);
      const MlsMessage message = MlsMessage::Decode(Hex(c[(std::string(kind) + "_pub").c_str()]));
      REQUIRE(message.Format() == WireFormat::PublicMessage);
      const auto& pub = std::get<PublicMessage>(message.body);
      CHECK(pub.VerifyMembershipTag(context, membershipKey));
      CHECK(pub.Authenticated().VerifySignature(signaturePub, context));
      const Bytes expected = Hex(c[kind]);
      if (std::string(kind) == "proposal") {
        CHECK(ToHex(std::get<Proposal>(pub.content.body).Encode()) == ToHex(expected));
      } else {
        CHECK(ToHex(std::get<Commit>(pub.content.body).Encode()) == ToHex(expected));
      }
      // Tampering is noticed: another membership key, another epoch in the context.
      CHECK_FALSE(pub.VerifyMembershipTag(context, Secret(Bytes(32, 1))));
      GroupContext other = context;
      ++other.epoch;
      CHECK_FALSE(pub.Authenticated().VerifySignature(signaturePub, other));
    }

    // Ours: the proposal signed with the vector's key and protected with its membership key.
    AuthenticatedContent ours;
    ours.content.groupId = context.groupId;
    ours.content.epoch = context.epoch;
    ours.content.sender = {SenderType::Member, 1};
    const Bytes proposalBytes = Hex(c["proposal"]);
    Reader proposal(proposalBytes);
    ours.content.body = Proposal::Read(proposal);
    ours.Sign(SignaturePrivateKey::FromScalar(Hex(c["signature_priv"])), context);
    const PublicMessage message = PublicMessage::From(ours, context, membershipKey);
    const MlsMessage parsed = MlsMessage::Decode(MlsMessage{kProtocolVersion, message}.Encode());
    const auto& back = std::get<PublicMessage>(parsed.body);
    CHECK(back.VerifyMembershipTag(context, membershipKey));
    CHECK(back.Authenticated().VerifySignature(signaturePub, context));
    CHECK(back == message);
  }
  MESSAGE(
      "message-protection: the PrivateMessage parts (proposal_priv, commit_priv, application_priv) are "
      "skipped: DAVE sends no PrivateMessage");
}

TEST_CASE("MLS vectors: transcript-hashes") {
  auto cases = Load("transcript-hashes.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO("transcript-hashes.json #" << i);
    REQUIRE(c["cipher_suite"].GetInt() == 2);
    const Bytes encoded = Hex(c["authenticated_content"]);
    Reader in(encoded);
    const AuthenticatedContent commit = AuthenticatedContent::Read(in);
    in.ExpectDone();
    Writer again;
    commit.Write(again);
    CHECK(ToHex(again.Data()) == ToHex(encoded));
    const TranscriptHashes after = TranscriptHashes::After(Hex(c["interim_transcript_hash_before"]), commit);
    CHECK(ToHex(after.confirmed) == ToHex(Hex(c["confirmed_transcript_hash_after"])));
    CHECK(ToHex(after.interim) == ToHex(Hex(c["interim_transcript_hash_after"])));
    const Bytes tag = ConfirmationTag(Secret(Hex(c["confirmation_key"])), after.confirmed);
    CHECK(MacEqual(tag, commit.auth.confirmationTag));
  }
}

TEST_CASE("MLS vectors: welcome (group secrets and group info decrypted and verified)") {
  auto cases = Load("welcome.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO("welcome.json #" << i);
    REQUIRE(c["cipher_suite"].GetInt() == 2);
    const MlsMessage keyPackageMessage = MlsMessage::Decode(Hex(c["key_package"]));
    const auto& keyPackage = std::get<KeyPackage>(keyPackageMessage.body);
    const HpkePrivateKey initKey = HpkePrivateKey::FromScalar(Hex(c["init_priv"]));
    CHECK(initKey.PublicKey() == keyPackage.initKey);
    const MlsMessage welcomeMessage = MlsMessage::Decode(Hex(c["welcome"]));
    const auto& welcome = std::get<Welcome>(welcomeMessage.body);

    const Bytes ref = keyPackage.Ref();
    const EncryptedGroupSecrets* mine = nullptr;
    for (const auto& entry : welcome.secrets) {
      if (entry.newMember == ref) mine = &entry;
    }
    REQUIRE(mine != nullptr);
    const Bytes plain =
        DecryptWithLabel(initKey, "Welcome", welcome.encryptedGroupInfo, mine->encryptedGroupSecrets);
    Reader secretsIn(plain);
    const GroupSecrets secrets = GroupSecrets::Read(secretsIn);
    secretsIn.ExpectDone();
    CHECK(secrets.psks.empty());

    const EpochSecrets epoch = EpochSecrets::FromJoiner(secrets.joinerSecret, Secret::Zero(kHashSize),
                                                        Bytes{} /* not needed here */);
    const WelcomeKeys keys = DeriveWelcomeKeys(epoch.welcome);
    const Bytes infoBytes = AeadOpen(keys.key, keys.nonce, {}, welcome.encryptedGroupInfo);
    Reader infoIn(infoBytes);
    const GroupInfo info = GroupInfo::Read(infoIn);
    infoIn.ExpectDone();
    CHECK(info.VerifySignature(Hex(c["signer_pub"])));
    // The epoch's confirmation key confirms the GroupInfo's transcript hash.
    const EpochSecrets joined =
        EpochSecrets::FromJoiner(secrets.joinerSecret, Secret::Zero(kHashSize), info.groupContext.Encode());
    CHECK(MacEqual(ConfirmationTag(joined.confirmationKey, info.groupContext.confirmedTranscriptHash),
                   info.confirmationTag));
  }
}

}  // namespace messages_test
