// TreeKEM against the treekem vectors: every member's private keys match the tree; each UpdatePath applies
// (signature, parent hashes, tree hash after) and every other member decrypts the same path secret and
// commit secret; and an UpdatePath made here by each member is decrypted by all the others.
#include "vectors.hpp"

#include "mls/group_context.hpp"
#include "mls/treekem.hpp"

#include <doctest/doctest.h>

namespace treekem_test {

using namespace platformpp::mls;
using mls_vectors::Hex;
using mls_vectors::Load;
using mls_vectors::ToHex;

struct Member {
  LeafIndex leaf;
  Bytes encryptionPriv;
  Bytes signaturePriv;
  std::vector<std::pair<NodeIndex, Bytes>> pathSecrets;

  TreeKemPrivate Private() const {
    TreeKemPrivate state(leaf, HpkePrivateKey::FromScalar(encryptionPriv));
    for (const auto& [node, secret] : pathSecrets)
      state.SetPathSecret(node, Secret(secret));
    return state;
  }
};

TEST_CASE("MLS vectors: treekem") {
  auto cases = Load("treekem.json");
  REQUIRE(cases.Size() > 0);
  int decrypted = 0;
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO("treekem.json #" << i);
    REQUIRE(c["cipher_suite"].GetInt() == 2);
    const Bytes groupId = Hex(c["group_id"]);
    const RatchetTree before = RatchetTree::Decode(Hex(c["ratchet_tree"]));
    GroupContext context;
    context.groupId = groupId;
    context.epoch = c["epoch"].GetUint64();
    context.confirmedTranscriptHash = Hex(c["confirmed_transcript_hash"]);

    std::vector<Member> members;
    for (const auto& entry : c["leaves_private"].GetArray()) {
      Member member{
          entry["index"].GetUint(), Hex(entry["encryption_priv"]), Hex(entry["signature_priv"]), {}};
      for (const auto& secret : entry["path_secrets"].GetArray())
        member.pathSecrets.emplace_back(secret["node"].GetUint(), Hex(secret["path_secret"]));
      // The private keys match the public tree.
      const LeafNode* leaf = before.Leaf(member.leaf);
      REQUIRE(leaf != nullptr);
      CHECK(HpkePrivateKey::FromScalar(member.encryptionPriv).PublicKey() == leaf->encryptionKey);
      CHECK(SignaturePrivateKey::FromScalar(member.signaturePriv).PublicKey() == leaf->signatureKey);
      for (const auto& [node, secret] : member.pathSecrets) {
        REQUIRE(before.Parent(node) != nullptr);
        CHECK(NodeKeyFromPathSecret(Secret(secret)).PublicKey() == before.Parent(node)->encryptionKey);
      }
      members.push_back(std::move(member));
    }

    for (const auto& update : c["update_paths"].GetArray()) {
      const LeafIndex sender = update["sender"].GetUint();
      INFO("update from leaf " << sender);
      const Bytes pathBytes = Hex(update["update_path"]);
      Reader in(pathBytes);
      const UpdatePath path = UpdatePath::Read(in);
      in.ExpectDone();
      RatchetTree tree = before;
      ApplyUpdatePath(tree, sender, path, groupId);
      CHECK(ToHex(tree.TreeHash()) == ToHex(Hex(update["tree_hash_after"])));
      CHECK(tree.ParentHashesValid());
      GroupContext provisional = context;
      provisional.treeHash = tree.TreeHash();
      const Bytes contextBytes = provisional.Encode();
      for (const Member& member : members) {
        if (member.leaf == sender) continue;
        INFO("decrypted by leaf " << member.leaf);
        TreeKemPrivate state = member.Private();
        const Secret commitSecret = DecryptPath(tree, state, sender, path, contextBytes, {});
        CHECK(ToHex(commitSecret.Reveal()) == ToHex(Hex(update["commit_secret"])));
        const auto& expected = update["path_secrets"][member.leaf];
        if (!expected.IsNull()) {
          const NodeIndex common = CommonAncestor(NodeOfLeaf(member.leaf), NodeOfLeaf(sender));
          REQUIRE(state.PathSecret(common) != nullptr);
          CHECK(ToHex(state.PathSecret(common)->Reveal()) == ToHex(Hex(expected)));
        }
        ++decrypted;
      }
      // A tampered UpdatePath is refused: another leaf key breaks the signature; another node key breaks the
      // parent hash.
      if (!path.nodes.empty()) {
        UpdatePath other = path;
        other.nodes.back().encryptionKey = HpkePrivateKey::Generate().PublicKey();
        RatchetTree again = before;
        CHECK_THROWS_AS(ApplyUpdatePath(again, sender, other, groupId), Error);
      }
      UpdatePath resigned = path;
      resigned.leafNode.encryptionKey = HpkePrivateKey::Generate().PublicKey();
      RatchetTree again = before;
      CHECK_THROWS_AS(ApplyUpdatePath(again, sender, resigned, groupId), Error);
    }

    // Each member commits a path of its own; every other member decrypts it to the same commit secret.
    for (const Member& committer : members) {
      INFO("path made here by leaf " << committer.leaf);
      RatchetTree tree = before;
      LeafNode leaf = *tree.Leaf(committer.leaf);
      PreparedPath prepared = PreparePath(tree, committer.leaf, leaf,
                                          SignaturePrivateKey::FromScalar(committer.signaturePriv), groupId);
      CHECK(tree.ParentHashesValid());
      GroupContext provisional = context;
      provisional.treeHash = tree.TreeHash();
      const Bytes contextBytes = provisional.Encode();
      const UpdatePath path = EncryptPath(tree, committer.leaf, prepared, contextBytes, {});
      // A receiver rebuilds the same tree from the path.
      RatchetTree received = before;
      ApplyUpdatePath(received, committer.leaf, path, groupId);
      CHECK(received.TreeHash() == tree.TreeHash());
      for (const Member& member : members) {
        if (member.leaf == committer.leaf) continue;
        TreeKemPrivate state = member.Private();
        CHECK(DecryptPath(received, state, committer.leaf, path, contextBytes, {}) == prepared.commitSecret);
      }
    }
  }
  CHECK(decrypted > 0);
}

}  // namespace treekem_test
