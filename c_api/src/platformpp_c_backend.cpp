// The C ABI of the game server's side: webhook events (verify, the endpoint) and the Game Stats Widget on a
// backend handle. Same boundary as the client's parts (c_support.hpp), with each handle's own logger.
#include "c_backend_support.hpp"

#include <platformpp/platformpp_c.h>

#include <platformpp/webhook_events.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

using namespace platformpp::c_api;
namespace pb = platformpp::backend;

struct platformpp_webhook_event {
  pb::WebhookEvent event;
};

struct platformpp_game_stats_profile {
  pb::GameStatsProfile profile;
};

struct platformpp_webhook_events {
  pb::WebhookEvents events;
  std::shared_ptr<Boundary> boundary;
  explicit platformpp_webhook_events(pb::WebhookEventsOptions options) : events(std::move(options)) {
    boundary = std::make_shared<Boundary>(pb::BackendAccess::LoggerOf(events));
  }
  ~platformpp_webhook_events() {
    boundary->Close();
    events.SetEventCallback(nullptr);  // the event callback's user_data_free runs before destroy returns
  }
  platformpp_webhook_events(const platformpp_webhook_events&) = delete;
  platformpp_webhook_events& operator=(const platformpp_webhook_events&) = delete;
};

namespace {

// The verifiers' "now": the caller's Unix time (0: the system clock). Clamped to what the clock can hold
// (about ±292 years around 1970 in nanoseconds): a time beyond it is as far as the clock goes, and any
// request is then too old or too new, never a signed overflow.
std::chrono::system_clock::time_point VerificationTime(int64_t now_unix_seconds) {
  if (now_unix_seconds == 0) return std::chrono::system_clock::now();
  using Clock = std::chrono::system_clock;
  constexpr auto kLimit =
      std::chrono::duration_cast<std::chrono::seconds>(Clock::duration::max()).count() - 1;
  const int64_t clamped = std::clamp<int64_t>(now_unix_seconds, -kLimit, kLimit);
  return Clock::time_point(std::chrono::duration_cast<Clock::duration>(std::chrono::seconds(clamped)));
}

using pb::GameStatsPrimary;

// The C enums index these: the order is the header's.
constexpr std::array<std::optional<std::string> GameStatsPrimary::*, 7> kTextFields{
    &GameStatsPrimary::season,
    &GameStatsPrimary::rankName,
    &GameStatsPrimary::rankImageUrl,
    &GameStatsPrimary::highestRank,
    &GameStatsPrimary::highestRankImageUrl,
    &GameStatsPrimary::featuredPlayedCharacter,
    &GameStatsPrimary::featuredPlayedCharacterImageUrl};
constexpr std::array<std::optional<int64_t> GameStatsPrimary::*, 10> kCountFields{
    &GameStatsPrimary::totalWins,    &GameStatsPrimary::currentPeriodWins,
    &GameStatsPrimary::totalGames,   &GameStatsPrimary::currentPeriodGames,
    &GameStatsPrimary::totalKills,   &GameStatsPrimary::currentPeriodKills,
    &GameStatsPrimary::totalAssists, &GameStatsPrimary::currentPeriodAssists,
    &GameStatsPrimary::totalDeaths,  &GameStatsPrimary::currentPeriodDeaths};

// platformpp_webhook_event_data_type is the variant's index: keep them in step.
template <std::size_t I, class T>
constexpr bool kAt = std::is_same_v<std::variant_alternative_t<I, pb::WebhookEventData>, T>;
static_assert(std::variant_size_v<pb::WebhookEventData> == 11);
static_assert(kAt<0, pb::UnknownWebhookEvent> && kAt<1, pb::ApplicationAuthorized> &&
              kAt<2, pb::ApplicationDeauthorized> && kAt<3, pb::EntitlementCreate> &&
              kAt<4, pb::QuestUserEnrollment> && kAt<5, pb::LobbyMessageCreate> &&
              kAt<6, pb::LobbyMessageUpdate> && kAt<7, pb::LobbyMessageDelete> &&
              kAt<8, pb::GameDirectMessageCreate> && kAt<9, pb::GameDirectMessageUpdate> &&
              kAt<10, pb::GameDirectMessageDelete>);

const platformpp::Entitlement* EntitlementOf(const platformpp_webhook_event* event) noexcept {
  if (!event) return nullptr;
  const auto* created = std::get_if<pb::EntitlementCreate>(&event->event.data);
  return created ? &created->entitlement : nullptr;
}

pb::GameStatsData& DataOf(platformpp_game_stats_profile* profile) {
  if (!profile->profile.data) profile->profile.data.emplace();
  return *profile->profile.data;
}

// Runs `body` on a profile (NULL: 0), with 0 for an exception (out of memory): no client to log to.
template <class Body>
int32_t ProfileSetter(platformpp_game_stats_profile* profile, Body&& body) noexcept {
  if (!profile) return 0;
  return GuardedOr(nullptr, "", 0, [&] { return body(*profile) ? 1 : 0; });
}

}  // namespace

namespace platformpp::c_api {

void CallFailed(platformpp_game_stats_profile_fn callback, const platformpp_client_result* result,
                void* data) {
  // The failure path must not allocate: an empty profile holds nothing.
  const platformpp_game_stats_profile empty{};
  callback(result, &empty, data);
}

}  // namespace platformpp::c_api

extern "C" {

/* Webhook events: one request. */

int32_t platformpp_webhook_verify(const char* public_key_hex, size_t public_key_hex_size,
                                  const char* signature_hex, size_t signature_hex_size, const char* timestamp,
                                  size_t timestamp_size, const char* body, size_t body_size,
                                  int64_t now_unix_seconds, int32_t max_age_seconds,
                                  platformpp_webhook_event** event) {
  if (event) *event = nullptr;
  return GuardedOr(nullptr, __func__, 0, [&] {
    const auto now = VerificationTime(now_unix_seconds);
    const std::chrono::seconds maxAge(max_age_seconds > 0 ? max_age_seconds : 300);
    // Views, not copies: nothing of the request (a secret-free body, but large) is copied before the check.
    auto verdict = pb::VerifyWebhookEvent(
        std::string_view(public_key_hex ? public_key_hex : "", public_key_hex ? public_key_hex_size : 0),
        std::string_view(signature_hex ? signature_hex : "", signature_hex ? signature_hex_size : 0),
        std::string_view(timestamp ? timestamp : "", timestamp ? timestamp_size : 0),
        std::string_view(body ? body : "", body ? body_size : 0), now, maxAge);
    if (verdict.status == 204 && verdict.event && event)
      *event = new platformpp_webhook_event{std::move(*verdict.event)};
    return static_cast<int32_t>(verdict.status);
  });
}

int32_t platformpp_interaction_verify(const char* public_key_hex, size_t public_key_hex_size,
                                      const char* signature_hex, size_t signature_hex_size,
                                      const char* timestamp, size_t timestamp_size, const char* body,
                                      size_t body_size, int64_t now_unix_seconds, int32_t max_age_seconds,
                                      platformpp_interaction** interaction) {
  if (interaction) *interaction = nullptr;
  return GuardedOr(nullptr, __func__, 0, [&] {
    const auto now = VerificationTime(now_unix_seconds);
    const std::chrono::seconds maxAge(max_age_seconds > 0 ? max_age_seconds : 300);
    auto verdict = pb::VerifyInteraction(
        std::string_view(public_key_hex ? public_key_hex : "", public_key_hex ? public_key_hex_size : 0),
        std::string_view(signature_hex ? signature_hex : "", signature_hex ? signature_hex_size : 0),
        std::string_view(timestamp ? timestamp : "", timestamp ? timestamp_size : 0),
        std::string_view(body ? body : "", body ? body_size : 0), now, maxAge);
    if (verdict.status == 200 && verdict.interaction && interaction)
      *interaction = new platformpp_interaction{std::move(*verdict.interaction)};
    return static_cast<int32_t>(verdict.status);
  });
}

platformpp_interaction* platformpp_interaction_clone(const platformpp_interaction* interaction) {
  return CloneHandle(interaction);
}

void platformpp_interaction_destroy(platformpp_interaction* interaction) {
  delete interaction;
}

platformpp_interaction_type platformpp_interaction_get_type(const platformpp_interaction* interaction) {
  return interaction ? static_cast<platformpp_interaction_type>(interaction->interaction.type)
                     : PLATFORMPP_INTERACTION_TYPE_PING;
}

uint64_t platformpp_interaction_id(const platformpp_interaction* interaction) {
  return interaction ? interaction->interaction.id : 0;
}

uint64_t platformpp_interaction_application_id(const platformpp_interaction* interaction) {
  return interaction ? interaction->interaction.applicationId : 0;
}

const char* platformpp_interaction_token(const platformpp_interaction* interaction, size_t* size) {
  return interaction ? StringOut(interaction->interaction.token, size) : EmptyOut(size);
}

uint64_t platformpp_interaction_guild_id(const platformpp_interaction* interaction) {
  return interaction ? interaction->interaction.guildId.value_or(0) : 0;
}

uint64_t platformpp_interaction_channel_id(const platformpp_interaction* interaction) {
  return interaction ? interaction->interaction.channelId.value_or(0) : 0;
}

uint64_t platformpp_interaction_user_id(const platformpp_interaction* interaction) {
  const pb::User* user = interaction ? interaction->interaction.Invoker() : nullptr;
  return user ? user->id : 0;
}

const char* platformpp_interaction_locale(const platformpp_interaction* interaction, size_t* size) {
  return interaction ? StringOut(interaction->interaction.locale, size) : EmptyOut(size);
}

const char* platformpp_interaction_command_name(const platformpp_interaction* interaction, size_t* size) {
  const auto* command = interaction ? interaction->interaction.Command() : nullptr;
  return command ? StringOut(command->name, size) : EmptyOut(size);
}

const char* platformpp_interaction_custom_id(const platformpp_interaction* interaction, size_t* size) {
  if (interaction == nullptr) return EmptyOut(size);
  if (const auto* component = interaction->interaction.ComponentData())
    return StringOut(component->customId, size);
  if (const auto* modal = interaction->interaction.Modal()) return StringOut(modal->customId, size);
  return EmptyOut(size);
}

const char* platformpp_interaction_json(const platformpp_interaction* interaction, size_t* size) {
  return interaction ? StringOut(interaction->interaction.rawJson, size) : EmptyOut(size);
}

platformpp_webhook_event* platformpp_webhook_event_clone(const platformpp_webhook_event* event) {
  return CloneHandle(event);
}

void platformpp_webhook_event_destroy(platformpp_webhook_event* event) {
  delete event;
}

platformpp_webhook_event_kind platformpp_webhook_event_get_kind(const platformpp_webhook_event* event) {
  return event ? static_cast<platformpp_webhook_event_kind>(event->event.type)
               : PLATFORMPP_WEBHOOK_EVENT_KIND_PING;
}

uint64_t platformpp_webhook_event_application_id(const platformpp_webhook_event* event) {
  return event ? event->event.applicationId : 0;
}

const char* platformpp_webhook_event_type_name(const platformpp_webhook_event* event, size_t* size) {
  return event ? StringOut(event->event.eventType, size) : EmptyOut(size);
}

const char* platformpp_webhook_event_id(const platformpp_webhook_event* event, size_t* size) {
  return event ? StringOut(event->event.eventId, size) : EmptyOut(size);
}

const char* platformpp_webhook_event_timestamp(const platformpp_webhook_event* event, size_t* size) {
  return event ? StringOut(event->event.timestamp, size) : EmptyOut(size);
}

const char* platformpp_webhook_event_data_json(const platformpp_webhook_event* event, size_t* size) {
  return event ? StringOut(event->event.dataJson, size) : EmptyOut(size);
}

platformpp_webhook_event_data_type platformpp_webhook_event_get_data_type(
    const platformpp_webhook_event* event) {
  return event ? static_cast<platformpp_webhook_event_data_type>(event->event.data.index())
               : PLATFORMPP_WEBHOOK_EVENT_DATA_TYPE_UNKNOWN;
}

uint64_t platformpp_webhook_event_user_id(const platformpp_webhook_event* event) {
  if (!event) return 0;
  if (const auto* authorized = std::get_if<pb::ApplicationAuthorized>(&event->event.data))
    return authorized->user.id;
  if (const auto* deauthorized = std::get_if<pb::ApplicationDeauthorized>(&event->event.data))
    return deauthorized->user.id;
  return 0;
}

uint64_t platformpp_webhook_event_entitlement_id(const platformpp_webhook_event* event) {
  const auto* entitlement = EntitlementOf(event);
  return entitlement ? entitlement->id : 0;
}

uint64_t platformpp_webhook_event_entitlement_sku_id(const platformpp_webhook_event* event) {
  const auto* entitlement = EntitlementOf(event);
  return entitlement ? entitlement->skuId : 0;
}

uint64_t platformpp_webhook_event_entitlement_user_id(const platformpp_webhook_event* event) {
  const auto* entitlement = EntitlementOf(event);
  return entitlement ? entitlement->userId : 0;
}

uint64_t platformpp_webhook_event_entitlement_guild_id(const platformpp_webhook_event* event) {
  const auto* entitlement = EntitlementOf(event);
  return entitlement ? entitlement->guildId : 0;
}

int32_t platformpp_webhook_event_entitlement_type(const platformpp_webhook_event* event) {
  const auto* entitlement = EntitlementOf(event);
  return entitlement ? static_cast<int32_t>(entitlement->type) : 0;
}

int32_t platformpp_webhook_event_entitlement_ends_at(const platformpp_webhook_event* event,
                                                     uint64_t* ends_at_ms) {
  const auto* entitlement = EntitlementOf(event);
  if (!entitlement || !entitlement->endsAt) return 0;
  if (ends_at_ms) *ends_at_ms = *entitlement->endsAt;
  return 1;
}

/* Webhook events: the endpoint. */

void platformpp_webhook_events_options_init(platformpp_webhook_events_options* options) {
  if (!options) return;
  std::memset(options, 0, sizeof *options);
  options->api_version = PLATFORMPP_C_API_VERSION;
}

platformpp_webhook_events* platformpp_webhook_events_create(
    const platformpp_webhook_events_options* options) {
  // No handle yet to log to: NULL is the report.
  try {
    if (!options || !KnownApiVersion(options->api_version)) return nullptr;
    if (options->port < 0 || options->port > 65535) return nullptr;
    pb::WebhookEventsOptions cpp;
    cpp.publicKeyHex = ToString(options->public_key_hex);
    if (std::string address = ToString(options->address); !address.empty()) cpp.address = std::move(address);
    cpp.port = static_cast<uint16_t>(options->port);
    if (std::string path = ToString(options->path); !path.empty()) cpp.path = std::move(path);
    cpp.tlsCertificateChainFile = ToString(options->tls_certificate_chain_file);
    cpp.tlsPrivateKeyFile = ToString(options->tls_private_key_file);
    return new platformpp_webhook_events(std::move(cpp));
  } catch (...) {
    return nullptr;
  }
}

void platformpp_webhook_events_destroy(platformpp_webhook_events* events) {
  delete events;
}

void platformpp_webhook_events_set_event_callback(platformpp_webhook_events* events,
                                                  platformpp_webhook_event_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  if (!events) return Refuse(user_data, user_data_free);
  RegisterCallback(
      events->boundary.get(), __func__, callback, [&] { return Own(user_data, user_data_free); },
      [&](auto callable) {
        if constexpr (std::is_same_v<decltype(callable), std::nullptr_t>) {
          events->events.SetEventCallback(nullptr);
        } else {
          events->events.SetEventCallback(std::move(callable));
        }
      },
      [](auto fn, auto owned) {
        return [fn, owned](const pb::WebhookEvent& event) {
          const platformpp_webhook_event view{event};
          fn(&view, owned->Get());
        };
      });
}

void platformpp_webhook_events_add_log_callback(platformpp_webhook_events* events, platformpp_log_fn callback,
                                                platformpp_logging_severity min_severity, void* user_data,
                                                platformpp_user_data_free_fn user_data_free) {
  AddLogCallback(events, __func__, callback, min_severity, user_data, user_data_free,
                 [&](platformpp::LogCallback log, platformpp::LoggingSeverity severity) {
                   events->events.AddLogCallback(std::move(log), severity);
                 });
}

platformpp_client_result* platformpp_webhook_events_start(platformpp_webhook_events* events) {
  if (!events) return nullptr;
  return GuardedOr(events->boundary.get(), __func__, static_cast<platformpp_client_result*>(nullptr),
                   [&] { return new platformpp_client_result{events->events.Start()}; });
}

void platformpp_webhook_events_stop(platformpp_webhook_events* events) {
  if (!events) return;
  Guarded(events->boundary.get(), __func__, [&] { events->events.Stop(); });
}

int32_t platformpp_webhook_events_running(const platformpp_webhook_events* events) {
  return events && events->events.Running() ? 1 : 0;
}

int32_t platformpp_webhook_events_port(const platformpp_webhook_events* events) {
  return events ? static_cast<int32_t>(events->events.Port()) : 0;
}

void platformpp_webhook_events_run_callbacks(platformpp_webhook_events* events) {
  if (!events) return;
  Guarded(
      events->boundary.get(), __func__, [&] { events->events.RunCallbacks(); },
      "a callback threw; the ones after it run at the next run_callbacks");
}

int32_t platformpp_webhook_events_wait_for_callbacks(platformpp_webhook_events* events, int32_t timeout_ms) {
  if (!events) return 0;
  return GuardedOr(events->boundary.get(), __func__, 0,
                   [&] { return events->events.WaitForCallbacks(timeout_ms) ? 1 : 0; });
}

/* Game Stats Widget: the profile handle. */

platformpp_game_stats_profile* platformpp_game_stats_profile_create(void) {
  try {
    return new platformpp_game_stats_profile{};
  } catch (...) {
    return nullptr;
  }
}

void platformpp_game_stats_profile_destroy(platformpp_game_stats_profile* profile) {
  delete profile;
}

int32_t platformpp_game_stats_profile_set_username(platformpp_game_stats_profile* profile,
                                                   const char* username, size_t username_size) {
  return ProfileSetter(profile, [&](platformpp_game_stats_profile& p) {
    p.profile.username = ToString(username, username_size);
    return true;
  });
}

int32_t platformpp_game_stats_profile_set_has_data(platformpp_game_stats_profile* profile, int32_t has_data) {
  return ProfileSetter(profile, [&](platformpp_game_stats_profile& p) {
    if (has_data) {
      DataOf(&p);
    } else {
      p.profile.data.reset();
    }
    return true;
  });
}

int32_t platformpp_game_stats_profile_set_text(platformpp_game_stats_profile* profile,
                                               platformpp_game_stats_text_field field, const char* text,
                                               size_t text_size) {
  const int32_t value = CEnumValue(field);
  const auto index = static_cast<size_t>(value);
  if (value < 0 || index >= kTextFields.size()) return 0;
  return ProfileSetter(profile, [&](platformpp_game_stats_profile& p) {
    DataOf(&p).primary.*kTextFields.at(index) = ToString(text, text_size);
    return true;
  });
}

int32_t platformpp_game_stats_profile_set_count(platformpp_game_stats_profile* profile,
                                                platformpp_game_stats_count_field field, int64_t count) {
  const int32_t value = CEnumValue(field);
  const auto index = static_cast<size_t>(value);
  if (value < 0 || index >= kCountFields.size()) return 0;
  return ProfileSetter(profile, [&](platformpp_game_stats_profile& p) {
    DataOf(&p).primary.*kCountFields.at(index) = count;
    return true;
  });
}

int32_t platformpp_game_stats_profile_set_playtime_hours(platformpp_game_stats_profile* profile,
                                                         double hours) {
  return ProfileSetter(profile, [&](platformpp_game_stats_profile& p) {
    DataOf(&p).primary.playtimeHours = hours;
    return true;
  });
}

int32_t platformpp_game_stats_profile_add_dynamic_field(platformpp_game_stats_profile* profile,
                                                        const platformpp_game_stats_dynamic_field* field) {
  if (!field) return 0;
  const int32_t type = CEnumValue(field->type);
  if (type < PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_STRING ||
      type > PLATFORMPP_GAME_STATS_DYNAMIC_FIELD_TYPE_MEDIA)
    return 0;
  return ProfileSetter(profile, [&](platformpp_game_stats_profile& p) {
    pb::GameStatsDynamicField added;
    added.type = static_cast<pb::GameStatsDynamicField::Type>(type);
    added.name = ToString(field->name);
    added.text = ToString(field->text);
    added.number = field->number;
    DataOf(&p).dynamic.push_back(std::move(added));
    return true;
  });
}

int32_t platformpp_game_stats_profile_username(const platformpp_game_stats_profile* profile,
                                               platformpp_string* out) {
  if (!profile || !profile->profile.username) return 0;
  if (out) *out = View(*profile->profile.username);
  return 1;
}

int32_t platformpp_game_stats_profile_has_data(const platformpp_game_stats_profile* profile) {
  return profile && profile->profile.data ? 1 : 0;
}

int32_t platformpp_game_stats_profile_text(const platformpp_game_stats_profile* profile,
                                           platformpp_game_stats_text_field field, platformpp_string* out) {
  const int32_t value = CEnumValue(field);
  const auto index = static_cast<size_t>(value);
  if (!profile || !profile->profile.data || value < 0 || index >= kTextFields.size()) return 0;
  const auto& text = profile->profile.data->primary.*kTextFields.at(index);
  if (!text) return 0;
  if (out) *out = View(*text);
  return 1;
}

int32_t platformpp_game_stats_profile_count(const platformpp_game_stats_profile* profile,
                                            platformpp_game_stats_count_field field, int64_t* out) {
  const int32_t value = CEnumValue(field);
  const auto index = static_cast<size_t>(value);
  if (!profile || !profile->profile.data || value < 0 || index >= kCountFields.size()) return 0;
  const auto& count = profile->profile.data->primary.*kCountFields.at(index);
  if (!count) return 0;
  if (out) *out = *count;
  return 1;
}

int32_t platformpp_game_stats_profile_playtime_hours(const platformpp_game_stats_profile* profile,
                                                     double* out) {
  if (!profile || !profile->profile.data || !profile->profile.data->primary.playtimeHours) return 0;
  if (out) *out = *profile->profile.data->primary.playtimeHours;
  return 1;
}

size_t platformpp_game_stats_profile_dynamic_field_count(const platformpp_game_stats_profile* profile) {
  return profile && profile->profile.data ? profile->profile.data->dynamic.size() : 0;
}

int32_t platformpp_game_stats_profile_dynamic_field_at(const platformpp_game_stats_profile* profile,
                                                       size_t index,
                                                       platformpp_game_stats_dynamic_field* out) {
  if (!profile || !profile->profile.data || index >= profile->profile.data->dynamic.size()) return 0;
  const auto& field = profile->profile.data->dynamic[index];
  if (out) {
    out->type = static_cast<platformpp_game_stats_dynamic_field_type>(field.type);
    out->name = View(field.name);
    out->text = View(field.text);
    out->number = field.number;
  }
  return 1;
}

/* Backend. */

void platformpp_backend_options_init(platformpp_backend_options* options) {
  if (!options) return;
  std::memset(options, 0, sizeof *options);
  options->api_version = PLATFORMPP_C_API_VERSION;
  options->use_system_certificates = 1;
}

platformpp_backend* platformpp_backend_create(const platformpp_backend_options* options) {
  // No handle yet to log to: NULL is the report.
  try {
    if (!options || !KnownApiVersion(options->api_version)) return nullptr;
    pb::BackendOptions cpp;
    if (std::string apiBase = ToString(options->api_base); !apiBase.empty()) cpp.apiBase = std::move(apiBase);
    cpp.caFile = ToString(options->ca_file);
    cpp.useSystemCertificates = options->use_system_certificates != 0;
    cpp.botToken = ToString(options->bot_token);
    cpp.applicationId = options->application_id;
    if (options->http_timeout_ms > 0) cpp.httpTimeout = std::chrono::milliseconds(options->http_timeout_ms);
    return new platformpp_backend(cpp);
  } catch (...) {
    return nullptr;
  }
}

void platformpp_backend_destroy(platformpp_backend* backend) {
  delete backend;
}

void platformpp_backend_run_callbacks(platformpp_backend* backend) {
  if (!backend) return;
  // A callback may destroy the backend: afterwards, touch nothing but our reference to its boundary.
  const std::shared_ptr<Boundary> boundary = backend->boundary;
  RunCallbacksAtBoundary(boundary, __func__, [&] { backend->backend->RunCallbacks(); });
}

int32_t platformpp_backend_wait_for_callbacks(platformpp_backend* backend, int32_t timeout_ms) {
  if (!backend) return 0;
  return WaitForCallbacksAtBoundary(*backend->boundary, __func__,
                                    [&] { return backend->backend->WaitForCallbacks(timeout_ms) ? 1 : 0; });
}

void platformpp_backend_add_log_callback(platformpp_backend* backend, platformpp_log_fn callback,
                                         platformpp_logging_severity min_severity, void* user_data,
                                         platformpp_user_data_free_fn user_data_free) {
  AddLogCallback(backend, __func__, callback, min_severity, user_data, user_data_free,
                 [&](platformpp::LogCallback log, platformpp::LoggingSeverity severity) {
                   backend->backend->AddLogCallback(std::move(log), severity);
                 });
}

void platformpp_backend_update_game_stats_profile(platformpp_backend* backend, uint64_t user_id,
                                                  const char* provider_issued_user_id,
                                                  size_t provider_issued_user_id_size,
                                                  const platformpp_game_stats_profile* profile,
                                                  platformpp_result_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  if (!backend) return Refuse(user_data, user_data_free);
  StartOperation(backend->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_result_fn>& op) {
                   // NULL profile: an empty one (writes nothing but is still checked and sent).
                   const pb::GameStatsProfile empty;
                   backend->backend->UpdateGameStatsProfile(
                       user_id, ToString(provider_issued_user_id, provider_issued_user_id_size),
                       profile ? profile->profile : empty, ResultOnly(op));
                 });
}

void platformpp_backend_get_game_stats_profile(platformpp_backend* backend, uint64_t user_id,
                                               const char* provider_issued_user_id,
                                               size_t provider_issued_user_id_size,
                                               platformpp_game_stats_profile_fn callback, void* user_data,
                                               platformpp_user_data_free_fn user_data_free) {
  if (!backend) return Refuse(user_data, user_data_free);
  StartOperation(backend->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_game_stats_profile_fn>& op) {
                   backend->backend->GetGameStatsProfile(
                       user_id, ToString(provider_issued_user_id, provider_issued_user_id_size),
                       [op](platformpp::ClientResult result, pb::GameStatsProfile read) {
                         auto done = op->Claim();
                         if (!done) return;
                         platformpp_client_result view{std::move(result)};
                         const platformpp_game_stats_profile profile{std::move(read)};
                         done(&view, &profile, op->Data());
                       });
                 });
}

}  // extern "C"
