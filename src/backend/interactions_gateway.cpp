// platformpp::backend::InteractionsGateway: the bot's Gateway session (gateway/gateway_connection.hpp) on
// the BackendClient's network context, with its API base, TLS settings and bot token. Each INTERACTION_CREATE
// becomes the same responder state as an endpoint's request (interaction_responder_state.hpp); its initial
// answer, which an endpoint would put in the HTTP reply, is POSTed to the callback route instead.
#include "api/api_session.hpp"
#include "backend/backend_access.hpp"
#include "backend/interaction_responder_state.hpp"
#include "core/callback_pump.hpp"
#include "core/retry_timer.hpp"
#include "gateway/gateway_connection.hpp"

#include <platformpp/interactions_gateway.hpp>

#include <atomic>
#include <mutex>
#include <utility>

namespace platformpp::backend {

class InteractionsGateway::Impl {
 public:
  explicit Impl(InteractionsGatewayOptions options)
      : options_(std::move(options)),
        queue_(std::make_shared<core::CallbackQueue>()),
        logger_(std::make_shared<core::Logger>(queue_)),
        delivery_(std::make_shared<responder::Delivery>()) {}

  ~Impl() {
    Shutdown();
    queue_->BeginShutdown();
    queue_->Shutdown();
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  ClientResult Connect() {
    if (!options_.backend) return responder::Failure(ErrorType::ValidationError, "backend: required");
    if (options_.autoDefer && (options_.deferAfter <= std::chrono::milliseconds(0) ||
                               options_.deferAfter >= kInteractionResponseDeadline))
      return responder::Failure(ErrorType::ValidationError,
                                "deferAfter: must be between 0 and 3000 ms, both excluded");
    api::ApiSession* session = BackendAccess::SessionOf(*options_.backend);
    if (session == nullptr)
      return responder::Failure(ErrorType::ClientDestroyed, "the BackendClient is gone");
    if (!gateway_) Build(*session);
    gateway_->Connect();
    return {};
  }

  void Disconnect() {
    if (gateway_) gateway_->Disconnect();
  }

  void Shutdown() {
    if (link_) {
      std::lock_guard lock(link_->mutex);
      link_->open = false;
    }
    if (gateway_) gateway_->Shutdown();
    if (timer_) timer_->Shutdown();
  }

  ClientStatus Status() const noexcept {
    return gateway_ ? gateway_->CurrentStatus() : ClientStatus::Disconnected;
  }

  void RunCallbacks() { core::PollAndDrain(io_, queue_, *logger_); }

  bool WaitForCallbacks(std::chrono::milliseconds timeout) {
    return core::WaitAndDrain(io_, queue_, *logger_, timeout);
  }

  void SetStatusCallback(StatusCallback callback) {
    std::lock_guard lock(statusMutex_);
    statusCallback_ = std::make_shared<StatusCallback>(std::move(callback));
  }

  InteractionsGatewayOptions options_;
  std::shared_ptr<core::CallbackQueue> queue_;
  std::shared_ptr<core::Logger> logger_;
  std::shared_ptr<responder::Delivery> delivery_;

 private:
  void Build(api::ApiSession& session) {
    auto& runtime = session.Runtime();
    io_ = &runtime.Io();
    auto link = std::make_shared<responder::Link>();
    link->queue = queue_;
    link->logger = logger_;
    link->backend = options_.backend;
    link->autoDefer = options_.autoDefer;
    link->deferEphemeral = options_.deferEphemeral;
    link_ = link;
    timer_ = std::make_unique<core::RetryTimer>(*io_);

    gateway::GatewayOptions gatewayOptions;
    gatewayOptions.apiBase = runtime.Options().apiBase;
    gatewayOptions.caFile = runtime.Options().caFile;
    gatewayOptions.useSystemCertificates = runtime.Options().useSystemCertificates;
    gatewayOptions.intents = options_.intents;
    // A bot identifies with its token as it is (a user's session sends "Bearer ...").
    gatewayOptions.token = [token = BackendAccess::BotTokenOf(*options_.backend)] { return token; };
    gateway_ = std::make_unique<gateway::GatewayConnection>(*io_, logger_, session.Http(), gatewayOptions);
    gateway_->SetStatusHandler([this](ClientStatus status, ClientError error, int32_t detail) {
      std::shared_ptr<StatusCallback> callback;
      {
        std::lock_guard lock(statusMutex_);
        callback = statusCallback_;
      }
      if (!callback || !*callback) return;
      queue_->Push([callback, status, error, detail](core::CallbackMode mode) {
        if (mode == core::CallbackMode::Deliver) (*callback)(status, error, detail);
      });
    });
    gateway_->SetDispatchSink([this, &session](const gateway::Dispatch& dispatch) {
      if (dispatch.type == "INTERACTION_CREATE") {
        OnInteraction(session, std::string(dispatch.dataJson));
        return;
      }
      OnEvent(std::string(dispatch.type), std::string(dispatch.dataJson));
    });
  }

  // On the network thread: the event to the game's callbacks, queued for RunCallbacks. The callbacks are
  // read when delivered, so a callback replaced meanwhile gets what is still queued. The typed callback and
  // the raw one share one queued entry: a game never sees one of them for an event without the other.
  void OnEvent(std::string name, std::string json) {
    std::optional<AutoModActionExecution> execution;
    if (name == "AUTO_MODERATION_ACTION_EXECUTION") {
      execution = ParseAutoModActionExecution(json);
      if (!execution)
        logger_->Warning("gateway: an AUTO_MODERATION_ACTION_EXECUTION that cannot be read, dropped");
    }
    queue_->Push([sinks = sinks_, execution = std::move(execution), name = std::move(name),
                  json = std::move(json)](core::CallbackMode mode) {
      if (mode != core::CallbackMode::Deliver) return;
      if (execution) {
        auto typed = sinks->Load(sinks->autoMod);
        if (typed && *typed) (*typed)(*execution);
      }
      auto raw = sinks->Load(sinks->event);
      if (raw && *raw) (*raw)(name, json);
    });
  }

  // On the network thread: the interaction to the game, its initial answer to the callback route.
  void OnInteraction(api::ApiSession& session, const std::string& json) {
    auto interaction = ParseInteraction(json);
    if (!interaction || interaction->type == InteractionType::Ping) {
      logger_->Warning("interactions: an INTERACTION_CREATE that is not an interaction, ignored");
      return;
    }
    const auto id = interaction->id;
    const auto token = interaction->token;
    auto logger = logger_;
    endpoint::Reply reply = [&session, id, token, logger](endpoint::Answer answer) {
      // 202: the answer went through the callback route already (files); a 500 (no deferral at the
      // deadline) has nothing to send: the platform fails the interaction by itself.
      if (answer.status != 200 || answer.body.empty()) return;
      api::ApiRequest request("POST", "/interactions/" + std::to_string(id) + "/" + token + "/callback",
                              std::move(answer.body));
      request.contentType = std::move(answer.contentType);
      request.anonymous = true;
      session.Perform(
          [logger, id](const ClientResult& result) {
            if (!result.Successful())
              logger->Warning("interactions: the answer to interaction " + std::to_string(id) +
                              " was refused: " + result.Error());
          },
          std::move(request));
    };
    auto state =
        std::make_shared<InteractionResponder::State>(std::move(*interaction), link_, std::move(reply));
    queue_->Push([delivery = delivery_, logger, state](core::CallbackMode mode) {
      if (mode != core::CallbackMode::Deliver) return;
      auto callback = delivery->Get();
      if (!callback || !*callback) {
        logger->Warning("interactions: interaction " + std::to_string(state->GetInteraction().id) +
                        " received with no interaction callback set");
        return;
      }
      (*callback)(state->GetInteraction(), InteractionResponder(state));
    });
    const auto deadline = options_.autoDefer ? options_.deferAfter : kInteractionResponseDeadline;
    timer_->After(deadline, [state] { state->OnDeadline(); });
  }

  IoContext* io_ = nullptr;
  std::shared_ptr<responder::Link> link_;
  std::unique_ptr<core::RetryTimer> timer_;
  std::unique_ptr<gateway::GatewayConnection> gateway_;
  std::mutex statusMutex_;
  std::shared_ptr<StatusCallback> statusCallback_;

 public:
  // The game's event callbacks, replaced from any thread and read when an event is delivered.
  struct EventSinks {
    std::mutex mutex;
    std::shared_ptr<EventCallback> event;
    std::shared_ptr<AutoModActionCallback> autoMod;

    template <typename Callback>
    std::shared_ptr<Callback> Load(const std::shared_ptr<Callback>& slot) {
      std::lock_guard lock(mutex);
      return slot;
    }
  };
  std::shared_ptr<EventSinks> sinks_ = std::make_shared<EventSinks>();
};

InteractionsGateway::InteractionsGateway(InteractionsGatewayOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

InteractionsGateway::~InteractionsGateway() = default;

std::shared_ptr<core::Logger> BackendAccess::LoggerOf(const InteractionsGateway& gateway) noexcept {
  return gateway.impl_->logger_;
}

void InteractionsGateway::SetInteractionCallback(InteractionCallback callback) {
  impl_->delivery_->Set(std::move(callback));
}

void InteractionsGateway::SetStatusCallback(StatusCallback callback) {
  impl_->SetStatusCallback(std::move(callback));
}

void InteractionsGateway::SetEventCallback(EventCallback callback) {
  auto shared = std::make_shared<EventCallback>(std::move(callback));
  std::lock_guard lock(impl_->sinks_->mutex);
  impl_->sinks_->event = std::move(shared);
}

void InteractionsGateway::SetAutoModActionCallback(AutoModActionCallback callback) {
  auto shared = std::make_shared<AutoModActionCallback>(std::move(callback));
  std::lock_guard lock(impl_->sinks_->mutex);
  impl_->sinks_->autoMod = std::move(shared);
}

void InteractionsGateway::AddLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
  impl_->logger_->AddCallback(std::move(callback), minSeverity);
}

ClientResult InteractionsGateway::Connect() {
  return impl_->Connect();
}

void InteractionsGateway::Disconnect() {
  impl_->Disconnect();
}

ClientStatus InteractionsGateway::Status() const noexcept {
  return impl_->Status();
}

void InteractionsGateway::RunCallbacks() {
  impl_->RunCallbacks();
}

bool InteractionsGateway::WaitForCallbacks(int32_t timeoutMilliseconds) {
  return impl_->WaitForCallbacks(std::chrono::milliseconds(std::max(timeoutMilliseconds, 0)));
}

}  // namespace platformpp::backend
