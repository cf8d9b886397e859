// The binary DAVE messages of the voice gateway (opcodes 25-30): the first input byte picks the opcode, the
// rest is its payload. A parse either throws mls::Error or gives a message that encodes back to the payload.
#include "voice/dave/messages.hpp"

#include <cstddef>
#include <cstdint>

namespace {

void RequireSame(const platformpp::mls::Bytes& encoded, platformpp::mls::ByteView payload) {
  if (encoded.size() != payload.size()) __builtin_trap();
  for (std::size_t i = 0; i < payload.size(); ++i)
    if (encoded[i] != payload[i]) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::voice::dave;
  if (size < 1) return 0;
  const platformpp::mls::ByteView payload(data + 1, size - 1);
  try {
    switch (data[0] % 6) {
      case 0:
        RequireSame(WriteExternalSenderPackage(ReadExternalSenderPackage(payload)), payload);
        break;
      case 1: {
        // Read in both forms; written bare (as libdave sends it), so the wrapped form is compared wrapped.
        const auto keyPackage = ReadKeyPackageMessage(payload);
        const bool wrapped = payload.size() >= 4 && payload[2] == 0 && payload[3] == 5;
        RequireSame(wrapped
                        ? platformpp::mls::MlsMessage{platformpp::mls::kProtocolVersion, keyPackage}.Encode()
                        : WriteKeyPackageMessage(keyPackage),
                    payload);
        break;
      }
      case 2:
        RequireSame(WriteProposals(ReadProposals(payload)), payload);
        break;
      case 3:
        RequireSame(WriteCommitWelcome(ReadCommitWelcome(payload)), payload);
        break;
      case 4:
        RequireSame(WriteAnnounceCommit(ReadAnnounceCommit(payload)), payload);
        break;
      default:
        RequireSame(WriteWelcome(ReadWelcome(payload)), payload);
        break;
    }
  } catch (const platformpp::mls::Error&) {
  }
  return 0;
}
