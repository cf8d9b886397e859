#pragma once
// Everything one Client owns, wired together: the callback queue, the logger, the network context and the
// HTTP client. Feature code (auth, social, ...) reaches the network and the queue through this.

#include "core/callback_queue.hpp"
#include "core/completion.hpp"
#include "core/credentials.hpp"
#include "core/logger.hpp"
#include "core/registered_callback.hpp"
#include "gateway/gateway_connection.hpp"
#include "net/http_client.hpp"

#include <platformpp/client.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::auth {
class Authorizer;
class AuthorizeRequests;
}  // namespace platformpp::auth

namespace platformpp::ipc {
class IpcConnection;
}

namespace platformpp::social {
class SocialStore;
}

namespace platformpp::presence {
class PresenceService;
}

namespace platformpp::lobby {
class LobbyStore;
}

namespace platformpp::messaging {
class MessageService;
}
namespace platformpp::voice {
class VoiceManager;
}

namespace platformpp::core {

class ClientCore {
 public:
  explicit ClientCore(ClientOptions options);
  ~ClientCore();
  ClientCore(const ClientCore&) = delete;
  ClientCore& operator=(const ClientCore&) = delete;

  /// The destroy sequence of the threading contract; see Client::~Client. Idempotent.
  void Destroy() noexcept;
  bool Destroying() const noexcept { return queue_->ShuttingDown(); }

  void RunCallbacks();
  bool WaitForCallbacks(std::chrono::milliseconds timeout);

  template <class... Args>
  Completion<Args...> MakeCompletion(typename Completion<Args...>::Callback callback) {
    return Completion<Args...>(queue_, std::move(callback));
  }

  CallbackQueue& Queue() noexcept { return *queue_; }
  Logger& Log() noexcept { return *logger_; }
  net::HttpClient& Http() noexcept { return *http_; }
  IoContext& Io() noexcept { return *io_; }
  const ClientOptions& Options() const noexcept { return options_; }
  std::shared_ptr<Logger> LoggerPtr() const noexcept { return logger_; }
  auth::Authorizer& Authorizer() noexcept { return *authorizer_; }
  auth::AuthorizeRequests& AuthorizeRequests() noexcept { return *authorizeRequests_; }
  gateway::GatewayConnection& Gateway() noexcept { return *gateway_; }
  social::SocialStore& Social() noexcept { return *social_; }
  presence::PresenceService& Presence() noexcept { return *presence_; }
  lobby::LobbyStore& Lobbies() noexcept { return *lobbies_; }
  messaging::MessageService& Messages() noexcept { return *messages_; }
  voice::VoiceManager& Voice() noexcept { return *voice_; }
  /// The voice engine's own log (AddVoiceLogCallback, SetVoiceLogDir): calls, media, devices.
  Logger& VoiceLog() noexcept { return *voiceLogger_; }
  std::shared_ptr<Logger> VoiceLoggerPtr() const noexcept { return voiceLogger_; }
  /// SetVoiceLogDir's directory (where SetAecDump writes too); empty when unset.
  std::string VoiceLogDir() const {
    std::lock_guard lock(voiceLogDirMutex_);
    return voiceLogDir_;
  }
  void SetVoiceLogDir(std::string dir) {
    std::lock_guard lock(voiceLogDirMutex_);
    voiceLogDir_ = std::move(dir);
  }
  /// The connection to the local desktop client, created (not started) on first use for `applicationId`
  /// (sent in the handshake). Null when IPC is disabled, the id is 0, or the Client is being destroyed.
  ipc::IpcConnection* Ipc(uint64_t applicationId);
  /// The connection if one was created.
  ipc::IpcConnection* ExistingIpc();
  /// `apiBase` + `path` ("/users/@me").
  std::string ApiUrl(std::string_view path) const { return options_.apiBase + std::string(path); }

  std::atomic<uint64_t> applicationId{0};
  CredentialStore credentials;

  std::chrono::system_clock::time_point Now() const {
    return options_.clock ? options_.clock() : std::chrono::system_clock::now();
  }
  /// UpdateToken: use `token` from now on and arm the expiry warning when its expiry is known.
  void SetToken(AuthorizationTokenType type, std::string token);
  void SetTokenExpirationCallback(std::function<void()> callback);

  /// The Gateway session (Client::Connect). Status changes reach the status callback inside RunCallbacks;
  /// GetStatus returns the new status before that callback is queued.
  void Connect();
  void Disconnect();
  Client::Status GetStatus() const noexcept { return status_.load(); }
  void SetStatusChangedCallback(Client::StatusChangedCallback callback);
  /// READY's `user` as JSON text of the current (or last) session; empty before the first READY.
  std::string ReadyUserJson() const;
  /// Where features (presence, relationships, lobbies, ...) receive Gateway dispatches: each sink gets every
  /// dispatch on the network thread, once per sequence number, in order (see gateway::Dispatch). Register in
  /// the ClientCore constructor, before anything can call Connect; a sink updates its state and then queues
  /// its callbacks with PostEvent.
  void AddGatewaySink(gateway::DispatchSink sink);

 private:
  void OnGatewayStatus(Client::Status status, Client::Error error, int32_t errorDetail);

  ClientOptions options_;
  std::shared_ptr<CallbackQueue> queue_;
  std::shared_ptr<Logger> logger_;
  std::shared_ptr<IoContext> io_;
  std::unique_ptr<net::HttpClient> http_;
  std::unique_ptr<auth::Authorizer> authorizer_;
  std::unique_ptr<auth::AuthorizeRequests> authorizeRequests_;
  std::unique_ptr<gateway::GatewayConnection> gateway_;
  std::unique_ptr<social::SocialStore> social_;
  std::unique_ptr<presence::PresenceService> presence_;
  std::unique_ptr<lobby::LobbyStore> lobbies_;
  std::unique_ptr<messaging::MessageService> messages_;
  std::shared_ptr<Logger> voiceLogger_;
  mutable std::mutex voiceLogDirMutex_;
  std::string voiceLogDir_;
  std::unique_ptr<voice::VoiceManager> voice_;
  std::vector<gateway::DispatchSink> gatewaySinks_;  // filled during construction, read on the network thread
  std::atomic<Client::Status> status_{Client::Status::Disconnected};
  mutable std::mutex gatewayMutex_;
  RegisteredCallback<Client::StatusChangedCallback> statusCallback_;
  std::string readyUserJson_;  // gatewayMutex_
  std::mutex ipcMutex_;
  std::unique_ptr<ipc::IpcConnection> ipc_;
  bool ipcClosed_ = false;  // ipcMutex_
  bool destroyed_ = false;
  void CheckTokenExpiry();  // game thread, each RunCallbacks
  RegisteredCallback<std::function<void()>> expirationCallback_;
  std::atomic<int64_t> expiryWarnAtMs_{0};  // 0: nothing to warn about (no token, unknown expiry, or warned)
  bool pumping_ = false;  // inside a pump of a threadless IoContext (nested RunCallbacks do not pump again)
  bool justPumped_ = false;  // WaitForCallbacks pumped until a callback was ready, at pumpedAt_ (game thread)
  std::chrono::steady_clock::time_point pumpedAt_;
};

}  // namespace platformpp::core
