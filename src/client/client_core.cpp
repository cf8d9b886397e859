#include "client/client_core.hpp"

#include "auth/authorize_requests.hpp"
#include "auth/authorizer.hpp"
#include "auth/token_service.hpp"
#include "core/io_context_access.hpp"
#include "lobby/lobby_service.hpp"
#include "lobby/lobby_store.hpp"
#include "messaging/message_service.hpp"
#include "premium/premium_service.hpp"
#include "premium/premium_store.hpp"
#include "presence/presence_service.hpp"
#include "social/relationship_service.hpp"
#include "social/social_store.hpp"
#include "social/voice_channel_statuses.hpp"
#include "voice/voice_manager.hpp"

#include <platformpp/io_context.hpp>
#include <platformpp/version.hpp>

namespace platformpp::client {

ClientCore::ClientCore(ClientOptions options) : api_(std::move(options)) {
  core::Runtime& runtime = api_.Runtime();
  net::HttpClient& http = api_.Http();
  const ClientOptions& o = runtime.Options();
  ipc_ = std::make_unique<ipc::IpcLink>(runtime.Io(), runtime.LoggerPtr(),
                                        ipc::IpcLinkOptions{o.ipcEnabled, o.ipcName, o.ipcDirectory});

  gateway::GatewayOptions gatewayOptions;
  gatewayOptions.apiBase = o.apiBase;
  gatewayOptions.caFile = o.caFile;
  gatewayOptions.useSystemCertificates = o.useSystemCertificates;
  gatewayOptions.userAgent = api_.UserAgent();
  gatewayOptions.capabilities = o.channelObfuscationOptIn ? gateway::kCapabilityChannelObfuscation : 0;
  gatewayOptions.token = [this] { return api_.Authorization().value_or(std::string()); };
  gateway_ = std::make_unique<gateway::GatewayConnection>(runtime.Io(), runtime.LoggerPtr(), http,
                                                          std::move(gatewayOptions));

  // The features, each given what it uses: lower ones first, so that each collaborator exists.
  authorizer_ = std::make_unique<auth::Authorizer>(runtime, *ipc_);
  authorizeRequests_ = std::make_unique<auth::AuthorizeRequests>(runtime, *ipc_);
  tokens_ = std::make_unique<auth::TokenService>(runtime, http);
  social_ = std::make_unique<social::SocialStore>(runtime, *gateway_);
  voiceStatuses_ = std::make_unique<social::VoiceChannelStatuses>(runtime, *gateway_);
  relationships_ = std::make_unique<social::RelationshipService>(api_, *social_, voiceStatuses_.get());
  presence_ = std::make_unique<presence::PresenceService>(runtime, http, *gateway_, *ipc_, *social_);
  lobbies_ = std::make_unique<lobby::LobbyStore>(runtime, *social_);
  lobbyCalls_ = std::make_unique<lobby::LobbyService>(
      api_, *lobbies_, *social_, [this] { return GetStatus() == Client::Status::Ready; },
      [this](const std::string& url) {
        // The opener is the game's code (or starts a browser): it runs inside RunCallbacks.
        auto opener = authorizer_->Opener();
        core::PostEvent(Queue(), [this, opener, url] {
          bool opened = opener ? (*opener)(url) : auth::OpenWithSystemBrowser(url);
          if (!opened) Log().Warning("JoinLinkedLobbyGuild: the invite could not be opened");
        });
      });
  messages_ = std::make_unique<messaging::MessageService>(runtime, http, *social_, *lobbies_);
  voice_ = std::make_unique<voice::VoiceManager>(runtime, *gateway_, *social_, *lobbies_);
  premium_ = std::make_unique<premium::PremiumService>(runtime, http, *ipc_);

  // The dispatch table: each feature with the events it claims (one owner per meaning; the router refuses a
  // second). An event reaches the features that claimed it in this order; each updates its state, then queues
  // its callbacks. The order is a contract:
  // Users and relationships first: every other feature names users by what this store knows.
  dispatch_.Add("social", social::SocialStore::DispatchClaims(),
                [this](const gateway::Dispatch& d) { social_->OnDispatch(d); });
  dispatch_.Add("presence", presence::PresenceService::DispatchClaims(),
                [this](const gateway::Dispatch& d) { presence_->OnDispatch(d); });
  // Lobbies before messages: a message's lobby (and its member's additional name) is known when it arrives.
  // Voice follows the store's changes (LobbyChangeListener), told once the store has applied each dispatch.
  dispatch_.Add("lobbies", lobby::LobbyStore::DispatchClaims(),
                [this](const gateway::Dispatch& d) { lobbies_->OnDispatch(d); });
  dispatch_.Add("messages", messaging::MessageService::DispatchClaims(),
                [this](const gateway::Dispatch& d) { messages_->OnDispatch(d); });
  dispatch_.Add("voice", voice::VoiceManager::DispatchClaims(),
                [this](const gateway::Dispatch& d) { voice_->OnDispatch(d); });
  // The answers to GetGuildChannels' op 43: no store's state.
  dispatch_.Add("voice_status", social::VoiceChannelStatuses::DispatchClaims(),
                [this](const gateway::Dispatch& d) { voiceStatuses_->OnDispatch(d); });
  // Premium last: it names no other feature's state, and its READY starts a load over HTTP.
  dispatch_.Add("premium", premium::PremiumStore::DispatchClaims(),
                [this](const gateway::Dispatch& d) { premium_->OnDispatch(d); });
  lobbies_->SetChangeListener(voice_.get());

  // The handlers run on the network thread and end before the gateway's (or the link's) Shutdown returns,
  // which is before the features they call are destroyed (Destroy).
  gateway_->SetStatusHandler([this](Client::Status status, Client::Error error, int32_t detail) {
    OnGatewayStatus(status, error, detail);
  });
  gateway_->SetReadyHandler([this](const gateway::ReadyInfo& ready) {
    std::lock_guard lock(readyMutex_);
    readyUserJson_ = ready.userJson;
  });
  gateway_->SetDispatchSink([this](const gateway::Dispatch& dispatch) { dispatch_.Route(dispatch); });
  ipc_->SetHandlers(
      [this](const ipc::IpcReady&) {
        authorizeRequests_->OnIpcReady();
        presence_->OnIpcReady();
      },
      [this](const ipc::IpcMessage& message) {
        authorizeRequests_->OnIpcEvent(message);
        presence_->OnIpcEvent(message);
      });
}

ClientCore::~ClientCore() {
  Destroy();
}

void ClientCore::Destroy() noexcept {
  if (destroyed_) return;
  destroyed_ = true;
  // 1. Operations that end from now on report ClientDestroyed, and RunCallbacks delivers nothing more.
  api_.BeginShutdown();
  // 2. Stop the network side and wait until it holds nothing of ours: every in-flight operation's Completion
  //    is then either queued or dropped (which queues ClientDestroyed).
  ipc_->Shutdown();
  messages_->Shutdown();  // its queued sends end before the HTTP client stops
  voice_->Shutdown();     // the calls' voice gateways and the voice thread, while the network thread runs
  gateway_->Shutdown();   // before the HTTP client, whose GET /gateway it may be waiting for
  voiceStatuses_->Shutdown();  // after the gateway: no CHANNEL_INFO or send ends its fetches any more
  authorizer_->Shutdown();
  // 3. Stop the HTTP client, complete everything queued with ClientDestroyed here on the destroying thread,
  //    and join our network thread (or let go of the shared context).
  api_.FinishShutdown();
}

namespace {
constexpr auto kExpiryWarning = std::chrono::minutes(5);
int64_t EpochMs(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}
}  // namespace

void ClientCore::SetApplicationId(uint64_t applicationId) {
  Runtime().applicationId.store(applicationId);
  authorizeRequests_->Resume();
}

void ClientCore::UpdateToken(AuthorizationTokenType type, std::string token, UpdateTokenCallback callback) {
  auto completion = MakeCompletion<>(std::move(callback));
  if (Destroying()) return;  // dropping the completion reports ClientDestroyed
  if (token.empty())
    return completion(ClientResult::Failure(ErrorType::ValidationError, "token: must not be empty"));
  Log().Secrets().AddSecret(token);
  std::optional<core::Credentials> previous = Runtime().credentials.Get();
  core::Credentials credentials = Runtime().credentials.Set(type, std::move(token));
  // A connected session identifies again with the new token (a no-op while not connected).
  if (previous && (previous->token != credentials.token || previous->type != credentials.type) &&
      !Destroying()) {
    gateway_->Reidentify();
  }
  // A new token gets its own warning, once.
  expiryWarnAtMs_.store(
      credentials.expiresAt ? std::max<int64_t>(EpochMs(*credentials.expiresAt - kExpiryWarning), 1) : 0);
  completion({});
}

void ClientCore::Connect() {
  if (Destroying()) return;
  if (!Runtime().credentials.Get()) {
    // Nothing to identify with: the status stays Disconnected and the callback says why.
    Runtime().Log().Error("Connect: no token; call UpdateToken first");
    OnGatewayStatus(Client::Status::Disconnected, Client::Error::ConnectionFailed,
                    gateway::kErrorDetailNoToken);
    return;
  }
  gateway_->Connect();
}

void ClientCore::Disconnect() {
  if (!Destroying()) gateway_->Disconnect();
}

void ClientCore::SetStatusChangedCallback(Client::StatusChangedCallback callback) {
  statusCallback_.Set(std::move(callback));
}

std::string ClientCore::ReadyUserJson() const {
  std::lock_guard lock(readyMutex_);
  return readyUserJson_;
}

void ClientCore::OnGatewayStatus(Client::Status status, Client::Error error, int32_t errorDetail) {
  // (GetStatus already says `status`: the connection publishes it before calling this.)
  statusCallback_.Post(Runtime().Queue(), status, error, errorDetail);
}

void ClientCore::SetTokenExpirationCallback(std::function<void()> callback) {
  expirationCallback_.Set(std::move(callback));
}

void ClientCore::CheckTokenExpiry() {
  int64_t warnAt = expiryWarnAtMs_.load(std::memory_order_relaxed);
  if (warnAt == 0 || EpochMs(Runtime().Now()) < warnAt) return;
  if (!expiryWarnAtMs_.compare_exchange_strong(warnAt, 0)) return;
  Runtime().Log().Info("the Client's token expires in less than 5 minutes");
  expirationCallback_.Post(Runtime().Queue());
}

void ClientCore::RunCallbacks() {
  if (!api_.Destroying()) CheckTokenExpiry();
  api_.RunCallbacks();
}

bool ClientCore::WaitForCallbacks(std::chrono::milliseconds timeout) {
  return api_.WaitForCallbacks(timeout);
}

}  // namespace platformpp::client
