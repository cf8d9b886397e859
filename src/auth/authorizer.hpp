#pragma once
// Client::Authorize: through the local desktop client over IPC (AUTHORIZE) when one answers, else the browser
// flow: a loopback listener as redirect target, the platform's authorize page handed to a URL opener, and the
// code taken from the redirect. The state is checked either way. At most one at a time: a new Authorize ends
// the previous one with Aborted.

#include "core/runtime.hpp"
#include "ipc/ipc_link.hpp"

#include <platformpp/authorization.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace platformpp::net {
class LoopbackRedirectListener;
}

namespace platformpp::ipc {
class IpcConnection;
}

namespace platformpp::auth {

/// code, redirectUri
using AuthorizeCompletion = core::Completion<std::string, std::string>;
/// Opens `url` in a browser; runs inside RunCallbacks. Returns false when it could not.
using UrlOpener = std::function<bool(const std::string& url)>;

/// The redirect the seed specifies for mobile flows: "<CustomSchemeParam>:/authorize/callback", else the
/// platform's standard scheme containing the application id ("discord-<id>:/authorize/callback").
std::string MobileRedirectUri(const AuthorizationArgs& args, uint64_t applicationId);
/// The system's opener (xdg-open on Linux, open on macOS), started without a shell.
bool OpenWithSystemBrowser(const std::string& url);

class Authorizer {
 public:
  Authorizer(core::Runtime& runtime, ipc::IpcLink& ipc);
  ~Authorizer();

  void SetUrlOpener(UrlOpener opener);
  /// The opener SetUrlOpener set; null for the system's browser. Any thread.
  std::shared_ptr<UrlOpener> Opener();
  void Authorize(AuthorizationArgs args, AuthorizationCallback callback);
  /// Ends a pending Authorize with Aborted (nothing happens when none is pending).
  void Abort();
  /// Stops the listener; the pending completion is dropped (ClientDestroyed). Called by Client destruction.
  void Shutdown();

 private:
  struct Pending;
  void AuthorizeOverIpc(const std::shared_ptr<Pending>& pending, ipc::IpcConnection& ipc);  // network thread
  void FinishFromIpc(const std::shared_ptr<Pending>& which, const std::string& dataJson);
  void StartBrowser(const std::shared_ptr<Pending>& pending);  // game thread
  // Ends the pending Authorize if it is still `which`. Any thread: a listener it owned is retired, not
  // stopped (stopping waits for the network thread, which may be the caller).
  void Finish(const std::shared_ptr<Pending>& which, ClientResult result, std::string code);
  void StopRetired();  // not on the network thread

  core::Runtime& runtime_;
  ipc::IpcLink& ipc_;
  std::mutex mutex_;
  std::shared_ptr<Pending> pending_;
  std::shared_ptr<UrlOpener> opener_;
  std::vector<std::unique_ptr<net::LoopbackRedirectListener>> retired_;
};

}  // namespace platformpp::auth
