#pragma once
// The Gateway URL that GET {apiBase}/gateway answers, shared by the Clients of one IoContext.
//
// The route needs no token and answers every caller the same URL (openapi-subset.json, get_gateway), so the
// many Clients that bots, load tests and game servers run on one shared IoContext ask once instead of once
// per Client: one HTTP request and one TLS handshake less per Client, and no idle pooled connection left
// behind. Clients that start together wait for the one fetch in flight rather than each sending their own.
// A URL that fails to connect is forgotten (the platform moves its Gateway), and the next Client to need it
// fetches it again. Scoped to the IoContext (an Asio service) rather than the process, so that unrelated
// Clients, tests among them, never see each other's answers.
//
// Thread-safe: an IoContext may run several threads. Wake-ups run outside the lock, on the thread of the
// Client that ended the fetch; they must only post.

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace boost::asio {
class execution_context;
}

namespace platformpp::gateway {

class GatewayUrlCache {
 public:
  /// The cache of `context`'s Clients, made on first use and destroyed with the context.
  static GatewayUrlCache& Of(boost::asio::execution_context& context);

  /// The right to fetch the URL of one API base, held by the one Client that fetches it. Ending without
  /// Store (a failed fetch, a Disconnect, a destroyed Client) lets the waiting Clients try themselves.
  class Fetch {
   public:
    Fetch() = default;
    Fetch(Fetch&& other) noexcept;
    Fetch& operator=(Fetch&& other) noexcept;
    Fetch(const Fetch&) = delete;
    Fetch& operator=(const Fetch&) = delete;
    ~Fetch();  ///< gives up unless stored

    /// The fetch succeeded: every Client of this API base uses `url` from now on.
    void Store(const std::string& url);
    explicit operator bool() const { return cache_ != nullptr; }

   private:
    friend class GatewayUrlCache;
    Fetch(GatewayUrlCache& cache, std::string apiBase) : cache_(&cache), apiBase_(std::move(apiBase)) {}
    void Release(const std::optional<std::string>& url);
    GatewayUrlCache* cache_ = nullptr;
    std::string apiBase_;
  };

  /// What a Client does next about `apiBase`: use `url`, fetch it itself (`fetch` is set), or wait for the
  /// fetch in flight: `wake` is then kept and called once when that fetch ends, after which the Client asks
  /// again. `wake` is dropped uncalled when `url` or `fetch` is returned.
  struct Lookup {
    std::optional<std::string> url;
    Fetch fetch;
  };
  Lookup Find(const std::string& apiBase, std::function<void()> wake);

  /// `url` of `apiBase` did not connect: forget it, unless a newer one replaced it already.
  void Forget(const std::string& apiBase, const std::string& url);

 private:
  struct Entry {
    std::optional<std::string> url;
    bool fetching = false;
    std::vector<std::function<void()>> waiters;
  };
  std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace platformpp::gateway
