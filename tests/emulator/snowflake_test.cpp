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

TEST_CASE("snowflakes only increase, also past 4,096 ids in one millisecond") {
  // A frozen clock: every id falls in one millisecond, and the increment wraps after 4,096 of them.
  FakeClock clock([] { return kPlatformEpochMs + 5000; }, true);
  SnowflakeGenerator generator(clock);
  auto previous = generator.next();
  for (int i = 1; i < 3 * 4096 + 10; ++i) {
    const auto id = generator.next();
    REQUIRE(id > previous);
    previous = id;
  }
  // The 4,097th id went one millisecond on; the clock reaching that millisecond does not go back.
  CHECK(decode_snowflake(previous).timestamp_ms == kPlatformEpochMs + 5003);
  clock.advance(1);
  CHECK(generator.next() > previous);
}

TEST_CASE("a wrap between two ids of one millisecond does not order the second first") {
  // What the fault soak's hour found: the increment is the process's, not the millisecond's, so its wrap
  // can fall between two ids of the same millisecond however few ids that millisecond has.
  FakeClock clock([] { return kPlatformEpochMs + 7000; }, true);
  SnowflakeGenerator generator(clock);
  generator.restore(4095, -1);
  const auto last_of_cycle = generator.next();
  const auto first_of_next = generator.next();
  CHECK(decode_snowflake(last_of_cycle).increment == 4095);
  CHECK(decode_snowflake(first_of_next).increment == 0);
  CHECK(first_of_next > last_of_cycle);
  CHECK(generator.last_ms() == 7001);
}

TEST_CASE("a restored generator goes on after its last id") {
  FakeClock clock([] { return kPlatformEpochMs + 9000; }, true);
  SnowflakeGenerator before(clock);
  for (int i = 0; i < 4096 + 3; ++i)
    before.next();
  const auto last = before.next();
  SnowflakeGenerator after(clock);  // a restart, from the state file's clock document
  after.restore(before.increment(), before.last_ms());
  CHECK(after.next() > last);
}

}  // namespace snowflake_test
