#include "core/client_core.hpp"

#include "auth/authorizer.hpp"
#include "core/io_context_access.hpp"

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
  authorizer_->Shutdown();
  http_->Shutdown();
  // 3. Complete everything queued with ClientDestroyed, here on the destroying thread.
  queue_->Shutdown();
  // 4. Join our network thread (or let go of the shared context).
  io_.reset();
}

void ClientCore::RunCallbacks() {
  // The queue outlives a callback that destroys the Client.
  std::shared_ptr<CallbackQueue> queue = queue_;
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
