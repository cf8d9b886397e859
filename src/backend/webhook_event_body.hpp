#pragma once
// The body of a webhook request, once its signature has been checked: the parser of network input that
// VerifyWebhookEvent uses, on its own for tests and the fuzz target.

#include <platformpp/webhook_events.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace platformpp::backend {

/// `{version, application_id, type, event?}`; nothing (and the reason in `error`) when the body is not one.
std::optional<WebhookEvent> ParseWebhookEventBody(std::string_view body, std::string& error);

}  // namespace platformpp::backend
