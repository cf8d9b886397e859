// The Gateway session over the WebSocket that net/websocket_link.hpp opens (Beast stays in its .cpp).
#include "core/asio_prelude.hpp"

#include "gateway/gateway_connection.hpp"

#include <platformpp/io_context.hpp>

#include "core/guarded_call.hpp"
#include "core/io_context_access.hpp"
#include "core/logger.hpp"
#include "core/random.hpp"
#include "gateway/gateway_url_cache.hpp"
#include "gateway/session_policy.hpp"
#include "gateway/zlib_stream.hpp"
#include "net/client_tls.hpp"
#include "net/http_client.hpp"
#include "net/url.hpp"
#include "net/websocket_link.hpp"
#include "net/websocket_session.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <random>
#include <utility>

namespace platformpp::gateway {
namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using boost::system::error_code;
using net::ws::Strand;

constexpr auto kAwait = asio::use_awaitable;

using net::ws::Link;

const char* StepName(NextStep step) {
  switch (step) {
    case NextStep::Resume:
      return "resume";
    case NextStep::Identify:
      return "identify afresh";
    case NextStep::Stop:
      return "stop";
  }
  return "?";
}

}  // namespace

class GatewayConnection::Impl : public std::enable_shared_from_this<Impl> {
 public:
  Impl(asio::io_context& io, std::shared_ptr<core::Logger> logger, net::HttpClient& http,
       GatewayOptions options)
      : logger_(std::move(logger)),
        options_(std::move(options)),
        session_(io, logger_, net::ws::SessionOptions::From("Gateway", options_)),
        strand_(session_.GetStrand()),
        urlCache_(GatewayUrlCache::Of(io)),
        http_(http),
        backoff_(options_.backoffInitial, options_.backoffMaximum, random_),
        urlWaitTimer_(strand_),
        decoder_(options_.maxMessageBytes) {}
  ~Impl() { stopped_.set_value(); }

  std::future<void> StoppedFuture() { return stopped_.get_future(); }

  // Set before Connect; read only on the strand afterwards.
  StatusHandler onStatus_;
  std::atomic<Status>* published_ = nullptr;  // GatewayConnection::CurrentStatus; set at construction
  DispatchSink sink_;
  std::function<void(const ReadyInfo&)> onReady_;

  void Connect() {
    asio::dispatch(strand_, [self = shared_from_this()] {
      if (self->shutdown_) return;
      self->wanted_ = true;
      if (self->running_) return;
      self->Spawn();
    });
  }

  void Disconnect() {
    asio::dispatch(strand_, [self = shared_from_this()] {
      if (self->shutdown_ || !self->running_ || !self->wanted_) return;
      self->wanted_ = false;
      self->SetStatus(Status::Disconnecting);
      self->ForgetSession();
      self->forced_ = NextStep::Stop;
      self->Interrupt();
      if (self->link_) self->link_->Close(kNormalCloseCode);
    });
  }

  void Reidentify() {
    asio::dispatch(strand_, [self = shared_from_this()] {
      if (self->shutdown_ || !self->running_ || !self->wanted_) return;
      self->logger_->Info("Gateway: the token changed; identifying again");
      self->ForgetSession();
      self->next_ = NextStep::Identify;
      self->skipBackoff_ = true;
      if (self->link_) {
        self->forced_ = NextStep::Identify;
        self->link_->Close(kNormalCloseCode);  // ends the old token's session on the server
      } else {
        self->session_.CancelWait();
      }
    });
  }

  void Send(std::string payload, std::function<void(bool)> done) {
    // Posted, never dispatched: from a sink handling READY, it runs once the status is Ready.
    asio::post(strand_, [self = shared_from_this(), payload = std::move(payload), done = std::move(done)] {
      self->SendNow(payload, done);
    });
  }

  void SendLatest(std::function<std::optional<std::string>()> build, std::function<void(bool)> done) {
    asio::post(strand_, [self = shared_from_this(), build = std::move(build), done = std::move(done)] {
      std::optional<std::string> payload;
      if (!self->shutdown_) payload = build();
      if (!payload) {
        if (done) self->Invoke("send", done, false);
        return;
      }
      self->SendNow(*payload, done);
    });
  }

  void Shutdown() {
    asio::dispatch(strand_, [self = shared_from_this()] {
      self->shutdown_ = true;
      self->wanted_ = false;
      self->Interrupt();
      if (self->link_) self->link_->Teardown();
      self->onStatus_ = nullptr;
      self->sink_ = nullptr;
      self->onReady_ = nullptr;
    });
  }

 private:
  void SendNow(const std::string& payload, const std::function<void(bool)>& done) {
    bool sendable = !shutdown_ && status_ == Status::Ready && link_ && !link_->closing &&
                    payload.size() <= kMaxClientPayloadBytes;
    if (!sendable) {
      logger_->Verbose(payload.size() > kMaxClientPayloadBytes
                           ? "Gateway: payload over " + std::to_string(kMaxClientPayloadBytes) +
                                 " bytes dropped"
                           : std::string("Gateway: not ready; payload dropped"));
    } else {
      link_->Send(payload);
    }
    if (done) Invoke("send", done, sendable);
  }

  void Spawn() {
    running_ = true;
    session_.Spawn(
        shared_from_this(), [this] { return Run(); }, [this] { running_ = false; });
  }

  // Cancels whatever the session loop waits for (HTTP, backoff, connect, Hello, heartbeats).
  void Interrupt() {
    session_.Interrupt();
    urlWaitTimer_.cancel();
    heartbeat_.Stop();
  }

  void ForgetSession() {
    sessionId_.clear();
    resumeUrl_.clear();
    seq_.Reset();
  }

  void SetStatus(Status status, Error error = Error::None, int32_t detail = 0) {
    if (status == status_ && error == Error::None) return;
    status_ = status;
    if (shutdown_) return;
    if (published_) published_->store(status, std::memory_order_release);  // before the handler runs
    logger_->Verbose(std::string("Gateway: status ") + ClientStatusToString(status) +
                     (error != Error::None
                          ? " (" + ClientErrorToString(error) + ", " + std::to_string(detail) + ")"
                          : std::string()));
    Invoke("status", onStatus_, status, error, detail);
  }

  // Fetch the URL, connect, serve the connection until it ends, back off, again; until Disconnect, a close
  // that forbids reconnecting, or shutdown.
  asio::awaitable<void> Run() {
    Error stopError = Error::None;
    int32_t stopDetail = 0;
    bool everConnected = false;
    next_ = sessionId_.empty() ? NextStep::Identify : next_;
    while (wanted_ && !shutdown_) {
      if (gatewayUrl_.empty()) {
        int32_t httpStatus = 0;
        std::string failure;
        bool ok = co_await ObtainGatewayUrl(httpStatus, failure);
        if (!wanted_ || shutdown_) break;
        if (!ok) {
          if (httpStatus == 401 || httpStatus == 403) {
            logger_->Error("Gateway: GET /gateway: " + failure + "; not reconnecting");
            stopError = Error::ConnectionFailed;
            stopDetail = httpStatus;
            break;
          }
          // GCC 12 mishandles non-trivial temporaries in co_await expressions: named locals only.
          std::string why = "GET /gateway: " + failure;
          co_await Backoff(why);
          continue;
        }
      }
      std::string token = options_.token ? options_.token() : std::string();
      if (token.empty()) {
        logger_->Error("Gateway: no token (call UpdateToken before Connect)");
        stopError = Error::ConnectionFailed;
        stopDetail = kErrorDetailNoToken;
        break;
      }
      const bool resume = next_ == NextStep::Resume && !sessionId_.empty();
      if (!resume) ForgetSession();
      std::string url =
          GatewayConnectUrl(resume && !resumeUrl_.empty() ? resumeUrl_ : gatewayUrl_, options_.compress);
      SetStatus(everConnected ? Status::Reconnecting : Status::Connecting);
      std::string failure;
      std::shared_ptr<Link> link =
          co_await session_.Open(url, failure, [this] { return shutdown_ || !wanted_; });
      if (!wanted_ || shutdown_) {
        if (link) link->Teardown();
        break;
      }
      if (!link) {
        if (!failure.empty() && failure.find("certificate") != std::string::npos) {
          logger_->Error("Gateway: " + failure);
        }
        everConnected = true;  // later attempts show as Reconnecting
        if (!resume || resumeUrl_.empty()) {
          // The Gateway may have moved: ask GET /gateway again. A URL another Client fetched earlier may
          // just be stale, so that one is asked again at once; one fetched for this attempt backs off.
          urlCache_.Forget(options_.apiBase, gatewayUrl_);
          gatewayUrl_.clear();
          if (std::exchange(urlFromCache_, false)) continue;
        }
        co_await Backoff(failure);
        continue;
      }
      everConnected = true;
      urlFromCache_ = false;  // proven
      link_ = link;
      SetStatus(Status::Connected);
      std::optional<int> closeCode;
      NextStep step = co_await Serve(link, token, resume, closeCode);
      link_.reset();
      if (!wanted_ || shutdown_) break;
      if (step == NextStep::Stop) {
        logger_->Error("Gateway: closed with " + std::to_string(closeCode.value_or(0)) +
                       "; not reconnecting");
        stopError = Error::UnexpectedClose;
        stopDetail = closeCode.value_or(0);
        ForgetSession();
        break;
      }
      next_ = step;
      if (step == NextStep::Identify) ForgetSession();
      if (skipBackoff_) {
        skipBackoff_ = false;
        SetStatus(Status::Reconnecting);
        continue;
      }
      std::string why = "the connection ended (" +
                        (closeCode ? "close " + std::to_string(*closeCode) : std::string("no close code")) +
                        "); will " + StepName(step);
      co_await Backoff(why);
    }
    running_ = false;
    if (shutdown_) co_return;
    if (!wanted_ || stopError != Error::None) {
      wanted_ = false;
      gatewayUrl_.clear();
      SetStatus(Status::Disconnected, stopError, stopDetail);
    }
    if (wanted_) Spawn();  // Connect again while the loop was ending
  }

  asio::awaitable<void> Backoff(const std::string& why) {
    SetStatus(Status::Reconnecting);
    auto delay = backoff_.Next();
    logger_->Warning("Gateway: " + why + "; next attempt in " + std::to_string(delay.count()) + " ms");
    co_await session_.Wait(delay);
  }

  // The URL from the IoContext's cache; or, while another Client fetches it, after that fetch; or fetched
  // here and shared.
  asio::awaitable<bool> ObtainGatewayUrl(int32_t& httpStatus, std::string& failure) {
    while (wanted_ && !shutdown_) {
      GatewayUrlCache::Lookup lookup = urlCache_.Find(options_.apiBase, [weak = weak_from_this()] {
        if (auto self = weak.lock()) asio::post(self->strand_, [self] { self->urlWaitTimer_.cancel(); });
      });
      if (lookup.url) {
        gatewayUrl_ = std::move(*lookup.url);
        urlFromCache_ = true;
        co_return true;
      }
      SetStatus(Status::HttpWait);
      if (lookup.fetch) {
        GatewayUrlCache::Fetch fetch = std::move(lookup.fetch);
        urlFromCache_ = false;
        bool ok = co_await FetchGatewayUrl(httpStatus, failure);
        if (ok) fetch.Store(gatewayUrl_);
        co_return ok;  // a failed fetch lets the next waiting Client try
      }
      // Another Client's fetch is in flight: its end wakes this one (a wake-up left from an earlier wait only
      // makes this ask again).
      urlWaitTimer_.expires_at(SteadyClock::time_point::max());
      error_code ec;
      co_await urlWaitTimer_.async_wait(asio::redirect_error(kAwait, ec));
    }
    co_return false;
  }

  asio::awaitable<bool> FetchGatewayUrl(int32_t& httpStatus, std::string& failure) {
    struct Outcome {
      std::optional<net::HttpResponse> response;
    };
    auto outcome = std::make_shared<Outcome>();
    net::HttpRequest request;
    request.url = options_.apiBase + "/gateway";
    if (options_.token) {
      std::string token = options_.token();
      if (!token.empty()) request.headers.emplace_back("Authorization", std::move(token));
    }
    http_.Send(std::move(request), [weak = weak_from_this(), outcome](net::HttpResponse response) {
      auto self = weak.lock();
      if (!self) return;
      asio::dispatch(self->strand_, [self, outcome, response = std::move(response)]() mutable {
        outcome->response = std::move(response);
        self->session_.CancelWait();
      });
    });
    // The answer is dispatched to the strand, so it cannot arrive between the Send above and this wait.
    if (!outcome->response && wanted_ && !shutdown_) co_await session_.WaitForWakeUp();
    if (!outcome->response) co_return false;
    net::HttpResponse& response = *outcome->response;
    httpStatus = response.status;
    if (!response.transport.Successful()) {
      failure = response.transport.Error();
      co_return false;
    }
    if (!response.Ok()) {
      failure = "HTTP " + std::to_string(response.status);
      co_return false;
    }
    std::optional<std::string> url = ParseGatewayUrl(response.body);
    std::optional<net::Url> parsed = url ? net::ParseUrl(*url) : std::nullopt;
    if (!parsed || (parsed->scheme != "ws" && parsed->scheme != "wss")) {
      failure = "the answer has no ws:// or wss:// url";
      co_return false;
    }
    std::optional<net::Url> api = net::ParseUrl(options_.apiBase);
    if (api && api->Secure() && !parsed->Secure()) {
      failure = "refusing a plain ws:// Gateway behind an https API";
      co_return false;
    }
    gatewayUrl_ = *url;
    logger_->Verbose("Gateway: URL " + gatewayUrl_);
    co_return true;
  }

  // Reads until the connection ends; returns what the next connection does.
  asio::awaitable<NextStep> Serve(std::shared_ptr<Link> link, const std::string& token, bool resume,
                                  std::optional<int>& closeCode) {
    forced_.reset();
    decoder_.Reset();
    token_ = token;
    resuming_ = resume;
    std::string inflated;
    closeCode = co_await session_.Serve(
        shared_from_this(), link,
        [this, &inflated](const std::shared_ptr<Link>& current, std::string_view bytes, bool text) {
          if (text) return HandleText(current, bytes);
          switch (decoder_.Feed(bytes, inflated)) {
            case ZlibStreamDecoder::Result::NeedMore:
              break;
            case ZlibStreamDecoder::Result::Message:
              HandleText(current, inflated);
              break;
            case ZlibStreamDecoder::Result::Failed:
              logger_->Error("Gateway: " + decoder_.Error());
              CloseFor(current, NextStep::Resume);
              break;
          }
        },
        [this](const std::shared_ptr<Link>& current) { CloseFor(current, NextStep::Resume); },
        [this] { return shutdown_; });
    heartbeat_.Stop();
    if (forced_) co_return *forced_;
    NextStep step = DecideOnClose(closeCode);
    logger_->Info("Gateway: closed by the server (" +
                  (closeCode ? "code " + std::to_string(*closeCode) : std::string("no close code")) +
                  "): " + StepName(step));
    co_return step;
  }

  void CloseFor(const std::shared_ptr<Link>& link, NextStep step) {
    if (!forced_) forced_ = step;
    heartbeat_.Stop();
    session_.StopHeartbeats();
    link->Close(kResumableCloseCode);
  }

  void HandleText(const std::shared_ptr<Link>& link, std::string_view text) {
    if (link->closing) return;
    std::string error;
    std::optional<Envelope> envelope = ParseEnvelope(text, &error);
    if (!envelope) {
      logger_->Error("Gateway: malformed payload ignored: " + error);
      return;
    }
    switch (static_cast<Opcode>(envelope->op)) {
      case Opcode::Hello:
        return OnHello(link, envelope->d);
      case Opcode::HeartbeatAck:
        heartbeat_.OnAck();
        return;
      case Opcode::Heartbeat:
        heartbeat_.OnImmediateBeat();
        link->Send(BuildHeartbeat(seq_.Last()));
        return;
      case Opcode::Reconnect:
        logger_->Info("Gateway: the server asked to reconnect (op 7)");
        return CloseFor(link, DecideOnReconnectRequest());
      case Opcode::InvalidSession: {
        bool resumable = ParseInvalidSessionResumable(envelope->d);
        logger_->Warning(std::string("Gateway: invalid session (op 9, ") +
                         (resumable ? "resumable" : "not resumable") + ")");
        NextStep step = DecideOnInvalidSession(resumable);
        if (step == NextStep::Identify) ForgetSession();
        return CloseFor(link, step);
      }
      case Opcode::Dispatch:
        return OnDispatch(*envelope);
      default:
        logger_->Verbose("Gateway: op " + std::to_string(envelope->op) + " ignored");
        return;
    }
  }

  void OnHello(const std::shared_ptr<Link>& link, std::string_view d) {
    std::optional<int64_t> interval = ParseHelloInterval(d);
    if (!interval) {
      logger_->Error("Gateway: Hello without a valid heartbeat_interval");
      return CloseFor(link, NextStep::Resume);
    }
    session_.HelloReceived(link);
    std::uniform_real_distribution<double> jitter(0.0, 1.0);
    heartbeat_.Start(std::chrono::milliseconds(*interval), SteadyClock::now(), jitter(random_));
    session_.StartHeartbeats(shared_from_this(), link, heartbeat_.NextBeat(),
                             [this](const std::shared_ptr<Link>& current) { return Beat(current); });
    std::string error;
    std::optional<std::string> payload;
    if (resuming_) {
      logger_->Info("Gateway: resuming session after seq " +
                    (seq_.Last() ? std::to_string(*seq_.Last()) : std::string("null")));
      payload = BuildResume(token_, sessionId_, seq_.Last(), &error);
    } else {
      IdentifyParams params;
      params.token = token_;
      params.intents = options_.intents;
      params.capabilities = options_.capabilities;
      params.transportCompression = options_.compress;
      payload = BuildIdentify(params, &error);
    }
    if (!payload) {
      logger_->Error("Gateway: cannot " + std::string(resuming_ ? "resume" : "identify") + ": " + error);
      return CloseFor(link, NextStep::Stop);
    }
    link->Send(std::move(*payload));
  }

  // A heartbeat is due: send it (the next one's time), or give up on a zombie connection (nothing).
  std::optional<SteadyClock::time_point> Beat(const std::shared_ptr<Link>& link) {
    if (!heartbeat_.Running() || link_ != link) return std::nullopt;
    if (heartbeat_.OnDue(SteadyClock::now()) == HeartbeatPolicy::Beat::Zombie) {
      logger_->Warning("Gateway: no heartbeat ACK since the last heartbeat (zombie connection); resuming");
      CloseFor(link, NextStep::Resume);
      return std::nullopt;
    }
    link->Send(BuildHeartbeat(seq_.Last()));
    return heartbeat_.NextBeat();
  }

  void OnDispatch(const Envelope& envelope) {
    if (!seq_.Accept(envelope.s)) {
      logger_->Verbose("Gateway: " + envelope.t + " seq " + std::to_string(*envelope.s) +
                       " already delivered; dropped");
      return;
    }
    bool ready = false;
    const Dispatch dispatch(envelope.t, envelope.d, envelope.s.value_or(0));
    if (envelope.t == "READY") {
      std::string error;
      const json::Value* data = dispatch.Data(&error);
      std::optional<ReadyInfo> info = data != nullptr ? ParseReady(*data, &error) : std::nullopt;
      if (data == nullptr) error = "READY's d: " + error;
      if (!info) {
        logger_->Error("Gateway: " + error);
      } else {
        sessionId_ = info->sessionId;
        resumeUrl_ = info->resumeGatewayUrl;
        logger_->Info("Gateway: ready");
        Invoke("ready", onReady_, *info);
        ready = true;
      }
    } else if (envelope.t == "RESUMED") {
      logger_->Info("Gateway: resumed");
      ready = true;
    }
    // The consumers' state first, then the status that announces it.
    Invoke("dispatch", sink_, dispatch);
    if (ready) {
      resuming_ = false;
      next_ = NextStep::Resume;
      backoff_.Reset();
      SetStatus(Status::Ready);
    }
  }

  template <class F, class... Args>
  void Invoke(const char* what, F& f, Args&&... args) {
    core::GuardedCall(*logger_, "Gateway", what, f, std::forward<Args>(args)...);
  }

  std::promise<void> stopped_;
  std::shared_ptr<core::Logger> logger_;
  GatewayOptions options_;
  net::ws::Session
      session_;    // strand, TLS, open, read loop, heartbeat schedule; its wait: backoff, GET /gateway
  Strand strand_;  // the session's
  GatewayUrlCache& urlCache_;
  net::HttpClient& http_;
  core::Random random_ = core::Random::Seeded();
  ReconnectBackoff backoff_;
  asio::steady_timer urlWaitTimer_;  // the wait for another Client's GET /gateway
  ZlibStreamDecoder decoder_;

  bool shutdown_ = false;
  bool wanted_ = false;   // Connect called and not Disconnect since
  bool running_ = false;  // the session loop runs
  bool skipBackoff_ = false;
  Status status_ = Status::Disconnected;
  std::shared_ptr<Link> link_;
  std::string gatewayUrl_;
  bool urlFromCache_ = false;  // gatewayUrl_ came from the IoContext's cache, not from this Client's fetch
  std::string sessionId_;
  std::string resumeUrl_;
  std::string token_;
  bool resuming_ = false;
  NextStep next_ = NextStep::Identify;
  std::optional<NextStep> forced_;  // decided by the SDK when it closed the connection itself
  SequenceTracker seq_;
  HeartbeatPolicy heartbeat_;
};

GatewayConnection::GatewayConnection(IoContext& context, std::shared_ptr<core::Logger> logger,
                                     net::HttpClient& http, GatewayOptions options)
    : context_(context),
      impl_(std::make_shared<Impl>(core::IoContextAccess::Get(context), std::move(logger), http,
                                   std::move(options))),
      stopped_(impl_->StoppedFuture()) {
  impl_->published_ = &status_;
}

GatewayConnection::~GatewayConnection() {
  Shutdown();
}

void GatewayConnection::SetStatusHandler(StatusHandler handler) {
  if (impl_) impl_->onStatus_ = std::move(handler);
}
void GatewayConnection::SetDispatchSink(DispatchSink sink) {
  if (impl_) impl_->sink_ = std::move(sink);
}
void GatewayConnection::SetReadyHandler(std::function<void(const ReadyInfo&)> handler) {
  if (impl_) impl_->onReady_ = std::move(handler);
}

void GatewayConnection::Connect() {
  if (impl_) impl_->Connect();
}
void GatewayConnection::Disconnect() {
  if (impl_) impl_->Disconnect();
}
void GatewayConnection::Reidentify() {
  if (impl_) impl_->Reidentify();
}

void GatewayConnection::Send(std::string payload, std::function<void(bool sent)> done) {
  if (impl_) impl_->Send(std::move(payload), std::move(done));
}

void GatewayConnection::SendLatest(std::function<std::optional<std::string>()> build,
                                   std::function<void(bool sent)> done) {
  if (impl_) impl_->SendLatest(std::move(build), std::move(done));
}

void GatewayConnection::Shutdown() {
  if (!impl_) return;
  impl_->Shutdown();
  impl_.reset();
  core::IoContextAccess::WaitFor(context_, stopped_);
}

}  // namespace platformpp::gateway
