#include "http/social_rate_limits.hpp"

namespace platformpp::emulator {

std::int64_t SocialRateLimits::limit_of(SocialLimit category) {
  return category == SocialLimit::channel_link ? 20 : 100;
}

std::optional<double> SocialRateLimits::take(const std::string& app_id, SocialLimit category,
                                             std::int64_t now_ms) {
  if (!enabled_) return std::nullopt;
  auto& uses = uses_[{app_id, category}];
  while (!uses.empty() && uses.front() <= now_ms - kWindowMs)
    uses.pop_front();
  if (static_cast<std::int64_t>(uses.size()) >= limit_of(category))
    return static_cast<double>(uses.front() + kWindowMs - now_ms) / 1000.0;
  uses.push_back(now_ms);
  return std::nullopt;
}

std::int64_t SocialRateLimits::used(const std::string& app_id, SocialLimit category,
                                    std::int64_t now_ms) const {
  auto it = uses_.find({app_id, category});
  if (it == uses_.end()) return 0;
  std::int64_t count = 0;
  for (auto t : it->second)
    if (t > now_ms - kWindowMs) ++count;
  return count;
}

std::vector<std::string> SocialRateLimits::applications() const {
  std::vector<std::string> result;
  for (const auto& [key, uses] : uses_) {
    if (result.empty() || result.back() != key.first) result.push_back(key.first);
  }
  return result;
}

}  // namespace platformpp::emulator
