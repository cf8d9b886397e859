#include "auth/authorize_requests.hpp"

#include "ipc/ipc_connection.hpp"

namespace platformpp::auth {
namespace {
constexpr auto kSubscribeTimeout = std::chrono::seconds(10);
constexpr const char* kEvent = "AUTHORIZE_REQUEST";
}  // namespace

AuthorizeRequests::AuthorizeRequests(core::Runtime& runtime, ipc::IpcLink& ipc)
    : runtime_(runtime), ipc_(ipc) {}

void AuthorizeRequests::Register(std::function<void()> callback) {
  if (!callback) return Remove();
  {
    std::lock_guard lock(slot_->mutex);
    slot_->callback = std::make_shared<std::function<void()>>(std::move(callback));
  }
  if (!Resume()) {
    runtime_.Log().Warning(
        "RegisterAuthorizeRequestCallback: no desktop client connection yet (IPC disabled, or no application "
        "id: the subscription starts with SetApplicationId)");
  }
}

bool AuthorizeRequests::Resume() {
  {
    std::lock_guard lock(slot_->mutex);
    if (!slot_->callback) return true;
  }
  ipc::IpcConnection* ipc = ipc_.Connection(runtime_.applicationId.load());
  if (!ipc) return false;
  ipc->Start();
  // When READY already, subscribe now; otherwise (and after every reconnect) OnIpcReady does.
  if (ipc->IsReady()) Subscribe(true);
  return true;
}

void AuthorizeRequests::Remove() {
  bool had;
  {
    std::lock_guard lock(slot_->mutex);
    had = slot_->callback != nullptr;
    slot_->callback.reset();
  }
  if (!had) return;
  if (ipc::IpcConnection* ipc = ipc_.Existing(); ipc && ipc->IsReady()) Subscribe(false);
}

void AuthorizeRequests::OnIpcReady() {
  bool wanted;
  {
    std::lock_guard lock(slot_->mutex);
    wanted = slot_->callback != nullptr;
  }
  if (wanted) Subscribe(true);
}

void AuthorizeRequests::OnIpcEvent(const ipc::IpcMessage& message) {
  if (!message.evt || *message.evt != kEvent) return;
  runtime_.Log().Info("the desktop client asks to link this game (AUTHORIZE_REQUEST)");
  core::PostEvent(runtime_.Queue(), [slot = slot_] {
    std::shared_ptr<std::function<void()>> callback;
    {
      std::lock_guard lock(slot->mutex);
      callback = slot->callback;
    }
    if (callback) (*callback)();
  });
}

void AuthorizeRequests::Subscribe(bool subscribe) {
  ipc::IpcConnection* ipc = ipc_.Existing();
  if (!ipc) return;
  const char* cmd = subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE";
  ipc->Send(cmd, "{}", std::string(kEvent), kSubscribeTimeout,
            [logger = runtime_.LoggerPtr(), cmd](const ipc::IpcReply& reply) {
              if (!reply.ok) {
                logger->Warning(std::string("IPC: ") + cmd + " " + kEvent + " failed (" +
                                std::to_string(reply.errorCode) + "): " + reply.message);
              }
            });
}

}  // namespace platformpp::auth
