#pragma once
// The body of a webhook request, once its signature has been checked: the parser of network input that
// VerifyWebhookEvent uses, on its own for tests and the fuzz target.

#include <platformpp/webhook_events.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::backend {

/// Deeper nesting of arrays and objects than this is refused (400) before the body is read: parsing and
/// serializing recurse, and nothing the platform sends comes near it.
constexpr std::size_t kMaxWebhookNesting = 64;

/// `{version, application_id, type, event?}`; nothing (and the reason in `error`) when the body is not one.
std::optional<WebhookEvent> ParseWebhookEventBody(std::string_view body, std::string& error);

}  // namespace platformpp::backend
