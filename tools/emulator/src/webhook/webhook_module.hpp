// Webhook events (webhook/, docs/premium-protocol.md "Webhook events sent by the emulator"): each
// application's webhook events URL (admin PUT and GET /_emulator/applications/{app}/webhook-events), and the
// outbox of signed deliveries. Other modules call emit() when an event happens; the server's WebhookClient
// (a WebhookTransport) POSTs what this module hands it, and the module retries on real time.
//
// Kept in the state file (webhook_documents.cpp, the kinds below): each application's configuration (one
// exists only once its URL answered the PING), every event delivery, pending or finished, with its attempts
// (a pending one is retried after a restart, at its next try time or at once if that has passed; one in
// flight when the emulator stopped is kept as pending, its attempt marked interrupted), and the next delivery
// id. Not kept: a PING still in flight (the admin PUT waiting for it cannot outlive the process) and
// drop_answers (fault injection: test set-up, like fault scripts).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/service_context.hpp"
#include "webhook/webhook_transport.hpp"
#include "webhook/webhook_url.hpp"

namespace platformpp::emulator {

namespace document_kind {
inline constexpr std::string_view kWebhookConfig = "webhook_config";      // id: the application id
inline constexpr std::string_view kWebhookDelivery = "webhook_delivery";  // id: the delivery id (decimal)
inline constexpr std::string_view kWebhookOutbox = "webhook_outbox";      // the next delivery id
inline constexpr std::string_view kWebhookOutboxId = "counters";
}  // namespace document_kind

// The event names the emulator knows (a webhook events config may filter on them).
namespace webhook_event {
inline constexpr std::string_view kApplicationAuthorized = "APPLICATION_AUTHORIZED";
inline constexpr std::string_view kApplicationDeauthorized = "APPLICATION_DEAUTHORIZED";
inline constexpr std::string_view kQuestUserEnrollment = "QUEST_USER_ENROLLMENT";
inline constexpr std::string_view kLobbyMessageCreate = "LOBBY_MESSAGE_CREATE";
inline constexpr std::string_view kLobbyMessageUpdate = "LOBBY_MESSAGE_UPDATE";
inline constexpr std::string_view kLobbyMessageDelete = "LOBBY_MESSAGE_DELETE";
inline constexpr std::string_view kGameDirectMessageCreate = "GAME_DIRECT_MESSAGE_CREATE";
inline constexpr std::string_view kGameDirectMessageUpdate = "GAME_DIRECT_MESSAGE_UPDATE";
inline constexpr std::string_view kGameDirectMessageDelete = "GAME_DIRECT_MESSAGE_DELETE";
// The URL check's event type (not one a config may filter on).
inline constexpr std::string_view kPing = "PING";
}  // namespace webhook_event

// One application's webhook events URL, accepted after it answered the PING with 204.
struct WebhookConfig {
  WebhookUrl url;
  std::optional<std::set<std::string, std::less<>>> event_types;  // none: every event
  std::int64_t retry_base_ms = 1000;
  std::optional<std::string> ca_file;
  // Fault injection: the answers to the next this many event POSTs are lost, as if the connection dropped
  // after the game server had the request, so the emulator retries an event the server already has.
  std::int64_t drop_answers = 0;
};

struct WebhookAttempt {
  std::int64_t sent_at_ms = 0;      // real wall-clock time
  std::string signature_timestamp;  // the X-Signature-Timestamp sent
  std::optional<int> status;        // the answer's, when one came
  std::string error;                // why it failed; empty on success or while in flight
};

// One event (or a PING) on its way to an application's URL: the body is made once, each attempt re-signs it.
struct WebhookDelivery {
  enum class State { pending, sending, delivered, failed };
  std::uint64_t id = 0;
  std::string app_id;
  std::string event_type;  // "PING" for the URL check
  WebhookConfig config;    // where it goes, as configured when it was made
  std::string body;
  int max_attempts = 5;
  std::vector<WebhookAttempt> attempts;
  State state = State::pending;
  std::int64_t due_steady_ms = 0;  // real time of the next attempt while pending
  // The same moment on the wall clock: what the state file keeps (a steady clock restarts with the process).
  std::int64_t due_system_ms = 0;
  // A PING's: the admin PUT waiting for its outcome.
  std::shared_ptr<DeferredResponse> answer;

  // Delivered, or given up on.
  [[nodiscard]] bool finished() const noexcept { return state == State::delivered || state == State::failed; }
};

class WebhookModule : public FeatureModule {
 public:
  static constexpr int kMaxAttempts = 5;

  explicit WebhookModule(ServiceContext& context);

  // An event for the application's webhook events URL: `data_json` is the event's `data` object. Nothing
  // happens when the application has no URL or its event_types leave `type` out. The body
  // {version: 1, application_id, type: 1, event: {type, timestamp (fake clock), data}} is made here, once.
  // `at_ms`: the event's timestamp (fake clock) when its data names that moment too; else now.
  void emit(const std::string& app_id, std::string_view type, std::string data_json,
            std::optional<std::int64_t> at_ms = std::nullopt);
  // APPLICATION_AUTHORIZED {integration_type, user, scopes, guild?}: a user install (integration_type 1), or
  // a guild install (0) with `guild_json`, the guild object.
  void application_authorized(const std::string& app_id, const User& user,
                              const std::vector<std::string>& scopes,
                              const std::optional<std::string>& guild_json = std::nullopt);
  // APPLICATION_DEAUTHORIZED {user}.
  void application_deauthorized(const std::string& app_id, const User& user);
  // One of the user's grants of the application was revoked: APPLICATION_DEAUTHORIZED if it was their last
  // (one login revoked among several leaves the authorization). Never for a bot's tokens.
  void grant_revoked(const std::string& user_id, const std::string& app_id);

  // The network side (null: none, e.g. at shutdown; the PUTs waiting for a PING are then dropped).
  void set_transport(WebhookTransport* transport);
  // Sends what is due (real time). Called on the service's tick.
  void tick();

 private:
  HttpResponse admin_put_webhook_events(const RouteContext& context);
  HttpResponse admin_get_webhook_events(const RouteContext& context);
  HttpResponse admin_enroll_in_quest(const RouteContext& context);
  WebhookDelivery& add_delivery(const std::string& app_id, std::string event_type, WebhookConfig config,
                                std::string body, int max_attempts);
  void send(WebhookDelivery& delivery);
  void sent(std::uint64_t id, const WebhookPostResult& result);
  // A PING's outcome: the config is applied (204) or the PUT refused.
  void ping_answered(WebhookDelivery& delivery);
  // Keeps the outbox bounded: the oldest finished deliveries go.
  void prune();
  // The next attempt `delay_ms` from now (real time).
  static void schedule(WebhookDelivery& delivery, std::int64_t delay_ms);

  // ---- the state file (webhook_documents.cpp)
  void register_documents();
  // The delivery's document was created, changed or removed (then touched after the erase).
  void changed(const WebhookDelivery& delivery);

  WebhookTransport* transport_ = nullptr;
  std::map<std::string, WebhookConfig, std::less<>> configs_;  // by application id
  std::map<std::uint64_t, WebhookDelivery> deliveries_;        // by id, oldest first
  std::uint64_t next_id_ = 1;
  // Moves on when the outbox is cleared (state reset, import): answers of POSTs made before are ignored, even
  // if a delivery made since has the same id.
  std::uint64_t epoch_ = 0;
};

}  // namespace platformpp::emulator
