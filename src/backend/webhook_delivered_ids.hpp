#pragma once
// The ids of the webhook events WebhookEvents has delivered, so that the platform's retries of one event
// (same type, timestamp and data, fresh signature) are answered without a second delivery. Bounded in time
// and in count: a retry comes within minutes, and a flood of distinct events must not grow memory.

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace platformpp::backend {

class WebhookDeliveredIds {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  WebhookDeliveredIds(std::chrono::seconds memory, std::size_t capacity)
      : memory_(memory), capacity_(capacity) {}

  /// True when `id` was not delivered within the memory window: it is then remembered as delivered at `now`.
  /// False for a repeat. Thread-safe.
  bool FirstTime(const std::string& id, TimePoint now);
  std::size_t Size() const;

 private:
  void Forget(TimePoint now);  // mutex_ held

  struct Entry {
    TimePoint at;
    std::string id;
  };
  const std::chrono::seconds memory_;
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, TimePoint> seen_;
  std::deque<Entry> order_;  // oldest first
};

}  // namespace platformpp::backend
