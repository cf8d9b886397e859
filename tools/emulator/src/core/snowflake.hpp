// Snowflake ids: bits 63..22 = ms since 2015-01-01T00:00:00Z (from the fake clock), 21..17 worker,
// 16..12 process, 11..0 increment. Always serialized as JSON strings.
#pragma once

#include <cstdint>
#include <string>

#include "core/fake_clock.hpp"

namespace platformpp::emulator {

inline constexpr std::int64_t kPlatformEpochMs = 1420070400000;

struct SnowflakeParts {
  std::int64_t timestamp_ms;  // Unix epoch ms
  unsigned worker;
  unsigned process;
  unsigned increment;
};

SnowflakeParts decode_snowflake(std::uint64_t id);

// Numeric order of snowflake ids as strings (their text order differs when lengths differ).
inline bool snowflake_less(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

class SnowflakeGenerator {
 public:
  explicit SnowflakeGenerator(FakeClock& clock, unsigned worker = 1, unsigned process = 0);

  // Strictly greater than every id before it: ids are the platform's order (of a channel's messages, say),
  // so a 12-bit increment that wraps within one millisecond (4,096 ids in a frozen clock's millisecond, or a
  // wrap that falls between two ids of the same millisecond) moves the id's time on by one millisecond
  // instead of going back to an earlier or an equal id.
  std::uint64_t next();
  std::string next_string() { return std::to_string(next()); }
  // The increment the next id gets and the millisecond (since the platform's epoch) of the last id; -1 before
  // the first. A state file keeps both: with a frozen clock, ids after a restart share the timestamp of those
  // before it.
  [[nodiscard]] unsigned increment() const noexcept { return increment_; }
  [[nodiscard]] std::int64_t last_ms() const noexcept { return last_ms_; }
  void restore(unsigned increment, std::int64_t last_ms) noexcept {
    increment_ = increment & 0xFFF;
    last_ms_ = last_ms;
  }

 private:
  FakeClock& clock_;
  unsigned worker_;
  unsigned process_;
  unsigned increment_ = 0;
  std::int64_t last_ms_ = -1;
};

}  // namespace platformpp::emulator
