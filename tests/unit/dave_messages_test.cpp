// The binary DAVE messages (opcodes 25-30): each built from a real MLS exchange, encoded as the platform's
// protocol lays it out, read back; and malformed payloads refused.
#include "voice/dave/messages.hpp"

#include <doctest/doctest.h>

namespace dave_messages_test {

using namespace platformpp::voice::dave;
namespace mls = platformpp::mls;

struct Exchange {
  mls::SignaturePrivateKey server = mls::SignaturePrivateKey::Generate();
  mls::SignaturePrivateKey signerA = mls::SignaturePrivateKey::Generate();
  mls::SignaturePrivateKey signerB = mls::SignaturePrivateKey::Generate();
  mls::KeyPackageBundle a = mls::MakeKeyPackage(signerA, Identity(1001));
  mls::KeyPackageBundle b = mls::MakeKeyPackage(signerB, Identity(1002));
  mls::ExternalSender external{server.PublicKey(), mls::Credential{mls::kCredentialBasic, {'v', 'g'}, {}}};

  static mls::KeyPackageOptions Identity(uint64_t userId) {
    mls::KeyPackageOptions options;
    for (int shift = 56; shift >= 0; shift -= 8)
      options.identity.push_back(static_cast<uint8_t>(userId >> shift));  // big-endian, as DAVE requires
    return options;
  }
};

TEST_CASE("DAVE messages: external sender package (25) and key package (26)") {
  Exchange x;
  const mls::Bytes package = WriteExternalSenderPackage(x.external);
  CHECK(ReadExternalSenderPackage(package) == x.external);
  // signature_key<V> then the credential: u16 type 1, identity<V>.
  REQUIRE(x.external.signatureKey.size() == 65);
  CHECK(package[0] == 0x40);  // 65 needs a two-byte length
  CHECK(package[1] == 65);
  CHECK(package[2 + 65] == 0);
  CHECK(package[3 + 65] == 1);

  const mls::Bytes keyPackage = WriteKeyPackageMessage(x.a.keyPackage);
  CHECK(ReadKeyPackageMessage(keyPackage) == x.a.keyPackage);
  CHECK(keyPackage == x.a.keyPackage.Encode());  // bare, as libdave sends it
  CHECK(keyPackage[3] == 0x02);                  // the cipher suite right after the version
  // The MLSMessage form of the protocol document is read as well.
  const mls::Bytes wrapped = mls::MlsMessage{mls::kProtocolVersion, x.a.keyPackage}.Encode();
  CHECK(wrapped[3] == 0x05);
  CHECK(ReadKeyPackageMessage(wrapped) == x.a.keyPackage);
  // Not a key package message: the external sender bytes.
  CHECK_THROWS_AS(ReadKeyPackageMessage(package), mls::Error);
  // Trailing bytes.
  mls::Bytes longer = package;
  longer.push_back(0);
  CHECK_THROWS_AS(ReadExternalSenderPackage(longer), mls::Error);
}

TEST_CASE("DAVE messages: proposals (27), commit and welcome (28), announced commit (29), welcome (30)") {
  Exchange x;
  auto group = mls::Group::Create(mls::Bytes{0, 0, 0, 0, 0, 0, 0, 7}, x.a,
                                  {mls::MakeExternalSendersExtension({x.external})});
  const mls::MlsMessage add =
      mls::ExternalProposal(group.Context(), 0, x.server, mls::Proposal{mls::AddProposal{x.b.keyPackage}});

  ProposalsMessage append;
  append.proposals.push_back(add);
  const mls::Bytes appendBytes = WriteProposals(append);
  CHECK(appendBytes[0] == 0);  // append
  const ProposalsMessage appendBack = ReadProposals(appendBytes);
  REQUIRE(appendBack.proposals.size() == 1);
  CHECK(appendBack.proposals[0] == add);
  const mls::Bytes ref = group.HandleProposal(appendBack.proposals[0]);

  ProposalsMessage revoke;
  revoke.operation = ProposalsMessage::Operation::Revoke;
  revoke.revokedRefs = {ref, ref};
  const mls::Bytes revokeBytes = WriteProposals(revoke);
  CHECK(revokeBytes[0] == 1);
  CHECK(ReadProposals(revokeBytes).revokedRefs == revoke.revokedRefs);

  const mls::Group::CommitOutput output = group.Commit();
  REQUIRE(output.welcome);
  CommitWelcomeMessage commitWelcome{output.commit, std::get<mls::Welcome>(output.welcome->body)};
  const CommitWelcomeMessage commitBack = ReadCommitWelcome(WriteCommitWelcome(commitWelcome));
  CHECK(commitBack.commit == output.commit);
  REQUIRE(commitBack.welcome);
  CHECK(*commitBack.welcome == *commitWelcome.welcome);
  // Without a welcome (a commit that adds nobody).
  const CommitWelcomeMessage bare = ReadCommitWelcome(WriteCommitWelcome({output.commit, std::nullopt}));
  CHECK_FALSE(bare.welcome);

  const mls::Bytes announced = WriteAnnounceCommit({513, output.commit});
  CHECK(announced[0] == 0x02);  // u16 transition id, big-endian
  CHECK(announced[1] == 0x01);
  const AnnounceCommitMessage announceBack = ReadAnnounceCommit(announced);
  CHECK(announceBack.transitionId == 513);
  CHECK(group.HandleCommit(announceBack.commit) == mls::Group::CommitResult::Applied);

  const WelcomeMessage welcomeBack = ReadWelcome(WriteWelcome({9, *commitWelcome.welcome}));
  CHECK(welcomeBack.transitionId == 9);
  auto joined = mls::Group::Join(welcomeBack.welcome, x.b);
  CHECK(joined.EpochAuthenticator() == group.EpochAuthenticator());
}

TEST_CASE("DAVE messages: malformed payloads are refused with mls::Error") {
  CHECK_THROWS_AS(ReadProposals(mls::Bytes{2, 0}), mls::Error);  // unknown operation
  CHECK_THROWS_AS(ReadProposals(mls::Bytes{0}), mls::Error);     // no vector
  CHECK_THROWS_AS(ReadProposals(mls::Bytes{0, 5, 0, 1}), mls::Error);
  CHECK(ReadProposals(mls::Bytes{1, 0}).revokedRefs.empty());
  CHECK_THROWS_AS(ReadAnnounceCommit(mls::Bytes{0}), mls::Error);
  CHECK_THROWS_AS(ReadWelcome(mls::Bytes{0, 1}), mls::Error);
  CHECK_THROWS_AS(ReadCommitWelcome(mls::Bytes{}), mls::Error);
  CHECK_THROWS_AS(ReadExternalSenderPackage(mls::Bytes{1, 4, 0, 2, 0}), mls::Error);  // an X.509 credential
}

}  // namespace dave_messages_test
