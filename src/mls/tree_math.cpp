#include "mls/tree_math.hpp"

#include "mls/bytes.hpp"

#include <bit>
#include <string>

namespace platformpp::mls {

namespace {

void CheckInTree(NodeIndex node, uint32_t leaves) {
  if (leaves > kMaxLeaves) throw Error("MLS: a tree of more than 2^30 leaves");
  if (node >= NodeWidth(leaves))
    throw Error("MLS: node " + std::to_string(node) + " is outside a tree of " + std::to_string(leaves) +
                " leaves");
}

}  // namespace

uint32_t NodeWidth(uint32_t leaves) {
  return leaves == 0 ? 0 : 2 * (leaves - 1) + 1;
}

uint32_t Level(NodeIndex node) {
  return static_cast<uint32_t>(std::countr_one(node));
}

NodeIndex Root(uint32_t leaves) {
  if (leaves == 0) throw Error("MLS: an empty tree has no root");
  if (leaves > kMaxLeaves) throw Error("MLS: a tree of more than 2^30 leaves");
  const uint32_t width = NodeWidth(leaves);
  return (1u << (std::bit_width(width) - 1)) - 1;
}

NodeIndex NodeOfLeaf(LeafIndex leaf) {
  return 2 * leaf;
}

bool IsLeaf(NodeIndex node) {
  return node % 2 == 0;
}

NodeIndex Left(NodeIndex node) {
  const uint32_t k = Level(node);
  if (k == 0) throw Error("MLS: a leaf has no children");
  return node ^ (1u << (k - 1));
}

NodeIndex Right(NodeIndex node) {
  const uint32_t k = Level(node);
  if (k == 0) throw Error("MLS: a leaf has no children");
  return node ^ (3u << (k - 1));
}

NodeIndex Parent(NodeIndex node, uint32_t leaves) {
  CheckInTree(node, leaves);
  if (node == Root(leaves)) throw Error("MLS: the root has no parent");
  const uint32_t k = Level(node);
  const uint32_t b = (node >> (k + 1)) & 1;
  return (node | (1u << k)) ^ (b << (k + 1));
}

NodeIndex Sibling(NodeIndex node, uint32_t leaves) {
  const NodeIndex parent = Parent(node, leaves);
  return node < parent ? Right(parent) : Left(parent);
}

std::vector<NodeIndex> DirectPath(NodeIndex node, uint32_t leaves) {
  CheckInTree(node, leaves);
  std::vector<NodeIndex> path;
  const NodeIndex root = Root(leaves);
  while (node != root) {
    node = Parent(node, leaves);
    path.push_back(node);
  }
  return path;
}

std::vector<NodeIndex> Copath(NodeIndex node, uint32_t leaves) {
  std::vector<NodeIndex> copath;
  const NodeIndex root = Root(leaves);
  CheckInTree(node, leaves);
  while (node != root) {
    copath.push_back(Sibling(node, leaves));
    node = Parent(node, leaves);
  }
  return copath;
}

bool IsAncestor(NodeIndex ancestor, NodeIndex node) {
  // The subtree under a node of level k spans [a - (2^k - 1), a + (2^k - 1)].
  const uint32_t k = Level(ancestor);
  if (k > 30) return false;  // not a node of any tree
  const uint32_t span = (1u << k) - 1;
  return node + span >= ancestor && node <= ancestor + span;
}

NodeIndex CommonAncestor(NodeIndex a, NodeIndex b) {
  // Shift both right until their prefixes match; the ancestor is that prefix followed by a 0 and then ones.
  uint32_t k = 0;
  while (a != b) {
    a >>= 1;
    b >>= 1;
    ++k;
  }
  return k == 0 ? a : ((a << k) | ((1u << (k - 1)) - 1));
}

}  // namespace platformpp::mls
