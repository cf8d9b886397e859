#pragma once
// Array-based tree math (RFC 9420 section 4.2 and appendix C). MLS trees are full: a tree of n leaves (n a
// power of two) has 2n - 1 nodes, leaf i at node 2i, parents at odd indices.

#include <cstdint>
#include <vector>

namespace platformpp::mls {

using NodeIndex = uint32_t;
using LeafIndex = uint32_t;

/// Far above any group (DAVE calls have at most a few hundred members); keeps every index within 32 bits.
constexpr uint32_t kMaxLeaves = 1u << 30;

/// The number of nodes of a tree with `leaves` leaves (0 for none).
uint32_t NodeWidth(uint32_t leaves);
/// Trailing one bits: 0 for a leaf.
uint32_t Level(NodeIndex node);
NodeIndex Root(uint32_t leaves);
NodeIndex NodeOfLeaf(LeafIndex leaf);
bool IsLeaf(NodeIndex node);

// These throw mls::Error when the node has no such relative (a leaf's children, the root's parent) or is not
// in the tree.
NodeIndex Left(NodeIndex node);
NodeIndex Right(NodeIndex node);
NodeIndex Parent(NodeIndex node, uint32_t leaves);
NodeIndex Sibling(NodeIndex node, uint32_t leaves);

/// From the node's parent up to the root (empty for the root).
std::vector<NodeIndex> DirectPath(NodeIndex node, uint32_t leaves);
/// The siblings of the node and of each node of its direct path except the root.
std::vector<NodeIndex> Copath(NodeIndex node, uint32_t leaves);
/// Whether `ancestor` is `node` or above it.
bool IsAncestor(NodeIndex ancestor, NodeIndex node);
/// The lowest node that is an ancestor of both leaves.
NodeIndex CommonAncestor(NodeIndex a, NodeIndex b);

}  // namespace platformpp::mls
