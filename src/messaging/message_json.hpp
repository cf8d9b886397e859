#pragma once
// Lobby messages and DMs of docs/social-protocol.md ("Lobbies and messages") decoded from JSON, the request
// bodies the SDK sends, and the platform's limits checked before anything is sent. Decoding tolerates any
// JSON value: a message without its identity (id, channel, author) comes back empty, never half-filled.

#include "json/json.hpp"

#include <platformpp/client_result.hpp>
#include <platformpp/message.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::messaging {

constexpr std::size_t kMaxContentCodePoints = 2000;
constexpr std::size_t kMaxMetadataCodePoints = 1000;  // keys and values together
constexpr int32_t kMinHistoryLimit = 1;
constexpr int32_t kMaxHistoryLimit = 200;
constexpr std::size_t kMaxNonceLength = 25;
constexpr uint64_t kEphemeralFlag = 1u << 6;

/// One message as received, with what the store needs beyond the handle's data.
struct ParsedMessage {
  MessageHandle::Data data;
  uint64_t flags = 0;
  bool Ephemeral() const noexcept { return (flags & kEphemeralFlag) != 0; }
};

/// A lobby message (it has `lobby_id`) or a DM. Needs non-zero `id`, `channel_id` and `author.id`;
/// `timestamp` must be ISO 8601 when present. `selfId` (the player, 0 when unknown) decides a DM's
/// RecipientId when the message has no `recipient_id`.
std::optional<ParsedMessage> ParseMessage(const json::Value& value, uint64_t selfId);

/// Content: valid UTF-8 of 1 to 2000 code points (path "content").
std::vector<FieldError> CheckContent(std::string_view content);
/// Metadata: at most 1000 code points of keys and values together (path "metadata").
std::vector<FieldError> CheckMetadata(const Metadata& metadata);
/// History limit: 1 to 200 (path "limit").
std::vector<FieldError> CheckHistoryLimit(int32_t limit);

/// `{content, metadata?, nonce, enforce_nonce: true}` of a lobby message or DM.
std::string MessageBody(std::string_view content, const Metadata& metadata, std::string_view nonce);
/// `{content}` of an edit.
std::string EditBody(std::string_view content);

}  // namespace platformpp::messaging
