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
  // One pass over the fields rather than a lookup per header (each a scan of every field); as with
  // Header(), the first field of a name counts.
  std::optional<std::string_view> limit, remaining, resetAfter, bucket, global, scope, retryAfter;
  auto is = [](std::string_view name, std::string_view expected) {
    // From the end: the names share their "x-ratelimit-" start. (Same size: the caller switched on it.)
    for (std::size_t i = name.size(); i-- > 0;) {
      char c = name[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != expected[i]) return false;  // `expected` is lower case
    }
    return true;
  };
  auto take = [](std::optional<std::string_view>& slot, std::string_view value) {
    if (!slot) slot = value;
  };
  for (HttpHeaders::Field field : response.headers) {
    std::string_view name = field.first;
    switch (name.size()) {  // the names differ in length, mostly: at most two comparisons per field
      case 11:
        if (is(name, "retry-after")) take(retryAfter, field.second);
        break;
      case 17:
        if (is(name, "x-ratelimit-limit")) {
          take(limit, field.second);
        } else if (is(name, "x-ratelimit-scope")) {
          take(scope, field.second);
        }
        break;
      case 18:
        if (is(name, "x-ratelimit-bucket")) {
          take(bucket, field.second);
        } else if (is(name, "x-ratelimit-global")) {
          take(global, field.second);
        }
        break;
      case 21:
        if (is(name, "x-ratelimit-remaining")) take(remaining, field.second);
        break;
      case 23:
        if (is(name, "x-ratelimit-reset-after")) take(resetAfter, field.second);
        break;
      default:
        break;
    }
  }
  RateLimitHeaders h;
  h.limit = ParseInt(limit.value_or(std::string_view()));
  h.remaining = ParseInt(remaining.value_or(std::string_view()));
  h.resetAfter = ParseSeconds(resetAfter.value_or(std::string_view()));
  h.bucket = std::string(bucket.value_or(std::string_view()).substr(0, 128));
  h.global = global.value_or(std::string_view()) == "true";
  h.scope = std::string(scope.value_or(std::string_view()).substr(0, 16));
  h.retryAfter = ParseSeconds(retryAfter.value_or(std::string_view()));
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
