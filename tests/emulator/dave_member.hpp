// A member of a DAVE call for the socket-free voice tests (docs/dave.md): a minimal MLS client on src/mls
// (not the SDK's DAVE session) that does what the protocol asks of a client through a voice_fixture.
// Shared by voice_dave_test.cpp and console_live_kinds_test.cpp.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mls/group.hpp"
#include "mls/welcome.hpp"
#include "voice/dave_call.hpp"
#include "voice_fixture.hpp"

namespace platformpp::emulator::test::dave_member {

using namespace platformpp::emulator::test::voice_fixture;

inline mls::Bytes be64(std::uint64_t value) {
  mls::Bytes out(8);
  for (int i = 7; i >= 0; --i, value >>= 8)
    out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value & 0xFF);
  return out;
}
inline mls::Bytes be64(const std::string& id) {
  return be64(std::stoull(id));
}

inline std::string as_string(const mls::Bytes& bytes) {
  return {bytes.begin(), bytes.end()};
}
inline mls::Bytes as_bytes(std::string_view text) {
  return {text.begin(), text.end()};
}

// A member of a DAVE call, doing what the protocol asks of a client: a key package after the external
// sender, its own pending group, a commit after each proposals message, the announced commit or its
// Welcome, and op 23 for each transition.
struct Member {
  Fixture& f;
  std::string user;
  VoicePeer peer;
  std::uint64_t connection = 0;
  mls::SignaturePrivateKey signature = mls::SignaturePrivateKey::Generate();
  std::optional<mls::ExternalSender> external;
  std::optional<mls::KeyPackageBundle> bundle;
  std::optional<mls::Group> group;
  bool established = false;
  bool auto_commit = true;
  bool auto_ready = true;
  std::size_t binary_read = 0, text_read = 0;
  std::vector<int> ops;                          // every opcode received, in order
  std::vector<std::uint16_t> executed;           // op 22 transition ids
  std::vector<std::string> prepare_epochs;       // op 24 d
  std::vector<std::string> prepare_transitions;  // op 21 d
  std::vector<std::uint16_t> announced;          // op 29 transition ids
  std::optional<std::uint16_t> welcomed;         // op 30 transition id
  int dave_version = -1;                         // the Session Description's
  std::optional<mls::Bytes> last_commit;         // the last op 28 payload sent

  Member(Fixture& fixture, std::string id) : f(fixture), user(std::move(id)) {}

  void join(const std::string& lobby_id, int max_version = 1) {
    const auto credentials = f.join(user, lobby_id);
    connection = f.open(peer);
    f.send(connection, R"({"op":0,"d":{"server_id":")" + lobby_id + R"(","user_id":")" + user +
                           R"(","session_id":")" + f.p(user).session_id + R"(","token":")" +
                           credentials.token + R"(","max_dave_protocol_version":)" +
                           std::to_string(max_version) + "}}");
    if (peer.closed) return;
    f.select(connection, "aead_aes256_gcm_rtpsize");
    dave_version = peer.only(4)["d"]["dave_protocol_version"].GetInt();
  }
  void send_binary(int opcode, const mls::Bytes& payload) {
    std::string frame(1, static_cast<char>(opcode));
    frame += as_string(payload);
    f.service.voice_received(connection, frame, false);
  }
  void send_key_package(std::optional<mls::KeyPackageBundle> custom = std::nullopt) {
    REQUIRE(external);
    if (custom) {
      bundle = std::move(custom);
    } else {
      mls::KeyPackageOptions options;
      options.identity = be64(user);
      bundle = mls::MakeKeyPackage(signature, options);
    }
    group = mls::Group::Create(be64(lobby), *bundle, {mls::MakeExternalSendersExtension({*external})});
    established = false;
    send_binary(dave_op::kKeyPackage, bundle->keyPackage.Encode());
  }
  void commit() {
    auto output = group->Commit();
    mls::Writer out;
    output.commit.Write(out);
    if (output.welcome) std::get<mls::Welcome>(output.welcome->body).Write(out);
    last_commit = out.Data();
    send_binary(dave_op::kCommitWelcome, *last_commit);
  }
  void ready(std::uint16_t id) {
    f.send(connection, R"({"op":23,"d":{"transition_id":)" + std::to_string(id) + "}}");
  }

  // Handles what arrived since the last call; true if anything did.
  bool pump() {
    bool any = false;
    while (text_read < peer.sent.size()) {
      const auto message = parse(peer.sent[text_read++]);
      const int op = message["op"].GetInt();
      if (op < 21) continue;
      any = true;
      ops.push_back(op);
      const auto& d = message["d"];
      if (op == dave_op::kExecuteTransition)
        executed.push_back(static_cast<std::uint16_t>(d["transition_id"].GetUint()));
      if (op == dave_op::kPrepareEpoch) {
        prepare_epochs.push_back(peer.sent[text_read - 1]);
        if (d["epoch"].GetUint() == 1 && auto_commit) send_key_package();  // a new group
      }
      if (op == dave_op::kPrepareTransition) {
        prepare_transitions.push_back(peer.sent[text_read - 1]);
        const auto id = static_cast<std::uint16_t>(d["transition_id"].GetUint());
        if (id != 0 && auto_ready) ready(id);
      }
    }
    while (binary_read < peer.binary.size()) {
      const auto frame = peer.binary[binary_read++];
      REQUIRE(frame.size() >= 3);
      const int op = static_cast<std::uint8_t>(frame[2]);
      const auto payload = as_bytes(std::string_view(frame).substr(3));
      any = true;
      ops.push_back(op);
      mls::Reader in(payload);
      switch (op) {
        case dave_op::kExternalSenderPackage: {
          mls::ExternalSender sender;
          sender.signatureKey = in.Vector();
          sender.credential = mls::Credential::Read(in);
          external = sender;
          if (auto_commit) send_key_package();
          break;
        }
        case dave_op::kProposals: {
          if (!group) break;
          if (in.U8() == 0) {
            in.Items([&](mls::Reader& item) { group->HandleProposal(mls::MlsMessage::Read(item)); });
          } else {
            in.Items([&](mls::Reader& item) { CHECK(group->RevokeProposal(item.Vector())); });
          }
          if (auto_commit && group->ProposalCount() > 0) commit();
          break;
        }
        case dave_op::kAnnounceCommit: {
          const auto id = in.U16();
          const auto commit_message = mls::MlsMessage::Read(in);
          announced.push_back(id);
          if (!established) {
            REQUIRE(group->IsPendingCommit(commit_message));
            established = true;
          }
          group->HandleCommit(commit_message);
          if (auto_ready) ready(id);
          break;
        }
        case dave_op::kWelcome: {
          const auto id = in.U16();
          const auto welcome = mls::Welcome::Read(in);
          CHECK(welcome.secrets.size() == 1);  // only its own group secrets
          group = mls::Group::Join(welcome, *bundle);
          established = true;
          welcomed = id;
          if (auto_ready) ready(id);
          break;
        }
        default:
          FAIL("unexpected binary opcode " << op);
      }
    }
    return any;
  }
  std::string lobby;
};

// Pumps every member until nothing more arrives.
inline void settle(const std::vector<Member*>& members) {
  for (int round = 0; round < 100; ++round) {
    bool any = false;
    for (auto* m : members)
      any = m->pump() || any;
    if (!any) return;
  }
  FAIL("DAVE messages kept coming");
}

}  // namespace platformpp::emulator::test::dave_member
