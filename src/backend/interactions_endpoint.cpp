// platformpp::backend::InteractionsEndpoint: the interactions endpoint on the backend endpoints' shared
// server (endpoint_server.hpp). Each verified interaction crosses to the user's thread through the callback
// queue with a responder; the responder's answer crosses back to the waiting HTTP reply, or, once the
// endpoint has deferred at the deadline, goes through the BackendClient as the edit of the original response.
#include "backend/backend_access.hpp"
#include "backend/endpoint_server.hpp"
#include "backend/interaction_json.hpp"
#include "backend/interaction_responder_state.hpp"
#include "backend/request_signature.hpp"
#include "core/callback_pump.hpp"
#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "core/validation_result.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/interactions_endpoint.hpp>
#include <platformpp/io_context.hpp>

#include <algorithm>
#include <mutex>
#include <utility>

namespace platformpp::backend {

using responder::Delivery;
using responder::Failure;
using responder::IsHex;
using responder::Link;

InteractionResponder::InteractionResponder() = default;
InteractionResponder::~InteractionResponder() = default;
InteractionResponder::InteractionResponder(const InteractionResponder&) = default;
InteractionResponder& InteractionResponder::operator=(const InteractionResponder&) = default;
InteractionResponder::InteractionResponder(InteractionResponder&&) noexcept = default;
InteractionResponder& InteractionResponder::operator=(InteractionResponder&&) noexcept = default;
InteractionResponder::InteractionResponder(std::shared_ptr<State> state) : state_(std::move(state)) {}

const Interaction& InteractionResponder::GetInteraction() const noexcept {
  static const Interaction kNone;
  return state_ ? state_->GetInteraction() : kNone;
}

void InteractionResponder::Respond(InteractionResponse response, DoneCallback done) {
  if (!state_) {
    // No endpoint to queue on: the one place an end runs at once.
    if (done) done(Failure(ErrorType::ValidationError, "an empty responder answers nothing"));
    return;
  }
  state_->Respond(std::move(response), std::move(done));
}

bool InteractionResponder::Answered() const noexcept {
  return state_ && state_->Answered();
}

bool InteractionResponder::Deferred() const noexcept {
  return state_ && state_->Deferred();
}

InteractionVerification VerifyInteraction(std::string_view publicKeyHex, std::string_view signatureHex,
                                          std::string_view timestampHeader, std::string_view body,
                                          std::chrono::system_clock::time_point now,
                                          std::chrono::seconds maxAge) {
  InteractionVerification verdict;
  if (auto refused = CheckRequestSignature(publicKeyHex, signatureHex, timestampHeader, body, now, maxAge)) {
    verdict.status = 401;
    verdict.error = std::move(*refused);
    return verdict;
  }
  verdict.interaction = ParseInteraction(body);
  if (!verdict.interaction) {
    verdict.status = 400;
    verdict.error = "the body is not an interaction";
    return verdict;
  }
  verdict.status = 200;
  return verdict;
}

class InteractionsEndpoint::Impl {
 public:
  explicit Impl(InteractionsEndpointOptions options)
      : options_(std::move(options)),
        io_(options_.ioContext ? options_.ioContext : std::make_shared<IoContext>(1)),
        queue_(std::make_shared<core::CallbackQueue>()),
        logger_(std::make_shared<core::Logger>(queue_)),
        delivery_(std::make_shared<Delivery>()) {}

  ~Impl() {
    Stop();
    queue_->BeginShutdown();
    queue_->Shutdown();
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  ClientResult Start() {
    if (server_.Running()) return {};
    if (options_.publicKeyHex.size() != 64 || !IsHex(options_.publicKeyHex))
      return Failure(ErrorType::ValidationError, "publicKeyHex: must be 64 hex digits");
    if (options_.autoDefer && (options_.deferAfter <= std::chrono::milliseconds(0) ||
                               options_.deferAfter >= kInteractionResponseDeadline))
      return Failure(ErrorType::ValidationError, "deferAfter: must be between 0 and 3000 ms, both excluded");
    auto link = std::make_shared<Link>();
    link->io = io_;
    link->queue = queue_;
    link->logger = logger_;
    link->backend = options_.backend;
    link->clock = options_.clock;
    link->autoDefer = options_.autoDefer;
    link->deferEphemeral = options_.deferEphemeral;
    const auto deadline = options_.autoDefer ? options_.deferAfter : kInteractionResponseDeadline;
    ClientResult started =
        server_.Start(Settings(options_),
                      [link, delivery = delivery_, key = options_.publicKeyHex, maxAge = options_.maxAge,
                       deadline](const endpoint::SignedRequest& request, endpoint::Reply reply) {
                        return Handle(link, delivery, key, maxAge, deadline, request, std::move(reply));
                      });
    if (started.Successful()) link_ = std::move(link);
    return started;
  }

  void Stop() {
    if (link_) {
      std::lock_guard lock(link_->mutex);
      link_->open = false;
    }
    link_.reset();
    server_.Stop();
  }

  void RunCallbacks() { core::PollAndDrain(io_.get(), queue_, *logger_); }

  bool WaitForCallbacks(std::chrono::milliseconds timeout) {
    return core::WaitAndDrain(io_.get(), queue_, *logger_, timeout);
  }

  InteractionsEndpointOptions options_;
  std::shared_ptr<IoContext> io_;
  std::shared_ptr<core::CallbackQueue> queue_;
  std::shared_ptr<core::Logger> logger_;
  std::shared_ptr<Delivery> delivery_;
  std::shared_ptr<Link> link_;
  endpoint::Server server_{io_, logger_};

 private:
  static endpoint::ServerSettings Settings(const InteractionsEndpointOptions& options) {
    endpoint::ServerSettings settings;
    settings.name = "interactions";
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

  // A POST to the path (network thread): verified, PING answered, an interaction queued for the game with
  // the deadline at which the state answers by itself.
  static std::optional<endpoint::Deadline> Handle(const std::shared_ptr<Link>& link,
                                                  const std::shared_ptr<Delivery>& delivery,
                                                  const std::string& key, std::chrono::seconds maxAge,
                                                  std::chrono::milliseconds deadline,
                                                  const endpoint::SignedRequest& request,
                                                  endpoint::Reply reply) {
    if (!request.signature || !request.timestamp) {
      link->logger->Warning("interactions: a request without its signature headers, refused (401)");
      reply(endpoint::Answer{401, {}, {}});
      return std::nullopt;
    }
    InteractionVerification verdict =
        VerifyInteraction(key, *request.signature, *request.timestamp, request.body, link->Now(), maxAge);
    if (verdict.status != 200 || !verdict.interaction) {
      link->logger->Warning("interactions: request refused (" + std::to_string(verdict.status) +
                            "): " + verdict.error);
      reply(endpoint::Answer{verdict.status, {}, {}});
      return std::nullopt;
    }
    if (verdict.interaction->type == InteractionType::Ping) {
      reply(endpoint::Answer{200, std::string(kPongBody), "application/json"});
      return std::nullopt;
    }
    // The token goes into the logger's secrets only by shape (routes and "token" fields): each interaction's
    // would grow the list for ever.
    auto state = std::make_shared<InteractionResponder::State>(std::move(*verdict.interaction), link,
                                                               std::move(reply));
    link->queue->Push([delivery, logger = link->logger, state](core::CallbackMode mode) {
      if (mode != core::CallbackMode::Deliver) return;
      auto callback = delivery->Get();
      if (!callback || !*callback) {
        logger->Warning("interactions: interaction " + std::to_string(state->GetInteraction().id) +
                        " received with no interaction callback set");
        return;
      }
      (*callback)(state->GetInteraction(), InteractionResponder(state));
    });
    return endpoint::Deadline{deadline, [state] { state->OnDeadline(); }};
  }
};

InteractionsEndpoint::InteractionsEndpoint(InteractionsEndpointOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

InteractionsEndpoint::~InteractionsEndpoint() = default;

std::shared_ptr<core::Logger> BackendAccess::LoggerOf(const InteractionsEndpoint& endpoint) noexcept {
  return endpoint.impl_->logger_;
}

void InteractionsEndpoint::SetInteractionCallback(InteractionCallback callback) {
  impl_->delivery_->Set(std::move(callback));
}

void InteractionsEndpoint::AddLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
  impl_->logger_->AddCallback(std::move(callback), minSeverity);
}

ClientResult InteractionsEndpoint::Start() {
  return impl_->Start();
}

void InteractionsEndpoint::Stop() {
  impl_->Stop();
}

bool InteractionsEndpoint::Running() const noexcept {
  return impl_->server_.Running();
}

uint16_t InteractionsEndpoint::Port() const noexcept {
  return impl_->server_.Port();
}

void InteractionsEndpoint::RunCallbacks() {
  impl_->RunCallbacks();
}

bool InteractionsEndpoint::WaitForCallbacks(int32_t timeoutMilliseconds) {
  return impl_->WaitForCallbacks(std::chrono::milliseconds(std::max(timeoutMilliseconds, 0)));
}

}  // namespace platformpp::backend
