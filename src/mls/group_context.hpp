#pragma once
// GroupContext (RFC 9420 section 8.1): what every member of an epoch agrees on, and what the key schedule,
// signatures and tags are bound to.

#include "mls/bytes.hpp"
#include "mls/cipher_suite.hpp"
#include "mls/leaf_node.hpp"
#include "mls/tls_codec.hpp"

#include <cstdint>
#include <vector>

namespace platformpp::mls {

struct GroupContext {
  uint16_t version = kProtocolVersion;
  uint16_t cipherSuite = kCipherSuite;
  Bytes groupId;
  uint64_t epoch = 0;
  Bytes treeHash;
  Bytes confirmedTranscriptHash;
  std::vector<Extension> extensions;

  void Write(Writer& out) const;
  static GroupContext Read(Reader& in);
  Bytes Encode() const;
  friend bool operator==(const GroupContext&, const GroupContext&) = default;
};

}  // namespace platformpp::mls
