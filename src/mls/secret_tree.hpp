#pragma once
// The secret tree and its hash ratchets (RFC 9420 section 9), and the sender data keys (section 6.3.2).
//
// A hash ratchet turns one secret into a key and nonce per generation. Keys are handed out once: a
// generation that was used, or that lies further back than the ratchet keeps, is refused, which is what
// makes an old key useless to a thief. DAVE's per-sender media keys use the same ratchet (docs/dave.md,
// "Sender keys").

#include "mls/bytes.hpp"
#include "mls/tree_math.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace platformpp::mls {

struct KeyAndNonce {
  Secret key;    // AEAD.Nk bytes
  Secret nonce;  // AEAD.Nn bytes
};

class HashRatchet {
 public:
  /// How far ahead of the next generation a key may be asked for (the keys skipped are kept).
  static constexpr uint32_t kMaxForward = 1024;
  /// How many skipped keys are kept for messages that arrive out of order.
  static constexpr std::size_t kMaxRetained = 128;

  HashRatchet() = default;
  explicit HashRatchet(Secret secret) : secret_(std::move(secret)) {}

  /// The key and nonce of `generation`, once. Throws mls::Error for a generation that was already used,
  /// dropped, or more than kMaxForward ahead.
  KeyAndNonce Take(uint32_t generation);
  /// The next generation's key and nonce (a sender's).
  std::pair<uint32_t, KeyAndNonce> Next();
  uint32_t NextGeneration() const noexcept { return next_; }

 private:
  KeyAndNonce Derive() const;
  Secret secret_;  // of generation next_
  uint32_t next_ = 0;
  std::map<uint32_t, KeyAndNonce> retained_;  // skipped generations, oldest first
};

enum class RatchetType { Handshake, Application };

class SecretTree {
 public:
  SecretTree() = default;
  SecretTree(const Secret& encryptionSecret, uint32_t leaves);

  HashRatchet& Ratchet(LeafIndex leaf, RatchetType type);
  uint32_t Leaves() const noexcept { return leaves_; }

 private:
  void Expose(LeafIndex leaf);
  uint32_t leaves_ = 0;
  std::vector<Secret> nodes_;  // node secrets not yet consumed (empty when consumed)
  std::map<LeafIndex, std::pair<HashRatchet, HashRatchet>> ratchets_;
};

/// sender_data_key and sender_data_nonce for a ciphertext (its first Nh bytes are the sample).
KeyAndNonce SenderDataKeys(const Secret& senderDataSecret, ByteView ciphertext);

}  // namespace platformpp::mls
