// Fixed-window rate limits per (bucket, identity), plus a global per-identity limit, timed by the fake clock.
// Identity is the Authorization header if any, else the client IP. Routes get a bucket of their own unless a
// configured rule (latest added wins) groups them into a shared one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/route_pattern.hpp"

namespace platformpp::emulator {

struct RateLimitSettings {
  int default_limit = 50;
  std::int64_t default_window_ms = 1000;
  int global_per_second = 50;  // 0 = no global limit
};

struct RateLimitRule {
  RoutePattern route;
  int limit;
  std::int64_t window_ms;
};

struct RateLimitDecision {
  bool allowed = true;
  bool global = false;  // rejected by the global limit
  std::string bucket;   // opaque stable id
  int limit = 0;
  int remaining = 0;
  std::int64_t reset_at_ms = 0;     // epoch ms when the bucket's window ends
  std::int64_t reset_after_ms = 0;  // reset_at_ms - now
  std::int64_t retry_after_ms = 0;  // when rejected: how long until a retry can pass
};

class RateLimiter {
 public:
  explicit RateLimiter(RateLimitSettings defaults = {});

  // Counts the request against its bucket and the global limit unless either is exhausted.
  // `route_key` names the route for its default bucket (e.g. "GET /users/@me"); `path` is relative to the API
  // base.
  RateLimitDecision check(std::string_view method, std::string_view path, std::string_view route_key,
                          std::string_view identity, std::int64_t now_ms);

  struct BucketInfo {
    std::string bucket;
    int limit;
    std::int64_t window_ms;
  };
  [[nodiscard]] BucketInfo bucket_for(std::string_view method, std::string_view path,
                                      std::string_view route_key) const;

  // Replaces a rule with the same route text. Clears current windows so the new limits apply at once.
  void add_rule(RateLimitRule rule);
  void set_global_per_second(int limit);
  void reset_to_defaults();

  [[nodiscard]] const std::vector<RateLimitRule>& rules() const noexcept { return rules_; }
  [[nodiscard]] int global_per_second() const noexcept { return settings_.global_per_second; }

 private:
  struct Window {
    std::int64_t start_ms = 0;
    std::int64_t window_ms = 0;
    int count = 0;
  };
  // Returns the window for `key`, restarting it if it has ended.
  Window& current_window(const std::string& key, std::int64_t window_ms, std::int64_t now_ms);
  void forget_expired(std::int64_t now_ms);

  RateLimitSettings defaults_;
  RateLimitSettings settings_;
  std::vector<RateLimitRule> rules_;
  std::unordered_map<std::string, Window> windows_;
};

// Opaque, stable bucket id: hex of a 64-bit FNV-1a hash.
std::string bucket_id(std::string_view seed);
// Seconds with three decimals, e.g. 1.5 -> "1.500".
std::string format_seconds(std::int64_t ms);

}  // namespace platformpp::emulator
