// Search Guild Messages on the wire (search_json.hpp) and the query's checks, which mirror the platform's
// rules so that a query it would refuse never leaves the process.
#include "backend/search_json.hpp"

#include "backend/message_json.hpp"
#include "core/utf8.hpp"
#include "net/url.hpp"

#include <exception>
#include <initializer_list>
#include <string_view>

namespace platformpp::backend {
namespace {

// The platform's code of the 202 answer "Index not yet available. Try again later".
constexpr int64_t kIndexNotYetAvailable = 110000;

void Add(std::string& query, std::string_view name, const std::string& value) {
  query += query.empty() ? '?' : '&';
  query += name;
  query += '=';
  query += value;
}

void AddIds(std::string& query, std::string_view name, const std::vector<uint64_t>& ids) {
  for (uint64_t id : ids)
    Add(query, name, std::to_string(id));
}

void AddTexts(std::string& query, std::string_view name, const std::vector<std::string>& values) {
  for (const auto& value : values)
    Add(query, name, net::UrlEncode(value));
}

void CheckIds(const std::vector<uint64_t>& ids, const char* name, std::size_t max,
              std::vector<FieldError>& errors) {
  if (ids.size() > max) {
    errors.push_back(FieldError{name, "BASE_TYPE_MAX_LENGTH",
                                std::string(name) + ": at most " + std::to_string(max) + " values"});
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] == 0) {
      const std::string path = std::string(name) + "." + std::to_string(i);
      errors.push_back(FieldError{path, "BASE_TYPE_REQUIRED", path + ": must not be 0"});
    }
  }
}

void CheckChoices(const std::vector<std::string>& values, const char* name,
                  std::initializer_list<std::string_view> choices, std::vector<FieldError>& errors) {
  if (values.size() > search_limits::MaxListValues) {
    errors.push_back(FieldError{name, "BASE_TYPE_MAX_LENGTH", std::string(name) + ": at most 100 values"});
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::string_view value = values[i];
    if (!value.empty() && value.front() == '-') value.remove_prefix(1);  // negated
    bool known = false;
    for (std::string_view choice : choices)
      known = known || value == choice;
    if (!known) {
      const std::string path = std::string(name) + "." + std::to_string(i);
      errors.push_back(FieldError{path, "BASE_TYPE_CHOICES", path + ": not one of the platform's values"});
    }
  }
}

}  // namespace

std::vector<FieldError> CheckMessageSearchQuery(const MessageSearchQuery& query) {
  std::vector<FieldError> errors;
  if (query.limit < 1 || query.limit > search_limits::MaxLimit) {
    errors.push_back(FieldError{"limit", "NUMBER_TYPE_OUT_OF_RANGE", "limit: must be 1 to 25"});
  }
  if (query.offset < 0 || query.offset > search_limits::MaxOffset) {
    errors.push_back(FieldError{"offset", "NUMBER_TYPE_OUT_OF_RANGE", "offset: must be 0 to 9975"});
  }
  auto length = core::CountCodePoints(query.content);
  if (!length) {
    errors.push_back(FieldError{"content", "BASE_TYPE_INVALID", "content: must be valid UTF-8"});
  } else if (*length > search_limits::MaxContentLength) {
    errors.push_back(
        FieldError{"content", "BASE_TYPE_MAX_LENGTH", "content: must be at most 1024 characters"});
  }
  CheckIds(query.authorIds, "author_id", search_limits::MaxListValues, errors);
  CheckIds(query.channelIds, "channel_id", search_limits::MaxChannelIds, errors);
  CheckIds(query.mentions, "mentions", search_limits::MaxListValues, errors);
  CheckIds(query.mentionsRoleIds, "mentions_role_id", search_limits::MaxListValues, errors);
  CheckChoices(query.authorTypes, "author_type", {"user", "bot", "webhook"}, errors);
  CheckChoices(query.has, "has",
               {"image", "sound", "video", "file", "sticker", "embed", "link", "poll", "snapshot"}, errors);
  return errors;
}

std::string MessageSearchQueryString(const MessageSearchQuery& query) {
  std::string parameters;
  Add(parameters, "limit", std::to_string(query.limit));
  if (query.offset != 0) Add(parameters, "offset", std::to_string(query.offset));
  if (!query.content.empty()) Add(parameters, "content", net::UrlEncode(query.content));
  AddIds(parameters, "author_id", query.authorIds);
  AddTexts(parameters, "author_type", query.authorTypes);
  AddIds(parameters, "channel_id", query.channelIds);
  AddIds(parameters, "mentions", query.mentions);
  AddIds(parameters, "mentions_role_id", query.mentionsRoleIds);
  AddTexts(parameters, "has", query.has);
  if (query.pinned) Add(parameters, "pinned", *query.pinned ? "true" : "false");
  if (query.mentionEveryone) Add(parameters, "mention_everyone", *query.mentionEveryone ? "true" : "false");
  if (query.includeNsfw) Add(parameters, "include_nsfw", *query.includeNsfw ? "true" : "false");
  if (query.minId != 0) Add(parameters, "min_id", std::to_string(query.minId));
  if (query.maxId != 0) Add(parameters, "max_id", std::to_string(query.maxId));
  Add(parameters, "sort_by", query.sortBy == SearchSortBy::Relevance ? "relevance" : "timestamp");
  Add(parameters, "sort_order", query.sortOrder == SearchSortOrder::Ascending ? "asc" : "desc");
  return parameters;
}

std::optional<MessageSearchResult> ParseMessageSearchResultValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  MessageSearchResult result;
  // The 202 answer while the guild is not yet indexed: no results, a wait.
  if (json::GetInt(value, "code") == kIndexNotYetAvailable) {
    result.indexing = true;
    if (const json::Value* retry = json::Member(value, "retry_after"); retry != nullptr && retry->IsNumber())
      result.retryAfterSeconds = retry->GetDouble();
    result.documentsIndexed = json::GetInt(value, "documents_indexed").value_or(0);
    return result;
  }
  auto total = json::GetInt(value, "total_results");
  const json::Value* messages = json::Member(value, "messages");
  if (!total || messages == nullptr || !messages->IsArray()) return std::nullopt;
  result.totalResults = *total;
  // Each hit is an array whose first message is the one that matched (the platform once sent context
  // messages around it).
  for (const json::Value& hit : messages->GetArray()) {
    if (!hit.IsArray() || hit.Empty()) return std::nullopt;
    auto message = ParseMessage(hit[0]);
    if (!message) return std::nullopt;
    result.messages.push_back(std::move(*message));
  }
  return result;
}

std::optional<MessageSearchResult> ParseMessageSearchResult(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document)) return std::nullopt;
    return ParseMessageSearchResultValue(document);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace platformpp::backend
