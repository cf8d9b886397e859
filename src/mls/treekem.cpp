#include "mls/treekem.hpp"

#include "mls/cipher_suite.hpp"

#include <openssl/rand.h>

#include <algorithm>
#include <string>

namespace platformpp::mls {

namespace {

constexpr std::string_view kUpdatePathLabel = "UpdatePathNode";

// The child of `parent` that is not above `leafNode`: the copath side.
NodeIndex OtherChild(NodeIndex parent, NodeIndex leafNode) {
  return IsAncestor(Left(parent), leafNode) ? Right(parent) : Left(parent);
}

// The resolution of `node` without the leaves a commit adds.
std::vector<NodeIndex> ResolutionExcluding(const RatchetTree& tree, NodeIndex node,
                                           const std::vector<LeafIndex>& excluded) {
  std::vector<NodeIndex> out = tree.Resolution(node);
  std::erase_if(out, [&](NodeIndex n) {
    return IsLeaf(n) && std::find(excluded.begin(), excluded.end(), n / 2) != excluded.end();
  });
  return out;
}

const Bytes& PublicKeyOf(const RatchetTree& tree, NodeIndex node) {
  if (IsLeaf(node)) {
    const LeafNode* leaf = tree.Leaf(node / 2);
    if (!leaf) throw Error("MLS: a blank leaf in a resolution");
    return leaf->encryptionKey;
  }
  const ParentNode* parent = tree.Parent(node);
  if (!parent) throw Error("MLS: a blank parent in a resolution");
  return parent->encryptionKey;
}

// Puts parent nodes with `keys` on `sender`'s filtered direct path, blanks the rest of its direct path, and
// computes the parent hashes from the root down. Returns the parent hash the sender's leaf must carry.
Bytes SetPathNodes(RatchetTree& tree, LeafIndex sender, const std::vector<NodeIndex>& filtered,
                   const std::vector<Bytes>& keys) {
  const NodeIndex leafNode = NodeOfLeaf(sender);
  for (NodeIndex node : DirectPath(leafNode, tree.LeafCount()))
    tree.ClearNode(node);
  for (std::size_t i = 0; i < filtered.size(); ++i) {
    ParentNode parent;
    parent.encryptionKey = keys[i];
    tree.SetParent(filtered[i], std::move(parent));
  }
  // Each node's parent hash covers the node above it, so the chain is computed from the top.
  for (std::size_t i = filtered.size(); i-- > 1;) {
    ParentNode below = *tree.Parent(filtered[i - 1]);
    below.parentHash = tree.ParentHash(filtered[i], OtherChild(filtered[i], leafNode));
    tree.SetParent(filtered[i - 1], std::move(below));
  }
  if (filtered.empty()) return {};
  return tree.ParentHash(filtered[0], OtherChild(filtered[0], leafNode));
}

}  // namespace

HpkePrivateKey NodeKeyFromPathSecret(const Secret& pathSecret) {
  return HpkePrivateKey::Derive(DeriveSecret(pathSecret, "node"));
}

void TreeKemPrivate::SetPathSecrets(NodeIndex from, Secret pathSecret,
                                    const std::vector<NodeIndex>& pathAbove) {
  Secret current = std::move(pathSecret);
  pathSecrets_[from] = current;
  for (NodeIndex node : pathAbove) {
    current = DeriveSecret(current, "path");
    pathSecrets_[node] = current;
  }
}

const Secret* TreeKemPrivate::PathSecret(NodeIndex node) const {
  auto it = pathSecrets_.find(node);
  return it == pathSecrets_.end() ? nullptr : &it->second;
}

std::optional<HpkePrivateKey> TreeKemPrivate::KeyFor(NodeIndex node) const {
  if (node == NodeOfLeaf(leaf_)) return leafKey_;
  if (const Secret* secret = PathSecret(node)) return NodeKeyFromPathSecret(*secret);
  return std::nullopt;
}

void TreeKemPrivate::Forget(const std::vector<NodeIndex>& nodes) {
  for (NodeIndex node : nodes)
    pathSecrets_.erase(node);
}

void TreeKemPrivate::Prune(const RatchetTree& tree) {
  const NodeIndex own = NodeOfLeaf(leaf_);
  std::erase_if(pathSecrets_, [&](const auto& entry) {
    const NodeIndex node = entry.first;
    return node >= tree.NodeCount() || tree.Blank(node) || !IsAncestor(node, own);
  });
}

PreparedPath PreparePath(RatchetTree& tree, LeafIndex sender, LeafNode leaf,
                         const SignaturePrivateKey& signer, ByteView groupId) {
  if (!tree.Leaf(sender)) throw Error("MLS: a path for leaf " + std::to_string(sender) + ", which is blank");
  PreparedPath prepared{tree.FilteredDirectPath(sender), {}, {}, HpkePrivateKey::Generate()};
  Secret pathSecret(kHashSize);
  if (RAND_bytes(pathSecret.Data(), static_cast<int>(pathSecret.Size())) != 1)
    throw Error("MLS: no randomness for a path secret");
  std::vector<Bytes> keys;
  for (std::size_t i = 0; i < prepared.filteredPath.size(); ++i) {
    if (i > 0) pathSecret = DeriveSecret(pathSecret, "path");
    keys.push_back(NodeKeyFromPathSecret(pathSecret).PublicKey());
    prepared.pathSecrets.push_back(pathSecret);
  }
  prepared.commitSecret = DeriveSecret(pathSecret, "path");
  leaf.encryptionKey = prepared.leafKey.PublicKey();
  leaf.source = LeafNodeSource::Commit;
  leaf.lifetime = {};  // only KeyPackage leaves carry one
  leaf.parentHash = SetPathNodes(tree, sender, prepared.filteredPath, keys);
  leaf.Sign(signer, groupId, sender);
  tree.SetLeaf(sender, std::move(leaf));
  return prepared;
}

UpdatePath EncryptPath(const RatchetTree& tree, LeafIndex sender, const PreparedPath& prepared,
                       ByteView groupContext, const std::vector<LeafIndex>& excluded) {
  const NodeIndex leafNode = NodeOfLeaf(sender);
  UpdatePath path;
  path.leafNode = *tree.Leaf(sender);
  for (std::size_t i = 0; i < prepared.filteredPath.size(); ++i) {
    const NodeIndex node = prepared.filteredPath[i];
    UpdatePathNode entry;
    entry.encryptionKey = tree.Parent(node)->encryptionKey;
    for (NodeIndex target : ResolutionExcluding(tree, OtherChild(node, leafNode), excluded)) {
      entry.encryptedPathSecret.push_back(EncryptWithLabel(PublicKeyOf(tree, target), kUpdatePathLabel,
                                                           groupContext, prepared.pathSecrets[i]));
    }
    path.nodes.push_back(std::move(entry));
  }
  return path;
}

void ApplyUpdatePath(RatchetTree& tree, LeafIndex sender, const UpdatePath& path, ByteView groupId) {
  if (!tree.Leaf(sender))
    throw Error("MLS: an UpdatePath from leaf " + std::to_string(sender) + ", which is blank");
  const std::vector<NodeIndex> filtered = tree.FilteredDirectPath(sender);
  if (path.nodes.size() != filtered.size()) {
    throw Error("MLS: an UpdatePath of " + std::to_string(path.nodes.size()) +
                " nodes for a filtered path of " + std::to_string(filtered.size()));
  }
  const LeafNode& leaf = path.leafNode;
  if (leaf.source != LeafNodeSource::Commit)
    throw Error("MLS: an UpdatePath's leaf node is not from a commit");
  if (!leaf.VerifySignature(groupId, sender))
    throw Error("MLS: an UpdatePath's leaf node signature does not verify");
  if (leaf.encryptionKey == tree.Leaf(sender)->encryptionKey)
    throw Error("MLS: an UpdatePath keeps the leaf's old encryption key");
  std::vector<Bytes> keys;
  for (const UpdatePathNode& node : path.nodes)
    keys.push_back(node.encryptionKey);
  RatchetTree changed = tree;
  const Bytes parentHash = SetPathNodes(changed, sender, filtered, keys);
  if (parentHash != leaf.parentHash) throw Error("MLS: an UpdatePath's parent hash does not match its path");
  changed.SetLeaf(sender, leaf);
  tree = std::move(changed);
}

Secret DecryptPath(const RatchetTree& tree, TreeKemPrivate& me, LeafIndex sender, const UpdatePath& path,
                   ByteView groupContext, const std::vector<LeafIndex>& excluded) {
  const NodeIndex senderNode = NodeOfLeaf(sender);
  const NodeIndex myNode = NodeOfLeaf(me.Leaf());
  const std::vector<NodeIndex> filtered = tree.FilteredDirectPath(sender);
  if (path.nodes.size() != filtered.size()) throw Error("MLS: an UpdatePath that does not fit the tree");
  auto common =
      std::find_if(filtered.begin(), filtered.end(), [&](NodeIndex n) { return IsAncestor(n, myNode); });
  if (me.Leaf() == sender || common == filtered.end())
    throw Error("MLS: no node of this UpdatePath is shared with leaf " + std::to_string(me.Leaf()));
  const std::size_t at = static_cast<std::size_t>(common - filtered.begin());
  const std::vector<NodeIndex> resolution =
      ResolutionExcluding(tree, OtherChild(*common, senderNode), excluded);
  const auto& ciphertexts = path.nodes[at].encryptedPathSecret;
  if (ciphertexts.size() != resolution.size())
    throw Error("MLS: an UpdatePath node has " + std::to_string(ciphertexts.size()) +
                " ciphertexts for a resolution of " + std::to_string(resolution.size()));
  std::optional<Secret> pathSecret;
  for (std::size_t k = 0; k < resolution.size() && !pathSecret; ++k) {
    if (auto key = me.KeyFor(resolution[k]))
      pathSecret = Secret(DecryptWithLabel(*key, kUpdatePathLabel, groupContext, ciphertexts[k]));
  }
  if (!pathSecret) throw Error("MLS: leaf " + std::to_string(me.Leaf()) + " holds no key to this UpdatePath");
  // Blanked nodes of the sender's direct path lose what was known of them.
  std::vector<NodeIndex> blanked;
  for (NodeIndex node : DirectPath(senderNode, tree.LeafCount())) {
    if (std::find(filtered.begin(), filtered.end(), node) == filtered.end()) blanked.push_back(node);
  }
  me.Forget(blanked);
  Secret current = std::move(*pathSecret);
  for (std::size_t i = at; i < filtered.size(); ++i) {
    if (i > at) current = DeriveSecret(current, "path");
    if (NodeKeyFromPathSecret(current).PublicKey() != path.nodes[i].encryptionKey)
      throw Error("MLS: an UpdatePath's public key does not match its path secret");
    me.SetPathSecret(filtered[i], current);
  }
  return DeriveSecret(current, "path");
}

}  // namespace platformpp::mls
