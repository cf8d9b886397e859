// The emulator's DAVE external sender fed what a client may send: the first input byte picks the message (the
// same selector values as dave_message_fuzz, whose corpus this target shares: 1 a key package, 3 a commit and
// Welcome), the rest is its payload, applied to a call of three members. Nothing may crash or throw; a key
// package or commit the codec reads must encode back to the bytes it came from.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "voice/dave_call.hpp"
#include "voice/dave_wire.hpp"

namespace {

const platformpp::emulator::DaveExternalSender& Gateway() {
  static const auto gateway = platformpp::emulator::DaveExternalSender::generate();
  return gateway;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::emulator;
  if (size < 1) return 0;
  const std::string_view payload(reinterpret_cast<const char*>(data + 1), size - 1);
  DaveCall call(Gateway(), "1000", 3000, 1000);
  for (const char* user : {"1001", "1002", "1003"})
    call.join(user, 1, 0);
  const auto transition =
      static_cast<std::uint16_t>(payload.empty() ? 0 : static_cast<std::uint8_t>(payload[0]));
  switch (data[0] % 6) {
    case 1:
      try {
        const auto key_package = dave_wire::read_key_package(payload);
        (void)key_package;
      } catch (const platformpp::mls::Error&) {
      }
      (void)call.key_package("1001", payload, 0);
      break;
    case 3:
      try {
        const auto commit = dave_wire::read_commit_welcome(payload);
        if (commit.commit_bytes.size() > payload.size()) __builtin_trap();
      } catch (const platformpp::mls::Error&) {
      }
      call.commit_welcome("1002", payload, 0);
      break;
    case 0:
      call.ready_for_transition("1003", transition);
      break;
    case 2:
      call.invalid_commit_welcome("1001", transition, 0);
      break;
    case 4:
      call.leave(transition % 2 == 0 ? "1001" : "1002", 0);
      call.join("1004", transition % 3 == 0 ? 0 : 1, 0);
      break;
    default:
      call.tick(transition);
      break;
  }
  (void)call.take_outgoing();
  return 0;
}
