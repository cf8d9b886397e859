#include "core/client_core.hpp"
#include "voice/voice_manager.hpp"

#include "auth/authorize_requests.hpp"
#include "auth/authorizer.hpp"
#include "core/io_context_access.hpp"
#include "ipc/ipc_connection.hpp"
#include "lobby/lobby_store.hpp"
#include "messaging/message_service.hpp"
#include "presence/presence_service.hpp"
#include "social/social_store.hpp"

#include <platformpp/io_context.hpp>
#include <platformpp/version.hpp>

namespace platformpp::core {

ClientCore::ClientCore(ClientOptions options)
    : options_(std::move(options)),
      queue_(std::make_shared<CallbackQueue>()),
      logger_(std::make_shared<Logger>(queue_)),
      io_(options_.ioContext ? options_.ioContext : std::make_shared<IoContext>(1)) {
  while (!options_.apiBase.empty() && options_.apiBase.back() == '/')
    options_.apiBase.pop_back();
  net::HttpClientOptions http;
  http.caFile = options_.caFile;
  http.useSystemCertificates = options_.useSystemCertificates;
  http.userAgent = "platformpp/" PLATFORMPP_VERSION_STRING;
  if (!options_.userAgentSuffix.empty()) http.userAgent += " " + options_.userAgentSuffix;
  http_ = std::make_unique<net::HttpClient>(*io_, logger_, std::move(http));
  authorizer_ = std::make_unique<auth::Authorizer>(*this);
  authorizeRequests_ = std::make_unique<auth::AuthorizeRequests>(*this);
  gateway::GatewayOptions gatewayOptions;
  gatewayOptions.apiBase = options_.apiBase;
  gatewayOptions.caFile = options_.caFile;
  gatewayOptions.useSystemCertificates = options_.useSystemCertificates;
  gatewayOptions.userAgent = http.userAgent;
  gatewayOptions.token = [this] {
    std::optional<Credentials> current = credentials.Get();
    return current ? current->Header() : std::string();
  };
  gateway_ = std::make_unique<gateway::GatewayConnection>(*io_, logger_, *http_, std::move(gatewayOptions));
  // The handlers run on the network thread and end before the gateway's Shutdown returns (Destroy).
  gateway_->SetStatusHandler([this](Client::Status status, Client::Error error, int32_t detail) {
    OnGatewayStatus(status, error, detail);
  });
  gateway_->SetReadyHandler([this](const gateway::ReadyInfo& ready) {
    std::lock_guard lock(gatewayMutex_);
    readyUserJson_ = ready.userJson;
  });
  social_ = std::make_unique<social::SocialStore>(*this);
  presence_ = std::make_unique<presence::PresenceService>(*this);
  AddGatewaySink([this](const gateway::Dispatch& dispatch) { social_->OnDispatch(dispatch); });
  lobbies_ = std::make_unique<lobby::LobbyStore>(*this);
  messages_ = std::make_unique<messaging::MessageService>(*this);
  AddGatewaySink([this](const gateway::Dispatch& dispatch) { presence_->OnDispatch(dispatch); });
  // Lobbies before messages: a message's lobby (and its member's additional name) is known when it arrives.
  AddGatewaySink([this](const gateway::Dispatch& dispatch) { lobbies_->OnDispatch(dispatch); });
  AddGatewaySink([this](const gateway::Dispatch& dispatch) { messages_->OnDispatch(dispatch); });
  // After the lobby store: a call's participants change once the lobby shows them, and a call that starts
  // from the store's voice states gets every dispatch the store applied after that snapshot.
  voiceLogger_ = std::make_shared<Logger>(queue_);
  voice_ = std::make_unique<voice::VoiceManager>(*this);
  AddGatewaySink([this](const gateway::Dispatch& dispatch) { voice_->OnDispatch(dispatch); });
  gateway_->SetDispatchSink([this](const gateway::Dispatch& dispatch) {
    for (auto& sink : gatewaySinks_)
      sink(dispatch);
  });
  while (!options_.webBase.empty() && options_.webBase.back() == '/')
    options_.webBase.pop_back();
}

ClientCore::~ClientCore() {
  Destroy();
}

void ClientCore::Destroy() noexcept {
  if (destroyed_) return;
  destroyed_ = true;
  // 1. Operations that end from now on report ClientDestroyed, and RunCallbacks delivers nothing more.
  queue_->BeginShutdown();
  // 2. Stop the network side and wait until it holds nothing of ours: every in-flight operation's Completion
  // is
  //    then either queued or dropped (which queues ClientDestroyed).
  {
    std::lock_guard lock(ipcMutex_);
    ipcClosed_ = true;  // no new connection from here on
  }
  if (ipc_) ipc_->Shutdown();
  messages_->Shutdown();  // its queued sends end before the HTTP client stops
  voice_->Shutdown();     // the calls' voice gateways and the voice thread, while the network thread runs
  gateway_->Shutdown();   // before the HTTP client, whose GET /gateway it may be waiting for
  authorizer_->Shutdown();
  http_->Shutdown();
  // 3. Complete everything queued with ClientDestroyed, here on the destroying thread.
  queue_->Shutdown();
  // 4. Join our network thread (or let go of the shared context).
  io_.reset();
}

ipc::IpcConnection* ClientCore::Ipc(uint64_t applicationId) {
  std::lock_guard lock(ipcMutex_);
  if (ipc_) {
    return ipc_.get();
  }
  if (!options_.ipcEnabled || applicationId == 0 || ipcClosed_) return nullptr;
  ipc::IpcConnectionOptions options;
  options.name = options_.ipcName;
  options.directory = options_.ipcDirectory;
  options.clientId = std::to_string(applicationId);
  ipc_ = std::make_unique<ipc::IpcConnection>(*io_, logger_, std::move(options));
  // The handlers run on the network thread and end before Shutdown returns, which is before the features they
  // call are destroyed.
  ipc_->SetOnReady([this](const ipc::IpcReady&) {
    authorizeRequests_->OnIpcReady();
    presence_->OnIpcReady();
  });
  ipc_->SetOnEvent([this](const ipc::IpcMessage& message) {
    authorizeRequests_->OnIpcEvent(message);
    presence_->OnIpcEvent(message);
  });
  return ipc_.get();
}

ipc::IpcConnection* ClientCore::ExistingIpc() {
  std::lock_guard lock(ipcMutex_);
  return ipc_.get();
}

namespace {
constexpr auto kExpiryWarning = std::chrono::minutes(5);
int64_t EpochMs(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}
}  // namespace

void ClientCore::SetToken(AuthorizationTokenType type, std::string token) {
  std::optional<Credentials> previous = this->credentials.Get();
  Credentials credentials = this->credentials.Set(type, std::move(token));
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
  if (!credentials.Get()) {
    // Nothing to identify with: the status stays Disconnected and the callback says why.
    logger_->Error("Connect: no token; call UpdateToken first");
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
  std::lock_guard lock(gatewayMutex_);
  return readyUserJson_;
}

void ClientCore::AddGatewaySink(gateway::DispatchSink sink) {
  gatewaySinks_.push_back(std::move(sink));
}

void ClientCore::OnGatewayStatus(Client::Status status, Client::Error error, int32_t errorDetail) {
  status_.store(status);  // before the callback is queued
  statusCallback_.Post(*queue_, status, error, errorDetail);
}

void ClientCore::SetTokenExpirationCallback(std::function<void()> callback) {
  expirationCallback_.Set(std::move(callback));
}

void ClientCore::CheckTokenExpiry() {
  int64_t warnAt = expiryWarnAtMs_.load(std::memory_order_relaxed);
  if (warnAt == 0 || EpochMs(Now()) < warnAt) return;
  if (!expiryWarnAtMs_.compare_exchange_strong(warnAt, 0)) return;
  logger_->Info("the Client's token expires in less than 5 minutes");
  expirationCallback_.Post(*queue_);
}

void ClientCore::RunCallbacks() {
  // The queue outlives a callback that destroys the Client.
  std::shared_ptr<CallbackQueue> queue = queue_;
  if (!queue->ShuttingDown()) CheckTokenExpiry();
  if (io_ && io_->Pumped() && !pumping_ && !queue->ShuttingDown()) {
    bool skip = justPumped_ && std::chrono::steady_clock::now() - pumpedAt_ < std::chrono::milliseconds(1);
    justPumped_ = false;
    if (!skip) {
      // (Skipped when WaitForCallbacks pumped until a callback was ready right before this call: polling
      // again would only cost a reactor pass, a syscall, for nothing. The next call polls.)
      pumping_ = true;
      IoContextAccess::Get(*io_).poll();  // network handlers only queue callbacks; none runs here
      pumping_ = false;
    }
  }
  queue->Drain();
}

bool ClientCore::WaitForCallbacks(std::chrono::milliseconds timeout) {
  if (!io_ || !io_->Pumped() || pumping_) return queue_->Wait(timeout);
  // Threadless: do the network work ourselves until a callback is ready. Like a network thread, poll for
  // the spin time after each piece of work before sleeping in the reactor: the response of a request just
  // sent then needs no wake-up.
  using Clock = std::chrono::steady_clock;
  auto deadline = Clock::now() + timeout;
  auto& io = IoContextAccess::Get(*io_);
  auto spin = IoContextAccess::Spin(*io_);
  pumping_ = true;
  bool ready = queue_->HasPending();
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
    ready = queue_->HasPending();
  }
  justPumped_ = pumped && ready;
  if (justPumped_) pumpedAt_ = Clock::now();
  pumping_ = false;
  return ready;
}

}  // namespace platformpp::core
