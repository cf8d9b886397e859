#include "core/client_core.hpp"

#include <platformpp/io_context.hpp>
#include <platformpp/version.hpp>

namespace platformpp::core {

ClientCore::ClientCore(ClientOptions options)
    : options_(std::move(options)),
      queue_(std::make_shared<CallbackQueue>()),
      logger_(std::make_shared<Logger>(queue_)),
      io_(options_.ioContext ? options_.ioContext : std::make_shared<IoContext>(1)) {
  while (!options_.apiBase.empty() && options_.apiBase.back() == '/') options_.apiBase.pop_back();
  net::HttpClientOptions http;
  http.caFile = options_.caFile;
  http.useSystemCertificates = options_.useSystemCertificates;
  http.userAgent = "platformpp/" PLATFORMPP_VERSION_STRING;
  if (!options_.userAgentSuffix.empty()) http.userAgent += " " + options_.userAgentSuffix;
  http_ = std::make_unique<net::HttpClient>(*io_, logger_, std::move(http));
}

ClientCore::~ClientCore() { Destroy(); }

void ClientCore::Destroy() noexcept {
  if (destroyed_) return;
  destroyed_ = true;
  // 1. Operations that end from now on report ClientDestroyed, and RunCallbacks delivers nothing more.
  queue_->BeginShutdown();
  // 2. Stop the network side and wait until it holds nothing of ours: every in-flight operation's Completion is
  //    then either queued or dropped (which queues ClientDestroyed).
  http_->Shutdown();
  // 3. Complete everything queued with ClientDestroyed, here on the destroying thread.
  queue_->Shutdown();
  // 4. Join our network thread (or let go of the shared context).
  io_.reset();
}

void ClientCore::RunCallbacks() {
  // The queue outlives a callback that destroys the Client.
  std::shared_ptr<CallbackQueue> queue = queue_;
  queue->Drain();
}

}  // namespace platformpp::core
