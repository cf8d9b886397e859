#pragma once
// Interactions on the wire: the interaction object the platform sends (read by ParseInteraction, public in
// interactions.hpp) and the interaction response the backend answers with (its JSON, or the multipart body
// that carries files).

#include "backend/message_json.hpp"
#include "json/json.hpp"

#include <platformpp/interactions.hpp>

#include <optional>

namespace platformpp::backend {

/// The interaction object in a parsed document; nullopt when it is not one (see ParseInteraction).
std::optional<Interaction> ParseInteractionValue(const json::Value& value);

/// The response as the callback route takes it: `{type, data?}`, multipart when its message carries files.
EncodedBody InteractionResponseBody(const InteractionResponse& response);

/// The callback types an interaction of `type` accepts.
bool CallbackAllowed(InteractionType type, InteractionCallbackType callback) noexcept;

}  // namespace platformpp::backend
