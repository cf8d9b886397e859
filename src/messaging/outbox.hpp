#pragma once
// The outbox: every message the game sends reaches the platform exactly once, in order per channel.
//
// Each message gets a nonce when the game sends it. Per channel (a lobby, or a DM recipient) one message is
// in flight at a time, in call order. The request carries the nonce with `enforce_nonce` and is retry-safe
// (the HTTP client retries network errors and 5xx itself); when it still ends in a network error, a timeout
// or a 5xx, the outbox sends it again with the same nonce after a jittered backoff (capped), as long as the
// platform's dedupe window (5 minutes from the first attempt, minus a margin) allows; then the message ends
// with NetworkError. A 429 the HTTP client did not wait out, and any other 4xx, end it with that error. Then
// the channel's next message goes.
//
// Except a 401 after a try that may have reached the platform (a network error, a timeout or a 5xx before it,
// in this attempt or an earlier one): the message may already be on the platform, and the game's usual answer
// to a 401, signing in again and sending anew, would post it twice. The outbox holds it instead, and sends it
// again with the same nonce once the token has changed (the platform then answers with the message it has, or
// creates it); if no new token comes before the window's end, the message ends with the 401.
//
// The outbox knows neither HTTP routes nor timers: the owner gives each message its attempt and the outbox
// a scheduler and a clock, so the policy is tested without sockets. Thread-safe; nothing is called with the
// outbox's mutex held.

#include "core/random.hpp"
#include "net/http_types.hpp"

#include <platformpp/client_result.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <utility>

namespace platformpp::messaging {

struct OutboxPolicy {
  /// The platform keeps a nonce for this long after the first message with it (docs/social-protocol.md).
  std::chrono::milliseconds dedupeWindow = std::chrono::minutes(5);
  /// No attempt is started, or may still be running, later than this before the window closes.
  std::chrono::milliseconds margin = std::chrono::seconds(30);
  std::chrono::milliseconds backoffInitial{100};
  std::chrono::milliseconds backoffMaximum{1500};
  /// The longest one attempt may take (the HTTP client's own retries included); shorter near the window's
  /// end.
  std::chrono::milliseconds attemptTimeout = std::chrono::seconds(30);
  /// While a message waits for a new token (a 401 after a try that may have reached the platform), how often
  /// the token is looked at (no request is made meanwhile).
  std::chrono::milliseconds tokenPoll{250};
};

class Outbox : public std::enable_shared_from_this<Outbox> {
 public:
  using Clock = std::chrono::steady_clock;
  /// A channel: lobby messages and DMs each have their own id space.
  enum class Kind { Lobby, Dm };
  using Key = std::pair<Kind, uint64_t>;
  /// Gets the final response of one attempt exactly once (or is destroyed uncalled when the owner shuts
  /// down).
  using Answer = std::function<void(net::HttpResponse)>;
  /// Starts one attempt of a message; `timeout` bounds it.
  using Attempt = std::function<void(std::chrono::milliseconds timeout, Answer answer)>;
  /// Ends a message exactly once: success with the platform's 2xx response, or the error.
  using Finish = std::function<void(ClientResult result, const net::HttpResponse* response)>;
  /// Why a task is scheduled: a retry after no answer, the start of a hold for a new token, or a later look
  /// at the token while holding (frequent: not worth a log line).
  enum class Wait { Retry, HoldForToken, TokenPoll };
  using Schedule = std::function<void(Wait why, std::chrono::milliseconds delay, std::function<void()> task)>;
  using Now = std::function<Clock::time_point()>;
  /// An identity of the token requests carry now (a hash of it; 0 without one), compared, never shown.
  using TokenId = std::function<std::size_t()>;

  /// `tokenId` may be empty: a held message then waits for the window's end.
  Outbox(OutboxPolicy policy, Schedule schedule, Now now, TokenId tokenId = nullptr);
  Outbox(const Outbox&) = delete;
  Outbox& operator=(const Outbox&) = delete;

  /// A fresh nonce: a decimal number of at most 25 characters, unique per message.
  std::string NewNonce();
  /// Queues a message on `key`; it starts now when nothing of that channel is in flight. After Shutdown,
  /// ends at once with ClientDestroyed.
  void Enqueue(Key key, Attempt attempt, Finish finish);
  /// Ends every queued and in-flight message with ClientDestroyed, exactly once; later answers and
  /// scheduled retries do nothing.
  void Shutdown();

  /// Messages not yet ended (tests).
  std::size_t Pending() const;

  /// How an attempt's final response is handled.
  enum class Verdict { Done, Retry, Fail };
  static Verdict Classify(const net::HttpResponse& response);

 private:
  struct Entry {
    uint64_t seq = 0;
    Attempt attempt;
    Finish finish;
    std::optional<Clock::time_point> first;  // the first attempt's start
    int retries = 0;
    std::size_t token = 0;  // TokenId when the current attempt started
  };
  struct Channel {
    std::deque<Entry> queue;  // front: in flight (or waiting for its retry)
    bool busy = false;
  };

  // The channel's front entry if it is still message `seq` and the outbox is open, else null. Under mutex_.
  Entry* FrontWith(const Key& key, uint64_t seq);
  void StartFront(const Key& key);
  void OnAnswer(const Key& key, uint64_t seq, const net::HttpResponse& response);
  // A 401 after a try that may have reached the platform: sends again once the token changed, ends with
  // `refused` when the window closes first.
  void AwaitToken(const Key& key, uint64_t seq, ClientResult refused, Wait why);
  std::size_t CurrentToken() const { return tokenId_ ? tokenId_() : 0; }
  // Pops the channel's front (seq `seq`) and ends it; then starts the next.
  void End(const Key& key, uint64_t seq, ClientResult result, const net::HttpResponse* response);

  const OutboxPolicy policy_;
  const Schedule schedule_;
  const Now now_;
  const TokenId tokenId_;
  mutable std::mutex mutex_;
  bool closed_ = false;
  uint64_t nextSeq_ = 1;
  uint64_t nonceBase_ = 0;
  uint64_t nonceCounter_ = 0;
  core::Random random_;
  std::map<Key, Channel> channels_;
};

}  // namespace platformpp::messaging
