#include "core/fake_clock.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>

namespace platformpp::emulator {

namespace {

std::atomic<SteadyTimeSource> steady_time_source{nullptr};

}  // namespace

std::int64_t steady_now_ms() {
  if (const auto source = steady_time_source.load(std::memory_order_acquire)) return source();
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void set_steady_time_source(SteadyTimeSource source) {
  steady_time_source.store(source, std::memory_order_release);
}

std::int64_t FakeClock::system_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

FakeClock::FakeClock(RealTimeSource real_time, bool frozen, std::optional<std::int64_t> start_ms)
    : real_time_(std::move(real_time)), frozen_(frozen) {
  const std::int64_t real_now = real_time_();
  last_ms_ = start_ms.value_or(real_now);
  frozen_at_ms_ = last_ms_;
  offset_ms_ = last_ms_ - real_now;
}

void FakeClock::begin_turn() {
  if (turn_depth_++ == 0) turn_real_ms_ = real_time_();
}

void FakeClock::end_turn() noexcept {
  if (turn_depth_ > 0) --turn_depth_;
}

std::int64_t FakeClock::now_ms() {
  const std::int64_t candidate = frozen_ ? frozen_at_ms_ : real_now() + offset_ms_;
  last_ms_ = std::max(last_ms_, candidate);
  return last_ms_;
}

bool FakeClock::advance(std::int64_t delta_ms) {
  if (delta_ms < 0) return false;
  return set(now_ms() + delta_ms);
}

bool FakeClock::set(std::int64_t epoch_ms) {
  const std::int64_t now = now_ms();
  if (epoch_ms < now) return false;
  if (frozen_) {
    frozen_at_ms_ = epoch_ms;
  } else {
    offset_ms_ = epoch_ms - real_now();
  }
  last_ms_ = epoch_ms;
  return true;
}

void FakeClock::set_frozen(bool frozen) {
  if (frozen == frozen_) return;
  const std::int64_t now = now_ms();
  frozen_ = frozen;
  if (frozen_) {
    frozen_at_ms_ = now;
  } else {
    offset_ms_ = now - real_now();
  }
}

void FakeClock::restore(const Saved& saved) noexcept {
  frozen_ = saved.frozen;
  offset_ms_ = saved.offset_ms;
  frozen_at_ms_ = saved.frozen_at_ms;
  last_ms_ = saved.last_ms;
}

namespace {

// Howard Hinnant's civil-date algorithms (public domain), valid for the proleptic Gregorian calendar.
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2 ? 1 : 0;
}

bool is_leap(std::int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned days_in_month(std::int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

// Reads exactly `count` digits at `pos`.
bool read_digits(std::string_view text, std::size_t& pos, std::size_t count, int& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const char c = text[pos + i];
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
    out = out * 10 + (c - '0');
  }
  pos += count;
  return true;
}

bool expect(std::string_view text, std::size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

}  // namespace

std::string format_rfc3339_ms(std::int64_t epoch_ms) {
  std::int64_t days = epoch_ms / 86'400'000;
  std::int64_t rest = epoch_ms % 86'400'000;
  if (rest < 0) {
    rest += 86'400'000;
    --days;
  }
  std::int64_t year = 0;
  unsigned month = 0;
  unsigned day = 0;
  civil_from_days(days, year, month, day);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<long long>(year),
                month, day, static_cast<int>(rest / 3'600'000), static_cast<int>(rest / 60'000 % 60),
                static_cast<int>(rest / 1000 % 60), static_cast<int>(rest % 1000));
  return buffer;
}

std::optional<std::int64_t> parse_rfc3339(std::string_view text) {
  std::size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!read_digits(text, pos, 4, year) || !expect(text, pos, '-') || !read_digits(text, pos, 2, month) ||
      !expect(text, pos, '-') || !read_digits(text, pos, 2, day)) {
    return std::nullopt;
  }
  if (pos >= text.size() || (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' ')) return std::nullopt;
  ++pos;
  if (!read_digits(text, pos, 2, hour) || !expect(text, pos, ':') || !read_digits(text, pos, 2, minute) ||
      !expect(text, pos, ':') || !read_digits(text, pos, 2, second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || static_cast<unsigned>(day) > days_in_month(year, month) ||
      hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  int millis = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) != 0) {
      if (digits < 3) millis = millis * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return std::nullopt;
    for (int i = digits; i < 3; ++i)
      millis *= 10;
  }
  std::int64_t offset_minutes = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int offset_hours = 0, offset_mins = 0;
    if (!read_digits(text, pos, 2, offset_hours) || !expect(text, pos, ':') ||
        !read_digits(text, pos, 2, offset_mins) || offset_hours > 23 || offset_mins > 59) {
      return std::nullopt;
    }
    offset_minutes = std::int64_t{sign} * (offset_hours * 60 + offset_mins);
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  const std::int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const std::int64_t seconds = days * 86400 + std::int64_t{hour} * 3600 + std::int64_t{minute} * 60 +
                               std::min(second, 59) - offset_minutes * 60;
  return seconds * 1000 + millis;
}

}  // namespace platformpp::emulator
