#include "net/http_result.hpp"

#include "json/error_body.hpp"

#include <charconv>
#include <cmath>

namespace platformpp::net {
namespace {

std::optional<double> ParseSeconds(std::string_view text) {
  if (text.empty()) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0) {
    return std::nullopt;
  }
  return value;
}

std::optional<int> ParseInt(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

ClientResult Malformed(const HttpResponse& response, std::string why) {
  ClientResult::Details details;
  details.type = ErrorType::HTTPError;
  details.status = response.status;
  details.error = "malformed response: " + std::move(why);
  return ClientResult(std::move(details));
}

}  // namespace

RateLimitHeaders ReadRateLimitHeaders(const HttpResponse& response) {
  RateLimitHeaders h;
  h.limit = ParseInt(response.Header("X-RateLimit-Limit"));
  h.remaining = ParseInt(response.Header("X-RateLimit-Remaining"));
  h.resetAfter = ParseSeconds(response.Header("X-RateLimit-Reset-After"));
  h.bucket = std::string(response.Header("X-RateLimit-Bucket").substr(0, 128));
  h.global = response.Header("X-RateLimit-Global") == "true";
  h.scope = std::string(response.Header("X-RateLimit-Scope").substr(0, 16));
  h.retryAfter = ParseSeconds(response.Header("Retry-After"));
  return h;
}

double RetryAfterSeconds(const HttpResponse& response, const RateLimitHeaders& limits, bool& global) {
  json::Document body;
  if (json::Parse(response.body, body) && body.IsObject()) {
    global = global || json::GetBool(body, "global").value_or(false);
    if (auto value = json::GetNumber(body, "retry_after"); value && *value >= 0 && std::isfinite(*value)) {
      return *value;
    }
  }
  if (limits.retryAfter) return *limits.retryAfter;
  if (limits.resetAfter) return *limits.resetAfter;
  return 1.0;
}

ClientResult ResultOf(const HttpResponse& response) {
  if (!response.transport.Successful()) return response.transport;
  if (response.status >= 200 && response.status < 300) return {};
  std::optional<double> retryAfter = ParseSeconds(response.Header("Retry-After"));
  ClientResult::Details details = json::ParseErrorResponse(response.status, response.body, retryAfter);
  details.responseBody = response.body;
  return ClientResult(std::move(details));
}

ClientResult ParseJsonResponse(const HttpResponse& response, json::Document& document) {
  ClientResult result = ResultOf(response);
  if (!result.Successful()) return result;
  std::string_view type = response.Header("Content-Type");
  if (type.substr(0, type.find(';')) != "application/json") {
    return Malformed(response,
                     "Content-Type is '" + std::string(type.substr(0, 64)) + "', not application/json");
  }
  std::string error;
  if (!json::Parse(response.body, document, &error))
    return Malformed(response, "invalid JSON (" + error + ")");
  return {};
}

}  // namespace platformpp::net
