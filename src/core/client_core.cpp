#include "core/client_core.hpp"

#include "auth/authorize_requests.hpp"
#include "auth/authorizer.hpp"
#include "core/io_context_access.hpp"
#include "ipc/ipc_connection.hpp"

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
  ipc_->SetOnReady([this](const ipc::IpcReady&) { authorizeRequests_->OnIpcReady(); });
  ipc_->SetOnEvent([this](const ipc::IpcMessage& message) { authorizeRequests_->OnIpcEvent(message); });
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
  Credentials credentials = this->credentials.Set(type, std::move(token));
  // A new token gets its own warning, once.
  expiryWarnAtMs_.store(
      credentials.expiresAt ? std::max<int64_t>(EpochMs(*credentials.expiresAt - kExpiryWarning), 1) : 0);
}

void ClientCore::SetTokenExpirationCallback(std::function<void()> callback) {
  std::lock_guard lock(expiryMutex_);
  expirationCallback_ = callback ? std::make_shared<std::function<void()>>(std::move(callback)) : nullptr;
}

void ClientCore::CheckTokenExpiry() {
  int64_t warnAt = expiryWarnAtMs_.load(std::memory_order_relaxed);
  if (warnAt == 0 || EpochMs(Now()) < warnAt) return;
  if (!expiryWarnAtMs_.compare_exchange_strong(warnAt, 0)) return;
  std::shared_ptr<std::function<void()>> callback;
  {
    std::lock_guard lock(expiryMutex_);
    callback = expirationCallback_;
  }
  logger_->Info("the Client's token expires in less than 5 minutes");
  if (callback) PostEvent(*queue_, [callback] { (*callback)(); });
}

void ClientCore::RunCallbacks() {
  // The queue outlives a callback that destroys the Client.
  std::shared_ptr<CallbackQueue> queue = queue_;
  if (!queue->ShuttingDown()) CheckTokenExpiry();
  if (io_ && io_->Pumped() && !pumping_ && !queue->ShuttingDown()) {
    pumping_ = true;
    IoContextAccess::Get(*io_).poll();  // network handlers only queue callbacks; none runs here
    pumping_ = false;
  }
  queue->Drain();
}

bool ClientCore::WaitForCallbacks(std::chrono::milliseconds timeout) {
  if (!io_ || !io_->Pumped() || pumping_) return queue_->Wait(timeout);
  // Threadless: do the network work ourselves until a callback is ready.
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto& io = IoContextAccess::Get(*io_);
  pumping_ = true;
  bool ready = queue_->PendingCount() > 0;
  while (!ready && std::chrono::steady_clock::now() < deadline) {
    io.run_one_until(deadline);
    ready = queue_->PendingCount() > 0;
  }
  pumping_ = false;
  return ready;
}

}  // namespace platformpp::core
