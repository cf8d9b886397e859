#pragma once
// What the voice gateway connection decides, free of sockets and of the real clock (docs/voice-protocol.md,
// "Voice gateway (v8)"): what a close code or a drop means for the call, how many reconnection attempts it
// gets and how long to wait before each, and when a heartbeat is due or the connection is a zombie. The
// connection (voice_gateway_connection.cpp) feeds it events and does what it says; tests drive it directly.

#include "core/random.hpp"
#include "net/backoff.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>

namespace platformpp::voice {

/// The reason a call ends, with the numbers of the Social SDK's Call::Error (social-sdk-surface.md), so the
/// Call maps it one to one.
enum class CallError : int32_t {
  None = 0,
  SignalingConnectionFailed = 1,  ///< the voice gateway could not be reached (or never reached Ready)
  SignalingUnexpectedClose = 2,   ///< the voice gateway closed the session, or resuming it failed
  VoiceConnectionFailed = 3,      ///< media could not be set up (no common mode, bad Session Description)
  JoinTimeout = 4,                ///< no Session Description within the join timeout
  Forbidden = 5,                  ///< authentication refused (4004) or the call requires E2EE (4017)
};

const char* CallErrorName(CallError error) noexcept;

/// A close code (or none) as the platform defines them: 4015 and every code below 4000 (and a drop with no
/// close frame) resume; everything else ends the call with the error returned.
struct VoiceCloseMeaning {
  bool resume = false;
  CallError error = CallError::None;  ///< when !resume
};
VoiceCloseMeaning InterpretVoiceClose(std::optional<int> closeCode) noexcept;

/// How many times the connection tries again before it gives up, and the jittered backoff between tries
/// (the n-th delay, from 0, uniform in [initial * 2^n / 2, initial * 2^n], capped). The defaults give up
/// after about 20 s at most, well inside the 60 s the server keeps a dropped session resumable.
struct VoiceReconnectLimits {
  int maxAttempts = 5;
  std::chrono::milliseconds backoffInitial{250};
  std::chrono::milliseconds backoffMaximum{8000};
};

enum class VoiceNextStep {
  Identify,  ///< connect again and send Identify (no session yet: the connection ended before Ready)
  Resume,    ///< connect again and send Resume with seq_ack
  End,       ///< the call ends with `error`; do not reconnect
};

struct VoiceReconnectDecision {
  VoiceNextStep step = VoiceNextStep::End;
  std::chrono::milliseconds delay{0};  ///< before the next attempt
  CallError error = CallError::None;   ///< when step == End
  int32_t errorDetail = 0;             ///< the close code, or 0 when there was none
};

/// One per voice connection. Not thread-safe (the connection's strand owns it).
class VoiceSessionPolicy {
 public:
  explicit VoiceSessionPolicy(VoiceReconnectLimits limits = {}, uint64_t seed = std::random_device{}())
      : limits_(limits), random_(seed), backoff_(limits.backoffInitial, limits.backoffMaximum, random_) {}
  VoiceSessionPolicy(const VoiceSessionPolicy&) = delete;  // the backoff refers to random_
  VoiceSessionPolicy& operator=(const VoiceSessionPolicy&) = delete;

  /// Ready arrived: the server holds a session that later connections resume. Resets the attempts.
  void OnReady() noexcept {
    hasSession_ = true;
    attempts_ = 0;
    backoff_.Reset();
  }
  /// Resumed arrived: the attempts start over.
  void OnResumed() noexcept {
    attempts_ = 0;
    backoff_.Reset();
  }
  bool HasSession() const noexcept { return hasSession_; }
  int Attempts() const noexcept { return attempts_; }

  /// The connection ended (or an attempt to open one failed): `closeCode` is the server's close code, nullopt
  /// for a drop without a close frame or a failed attempt.
  VoiceReconnectDecision OnConnectionEnded(std::optional<int> closeCode);

 private:
  VoiceReconnectLimits limits_;
  core::Random random_;
  net::Backoff backoff_;
  bool hasSession_ = false;
  int attempts_ = 0;
};

/// Heartbeats every interval from Hello. A beat that falls due while the previous one is unacknowledged means
/// the connection is a zombie (the server would close it after 2 intervals anyway): drop it and resume.
class VoiceHeartbeat {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Beat { Send, Zombie };

  void Start(std::chrono::milliseconds interval, Clock::time_point now) noexcept {
    interval_ = interval;
    next_ = now + interval;
    awaiting_.reset();
    running_ = true;
  }
  void Stop() noexcept { running_ = false; }
  bool Running() const noexcept { return running_; }
  Clock::time_point NextBeat() const noexcept { return next_; }

  /// The timer fired at `now`: send a heartbeat with nonce `t`, or give up on the connection.
  Beat OnDue(Clock::time_point now, uint64_t t) noexcept {
    if (awaiting_) {
      running_ = false;
      return Beat::Zombie;
    }
    awaiting_ = t;
    sentAt_ = now;
    next_ = now + interval_;
    return Beat::Send;
  }
  /// An ACK: it counts when it echoes the nonce in flight (or carries none). Returns the round trip then.
  std::optional<std::chrono::milliseconds> OnAck(std::optional<uint64_t> t, Clock::time_point now) noexcept {
    if (!awaiting_ || (t && *t != *awaiting_)) return std::nullopt;
    awaiting_.reset();
    return std::chrono::duration_cast<std::chrono::milliseconds>(now - sentAt_);
  }
  bool AwaitingAck() const noexcept { return awaiting_.has_value(); }

 private:
  std::chrono::milliseconds interval_{0};
  Clock::time_point next_{};
  Clock::time_point sentAt_{};
  std::optional<uint64_t> awaiting_;
  bool running_ = false;
};

}  // namespace platformpp::voice
