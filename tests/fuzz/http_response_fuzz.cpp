// What the SDK does with an HTTP response once Beast has parsed it: rate-limit headers, 429 bodies, error
// bodies, JSON bodies, and the limiter fed with all of it.
#include "net/http_result.hpp"
#include "net/rate_limiter.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Layout: status byte, then header lines "name: value\n" until an empty line, then the body.
  if (size < 1) return 0;
  platformpp::net::HttpResponse response;
  response.status = 200 + data[0] * 2;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  while (!rest.empty()) {
    size_t eol = rest.find('\n');
    std::string_view line = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    if (line.empty()) break;
    size_t colon = line.find(':');
    std::string_view name = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ')
      value.remove_prefix(1);
    response.headers.emplace_back(std::string(name), std::string(value));
  }
  response.body.assign(rest);

  auto limits = platformpp::net::ReadRateLimitHeaders(response);
  bool global = limits.global;
  double retryAfter = platformpp::net::RetryAfterSeconds(response, limits, global);
  if (!(retryAfter >= 0)) __builtin_trap();
  platformpp::net::RateLimiter limiter;
  auto now = platformpp::net::RateLimiter::Clock::now();
  limiter.Update("GET /x", limits, now);
  limiter.OnTooManyRequests("GET /x", global, retryAfter, now);
  (void)limiter.TryAcquire("GET /x", now);
  (void)platformpp::net::ResultOf(response);
  platformpp::json::Document document;
  (void)platformpp::net::ParseJsonResponse(response, document);
  return 0;
}
