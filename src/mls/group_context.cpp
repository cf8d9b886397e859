#include "mls/group_context.hpp"

namespace platformpp::mls {

void GroupContext::Write(Writer& out) const {
  out.U16(version);
  out.U16(cipherSuite);
  out.Vector(groupId);
  out.U64(epoch);
  out.Vector(treeHash);
  out.Vector(confirmedTranscriptHash);
  WriteExtensions(out, extensions);
}

GroupContext GroupContext::Read(Reader& in) {
  GroupContext context;
  context.version = in.U16();
  context.cipherSuite = in.U16();
  context.groupId = in.Vector();
  context.epoch = in.U64();
  context.treeHash = in.Vector();
  context.confirmedTranscriptHash = in.Vector();
  context.extensions = ReadExtensions(in);
  return context;
}

Bytes GroupContext::Encode() const {
  Writer out;
  Write(out);
  return std::move(out).Take();
}

}  // namespace platformpp::mls
