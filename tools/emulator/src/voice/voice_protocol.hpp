// What the voice module's files share of the voice gateway's wire protocol and their JSON reading.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "voice/voice_gateway.hpp"

namespace platformpp::emulator::voice_protocol {

// A server message without seq (Hello, Heartbeat ACK, Resumed).
inline std::string unsequenced(int opcode, std::string_view d_json) {
  return "{\"op\":" + std::to_string(opcode) + ",\"d\":" + std::string(d_json) + "}";
}

// Closes that leave the voice session resumable (the SDK resumes on them); any other ends it.
inline bool close_keeps_session(int code) {
  return code < 4000 || code == voice_close::kVoiceServerCrashed;
}

inline std::optional<std::string> string_member(const rapidjson::Value& object, const char* name) {
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return std::nullopt;
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

inline bool has_member(const rapidjson::Value& object, const char* name) {
  const auto it = object.FindMember(name);
  return it != object.MemberEnd() && !it->value.IsNull();
}

}  // namespace platformpp::emulator::voice_protocol
