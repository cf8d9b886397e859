// What the voice gateway connection does on each close code and drop (docs/voice-protocol.md "Voice gateway
// (v8)"): resume on 4015, codes below 4000 and a drop; end the call with the Call::Error for everything else;
// bounded, backed-off attempts; heartbeats and zombie connections.
#include "voice/voice_gateway_session_policy.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <optional>

namespace voice_gateway_session_policy_test {

using namespace platformpp::voice;
using namespace std::chrono_literals;

TEST_CASE("Call::Error numbers match the Social SDK's") {
  CHECK(static_cast<int>(CallError::None) == 0);
  CHECK(static_cast<int>(CallError::SignalingConnectionFailed) == 1);
  CHECK(static_cast<int>(CallError::SignalingUnexpectedClose) == 2);
  CHECK(static_cast<int>(CallError::VoiceConnectionFailed) == 3);
  CHECK(static_cast<int>(CallError::JoinTimeout) == 4);
  CHECK(static_cast<int>(CallError::Forbidden) == 5);
  CHECK(std::string(CallErrorName(CallError::JoinTimeout)) == "JoinTimeout");
}

TEST_CASE("every voice close code in the contract: resume or end with which error") {
  struct Case {
    std::optional<int> code;
    bool resume;
    CallError error;
  };
  const Case cases[] = {
      {std::nullopt, true, CallError::None},  // a drop without a close frame
      {1000, true, CallError::None},
      {1001, true, CallError::None},
      {1006, true, CallError::None},
      {1011, true, CallError::None},
      {3999, true, CallError::None},  // the last code below 4000
      {4000, false, CallError::SignalingUnexpectedClose},
      {4001, false, CallError::SignalingUnexpectedClose},   // unknown opcode
      {4002, false, CallError::SignalingUnexpectedClose},   // decode error
      {4003, false, CallError::SignalingUnexpectedClose},   // not authenticated
      {4004, false, CallError::Forbidden},                  // authentication failed
      {4005, false, CallError::SignalingUnexpectedClose},   // already authenticated
      {4006, false, CallError::SignalingUnexpectedClose},   // session no longer valid
      {4009, false, CallError::SignalingUnexpectedClose},   // session timeout
      {4011, false, CallError::SignalingConnectionFailed},  // server not found
      {4012, false, CallError::SignalingConnectionFailed},  // unknown protocol
      {4014, false, CallError::SignalingUnexpectedClose},   // disconnected: do not reconnect
      {4015, true, CallError::None},                        // voice server crashed: resume
      {4016, false, CallError::VoiceConnectionFailed},      // unknown encryption mode
      {4017, false, CallError::Forbidden},                  // E2EE required
      {4020, false, CallError::SignalingUnexpectedClose},   // bad request
      {4021, false, CallError::SignalingUnexpectedClose},
      {4022, false, CallError::SignalingUnexpectedClose},
      {4999, false, CallError::SignalingUnexpectedClose},  // unknown codes end the call too
  };
  for (const Case& c : cases) {
    CAPTURE(c.code.value_or(-1));
    VoiceCloseMeaning meaning = InterpretVoiceClose(c.code);
    CHECK(meaning.resume == c.resume);
    CHECK(meaning.error == c.error);

    VoiceSessionPolicy policy({}, 1);
    policy.OnReady();
    VoiceReconnectDecision decision = policy.OnConnectionEnded(c.code);
    CHECK(decision.step == (c.resume ? VoiceNextStep::Resume : VoiceNextStep::End));
    CHECK(decision.error == c.error);
    CHECK(decision.errorDetail == c.code.value_or(0));
  }
}

TEST_CASE("before Ready there is no session: a drop identifies again; a fatal code still ends") {
  VoiceSessionPolicy policy({}, 1);
  CHECK_FALSE(policy.HasSession());
  CHECK(policy.OnConnectionEnded(std::nullopt).step == VoiceNextStep::Identify);
  CHECK(policy.OnConnectionEnded(4015).step == VoiceNextStep::Identify);
  VoiceReconnectDecision fatal = policy.OnConnectionEnded(4004);
  CHECK(fatal.step == VoiceNextStep::End);
  CHECK(fatal.error == CallError::Forbidden);
}

TEST_CASE("attempts are bounded: the last allowed one reconnects, the next one ends the call") {
  VoiceReconnectLimits limits;
  limits.maxAttempts = 3;
  limits.backoffInitial = 100ms;
  limits.backoffMaximum = 300ms;

  SUBCASE("never reached Ready: SignalingConnectionFailed") {
    VoiceSessionPolicy policy(limits, 7);
    for (int i = 0; i < 3; ++i) {
      VoiceReconnectDecision decision = policy.OnConnectionEnded(std::nullopt);
      CHECK(decision.step == VoiceNextStep::Identify);
    }
    VoiceReconnectDecision last = policy.OnConnectionEnded(std::nullopt);
    CHECK(last.step == VoiceNextStep::End);
    CHECK(last.error == CallError::SignalingConnectionFailed);
    CHECK(last.errorDetail == 0);
  }
  SUBCASE("after Ready: SignalingUnexpectedClose with the last close code") {
    VoiceSessionPolicy policy(limits, 7);
    policy.OnReady();
    for (int i = 0; i < 3; ++i)
      CHECK(policy.OnConnectionEnded(4015).step == VoiceNextStep::Resume);
    VoiceReconnectDecision last = policy.OnConnectionEnded(4015);
    CHECK(last.step == VoiceNextStep::End);
    CHECK(last.error == CallError::SignalingUnexpectedClose);
    CHECK(last.errorDetail == 4015);
  }
  SUBCASE("Resumed starts the count over") {
    VoiceSessionPolicy policy(limits, 7);
    policy.OnReady();
    for (int round = 0; round < 4; ++round) {
      for (int i = 0; i < 3; ++i)
        CHECK(policy.OnConnectionEnded(std::nullopt).step == VoiceNextStep::Resume);
      policy.OnResumed();
      CHECK(policy.Attempts() == 0);
    }
  }
}

TEST_CASE("reconnection delays back off with jitter and stay under the cap") {
  VoiceReconnectLimits limits;
  limits.maxAttempts = 10;
  limits.backoffInitial = 100ms;
  limits.backoffMaximum = 1000ms;
  VoiceSessionPolicy policy(limits, 42);
  policy.OnReady();
  int64_t ceiling = 100;
  for (int i = 0; i < 10; ++i) {
    VoiceReconnectDecision decision = policy.OnConnectionEnded(std::nullopt);
    REQUIRE(decision.step == VoiceNextStep::Resume);
    CAPTURE(i);
    CHECK(decision.delay.count() >= ceiling / 2);
    CHECK(decision.delay.count() <= ceiling);
    ceiling = std::min<int64_t>(ceiling * 2, 1000);
  }
  // The defaults give up well inside the 60 s the server keeps a dropped session.
  VoiceReconnectLimits defaults;
  int64_t worst = 0;
  int64_t step = defaults.backoffInitial.count();
  for (int i = 0; i < defaults.maxAttempts; ++i) {
    worst += std::min<int64_t>(step, defaults.backoffMaximum.count());
    step *= 2;
  }
  CHECK(worst < 30000);
}

TEST_CASE("voice heartbeats: every interval; an unacknowledged one makes the next a zombie") {
  using Clock = VoiceHeartbeat::Clock;
  VoiceHeartbeat heartbeat;
  Clock::time_point t0{};
  heartbeat.Start(13750ms, t0);
  CHECK(heartbeat.Running());
  CHECK(heartbeat.NextBeat() == t0 + 13750ms);
  CHECK(heartbeat.OnDue(t0 + 13750ms, 100) == VoiceHeartbeat::Beat::Send);
  CHECK(heartbeat.AwaitingAck());
  CHECK(heartbeat.NextBeat() == t0 + 27500ms);
  // An ACK for another nonce does not count; the right one does, with its round trip.
  CHECK_FALSE(heartbeat.OnAck(99, t0 + 13800ms));
  CHECK(heartbeat.AwaitingAck());
  auto rtt = heartbeat.OnAck(100, t0 + 13800ms);
  REQUIRE(rtt);
  CHECK(*rtt == 50ms);
  CHECK_FALSE(heartbeat.AwaitingAck());
  CHECK(heartbeat.OnDue(t0 + 27500ms, 101) == VoiceHeartbeat::Beat::Send);
  // No ACK before the next beat: zombie.
  CHECK(heartbeat.OnDue(t0 + 41250ms, 102) == VoiceHeartbeat::Beat::Zombie);
  CHECK_FALSE(heartbeat.Running());
  // An ACK without a nonce counts.
  heartbeat.Start(1000ms, t0);
  CHECK(heartbeat.OnDue(t0 + 1000ms, 5) == VoiceHeartbeat::Beat::Send);
  CHECK(heartbeat.OnAck(std::nullopt, t0 + 1001ms));
}

}  // namespace voice_gateway_session_policy_test
