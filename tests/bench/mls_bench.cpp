// MLS (src/mls) costs that a DAVE call pays, each against the bare cryptographic operations it cannot avoid,
// timed in the same process (medians of several rounds):
//   1. adding the 25th member: one member's Commit (with its Welcome) plus another member's HandleCommit,
//      against the HPKE encryptions, key derivations, signatures and verifications the protocol requires of
//      those two members for this commit, each timed alone (goal <= 1.5x);
//   2. joining a 25-member group from that Welcome, against its bare operations (the HPKE decryption, the
//      GroupInfo and 25 leaf signature verifications, the path key derivations);
//   3. one exporter derivation (MLS-Exporter, as DAVE derives each sender's key), against the same two
//      HKDF-Expand and one SHA-256 made straight through OpenSSL.
// OpenSSL 3.0 has no HPKE, so the bare operations are HPKE, DeriveKeyPair and labelled ECDSA written straight
// on OpenSSL's primitives (bare_hpke.hpp), none of this library's code; before timing, each bare operation
// and the library's are checked against each other (each opens the other's ciphertexts, derives the same key
// pair, verifies the other's signatures), so the two do the same work. Ratio 1 would mean the MLS machinery
// around them (trees, hashing, encoding, copies) costs nothing.
#include "mls/cipher_suite.hpp"
#include "mls/group.hpp"
#include "mls/hpke.hpp"
#include "mls/key_schedule.hpp"

#include "bare_hpke.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench_mode.hpp"

using namespace platformpp::mls;
using Clock = std::chrono::steady_clock;
namespace bare_hpke = platformpp::bench::bare_hpke;

namespace {

const int kRounds = platformpp::bench::Sized(7, 1);
constexpr int kMembersBefore = 24;

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

template <class F>
double Millis(F&& f) {
  const auto start = Clock::now();
  f();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The time of one call of `f`, in ms: the median over rounds of `count` calls.
template <class F>
double Each(int count, F&& f) {
  std::vector<double> rounds;
  rounds.reserve(5);
  for (int r = 0; r < 5; ++r)
    rounds.push_back(Millis([&] {
                       for (int i = 0; i < count; ++i)
                         f();
                     }) /
                     count);
  return Median(rounds);
}

struct Member {
  explicit Member(int index) : signer(SignaturePrivateKey::Generate()) {
    KeyPackageOptions options;
    const std::string name = "member" + std::to_string(index);
    options.identity.assign(name.begin(), name.end());
    bundle = std::make_unique<KeyPackageBundle>(MakeKeyPackage(signer, options));
  }
  SignaturePrivateKey signer;
  std::unique_ptr<KeyPackageBundle> bundle;
  std::unique_ptr<Group> group;
};

// A group of kMembersBefore members (one commit after the creator), plus one more client to add.
std::vector<std::unique_ptr<Member>> MakeGroup() {
  std::vector<std::unique_ptr<Member>> members;
  for (int i = 0; i <= kMembersBefore; ++i)
    members.push_back(std::make_unique<Member>(i));
  members[0]->group =
      std::make_unique<Group>(Group::Create(Bytes{'b', 'e', 'n', 'c', 'h'}, *members[0]->bundle, {}));
  std::vector<Proposal> adds;
  for (int i = 1; i < kMembersBefore; ++i)
    adds.push_back(Proposal{AddProposal{members[i]->bundle->keyPackage}});
  Group::CommitOutput output = members[0]->group->Commit(adds);
  members[0]->group->HandleCommit(output.commit);
  const Welcome& welcome = std::get<Welcome>(output.welcome->body);
  for (int i = 1; i < kMembersBefore; ++i)
    members[i]->group = std::make_unique<Group>(Group::Join(welcome, *members[i]->bundle));
  return members;
}

// HKDF-Expand straight through OpenSSL's one-shot EVP_PKEY HKDF.
void BareExpand(ByteView prk, ByteView info, uint8_t* out, std::size_t length) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nullptr);
  EVP_PKEY_derive_init(ctx);
  EVP_PKEY_CTX_set_hkdf_mode(ctx, EVP_PKEY_HKDEF_MODE_EXPAND_ONLY);
  EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256());
  EVP_PKEY_CTX_set1_hkdf_key(ctx, prk.data(), static_cast<int>(prk.size()));
  EVP_PKEY_CTX_add1_hkdf_info(ctx, info.data(), static_cast<int>(info.size()));
  std::size_t size = length;
  EVP_PKEY_derive(ctx, out, &size);
  EVP_PKEY_CTX_free(ctx);
}

}  // namespace

// MLS's EncryptContext {"MLS 1.0 " + label, context} (both vectors under 16 KiB: two-byte varints at most).
bare_hpke::Bytes EncryptContext(std::string_view label, const Bytes& context) {
  const std::string full = "MLS 1.0 " + std::string(label);
  bare_hpke::Bytes out{static_cast<uint8_t>(full.size())};
  out.insert(out.end(), full.begin(), full.end());
  out.push_back(static_cast<uint8_t>(0x40 | (context.size() >> 8)));
  out.push_back(static_cast<uint8_t>(context.size()));
  out.insert(out.end(), context.begin(), context.end());
  return out;
}

// The bare operations and the library's do the same work: each opens the other's ciphertexts, both derive the
// same key pair from one secret, each verifies the other's signatures.
bool SameWork(const Bytes& context, const Bytes& secret, const Bytes& message) {
  namespace bare = bare_hpke;
  const bare::Pkey bareKey = bare::Generate();
  const Bytes barePublic = bare::PublicKey(bareKey.get());
  const Secret scalar = HpkePrivateKey::Derive(secret).Scalar();
  const bare::Pkey derived = bare::DeriveKeyPair(secret);
  if (bare::PublicKey(derived.get()) != HpkePrivateKey::Derive(secret).PublicKey()) return false;
  const HpkePrivateKey ours = HpkePrivateKey::FromScalar(scalar.Reveal());
  const bare::Bytes info = EncryptContext("UpdatePathNode", context);
  // The library seals, the bare code opens; and the reverse.
  const HpkeCiphertext sealed = EncryptWithLabel(ours.PublicKey(), "UpdatePathNode", context, secret);
  if (bare::Open(derived.get(), {sealed.kemOutput, sealed.ciphertext}, info, {}) != secret) return false;
  const bare::Sealed bareSealed = bare::Seal(ours.PublicKey(), info, {}, secret);
  if (DecryptWithLabel(ours, "UpdatePathNode", context, {bareSealed.enc, bareSealed.ciphertext}) != secret)
    return false;
  const SignaturePrivateKey signer = SignaturePrivateKey::FromScalar(scalar.Reveal());
  if (!bare::Verify(derived.get(), "FramedContentTBS", message,
                    SignWithLabel(signer, "FramedContentTBS", message)))
    return false;
  return VerifyWithLabel(signer.PublicKey(), "FramedContentTBS", message,
                         bare::Sign(derived.get(), "FramedContentTBS", message)) &&
         !barePublic.empty();
}

int main() {
  // --- the bare operations, each timed alone --------------------------------------------------------------
  namespace bare = bare_hpke;
  const Bytes context(200, 7);
  const Bytes secret(32, 9);
  const Bytes message(300, 5);
  if (!SameWork(context, secret, message)) {
    std::printf("error: the bare OpenSSL operations and the library's do not agree\n");
    return 1;
  }
  const bare::Pkey hpkeKey = bare::Generate();
  const bare::Bytes hpkePublic = bare::PublicKey(hpkeKey.get());
  const bare::Bytes hpkeInfo = EncryptContext("UpdatePathNode", context);
  const bare::Sealed sealed = bare::Seal(hpkePublic, hpkeInfo, {}, secret);
  const bare::Pkey signKey = bare::Generate();
  const bare::Bytes signature = bare::Sign(signKey.get(), "FramedContentTBS", message);
  double tEncrypt = 0, tDecrypt = 0, tDerive = 0, tGenerate = 0, tSign = 0, tVerify = 0;
  // Timed again in every round, right before the group operations, so that both see the machine alike.
  auto timeBare = [&] {
    tEncrypt = Each(40, [&] { (void)bare::Seal(hpkePublic, hpkeInfo, {}, secret); });
    tDecrypt = Each(40, [&] { (void)bare::Open(hpkeKey.get(), sealed, hpkeInfo, {}); });
    tDerive = Each(40, [&] { (void)bare::DeriveKeyPair(secret); });
    tGenerate = Each(40, [&] { (void)bare::Generate(); });
    tSign = Each(40, [&] { (void)bare::Sign(signKey.get(), "FramedContentTBS", message); });
    tVerify = Each(40, [&] { (void)bare::Verify(signKey.get(), "FramedContentTBS", message, signature); });
  };
  timeBare();
  std::printf(
      "bare operations on OpenSSL (ms): HPKE encrypt %.3f, decrypt %.3f, DeriveKeyPair %.3f, key generation "
      "%.3f, ECDSA sign %.3f, verify %.3f\n",
      tEncrypt, tDecrypt, tDerive, tGenerate, tSign, tVerify);

  // --- 1 and 2: adding the 25th member; joining from its Welcome
  // ---------------------------------------------
  std::vector<double> commitTimes, processTimes, joinTimes, baselineAdd, baselineJoin;
  for (int round = 0; round < kRounds; ++round) {
    auto members = MakeGroup();
    Member& committer = *members[0];
    Member& receiver = *members[1];
    Member& joiner = *members[kMembersBefore];
    const KeyPackage& added = joiner.bundle->keyPackage;

    timeBare();
    // What the protocol requires for this commit, read off the tree as it will be.
    RatchetTree after = committer.group->Tree();
    const LeafIndex newLeaf = after.AddLeaf(added.leafNode);
    const std::vector<NodeIndex> path = after.FilteredDirectPath(committer.group->OwnLeaf());
    int encryptions = 1;  // the new member's GroupSecrets
    for (NodeIndex node : after.FilteredCopath(committer.group->OwnLeaf())) {
      for (NodeIndex target : after.Resolution(node))
        encryptions += (target != NodeOfLeaf(newLeaf)) ? 1 : 0;
    }
    const NodeIndex shared =
        CommonAncestor(NodeOfLeaf(committer.group->OwnLeaf()), NodeOfLeaf(receiver.group->OwnLeaf()));
    const auto sharedAt = std::find(path.begin(), path.end(), shared);
    const int receiverDerives = static_cast<int>(path.end() - sharedAt);
    const NodeIndex joinShared = CommonAncestor(NodeOfLeaf(committer.group->OwnLeaf()), NodeOfLeaf(newLeaf));
    const int joinerDerives = static_cast<int>(path.end() - std::find(path.begin(), path.end(), joinShared));
    // Committer: a new leaf key, a key pair per path node, the encryptions; signs its leaf, the commit and
    // the GroupInfo; verifies the KeyPackage and its leaf. Receiver: verifies the commit, the new leaf, the
    // KeyPackage and its leaf; decrypts once; derives the key pairs from the shared node up.
    const double committerBare = tGenerate + static_cast<double>(path.size()) * tDerive +
                                 encryptions * tEncrypt + 3 * tSign + 2 * tVerify;
    const double receiverBare = 4 * tVerify + tDecrypt + receiverDerives * tDerive;
    baselineAdd.push_back(committerBare + receiverBare);

    Group::CommitOutput output;
    commitTimes.push_back(Millis([&] { output = committer.group->Commit({Proposal{AddProposal{added}}}); }));
    processTimes.push_back(Millis([&] { receiver.group->HandleCommit(output.commit); }));
    committer.group->HandleCommit(output.commit);
    const Welcome& welcome = std::get<Welcome>(output.welcome->body);
    std::unique_ptr<Group> joined;
    joinTimes.push_back(
        Millis([&] { joined = std::make_unique<Group>(Group::Join(welcome, *joiner.bundle)); }));
    // Joiner: decrypts its GroupSecrets; verifies the GroupInfo and every leaf (25); derives its path keys.
    baselineJoin.push_back(tDecrypt + (1 + kMembersBefore + 1) * tVerify + joinerDerives * tDerive);
    if (joined->EpochAuthenticator() != committer.group->EpochAuthenticator() ||
        receiver.group->EpochAuthenticator() != committer.group->EpochAuthenticator()) {
      std::printf("error: the members disagree after the commit\n");
      return 1;
    }
    if (round == 0) {
      std::printf(
          "the 25th add: %zu path nodes, %d HPKE encryptions; the receiver derives %d key pairs, the "
          "joiner %d\n",
          path.size(), encryptions, receiverDerives, joinerDerives);
    }
  }
  const double commit = Median(commitTimes), process = Median(processTimes), join = Median(joinTimes);
  const double addBare = Median(baselineAdd), joinBare = Median(baselineJoin);
  std::printf(
      "adding the 25th member: Commit %.2f ms + HandleCommit %.2f ms = %.2f ms; bare operations %.2f ms\n",
      commit, process, commit + process, addBare);
  std::printf("joining a 25-member group from the Welcome: %.2f ms; bare operations %.2f ms\n", join,
              joinBare);

  // --- 3: the exporter ------------------------------------------------------------------------------------
  const Secret exporterSecret(Bytes(32, 3));
  const Bytes exportContext(8, 1);
  const double tExport =
      Each(20000, [&] { (void)MlsExporter(exporterSecret, "Discord Secure Frames v0", exportContext, 16); });
  // The same derivation straight through OpenSSL: DeriveSecret, SHA-256 of the context, ExpandWithLabel.
  uint8_t bareOut[16];
  auto bareExport = [&] {
    uint8_t labelled[32];
    uint8_t* out = bareOut;
    static const uint8_t deriveInfo[] = {0x00, 0x20, 0x20, 'M', 'L', 'S', ' ', '1', '.', '0', ' ', 'D',
                                         'i',  's',  'c',  'o', 'r', 'd', ' ', 'S', 'e', 'c', 'u', 'r',
                                         'e',  ' ',  'F',  'r', 'a', 'm', 'e', 's', ' ', 'v', '0', 0x00};
    BareExpand(exporterSecret, ByteView(deriveInfo, sizeof deriveInfo), labelled, 32);
    uint8_t hash[32];
    unsigned int size = 0;
    EVP_Digest(exportContext.data(), exportContext.size(), hash, &size, EVP_sha256(), nullptr);
    uint8_t info[2 + 1 + 16 + 1 + 32] = {0x00, 0x10, 16,  'M', 'L', 'S', ' ', '1', '.', '0',
                                         ' ',  'e',  'x', 'p', 'o', 'r', 't', 'e', 'd', 32};
    std::copy(hash, hash + 32, info + 20);
    BareExpand(ByteView(labelled, 32), ByteView(info, sizeof info), out, 16);
  };
  bareExport();
  if (Bytes(bareOut, bareOut + 16) !=
      MlsExporter(exporterSecret, "Discord Secure Frames v0", exportContext, 16).Reveal()) {
    std::printf("error: the bare exporter derivation differs\n");
    return 1;
  }
  const double tExportBare = Each(20000, bareExport);
  std::printf("exporter: %.2f us per derivation; the same through OpenSSL's one-shot HKDF %.2f us\n",
              tExport * 1000, tExportBare * 1000);

  std::printf("ratio: commit + process of the 25th add / its bare operations = %.2f (goal <= 1.5)\n",
              (commit + process) / addBare);
  std::printf("ratio: joining from the Welcome / its bare operations = %.2f\n", join / joinBare);
  std::printf("ratio: exporter / OpenSSL HKDF = %.2f\n", tExport / tExportBare);
  return 0;
}
