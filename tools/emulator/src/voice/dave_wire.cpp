#include "voice/dave_wire.hpp"

#include <algorithm>

namespace platformpp::emulator::dave_wire {

namespace {

mls::ByteView bytes_of(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

std::string to_string(const mls::Bytes& bytes) {
  return {bytes.begin(), bytes.end()};
}

}  // namespace

std::string external_sender_package(const mls::ExternalSender& sender) {
  mls::Writer out;
  out.Vector(sender.signatureKey);
  sender.credential.Write(out);
  return to_string(out.Data());
}

mls::KeyPackage read_key_package(std::string_view payload) {
  const auto bytes = bytes_of(payload);
  mls::Reader in(bytes, "DAVE key package");
  // A KeyPackage starts with version 1 and cipher suite 2; an MLSMessage with version 1 and wire format 5.
  const bool wrapped = bytes.size() >= 4 && bytes[2] == 0 &&
                       bytes[3] == static_cast<std::uint8_t>(mls::WireFormat::KeyPackage);
  mls::KeyPackage key_package;
  if (wrapped) {
    auto message = mls::MlsMessage::Read(in);
    key_package = std::get<mls::KeyPackage>(std::move(message.body));
  } else {
    key_package = mls::KeyPackage::Read(in);
  }
  in.ExpectDone();
  return key_package;
}

std::string append_proposals(const std::vector<mls::Bytes>& encoded_messages) {
  mls::Writer out;
  out.U8(0);
  out.Nested([&](mls::Writer& list) {
    for (const auto& message : encoded_messages)
      list.Raw(message);
  });
  return to_string(out.Data());
}

std::string revoke_proposals(const std::vector<mls::Bytes>& refs) {
  mls::Writer out;
  out.U8(1);
  out.Nested([&](mls::Writer& list) {
    for (const auto& ref : refs)
      list.Vector(ref);
  });
  return to_string(out.Data());
}

CommitWelcome read_commit_welcome(std::string_view payload) {
  const auto bytes = bytes_of(payload);
  mls::Reader in(bytes, "DAVE commit and welcome");
  CommitWelcome result{mls::MlsMessage::Read(in), {}, std::nullopt};
  // The commit is relayed as it came: its encoding must be the canonical one the parser reproduces.
  result.commit_bytes = result.commit.Encode();
  if (result.commit_bytes.size() > bytes.size() ||
      !std::equal(result.commit_bytes.begin(), result.commit_bytes.end(), bytes.begin())) {
    in.Fail("a commit in a non-canonical encoding");
  }
  if (!in.Done()) result.welcome = mls::Welcome::Read(in);
  in.ExpectDone();
  return result;
}

std::string announce_commit(std::uint16_t transition_id, const mls::Bytes& commit_bytes) {
  mls::Writer out;
  out.U16(transition_id);
  out.Raw(commit_bytes);
  return to_string(out.Data());
}

std::string welcome(std::uint16_t transition_id, const mls::Welcome& welcome) {
  mls::Writer out;
  out.U16(transition_id);
  welcome.Write(out);
  return to_string(out.Data());
}

}  // namespace platformpp::emulator::dave_wire
