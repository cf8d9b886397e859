#include "core/asio_prelude.hpp"

#include "gateway/gateway_url_cache.hpp"

#include <boost/asio/execution_context.hpp>

#include <utility>

namespace platformpp::gateway {

namespace {

// Asio destroys its services only after every handler and coroutine frame of the context is gone, so no
// Fetch outlives the cache it points to.
class CacheService final : public boost::asio::execution_context::service {
 public:
  static inline boost::asio::execution_context::id id;
  explicit CacheService(boost::asio::execution_context& context)
      : boost::asio::execution_context::service(context) {}
  GatewayUrlCache cache;

 private:
  void shutdown() override {}
};

}  // namespace

GatewayUrlCache& GatewayUrlCache::Of(boost::asio::execution_context& context) {
  return boost::asio::use_service<CacheService>(context).cache;
}

GatewayUrlCache::Lookup GatewayUrlCache::Find(const std::string& apiBase, std::function<void()> wake) {
  Lookup lookup;
  std::lock_guard lock(mutex_);
  Entry& entry = entries_[apiBase];
  if (entry.url) {
    lookup.url = entry.url;
  } else if (!entry.fetching) {
    entry.fetching = true;
    lookup.fetch = Fetch(*this, apiBase);
  } else if (wake) {
    entry.waiters.push_back(std::move(wake));
  }
  return lookup;
}

void GatewayUrlCache::Forget(const std::string& apiBase, const std::string& url) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(apiBase);
  if (it != entries_.end() && it->second.url == url) it->second.url.reset();
}

GatewayUrlCache::Fetch::Fetch(Fetch&& other) noexcept
    : cache_(std::exchange(other.cache_, nullptr)), apiBase_(std::move(other.apiBase_)) {}

GatewayUrlCache::Fetch& GatewayUrlCache::Fetch::operator=(Fetch&& other) noexcept {
  if (this != &other) {
    Release(std::nullopt);
    cache_ = std::exchange(other.cache_, nullptr);
    apiBase_ = std::move(other.apiBase_);
  }
  return *this;
}

GatewayUrlCache::Fetch::~Fetch() {
  Release(std::nullopt);
}

void GatewayUrlCache::Fetch::Store(const std::string& url) {
  Release(url);
}

void GatewayUrlCache::Fetch::Release(const std::optional<std::string>& url) {
  if (!cache_) return;
  std::vector<std::function<void()>> waiters;
  {
    std::lock_guard lock(cache_->mutex_);
    Entry& entry = cache_->entries_[apiBase_];
    entry.fetching = false;
    if (url) entry.url = *url;
    waiters.swap(entry.waiters);
  }
  cache_ = nullptr;
  for (auto& wake : waiters)
    wake();
}

}  // namespace platformpp::gateway
