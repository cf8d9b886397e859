#include <doctest/doctest.h>

#include "core/snowflake.hpp"

namespace snowflake_test {

using namespace platformpp::emulator;

TEST_CASE("snowflakes pack time, worker, process and increment") {
  FakeClock clock([] { return kPlatformEpochMs + 123'456; }, true);
  SnowflakeGenerator generator(clock, 3, 7);
  const auto first = generator.next();
  CHECK((first >> 22) == 123'456);
  const auto parts = decode_snowflake(first);
  CHECK(parts.timestamp_ms == kPlatformEpochMs + 123'456);
  CHECK(parts.worker == 3);
  CHECK(parts.process == 7);
  CHECK(parts.increment == 0);
  CHECK(decode_snowflake(generator.next()).increment == 1);
  CHECK(first == ((123'456ull << 22) | (3ull << 17) | (7ull << 12)));
}

TEST_CASE("snowflake time follows the fake clock and ids are unique") {
  FakeClock clock([] { return kPlatformEpochMs + 1000; }, true);
  SnowflakeGenerator generator(clock);
  const auto before = generator.next();
  clock.advance(3'600'000);
  const auto after = generator.next();
  CHECK(decode_snowflake(after).timestamp_ms - decode_snowflake(before).timestamp_ms == 3'600'000);
  CHECK(generator.next_string() == std::to_string(after + 1));
  for (int i = 0; i < 5000; ++i)
    generator.next();  // the 12-bit increment wraps without touching other fields
  CHECK(decode_snowflake(generator.next()).worker == 1);
}

}  // namespace snowflake_test
