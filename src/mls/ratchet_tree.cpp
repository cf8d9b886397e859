#include "mls/ratchet_tree.hpp"

#include <algorithm>
#include <string>

namespace platformpp::mls {

namespace {

constexpr uint8_t kNodeTypeLeaf = 1;
constexpr uint8_t kNodeTypeParent = 2;

const Bytes& ParentHashField(const Node& node) {
  if (const auto* leaf = std::get_if<LeafNode>(&node)) return leaf->parentHash;
  return std::get<ParentNode>(node).parentHash;
}

}  // namespace

void ParentNode::Write(Writer& out) const {
  out.Vector(encryptionKey);
  out.Vector(parentHash);
  out.Nested([&](Writer& inner) {
    for (LeafIndex leaf : unmergedLeaves)
      inner.U32(leaf);
  });
}

ParentNode ParentNode::Read(Reader& in) {
  ParentNode parent;
  parent.encryptionKey = in.Vector();
  parent.parentHash = in.Vector();
  in.Items([&](Reader& item) {
    const LeafIndex leaf = item.U32();
    if (!parent.unmergedLeaves.empty() && leaf <= parent.unmergedLeaves.back())
      item.Fail("unmerged leaves are not in ascending order");
    parent.unmergedLeaves.push_back(leaf);
  });
  return parent;
}

RatchetTree::RatchetTree(LeafNode first) {
  nodes_.emplace_back(std::move(first));
}

RatchetTree RatchetTree::Read(Reader& in) {
  RatchetTree tree;
  in.Items([&](Reader& item) {
    const NodeIndex index = static_cast<NodeIndex>(tree.nodes_.size());
    if (index >= NodeWidth(kMaxLeaves)) item.Fail("a ratchet tree with too many nodes");
    if (!item.Present()) {
      tree.nodes_.emplace_back();
      return;
    }
    const uint8_t type = item.U8();
    if (type == kNodeTypeLeaf) {
      if (!IsLeaf(index)) item.Fail("a leaf node at parent position " + std::to_string(index));
      tree.nodes_.emplace_back(LeafNode::Read(item));
    } else if (type == kNodeTypeParent) {
      if (IsLeaf(index)) item.Fail("a parent node at leaf position " + std::to_string(index));
      tree.nodes_.emplace_back(ParentNode::Read(item));
    } else {
      item.Fail("unknown node type " + std::to_string(type));
    }
  });
  if (tree.nodes_.empty()) in.Fail("an empty ratchet tree");
  if (!tree.nodes_.back()) in.Fail("a ratchet tree ending with a blank node");
  // Pad to a full tree: 2^(d+1) - 1 nodes.
  uint32_t leaves = 1;
  while (NodeWidth(leaves) < tree.nodes_.size())
    leaves *= 2;
  tree.nodes_.resize(NodeWidth(leaves));
  // Unmerged leaves must be leaves below their parent node.
  for (NodeIndex node = 1; node < tree.nodes_.size(); node += 2) {
    const ParentNode* parent = tree.Parent(node);
    if (!parent) continue;
    for (LeafIndex leaf : parent->unmergedLeaves) {
      if (leaf >= leaves || !IsAncestor(node, NodeOfLeaf(leaf)))
        in.Fail("parent node " + std::to_string(node) + " lists leaf " + std::to_string(leaf) +
                " that is not below it");
    }
  }
  return tree;
}

RatchetTree RatchetTree::Decode(ByteView bytes) {
  Reader in(bytes, "ratchet tree");
  RatchetTree tree = Read(in);
  in.ExpectDone();
  return tree;
}

void RatchetTree::Write(Writer& out) const {
  std::size_t end = nodes_.size();
  while (end > 0 && !nodes_[end - 1])
    --end;
  out.Nested([&](Writer& inner) {
    for (std::size_t i = 0; i < end; ++i) {
      const auto& node = nodes_[i];
      inner.U8(node ? 1 : 0);
      if (!node) continue;
      if (const auto* leaf = std::get_if<LeafNode>(&*node)) {
        inner.U8(kNodeTypeLeaf);
        leaf->Write(inner);
      } else {
        inner.U8(kNodeTypeParent);
        std::get<ParentNode>(*node).Write(inner);
      }
    }
  });
}

Bytes RatchetTree::Encode() const {
  Writer out;
  Write(out);
  return std::move(out).Take();
}

const LeafNode* RatchetTree::Leaf(LeafIndex leaf) const {
  const NodeIndex node = NodeOfLeaf(leaf);
  if (node >= nodes_.size() || !nodes_[node]) return nullptr;
  return std::get_if<LeafNode>(&*nodes_[node]);
}

const ParentNode* RatchetTree::Parent(NodeIndex node) const {
  if (node >= nodes_.size() || !nodes_[node]) return nullptr;
  return std::get_if<ParentNode>(&*nodes_[node]);
}

std::optional<LeafIndex> RatchetTree::FirstBlankLeaf() const {
  for (LeafIndex leaf = 0; leaf < LeafCount(); ++leaf) {
    if (!nodes_[NodeOfLeaf(leaf)]) return leaf;
  }
  return std::nullopt;
}

std::optional<LeafIndex> RatchetTree::FindLeaf(ByteView signatureKey) const {
  for (LeafIndex leaf = 0; leaf < LeafCount(); ++leaf) {
    const LeafNode* content = Leaf(leaf);
    if (content && std::equal(content->signatureKey.begin(), content->signatureKey.end(),
                              signatureKey.begin(), signatureKey.end()))
      return leaf;
  }
  return std::nullopt;
}

LeafIndex RatchetTree::AddLeaf(LeafNode leaf) {
  std::optional<LeafIndex> slot = FirstBlankLeaf();
  if (!slot) {
    if (nodes_.empty()) {
      nodes_.emplace_back(std::move(leaf));
      return 0;
    }
    const LeafIndex leaves = LeafCount();
    if (leaves >= kMaxLeaves / 2) throw Error("MLS: the tree is full");
    nodes_.resize(NodeWidth(2 * leaves));
    slot = leaves;
  }
  const NodeIndex node = NodeOfLeaf(*slot);
  for (NodeIndex parent : DirectPath(node, LeafCount())) {
    if (auto* content = nodes_[parent] ? std::get_if<ParentNode>(&*nodes_[parent]) : nullptr) {
      auto& unmerged = content->unmergedLeaves;
      unmerged.insert(std::upper_bound(unmerged.begin(), unmerged.end(), *slot), *slot);
    }
  }
  nodes_[node] = std::move(leaf);
  return *slot;
}

void RatchetTree::UpdateLeaf(LeafIndex index, LeafNode leaf) {
  if (!Leaf(index)) throw Error("MLS: an update of leaf " + std::to_string(index) + ", which is blank");
  const NodeIndex node = NodeOfLeaf(index);
  nodes_[node] = std::move(leaf);
  for (NodeIndex parent : DirectPath(node, LeafCount()))
    nodes_[parent].reset();
}

void RatchetTree::RemoveLeaf(LeafIndex index) {
  if (!Leaf(index)) throw Error("MLS: a removal of leaf " + std::to_string(index) + ", which is blank");
  const NodeIndex node = NodeOfLeaf(index);
  nodes_[node].reset();
  for (NodeIndex parent : DirectPath(node, LeafCount()))
    nodes_[parent].reset();
  // Truncate: while the right half holds no leaf, drop it (a tree keeps at least one leaf).
  while (LeafCount() > 1) {
    const LeafIndex half = LeafCount() / 2;
    bool rightEmpty = true;
    for (LeafIndex leaf = half; leaf < LeafCount() && rightEmpty; ++leaf)
      rightEmpty = !nodes_[NodeOfLeaf(leaf)];
    if (!rightEmpty) break;
    nodes_.resize(NodeWidth(half));
  }
}

void RatchetTree::SetParent(NodeIndex node, ParentNode parent) {
  if (node >= nodes_.size() || IsLeaf(node)) throw Error("MLS: no parent node " + std::to_string(node));
  nodes_[node] = std::move(parent);
}

void RatchetTree::SetLeaf(LeafIndex index, LeafNode leaf) {
  const NodeIndex node = NodeOfLeaf(index);
  if (node >= nodes_.size()) throw Error("MLS: no leaf " + std::to_string(index));
  nodes_[node] = std::move(leaf);
}

void RatchetTree::ClearNode(NodeIndex node) {
  if (node >= nodes_.size()) throw Error("MLS: no node " + std::to_string(node));
  nodes_[node].reset();
}

std::vector<NodeIndex> RatchetTree::FilteredDirectPath(LeafIndex leaf) const {
  std::vector<NodeIndex> out;
  const NodeIndex node = NodeOfLeaf(leaf);
  const std::vector<NodeIndex> path = DirectPath(node, LeafCount());
  const std::vector<NodeIndex> copath = Copath(node, LeafCount());
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (!Resolution(copath[i]).empty()) out.push_back(path[i]);
  }
  return out;
}

std::vector<NodeIndex> RatchetTree::FilteredCopath(LeafIndex leaf) const {
  std::vector<NodeIndex> out;
  for (NodeIndex copath : Copath(NodeOfLeaf(leaf), LeafCount())) {
    if (!Resolution(copath).empty()) out.push_back(copath);
  }
  return out;
}

std::vector<NodeIndex> RatchetTree::Resolution(NodeIndex node) const {
  if (node >= nodes_.size()) throw Error("MLS: resolution of a node outside the tree");
  if (nodes_[node]) {
    std::vector<NodeIndex> out{node};
    if (const ParentNode* parent = Parent(node)) {
      for (LeafIndex leaf : parent->unmergedLeaves)
        out.push_back(NodeOfLeaf(leaf));
    }
    return out;
  }
  if (IsLeaf(node)) return {};
  std::vector<NodeIndex> out = Resolution(Left(node));
  std::vector<NodeIndex> right = Resolution(Right(node));
  out.insert(out.end(), right.begin(), right.end());
  return out;
}

Bytes RatchetTree::TreeHash(NodeIndex node) const {
  return OriginalTreeHash(node, {});
}

Bytes RatchetTree::OriginalTreeHash(NodeIndex node, const std::vector<LeafIndex>& removed) const {
  if (node >= nodes_.size()) throw Error("MLS: tree hash of a node outside the tree");
  Writer input;
  if (IsLeaf(node)) {
    const LeafIndex leaf = node / 2;
    const bool gone = std::find(removed.begin(), removed.end(), leaf) != removed.end();
    input.U8(kNodeTypeLeaf);
    input.U32(leaf);
    const LeafNode* content = gone ? nullptr : Leaf(leaf);
    input.U8(content ? 1 : 0);
    if (content) content->Write(input);
    return Hash(input.Data());
  }
  input.U8(kNodeTypeParent);
  const ParentNode* parent = Parent(node);
  input.U8(parent ? 1 : 0);
  if (parent) {
    if (removed.empty()) {
      parent->Write(input);
    } else {
      ParentNode original = *parent;
      std::erase_if(original.unmergedLeaves, [&](LeafIndex leaf) {
        return std::find(removed.begin(), removed.end(), leaf) != removed.end();
      });
      original.Write(input);
    }
  }
  input.Vector(OriginalTreeHash(Left(node), removed));
  input.Vector(OriginalTreeHash(Right(node), removed));
  return Hash(input.Data());
}

Bytes RatchetTree::ParentHashOf(NodeIndex parentIndex, NodeIndex sibling) const {
  const ParentNode* parent = Parent(parentIndex);
  if (!parent) throw Error("MLS: parent hash of a blank node");
  Writer input;
  input.Vector(parent->encryptionKey);
  input.Vector(parent->parentHash);
  input.Vector(OriginalTreeHash(sibling, parent->unmergedLeaves));
  return Hash(input.Data());
}

bool RatchetTree::ParentHashesValid() const {
  // Top down: each non-blank parent must be what some node below it on one side names as its parent hash,
  // computed with the other side as the sibling.
  auto names = [&](NodeIndex child, const Bytes& expected) {
    for (NodeIndex node : Resolution(child)) {
      if (ParentHashField(*nodes_[node]) == expected) return true;
    }
    return false;
  };
  for (NodeIndex node = 1; node < nodes_.size(); node += 2) {
    if (!nodes_[node]) continue;
    const NodeIndex left = Left(node);
    const NodeIndex right = Right(node);
    if (!names(left, ParentHashOf(node, right)) && !names(right, ParentHashOf(node, left))) return false;
  }
  return true;
}

bool RatchetTree::LeafSignaturesValid(ByteView groupId) const {
  for (LeafIndex leaf = 0; leaf < LeafCount(); ++leaf) {
    const LeafNode* content = Leaf(leaf);
    if (content && !content->VerifySignature(groupId, leaf)) return false;
  }
  return true;
}

}  // namespace platformpp::mls
