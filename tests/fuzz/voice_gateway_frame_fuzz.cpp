// Voice gateway frames from the network, read both as a text frame and as a binary frame. Nothing may throw
// or crash; what parses must be what the contract allows (a 32-byte key, a u32 SSRC, a non-zero port, a
// non-negative seq), and what the connection builds from it must be valid JSON.
#include "json/json.hpp"
#include "voice/voice_gateway_payload.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

using namespace platformpp::voice;
namespace media_wire = platformpp::media_wire;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  VoiceServerMessage message = ParseVoiceServerText(text);
  if (message.seq && *message.seq < 0) __builtin_trap();
  if (message.Malformed() && message.As<VoiceMalformed>()->error.empty()) __builtin_trap();
  VoiceSeqTracker seq;
  if (message.seq) (void)seq.Accept(*message.seq);
  if (const auto* ready = message.As<VoiceReady>()) {
    if (ready->port == 0 || ready->ip.empty()) __builtin_trap();
    if (auto mode = media_wire::ChooseTransportMode(ready->modes)) {
      platformpp::json::Document doc;
      if (!platformpp::json::Parse(BuildVoiceSelectProtocol(ready->ip, ready->port, *mode), doc))
        __builtin_trap();
    }
  }
  if (const auto* hello = message.As<VoiceHello>()) {
    if (hello->heartbeatIntervalMs < 1 || hello->heartbeatIntervalMs > kMaxVoiceHeartbeatIntervalMs)
      __builtin_trap();
  }
  if (const auto* description = message.As<VoiceSessionDescription>()) {
    if (description->secretKey.size() != media_wire::kTransportKeySize) __builtin_trap();
  }
  if (const auto* unknown = message.As<VoiceUnknown>()) {
    platformpp::json::Document doc;
    if (!platformpp::json::Parse(unknown->dJson, doc)) __builtin_trap();
  }

  VoiceServerMessage binary = ParseVoiceServerBinary(std::span<const uint8_t>(data, size));
  if (size < 3 && !binary.Malformed()) __builtin_trap();
  if (const auto* frame = binary.As<VoiceBinary>()) {
    if (frame->payload.size() != size - 3 || !binary.seq || *binary.seq > 0xFFFF) __builtin_trap();
    (void)seq.AcceptBinary(static_cast<uint16_t>(*binary.seq));
  }
  return 0;
}
