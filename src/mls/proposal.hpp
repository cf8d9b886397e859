#pragma once
// Proposals and commits (RFC 9420 sections 12.1 and 12.4) and the UpdatePath of TreeKEM (section 7.6).
//
// DAVE uses Add, Remove and Update. The other proposal types are parsed (so that a message carrying one
// is read to its end and refused with a clear error, not misread), and refused when a commit would apply
// them.

#include "mls/bytes.hpp"
#include "mls/hpke.hpp"
#include "mls/key_package.hpp"
#include "mls/leaf_node.hpp"
#include "mls/tls_codec.hpp"

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace platformpp::mls {

enum class ProposalType : uint16_t {
  Add = 1,
  Update = 2,
  Remove = 3,
  PreSharedKey = 4,
  ReInit = 5,
  ExternalInit = 6,
  GroupContextExtensions = 7,
};

struct AddProposal {
  KeyPackage keyPackage;
  friend bool operator==(const AddProposal&, const AddProposal&) = default;
};
struct UpdateProposal {
  LeafNode leafNode;
  friend bool operator==(const UpdateProposal&, const UpdateProposal&) = default;
};
struct RemoveProposal {
  LeafIndex removed = 0;
  friend bool operator==(const RemoveProposal&, const RemoveProposal&) = default;
};
struct PreSharedKeyId {
  uint8_t type = 1;   // external 1, resumption 2
  Bytes pskId;        // external
  uint8_t usage = 0;  // resumption
  Bytes pskGroupId;
  uint64_t pskEpoch = 0;
  Bytes nonce;
  friend bool operator==(const PreSharedKeyId&, const PreSharedKeyId&) = default;
};
struct PreSharedKeyProposal {
  PreSharedKeyId psk;
  friend bool operator==(const PreSharedKeyProposal&, const PreSharedKeyProposal&) = default;
};
struct ReInitProposal {
  Bytes groupId;
  uint16_t version = 0;
  uint16_t cipherSuite = 0;
  std::vector<Extension> extensions;
  friend bool operator==(const ReInitProposal&, const ReInitProposal&) = default;
};
struct ExternalInitProposal {
  Bytes kemOutput;
  friend bool operator==(const ExternalInitProposal&, const ExternalInitProposal&) = default;
};
struct GroupContextExtensionsProposal {
  std::vector<Extension> extensions;
  friend bool operator==(const GroupContextExtensionsProposal&,
                         const GroupContextExtensionsProposal&) = default;
};

struct Proposal {
  std::variant<AddProposal, UpdateProposal, RemoveProposal, PreSharedKeyProposal, ReInitProposal,
               ExternalInitProposal, GroupContextExtensionsProposal>
      body;

  ProposalType Type() const;
  void Write(Writer& out) const;
  static Proposal Read(Reader& in);
  Bytes Encode() const;
  friend bool operator==(const Proposal&, const Proposal&) = default;
};

void WritePreSharedKeyId(Writer& out, const PreSharedKeyId& id);
PreSharedKeyId ReadPreSharedKeyId(Reader& in);

/// A proposal carried in a commit, or a reference (ProposalRef) to one sent before in the epoch.
struct ProposalOrRef {
  std::variant<Proposal, Bytes> value;
  friend bool operator==(const ProposalOrRef&, const ProposalOrRef&) = default;
};

struct UpdatePathNode {
  Bytes encryptionKey;
  std::vector<HpkeCiphertext> encryptedPathSecret;
  friend bool operator==(const UpdatePathNode&, const UpdatePathNode&) = default;
};

struct UpdatePath {
  LeafNode leafNode;
  std::vector<UpdatePathNode> nodes;

  void Write(Writer& out) const;
  static UpdatePath Read(Reader& in);
  friend bool operator==(const UpdatePath&, const UpdatePath&) = default;
};

struct Commit {
  std::vector<ProposalOrRef> proposals;
  std::optional<UpdatePath> path;

  void Write(Writer& out) const;
  static Commit Read(Reader& in);
  Bytes Encode() const;
  friend bool operator==(const Commit&, const Commit&) = default;
};

void WriteHpkeCiphertext(Writer& out, const HpkeCiphertext& ciphertext);
HpkeCiphertext ReadHpkeCiphertext(Reader& in);

}  // namespace platformpp::mls
