// EmulatorAdmin: webhook events (an application's URL and its deliveries) and the user removing an
// application.
#include <platformpp/testkit/emulator.hpp>

#include "admin_json.hpp"
#include "json/json.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace platformpp::testkit {

using detail::Expect;
using detail::JsonObject;

namespace {

std::string WebhookEventsPath(uint64_t appId) {
  return "/applications/" + std::to_string(appId) + "/webhook-events";
}

std::string StringArray(const std::vector<std::string>& values) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartArray();
  for (const auto& value : values)
    writer.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
  writer.EndArray();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

void EmulatorAdmin::SetWebhookEvents(uint64_t appId, const WebhookEventsConfig& config) {
  JsonObject body;
  body.Add("url", config.url);
  if (!config.eventTypes.empty()) body.AddRaw("event_types", StringArray(config.eventTypes));
  if (config.retryBaseMs) body.Add("retry_base_ms", *config.retryBaseMs);
  if (!config.caFile.empty()) body.Add("ca_file", config.caFile);
  if (config.dropAnswers > 0) body.Add("drop_answers", config.dropAnswers);
  Expect(Request("PUT", WebhookEventsPath(appId), body.Done()), 200, "set webhook events URL");
}

std::vector<EmulatorAdmin::WebhookDelivery> EmulatorAdmin::WebhookDeliveries(uint64_t appId) {
  auto document = Expect(Request("GET", WebhookEventsPath(appId)), 200, "webhook deliveries");
  std::vector<WebhookDelivery> deliveries;
  const json::Value* list = json::Member(document, "deliveries");
  if (list == nullptr || !list->IsArray()) throw std::runtime_error("webhook deliveries: no `deliveries`");
  for (const auto& entry : list->GetArray()) {
    if (!entry.IsObject()) continue;
    WebhookDelivery delivery;
    delivery.eventType = std::string(json::GetString(entry, "event_type").value_or(""));
    delivery.state = std::string(json::GetString(entry, "state").value_or(""));
    delivery.body = std::string(json::GetString(entry, "body").value_or(""));
    if (const json::Value* attempts = json::Member(entry, "attempts"); attempts && attempts->IsArray()) {
      for (const auto& item : attempts->GetArray()) {
        if (!item.IsObject()) continue;
        WebhookAttempt attempt;
        attempt.signatureTimestamp = std::string(json::GetString(item, "signature_timestamp").value_or(""));
        attempt.status = static_cast<int>(json::GetInt(item, "status").value_or(0));
        attempt.error = std::string(json::GetString(item, "error").value_or(""));
        delivery.attempts.push_back(std::move(attempt));
      }
    }
    deliveries.push_back(std::move(delivery));
  }
  return deliveries;
}

void EmulatorAdmin::RemoveApplication(uint64_t userId, uint64_t appId) {
  auto response =
      Request("DELETE", "/users/" + std::to_string(userId) + "/applications/" + std::to_string(appId));
  if (response.status != 204) throw std::runtime_error("remove application: " + response.body);
}

}  // namespace platformpp::testkit
