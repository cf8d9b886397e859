#include "net/http_result.hpp"

#include "json/error_body.hpp"

#include <charconv>
#include <cmath>

namespace platformpp::net {
namespace {

ClientResult Malformed(const HttpResponse& response, std::string why) {
  ClientResult::Details details;
  details.type = ErrorType::HTTPError;
  details.status = response.status;
  details.error = "malformed response: " + std::move(why);
  return ClientResult(std::move(details));
}

}  // namespace

ClientResult ResultOf(const HttpResponse& response) {
  if (!response.transport.Successful()) return response.transport;
  if (response.status >= 200 && response.status < 300) return {};
  std::optional<double> retryAfter;
  std::string_view header = response.Header("Retry-After");
  double value = 0;
  auto [end, ec] = std::from_chars(header.data(), header.data() + header.size(), value);
  if (!header.empty() && ec == std::errc() && end == header.data() + header.size() && std::isfinite(value)) {
    retryAfter = value;
  }
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
