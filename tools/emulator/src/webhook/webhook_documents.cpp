// Webhook events as documents (core/state_changes.hpp): each application's configuration, each delivery with
// its attempts, and the next delivery id, every document with "v", its format version.
//
// An event the emulator accepted to send must not be lost by a restart, so a pending delivery keeps its body
// (the same bytes are sent again: receivers recognise a repeat by them), its attempts (they count towards the
// limit and set the back-off) and its next try as wall-clock time. A delivery in flight is written as what it
// becomes if the process stops before the answer: pending, due at once, its last attempt marked interrupted
// (the game server may have had it; receivers handle repeats). Finished deliveries stay as history, as long
// as the outbox keeps them in memory (the newest 1000): GET webhook-events shows the same outbox after a
// restart, and a given-up event is the evidence of why a game server missed it.
#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/api_error.hpp"
#include "core/document_json.hpp"
#include "webhook/webhook_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::string_view kInterrupted = "interrupted: the emulator stopped before the answer came";

using document::check_format;
using document::document_json;

std::optional<std::uint64_t> parse_delivery_id(const std::string& id) {
  std::uint64_t value = 0;
  const auto* end = id.data() + id.size();
  if (id.empty() || std::from_chars(id.data(), end, value).ptr != end) return std::nullopt;
  return value;
}

// A PING is kept only once answered: the admin PUT waiting for it does not outlive the process.
bool kept(const WebhookDelivery& delivery) {
  return delivery.event_type != webhook_event::kPing || delivery.finished();
}

WebhookUrl read_url(const rapidjson::Value& body) {
  const auto text = document::string(body, "url");
  std::string why;
  auto url = parse_webhook_url(text, why);
  if (!url) throw std::invalid_argument("\"url\" is not a webhook events URL: " + why);
  return std::move(*url);
}

std::string config_document(const WebhookConfig& config) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "url", config.url.text);
    if (config.event_types) {
      document::write_member(
          writer, "event_types",
          std::vector<std::string>(config.event_types->begin(), config.event_types->end()));
    }
    document::write_member(writer, "retry_base_ms", config.retry_base_ms);
    document::write_member(writer, "ca_file", config.ca_file);
  });
}

WebhookConfig read_config(const rapidjson::Value& body) {
  WebhookConfig config;
  config.url = read_url(body);
  if (const auto it = body.FindMember("event_types"); it != body.MemberEnd() && !it->value.IsNull()) {
    const auto types = document::strings(body, "event_types");
    config.event_types.emplace(types.begin(), types.end());
  }
  config.retry_base_ms = document::integer(body, "retry_base_ms");
  if (config.retry_base_ms < 1) throw std::invalid_argument("\"retry_base_ms\" is not positive");
  config.ca_file = document::optional_string(body, "ca_file");
  return config;
}

const char* stored_state_name(WebhookDelivery::State state) {
  switch (state) {
    case WebhookDelivery::State::delivered:
      return "delivered";
    case WebhookDelivery::State::failed:
      return "failed";
    case WebhookDelivery::State::pending:
    case WebhookDelivery::State::sending:  // written as pending (the file's view of a stop mid-attempt)
      break;
  }
  return "pending";
}

std::string delivery_document(const WebhookDelivery& delivery) {
  const bool in_flight = delivery.state == WebhookDelivery::State::sending && !delivery.attempts.empty();
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "app_id", delivery.app_id);
    document::write_member(writer, "event_type", delivery.event_type);
    document::write_member(writer, "url", delivery.config.url.text);
    document::write_member(writer, "ca_file", delivery.config.ca_file);
    document::write_member(writer, "retry_base_ms", delivery.config.retry_base_ms);
    document::write_member(writer, "max_attempts", delivery.max_attempts);
    document::write_member(writer, "state", stored_state_name(delivery.state));
    if (!delivery.finished()) {
      document::write_member(writer, "next_attempt_at_ms",
                             in_flight ? delivery.attempts.back().sent_at_ms : delivery.due_system_ms);
    }
    writer.Key("attempts");
    writer.StartArray();
    for (std::size_t i = 0; i < delivery.attempts.size(); ++i) {
      const auto& attempt = delivery.attempts[i];
      writer.StartObject();
      document::write_member(writer, "sent_at_ms", attempt.sent_at_ms);
      document::write_member(writer, "signature_timestamp", attempt.signature_timestamp);
      if (attempt.status) document::write_member(writer, "status", *attempt.status);
      if (in_flight && i + 1 == delivery.attempts.size() && attempt.error.empty()) {
        document::write_member(writer, "error", kInterrupted);
      } else if (!attempt.error.empty()) {
        document::write_member(writer, "error", attempt.error);
      }
      writer.EndObject();
    }
    writer.EndArray();
    document::write_member(writer, "body", delivery.body);
  });
}

WebhookDelivery read_delivery(std::uint64_t id, const rapidjson::Value& body) {
  WebhookDelivery delivery;
  delivery.id = id;
  delivery.app_id = document::string(body, "app_id");
  delivery.event_type = document::string(body, "event_type");
  delivery.config.url = read_url(body);
  delivery.config.ca_file = document::optional_string(body, "ca_file");
  delivery.config.retry_base_ms = document::integer(body, "retry_base_ms");
  delivery.max_attempts = static_cast<int>(document::integer(body, "max_attempts"));
  if (delivery.config.retry_base_ms < 1 || delivery.max_attempts < 1) {
    throw std::invalid_argument("\"retry_base_ms\" and \"max_attempts\" must be positive");
  }
  const auto state = document::string(body, "state");
  if (state == "pending") {
    delivery.state = WebhookDelivery::State::pending;
  } else if (state == "delivered") {
    delivery.state = WebhookDelivery::State::delivered;
  } else if (state == "failed") {
    delivery.state = WebhookDelivery::State::failed;
  } else {
    throw std::invalid_argument("\"state\" is not pending, delivered or failed");
  }
  if (!kept(delivery)) throw std::invalid_argument("an unanswered PING is not kept");
  for (const auto& value : document::array(body, "attempts").GetArray()) {
    WebhookAttempt attempt;
    attempt.sent_at_ms = document::integer(value, "sent_at_ms");
    attempt.signature_timestamp = document::string(value, "signature_timestamp");
    if (const auto status = document::optional_integer(value, "status"))
      attempt.status = static_cast<int>(*status);
    attempt.error = document::optional_string(value, "error").value_or("");
    delivery.attempts.push_back(std::move(attempt));
  }
  delivery.body = document::string(body, "body");
  if (delivery.state == WebhookDelivery::State::pending) {
    // Due at the same wall-clock time as before the restart; at once if that has passed.
    delivery.due_system_ms = document::integer(body, "next_attempt_at_ms");
    delivery.due_steady_ms =
        steady_now_ms() + std::max<std::int64_t>(0, delivery.due_system_ms - FakeClock::system_now_ms());
  }
  return delivery;
}

}  // namespace

void WebhookModule::changed(const WebhookDelivery& delivery) {
  changes_.touch(document_kind::kWebhookDelivery, std::to_string(delivery.id));
}

void WebhookModule::register_documents() {
  changes_.register_kind(DocumentKind{std::string(document_kind::kWebhookConfig),
                                      [this](const std::string& id) -> std::optional<std::string> {
                                        const auto it = configs_.find(id);
                                        return it == configs_.end()
                                                   ? std::nullopt
                                                   : std::optional(config_document(it->second));
                                      },
                                      [this](const std::string& id, const rapidjson::Value& body) {
                                        check_format(body);
                                        configs_.insert_or_assign(id, read_config(body));
                                      },
                                      [this] {
                                        std::vector<std::string> ids;
                                        ids.reserve(configs_.size());
                                        for (const auto& entry : configs_)
                                          ids.push_back(entry.first);
                                        return ids;
                                      },
                                      [this] { configs_.clear(); }});
  changes_.register_kind(DocumentKind{
      std::string(document_kind::kWebhookOutbox),
      [this](const std::string&) -> std::optional<std::string> {
        return document_json([&](JsonWriter& writer) {
          document::write_member(writer, "next_delivery_id", static_cast<std::int64_t>(next_id_));
        });
      },
      [this](const std::string&, const rapidjson::Value& body) {
        check_format(body);
        const auto next = document::integer(body, "next_delivery_id");
        if (next < 1) throw std::invalid_argument("\"next_delivery_id\" is not positive");
        next_id_ = static_cast<std::uint64_t>(next);
      },
      [] { return std::vector<std::string>{std::string(document_kind::kWebhookOutboxId)}; },
      [this] { next_id_ = 1; }});
  changes_.register_kind(
      DocumentKind{std::string(document_kind::kWebhookDelivery),
                   [this](const std::string& id) -> std::optional<std::string> {
                     const auto number = parse_delivery_id(id);
                     const auto it = number ? deliveries_.find(*number) : deliveries_.end();
                     if (it == deliveries_.end() || !kept(it->second)) return std::nullopt;
                     return delivery_document(it->second);
                   },
                   [this](const std::string& id, const rapidjson::Value& body) {
                     check_format(body);
                     const auto number = parse_delivery_id(id);
                     if (!number) throw std::invalid_argument("id " + id + " is not a delivery id");
                     deliveries_.insert_or_assign(*number, read_delivery(*number, body));
                     // Ids are not reused, even if the outbox document is older than this one.
                     next_id_ = std::max(next_id_, *number + 1);
                   },
                   [this] {
                     std::vector<std::string> ids;
                     for (const auto& [id, delivery] : deliveries_) {
                       if (kept(delivery)) ids.push_back(std::to_string(id));
                     }
                     return ids;
                   },
                   [this] {
                     // A PUT still waiting for its PING gets an answer rather than none.
                     for (auto& entry : deliveries_) {
                       if (auto answer = std::move(entry.second.answer)) {
                         answer->set(error_response(
                             503, error_code::kGeneral,
                             "The emulator's state was replaced while the URL's PING was in flight."));
                       }
                     }
                     deliveries_.clear();
                     ++epoch_;  // answers to POSTs made before are not this outbox's
                   }});
}

}  // namespace platformpp::emulator
