#include "backend/webhook_delivered_ids.hpp"

namespace platformpp::backend {

bool WebhookDeliveredIds::FirstTime(const std::string& id, TimePoint now) {
  std::lock_guard lock(mutex_);
  Forget(now);
  if (auto it = seen_.find(id); it != seen_.end()) return false;
  if (capacity_ == 0) return true;
  while (seen_.size() >= capacity_ && !order_.empty()) {
    const Entry& oldest = order_.front();
    if (auto it = seen_.find(oldest.id); it != seen_.end() && it->second == oldest.at) seen_.erase(it);
    order_.pop_front();
  }
  seen_.emplace(id, now);
  order_.push_back(Entry{now, id});
  return true;
}

std::size_t WebhookDeliveredIds::Size() const {
  std::lock_guard lock(mutex_);
  return seen_.size();
}

void WebhookDeliveredIds::Forget(TimePoint now) {
  while (!order_.empty() && now - order_.front().at > memory_) {
    const Entry& oldest = order_.front();
    if (auto it = seen_.find(oldest.id); it != seen_.end() && it->second == oldest.at) seen_.erase(it);
    order_.pop_front();
  }
}

}  // namespace platformpp::backend
