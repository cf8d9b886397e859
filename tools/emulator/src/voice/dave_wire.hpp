// The binary DAVE payloads of the voice gateway (opcodes 25 to 30) as the emulator reads and writes them:
// the server side of the platform's DAVE protocol, "Voice Gateway Opcodes". Its own codec, on purpose: the
// SDK has another (src/voice/dave/messages.cpp), and a test that makes both talk checks each against the
// protocol rather than against a shared copy. The MLS structures inside are RFC 9420's (src/mls).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mls/group.hpp"
#include "mls/welcome.hpp"

namespace platformpp::emulator::dave_wire {

// 25: the external sender (signature key and credential).
std::string external_sender_package(const mls::ExternalSender& sender);

// 26: a key package, bare (as the platform's library sends it) or wrapped in an MLSMessage (as the protocol
// document shows it). Throws mls::Error when malformed or followed by other bytes.
mls::KeyPackage read_key_package(std::string_view payload);

// 27: proposals to append, or references of proposals to revoke.
std::string append_proposals(const std::vector<mls::Bytes>& encoded_messages);
std::string revoke_proposals(const std::vector<mls::Bytes>& refs);

// 28: a commit and, when it adds members, a Welcome. `commit_bytes` is the MLSMessage exactly as sent.
struct CommitWelcome {
  mls::MlsMessage commit;
  mls::Bytes commit_bytes;
  std::optional<mls::Welcome> welcome;
};
CommitWelcome read_commit_welcome(std::string_view payload);

// 29 and 30: with their transition id.
std::string announce_commit(std::uint16_t transition_id, const mls::Bytes& commit_bytes);
std::string welcome(std::uint16_t transition_id, const mls::Welcome& welcome);

}  // namespace platformpp::emulator::dave_wire
