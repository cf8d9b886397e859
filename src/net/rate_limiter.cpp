#include "net/rate_limiter.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace platformpp::net {
namespace {

bool IsId(std::string_view segment) {
  return !segment.empty() &&
         std::all_of(segment.begin(), segment.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

bool IsMajor(std::string_view previous) {
  return previous == "channels" || previous == "guilds" || previous == "webhooks";
}

std::chrono::nanoseconds Seconds(double seconds) {
  if (!(seconds > 0)) return std::chrono::nanoseconds(0);
  // A lying server must not park a request for years.
  seconds = std::min(seconds, 24.0 * 3600.0);
  return std::chrono::nanoseconds(static_cast<int64_t>(std::ceil(seconds * 1e9)));
}

}  // namespace

std::string RateLimiter::RouteKey(std::string_view method, std::string_view path) {
  std::string key(method);
  key.push_back(' ');
  std::string_view previous;
  std::string_view beforePrevious;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t slash = path.find('/', i + 1);
    std::string_view segment =
        path.substr(i + 1, slash == std::string_view::npos ? std::string_view::npos : slash - i - 1);
    key.push_back('/');
    if (IsId(segment) && !IsMajor(previous)) {
      key += "{id}";
    } else if ((beforePrevious == "webhooks" || beforePrevious == "interactions") && IsId(previous)) {
      key += "{token}";  // webhook and interaction tokens are credentials: keep them out of keys (and logs)
    } else {
      key.append(segment);
    }
    beforePrevious = previous;
    previous = segment;
    if (slash == std::string_view::npos) break;
    i = slash;
  }
  return key;
}

const std::string& RateLimiter::BucketKey(const std::string& routeKey) const {
  auto it = routeBuckets_.find(routeKey);
  return it == routeBuckets_.end() ? routeKey : it->second.key;
}

std::optional<RateLimiter::TimePoint> RateLimiter::TryAcquire(const std::string& routeKey, TimePoint now) {
  if (now < globalUntil_) return globalUntil_;
  auto it = buckets_.find(BucketKey(routeKey));
  if (it == buckets_.end()) return std::nullopt;
  Bucket& bucket = it->second;
  if (now >= bucket.resetAt && bucket.remaining < bucket.limit) {
    // The window has passed: the server has refilled the bucket.
    bucket.remaining = bucket.limit;
  }
  if (bucket.remaining > 0) {
    --bucket.remaining;
    return std::nullopt;
  }
  return bucket.resetAt;
}

void RateLimiter::Update(const std::string& routeKey, const RateLimitHeaders& headers, TimePoint now) {
  if (!headers.bucket.empty()) {
    NamedBucket& named = routeBuckets_[routeKey];
    if (named.bucket != headers.bucket) {  // most responses repeat it: build the key once
      named.bucket = headers.bucket;
      // Major parameters are the digits kept in the route key.
      std::string majors;
      for (char c : routeKey) {
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '/') majors.push_back(c);
      }
      named.key = headers.bucket + ":" + majors;
    }
  }
  if (!headers.remaining || !headers.resetAfter) return;
  Bucket& bucket = buckets_[BucketKey(routeKey)];
  bucket.limit = std::max(headers.limit.value_or(*headers.remaining), 1);
  bucket.remaining = std::max(*headers.remaining, 0);
  bucket.resetAt = now + Seconds(*headers.resetAfter);
}

void RateLimiter::OnTooManyRequests(const std::string& routeKey, bool global, double retryAfter,
                                    TimePoint now) {
  TimePoint until = now + Seconds(retryAfter);
  if (global) {
    globalUntil_ = std::max(globalUntil_, until);
    return;
  }
  Bucket& bucket = buckets_[BucketKey(routeKey)];
  bucket.remaining = 0;
  bucket.resetAt = std::max(bucket.resetAt, until);
}

}  // namespace platformpp::net
