// EmulatorAdmin: interactions played as a user (a command, a component, a modal submit) and the interactions
// endpoint URL.
#include <platformpp/testkit/emulator.hpp>

#include "admin_json.hpp"
#include "json/json.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <vector>

namespace platformpp::testkit {

using detail::Expect;
using detail::JsonObject;

namespace {

std::string InteractionsPath(uint64_t appId) {
  return "/applications/" + std::to_string(appId) + "/interactions";
}

EmulatorAdmin::InteractionOutcome OutcomeOf(const json::Document& document) {
  EmulatorAdmin::InteractionOutcome outcome;
  if (const json::Value* interaction = json::Member(document, "interaction");
      interaction && interaction->IsObject()) {
    outcome.interactionId = json::GetSnowflake(*interaction, "id").value_or(0);
    outcome.token = std::string(json::GetString(*interaction, "token").value_or(""));
    outcome.type = static_cast<int>(json::GetInt(*interaction, "type").value_or(0));
  }
  if (const json::Value* response = json::Member(document, "response"); response && response->IsObject()) {
    outcome.responseType = static_cast<int>(json::GetInt(*response, "type").value_or(0));
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    response->Accept(writer);
    outcome.responseJson.assign(buffer.GetString(), buffer.GetSize());
  }
  outcome.messageId = json::GetSnowflake(document, "message_id").value_or(0);
  outcome.error = std::string(json::GetString(document, "error").value_or(""));
  return outcome;
}

}  // namespace

EmulatorAdmin::InteractionOutcome EmulatorAdmin::InvokeCommand(uint64_t appId,
                                                               const CommandInvocation& invocation) {
  JsonObject body;
  body.Add("user_id", std::to_string(invocation.userId));
  if (invocation.channelId != 0) body.Add("channel_id", std::to_string(invocation.channelId));
  if (invocation.commandId != 0) {
    body.Add("command_id", std::to_string(invocation.commandId));
  } else {
    body.Add("name", invocation.name);
    body.Add("type", static_cast<int64_t>(invocation.type));
  }
  if (!invocation.optionsJson.empty()) body.AddRaw("options", invocation.optionsJson);
  if (invocation.targetId != 0) body.Add("target_id", std::to_string(invocation.targetId));
  if (invocation.autocomplete) body.Add("autocomplete", true);
  if (!invocation.attachmentsJson.empty()) body.AddRaw("attachments", invocation.attachmentsJson);
  if (!invocation.locale.empty()) body.Add("locale", invocation.locale);
  return OutcomeOf(
      Expect(Request("POST", InteractionsPath(appId) + "/commands", body.Done()), 200, "invoke command"));
}

EmulatorAdmin::InteractionOutcome EmulatorAdmin::UseComponent(uint64_t appId, uint64_t userId,
                                                              uint64_t channelId, uint64_t messageId,
                                                              const std::string& customId,
                                                              const std::vector<std::string>& values) {
  JsonObject body;
  body.Add("user_id", std::to_string(userId));
  body.Add("channel_id", std::to_string(channelId));
  body.Add("message_id", std::to_string(messageId));
  body.Add("custom_id", customId);
  if (!values.empty()) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    writer.StartArray();
    for (const auto& value : values)
      writer.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
    writer.EndArray();
    body.AddRaw("values", std::string(buffer.GetString(), buffer.GetSize()));
  }
  return OutcomeOf(
      Expect(Request("POST", InteractionsPath(appId) + "/components", body.Done()), 200, "use component"));
}

EmulatorAdmin::InteractionOutcome EmulatorAdmin::SubmitModal(uint64_t appId, uint64_t interactionId,
                                                             const std::string& valuesJson,
                                                             const std::string& attachmentsJson) {
  JsonObject body;
  body.AddRaw("values", valuesJson.empty() ? "{}" : valuesJson);
  if (!attachmentsJson.empty()) body.AddRaw("attachments", attachmentsJson);
  return OutcomeOf(
      Expect(Request("POST", InteractionsPath(appId) + "/" + std::to_string(interactionId) + "/modal-submit",
                     body.Done()),
             200, "submit modal"));
}

void EmulatorAdmin::SetInteractionsEndpoint(uint64_t appId, const std::string& url,
                                            const std::string& caFile) {
  JsonObject body;
  if (url.empty()) {
    body.AddRaw("url", "null");
  } else {
    body.Add("url", url);
    if (!caFile.empty()) body.Add("ca_file", caFile);
  }
  Expect(Request("PUT", "/applications/" + std::to_string(appId) + "/interactions-endpoint", body.Done()),
         200, "set interactions endpoint URL");
}

}  // namespace platformpp::testkit
