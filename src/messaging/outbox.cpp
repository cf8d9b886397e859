#include "messaging/outbox.hpp"

#include "core/completion.hpp"
#include "net/http_result.hpp"

#include <algorithm>
#include <vector>

namespace platformpp::messaging {

Outbox::Outbox(OutboxPolicy policy, Schedule schedule, Now now, TokenId tokenId)
    : policy_(policy),
      schedule_(std::move(schedule)),
      now_(std::move(now)),
      tokenId_(std::move(tokenId)),
      random_(core::Random::Seeded()) {
  // 18 digits, random per Outbox: two Clients of one player (the platform dedupes per author) do not share
  // nonces; the counter keeps them unique within this one.
  std::uniform_int_distribution<uint64_t> pick(100'000'000'000'000'000ULL, 899'999'999'999'999'999ULL);
  nonceBase_ = pick(random_);
}

std::string Outbox::NewNonce() {
  std::lock_guard lock(mutex_);
  return std::to_string(nonceBase_ + ++nonceCounter_);
}

Outbox::Verdict Outbox::Classify(const net::HttpResponse& response) {
  if (!response.transport.Successful()) {
    // A lost connection or a timeout may or may not have reached the platform: the nonce makes a new attempt
    // safe. Anything else (an invalid request, shutdown) would fail again.
    return response.transport.Type() == ErrorType::NetworkError ? Verdict::Retry : Verdict::Fail;
  }
  if (response.status >= 200 && response.status < 300) return Verdict::Done;
  if (response.status >= 500) return Verdict::Retry;
  return Verdict::Fail;  // 429 not waited out, and every other 4xx
}

void Outbox::Enqueue(Key key, Attempt attempt, Finish finish) {
  bool start = false;
  {
    std::lock_guard lock(mutex_);
    if (!closed_) {
      Channel& channel = channels_[key];
      channel.queue.push_back(Entry{nextSeq_++, std::move(attempt), std::move(finish), std::nullopt, 0});
      start = !channel.busy;
      channel.busy = true;
      finish = nullptr;
    }
  }
  if (finish) return finish(core::DestroyedResult(), nullptr);
  if (start) StartFront(key);
}

void Outbox::StartFront(const Key& key) {
  Attempt attempt;
  uint64_t seq = 0;
  std::chrono::milliseconds timeout{0};
  bool expired = false;
  const std::size_t token = CurrentToken();  // read before the lock: nothing is called with it held
  {
    std::lock_guard lock(mutex_);
    auto it = channels_.find(key);
    if (closed_ || it == channels_.end() || it->second.queue.empty()) return;
    Entry& entry = it->second.queue.front();
    Clock::time_point now = now_();
    if (!entry.first) entry.first = now;
    seq = entry.seq;
    entry.token = token;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*entry.first + policy_.dedupeWindow -
                                                                      policy_.margin - now);
    if (left.count() <= 0) {
      expired = true;
    } else {
      // An attempt (with the HTTP client's own retries, about three) ends well before the window does.
      timeout = std::clamp(left / 4, std::chrono::milliseconds(1), policy_.attemptTimeout);
      attempt = entry.attempt;
    }
  }
  if (expired) {
    return End(key, seq,
               ClientResult::Failure(ErrorType::NetworkError,
                                     "the platform could not be reached before the message's nonce expired"),
               nullptr);
  }
  std::weak_ptr<Outbox> weak = weak_from_this();
  attempt(timeout, [weak, key, seq](const net::HttpResponse& response) {
    if (auto self = weak.lock()) self->OnAnswer(key, seq, response);
  });
}

void Outbox::OnAnswer(const Key& key, uint64_t seq, const net::HttpResponse& response) {
  if (response.transport.Successful() && response.status == 401) {
    // The HTTP client tried more than once (a network error or a 5xx first), or the outbox did.
    bool mayHaveReached = response.attempts > 1;
    {
      std::lock_guard lock(mutex_);
      const Entry* entry = FrontWith(key, seq);
      if (!entry) return;
      mayHaveReached = mayHaveReached || entry->retries > 0;
    }
    if (mayHaveReached) return AwaitToken(key, seq, net::ResultOf(response), Wait::HoldForToken);
  }
  switch (Classify(response)) {
    case Verdict::Done:
      return End(key, seq, {}, &response);
    case Verdict::Fail:
      return End(key, seq, response.transport.Successful() ? net::ResultOf(response) : response.transport,
                 &response);
    case Verdict::Retry:
      break;
  }
  std::chrono::milliseconds delay{0};
  bool expired = false;
  {
    std::lock_guard lock(mutex_);
    Entry* front = FrontWith(key, seq);
    if (!front) return;
    Entry& entry = *front;
    int64_t ceiling = policy_.backoffInitial.count() << std::min(entry.retries, 20);
    ceiling = std::max<int64_t>(std::min<int64_t>(ceiling, policy_.backoffMaximum.count()), 1);
    ++entry.retries;
    std::uniform_int_distribution<int64_t> pick(ceiling / 2, ceiling);
    delay = std::chrono::milliseconds(pick(random_));
    expired = now_() + delay >= *entry.first + policy_.dedupeWindow - policy_.margin;
  }
  if (expired) {
    ClientResult::Details details;
    details.type = ErrorType::NetworkError;
    details.status = response.status;
    details.error = "the platform could not be reached before the message's nonce expired (last: " +
                    (response.transport.Successful() ? "HTTP " + std::to_string(response.status)
                                                     : response.transport.Error()) +
                    ")";
    return End(key, seq, ClientResult(std::move(details)), nullptr);
  }
  std::weak_ptr<Outbox> weak = weak_from_this();
  schedule_(Wait::Retry, delay, [weak, key, seq] {
    auto self = weak.lock();
    if (!self) return;
    {
      std::lock_guard lock(self->mutex_);
      if (!self->FrontWith(key, seq)) return;
    }
    self->StartFront(key);
  });
}

void Outbox::AwaitToken(const Key& key, uint64_t seq, ClientResult refused, Wait why) {
  const std::size_t token = CurrentToken();
  bool changed = false;
  bool expired = false;
  {
    std::lock_guard lock(mutex_);
    Entry* front = FrontWith(key, seq);
    if (!front) return;
    Entry& entry = *front;
    changed = token != 0 && token != entry.token;
    expired = now_() + policy_.tokenPoll >= *entry.first + policy_.dedupeWindow - policy_.margin;
    if (changed) ++entry.retries;
  }
  if (changed) return StartFront(key);
  if (expired) return End(key, seq, std::move(refused), nullptr);
  std::weak_ptr<Outbox> weak = weak_from_this();
  schedule_(why, policy_.tokenPoll, [weak, key, seq, refused = std::move(refused)]() mutable {
    if (auto self = weak.lock()) self->AwaitToken(key, seq, std::move(refused), Wait::TokenPoll);
  });
}

Outbox::Entry* Outbox::FrontWith(const Key& key, uint64_t seq) {
  auto it = channels_.find(key);
  if (closed_ || it == channels_.end() || it->second.queue.empty() || it->second.queue.front().seq != seq)
    return nullptr;
  return &it->second.queue.front();
}

void Outbox::End(const Key& key, uint64_t seq, ClientResult result, const net::HttpResponse* response) {
  Finish finish;
  bool next = false;
  {
    std::lock_guard lock(mutex_);
    auto it = channels_.find(key);
    if (closed_ || it == channels_.end() || it->second.queue.empty() || it->second.queue.front().seq != seq)
      return;
    finish = std::move(it->second.queue.front().finish);
    it->second.queue.pop_front();
    if (it->second.queue.empty()) {
      channels_.erase(it);
    } else {
      next = true;
    }
  }
  if (finish) finish(std::move(result), response);
  if (next) StartFront(key);
}

void Outbox::Shutdown() {
  std::map<Key, Channel> channels;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    channels.swap(channels_);
  }
  for (auto& [key, channel] : channels) {
    for (Entry& entry : channel.queue) {
      if (entry.finish) std::exchange(entry.finish, nullptr)(core::DestroyedResult(), nullptr);
    }
  }
}

std::size_t Outbox::Pending() const {
  std::lock_guard lock(mutex_);
  std::size_t count = 0;
  for (const auto& [key, channel] : channels_)
    count += channel.queue.size();
  return count;
}

}  // namespace platformpp::messaging
