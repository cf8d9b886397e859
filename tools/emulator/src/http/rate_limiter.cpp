#include "http/rate_limiter.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace platformpp::emulator {

std::string bucket_id(std::string_view seed) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : seed) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
  return buffer;
}

std::string format_seconds(std::int64_t ms) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%s%lld.%03lld", ms < 0 ? "-" : "",
                static_cast<long long>(std::abs(ms) / 1000), static_cast<long long>(std::abs(ms) % 1000));
  return buffer;
}

RateLimiter::RateLimiter(RateLimitSettings defaults) : defaults_(defaults), settings_(defaults) {}

RateLimiter::BucketInfo RateLimiter::bucket_for(std::string_view method, std::string_view path,
                                                std::string_view route_key) const {
  const auto rule = std::find_if(rules_.rbegin(), rules_.rend(), [&](const auto& candidate) {
    return candidate.route.matches(method, path);
  });
  if (rule != rules_.rend()) return {bucket_id("rule " + rule->route.text()), rule->limit, rule->window_ms};
  return {bucket_id(route_key), settings_.default_limit, settings_.default_window_ms};
}

RateLimiter::Window& RateLimiter::current_window(const std::string& key, std::int64_t window_ms,
                                                 std::int64_t now_ms) {
  auto& window = windows_[key];
  if (window.window_ms == 0 || now_ms >= window.start_ms + window.window_ms) {
    window = {now_ms, window_ms, 0};
  }
  return window;
}

void RateLimiter::forget_expired(std::int64_t now_ms) {
  // Bounds memory when many identities come and go.
  if (windows_.size() < 10'000) return;
  std::erase_if(windows_, [now_ms](const auto& entry) {
    return now_ms >= entry.second.start_ms + entry.second.window_ms;
  });
}

RateLimitDecision RateLimiter::check(std::string_view method, std::string_view path,
                                     std::string_view route_key, std::string_view identity,
                                     std::int64_t now_ms) {
  forget_expired(now_ms);
  const auto info = bucket_for(method, path, route_key);
  auto& route_window =
      current_window("b:" + info.bucket + ":" + std::string(identity), info.window_ms, now_ms);

  RateLimitDecision decision;
  decision.bucket = info.bucket;
  decision.limit = info.limit;
  decision.reset_at_ms = route_window.start_ms + route_window.window_ms;
  decision.reset_after_ms = decision.reset_at_ms - now_ms;

  Window* global_window = nullptr;
  if (settings_.global_per_second > 0) {
    global_window = &current_window("g:" + std::string(identity), 1000, now_ms);
    if (global_window->count >= settings_.global_per_second) {
      decision.allowed = false;
      decision.global = true;
      decision.remaining = std::max(0, info.limit - route_window.count);
      decision.retry_after_ms = global_window->start_ms + global_window->window_ms - now_ms;
      return decision;
    }
  }
  if (route_window.count >= info.limit) {
    decision.allowed = false;
    decision.remaining = 0;
    decision.retry_after_ms = decision.reset_after_ms;
    return decision;
  }
  ++route_window.count;
  if (global_window != nullptr) ++global_window->count;
  decision.remaining = info.limit - route_window.count;
  return decision;
}

void RateLimiter::add_rule(RateLimitRule rule) {
  std::erase_if(rules_,
                [&](const RateLimitRule& existing) { return existing.route.text() == rule.route.text(); });
  rules_.push_back(std::move(rule));
  windows_.clear();
}

void RateLimiter::set_global_per_second(int limit) {
  settings_.global_per_second = std::max(0, limit);
  windows_.clear();
}

void RateLimiter::reset_to_defaults() {
  settings_ = defaults_;
  rules_.clear();
  windows_.clear();
}

}  // namespace platformpp::emulator
