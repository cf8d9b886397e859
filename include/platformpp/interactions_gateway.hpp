#pragma once
// platformpp::backend::InteractionsGateway: the other way the platform delivers interactions. An application
// without an interactions endpoint URL receives them as INTERACTION_CREATE on its bot's Gateway session; this
// class holds that session (with the BackendClient's API base, TLS settings and bot token) and hands each
// interaction to the game's callback with the same InteractionResponder as InteractionsEndpoint. The initial
// answer goes to the callback route (POST /interactions/{id}/{token}/callback: the platform takes no answer
// over the Gateway); when the game has not answered after `deferAfter`, the session answers a deferred
// response itself, and a later message edits the original response.
//
//   auto backend = std::make_shared<BackendClient>(backendOptions);
//   InteractionsGatewayOptions options;
//   options.backend = backend;
//   InteractionsGateway gateway(options);
//   gateway.SetInteractionCallback([](const Interaction& interaction, InteractionResponder responder) {
//     responder.Respond(InteractionResponse::Message(MessagePayload::Text("pong")));
//   });
//   gateway.Connect();
//   for (;;) {                               // a thread of its own, or the server's main loop
//     gateway.WaitForCallbacks(50);
//     backend->RunCallbacks();
//   }

#include <platformpp/client_result.hpp>
#include <platformpp/client_status.hpp>
#include <platformpp/guild_automod.hpp>
#include <platformpp/interactions_endpoint.hpp>
#include <platformpp/logging.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace platformpp::backend {

class BackendClient;

/// Settings of an InteractionsGateway.
struct InteractionsGatewayOptions {
  /// Required: the session's API base, TLS settings and bot token are its; answers go through it. Pump its
  /// RunCallbacks too (late answers end through it).
  std::shared_ptr<BackendClient> backend;
  /// The Gateway intents Identify asks for. Interactions need none; GUILDS (1 << 0) by default, so that the
  /// session also hears of the guilds the bot is in.
  int64_t intents = 1;
  /// Answer a deferred response when the game has not answered this long after the interaction arrived.
  std::chrono::milliseconds deferAfter{2500};
  /// The session's own deferral of commands and modal submissions is ephemeral.
  bool deferEphemeral = false;
  /// False: the session never defers; an interaction left unanswered for 3 seconds fails (the platform shows
  /// the user a failure) and a later Respond fails.
  bool autoDefer = true;
};

/// Interactions over the bot's Gateway session. Threading as InteractionsEndpoint: the interaction callback,
/// the status callback, log callbacks and Respond's ends run only inside RunCallbacks or WaitForCallbacks.
class InteractionsGateway {
 public:
  /// Receives each interaction, once.
  using InteractionCallback = InteractionsEndpoint::InteractionCallback;
  /// Each change of the session's status (Ready once the bot's READY came), with the error when it stopped.
  using StatusCallback = std::function<void(ClientStatus status, ClientError error, int32_t errorDetail)>;

  /// Creates the session; it connects only once Connect is called.
  explicit InteractionsGateway(InteractionsGatewayOptions options);
  /// Disconnects; calls no callback.
  ~InteractionsGateway();
  InteractionsGateway(const InteractionsGateway&) = delete;
  InteractionsGateway& operator=(const InteractionsGateway&) = delete;

  /// Replaces the interaction callback (any thread). Interactions delivered while none is set are logged and
  /// left unanswered.
  void SetInteractionCallback(InteractionCallback callback);
  /// Replaces the status callback (any thread).
  void SetStatusCallback(StatusCallback callback);
  /// Adds a log sink; messages at `minSeverity` and above reach `callback` inside RunCallbacks.
  void AddLogCallback(LogCallback callback, LoggingSeverity minSeverity);

  /// Receives every other event of the bot's session, in the order it came: its name (`t`: "READY",
  /// "GUILD_MEMBER_ADD", "GUILD_AUDIT_LOG_ENTRY_CREATE", ...) and its data (`d`) as JSON text. Which events
  /// come is the intents' choice (InteractionsGatewayOptions::intents).
  using EventCallback = std::function<void(const std::string& name, const std::string& dataJson)>;
  /// Receives each AUTO_MODERATION_ACTION_EXECUTION, read (needs the AUTO_MODERATION_EXECUTION intent,
  /// 1 << 21, and MANAGE_GUILD in the guild). The event also reaches the EventCallback, right after this one
  /// in the same RunCallbacks.
  using AutoModActionCallback = std::function<void(const AutoModActionExecution& execution)>;
  /// Replaces the event callback (any thread); events that come while none is set are dropped.
  void SetEventCallback(EventCallback callback);
  /// Replaces the AutoMod action callback (any thread); an event that cannot be read is logged and dropped.
  void SetAutoModActionCallback(AutoModActionCallback callback);

  /// Opens the bot's Gateway session (GET /gateway, Identify with the bot token) and keeps it up, resuming
  /// after drops as Clients do. ValidationError without a BackendClient or with a bad `deferAfter`.
  ClientResult Connect();
  /// Closes the session; interactions already queued are still delivered by RunCallbacks.
  void Disconnect();
  /// The session's status (any thread).
  ClientStatus Status() const noexcept;

  /// Delivers the interactions, status changes and log messages queued so far, on the calling thread.
  void RunCallbacks();
  /// Waits until something is queued or the timeout passes, then delivers it; true when something was.
  bool WaitForCallbacks(int32_t timeoutMilliseconds);

 private:
  friend class BackendAccess;
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp::backend
