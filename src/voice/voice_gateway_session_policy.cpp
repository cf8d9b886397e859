#include "voice/voice_gateway_session_policy.hpp"

namespace platformpp::voice {

const char* CallErrorName(CallError error) noexcept {
  switch (error) {
    case CallError::None:
      return "None";
    case CallError::SignalingConnectionFailed:
      return "SignalingConnectionFailed";
    case CallError::SignalingUnexpectedClose:
      return "SignalingUnexpectedClose";
    case CallError::VoiceConnectionFailed:
      return "VoiceConnectionFailed";
    case CallError::JoinTimeout:
      return "JoinTimeout";
    case CallError::Forbidden:
      return "Forbidden";
  }
  return "?";
}

VoiceCloseMeaning InterpretVoiceClose(std::optional<int> closeCode) noexcept {
  // A drop, any WebSocket-level code (1000-3999: the server went away, restarted, or an intermediary cut the
  // connection) and 4015 (the voice server crashed) resume.
  if (!closeCode || *closeCode < 4000 || *closeCode == 4015) return {true, CallError::None};
  switch (*closeCode) {
    case 4004:  // authentication failed: a wrong token, user, session or lobby
    case 4017:  // end-to-end encryption required: this client may not join this call as it is
      return {false, CallError::Forbidden};
    case 4011:  // server not found
    case 4012:  // unknown protocol (a version this client does not speak)
      return {false, CallError::SignalingConnectionFailed};
    case 4016:  // unknown encryption mode: media cannot be set up
      return {false, CallError::VoiceConnectionFailed};
    default:
      // 4001-4003, 4005 (our protocol errors), 4006 (session no longer valid), 4009 (session timeout),
      // 4014 (disconnected: the voice state ended), 4020-4022 and anything else the platform adds.
      return {false, CallError::SignalingUnexpectedClose};
  }
}

VoiceReconnectDecision VoiceSessionPolicy::OnConnectionEnded(std::optional<int> closeCode) {
  VoiceReconnectDecision decision;
  decision.errorDetail = closeCode.value_or(0);
  VoiceCloseMeaning meaning = InterpretVoiceClose(closeCode);
  if (!meaning.resume) {
    decision.step = VoiceNextStep::End;
    decision.error = meaning.error;
    return decision;
  }
  if (attempts_ >= limits_.maxAttempts) {
    decision.step = VoiceNextStep::End;
    // A session that never reached Ready never connected, as far as the call is concerned.
    decision.error = hasSession_ ? CallError::SignalingUnexpectedClose : CallError::SignalingConnectionFailed;
    return decision;
  }
  ++attempts_;
  decision.step = hasSession_ ? VoiceNextStep::Resume : VoiceNextStep::Identify;
  decision.delay = backoff_.Next();
  return decision;
}

}  // namespace platformpp::voice
