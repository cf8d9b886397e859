// platformpp::backend::InteractionsEndpoint: the interactions endpoint on the backend endpoints' shared
// server (endpoint_server.hpp). Each verified interaction crosses to the user's thread through the callback
// queue with a responder; the responder's answer crosses back to the waiting HTTP reply, or, once the
// endpoint has deferred at the deadline, goes through the BackendClient as the edit of the original response.
#include "backend/endpoint_server.hpp"
#include "backend/interaction_json.hpp"
#include "backend/request_signature.hpp"
#include "core/callback_queue.hpp"
#include "core/io_context_access.hpp"
#include "core/logger.hpp"
#include "core/validation_result.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/interactions_endpoint.hpp>
#include <platformpp/io_context.hpp>

#include <algorithm>
#include <mutex>
#include <utility>

namespace platformpp::backend {
namespace {

bool IsHex(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

ClientResult Failure(ErrorType type, std::string why) {
  return ClientResult::Failure(type, "interactions: " + std::move(why));
}

// What the exchanges of one run of the endpoint (Start to Stop) share with it.
struct Link {
  // Kept alive while any responder lives: its HTTP reply holds an executor of this context.
  std::shared_ptr<IoContext> io;
  std::shared_ptr<core::CallbackQueue> queue;
  std::shared_ptr<core::Logger> logger;
  std::shared_ptr<BackendClient> backend;
  std::function<std::chrono::system_clock::time_point()> clock;
  bool autoDefer = true;
  bool deferEphemeral = false;

  // Cleared by Stop: from then on no HTTP reply is given (the server and its connections are gone).
  std::mutex mutex;
  bool open = true;

  std::chrono::system_clock::time_point Now() const {
    return clock ? clock() : std::chrono::system_clock::now();
  }
};

// The user's interaction callback, read on the user's thread when an interaction is delivered.
class Delivery {
 public:
  void Set(InteractionsEndpoint::InteractionCallback callback) {
    auto next = std::make_shared<InteractionsEndpoint::InteractionCallback>(std::move(callback));
    std::shared_ptr<InteractionsEndpoint::InteractionCallback> previous;
    {
      std::lock_guard lock(mutex_);
      previous = std::exchange(callback_, std::move(next));
    }
  }
  std::shared_ptr<InteractionsEndpoint::InteractionCallback> Get() const {
    std::lock_guard lock(mutex_);
    return callback_;
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<InteractionsEndpoint::InteractionCallback> callback_;
};

const char* CallbackName(InteractionCallbackType type) {
  switch (type) {
    case InteractionCallbackType::Pong:
      return "PONG";
    case InteractionCallbackType::ChannelMessageWithSource:
      return "CHANNEL_MESSAGE_WITH_SOURCE";
    case InteractionCallbackType::DeferredChannelMessageWithSource:
      return "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE";
    case InteractionCallbackType::DeferredUpdateMessage:
      return "DEFERRED_UPDATE_MESSAGE";
    case InteractionCallbackType::UpdateMessage:
      return "UPDATE_MESSAGE";
    case InteractionCallbackType::ApplicationCommandAutocompleteResult:
      return "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT";
    case InteractionCallbackType::Modal:
      return "MODAL";
    case InteractionCallbackType::PremiumRequired:
      return "PREMIUM_REQUIRED";
    case InteractionCallbackType::LaunchActivity:
      return "LAUNCH_ACTIVITY";
  }
  return "an unknown callback type";
}

// What the endpoint answers at the deadline: components keep their message (DEFERRED_UPDATE_MESSAGE), an
// autocomplete (which cannot be deferred) gets no suggestion, everything else "thinking".
InteractionResponse DeferralFor(InteractionType type, bool ephemeral) {
  switch (type) {
    case InteractionType::MessageComponent:
      return InteractionResponse::DeferredUpdate();
    case InteractionType::Autocomplete:
      return InteractionResponse::Autocomplete({});
    default:
      return InteractionResponse::Deferred(ephemeral);
  }
}

}  // namespace

class InteractionResponder::State {
 public:
  enum class Stage { Open, Deferred, Answered, Expired };

  State(Interaction interaction, std::shared_ptr<Link> link, endpoint::Reply reply)
      : interaction_(std::move(interaction)),
        receivedAt_(link->Now()),
        link_(std::move(link)),
        reply_(std::move(reply)) {}

  const Interaction& GetInteraction() const noexcept { return interaction_; }

  bool Answered() const {
    std::lock_guard lock(mutex_);
    return stage_ == Stage::Answered || stage_ == Stage::Deferred;
  }
  bool Deferred() const {
    std::lock_guard lock(mutex_);
    return deferral_.has_value();
  }

  // The deadline (network thread): defer, or with autoDefer off give up with a 500.
  void OnDeadline() {
    std::lock_guard lock(mutex_);
    if (stage_ != Stage::Open) return;
    if (!link_->autoDefer) {
      stage_ = Stage::Expired;
      link_->logger->Warning("interactions: interaction " + std::to_string(interaction_.id) +
                             " was not answered within 3 seconds; answered 500");
      SendReply(endpoint::Answer{500, {}, {}});
      return;
    }
    deferral_ = DeferralFor(interaction_.type, link_->deferEphemeral);
    stage_ = Stage::Deferred;
    link_->logger->Info("interactions: interaction " + std::to_string(interaction_.id) +
                        " not answered in time; the endpoint answered " + CallbackName(deferral_->type));
    EncodedBody body = InteractionResponseBody(*deferral_);
    SendReply(endpoint::Answer{200, std::move(body.body), std::move(body.contentType)});
  }

  void Respond(InteractionResponse response, DoneCallback done) {
    auto errors = CheckInteractionResponse(
        response, interaction_.type, interaction_.attachmentSizeLimit.value_or(kDefaultAttachmentSizeLimit));
    if (!errors.empty()) return Finish(std::move(done), core::ValidationResult(std::move(errors)));
    std::unique_lock lock(mutex_);
    {
      std::lock_guard linkLock(link_->mutex);
      if (!link_->open)
        return Finish(std::move(done), Failure(ErrorType::ClientDestroyed, "the endpoint was stopped"));
    }
    if (link_->Now() - receivedAt_ >= kInteractionTokenLifetime) {
      return Finish(
          std::move(done),
          Failure(ErrorType::ValidationError,
                  "the interaction's token expired (15 minutes after the interaction): no answer is "
                  "possible any more"));
    }
    switch (stage_) {
      case Stage::Open:
        return AnswerInline(std::move(response), std::move(done));
      case Stage::Deferred:
        return AnswerLate(std::move(response), std::move(done));
      case Stage::Answered:
        return Finish(std::move(done), Failure(ErrorType::ValidationError,
                                               "the interaction was already answered; send follow-ups with "
                                               "BackendClient::CreateFollowup"));
      case Stage::Expired:
        return Finish(std::move(done), Failure(ErrorType::ValidationError,
                                               "the 3-second deadline of the initial response passed"));
    }
  }

 private:
  // While the HTTP reply is open (mutex_ held).
  void AnswerInline(InteractionResponse response, DoneCallback done) {
    const bool files = response.message && !response.message->files.empty();
    if (!files) {
      stage_ = Stage::Answered;
      EncodedBody body = InteractionResponseBody(response);
      SendReply(endpoint::Answer{200, std::move(body.body), std::move(body.contentType)});
      return Finish(std::move(done), {});
    }
    // Files go as multipart through the callback route; the HTTP request is then answered 202 with no body,
    // as the platform asks.
    if (!link_->backend)
      return Finish(std::move(done), Failure(ErrorType::ClientNotReady,
                                             "a response with files needs the BackendClient of the options"));
    stage_ = Stage::Answered;
    link_->backend->CreateInteractionResponse(interaction_.id, interaction_.token, response,
                                              Forward(std::move(done)));
    SendReply(endpoint::Answer{202, {}, {}});
  }

  // After the endpoint deferred (mutex_ held).
  void AnswerLate(InteractionResponse response, DoneCallback done) {
    using C = InteractionCallbackType;
    const bool message = response.type == C::ChannelMessageWithSource || response.type == C::UpdateMessage;
    if (!message) {
      const bool deferral = deferral_->type == C::DeferredChannelMessageWithSource ||
                            deferral_->type == C::DeferredUpdateMessage;
      if (deferral && response.type == deferral_->type) {
        stage_ = Stage::Answered;
        return Finish(std::move(done), {});  // what the endpoint already answered
      }
      return Finish(std::move(done),
                    Failure(ErrorType::ValidationError,
                            std::string("the endpoint answered ") + CallbackName(deferral_->type) +
                                " at the deadline; " + CallbackName(response.type) +
                                " can no longer be sent (a message can)"));
    }
    if (!link_->backend)
      return Finish(std::move(done),
                    Failure(ErrorType::ClientNotReady,
                            "the endpoint deferred at the deadline; a late message needs the "
                            "BackendClient of the options"));
    const bool followup =
        deferral_->type == C::DeferredUpdateMessage && response.type == C::ChannelMessageWithSource;
    // An edit cannot make the public "thinking" message ephemeral: a message meant for the user alone is not
    // shown to the channel instead.
    const auto ephemeral = [](const std::optional<MessagePayload>& payload) {
      return payload && (payload->flags.value_or(0) & message_flags::Ephemeral) != 0;
    };
    if (!followup && ephemeral(response.message) && !ephemeral(deferral_->message)) {
      return Finish(
          std::move(done),
          Failure(ErrorType::ValidationError,
                  "the endpoint deferred publicly at the deadline; an ephemeral message can no longer "
                  "be the response (send it with BackendClient::CreateFollowup, or set deferEphemeral)"));
    }
    stage_ = Stage::Answered;
    auto forward = Forward(std::move(done));
    auto ended = [forward = std::move(forward)](ClientResult result, const ChannelMessage&) {
      forward(std::move(result));
    };
    // After DEFERRED_UPDATE_MESSAGE, @original is the component's message: a new message is a follow-up.
    if (followup)
      link_->backend->CreateFollowup(interaction_.token, *response.message, std::move(ended));
    else
      link_->backend->EditOriginalResponse(interaction_.token, *response.message, std::move(ended));
  }

  // Takes the reply's one use (state mutex held).
  void SendReply(endpoint::Answer answer) {
    std::lock_guard linkLock(link_->mutex);
    if (!link_->open || !reply_) return;
    auto reply = std::exchange(reply_, nullptr);
    reply(std::move(answer));
  }

  // `done` with `result`, inside the endpoint's RunCallbacks.
  void Finish(DoneCallback done, ClientResult result) {
    if (!result.Successful())
      link_->logger->Warning("interactions: an answer to interaction " + std::to_string(interaction_.id) +
                             " was refused: " + result.Error());
    if (!done) return;
    link_->queue->Push([done = std::move(done), result = std::move(result)](core::CallbackMode mode) {
      if (mode == core::CallbackMode::Deliver) done(result);
    });
  }

  // The BackendClient's end of a late answer, handed on to the endpoint's queue (BackendClient's callbacks
  // run in its own RunCallbacks).
  std::function<void(ClientResult)> Forward(DoneCallback done) {
    return [queue = link_->queue, done = std::move(done)](ClientResult result) mutable {
      if (!done) return;
      queue->Push([done = std::move(done), result = std::move(result)](core::CallbackMode mode) {
        if (mode == core::CallbackMode::Deliver) done(result);
      });
    };
  }

  const Interaction interaction_;
  const std::chrono::system_clock::time_point receivedAt_;
  std::shared_ptr<Link> link_;
  mutable std::mutex mutex_;
  Stage stage_ = Stage::Open;
  std::optional<InteractionResponse> deferral_;
  endpoint::Reply reply_;
};

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

  void RunCallbacks() {
    if (io_->Pumped()) core::IoContextAccess::Get(*io_).poll();
    queue_->Drain();
  }

  bool WaitForCallbacks(std::chrono::milliseconds timeout) {
    bool ready = false;
    if (io_->Pumped()) {
      auto deadline = std::chrono::steady_clock::now() + timeout;
      auto& io = core::IoContextAccess::Get(*io_);
      while (!(ready = queue_->HasPending()) && std::chrono::steady_clock::now() < deadline)
        io.run_one_until(deadline);
    } else {
      ready = queue_->Wait(timeout);
    }
    queue_->Drain();
    return ready;
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
