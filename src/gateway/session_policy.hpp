#pragma once
// What the Gateway session decides, free of sockets and of the real clock
// (docs/gateway-protocol.md, "Hello and heartbeats", "Resume", "Close codes"): when to heartbeat and when the
// connection is a zombie, what a close or an op 7/op 9 means for the next connection, how long to wait before
// it, and which dispatches are new. The connection (gateway_connection.cpp) feeds it events and the current
// time and does what it says; tests drive it with a fake clock and seeded jitter.

#include "net/backoff.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>

namespace platformpp::gateway {

using SteadyClock = std::chrono::steady_clock;

/// Heartbeats: the first after `interval * jitter` (jitter drawn from [0, 1)), then every `interval`. A beat
/// that falls due while the previous one is still unacknowledged means the connection is a zombie.
class HeartbeatPolicy {
 public:
  enum class Beat { Send, Zombie };

  /// Hello arrived at `now`. `jitter` in [0, 1).
  void Start(std::chrono::milliseconds interval, SteadyClock::time_point now, double jitter) {
    interval_ = interval;
    if (!(jitter >= 0.0) || jitter >= 1.0) jitter = 0.0;
    next_ = now + std::chrono::duration_cast<SteadyClock::duration>(interval * jitter);
    awaitingAck_ = false;
    running_ = true;
  }
  void Stop() noexcept { running_ = false; }
  bool Running() const noexcept { return running_; }
  SteadyClock::time_point NextBeat() const noexcept { return next_; }
  std::chrono::milliseconds Interval() const noexcept { return interval_; }
  bool AwaitingAck() const noexcept { return awaitingAck_; }

  /// The timer fired at `now` (>= NextBeat()): send a heartbeat, or give up on the connection.
  Beat OnDue(SteadyClock::time_point now) {
    if (awaitingAck_) {
      running_ = false;
      return Beat::Zombie;
    }
    awaitingAck_ = true;
    next_ = now + interval_;
    return Beat::Send;
  }
  /// The server asked for a heartbeat (op 1): it is sent at once; the schedule stays.
  void OnImmediateBeat() noexcept { awaitingAck_ = true; }
  void OnAck() noexcept { awaitingAck_ = false; }

 private:
  std::chrono::milliseconds interval_{0};
  SteadyClock::time_point next_{};
  bool awaitingAck_ = false;
  bool running_ = false;
};

/// What the next connection does after this one ends.
enum class NextStep {
  Resume,    ///< reconnect to resume_gateway_url and send op 6 (replay follows)
  Identify,  ///< reconnect and identify afresh (a new session)
  Stop,      ///< stay Disconnected and report the error; no reconnect
};

/// A close code from the server (or none: the connection dropped without a close frame).
/// 4004 and 4010-4014: Stop. 4007 and 4009: Identify. Everything else, and no code: Resume.
/// (1000/1001 from the server also resume: only the client closing with them invalidates its session.)
inline NextStep DecideOnClose(std::optional<int> closeCode) {
  if (!closeCode) return NextStep::Resume;
  int code = *closeCode;
  if (code == 4004 || (code >= 4010 && code <= 4014)) return NextStep::Stop;
  if (code == 4007 || code == 4009) return NextStep::Identify;
  return NextStep::Resume;
}

/// Op 9: `d: true` resumes, `d: false` identifies afresh.
inline NextStep DecideOnInvalidSession(bool resumable) {
  return resumable ? NextStep::Resume : NextStep::Identify;
}

/// Op 7 and zombie connections resume.
inline NextStep DecideOnReconnectRequest() {
  return NextStep::Resume;
}

/// The close code the SDK uses when it drops a connection it wants to resume (zombie, op 7, op 9 true): not
/// 1000/1001, which would invalidate the session.
constexpr uint16_t kResumableCloseCode = 4000;
/// Disconnect(): a normal close, which ends the session on the server.
constexpr uint16_t kNormalCloseCode = 1000;

/// Jittered capped backoff between connection attempts: the n-th delay (from 0) is uniform in
/// [initial * 2^n / 2, initial * 2^n], capped at `maximum` (defaults: 1 s .. 60 s, so 0.5 s .. 60 s).
/// Reset when a session reaches Ready.
using ReconnectBackoff = net::Backoff;
constexpr std::chrono::milliseconds kDefaultBackoffInitial{1000};
constexpr std::chrono::milliseconds kDefaultBackoffMaximum{60000};

/// Dispatches reach the sink once per sequence number: a resume replays what the server thinks was missed,
/// which may overlap with what arrived before the drop. Sequence numbers only grow within a session.
class SequenceTracker {
 public:
  /// True when dispatch `s` is new (and records it). A dispatch without `s` is always delivered.
  bool Accept(std::optional<int64_t> s) noexcept {
    if (!s) return true;
    if (last_ && *s <= *last_) return false;
    last_ = s;
    return true;
  }
  /// The last `s` seen: what heartbeats and Resume carry.
  std::optional<int64_t> Last() const noexcept { return last_; }
  /// A new session (Identify) numbers from the start again.
  void Reset() noexcept { last_.reset(); }

 private:
  std::optional<int64_t> last_;
};

}  // namespace platformpp::gateway
