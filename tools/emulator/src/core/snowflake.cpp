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
  const auto since_epoch =
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, clock_.now_ms() - kPlatformEpochMs));
  const std::uint64_t increment = increment_;
  increment_ = (increment_ + 1) & 0xFFF;
  return (since_epoch << 22) | (static_cast<std::uint64_t>(worker_) << 17) |
         (static_cast<std::uint64_t>(process_) << 12) | increment;
}

}  // namespace platformpp::emulator
