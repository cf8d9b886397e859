#include <doctest/doctest.h>

#include "core/fake_clock.hpp"

namespace fake_clock_test {

using namespace platformpp::emulator;

namespace {
struct ManualRealTime {
  std::int64_t now = 1'800'000'000'000;
  FakeClock::RealTimeSource source() {
    return [this] { return now; };
  }
};
}  // namespace

TEST_CASE("a flowing clock follows real time plus its offset") {
  ManualRealTime real;
  FakeClock clock(real.source());
  CHECK(clock.now_ms() == real.now);
  real.now += 250;
  CHECK(clock.now_ms() == real.now);
  REQUIRE(clock.advance(1000));
  CHECK(clock.now_ms() == real.now + 1000);
  real.now += 5;
  CHECK(clock.now_ms() == real.now + 1000);
}

TEST_CASE("a frozen clock moves only by advance and set") {
  ManualRealTime real;
  FakeClock clock(real.source(), true);
  CHECK(clock.frozen());
  const auto start = clock.now_ms();
  real.now += 10'000;
  CHECK(clock.now_ms() == start);
  REQUIRE(clock.advance(3'600'000));
  CHECK(clock.now_ms() == start + 3'600'000);
  REQUIRE(clock.set(start + 7'200'000));
  CHECK(clock.now_ms() == start + 7'200'000);
}

TEST_CASE("freezing and unfreezing keep the current time") {
  ManualRealTime real;
  FakeClock clock(real.source());
  clock.advance(500);
  const auto before = clock.now_ms();
  clock.set_frozen(true);
  real.now += 1000;
  CHECK(clock.now_ms() == before);
  clock.set_frozen(false);
  CHECK(clock.now_ms() == before);
  real.now += 20;
  CHECK(clock.now_ms() == before + 20);
}

TEST_CASE("the clock never moves backwards") {
  ManualRealTime real;
  FakeClock clock(real.source());
  const auto now = clock.now_ms();
  CHECK_FALSE(clock.advance(-1));
  CHECK_FALSE(clock.set(now - 1));
  CHECK(clock.now_ms() == now);
  CHECK(clock.set(now));  // equal is not backwards
  CHECK(clock.advance(0));
  real.now -= 60'000;  // the host clock steps back
  CHECK(clock.now_ms() == now);
}

TEST_CASE("RFC 3339 formatting and parsing") {
  CHECK(format_rfc3339_ms(0) == "1970-01-01T00:00:00.000Z");
  CHECK(format_rfc3339_ms(1420070400000) == "2015-01-01T00:00:00.000Z");
  const auto parsed = parse_rfc3339("2026-11-22T10:00:00.123Z");
  REQUIRE(parsed);
  CHECK(format_rfc3339_ms(*parsed) == "2026-11-22T10:00:00.123Z");
  CHECK(parse_rfc3339("2024-02-29T23:59:59Z") == parse_rfc3339("2024-03-01T00:59:59+01:00"));
  CHECK(parse_rfc3339("2026-11-22T10:00:00.5Z").value() % 1000 == 500);
  CHECK_FALSE(parse_rfc3339("2026-11-22 10:00"));
  CHECK_FALSE(parse_rfc3339("2023-02-29T00:00:00Z"));
  CHECK_FALSE(parse_rfc3339("2026-13-01T00:00:00Z"));
  CHECK_FALSE(parse_rfc3339("2026-11-22T10:00:00"));
  CHECK_FALSE(parse_rfc3339("2026-11-22T10:00:00Zjunk"));
  CHECK_FALSE(parse_rfc3339(""));
}

TEST_CASE("a clock can start before or after now, then flows or stays frozen from there") {
  ManualRealTime real;
  const std::int64_t earlier = real.now - 86'400'000;
  FakeClock flowing(real.source(), false, earlier);
  CHECK(flowing.now_ms() == earlier);
  real.now += 100;
  CHECK(flowing.now_ms() == earlier + 100);
  CHECK_FALSE(flowing.set(earlier));  // still never backwards
  REQUIRE(flowing.set(real.now));     // and can catch up with real time
  CHECK(flowing.now_ms() == real.now);

  FakeClock frozen(real.source(), true, real.now + 5000);
  real.now += 1000;
  CHECK(frozen.now_ms() == real.now - 1000 + 5000);
}

}  // namespace fake_clock_test
