#pragma once
// Searching a guild's messages with the bot token (BackendClient::SearchGuildMessages): the query, checked
// by CheckMessageSearchQuery before anything leaves the process, and the result. While the platform has not
// yet indexed the guild it answers 202 "Index not yet available" (code 110000) instead of results: the
// result then says so (`indexing`, with the seconds to wait), and the call succeeds, since nothing failed.

#include <platformpp/client_result.hpp>
#include <platformpp/message_payload.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// The limits CheckMessageSearchQuery applies, as the platform sets them.
namespace search_limits {
/// A page holds 1 to 25 messages.
inline constexpr int32_t MaxLimit = 25;
/// The offset is 0 to 9975 (so that offset + limit stays within 10000).
inline constexpr int32_t MaxOffset = 9975;
/// `content` is at most 1024 characters (code points).
inline constexpr std::size_t MaxContentLength = 1024;
/// At most 500 channel ids.
inline constexpr std::size_t MaxChannelIds = 500;
/// At most 100 values in each other list.
inline constexpr std::size_t MaxListValues = 100;
}  // namespace search_limits

/// How results are ordered (`sort_by`).
enum class SearchSortBy {
  /// By time (the platform's default).
  Timestamp,
  /// By how well they match `content`; newest first among equals.
  Relevance,
};

/// Which way (`sort_order`); ignored with relevance.
enum class SearchSortOrder {
  /// Newest first (the platform's default).
  Descending,
  /// Oldest first.
  Ascending,
};

/// What SearchGuildMessages asks for: every set filter must match. Lists match any of their values.
struct MessageSearchQuery {
  /// Words every message must contain, at most 1024 characters; empty: any.
  std::string content;
  /// Authors' ids (`author_id`).
  std::vector<uint64_t> authorIds;
  /// Author kinds (`author_type`): "user", "bot", "webhook", each negated with a leading "-".
  std::vector<std::string> authorTypes;
  /// Channels' ids (`channel_id`), at most 500.
  std::vector<uint64_t> channelIds;
  /// Users the messages mention (`mentions`).
  std::vector<uint64_t> mentions;
  /// Roles the messages mention (`mentions_role_id`).
  std::vector<uint64_t> mentionsRoleIds;
  /// What the messages have (`has`): "image", "sound", "video", "file", "sticker", "embed", "link", "poll",
  /// "snapshot", each negated with a leading "-".
  std::vector<std::string> has;
  /// Only pinned (true) or unpinned (false) messages.
  std::optional<bool> pinned;
  /// Only messages that mention (or do not mention) \@everyone.
  std::optional<bool> mentionEveryone;
  /// Include age-restricted channels.
  std::optional<bool> includeNsfw;
  /// Order of the results.
  SearchSortBy sortBy = SearchSortBy::Timestamp;
  /// Direction of the results.
  SearchSortOrder sortOrder = SearchSortOrder::Descending;
  /// Messages a page, 1 to 25.
  int32_t limit = search_limits::MaxLimit;
  /// Results to skip, 0 to 9975.
  int32_t offset = 0;
  /// Only messages after this id (0: no bound).
  uint64_t minId = 0;
  /// Only messages before this id (0: no bound).
  uint64_t maxId = 0;
};

/// One page of search results, or word that the guild is not yet indexed.
struct MessageSearchResult {
  /// How many messages match in all.
  int64_t totalResults = 0;
  /// This page's messages.
  std::vector<ChannelMessage> messages;
  /// True when the platform has not yet indexed the guild (HTTP 202, code 110000): no results; ask again
  /// after `retryAfterSeconds`.
  bool indexing = false;
  /// With `indexing`: the seconds to wait before asking again.
  double retryAfterSeconds = 0;
  /// With `indexing`: how many messages the platform has indexed so far.
  int64_t documentsIndexed = 0;
};

/// Every rule `query` breaks, at its wire name ("limit", "offset", "content", "has.0", "author_id.1");
/// empty when it may be sent.
std::vector<FieldError> CheckMessageSearchQuery(const MessageSearchQuery& query);

/// Reads a search answer: results ({total_results, messages: [[message]]}) or the not-yet-indexed answer
/// ({code: 110000, retry_after, documents_indexed}); nullopt when `json` is neither. Never throws.
std::optional<MessageSearchResult> ParseMessageSearchResult(std::string_view json);

}  // namespace platformpp::backend
