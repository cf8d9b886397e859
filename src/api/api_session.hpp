#pragma once
// The API session: what every caller of the platform's HTTP API stands on, the game's Client and the game
// server's BackendClient alike. It owns the runtime (options, callback queue, logs, network thread, clock,
// the token) and the HTTP client (connection pool, rate limits, timeouts), presents the right token on every
// request, and turns each answer into the operation's one completion. A route is then one line:
//
//   api.Perform<Lobby>(std::move(callback), GetLobbyRequest(lobbyId), "not a lobby", DecodeLobby);
//
// The Client's features and the backend build their ApiRequests (route, body, the rules they broke); this
// layer sends them. It knows no feature.

#include "api/api_request.hpp"
#include "core/completion.hpp"
#include "core/runtime.hpp"
#include "json/json.hpp"
#include "net/http_client.hpp"
#include "net/http_types.hpp"

#include <platformpp/client_options.hpp>
#include <platformpp/client_result.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace platformpp::api {

class ApiSession {
 public:
  /// Where requests go: the HTTP client, or a test's stand-in (SetTransportForTesting). The handler is
  /// called once, on any thread, or destroyed uncalled when the session shuts down first.
  using Transport = std::function<void(net::HttpRequest, net::HttpClient::Handler)>;

  /// A session that presents the token of Runtime().credentials (the Client's UpdateToken).
  explicit ApiSession(ClientOptions options);
  /// A session that presents `authorization` verbatim on every request ("Bot <token>"); `secret` (the token)
  /// is removed from every log line from the first on.
  ApiSession(ClientOptions options, std::string authorization, const std::string& secret);
  ~ApiSession();
  ApiSession(const ApiSession&) = delete;
  ApiSession& operator=(const ApiSession&) = delete;

  core::Runtime& Runtime() noexcept { return runtime_; }
  const core::Runtime& Runtime() const noexcept { return runtime_; }
  net::HttpClient& Http() noexcept { return *http_; }
  /// The User-Agent every request (and the Gateway's handshake) presents.
  const std::string& UserAgent() const noexcept { return userAgent_; }
  /// Every request's timeout from now on; under 1 ms is refused with a warning (the timeout stays).
  void SetRequestTimeout(int32_t milliseconds);
  core::Logger& Log() noexcept { return runtime_.Log(); }
  bool Destroying() const noexcept { return runtime_.Destroying(); }

  /// The completion of an operation for `callback`; empty while the owner is being destroyed (dropping the
  /// completion has then reported ClientDestroyed).
  template <class... Args>
  std::optional<core::Completion<Args...>> Start(typename core::Completion<Args...>::Callback callback) {
    return runtime_.Start<Args...>(std::move(callback));
  }

  /// The Authorization header value of the next request; empty without a token.
  std::optional<std::string> Authorization() const;

  /// Why `request` would not be sent, checked in this order: its refusal, the rules it broke (one
  /// ValidationError listing them all), no token (ClientNotReady). Empty when it would be.
  std::optional<ClientResult> Refusal(const ApiRequest& request) const;

  /// The raw exchange: sends `request` (ApiRequest::refusal, violations and a missing token end it before
  /// anything is sent, as ClientResult) and hands the answer to `then` on the network thread.
  void Exchange(ApiRequest request, std::function<void(ClientResult refused, net::HttpResponse)> then);

  /// Sends `request`; `done` gets success for a 2xx, the refusal or the platform's error otherwise.
  void Send(ApiRequest request, core::Completion<> done);

  /// Sends `request` and decodes its JSON answer with `decode` (a callable taking `const json::Value&`
  /// and returning std::optional<T>). An answer that is not JSON, or that `decode` refuses, ends as
  /// HTTPError "malformed response: <what>".
  template <class T, class Decode>
  void Send(ApiRequest request, const char* what, Decode decode, core::Completion<T> done) {
    std::function<void(ClientResult, json::Document&)> then =
        [what, decode = std::move(decode), done = Share(std::move(done))](ClientResult result,
                                                                          json::Document& document) {
          if (!result.Successful()) return (*done)(std::move(result), T{});
          std::optional<T> value = decode(static_cast<const json::Value&>(document));
          if (!value) return (*done)(MalformedAnswer(what), T{});
          (*done)({}, std::move(*value));
        };
    SendJson(std::move(request), std::move(then));
  }

  /// For answers that need more than a decoder: `then` gets the result and the parsed document (empty on
  /// failure) on the network thread.
  void SendJson(ApiRequest request, std::function<void(ClientResult, json::Document&)> then);

  /// A whole operation: starts it for `callback`, then Send. The one line a route takes.
  void Perform(std::function<void(ClientResult)> callback, ApiRequest request);
  template <class T, class Decode>
  void Perform(std::function<void(ClientResult, T)> callback, ApiRequest request, const char* what,
               Decode decode) {
    if (auto done = Start<T>(std::move(callback)))
      Send<T>(std::move(request), what, std::move(decode), std::move(*done));
  }

  /// Runs the queued callbacks (and, on a threadless IoContext, the network work first); see
  /// Client::RunCallbacks.
  void RunCallbacks();
  /// See Client::WaitForCallbacks.
  bool WaitForCallbacks(std::chrono::milliseconds timeout);

  /// The first step of destruction: operations that end from now on report ClientDestroyed, and
  /// RunCallbacks delivers nothing more. The owner then stops what else holds completions.
  void BeginShutdown() noexcept;
  /// The last steps: stops the HTTP client (unfinished requests end with ClientDestroyed), completes what is
  /// queued on this thread, and joins the network thread (or lets go of a shared one). Idempotent.
  void FinishShutdown() noexcept;

  /// Tests: requests go to `transport` instead of the HTTP client. Set it before the first request.
  void SetTransportForTesting(Transport transport) { transport_ = std::move(transport); }

  /// The result of an answer `decode` refused.
  static ClientResult MalformedAnswer(const char* what);

 private:
  template <class C>
  static std::shared_ptr<C> Share(C completion) {
    return std::make_shared<C>(std::move(completion));
  }

  core::Runtime runtime_;
  std::string userAgent_;
  std::unique_ptr<net::HttpClient> http_;
  std::optional<std::string> fixedAuthorization_;
  Transport transport_;
  bool pumping_ = false;  // inside a pump of a threadless IoContext (nested RunCallbacks do not pump again)
  bool justPumped_ =
      false;  // WaitForCallbacks pumped until a callback was ready, at pumpedAt_ (owner thread)
  std::chrono::steady_clock::time_point pumpedAt_;
  bool finished_ = false;
};

}  // namespace platformpp::api
