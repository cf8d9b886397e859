#pragma once
// platformpp::backend::VerifyWebhookEvent: what a game server does with each POST the platform sends to its
// application's webhook events URL, for servers with an HTTP stack of their own. The platform signs every
// request with the application's Ed25519 key: `X-Signature-Ed25519` (hex) over `X-Signature-Timestamp` (Unix
// seconds) followed by the raw body. A request that fails the check is answered 401 and nothing in it is
// believed; a PING is answered 204 (the platform's check that the URL is live); an event is parsed into one
// of the typed structs below. platformpp::backend::WebhookEvents, further down, is the ready-made endpoint
// built on it.

#include <platformpp/client_result.hpp>
#include <platformpp/lobby.hpp>
#include <platformpp/logging.hpp>
#include <platformpp/premium.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace platformpp {
class IoContext;
}

namespace platformpp::backend {

/// A user object inside an event (the one who authorized, deauthorized or wrote).
struct WebhookUser {
  /// The user's id (`id`; never 0: an event whose user has none is not typed).
  uint64_t id = 0;
  /// `username`; empty when absent.
  std::string username;
  /// Empty when the user has none.
  std::string globalName;
  /// The whole user object as JSON text, for the fields not read here.
  std::string rawJson;
};

/// APPLICATION_AUTHORIZED: the application was installed to a user's account or a guild.
struct ApplicationAuthorized {
  /// 0 guild install, 1 user install; absent when the platform leaves it out.
  std::optional<int32_t> integrationType;
  /// The user who authorized the application (`user`).
  WebhookUser user;
  /// The scopes granted (`scopes`); empty when absent.
  std::vector<std::string> scopes;
  /// The guild, for a guild install.
  std::optional<uint64_t> guildId;
};

/// APPLICATION_DEAUTHORIZED: the user unlinked their account or revoked the application in any way. Their
/// tokens are gone: treat it as a refresh failing with invalid_grant.
struct ApplicationDeauthorized {
  /// The user who deauthorized the application (`user`).
  WebhookUser user;
};

/// ENTITLEMENT_CREATE: an entitlement was granted (a purchase, a test entitlement, a migration). Read exactly
/// as the SDK reads entitlements everywhere else (premium.hpp: ids, owner, type, times in Unix milliseconds),
/// so the game server and the game client agree on it; an object it cannot read whole (no `application_id`,
/// a timestamp that is not ISO 8601, ...) arrives as an UnknownWebhookEvent with its raw data.
struct EntitlementCreate {
  /// The entitlement granted, read from the event's `data`.
  Entitlement entitlement;
  /// The whole entitlement object as JSON text, for the fields Entitlement does not hold (fulfillment,
  /// gifter, parent).
  std::string rawJson;
};

/// QUEST_USER_ENROLLMENT: a user joined a Quest (the platform does not send it to applications yet).
struct QuestUserEnrollment {
  /// The event's `data` as JSON text (no field of it is read).
  std::string rawJson;
};

/// A message in a lobby (or its linked channel), as LOBBY_MESSAGE_CREATE / UPDATE carry it.
struct WebhookLobbyMessage {
  /// The message's id (`id`).
  uint64_t id = 0;
  /// The lobby it was sent in (`lobby_id`).
  uint64_t lobbyId = 0;
  /// `channel_id`; 0 when absent.
  uint64_t channelId = 0;
  /// The message type (`type`); 0 when absent or out of range.
  int32_t type = 0;
  /// The message's text (`content`); empty when absent.
  std::string content;
  /// Who wrote it (`author`).
  WebhookUser author;
  /// The message's metadata (`metadata`); empty when absent or not a well-formed metadata object.
  Metadata metadata;
  /// The message flags (`flags`); 0 when absent.
  uint64_t flags = 0;
  /// The application it was sent through (`application_id`); unset when absent.
  std::optional<uint64_t> applicationId;
  /// ISO 8601, on updates.
  std::optional<std::string> editedTimestamp;
  /// The whole message object as JSON text, for the fields not read here (e.g. `moderation_metadata`).
  std::string rawJson;
};

/// A direct message sent while a player is in a Social SDK session (GAME_DIRECT_MESSAGE_CREATE / UPDATE).
struct WebhookDirectMessage {
  /// The message's id (`id`).
  uint64_t id = 0;
  /// `channel_id`, or the id of the `channel` object when only that is sent.
  uint64_t channelId = 0;
  /// The message type (`type`); 0 when absent or out of range.
  int32_t type = 0;
  /// The message's text (`content`); empty when absent.
  std::string content;
  /// Who wrote it (`author`).
  WebhookUser author;
  /// The message flags (`flags`); 0 when absent.
  uint64_t flags = 0;
  /// The application it was sent through (`application_id`); unset when absent.
  std::optional<uint64_t> applicationId;
  /// Set for messages of a lobby's linked channel.
  std::optional<uint64_t> lobbyId;
  /// When it was last edited (`edited_timestamp`, ISO 8601, as sent); unset when absent.
  std::optional<std::string> editedTimestamp;
  /// The whole message object as JSON text, for the fields not read here.
  std::string rawJson;
};

/// LOBBY_MESSAGE_CREATE: a message was sent in a lobby.
struct LobbyMessageCreate {
  /// The new message.
  WebhookLobbyMessage message;
};
/// LOBBY_MESSAGE_UPDATE: a lobby message changed (e.g. it was given moderation metadata).
struct LobbyMessageUpdate {
  /// The message as it now is.
  WebhookLobbyMessage message;
};
/// LOBBY_MESSAGE_DELETE: a lobby message was deleted.
struct LobbyMessageDelete {
  /// The deleted message's id (`id`).
  uint64_t id = 0;
  /// The lobby it was in (`lobby_id`).
  uint64_t lobbyId = 0;
};
/// GAME_DIRECT_MESSAGE_CREATE: a direct message was sent.
struct GameDirectMessageCreate {
  /// The new message.
  WebhookDirectMessage message;
};
/// GAME_DIRECT_MESSAGE_UPDATE: a direct message changed (edited, or given moderation metadata).
struct GameDirectMessageUpdate {
  /// The message as it now is.
  WebhookDirectMessage message;
};
/// GAME_DIRECT_MESSAGE_DELETE: a direct message was deleted. The platform sends the whole message, the
/// emulator `{id, channel_id}`: both are read.
struct GameDirectMessageDelete {
  /// The deleted message's id (`id`).
  uint64_t id = 0;
  /// Its channel: `channel_id`, or the id of the `channel` object when only that is sent.
  uint64_t channelId = 0;
  /// The event's `data` as JSON text, for the fields not read here.
  std::string rawJson;
};

/// An event this version does not know, or a known one whose data lacks a field the typed struct needs (the
/// request was signed, so it is still delivered rather than refused): WebhookEvent::eventType names it.
struct UnknownWebhookEvent {
  /// The event's `data` as JSON text; empty when it had none.
  std::string rawJson;
};

/// An event's data, typed by the event's name; UnknownWebhookEvent when it is not one of the others.
using WebhookEventData =
    std::variant<UnknownWebhookEvent, ApplicationAuthorized, ApplicationDeauthorized, EntitlementCreate,
                 QuestUserEnrollment, LobbyMessageCreate, LobbyMessageUpdate, LobbyMessageDelete,
                 GameDirectMessageCreate, GameDirectMessageUpdate, GameDirectMessageDelete>;

/// One verified webhook request: `{version, application_id, type, event?: {type, timestamp, data?}}`.
struct WebhookEvent {
  /// What the request is (its top-level `type`).
  enum class Type : int32_t { Ping = 0, Event = 1 };
  /// \var Ping
  /// The platform's check that the URL is live: no event.
  /// \var Event
  /// An event: `eventType` and `eventId` are set, `timestamp` and the data as sent.

  /// Whether the request is a PING or an event.
  Type type = Type::Ping;
  /// The application the request is for (`application_id`).
  uint64_t applicationId = 0;
  /// The event's name ("APPLICATION_AUTHORIZED", "APPLICATION_DEAUTHORIZED", "ENTITLEMENT_CREATE", ...);
  /// empty for a PING.
  std::string eventType;
  /// When the event happened (ISO 8601, as sent).
  std::string timestamp;
  /// The event's `data` object as JSON text; empty when the event has none.
  std::string dataJson;
  /// The event, typed (UnknownWebhookEvent for a PING).
  WebhookEventData data;
  /// What identifies the event across the platform's retries (the envelope carries no id): 64 hex digits of
  /// SHA-256 over the event's type, timestamp and compact data, joined by newlines. Empty for a PING.
  std::string eventId;
};

/// The outcome of VerifyWebhookEvent: what to answer, and the event when there is one.
struct WebhookVerification {
  /// What to answer the platform: 204 for a PING or an accepted event, 401 when the signature or timestamp is
  /// refused, 400 for a signed body that is not a webhook event.
  int status = 401;
  /// The event, when status is 204.
  std::optional<WebhookEvent> event;
  /// Why the request was refused (never the body, never the key).
  std::string error;
};

/// Checks the signature with the application's public key (64 hex digits, from the developer portal), refuses
/// a timestamp more than `maxAge` away from `now` either way (a replayed request), then parses the body.
WebhookVerification VerifyWebhookEvent(
    std::string_view publicKeyHex, std::string_view signatureHex, std::string_view timestampHeader,
    std::string_view body, std::chrono::system_clock::time_point now = std::chrono::system_clock::now(),
    std::chrono::seconds maxAge = std::chrono::minutes(5));

/// The typed form of an event's data (`dataJson` of an event named `eventType`), for events stored and read
/// back later. Never fails: what cannot be typed is an UnknownWebhookEvent.
WebhookEventData ParseWebhookEventData(std::string_view eventType, std::string_view dataJson);

/// Settings of a WebhookEvents endpoint.
struct WebhookEventsOptions {
  /// The application's public key (64 hex digits, from the developer portal).
  std::string publicKeyHex;
  /// Where to listen. Loopback by default: put the game server's reverse proxy in front, or give the
  /// address of an interface to be reached directly.
  std::string address = "127.0.0.1";
  /// 0: any free port (read it back with Port()).
  uint16_t port = 0;
  /// The path the platform POSTs to (the webhook events URL's path); other paths are answered 404.
  std::string path = "/";
  /// HTTPS when both are set: PEM files of the certificate chain (leaf first) and of its private key.
  std::string tlsCertificateChainFile;
  /// PEM file of the certificate's private key; give it with `tlsCertificateChainFile` or not at all.
  std::string tlsPrivateKeyFile;
  /// Share network threads with Clients or BackendClients; null gives the endpoint a thread of its own. A
  /// threadless IoContext is pumped by RunCallbacks and WaitForCallbacks.
  std::shared_ptr<IoContext> ioContext;
  /// Larger bodies are answered 413 and the connection closed. The platform's events are a few KiB.
  std::size_t maxBodyBytes = std::size_t{1024} * 1024;
  /// Each request (headers and body) must arrive within this time, and a keep-alive connection idle this
  /// long is closed: a slow or silent client holds nothing for longer.
  std::chrono::milliseconds requestTimeout{10000};
  /// Connections open at once; more are closed at accept.
  std::size_t maxConnections = 64;
  /// Requests whose X-Signature-Timestamp is further from now, either way, are refused (401) as replays.
  std::chrono::seconds maxAge{300};
  /// Event ids delivered are remembered this long, and at most this many (the oldest are forgotten first).
  std::chrono::seconds deliveredMemory{3600};
  /// How many delivered event ids are remembered at most (see `deliveredMemory`).
  std::size_t deliveredCapacity = 10000;
  /// The receiver's clock (tests); null: the system clock.
  std::function<std::chrono::system_clock::time_point()> clock;
};

/// An embeddable HTTP(S) endpoint for the application's webhook events URL: every request is checked with
/// VerifyWebhookEvent. PING: 204. Bad signature, missing headers or stale timestamp: 401, nothing delivered.
/// A signed body that is not an event: 400. An event: 204, and delivered once per event id (see
/// WebhookEvent::eventId) even when the platform retries it.
///
/// Threading: the event callback, like log callbacks, runs only inside RunCallbacks or WaitForCallbacks, on
/// the calling thread, as everywhere in the SDK. A game server typically gives the endpoint a thread of its
/// own that loops on WaitForCallbacks; or pumps it from its main loop. The platform is answered 204 as soon
/// as an event is verified and queued, not after the callback ran: an event still queued when the
/// WebhookEvents is destroyed is lost (Stop keeps the queue: RunCallbacks still delivers what was accepted).
class WebhookEvents {
 public:
  /// Receives each verified event once, inside RunCallbacks or WaitForCallbacks.
  using EventCallback = std::function<void(const WebhookEvent& event)>;

  /// Creates the endpoint with `options`; it listens only once Start succeeds. Without `options.ioContext`
  /// it starts a network thread of its own.
  explicit WebhookEvents(WebhookEventsOptions options);
  /// Stops listening and drops events not yet delivered; calls no callback.
  ~WebhookEvents();
  WebhookEvents(const WebhookEvents&) = delete;
  WebhookEvents& operator=(const WebhookEvents&) = delete;

  /// Replaces the event callback (any thread). Events delivered while none is set are dropped (and logged).
  void SetEventCallback(EventCallback callback);
  /// Adds a log sink; messages at `minSeverity` and above reach `callback` inside RunCallbacks and
  /// WaitForCallbacks.
  void AddLogCallback(LogCallback callback, LoggingSeverity minSeverity);

  /// Binds and starts accepting. ValidationError for a bad key, path or TLS file; NetworkError when the
  /// address cannot be bound. Starting a running endpoint does nothing and succeeds.
  ClientResult Start();
  /// Closes the listener and every connection and waits until the network side holds nothing of them (not on
  /// a network thread). Start may follow: the ids already delivered are still remembered.
  void Stop();
  /// True between a successful Start and Stop (any thread).
  bool Running() const noexcept;
  /// The port listened on (the ephemeral one when `port` was 0); 0 when not running.
  uint16_t Port() const noexcept;

  /// Delivers the events and log messages queued so far, on the calling thread. Never blocks.
  void RunCallbacks();
  /// Waits until something is queued or the timeout passes, then delivers it; true when something was.
  bool WaitForCallbacks(int32_t timeoutMilliseconds);

 private:
  friend class BackendAccess;
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp::backend
