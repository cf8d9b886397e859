#pragma once
// The desktop browser flow's redirect target: a one-shot HTTP listener on 127.0.0.1 (any free port) that
// waits for the browser to come back with the authorization code. Loopback only; stops after the redirect it
// waits for.

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <string>

namespace platformpp {
class IoContext;
}

namespace platformpp::net {

class LoopbackRedirectListener {
 public:
  /// Called on the network thread with each request's target ("/callback?code=..."). Return true when it was
  /// the awaited redirect: the browser then gets a page saying it can close, and the listener stops. False:
  /// 404.
  using OnRequest = std::function<bool(const std::string& target)>;

  /// Listens on 127.0.0.1:0 until the awaited redirect arrives or `timeout` passes (then `onTimeout` runs on
  /// the network thread). Throws std::runtime_error when no port can be bound.
  LoopbackRedirectListener(IoContext& context, OnRequest onRequest, std::chrono::milliseconds timeout,
                           std::function<void()> onTimeout);
  ~LoopbackRedirectListener();  ///< Stop()
  LoopbackRedirectListener(const LoopbackRedirectListener&) = delete;
  LoopbackRedirectListener& operator=(const LoopbackRedirectListener&) = delete;

  uint16_t Port() const noexcept { return port_; }
  /// Closes the listener and its connections and waits until the network side holds nothing of it. Not on the
  /// network thread. Idempotent.
  void Stop();

 private:
  class Impl;
  IoContext& context_;
  std::shared_ptr<Impl> impl_;
  std::future<void> stopped_;
  uint16_t port_ = 0;
};

}  // namespace platformpp::net
