// What the Gateway module's files share of the wire protocol: opcodes and the unsequenced payload shape.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace platformpp::emulator::gateway_protocol {

namespace op {
inline constexpr int kDispatch = 0;
inline constexpr int kHeartbeat = 1;
inline constexpr int kIdentify = 2;
inline constexpr int kPresenceUpdate = 3;
inline constexpr int kVoiceStateUpdate = 4;
inline constexpr int kResume = 6;
inline constexpr int kReconnect = 7;
inline constexpr int kRequestGuildMembers = 8;
inline constexpr int kInvalidSession = 9;
inline constexpr int kHello = 10;
inline constexpr int kHeartbeatAck = 11;
inline constexpr int kRequestSoundboardSounds = 31;
inline constexpr int kRequestChannelInfo = 43;
}  // namespace op

// A payload without a sequence number (Hello, Heartbeat ACK, Reconnect, Invalid Session...).
inline std::string simple_payload(int opcode, std::string_view d_json) {
  return "{\"op\":" + std::to_string(opcode) + ",\"d\":" + std::string(d_json) + ",\"s\":null,\"t\":null}";
}

}  // namespace platformpp::emulator::gateway_protocol
