#pragma once
// TreeKEM (RFC 9420 sections 7.4 to 7.9): the path secrets a committer derives along its filtered direct
// path, the UpdatePath that carries their public keys and encrypted secrets, the parent hashes that bind it,
// and a member's private view of the tree.

#include "mls/bytes.hpp"
#include "mls/hpke.hpp"
#include "mls/proposal.hpp"
#include "mls/ratchet_tree.hpp"

#include <map>
#include <optional>
#include <vector>

namespace platformpp::mls {

/// What a member knows privately: its leaf's encryption key and the path secrets of the parent nodes above
/// it that it shares with the others below them.
class TreeKemPrivate {
 public:
  TreeKemPrivate(LeafIndex leaf, HpkePrivateKey leafKey) : leaf_(leaf), leafKey_(std::move(leafKey)) {}

  LeafIndex Leaf() const noexcept { return leaf_; }
  const HpkePrivateKey& LeafKey() const noexcept { return leafKey_; }
  void SetLeafKey(HpkePrivateKey key) { leafKey_ = std::move(key); }
  /// Sets the path secret of `node` and of every node above it on `path` (derived), dropping what the member
  /// knew of those nodes before.
  void SetPathSecrets(NodeIndex from, Secret pathSecret, const std::vector<NodeIndex>& pathAbove);
  void SetPathSecret(NodeIndex node, Secret pathSecret) { pathSecrets_[node] = std::move(pathSecret); }
  const Secret* PathSecret(NodeIndex node) const;
  /// The private key of a node this member holds: its leaf, or a parent whose path secret it knows.
  std::optional<HpkePrivateKey> KeyFor(NodeIndex node) const;
  /// Forgets the secrets of these nodes.
  void Forget(const std::vector<NodeIndex>& nodes);
  /// Forgets the secrets of nodes that are blank in `tree`, outside it, or not above this leaf.
  void Prune(const RatchetTree& tree);

 private:
  LeafIndex leaf_;
  HpkePrivateKey leafKey_;
  std::map<NodeIndex, Secret> pathSecrets_;
};

/// The key pair of a parent node from its path secret.
HpkePrivateKey NodeKeyFromPathSecret(const Secret& pathSecret);

/// A committer's new path, before it is encrypted: the tree already holds the new leaf and parent nodes.
struct PreparedPath {
  std::vector<NodeIndex> filteredPath;
  std::vector<Secret> pathSecrets;  // one per filtered node, lowest first
  Secret commitSecret;
  HpkePrivateKey leafKey;
};

/// Replaces `sender`'s leaf and direct path in `tree` with fresh keys: a new leaf encryption key, path
/// secrets from a random start, parent nodes with their parent hashes, and `leaf` (the sender's new leaf
/// node, source Commit) signed with its parent hash for `groupId`.
PreparedPath PreparePath(RatchetTree& tree, LeafIndex sender, LeafNode leaf,
                         const SignaturePrivateKey& signer, ByteView groupId);

/// Encrypts each path secret to the resolution of its copath node, leaving out the leaves in `excluded`
/// (the members this commit adds: they get the secret in their Welcome). `groupContext` is the provisional
/// GroupContext of the new epoch, encoded.
UpdatePath EncryptPath(const RatchetTree& tree, LeafIndex sender, const PreparedPath& prepared,
                       ByteView groupContext, const std::vector<LeafIndex>& excluded);

/// A receiver's first step: puts `path` into `tree` (the sender's leaf and its filtered direct path), after
/// checking its shape, the leaf's signature and source, and the parent hash chain. Throws mls::Error.
void ApplyUpdatePath(RatchetTree& tree, LeafIndex sender, const UpdatePath& path, ByteView groupId);

/// A receiver's second step, with the tree after ApplyUpdatePath and the provisional GroupContext: decrypts
/// the path secret meant for `me`, derives the rest of the path, checks each derived public key against the
/// path's, updates `me`, and returns the commit secret.
Secret DecryptPath(const RatchetTree& tree, TreeKemPrivate& me, LeafIndex sender, const UpdatePath& path,
                   ByteView groupContext, const std::vector<LeafIndex>& excluded);

}  // namespace platformpp::mls
