#include "api/api_session.hpp"

#include "core/game_thread.hpp"
#include "core/io_context_access.hpp"
#include "core/validation_result.hpp"
#include "net/http_result.hpp"

#include <platformpp/io_context.hpp>
#include <platformpp/version.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <string>
#include <string_view>

namespace platformpp::api {

namespace {

net::HttpClientOptions HttpOptions(const ClientOptions& options) {
  net::HttpClientOptions http;
  http.caFile = options.caFile;
  http.useSystemCertificates = options.useSystemCertificates;
  http.userAgent = "platformpp/" PLATFORMPP_VERSION_STRING;
  if (!options.userAgentSuffix.empty()) http.userAgent += " " + options.userAgentSuffix;
  return http;
}

bool IsSessionHeader(std::string_view name) {
  for (std::string_view own : {"Authorization", "Host", "Content-Type", "Content-Length", "User-Agent"}) {
    if (name.size() == own.size() && std::equal(name.begin(), name.end(), own.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        })) {
      return true;
    }
  }
  return false;
}

ClientResult NoToken() {
  return ClientResult::Failure(ErrorType::ClientNotReady, "no token: call UpdateToken first");
}

}  // namespace

ApiSession::ApiSession(ClientOptions options) : runtime_(std::move(options)) {
  net::HttpClientOptions http = HttpOptions(runtime_.Options());
  userAgent_ = http.userAgent;
  http_ = std::make_unique<net::HttpClient>(runtime_.Io(), runtime_.LoggerPtr(), std::move(http));
}

ApiSession::ApiSession(ClientOptions options, std::string authorization, const std::string& secret)
    : ApiSession(std::move(options)) {
  // By value as well as by shape: the token stays out of every log line whatever surrounds it.
  runtime_.Log().Secrets().AddSecret(secret);
  fixedAuthorization_ = std::move(authorization);
}

ApiSession::~ApiSession() {
  BeginShutdown();
  FinishShutdown();
}

std::optional<std::string> ApiSession::Authorization() const {
  if (fixedAuthorization_) return fixedAuthorization_;
  std::optional<core::Credentials> credentials = runtime_.credentials.Get();
  if (!credentials) return std::nullopt;
  return credentials->Header();
}

ClientResult ApiSession::MalformedAnswer(const char* what) {
  return ClientResult::Failure(ErrorType::HTTPError, std::string("malformed response: ") + what);
}

std::optional<ClientResult> ApiSession::Refusal(const ApiRequest& request) const {
  if (request.refusal) return request.refusal;
  if (!request.violations.empty()) return core::ValidationResult(request.violations);
  if (!request.anonymous && !Authorization()) return NoToken();
  return std::nullopt;
}

void ApiSession::Exchange(ApiRequest request,
                          std::function<void(ClientResult refused, net::HttpResponse)> then) {
  if (auto refused = Refusal(request)) return then(std::move(*refused), {});
  net::HttpRequest http;
  if (!request.anonymous) {
    std::optional<std::string> authorization = Authorization();
    if (!authorization) return then(NoToken(), {});  // (the token went in between)
    http.headers.emplace_back("Authorization", std::move(*authorization));
  }
  for (auto& header : request.headers) {
    // The session's own fields are not a route's to replace (a later header of a name wins on the wire).
    if (IsSessionHeader(header.first)) continue;
    http.headers.emplace_back(std::move(header.first), std::move(header.second));
  }
  http.method = std::move(request.method);
  http.url = runtime_.ApiUrl(request.path);
  if (request.body) {
    http.body = std::move(*request.body);
    http.contentType = request.contentType.empty() ? "application/json" : std::move(request.contentType);
  }
  net::HttpClient::Handler handler = [then = std::move(then)](net::HttpResponse response) {
    then({}, std::move(response));
  };
  if (transport_) return transport_(std::move(http), std::move(handler));
  http_->Send(std::move(http), std::move(handler));
}

void ApiSession::Send(ApiRequest request, core::Completion<> done) {
  Exchange(std::move(request),
           [done = Share(std::move(done))](ClientResult refused, const net::HttpResponse& response) {
             (*done)(refused.Successful() ? net::ResultOf(response) : std::move(refused));
           });
}

void ApiSession::SendJson(ApiRequest request, std::function<void(ClientResult, json::Document&)> then) {
  Exchange(std::move(request),
           [then = std::move(then)](ClientResult refused, const net::HttpResponse& response) {
             json::Document document;
             if (!refused.Successful()) return then(std::move(refused), document);
             ClientResult result = net::ParseJsonResponse(response, document);
             then(std::move(result), document);
           });
}

void ApiSession::Perform(std::function<void(ClientResult)> callback, ApiRequest request) {
  if (auto done = Start<>(std::move(callback))) Send(std::move(request), std::move(*done));
}

void ApiSession::SetRequestTimeout(int32_t milliseconds) {
  if (milliseconds < 1) {
    Log().Warning("SetHttpRequestTimeout: " + std::to_string(milliseconds) +
                  " ms refused; the timeout must be at least 1 ms");
    return;
  }
  http_->SetTimeout(std::chrono::milliseconds(milliseconds));
}

void ApiSession::BeginShutdown() noexcept {
  runtime_.Queue().BeginShutdown();
}

void ApiSession::FinishShutdown() noexcept {
  if (finished_) return;
  finished_ = true;
  BeginShutdown();
  http_->Shutdown();
  runtime_.Queue().Shutdown();
  runtime_.ReleaseIo();
}

void ApiSession::RunCallbacks() {
  core::CallbackQueue& pending = runtime_.Queue();
  core::GameThreadClaim claim(pending, Log(), "RunCallbacks");
  if (claim.Refused()) return;
  IoContext* io = runtime_.IoIfAny();
  if (io && io->Pumped() && !pumping_ && !pending.ShuttingDown()) {
    bool skip = justPumped_ && std::chrono::steady_clock::now() - pumpedAt_ < std::chrono::milliseconds(1);
    justPumped_ = false;
    if (!skip) {
      // (Skipped when WaitForCallbacks pumped until a callback was ready right before this call: polling
      // again would only cost a reactor pass, a syscall, for nothing. The next call polls.)
      pumping_ = true;
      core::IoContextAccess::Get(*io).poll();  // network handlers only queue callbacks; none runs here
      pumping_ = false;
    }
  }
  // Nothing to run (most calls, polled every frame): no callback can destroy the owner, so no reference to
  // keep the queue alive, an atomic increment and decrement saved per call.
  if (!pending.HasPending()) return;
  // The queue (and the claim's latch in it) outlives a callback that destroys the owner.
  claim.KeepAlive(runtime_.QueuePtr());
  pending.Drain();
}

bool ApiSession::WaitForCallbacks(std::chrono::milliseconds timeout) {
  core::CallbackQueue& queue = runtime_.Queue();
  const core::GameThreadClaim claim(queue, Log(), "WaitForCallbacks");
  if (claim.Refused()) return false;
  IoContext* context = runtime_.IoIfAny();
  if (!context || !context->Pumped() || pumping_) return queue.Wait(timeout);
  // Threadless: do the network work ourselves until a callback is ready. Like a network thread, poll for
  // the spin time after each piece of work before sleeping in the reactor: the response of a request just
  // sent then needs no wake-up.
  using Clock = std::chrono::steady_clock;
  auto deadline = Clock::now() + timeout;
  auto& io = core::IoContextAccess::Get(*context);
  auto spin = core::IoContextAccess::Spin(*context);
  pumping_ = true;
  bool ready = queue.HasPending();
  bool pumped = false;
  auto lastWork = Clock::now();
  while (!ready) {
    auto now = Clock::now();
    if (now >= deadline) break;
    pumped = true;
    // While spinning, poll; after that (or without spin) run_one_until, which runs what is ready and blocks
    // in the reactor only when nothing is: a poll_one before it would cost a reactor pass of its own.
    if (now - lastWork < spin) {
      if (io.poll_one() > 0) lastWork = now;
    } else if (io.run_one_until(deadline) > 0) {
      lastWork = Clock::now();
    }
    ready = queue.HasPending();
  }
  justPumped_ = pumped && ready;
  if (justPumped_) pumpedAt_ = Clock::now();
  pumping_ = false;
  return ready;
}

}  // namespace platformpp::api
