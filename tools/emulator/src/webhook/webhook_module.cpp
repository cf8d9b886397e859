// Webhook events: the admin routes of each application's URL, the outbox and its retries. What a delivery
// looks like on the wire is docs/premium-protocol.md's "Webhook events" and "Webhook events sent by the
// emulator".
#include "webhook/webhook_module.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/user_json.hpp"
#include "webhook/webhook_signature.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::int64_t kRetryBaseDefaultMs = 1000;
constexpr std::int64_t kRetryBaseMaxMs = 60000;
constexpr std::int64_t kDropAnswersMax = 100;
constexpr std::size_t kKeptFinished = 1000;  // finished deliveries listed by GET, oldest forgotten first

// What an event_types filter may name: the platform's webhook event types.
constexpr std::array<std::string_view, 12> kKnownEventTypes = {
    webhook_event::kApplicationAuthorized,
    webhook_event::kApplicationDeauthorized,
    "ENTITLEMENT_CREATE",
    "ENTITLEMENT_UPDATE",
    "ENTITLEMENT_DELETE",
    webhook_event::kQuestUserEnrollment,
    webhook_event::kLobbyMessageCreate,
    webhook_event::kLobbyMessageUpdate,
    webhook_event::kLobbyMessageDelete,
    webhook_event::kGameDirectMessageCreate,
    webhook_event::kGameDirectMessageUpdate,
    webhook_event::kGameDirectMessageDelete,
};

const char* state_name(WebhookDelivery::State state) {
  switch (state) {
    case WebhookDelivery::State::pending:
      return "pending";
    case WebhookDelivery::State::sending:
      return "sending";
    case WebhookDelivery::State::delivered:
      return "delivered";
    case WebhookDelivery::State::failed:
      return "failed";
  }
  return "pending";
}

void write_config(JsonWriter& writer, const WebhookConfig* config) {
  writer.Key("url");
  if (config != nullptr) {
    write_string(writer, config->url.text);
  } else {
    writer.Null();
  }
  writer.Key("event_types");
  if (config != nullptr && config->event_types) {
    writer.StartArray();
    for (const auto& type : *config->event_types)
      write_string(writer, type);
    writer.EndArray();
  } else {
    writer.Null();
  }
  writer.Key("retry_base_ms");
  if (config != nullptr) {
    writer.Int64(config->retry_base_ms);
  } else {
    writer.Null();
  }
  writer.Key("ca_file");
  if (config != nullptr) {
    write_optional_string(writer, config->ca_file);
  } else {
    writer.Null();
  }
  writer.Key("drop_answers");
  if (config != nullptr) {
    writer.Int64(config->drop_answers);
  } else {
    writer.Null();
  }
}

void write_delivery(JsonWriter& writer, const WebhookDelivery& delivery) {
  writer.StartObject();
  writer.Key("id");
  write_string(writer, std::to_string(delivery.id));
  writer.Key("event_type");
  write_string(writer, delivery.event_type);
  writer.Key("url");
  write_string(writer, delivery.config.url.text);
  writer.Key("state");
  writer.String(state_name(delivery.state));
  writer.Key("body");
  write_string(writer, delivery.body);
  writer.Key("attempts");
  writer.StartArray();
  for (const auto& attempt : delivery.attempts) {
    writer.StartObject();
    writer.Key("sent_at");
    write_string(writer, format_rfc3339_ms(attempt.sent_at_ms));
    writer.Key("signature_timestamp");
    write_string(writer, attempt.signature_timestamp);
    writer.Key("status");
    if (attempt.status) {
      writer.Int(*attempt.status);
    } else {
      writer.Null();
    }
    writer.Key("error");
    if (attempt.error.empty()) {
      writer.Null();
    } else {
      write_string(writer, attempt.error);
    }
    writer.EndObject();
  }
  writer.EndArray();
  writer.EndObject();
}

}  // namespace

WebhookModule::WebhookModule(ServiceContext& context) : FeatureModule(context) {
  admin_router_.add("PUT", "/applications/{app_id}/webhook-events",
                    bind(&WebhookModule::admin_put_webhook_events));
  admin_router_.add("GET", "/applications/{app_id}/webhook-events",
                    bind(&WebhookModule::admin_get_webhook_events));
  admin_router_.add("POST", "/applications/{app_id}/quest-enrollments",
                    bind(&WebhookModule::admin_enroll_in_quest));
  register_documents();
}

// ---- events ----------------------------------------------------------------------------------------------

void WebhookModule::emit(const std::string& app_id, std::string_view type, std::string data_json,
                         std::optional<std::int64_t> at_ms) {
  const auto config = configs_.find(app_id);
  if (config == configs_.end()) return;
  if (config->second.event_types &&
      config->second.event_types->find(type) == config->second.event_types->end())
    return;
  // Serialized once: a retry sends these bytes again, which is what lets a receiver recognise a repeat.
  auto body = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("version");
    writer.Int(1);
    writer.Key("application_id");
    write_string(writer, app_id);
    writer.Key("type");
    writer.Int(1);
    writer.Key("event");
    writer.StartObject();
    writer.Key("type");
    write_string(writer, type);
    writer.Key("timestamp");
    write_string(writer, format_rfc3339_ms(at_ms.value_or(clock_.now_ms())));
    writer.Key("data");
    write_raw(writer, data_json, rapidjson::kObjectType);
    writer.EndObject();
    writer.EndObject();
  });
  auto& delivery = add_delivery(app_id, std::string(type), config->second, std::move(body), kMaxAttempts);
  send(delivery);
}

void WebhookModule::application_authorized(const std::string& app_id, const User& user,
                                           const std::vector<std::string>& scopes,
                                           const std::optional<std::string>& guild_json) {
  const auto user_text = user_json(user);
  emit(app_id, webhook_event::kApplicationAuthorized, to_json([&](JsonWriter& writer) {
         writer.StartObject();
         writer.Key("integration_type");
         writer.Int(guild_json ? 0 : 1);  // GUILD_INSTALL with the guild, else USER_INSTALL
         writer.Key("user");
         write_raw(writer, user_text, rapidjson::kObjectType);
         writer.Key("scopes");
         writer.StartArray();
         for (const auto& scope : scopes)
           write_string(writer, scope);
         writer.EndArray();
         if (guild_json) {
           writer.Key("guild");
           write_raw(writer, *guild_json, rapidjson::kObjectType);
         }
         writer.EndObject();
       }));
}

void WebhookModule::application_deauthorized(const std::string& app_id, const User& user) {
  const auto user_text = user_json(user);
  emit(app_id, webhook_event::kApplicationDeauthorized, to_json([&](JsonWriter& writer) {
         writer.StartObject();
         writer.Key("user");
         write_raw(writer, user_text, rapidjson::kObjectType);
         writer.EndObject();
       }));
}

void WebhookModule::grant_revoked(const std::string& user_id, const std::string& app_id) {
  const User* user = state_.find_user(user_id);
  if (user != nullptr && !user->bot && !state_.has_grant(user_id, app_id))
    application_deauthorized(app_id, *user);
}

// ---- the outbox ------------------------------------------------------------------------------------------

WebhookDelivery& WebhookModule::add_delivery(const std::string& app_id, std::string event_type,
                                             WebhookConfig config, std::string body, int max_attempts) {
  WebhookDelivery delivery;
  delivery.id = next_id_++;
  delivery.app_id = app_id;
  delivery.event_type = std::move(event_type);
  delivery.config = std::move(config);
  delivery.body = std::move(body);
  delivery.max_attempts = max_attempts;
  schedule(delivery, 0);
  const auto id = delivery.id;
  changes_.touch(document_kind::kWebhookOutbox, document_kind::kWebhookOutboxId);
  auto& added = deliveries_.emplace(id, std::move(delivery)).first->second;
  changed(added);
  return added;
}

void WebhookModule::schedule(WebhookDelivery& delivery, std::int64_t delay_ms) {
  delivery.due_steady_ms = steady_now_ms() + delay_ms;
  delivery.due_system_ms = FakeClock::system_now_ms() + delay_ms;
}

void WebhookModule::set_transport(WebhookTransport* transport) {
  transport_ = transport;
  if (transport != nullptr) return;
  // The network side is going: what it was sending will never be reported.
  for (auto& [id, delivery] : deliveries_) {
    if (delivery.state != WebhookDelivery::State::sending) continue;
    delivery.attempts.back().error = "interrupted: the emulator's network side stopped";
    delivery.state = delivery.answer ? WebhookDelivery::State::failed : WebhookDelivery::State::pending;
    if (delivery.answer) delivery.answer->abandon();
    changed(delivery);
  }
}

void WebhookModule::tick() {
  if (transport_ == nullptr) return;
  const auto now = steady_now_ms();
  std::vector<std::uint64_t> due;
  for (const auto& [id, delivery] : deliveries_) {
    if (delivery.state == WebhookDelivery::State::pending && delivery.due_steady_ms <= now) due.push_back(id);
  }
  for (const auto id : due)
    send(deliveries_.at(id));
}

void WebhookModule::send(WebhookDelivery& delivery) {
  if (transport_ == nullptr) return;  // stays pending until there is a network side
  changed(delivery);
  const Application* app = state_.find_application(delivery.app_id);
  if (app == nullptr) {
    delivery.state = WebhookDelivery::State::failed;
    return;
  }
  // Each attempt is signed afresh with real wall-clock time: the receiver compares the header with its own
  // clock, which the fake clock may be far from. event.timestamp in the body stays the fake clock's.
  WebhookAttempt attempt;
  attempt.sent_at_ms = FakeClock::system_now_ms();
  attempt.signature_timestamp = std::to_string(attempt.sent_at_ms / 1000);
  WebhookPost post;
  post.url = delivery.config.url;
  post.ca_file = delivery.config.ca_file;
  post.body = delivery.body;
  post.signature = sign_webhook(app->signing_secret_key, attempt.signature_timestamp, delivery.body);
  post.timestamp = attempt.signature_timestamp;
  delivery.attempts.push_back(std::move(attempt));
  delivery.state = WebhookDelivery::State::sending;
  transport_->post(std::move(post),
                   [this, id = delivery.id, epoch = epoch_](const WebhookPostResult& result) {
                     if (epoch == epoch_) sent(id, result);
                   });
}

void WebhookModule::sent(std::uint64_t id, const WebhookPostResult& result) {
  const auto it = deliveries_.find(id);
  if (it == deliveries_.end() || it->second.state != WebhookDelivery::State::sending) return;
  auto& delivery = it->second;
  changed(delivery);
  auto& attempt = delivery.attempts.back();
  attempt.status = result.status;
  bool success = result.status && *result.status >= 200 && *result.status < 300;
  const auto config = configs_.find(delivery.app_id);
  if (!delivery.answer && result.status && config != configs_.end() && config->second.drop_answers > 0) {
    --config->second.drop_answers;
    attempt.status.reset();
    attempt.error = "answer dropped (drop_answers)";
    success = false;
  } else if (!result.status) {
    attempt.error = result.error.empty() ? "no answer" : result.error;
  } else if (!success) {
    attempt.error = "answered " + std::to_string(*result.status);
  }

  if (delivery.answer) {
    ping_answered(delivery);
  } else if (success) {
    delivery.state = WebhookDelivery::State::delivered;
  } else if (static_cast<int>(delivery.attempts.size()) < delivery.max_attempts) {
    delivery.state = WebhookDelivery::State::pending;
    // retry_base_ms after the first attempt, doubled after each one that follows.
    const auto shift = static_cast<int>(delivery.attempts.size()) - 1;
    schedule(delivery, delivery.config.retry_base_ms << shift);
  } else {
    delivery.state = WebhookDelivery::State::failed;
    std::fprintf(stderr,
                 "platformpp-emulator: webhook event %s for application %s given up after %d attempts (last: "
                 "%s)\n",
                 delivery.event_type.c_str(), delivery.app_id.c_str(), delivery.max_attempts,
                 attempt.error.c_str());
  }
  prune();
}

void WebhookModule::ping_answered(WebhookDelivery& delivery) {
  auto answer = std::move(delivery.answer);
  delivery.answer.reset();
  auto& attempt = delivery.attempts.back();
  if (attempt.status == 204) {
    delivery.state = WebhookDelivery::State::delivered;
    configs_.insert_or_assign(delivery.app_id, delivery.config);
    changes_.touch(document_kind::kWebhookConfig, delivery.app_id);
    answer->set(HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                                     writer.StartObject();
                                     write_config(writer, &delivery.config);
                                     writer.EndObject();
                                   })));
    return;
  }
  delivery.state = WebhookDelivery::State::failed;
  if (attempt.status) attempt.error = "answered " + std::to_string(*attempt.status) + " (the PING needs 204)";
  FieldErrors errors;
  errors.add({"url"}, {"WEBHOOK_EVENTS_URL_INVALID",
                       "The URL could not be verified: its PING " +
                           (attempt.status ? attempt.error : "got no answer (" + attempt.error + ")") + "."});
  answer->set(invalid_form_body(errors));
}

void WebhookModule::prune() {
  std::size_t count = 0;
  for (const auto& [id, delivery] : deliveries_)
    count += delivery.finished() ? 1 : 0;
  for (auto it = deliveries_.begin(); count > kKeptFinished && it != deliveries_.end();) {
    if (it->second.finished()) {
      changes_.touch(document_kind::kWebhookDelivery, std::to_string(it->first));
      it = deliveries_.erase(it);
      --count;
    } else {
      ++it;
    }
  }
}

// ---- admin routes ----------------------------------------------------------------------------------------

HttpResponse WebhookModule::admin_put_webhook_events(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  WebhookConfig config;
  if (const auto text = fields.string("url", true)) {
    std::string why;
    if (auto url = parse_webhook_url(*text, why)) {
      config.url = std::move(*url);
    } else {
      fields.add_issue("url", {"URL_TYPE_INVALID_URL", why});
    }
  }
  if (const auto* raw = fields.value("event_types", false)) {
    if (!raw->IsArray()) {
      fields.add_issue("event_types", {"BASE_TYPE_ARRAY", "Must be an array of event types."});
    } else {
      config.event_types.emplace();
      for (rapidjson::SizeType i = 0; i < raw->Size(); ++i) {
        const auto& entry = (*raw)[i];
        const std::string_view name = entry.IsString()
                                          ? std::string_view(entry.GetString(), entry.GetStringLength())
                                          : std::string_view();
        if (std::find(kKnownEventTypes.begin(), kKnownEventTypes.end(), name) == kKnownEventTypes.end()) {
          errors.add({"event_types", std::to_string(i)},
                     {"ENUM_TYPE_COERCE", "Must be one of the platform's webhook event types."});
        } else {
          config.event_types->emplace(name);
        }
      }
    }
  }
  config.retry_base_ms =
      fields.integer("retry_base_ms", false, 1, kRetryBaseMaxMs).value_or(kRetryBaseDefaultMs);
  config.drop_answers = fields.integer("drop_answers", false, 0, kDropAnswersMax).value_or(0);
  config.ca_file = fields.string("ca_file", false);
  if (config.ca_file && config.ca_file->empty()) fields.add_issue("ca_file", required_field_issue());
  if (!errors.empty()) return invalid_form_body(errors);
  const Application* app = state_.find_application(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  if (transport_ == nullptr) {
    return error_response(503, error_code::kGeneral,
                          "Webhook events need the emulator's network side, which is not running.");
  }

  // Like the developer portal: a signed PING first, and the URL is taken only if it answers 204.
  auto ping = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("version");
    writer.Int(1);
    writer.Key("application_id");
    write_string(writer, app->id);
    writer.Key("type");
    writer.Int(0);
    writer.EndObject();
  });
  auto& delivery =
      add_delivery(app->id, std::string(webhook_event::kPing), std::move(config), std::move(ping), 1);
  delivery.answer = std::make_shared<DeferredResponse>();
  auto answer = delivery.answer;
  send(delivery);
  return HttpResponse::later(std::move(answer));
}

HttpResponse WebhookModule::admin_get_webhook_events(const RouteContext& context) {
  const Application* app = state_.find_application(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  const auto config = configs_.find(app->id);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              write_config(writer, config == configs_.end() ? nullptr : &config->second);
                              writer.Key("deliveries");
                              writer.StartArray();
                              for (const auto& [id, delivery] : deliveries_) {
                                if (delivery.app_id == app->id) write_delivery(writer, delivery);
                              }
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

// {user_id, quest_id}: the user joins one of the application's Quests, and QUEST_USER_ENROLLMENT goes to its
// webhook events URL. The platform lists the event but does not send it to applications yet and has published
// no payload: the emulator's data is {quest_id, user_id, user, enrolled_at} (the fake clock's time), so that
// a game server's handler can be exercised before the platform enables it.
HttpResponse WebhookModule::admin_enroll_in_quest(const RouteContext& context) {
  const Application* app = state_.find_application(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto user_id = fields.string("user_id", true);
  const auto quest_id = fields.string("quest_id", true);
  if (quest_id && quest_id->empty())
    fields.add_issue("quest_id", {"BASE_TYPE_REQUIRED", "This field is required"});
  if (!errors.empty()) return invalid_form_body(errors);
  const User* user = state_.find_user(*user_id);
  if (user == nullptr) return unknown_user();
  const auto now = clock_.now_ms();  // one moment: the event's timestamp and enrolled_at
  const auto enrolled_at = format_rfc3339_ms(now);
  auto data = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("quest_id");
    write_string(writer, *quest_id);
    writer.Key("user_id");
    write_string(writer, user->id);
    writer.Key("user");
    write_raw(writer, user_json(*user), rapidjson::kObjectType);
    writer.Key("enrolled_at");
    write_string(writer, enrolled_at);
    writer.EndObject();
  });
  emit(app->id, webhook_event::kQuestUserEnrollment, data, now);
  return HttpResponse::json(200, std::move(data));
}

}  // namespace platformpp::emulator
