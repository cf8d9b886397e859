// MLSMessage, the envelope of every MLS message (PublicMessage, PrivateMessage, Welcome, GroupInfo,
// KeyPackage): parse, re-encode to the same bytes, and build what verification hashes and signs.
#include "mls/welcome.hpp"
#include "mls_fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::mls;
  try {
    const MlsMessage message = MlsMessage::Decode(ByteView(data, size));
    mls_fuzz::RequireSame(message.Encode(), ByteView(data, size));
    if (const auto* pub = std::get_if<PublicMessage>(&message.body)) {
      const AuthenticatedContent content = pub->Authenticated();
      (void)content.ToBeSigned(GroupContext{});
      if (content.content.Type() == ContentType::Commit) (void)content.ConfirmedTranscriptHashInput();
    }
  } catch (const Error&) {
  }
  return 0;
}
