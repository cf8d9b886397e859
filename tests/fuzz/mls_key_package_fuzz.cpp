// MLS KeyPackage (as the DAVE voice gateway relays them): parse, and re-encode to the same bytes.
#include "mls/key_package.hpp"
#include "mls_fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::mls;
  try {
    Reader in(ByteView(data, size), "KeyPackage");
    const KeyPackage keyPackage = KeyPackage::Read(in);
    in.ExpectDone();
    mls_fuzz::RequireSame(keyPackage.Encode(), ByteView(data, size));
    (void)keyPackage.Ref();
  } catch (const Error&) {
  }
  return 0;
}
