#pragma once
// The composition of one Client: it builds every feature on the runtime, hands each its collaborators, routes
// the Gateway's dispatches and the desktop client's events to them (the dispatch table), and tears them down
// in the order of the threading contract. Nothing below this layer knows it; the public Client (and the
// backend client) are its only users.

#include "api/api_session.hpp"
#include "core/registered_callback.hpp"
#include "core/runtime.hpp"
#include "gateway/dispatch_router.hpp"
#include "gateway/gateway_connection.hpp"
#include "ipc/ipc_link.hpp"
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
class TokenService;
}  // namespace platformpp::auth

namespace platformpp::social {
class SocialStore;
class VoiceChannelStatuses;
class RelationshipService;
}  // namespace platformpp::social

namespace platformpp::presence {
class PresenceService;
}

namespace platformpp::lobby {
class LobbyStore;
class LobbyService;
}  // namespace platformpp::lobby

namespace platformpp::messaging {
class MessageService;
}
namespace platformpp::voice {
class VoiceManager;
}
namespace platformpp::premium {
class PremiumService;
}

namespace platformpp::client {

class ClientCore {
 public:
  explicit ClientCore(ClientOptions options);
  ~ClientCore();
  ClientCore(const ClientCore&) = delete;
  ClientCore& operator=(const ClientCore&) = delete;

  /// The destroy sequence of the threading contract; see Client::~Client. Idempotent.
  void Destroy() noexcept;
  bool Destroying() const noexcept { return api_.Destroying(); }

  void RunCallbacks();
  bool WaitForCallbacks(std::chrono::milliseconds timeout);
  /// SetApplicationId: lobby and token calls use it from now on, and a desktop-client subscription that
  /// waited for it starts.
  void SetApplicationId(uint64_t applicationId);

  template <class... Args>
  core::Completion<Args...> MakeCompletion(typename core::Completion<Args...>::Callback callback) {
    return Runtime().MakeCompletion<Args...>(std::move(callback));
  }

  /// The API session every HTTP request of this Client goes through (it owns the runtime and HTTP client).
  api::ApiSession& Api() noexcept { return api_; }
  core::Runtime& Runtime() noexcept { return api_.Runtime(); }
  const core::Runtime& Runtime() const noexcept { return api_.Runtime(); }
  core::CallbackQueue& Queue() noexcept { return Runtime().Queue(); }
  core::Logger& Log() noexcept { return Runtime().Log(); }
  core::Logger& VoiceLog() noexcept { return Runtime().VoiceLog(); }
  const ClientOptions& Options() const noexcept { return Runtime().Options(); }
  std::string ApiUrl(std::string_view path) const { return Runtime().ApiUrl(path); }
  net::HttpClient& Http() noexcept { return api_.Http(); }
  IoContext& Io() noexcept { return Runtime().Io(); }
  ipc::IpcLink& Ipc() noexcept { return *ipc_; }
  auth::Authorizer& Authorizer() noexcept { return *authorizer_; }
  auth::AuthorizeRequests& AuthorizeRequests() noexcept { return *authorizeRequests_; }
  gateway::GatewayConnection& Gateway() noexcept { return *gateway_; }
  social::SocialStore& Social() noexcept { return *social_; }
  /// The relationship, guild and channel calls (HTTP) whose effects come back to Social().
  social::RelationshipService& Relationships() noexcept { return *relationships_; }
  presence::PresenceService& Presence() noexcept { return *presence_; }
  lobby::LobbyStore& Lobbies() noexcept { return *lobbies_; }
  /// The lobby calls (HTTP) whose effects come back to Lobbies().
  lobby::LobbyService& LobbyCalls() noexcept { return *lobbyCalls_; }
  /// The token calls (OAuth2 grants, revocation, provisional accounts) over the token endpoint.
  auth::TokenService& Tokens() noexcept { return *tokens_; }
  messaging::MessageService& Messages() noexcept { return *messages_; }
  voice::VoiceManager& Voice() noexcept { return *voice_; }
  premium::PremiumService& Premium() noexcept { return *premium_; }

  /// The features that read Gateway dispatches and the events each claims; a dispatch reaches those that
  /// claimed it in the order they were added (on the network thread, once per sequence number, after the
  /// connection itself has read READY). docs/architecture.md.
  const gateway::DispatchRouter& DispatchTable() const noexcept { return dispatch_; }

  /// UpdateToken: use `token` from now on (kept out of the logs; a connected session identifies again with
  /// it) and arm the expiry warning when its expiry is known. An empty token is refused.
  void UpdateToken(AuthorizationTokenType type, std::string token, UpdateTokenCallback callback);
  void SetTokenExpirationCallback(std::function<void()> callback);

  /// The Gateway session (Client::Connect). Status changes reach the status callback inside RunCallbacks;
  /// GetStatus returns the new status before that callback is queued.
  void Connect();
  void Disconnect();
  Client::Status GetStatus() const noexcept { return gateway_->CurrentStatus(); }
  void SetStatusChangedCallback(Client::StatusChangedCallback callback);
  /// READY's `user` as JSON text of the current (or last) session; empty before the first READY.
  std::string ReadyUserJson() const;

 private:
  void OnGatewayStatus(Client::Status status, Client::Error error, int32_t errorDetail);
  void CheckTokenExpiry();  // game thread, each RunCallbacks

  api::ApiSession api_;
  std::unique_ptr<ipc::IpcLink> ipc_;
  std::unique_ptr<gateway::GatewayConnection> gateway_;
  std::unique_ptr<auth::Authorizer> authorizer_;
  std::unique_ptr<auth::AuthorizeRequests> authorizeRequests_;
  std::unique_ptr<auth::TokenService> tokens_;
  std::unique_ptr<social::SocialStore> social_;
  std::unique_ptr<social::VoiceChannelStatuses> voiceStatuses_;
  std::unique_ptr<social::RelationshipService> relationships_;
  std::unique_ptr<presence::PresenceService> presence_;
  std::unique_ptr<lobby::LobbyStore> lobbies_;
  std::unique_ptr<lobby::LobbyService> lobbyCalls_;
  std::unique_ptr<messaging::MessageService> messages_;
  std::unique_ptr<voice::VoiceManager> voice_;
  std::unique_ptr<premium::PremiumService> premium_;
  gateway::DispatchRouter dispatch_;  // filled during construction, read on the network thread
  core::RegisteredCallback<Client::StatusChangedCallback> statusCallback_;
  mutable std::mutex readyMutex_;
  std::string readyUserJson_;  // readyMutex_
  bool destroyed_ = false;
  core::RegisteredCallback<std::function<void()>> expirationCallback_;
  std::atomic<int64_t> expiryWarnAtMs_{0};  // 0: nothing to warn about (no token, unknown expiry, or warned)
};

}  // namespace platformpp::client
