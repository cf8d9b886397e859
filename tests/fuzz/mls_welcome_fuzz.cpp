// MLS Welcome and the GroupSecrets a joiner decrypts from it: parse, and re-encode to the same bytes.
#include "mls/welcome.hpp"
#include "mls_fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::mls;
  const ByteView input(data, size);
  try {
    Reader in(input, "Welcome");
    const Welcome welcome = Welcome::Read(in);
    in.ExpectDone();
    Writer out;
    welcome.Write(out);
    mls_fuzz::RequireSame(out.Data(), input);
  } catch (const Error&) {
  }
  try {
    Reader in(input, "GroupSecrets");
    const GroupSecrets secrets = GroupSecrets::Read(in);
    in.ExpectDone();
    Writer out;
    secrets.Write(out);
    mls_fuzz::RequireSame(out.Data(), input);
  } catch (const Error&) {
  }
  return 0;
}
