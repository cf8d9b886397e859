#include "mls/proposal.hpp"

#include <string>

namespace platformpp::mls {

void WriteHpkeCiphertext(Writer& out, const HpkeCiphertext& ciphertext) {
  out.Vector(ciphertext.kemOutput);
  out.Vector(ciphertext.ciphertext);
}

HpkeCiphertext ReadHpkeCiphertext(Reader& in) {
  HpkeCiphertext ciphertext;
  ciphertext.kemOutput = in.Vector();
  ciphertext.ciphertext = in.Vector();
  return ciphertext;
}

void WritePreSharedKeyId(Writer& out, const PreSharedKeyId& id) {
  out.U8(id.type);
  if (id.type == 1) {
    out.Vector(id.pskId);
  } else {
    out.U8(id.usage);
    out.Vector(id.pskGroupId);
    out.U64(id.pskEpoch);
  }
  out.Vector(id.nonce);
}

PreSharedKeyId ReadPreSharedKeyId(Reader& in) {
  PreSharedKeyId id;
  id.type = in.U8();
  if (id.type == 1) {
    id.pskId = in.Vector();
  } else if (id.type == 2) {
    id.usage = in.U8();
    id.pskGroupId = in.Vector();
    id.pskEpoch = in.U64();
  } else {
    in.Fail("unknown PSK type " + std::to_string(id.type));
  }
  id.nonce = in.Vector();
  return id;
}

ProposalType Proposal::Type() const {
  return static_cast<ProposalType>(body.index() + 1);  // the variant follows the type numbers
}

void Proposal::Write(Writer& out) const {
  out.U16(static_cast<uint16_t>(Type()));
  if (const auto* add = std::get_if<AddProposal>(&body)) {
    add->keyPackage.Write(out);
  } else if (const auto* update = std::get_if<UpdateProposal>(&body)) {
    update->leafNode.Write(out);
  } else if (const auto* remove = std::get_if<RemoveProposal>(&body)) {
    out.U32(remove->removed);
  } else if (const auto* psk = std::get_if<PreSharedKeyProposal>(&body)) {
    WritePreSharedKeyId(out, psk->psk);
  } else if (const auto* reinit = std::get_if<ReInitProposal>(&body)) {
    out.Vector(reinit->groupId);
    out.U16(reinit->version);
    out.U16(reinit->cipherSuite);
    WriteExtensions(out, reinit->extensions);
  } else if (const auto* external = std::get_if<ExternalInitProposal>(&body)) {
    out.Vector(external->kemOutput);
  } else {
    WriteExtensions(out, std::get<GroupContextExtensionsProposal>(body).extensions);
  }
}

Proposal Proposal::Read(Reader& in) {
  Proposal proposal;
  const uint16_t type = in.U16();
  switch (static_cast<ProposalType>(type)) {
    case ProposalType::Add:
      proposal.body = AddProposal{KeyPackage::Read(in)};
      break;
    case ProposalType::Update:
      proposal.body = UpdateProposal{LeafNode::Read(in)};
      break;
    case ProposalType::Remove:
      proposal.body = RemoveProposal{in.U32()};
      break;
    case ProposalType::PreSharedKey:
      proposal.body = PreSharedKeyProposal{ReadPreSharedKeyId(in)};
      break;
    case ProposalType::ReInit: {
      ReInitProposal reinit;
      reinit.groupId = in.Vector();
      reinit.version = in.U16();
      reinit.cipherSuite = in.U16();
      reinit.extensions = ReadExtensions(in);
      proposal.body = std::move(reinit);
      break;
    }
    case ProposalType::ExternalInit:
      proposal.body = ExternalInitProposal{in.Vector()};
      break;
    case ProposalType::GroupContextExtensions:
      proposal.body = GroupContextExtensionsProposal{ReadExtensions(in)};
      break;
    default:
      in.Fail("unknown proposal type " + std::to_string(type));
  }
  return proposal;
}

Bytes Proposal::Encode() const {
  Writer out;
  Write(out);
  return std::move(out).Take();
}

void UpdatePath::Write(Writer& out) const {
  leafNode.Write(out);
  out.Nested([&](Writer& list) {
    for (const UpdatePathNode& node : nodes) {
      list.Vector(node.encryptionKey);
      list.Nested([&](Writer& secrets) {
        for (const HpkeCiphertext& ciphertext : node.encryptedPathSecret)
          WriteHpkeCiphertext(secrets, ciphertext);
      });
    }
  });
}

UpdatePath UpdatePath::Read(Reader& in) {
  UpdatePath path;
  path.leafNode = LeafNode::Read(in);
  in.Items([&](Reader& item) {
    UpdatePathNode node;
    node.encryptionKey = item.Vector();
    item.Items([&](Reader& secret) { node.encryptedPathSecret.push_back(ReadHpkeCiphertext(secret)); });
    path.nodes.push_back(std::move(node));
  });
  return path;
}

void Commit::Write(Writer& out) const {
  out.Nested([&](Writer& list) {
    for (const ProposalOrRef& entry : proposals) {
      if (const auto* proposal = std::get_if<Proposal>(&entry.value)) {
        list.U8(1);
        proposal->Write(list);
      } else {
        list.U8(2);
        list.Vector(std::get<Bytes>(entry.value));
      }
    }
  });
  out.U8(path ? 1 : 0);
  if (path) path->Write(out);
}

Commit Commit::Read(Reader& in) {
  Commit commit;
  in.Items([&](Reader& item) {
    const uint8_t type = item.U8();
    if (type == 1) {
      commit.proposals.push_back({Proposal::Read(item)});
    } else if (type == 2) {
      commit.proposals.push_back({item.Vector()});
    } else {
      item.Fail("unknown ProposalOrRef type " + std::to_string(type));
    }
  });
  if (in.Present()) commit.path = UpdatePath::Read(in);
  return commit;
}

Bytes Commit::Encode() const {
  Writer out;
  Write(out);
  return std::move(out).Take();
}

}  // namespace platformpp::mls
