#include "voice/dave/messages.hpp"

#include <string>

namespace platformpp::voice::dave {

namespace {

using mls::Reader;
using mls::Writer;

// Each message must use its whole payload.
template <class F>
auto ReadWhole(mls::ByteView payload, const char* what, F&& read) {
  Reader in(payload, what);
  auto value = read(in);
  in.ExpectDone();
  return value;
}

void CheckFormat(const mls::MlsMessage& message, mls::WireFormat expected, Reader& in, const char* what) {
  if (message.Format() != expected) in.Fail(std::string(what) + " of another wire format");
}

}  // namespace

mls::ExternalSender ReadExternalSenderPackage(mls::ByteView payload) {
  return ReadWhole(payload, "DAVE external sender package", [](Reader& in) {
    mls::ExternalSender sender;
    sender.signatureKey = in.Vector();
    sender.credential = mls::Credential::Read(in);
    if (sender.credential.type != mls::kCredentialBasic)
      in.Fail("an external sender without a basic credential");
    return sender;
  });
}

mls::Bytes WriteExternalSenderPackage(const mls::ExternalSender& sender) {
  Writer out;
  out.Vector(sender.signatureKey);
  sender.credential.Write(out);
  return std::move(out).Take();
}

mls::KeyPackage ReadKeyPackageMessage(mls::ByteView payload) {
  // Both start with the protocol version; then a KeyPackage has its cipher suite (2) where an MLSMessage
  // has its wire format (5).
  const bool wrapped = payload.size() >= 4 && payload[2] == 0 &&
                       payload[3] == static_cast<uint8_t>(mls::WireFormat::KeyPackage);
  if (!wrapped) {
    return ReadWhole(payload, "DAVE key package", [](Reader& in) { return mls::KeyPackage::Read(in); });
  }
  return ReadWhole(payload, "DAVE key package", [](Reader& in) {
    mls::MlsMessage message = mls::MlsMessage::Read(in);
    CheckFormat(message, mls::WireFormat::KeyPackage, in, "a key package message");
    return std::get<mls::KeyPackage>(std::move(message.body));
  });
}

mls::Bytes WriteKeyPackageMessage(const mls::KeyPackage& keyPackage) {
  return keyPackage.Encode();
}

ProposalsMessage ReadProposals(mls::ByteView payload) {
  return ReadWhole(payload, "DAVE proposals", [](Reader& in) {
    ProposalsMessage message;
    const uint8_t operation = in.U8();
    if (operation == 0) {
      message.operation = ProposalsMessage::Operation::Append;
      in.Items([&](Reader& item) {
        mls::MlsMessage proposal = mls::MlsMessage::Read(item);
        CheckFormat(proposal, mls::WireFormat::PublicMessage, item, "a proposal");
        message.proposals.push_back(std::move(proposal));
      });
    } else if (operation == 1) {
      message.operation = ProposalsMessage::Operation::Revoke;
      in.Items([&](Reader& item) { message.revokedRefs.push_back(item.Vector()); });
    } else {
      in.Fail("unknown proposals operation " + std::to_string(operation));
    }
    return message;
  });
}

mls::Bytes WriteProposals(const ProposalsMessage& message) {
  Writer out;
  out.U8(static_cast<uint8_t>(message.operation));
  out.Nested([&](Writer& list) {
    if (message.operation == ProposalsMessage::Operation::Append) {
      for (const mls::MlsMessage& proposal : message.proposals)
        proposal.Write(list);
    } else {
      for (const mls::Bytes& ref : message.revokedRefs)
        list.Vector(ref);
    }
  });
  return std::move(out).Take();
}

CommitWelcomeMessage ReadCommitWelcome(mls::ByteView payload) {
  return ReadWhole(payload, "DAVE commit and welcome", [](Reader& in) {
    CommitWelcomeMessage message{mls::MlsMessage::Read(in), std::nullopt};
    CheckFormat(message.commit, mls::WireFormat::PublicMessage, in, "a commit");
    if (!in.Done()) message.welcome = mls::Welcome::Read(in);
    return message;
  });
}

mls::Bytes WriteCommitWelcome(const CommitWelcomeMessage& message) {
  Writer out;
  message.commit.Write(out);
  if (message.welcome) message.welcome->Write(out);
  return std::move(out).Take();
}

AnnounceCommitMessage ReadAnnounceCommit(mls::ByteView payload) {
  return ReadWhole(payload, "DAVE announced commit", [](Reader& in) {
    AnnounceCommitMessage message;
    message.transitionId = in.U16();
    message.commit = mls::MlsMessage::Read(in);
    CheckFormat(message.commit, mls::WireFormat::PublicMessage, in, "a commit");
    return message;
  });
}

mls::Bytes WriteAnnounceCommit(const AnnounceCommitMessage& message) {
  Writer out;
  out.U16(message.transitionId);
  message.commit.Write(out);
  return std::move(out).Take();
}

WelcomeMessage ReadWelcome(mls::ByteView payload) {
  return ReadWhole(payload, "DAVE welcome", [](Reader& in) {
    WelcomeMessage message;
    message.transitionId = in.U16();
    message.welcome = mls::Welcome::Read(in);
    return message;
  });
}

mls::Bytes WriteWelcome(const WelcomeMessage& message) {
  Writer out;
  out.U16(message.transitionId);
  message.welcome.Write(out);
  return std::move(out).Take();
}

}  // namespace platformpp::voice::dave
