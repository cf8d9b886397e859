// Webhook requests as they arrive at a game server: the body's envelope with its typed event, the typed
// parser on its own for every event name, and the whole verification with the input as timestamp header,
// signature and body (refused, never trusted, never a crash).
#include <platformpp/webhook_events.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "backend/webhook_event_body.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string error;
  auto event = platformpp::backend::ParseWebhookEventBody(input, error);
  if (!event && error.empty()) __builtin_trap();
  if (event) {
    if (event->type == platformpp::backend::WebhookEvent::Type::Event && event->eventId.size() != 64)
      __builtin_trap();
    // Typing the kept data again gives the same kind of event.
    auto again = platformpp::backend::ParseWebhookEventData(event->eventType, event->dataJson);
    if (again.index() != event->data.index()) __builtin_trap();
    // A typed entitlement is one the SDK's entitlement reader accepted whole: its identity is never zero.
    if (const auto* created = std::get_if<platformpp::backend::EntitlementCreate>(&event->data)) {
      const auto& entitlement = created->entitlement;
      if (entitlement.id == 0 || entitlement.skuId == 0 || entitlement.applicationId == 0) __builtin_trap();
    }
  }
  for (const char* name :
       {"APPLICATION_AUTHORIZED", "APPLICATION_DEAUTHORIZED", "ENTITLEMENT_CREATE", "QUEST_USER_ENROLLMENT",
        "LOBBY_MESSAGE_CREATE", "LOBBY_MESSAGE_UPDATE", "LOBBY_MESSAGE_DELETE", "GAME_DIRECT_MESSAGE_CREATE",
        "GAME_DIRECT_MESSAGE_UPDATE", "GAME_DIRECT_MESSAGE_DELETE"}) {
    (void)platformpp::backend::ParseWebhookEventData(name, input);
  }
  // The first line, if any, is the timestamp header; a fixed key and signature: the check must refuse.
  const auto newline = input.find('\n');
  const std::string_view timestamp = newline == std::string_view::npos ? input : input.substr(0, newline);
  const std::string_view body = newline == std::string_view::npos ? input : input.substr(newline + 1);
  const std::string key(64, 'a');
  const std::string signature(128, 'b');
  auto verdict = platformpp::backend::VerifyWebhookEvent(key, signature, timestamp, body);
  if (verdict.status != 401 || verdict.event) __builtin_trap();
  return 0;
}
