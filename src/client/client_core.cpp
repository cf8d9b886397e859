#include "client/client_core.hpp"

#include "auth/authorize_requests.hpp"
#include "auth/authorizer.hpp"
#include "core/io_context_access.hpp"
#include "lobby/lobby_store.hpp"
#include "messaging/message_service.hpp"
#include "premium/premium_service.hpp"
#include "presence/presence_service.hpp"
#include "social/social_store.hpp"
#include "voice/voice_manager.hpp"

#include <platformpp/io_context.hpp>
#include <platformpp/version.hpp>

namespace platformpp::client {

namespace {

net::HttpClientOptions HttpOptions(const ClientOptions& options) {
  net::HttpClientOptions http;
  http.caFile = options.caFile;
  http.useSystemCertificates = options.useSystemCertificates;
  http.userAgent = "platformpp/" PLATFORMPP_VERSION_STRING;
  if (!options.userAgentSuffix.empty()) http.userAgent += " " + options.userAgentSuffix;
  return http;
}

}  // namespace

ClientCore::ClientCore(ClientOptions options) : runtime_(std::move(options)) {
  const ClientOptions& o = runtime_.Options();
  net::HttpClientOptions http = HttpOptions(o);
  const std::string userAgent = http.userAgent;
  http_ = std::make_unique<net::HttpClient>(runtime_.Io(), runtime_.LoggerPtr(), std::move(http));
  ipc_ = std::make_unique<ipc::IpcLink>(runtime_.Io(), runtime_.LoggerPtr(),
                                        ipc::IpcLinkOptions{o.ipcEnabled, o.ipcName, o.ipcDirectory});

  gateway::GatewayOptions gatewayOptions;
  gatewayOptions.apiBase = o.apiBase;
  gatewayOptions.caFile = o.caFile;
  gatewayOptions.useSystemCertificates = o.useSystemCertificates;
  gatewayOptions.userAgent = userAgent;
  gatewayOptions.capabilities = o.channelObfuscationOptIn ? gateway::kCapabilityChannelObfuscation : 0;
  gatewayOptions.token = [this] {
    std::optional<core::Credentials> current = runtime_.credentials.Get();
    return current ? current->Header() : std::string();
  };
  gateway_ = std::make_unique<gateway::GatewayConnection>(runtime_.Io(), runtime_.LoggerPtr(), *http_,
                                                          std::move(gatewayOptions));

  // The features, each given what it uses: lower ones first, so that each collaborator exists.
  authorizer_ = std::make_unique<auth::Authorizer>(runtime_, *ipc_);
  authorizeRequests_ = std::make_unique<auth::AuthorizeRequests>(runtime_, *ipc_);
  social_ = std::make_unique<social::SocialStore>(runtime_, *gateway_);
  presence_ = std::make_unique<presence::PresenceService>(runtime_, *http_, *gateway_, *ipc_, *social_);
  lobbies_ = std::make_unique<lobby::LobbyStore>(runtime_, *social_);
  messages_ = std::make_unique<messaging::MessageService>(runtime_, *http_, *social_, *lobbies_);
  voice_ = std::make_unique<voice::VoiceManager>(runtime_, *gateway_, *social_, *lobbies_);
  premium_ = std::make_unique<premium::PremiumService>(runtime_, *http_, *ipc_);

  // The dispatch table. Every dispatch reaches these features in this order; each updates its state, then
  // queues its callbacks. The order is a contract:
  dispatchTable_ = {
      // Users and relationships first: every other feature names users by what this store knows.
      {"social", [this](const gateway::Dispatch& d) { social_->OnDispatch(d); }},
      {"presence", [this](const gateway::Dispatch& d) { presence_->OnDispatch(d); }},
      // Lobbies before messages: a message's lobby (and its member's additional name) is known when it
      // arrives.
      {"lobbies", [this](const gateway::Dispatch& d) { lobbies_->OnDispatch(d); }},
      {"messages", [this](const gateway::Dispatch& d) { messages_->OnDispatch(d); }},
      // Voice after lobbies: a call's participants change once the lobby shows them, and a call that starts
      // from the store's voice states gets every dispatch the store applied after that snapshot.
      {"voice", [this](const gateway::Dispatch& d) { voice_->OnDispatch(d); }},
      // Premium last: it names no other feature's state, and its READY starts a load over HTTP.
      {"premium", [this](const gateway::Dispatch& d) { premium_->OnDispatch(d); }},
  };

  // The handlers run on the network thread and end before the gateway's (or the link's) Shutdown returns,
  // which is before the features they call are destroyed (Destroy).
  gateway_->SetStatusHandler([this](Client::Status status, Client::Error error, int32_t detail) {
    OnGatewayStatus(status, error, detail);
  });
  gateway_->SetReadyHandler([this](const gateway::ReadyInfo& ready) {
    std::lock_guard lock(readyMutex_);
    readyUserJson_ = ready.userJson;
  });
  gateway_->SetDispatchSink([this](const gateway::Dispatch& dispatch) {
    for (const DispatchRoute& route : dispatchTable_)
      route.sink(dispatch);
  });
  ipc_->SetHandlers(
      [this](const ipc::IpcReady&) {
        authorizeRequests_->OnIpcReady();
        presence_->OnIpcReady();
      },
      [this](const ipc::IpcMessage& message) {
        authorizeRequests_->OnIpcEvent(message);
        presence_->OnIpcEvent(message);
      });
}

ClientCore::~ClientCore() {
  Destroy();
}

void ClientCore::Destroy() noexcept {
  if (destroyed_) return;
  destroyed_ = true;
  core::CallbackQueue& queue = runtime_.Queue();
  // 1. Operations that end from now on report ClientDestroyed, and RunCallbacks delivers nothing more.
  queue.BeginShutdown();
  // 2. Stop the network side and wait until it holds nothing of ours: every in-flight operation's Completion
  //    is then either queued or dropped (which queues ClientDestroyed).
  ipc_->Shutdown();
  messages_->Shutdown();  // its queued sends end before the HTTP client stops
  voice_->Shutdown();     // the calls' voice gateways and the voice thread, while the network thread runs
  gateway_->Shutdown();   // before the HTTP client, whose GET /gateway it may be waiting for
  authorizer_->Shutdown();
  http_->Shutdown();
  // 3. Complete everything queued with ClientDestroyed, here on the destroying thread.
  queue.Shutdown();
  // 4. Join our network thread (or let go of the shared context).
  runtime_.ReleaseIo();
}

namespace {
constexpr auto kExpiryWarning = std::chrono::minutes(5);
int64_t EpochMs(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}
}  // namespace

void ClientCore::SetToken(AuthorizationTokenType type, std::string token) {
  std::optional<core::Credentials> previous = runtime_.credentials.Get();
  core::Credentials credentials = runtime_.credentials.Set(type, std::move(token));
  // A connected session identifies again with the new token (a no-op while not connected).
  if (previous && (previous->token != credentials.token || previous->type != credentials.type) &&
      !Destroying()) {
    gateway_->Reidentify();
  }
  // A new token gets its own warning, once.
  expiryWarnAtMs_.store(
      credentials.expiresAt ? std::max<int64_t>(EpochMs(*credentials.expiresAt - kExpiryWarning), 1) : 0);
}

void ClientCore::Connect() {
  if (Destroying()) return;
  if (!runtime_.credentials.Get()) {
    // Nothing to identify with: the status stays Disconnected and the callback says why.
    runtime_.Log().Error("Connect: no token; call UpdateToken first");
    OnGatewayStatus(Client::Status::Disconnected, Client::Error::ConnectionFailed,
                    gateway::kErrorDetailNoToken);
    return;
  }
  gateway_->Connect();
}

void ClientCore::Disconnect() {
  if (!Destroying()) gateway_->Disconnect();
}

void ClientCore::SetStatusChangedCallback(Client::StatusChangedCallback callback) {
  statusCallback_.Set(std::move(callback));
}

std::string ClientCore::ReadyUserJson() const {
  std::lock_guard lock(readyMutex_);
  return readyUserJson_;
}

void ClientCore::OnGatewayStatus(Client::Status status, Client::Error error, int32_t errorDetail) {
  // (GetStatus already says `status`: the connection publishes it before calling this.)
  statusCallback_.Post(runtime_.Queue(), status, error, errorDetail);
}

void ClientCore::SetTokenExpirationCallback(std::function<void()> callback) {
  expirationCallback_.Set(std::move(callback));
}

void ClientCore::CheckTokenExpiry() {
  int64_t warnAt = expiryWarnAtMs_.load(std::memory_order_relaxed);
  if (warnAt == 0 || EpochMs(runtime_.Now()) < warnAt) return;
  if (!expiryWarnAtMs_.compare_exchange_strong(warnAt, 0)) return;
  runtime_.Log().Info("the Client's token expires in less than 5 minutes");
  expirationCallback_.Post(runtime_.Queue());
}

void ClientCore::RunCallbacks() {
  core::CallbackQueue& pending = runtime_.Queue();
  IoContext* io = runtime_.IoIfAny();
  if (!pending.ShuttingDown()) CheckTokenExpiry();
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
  // Nothing to run (most calls, polled every frame): no callback can destroy the Client, so no reference to
  // keep the queue alive, an atomic increment and decrement saved per call.
  if (!pending.HasPending()) return;
  // The queue outlives a callback that destroys the Client.
  const std::shared_ptr<core::CallbackQueue> queue = runtime_.QueuePtr();
  queue->Drain();
}

bool ClientCore::WaitForCallbacks(std::chrono::milliseconds timeout) {
  core::CallbackQueue& queue = runtime_.Queue();
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

}  // namespace platformpp::client
