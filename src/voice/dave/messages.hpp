#pragma once
// The binary DAVE messages of the voice gateway, opcodes 25 to 30 (the platform's DAVE protocol, "Voice
// Gateway Opcodes"): their payloads after the frame header (server frames `u16 seq | u8 op`, client frames
// `u8 op`, which the voice gateway connection reads). Vectors use MLS's variable-size lengths; the MLS
// messages inside are RFC 9420's, parsed by src/mls. Parsing throws mls::Error on malformed bytes.

#include "mls/group.hpp"
#include "mls/welcome.hpp"

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace platformpp::voice::dave {

enum class Opcode : uint8_t {
  PrepareTransition = 21,
  ExecuteTransition = 22,
  ReadyForTransition = 23,
  PrepareEpoch = 24,
  ExternalSenderPackage = 25,
  KeyPackage = 26,
  Proposals = 27,
  CommitWelcome = 28,
  AnnounceCommitTransition = 29,
  Welcome = 30,
  InvalidCommitWelcome = 31,
};

/// 25 (server): the voice gateway's external sender: signature key and basic credential.
mls::ExternalSender ReadExternalSenderPackage(mls::ByteView payload);
mls::Bytes WriteExternalSenderPackage(const mls::ExternalSender& sender);

/// 26 (client): this member's KeyPackage. The protocol document shows it wrapped in an MLSMessage; the
/// platform's own library (libdave) sends the bare KeyPackage, and so do we. Both are read.
mls::KeyPackage ReadKeyPackageMessage(mls::ByteView payload);
mls::Bytes WriteKeyPackageMessage(const mls::KeyPackage& keyPackage);

/// 27 (server): proposals to append (MLSMessages) or references to revoke.
struct ProposalsMessage {
  enum class Operation : uint8_t { Append = 0, Revoke = 1 };
  Operation operation = Operation::Append;
  std::vector<mls::MlsMessage> proposals;  // Append
  std::vector<mls::Bytes> revokedRefs;     // Revoke
};
ProposalsMessage ReadProposals(mls::ByteView payload);
mls::Bytes WriteProposals(const ProposalsMessage& message);

/// 28 (client): a commit, and the Welcome when it adds members.
struct CommitWelcomeMessage {
  mls::MlsMessage commit;
  std::optional<mls::Welcome> welcome;
};
CommitWelcomeMessage ReadCommitWelcome(mls::ByteView payload);
mls::Bytes WriteCommitWelcome(const CommitWelcomeMessage& message);

/// 29 (server): the commit that moves the group on, with its transition id.
struct AnnounceCommitMessage {
  uint16_t transitionId = 0;
  mls::MlsMessage commit;
};
AnnounceCommitMessage ReadAnnounceCommit(mls::ByteView payload);
mls::Bytes WriteAnnounceCommit(const AnnounceCommitMessage& message);

/// 30 (server): the Welcome for this member, with its transition id.
struct WelcomeMessage {
  uint16_t transitionId = 0;
  mls::Welcome welcome;
};
WelcomeMessage ReadWelcome(mls::ByteView payload);
mls::Bytes WriteWelcome(const WelcomeMessage& message);

}  // namespace platformpp::voice::dave
