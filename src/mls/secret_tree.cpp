#include "mls/secret_tree.hpp"

#include "mls/cipher_suite.hpp"

#include <algorithm>
#include <string>

namespace platformpp::mls {

KeyAndNonce HashRatchet::Derive() const {
  return {DeriveTreeSecret(secret_, "key", next_, kAeadKeySize),
          DeriveTreeSecret(secret_, "nonce", next_, kAeadNonceSize)};
}

std::pair<uint32_t, KeyAndNonce> HashRatchet::Next() {
  if (secret_.Empty()) throw Error("MLS: a hash ratchet without a secret");
  if (next_ == UINT32_MAX) throw Error("MLS: a hash ratchet ran out of generations");
  const uint32_t generation = next_;
  KeyAndNonce keys = Derive();
  secret_ = DeriveTreeSecret(secret_, "secret", next_, kHashSize);
  ++next_;
  return {generation, std::move(keys)};
}

KeyAndNonce HashRatchet::Take(uint32_t generation) {
  if (generation < next_) {
    auto it = retained_.find(generation);
    if (it == retained_.end())
      throw Error("MLS: the key of generation " + std::to_string(generation) + " was used or dropped");
    KeyAndNonce keys = std::move(it->second);
    retained_.erase(it);
    return keys;
  }
  if (generation - next_ > kMaxForward)
    throw Error("MLS: generation " + std::to_string(generation) + " is more than " +
                std::to_string(kMaxForward) + " ahead of " + std::to_string(next_));
  while (next_ < generation) {
    auto [skipped, keys] = Next();
    retained_.emplace(skipped, std::move(keys));
    if (retained_.size() > kMaxRetained) retained_.erase(retained_.begin());
  }
  return Next().second;
}

SecretTree::SecretTree(const Secret& encryptionSecret, uint32_t leaves)
    : leaves_(leaves), nodes_(NodeWidth(leaves)) {
  if (leaves == 0 || (leaves & (leaves - 1)) != 0)
    throw Error("MLS: a secret tree needs a power-of-two number of leaves");
  nodes_[Root(leaves)] = encryptionSecret;
}

void SecretTree::Expose(LeafIndex leaf) {
  const NodeIndex target = NodeOfLeaf(leaf);
  // The path from the leaf up; the lowest node on it that still holds a secret is where derivation starts.
  std::vector<NodeIndex> path = DirectPath(target, leaves_);
  path.insert(path.begin(), target);
  auto start = std::find_if(path.begin(), path.end(), [&](NodeIndex n) { return !nodes_[n].Empty(); });
  if (start == path.end()) throw Error("MLS: the secrets of leaf " + std::to_string(leaf) + " were consumed");
  for (auto it = start; it != path.begin(); --it) {
    const NodeIndex node = *it;
    const Secret& secret = nodes_[node];
    nodes_[Left(node)] = ExpandWithLabel(secret, "tree", AsBytes("left"), kHashSize);
    nodes_[Right(node)] = ExpandWithLabel(secret, "tree", AsBytes("right"), kHashSize);
    nodes_[node].Clear();
  }
  const Secret& leafSecret = nodes_[target];
  ratchets_.emplace(leaf, std::pair(HashRatchet(ExpandWithLabel(leafSecret, "handshake", {}, kHashSize)),
                                    HashRatchet(ExpandWithLabel(leafSecret, "application", {}, kHashSize))));
  nodes_[target].Clear();
}

HashRatchet& SecretTree::Ratchet(LeafIndex leaf, RatchetType type) {
  if (leaf >= leaves_) throw Error("MLS: leaf " + std::to_string(leaf) + " is outside the secret tree");
  auto it = ratchets_.find(leaf);
  if (it == ratchets_.end()) {
    Expose(leaf);
    it = ratchets_.find(leaf);
  }
  return type == RatchetType::Handshake ? it->second.first : it->second.second;
}

KeyAndNonce SenderDataKeys(const Secret& senderDataSecret, ByteView ciphertext) {
  ByteView sample = ciphertext.first(std::min(ciphertext.size(), kHashSize));
  return {ExpandWithLabel(senderDataSecret, "key", sample, kAeadKeySize),
          ExpandWithLabel(senderDataSecret, "nonce", sample, kAeadNonceSize)};
}

}  // namespace platformpp::mls
