// The public ratchet tree against the tree-validation vectors (tree hashes and resolutions of every node,
// parent hashes, leaf signatures, the extension's encoding), and its refusals of malformed trees.
#include "vectors.hpp"

#include "mls/proposal.hpp"
#include "mls/ratchet_tree.hpp"

#include <doctest/doctest.h>

#include <algorithm>

namespace ratchet_tree_test {

using namespace platformpp::mls;
using mls_vectors::Hex;
using mls_vectors::Load;
using mls_vectors::ToHex;

TEST_CASE("MLS vectors: tree-validation") {
  auto cases = Load("tree-validation.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO("tree-validation.json #" << i);
    REQUIRE(c["cipher_suite"].GetInt() == 2);
    const Bytes encoded = Hex(c["tree"]);
    const RatchetTree tree = RatchetTree::Decode(encoded);
    CHECK(ToHex(tree.Encode()) == ToHex(encoded));
    const auto& hashes = c["tree_hashes"];
    const auto& resolutions = c["resolutions"];
    REQUIRE(hashes.Size() == tree.NodeCount());
    REQUIRE(resolutions.Size() == tree.NodeCount());
    for (NodeIndex node = 0; node < tree.NodeCount(); ++node) {
      INFO("node " << node);
      CHECK(ToHex(tree.TreeHash(node)) == ToHex(Hex(hashes[node])));
      std::vector<NodeIndex> expected;
      for (const auto& n : resolutions[node].GetArray())
        expected.push_back(n.GetUint());
      CHECK(tree.Resolution(node) == expected);
    }
    CHECK(tree.ParentHashesValid());
    CHECK(tree.LeafSignaturesValid(Hex(c["group_id"])));
    // Another group: the signatures of leaves from commits and updates name the group they were made in.
    bool anyBound = false;
    for (LeafIndex leaf = 0; leaf < tree.LeafCount(); ++leaf) {
      if (const LeafNode* content = tree.Leaf(leaf))
        anyBound |= content->source != LeafNodeSource::KeyPackage;
    }
    if (anyBound) CHECK_FALSE(tree.LeafSignaturesValid(Bytes{'o', 't', 'h', 'e', 'r'}));
  }
}

TEST_CASE("MLS vectors: tree-operations (Add, Update, Remove applied to a tree)") {
  auto cases = Load("tree-operations.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO("tree-operations.json #" << i);
    // These vectors are of cipher suite 1: the tree's structure and hashes (SHA-256) do not depend on it.
    RatchetTree tree = RatchetTree::Decode(Hex(c["tree_before"]));
    CHECK(ToHex(tree.TreeHash()) == ToHex(Hex(c["tree_hash_before"])));
    const Bytes proposalBytes = Hex(c["proposal"]);
    Reader in(proposalBytes);
    const Proposal proposal = Proposal::Read(in);
    in.ExpectDone();
    const LeafIndex sender = c["proposal_sender"].GetUint();
    if (const auto* add = std::get_if<AddProposal>(&proposal.body)) {
      tree.AddLeaf(add->keyPackage.leafNode);
    } else if (const auto* update = std::get_if<UpdateProposal>(&proposal.body)) {
      tree.UpdateLeaf(sender, update->leafNode);
    } else if (const auto* remove = std::get_if<RemoveProposal>(&proposal.body)) {
      tree.RemoveLeaf(remove->removed);
    } else {
      FAIL("a proposal type the vectors should not have");
    }
    CHECK(ToHex(tree.Encode()) == ToHex(Hex(c["tree_after"])));
    CHECK(ToHex(tree.TreeHash()) == ToHex(Hex(c["tree_hash_after"])));
  }
}

TEST_CASE("MLS ratchet tree: adds fill the leftmost blank and double a full tree; removes truncate") {
  auto cases = Load("tree-validation.json");
  const RatchetTree sample = RatchetTree::Decode(Hex(cases[0]["tree"]));
  const LeafNode* someLeaf = sample.Leaf(0);
  REQUIRE(someLeaf != nullptr);
  RatchetTree tree(*someLeaf);
  CHECK(tree.LeafCount() == 1);
  CHECK(tree.AddLeaf(*someLeaf) == 1);
  CHECK(tree.LeafCount() == 2);
  CHECK(tree.AddLeaf(*someLeaf) == 2);
  CHECK(tree.LeafCount() == 4);
  CHECK(tree.NodeCount() == 7);
  tree.RemoveLeaf(1);
  CHECK(tree.FirstBlankLeaf() == 1);
  CHECK(tree.AddLeaf(*someLeaf) == 1);  // the leftmost blank
  tree.RemoveLeaf(2);
  CHECK(tree.LeafCount() == 2);  // the right half was blank: truncated
  CHECK_THROWS_AS(tree.RemoveLeaf(3), Error);
  CHECK_THROWS_AS(tree.UpdateLeaf(5, *someLeaf), Error);
  // A parent above a leaf added later lists it as unmerged.
  CHECK(tree.AddLeaf(*someLeaf) == 2);
  CHECK(tree.LeafCount() == 4);
  ParentNode parent;
  parent.encryptionKey = someLeaf->encryptionKey;
  tree.SetParent(5, parent);  // above leaves 2 and 3
  CHECK(tree.AddLeaf(*someLeaf) == 3);
  REQUIRE(tree.Parent(5) != nullptr);
  CHECK(tree.Parent(5)->unmergedLeaves == std::vector<LeafIndex>{3});
  CHECK(tree.Resolution(5) == std::vector<NodeIndex>{5, 6});
  CHECK_THROWS_AS(tree.SetParent(4, parent), Error);  // a leaf position
}

TEST_CASE("MLS ratchet tree: a changed parent node breaks the parent hashes and the tree hash") {
  auto cases = Load("tree-validation.json");
  int tried = 0;
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const Bytes encoded = Hex(cases[i]["tree"]);
    const RatchetTree tree = RatchetTree::Decode(encoded);
    // Find a parent node's encryption key in the encoding and flip a byte of it.
    for (NodeIndex node = 1; node < tree.NodeCount(); node += 2) {
      const ParentNode* parent = tree.Parent(node);
      if (!parent) continue;
      auto at = std::search(encoded.begin(), encoded.end(), parent->encryptionKey.begin(),
                            parent->encryptionKey.end());
      REQUIRE(at != encoded.end());
      Bytes tampered = encoded;
      tampered[static_cast<std::size_t>(at - encoded.begin()) + 10] ^= 1;
      const RatchetTree changed = RatchetTree::Decode(tampered);
      CHECK_FALSE(changed.ParentHashesValid());
      CHECK(changed.TreeHash() != tree.TreeHash());
      ++tried;
      break;
    }
  }
  CHECK(tried > 0);
}

TEST_CASE("MLS ratchet tree: malformed trees are refused") {
  auto cases = Load("tree-validation.json");
  const Bytes encoded = Hex(cases[0]["tree"]);
  const RatchetTree tree = RatchetTree::Decode(encoded);
  REQUIRE(tree.LeafCount() >= 2);

  // A trailing blank node.
  {
    Writer out;
    Reader in(encoded);
    std::vector<Bytes> nodes;
    in.Items([&](Reader& item) {
      const std::size_t from = item.Position();
      if (item.Present()) {
        const uint8_t type = item.U8();
        if (type == 1) {
          LeafNode::Read(item);
        } else {
          ParentNode::Read(item);
        }
      }
      const auto raw = item.Since(from);
      nodes.emplace_back(raw.begin(), raw.end());
    });
    nodes.push_back(Bytes{0});
    out.Nested([&](Writer& inner) {
      for (const Bytes& node : nodes)
        inner.Raw(node);
    });
    CHECK_THROWS_AS(RatchetTree::Decode(out.Data()), Error);
  }
  // An empty tree.
  CHECK_THROWS_AS(RatchetTree::Decode(Bytes{0}), Error);
  // A leaf at a parent position: the first leaf's bytes twice.
  {
    Reader in(encoded);
    Bytes first;
    in.Items([&](Reader& item) {
      if (!first.empty()) {
        item.Raw(item.Remaining());
        return;
      }
      const std::size_t from = item.Position();
      REQUIRE(item.Present());
      REQUIRE(item.U8() == 1);
      LeafNode::Read(item);
      const auto raw = item.Since(from);
      first.assign(raw.begin(), raw.end());
    });
    Writer out;
    out.Nested([&](Writer& inner) {
      inner.Raw(first);
      inner.Raw(first);
    });
    CHECK_THROWS_AS(RatchetTree::Decode(out.Data()), Error);
  }
  // Bytes after the tree, and a truncated tree.
  Bytes longer = encoded;
  longer.push_back(0);
  CHECK_THROWS_AS(RatchetTree::Decode(longer), Error);
  Bytes shorter(encoded.begin(), encoded.end() - 1);
  CHECK_THROWS_AS(RatchetTree::Decode(shorter), Error);
}

}  // namespace ratchet_tree_test
