// The emulator's notion of "now". Every time-based rule (token expiry, rate-limit windows, snowflakes) reads
// it so that tests can move time instead of sleeping. It flows with real time plus an offset unless frozen,
// and never moves backwards.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::emulator {

class FakeClock {
 public:
  // Source of real wall-clock time in milliseconds since the Unix epoch; injectable for tests.
  using RealTimeSource = std::function<std::int64_t()>;

  static std::int64_t system_now_ms();

  // `start_ms` (milliseconds since the epoch) starts the clock at that time instead of now, earlier or later:
  // runs a game as of a date (before or after a platform change).
  explicit FakeClock(RealTimeSource real_time = &FakeClock::system_now_ms, bool frozen = false,
                     std::optional<std::int64_t> start_ms = std::nullopt);

  // Milliseconds since the Unix epoch. Monotonic even if the real clock steps back.
  std::int64_t now_ms();
  [[nodiscard]] bool frozen() const noexcept { return frozen_; }

  // Moves time forward by `delta_ms`; false (and no change) if negative.
  bool advance(std::int64_t delta_ms);
  // Jumps to `epoch_ms`; false (and no change) if that is earlier than now.
  bool set(std::int64_t epoch_ms);
  // Frozen time moves only through advance() and set().
  void set_frozen(bool frozen);

  // One turn of the emulator's thread (a request, a frame, a tick) reads real time once: everything it does
  // (ids, timestamps, the event log's line) sees one instant, so a replay that gives the turn the time its
  // line recorded makes the same ids. Turns nest (the outer one's instant holds); the clock's own moves
  // (advance, set) still apply within one.
  void begin_turn();
  void end_turn() noexcept;
  // Real time as the current turn read it (outside a turn: now), what the event log writes beside now_ms().
  std::int64_t real_ms() { return real_now(); }
  class Turn {
   public:
    explicit Turn(FakeClock& clock) : clock_(clock) { clock_.begin_turn(); }
    ~Turn() { clock_.end_turn(); }
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;

   private:
    FakeClock& clock_;
  };

  // What a state file keeps of the clock, so that time goes on after a restart where it stood (flowing with
  // real time meanwhile, or frozen).
  struct Saved {
    bool frozen = false;
    std::int64_t offset_ms = 0;
    std::int64_t frozen_at_ms = 0;
    std::int64_t last_ms = 0;
  };
  [[nodiscard]] Saved save() const noexcept { return {frozen_, offset_ms_, frozen_at_ms_, last_ms_}; }
  void restore(const Saved& saved) noexcept;

 private:
  RealTimeSource real_time_;
  bool frozen_;
  std::int64_t offset_ms_ = 0;     // added to real time while flowing
  std::int64_t frozen_at_ms_ = 0;  // the time while frozen
  std::int64_t last_ms_ = 0;       // highest value returned, so now_ms() never decreases
  int turn_depth_ = 0;
  std::int64_t turn_real_ms_ = 0;  // real time as the current turn read it

  std::int64_t real_now() { return turn_depth_ > 0 ? turn_real_ms_ : real_time_(); }
};

// Real time (a steady clock's milliseconds) for what the fake clock must not govern: heartbeats, resume
// windows and DAVE's transitions (the fake clock stands still in tests).
std::int64_t steady_now_ms();
// Where steady_now_ms() reads its time: a socket-free test sets a function of its own to drive those
// deadlines exactly (a heartbeat one millisecond late) instead of sleeping; nullptr is the steady clock
// again. Process-wide: only for tests that own the emulator's service and its thread.
using SteadyTimeSource = std::int64_t (*)();
void set_steady_time_source(SteadyTimeSource source);

// "2026-11-22T10:00:00.000Z" (UTC, millisecond precision).
std::string format_rfc3339_ms(std::int64_t epoch_ms);
// Accepts "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)" ('t'/'z'/' ' tolerated); nullopt if malformed.
std::optional<std::int64_t> parse_rfc3339(std::string_view text);

}  // namespace platformpp::emulator
