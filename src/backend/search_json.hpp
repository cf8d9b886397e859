#pragma once
// Searching a guild's messages on the wire (platformpp/message_search.hpp): the query string of Search Guild
// Messages and its answer, results or the not-yet-indexed answer.

#include "json/json.hpp"

#include <platformpp/message_search.hpp>

#include <optional>
#include <string>

namespace platformpp::backend {

/// The query string of `query` ("?limit=25&..."): array parameters repeat their name, text is
/// percent-encoded, defaults the platform applies anyway are sent too (limit, sort_by, sort_order).
std::string MessageSearchQueryString(const MessageSearchQuery& query);

/// A search answer; nullopt when `value` is neither results nor the not-yet-indexed answer.
std::optional<MessageSearchResult> ParseMessageSearchResultValue(const json::Value& value);

}  // namespace platformpp::backend
