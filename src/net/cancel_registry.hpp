#pragma once
// Cancels whatever the HTTP client's coroutines wait for when it shuts down (timers, resolvers, sockets): an
// intrusive list of ScopedCancels living in coroutine frames, so that registering one allocates nothing. Used
// on one strand only.

#include <functional>
#include <utility>

namespace platformpp::net {

class ScopedCancel;

class CancelRegistry {
 public:
  void Link(ScopedCancel& entry);
  void Unlink(ScopedCancel& entry);
  void CancelAll();

 private:
  ScopedCancel* head_ = nullptr;
};

class ScopedCancel {
 public:
  // `cancel` captures a pointer or reference: it fits std::function's local storage.
  ScopedCancel(CancelRegistry& registry, std::function<void()> cancel)
      : registry_(registry), cancel_(std::move(cancel)) {
    registry_.Link(*this);
  }
  ~ScopedCancel() { registry_.Unlink(*this); }
  ScopedCancel(const ScopedCancel&) = delete;
  ScopedCancel& operator=(const ScopedCancel&) = delete;

 private:
  friend class CancelRegistry;
  CancelRegistry& registry_;
  std::function<void()> cancel_;
  bool linked_ = false;
  ScopedCancel* prev_ = nullptr;
  ScopedCancel* next_ = nullptr;
};

}  // namespace platformpp::net
