#pragma once
// The public ratchet tree (RFC 9420 section 7): leaf and parent nodes, blanks, unmerged leaves; the
// ratchet_tree extension's encoding; resolution, tree hash and parent hash verification.

#include "mls/bytes.hpp"
#include "mls/leaf_node.hpp"
#include "mls/tree_math.hpp"

#include <optional>
#include <variant>
#include <vector>

namespace platformpp::mls {

struct ParentNode {
  Bytes encryptionKey;
  Bytes parentHash;
  std::vector<LeafIndex> unmergedLeaves;  // ascending

  void Write(Writer& out) const;
  static ParentNode Read(Reader& in);
  friend bool operator==(const ParentNode&, const ParentNode&) = default;
};

using Node = std::variant<LeafNode, ParentNode>;

class RatchetTree {
 public:
  RatchetTree() = default;
  /// A tree of one leaf.
  explicit RatchetTree(LeafNode first);

  /// The ratchet_tree extension's `optional<Node> ratchet_tree<V>`: node types must match their positions,
  /// the last node must not be blank, and the tree is padded with blanks to a full tree.
  static RatchetTree Read(Reader& in);
  static RatchetTree Decode(ByteView bytes);
  /// The extension's form: trailing blanks left out.
  void Write(Writer& out) const;
  Bytes Encode() const;

  uint32_t LeafCount() const noexcept { return static_cast<uint32_t>((nodes_.size() + 1) / 2); }
  uint32_t NodeCount() const noexcept { return static_cast<uint32_t>(nodes_.size()); }
  bool Blank(NodeIndex node) const { return !nodes_.at(node).has_value(); }
  const LeafNode* Leaf(LeafIndex leaf) const;
  const ParentNode* Parent(NodeIndex node) const;

  // Changes (section 12.1). They keep the tree full: Add doubles it when no leaf is blank, Remove halves it
  // while its right half is all blank.
  /// Puts `leaf` at the leftmost blank leaf (extending the tree if there is none) and lists it as unmerged
  /// at every non-blank parent above it. Returns its index.
  LeafIndex AddLeaf(LeafNode leaf);
  /// Replaces a member's leaf and blanks the parents above it.
  void UpdateLeaf(LeafIndex index, LeafNode leaf);
  /// Blanks a member's leaf and the parents above it, then truncates.
  void RemoveLeaf(LeafIndex index);
  void SetParent(NodeIndex node, ParentNode parent);
  /// Replaces a leaf without touching the path above it (TreeKEM sets that path itself).
  void SetLeaf(LeafIndex index, LeafNode leaf);
  void ClearNode(NodeIndex node);
  /// The leftmost blank leaf, if any.
  std::optional<LeafIndex> FirstBlankLeaf() const;
  /// The leaf of this member (the same signature key), if it is in the tree.
  std::optional<LeafIndex> FindLeaf(ByteView signatureKey) const;

  /// The direct path without the nodes whose copath child has an empty resolution (section 4.1.2), and that
  /// copath child for each.
  std::vector<NodeIndex> FilteredDirectPath(LeafIndex leaf) const;
  std::vector<NodeIndex> FilteredCopath(LeafIndex leaf) const;

  /// The non-blank nodes that stand for `node`'s subtree (section 4.1.1).
  std::vector<NodeIndex> Resolution(NodeIndex node) const;
  Bytes TreeHash() const { return TreeHash(Root(LeafCount())); }
  Bytes TreeHash(NodeIndex node) const;
  /// The parent hash a child of `parent` carries when `sibling` is the parent's other child (section 7.9).
  Bytes ParentHash(NodeIndex parent, NodeIndex sibling) const { return ParentHashOf(parent, sibling); }
  /// Whether every non-blank parent node is parent-hash valid (section 7.9.2).
  bool ParentHashesValid() const;
  /// Whether every leaf's signature verifies for this group.
  bool LeafSignaturesValid(ByteView groupId) const;

  friend bool operator==(const RatchetTree&, const RatchetTree&) = default;

 private:
  // The tree hash of `node` as it was before the leaves in `removed` were added (they are blank, and no
  // parent lists them as unmerged).
  Bytes OriginalTreeHash(NodeIndex node, const std::vector<LeafIndex>& removed) const;
  Bytes ParentHashOf(NodeIndex parent, NodeIndex sibling) const;
  std::vector<std::optional<Node>> nodes_;
};

}  // namespace platformpp::mls
