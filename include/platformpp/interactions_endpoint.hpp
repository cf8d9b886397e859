#pragma once
// platformpp::backend::InteractionsEndpoint: an embeddable HTTP(S) server for the application's interactions
// endpoint URL, beside WebhookEvents (webhook_events.hpp) and built on the same server. The platform signs
// every POST with the application's Ed25519 key, as it signs webhook events (X-Signature-Ed25519 over
// X-Signature-Timestamp followed by the body); the endpoint checks it, answers PING itself, and hands each
// other interaction to the game's callback with an InteractionResponder that answers it in the HTTP reply.
//
// The platform waits 3 seconds for that answer. If the game has not answered by `deferAfter` (2.5 s by
// default), the endpoint answers a deferred response itself (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE for
// commands and modal submissions, DEFERRED_UPDATE_MESSAGE for components), and a later Respond with a message
// edits the original response through the BackendClient of the options. For servers with an HTTP stack of
// their own, VerifyInteraction is the check alone.
//
//   InteractionsEndpointOptions options;
//   options.publicKeyHex = "...";                 // the application's public key
//   options.port = 8443;
//   options.backend = std::make_shared<BackendClient>(backendOptions);
//   InteractionsEndpoint endpoint(options);
//   endpoint.SetInteractionCallback([](const Interaction& interaction, InteractionResponder responder) {
//     if (const auto* command = interaction.Command(); command && command->name == "stats")
//       responder.Respond(InteractionResponse::Message(MessagePayload::Text("Level 12")));
//     else if (const auto* modal = interaction.Modal(); modal && modal->Find("name"))
//       responder.Respond(InteractionResponse::Message(MessagePayload::Text("Thanks, " +
//                                                                           *modal->Find("name")->value)));
//   });
//   endpoint.Start();
//   for (;;) {                                    // a thread of its own, or the server's main loop
//     endpoint.WaitForCallbacks(50);
//     options.backend->RunCallbacks();
//   }

#include <platformpp/client_result.hpp>
#include <platformpp/interactions.hpp>
#include <platformpp/logging.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp {
class IoContext;
}

namespace platformpp::backend {

class BackendClient;

/// The outcome of VerifyInteraction: what to answer, and the interaction when there is one.
struct InteractionVerification {
  /// 200 for a PING (answer `pongBody`) or an interaction to answer, 401 when the signature or timestamp is
  /// refused, 400 for a signed body that is not an interaction.
  int status = 401;
  /// The interaction, when status is 200.
  std::optional<Interaction> interaction;
  /// Why the request was refused (never the body, never the key).
  std::string error;
};

/// The answer to a PING: `{"type":1}`.
inline constexpr std::string_view kPongBody = R"({"type":1})";

/// Checks the signature with the application's public key (64 hex digits), refuses a timestamp more than
/// `maxAge` away from `now` either way, then parses the body with ParseInteraction.
InteractionVerification VerifyInteraction(
    std::string_view publicKeyHex, std::string_view signatureHex, std::string_view timestampHeader,
    std::string_view body, std::chrono::system_clock::time_point now = std::chrono::system_clock::now(),
    std::chrono::seconds maxAge = std::chrono::minutes(5));

/// How long the platform waits for the initial response.
inline constexpr std::chrono::milliseconds kInteractionResponseDeadline{3000};
/// How long an interaction's token is valid.
inline constexpr std::chrono::minutes kInteractionTokenLifetime{15};

/// Settings of an InteractionsEndpoint.
struct InteractionsEndpointOptions {
  /// The application's public key (64 hex digits, from the developer portal).
  std::string publicKeyHex;
  /// Where to listen. Loopback by default: put the game server's reverse proxy in front, or give the address
  /// of an interface to be reached directly.
  std::string address = "127.0.0.1";
  /// 0: any free port (read it back with Port()).
  uint16_t port = 0;
  /// The path the platform POSTs to (the interactions endpoint URL's path); other paths are answered 404.
  std::string path = "/";
  /// HTTPS when both are set: PEM files of the certificate chain (leaf first) and of its private key.
  std::string tlsCertificateChainFile;
  /// PEM file of the certificate's private key; give it with `tlsCertificateChainFile` or not at all.
  std::string tlsPrivateKeyFile;
  /// Share network threads with Clients or BackendClients; null gives the endpoint a thread of its own.
  std::shared_ptr<IoContext> ioContext;
  /// Larger bodies are answered 413. Interactions are a few KiB.
  std::size_t maxBodyBytes = std::size_t{1024} * 1024;
  /// Each request must arrive within this time; a keep-alive connection idle this long is closed.
  std::chrono::milliseconds requestTimeout{10000};
  /// Connections open at once; more are closed at accept.
  std::size_t maxConnections = 64;
  /// Requests whose X-Signature-Timestamp is further from now, either way, are refused (401) as replays.
  std::chrono::seconds maxAge{300};
  /// Answer a deferred response when the game has not answered this long after the interaction arrived
  /// (under the platform's 3 seconds, with room for the network).
  std::chrono::milliseconds deferAfter{2500};
  /// The endpoint's own deferral of commands and modal submissions is ephemeral: only the user sees
  /// "thinking" and the message that follows. A public deferral refuses a late ephemeral message (an edit
  /// cannot hide what the channel sees).
  bool deferEphemeral = false;
  /// False: the endpoint never defers; an interaction left unanswered at the 3-second deadline is answered
  /// 500 (the platform shows the user a failure) and a later Respond fails.
  bool autoDefer = true;
  /// What a late Respond goes through (the original response's edit, the callback route for files). Without
  /// one, a Respond after the endpoint deferred, or with files, fails with ClientNotReady. Pump its
  /// RunCallbacks too: such an answer's end reaches the endpoint's queue through it.
  std::shared_ptr<BackendClient> backend;
  /// The endpoint's clock (tests): timestamps and the 15-minute token lifetime; null: the system clock.
  std::function<std::chrono::system_clock::time_point()> clock;
};

/// The answer to one interaction, given once. Copies share it. Respond may be called from any thread, during
/// the interaction callback or later (the game may finish its work first). After Stop it fails with
/// ClientDestroyed; once the endpoint is destroyed it answers nothing and its end never runs.
class InteractionResponder {
 public:
  /// The end of Respond: success, or why the answer was refused. Runs inside the endpoint's RunCallbacks or
  /// WaitForCallbacks.
  using DoneCallback = std::function<void(ClientResult result)>;

  /// An empty responder: Respond fails with ValidationError.
  InteractionResponder();
  ~InteractionResponder();
  /// A copy shares the answer: whichever copy responds first answers.
  InteractionResponder(const InteractionResponder&);
  /// Shares `other`'s answer.
  InteractionResponder& operator=(const InteractionResponder&);
  /// Takes `other`'s share of the answer.
  InteractionResponder(InteractionResponder&&) noexcept;
  /// Takes `other`'s share of the answer.
  InteractionResponder& operator=(InteractionResponder&&) noexcept;

  /// The interaction to answer (a default one for an empty responder).
  const Interaction& GetInteraction() const noexcept;

  /// Answers the interaction: in the HTTP reply while it is open; after the endpoint deferred, a message
  /// (ChannelMessageWithSource or UpdateMessage) becomes the edit of the original response, a deferral of the
  /// same kind succeeds as a no-op and anything else fails. Checked first with CheckInteractionResponse
  /// against the interaction's type (ValidationError; the responder stays unanswered). A second answer fails
  /// (follow-ups go through BackendClient::CreateFollowup), as does any after the 15-minute token lifetime,
  /// or after the 3-second deadline with `autoDefer` off.
  void Respond(InteractionResponse response, DoneCallback done = {});
  /// True once an answer was accepted (the game's, or the endpoint's own deferral).
  bool Answered() const noexcept;
  /// True when the endpoint deferred the interaction itself.
  bool Deferred() const noexcept;

  /// The shared answer state (the endpoint's internals).
  class State;
  /// Used by the endpoint.
  explicit InteractionResponder(std::shared_ptr<State> state);

 private:
  std::shared_ptr<State> state_;
};

/// The interactions endpoint. Threading as WebhookEvents: the interaction callback, like log callbacks and
/// Respond's ends, runs only inside RunCallbacks or WaitForCallbacks on the calling thread. A game server
/// typically gives it a thread of its own that loops on WaitForCallbacks, and must pump it often: the
/// 3-second deadline counts from the request's arrival, not from the callback.
class InteractionsEndpoint {
 public:
  /// Receives each verified interaction (not PINGs), once.
  using InteractionCallback =
      std::function<void(const Interaction& interaction, InteractionResponder responder)>;

  /// Creates the endpoint; it listens only once Start succeeds.
  explicit InteractionsEndpoint(InteractionsEndpointOptions options);
  /// Stops listening; interactions not yet delivered are dropped. Responders still held answer nothing from
  /// then on, and their ends never run (no RunCallbacks is left to run them).
  ~InteractionsEndpoint();
  InteractionsEndpoint(const InteractionsEndpoint&) = delete;
  InteractionsEndpoint& operator=(const InteractionsEndpoint&) = delete;

  /// Replaces the interaction callback (any thread). An interaction arriving while none is set is left to the
  /// deadline (deferred, or 500 without `autoDefer`).
  void SetInteractionCallback(InteractionCallback callback);
  /// Adds a log sink; messages at `minSeverity` and above reach `callback` inside RunCallbacks and
  /// WaitForCallbacks. Interaction tokens never appear in them.
  void AddLogCallback(LogCallback callback, LoggingSeverity minSeverity);

  /// Binds and starts accepting. ValidationError for a bad key, path, margin or TLS file; NetworkError when
  /// the address cannot be bound. Starting a running endpoint does nothing and succeeds.
  ClientResult Start();
  /// Closes the listener and every connection (unanswered HTTP replies are dropped) and waits until the
  /// network side holds nothing of them. Start may follow.
  void Stop();
  /// True between a successful Start and Stop.
  bool Running() const noexcept;
  /// The port listened on; 0 when not running.
  uint16_t Port() const noexcept;

  /// Delivers the interactions, Respond ends and log messages queued so far, on the calling thread. Never
  /// blocks.
  void RunCallbacks();
  /// Waits until something is queued or the timeout passes, then delivers it; true when something was.
  bool WaitForCallbacks(int32_t timeoutMilliseconds);

 private:
  friend class BackendAccess;
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp::backend
