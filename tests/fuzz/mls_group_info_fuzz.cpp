// MLS GroupInfo (decrypted from a Welcome): parse, re-encode to the same bytes, and read the ratchet tree
// and external senders it may carry.
#include "mls/group.hpp"
#include "mls/welcome.hpp"
#include "mls_fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::mls;
  try {
    Reader in(ByteView(data, size), "GroupInfo");
    const GroupInfo info = GroupInfo::Read(in);
    in.ExpectDone();
    mls_fuzz::RequireSame(info.Encode(), ByteView(data, size));
    (void)info.ToBeSigned();
    for (const Extension& extension : info.extensions) {
      try {
        if (extension.type == kExtensionRatchetTree) (void)RatchetTree::Decode(extension.data).TreeHash();
      } catch (const Error&) {
      }
    }
    for (const Extension& extension : info.groupContext.extensions) {
      try {
        if (extension.type == kExtensionExternalSenders) (void)ReadExternalSenders(extension);
      } catch (const Error&) {
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
