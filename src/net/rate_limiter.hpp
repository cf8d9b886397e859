#pragma once
// The client side of the platform's rate limits. Routes map to buckets the server names in
// X-RateLimit-Bucket; a bucket with nothing Remaining holds its next request until Reset-After has passed,
// and a 429 pauses its route (or every route, when global) for retry_after. Pure logic with the time passed
// in: the HTTP client waits, this only says until when.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace platformpp::net {

/// What one response said about rate limits. Absent headers stay empty.
struct RateLimitHeaders {
  std::optional<int> limit;
  std::optional<int> remaining;
  std::optional<double> resetAfter;  ///< seconds
  std::string bucket;
  bool global = false;
  std::string scope;                 ///< user | global | shared
  std::optional<double> retryAfter;  ///< seconds, from the Retry-After header
};

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  using TimePoint = Clock::time_point;

  /// "GET /channels/123/messages/{id}": the method and path with minor ids folded, so that requests which
  /// share a server-side bucket share a key. Major parameters (channel, guild, webhook ids) are kept: buckets
  /// are per major parameter.
  static std::string RouteKey(std::string_view method, std::string_view path);

  /// Takes a slot for one request on `routeKey`. Returns nullopt when it may be sent now (the slot is then
  /// taken), or the time to wait for before asking again.
  std::optional<TimePoint> TryAcquire(const std::string& routeKey, TimePoint now);

  /// Records the rate-limit headers of a response on `routeKey`.
  void Update(const std::string& routeKey, const RateLimitHeaders& headers, TimePoint now);

  /// Records a 429: the route (or, when global, every route) waits `retryAfter` seconds.
  void OnTooManyRequests(const std::string& routeKey, bool global, double retryAfter, TimePoint now);

 private:
  struct Bucket {
    int limit = 1;
    int remaining = 1;
    TimePoint resetAt{};
  };
  // "<bucket id>:<major parameters>" for routes the server has named a bucket for, else the route key itself.
  const std::string& BucketKey(const std::string& routeKey) const;

  struct NamedBucket {
    std::string bucket;  // as the server named it
    std::string key;     // "<bucket>:<major parameters>"
  };
  std::unordered_map<std::string, NamedBucket> routeBuckets_;
  std::unordered_map<std::string, Bucket> buckets_;
  TimePoint globalUntil_{};
};

}  // namespace platformpp::net
