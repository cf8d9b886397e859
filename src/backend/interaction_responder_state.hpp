#pragma once
// The answer to one interaction, shared by the transports that deliver interactions: the interactions
// endpoint (the answer goes in the HTTP reply) and the bot's Gateway session (it goes to the callback route).
// Each transport gives the state a Reply for the initial answer and a Link to the user's thread; the state
// enforces what the platform does: one initial answer, the 3-second deadline (the transport's timer calls
// OnDeadline, which defers or gives up), then late messages through the BackendClient, and the 15-minute
// token.
#include "backend/endpoint_server.hpp"
#include "backend/interaction_json.hpp"
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
namespace responder {

inline bool IsHex(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

inline ClientResult Failure(ErrorType type, std::string why) {
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

inline const char* CallbackName(InteractionCallbackType type) {
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
inline InteractionResponse DeferralFor(InteractionType type, bool ephemeral) {
  switch (type) {
    case InteractionType::MessageComponent:
      return InteractionResponse::DeferredUpdate();
    case InteractionType::Autocomplete:
      return InteractionResponse::Autocomplete({});
    default:
      return InteractionResponse::Deferred(ephemeral);
  }
}

}  // namespace responder

class InteractionResponder::State {
 public:
  enum class Stage { Open, Deferred, Answered, Expired };

  State(Interaction interaction, std::shared_ptr<responder::Link> link, endpoint::Reply reply)
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
    deferral_ = responder::DeferralFor(interaction_.type, link_->deferEphemeral);
    stage_ = Stage::Deferred;
    link_->logger->Info("interactions: interaction " + std::to_string(interaction_.id) +
                        " not answered in time; the endpoint answered " +
                        responder::CallbackName(deferral_->type));
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
        return Finish(std::move(done),
                      responder::Failure(ErrorType::ClientDestroyed, "the endpoint was stopped"));
    }
    if (link_->Now() - receivedAt_ >= kInteractionTokenLifetime) {
      return Finish(std::move(done),
                    responder::Failure(
                        ErrorType::ValidationError,
                        "the interaction's token expired (15 minutes after the interaction): no answer is "
                        "possible any more"));
    }
    switch (stage_) {
      case Stage::Open:
        return AnswerInline(std::move(response), std::move(done));
      case Stage::Deferred:
        return AnswerLate(std::move(response), std::move(done));
      case Stage::Answered:
        return Finish(std::move(done),
                      responder::Failure(ErrorType::ValidationError,
                                         "the interaction was already answered; send follow-ups with "
                                         "BackendClient::CreateFollowup"));
      case Stage::Expired:
        return Finish(std::move(done),
                      responder::Failure(ErrorType::ValidationError,
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
      return Finish(std::move(done),
                    responder::Failure(ErrorType::ClientNotReady,
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
                    responder::Failure(ErrorType::ValidationError,
                                       std::string("the endpoint answered ") +
                                           responder::CallbackName(deferral_->type) + " at the deadline; " +
                                           responder::CallbackName(response.type) +
                                           " can no longer be sent (a message can)"));
    }
    if (!link_->backend)
      return Finish(std::move(done),
                    responder::Failure(ErrorType::ClientNotReady,
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
          responder::Failure(
              ErrorType::ValidationError,
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
  std::shared_ptr<responder::Link> link_;
  mutable std::mutex mutex_;
  Stage stage_ = Stage::Open;
  std::optional<InteractionResponse> deferral_;
  endpoint::Reply reply_;
};

}  // namespace platformpp::backend
