// platformpp::backend::WebhookEvents: the webhook events endpoint. Its HTTP(S) server is the backend
// endpoints' shared one (endpoint_server.hpp); this file verifies each request and queues the events, which
// cross to the user's thread through the callback queue, as everywhere in the SDK.
#include "backend/backend_access.hpp"
#include "backend/endpoint_server.hpp"
#include "backend/interaction_responder_state.hpp"
#include "backend/webhook_delivered_ids.hpp"
#include "core/callback_pump.hpp"
#include "core/callback_queue.hpp"
#include "core/logger.hpp"

#include <platformpp/io_context.hpp>
#include <platformpp/webhook_events.hpp>

#include <algorithm>
#include <mutex>
#include <utility>

namespace platformpp::backend {
namespace {

// The user's event callback, read on the user's thread when an event is delivered.
class EventDelivery {
 public:
  void Set(WebhookEvents::EventCallback callback) {
    auto next = std::make_shared<WebhookEvents::EventCallback>(std::move(callback));
    std::shared_ptr<WebhookEvents::EventCallback> previous;
    {
      std::lock_guard lock(mutex_);
      previous = std::exchange(callback_, std::move(next));
    }
    // Released outside the lock: what the old callback holds (a C caller's user_data) may call back in.
  }
  std::shared_ptr<WebhookEvents::EventCallback> Get() const {
    std::lock_guard lock(mutex_);
    return callback_;
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<WebhookEvents::EventCallback> callback_;
};

// What the handler shares with the WebhookEvents that started it, and keeps across Stop and Start.
struct Shared {
  WebhookEventsOptions options;
  std::shared_ptr<core::CallbackQueue> queue;
  std::shared_ptr<core::Logger> logger;
  std::shared_ptr<EventDelivery> delivery;
  std::shared_ptr<WebhookDeliveredIds> delivered;

  std::chrono::system_clock::time_point Now() const {
    return options.clock ? options.clock() : std::chrono::system_clock::now();
  }
};

// A POST to the path (on the network thread): verified, and its event queued once per event id.
int Handle(const Shared& shared, const endpoint::SignedRequest& request) {
  const WebhookEventsOptions& options = shared.options;
  if (!request.signature || !request.timestamp) {
    shared.logger->Warning("webhook events: a request without its signature headers, refused (401)");
    return 401;
  }
  const auto now = shared.Now();
  WebhookVerification verdict = VerifyWebhookEvent(options.publicKeyHex, *request.signature,
                                                   *request.timestamp, request.body, now, options.maxAge);
  if (verdict.status != 204 || !verdict.event) {
    shared.logger->Warning("webhook events: request refused (" + std::to_string(verdict.status) +
                           "): " + verdict.error);
    return verdict.status;
  }
  WebhookEvent& event = *verdict.event;
  if (event.type == WebhookEvent::Type::Ping) return 204;
  if (!shared.delivered->FirstTime(event.eventId, now)) {
    shared.logger->Info("webhook events: " + event.eventType + " " + event.eventId +
                        " delivered before; this retry is acknowledged only");
    return 204;
  }
  shared.queue->Push([delivery = shared.delivery, logger = shared.logger,
                      event = std::move(event)](core::CallbackMode mode) {
    if (mode != core::CallbackMode::Deliver) return;
    auto callback = delivery->Get();
    if (!callback || !*callback) {
      logger->Warning("webhook events: " + event.eventType + " received with no event callback set");
      return;
    }
    (*callback)(event);
  });
  return 204;
}

}  // namespace

class WebhookEvents::Impl {
 public:
  explicit Impl(WebhookEventsOptions options)
      : options_(std::move(options)),
        io_(options_.ioContext ? options_.ioContext : std::make_shared<IoContext>(1)),
        queue_(std::make_shared<core::CallbackQueue>()),
        logger_(std::make_shared<core::Logger>(queue_)),
        delivery_(std::make_shared<EventDelivery>()),
        delivered_(
            std::make_shared<WebhookDeliveredIds>(options_.deliveredMemory, options_.deliveredCapacity)) {}

  ~Impl() {
    Stop();
    queue_->BeginShutdown();
    queue_->Shutdown();
  }

  ClientResult Start() {
    if (server_.Running()) return {};
    if (options_.publicKeyHex.size() != 64 || !responder::IsHex(options_.publicKeyHex))
      return Invalid("publicKeyHex: must be 64 hex digits");
    auto shared = std::make_shared<Shared>();
    shared->options = options_;
    shared->options.ioContext.reset();  // the network side must not own the context it runs on
    shared->queue = queue_;
    shared->logger = logger_;
    shared->delivery = delivery_;
    shared->delivered = delivered_;
    return server_.Start(Settings(options_),
                         [shared = std::shared_ptr<const Shared>(std::move(shared))](
                             const endpoint::SignedRequest& request,
                             const endpoint::Reply& reply) -> std::optional<endpoint::Deadline> {
                           reply(endpoint::Answer{Handle(*shared, request), {}, {}});
                           return std::nullopt;
                         });
  }

  void Stop() { server_.Stop(); }

  void RunCallbacks() { core::PollAndDrain(io_.get(), queue_, *logger_); }

  bool WaitForCallbacks(std::chrono::milliseconds timeout) {
    return core::WaitAndDrain(io_.get(), queue_, *logger_, timeout);
  }

  WebhookEventsOptions options_;
  std::shared_ptr<IoContext> io_;
  std::shared_ptr<core::CallbackQueue> queue_;
  std::shared_ptr<core::Logger> logger_;
  std::shared_ptr<EventDelivery> delivery_;
  std::shared_ptr<WebhookDeliveredIds> delivered_;
  endpoint::Server server_{io_, logger_};

 private:
  static ClientResult Invalid(std::string why) {
    return ClientResult::Failure(ErrorType::ValidationError, "webhook events: " + std::move(why));
  }
  static endpoint::ServerSettings Settings(const WebhookEventsOptions& options) {
    endpoint::ServerSettings settings;
    settings.name = "webhook events";
    settings.address = options.address;
    settings.port = options.port;
    settings.path = options.path;
    settings.tlsCertificateChainFile = options.tlsCertificateChainFile;
    settings.tlsPrivateKeyFile = options.tlsPrivateKeyFile;
    settings.maxBodyBytes = options.maxBodyBytes;
    settings.requestTimeout = options.requestTimeout;
    settings.maxConnections = options.maxConnections;
    return settings;
  }
};

WebhookEvents::WebhookEvents(WebhookEventsOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

WebhookEvents::~WebhookEvents() = default;

std::shared_ptr<core::Logger> BackendAccess::LoggerOf(const WebhookEvents& events) noexcept {
  return events.impl_->logger_;
}

void WebhookEvents::SetEventCallback(EventCallback callback) {
  impl_->delivery_->Set(std::move(callback));
}

void WebhookEvents::AddLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
  impl_->logger_->AddCallback(std::move(callback), minSeverity);
}

ClientResult WebhookEvents::Start() {
  return impl_->Start();
}

void WebhookEvents::Stop() {
  impl_->Stop();
}

bool WebhookEvents::Running() const noexcept {
  return impl_->server_.Running();
}

uint16_t WebhookEvents::Port() const noexcept {
  return impl_->server_.Port();
}

void WebhookEvents::RunCallbacks() {
  impl_->RunCallbacks();
}

bool WebhookEvents::WaitForCallbacks(int32_t timeoutMilliseconds) {
  return impl_->WaitForCallbacks(std::chrono::milliseconds(std::max(timeoutMilliseconds, 0)));
}

}  // namespace platformpp::backend
