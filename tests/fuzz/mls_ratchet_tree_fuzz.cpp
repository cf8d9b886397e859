// The ratchet_tree extension (from a Welcome's GroupInfo): parse, re-encode to the same bytes, and run
// what a joiner runs on it: tree hash, resolutions, parent hashes.
#include "mls/ratchet_tree.hpp"
#include "mls_fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::mls;
  try {
    const RatchetTree tree = RatchetTree::Decode(ByteView(data, size));
    mls_fuzz::RequireSame(tree.Encode(), ByteView(data, size));
    if (tree.NodeCount() > 4096) return 0;  // hashing a huge tree tells nothing new
    (void)tree.TreeHash();
    for (NodeIndex node = 0; node < tree.NodeCount(); ++node)
      (void)tree.Resolution(node);
    (void)tree.ParentHashesValid();
  } catch (const Error&) {
  }
  return 0;
}
