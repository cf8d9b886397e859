#include "ipc/ipc_link.hpp"

namespace platformpp::ipc {

IpcLink::IpcLink(IoContext& context, std::shared_ptr<core::Logger> logger, IpcLinkOptions options)
    : context_(context), logger_(std::move(logger)), options_(std::move(options)) {}

IpcLink::~IpcLink() {
  Shutdown();
}

void IpcLink::SetHandlers(std::function<void(const IpcReady&)> onReady,
                          std::function<void(const IpcMessage&)> onEvent) {
  onReady_ = std::move(onReady);
  onEvent_ = std::move(onEvent);
}

IpcConnection* IpcLink::Connection(uint64_t applicationId) {
  std::lock_guard lock(mutex_);
  if (connection_) return connection_.get();
  if (!options_.enabled || applicationId == 0 || closed_) return nullptr;
  IpcConnectionOptions options;
  options.name = options_.name;
  options.directory = options_.directory;
  options.clientId = std::to_string(applicationId);
  connection_ = std::make_unique<IpcConnection>(context_, logger_, std::move(options));
  if (onReady_) connection_->SetOnReady(onReady_);
  if (onEvent_) connection_->SetOnEvent(onEvent_);
  return connection_.get();
}

IpcConnection* IpcLink::Existing() {
  std::lock_guard lock(mutex_);
  return connection_.get();
}

void IpcLink::Shutdown() {
  IpcConnection* connection;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;  // no new connection from here on
    connection = connection_.get();
  }
  // Outside the lock: the connection's handlers may be running and call Existing().
  if (connection) connection->Shutdown();
}

}  // namespace platformpp::ipc
