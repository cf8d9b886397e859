#include "core/snowflake.hpp"

#include <algorithm>

namespace platformpp::emulator {

SnowflakeParts decode_snowflake(std::uint64_t id) {
  return {static_cast<std::int64_t>(id >> 22) + kPlatformEpochMs, static_cast<unsigned>((id >> 17) & 0x1F),
          static_cast<unsigned>((id >> 12) & 0x1F), static_cast<unsigned>(id & 0xFFF)};
}

SnowflakeGenerator::SnowflakeGenerator(FakeClock& clock, unsigned worker, unsigned process)
    : clock_(clock), worker_(worker & 0x1F), process_(process & 0x1F) {}

std::uint64_t SnowflakeGenerator::next() {
  const auto now = std::max<std::int64_t>(0, clock_.now_ms() - kPlatformEpochMs);
  if (now > last_ms_)
    last_ms_ = now;
  else if (increment_ == 0 && last_ms_ >= 0)
    ++last_ms_;  // wrapped within the millisecond (or the clock is behind the last id's): the next one
  const std::uint64_t increment = increment_;
  increment_ = (increment_ + 1) & 0xFFF;
  return (static_cast<std::uint64_t>(last_ms_) << 22) | (static_cast<std::uint64_t>(worker_) << 17) |
         (static_cast<std::uint64_t>(process_) << 12) | increment;
}

}  // namespace platformpp::emulator
