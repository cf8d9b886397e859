#pragma once
// Account linking started from the desktop client (RegisterAuthorizeRequestCallback): a SUBSCRIBE to
// AUTHORIZE_REQUEST over IPC, renewed on every READY because the desktop client forgets subscriptions when it
// quits or restarts (seed, RPC events), and each AUTHORIZE_REQUEST event delivered inside RunCallbacks.

#include "core/runtime.hpp"
#include "ipc/ipc_link.hpp"

#include <functional>
#include <memory>
#include <mutex>

namespace platformpp::ipc {
struct IpcMessage;
}

namespace platformpp::auth {

class AuthorizeRequests {
 public:
  AuthorizeRequests(core::Runtime& runtime, ipc::IpcLink& ipc);

  /// Game thread. Replaces the callback and makes sure the desktop client hears of the subscription.
  void Register(std::function<void()> callback);
  void Remove();
  /// Game thread: connects and subscribes when a callback waits for that (e.g. once the application id is
  /// known). False when there is no desktop client connection to use.
  bool Resume();

  /// Network thread: a (re)connected desktop client.
  void OnIpcReady();
  /// Network thread: a DISPATCH from the desktop client.
  void OnIpcEvent(const ipc::IpcMessage& message);

 private:
  void Subscribe(bool subscribe);

  core::Runtime& runtime_;
  ipc::IpcLink& ipc_;
  // Shared with queued deliveries, so an event queued before Remove finds no callback when it runs.
  struct Slot {
    std::mutex mutex;
    std::shared_ptr<std::function<void()>> callback;
  };
  std::shared_ptr<Slot> slot_ = std::make_shared<Slot>();
};

}  // namespace platformpp::auth
