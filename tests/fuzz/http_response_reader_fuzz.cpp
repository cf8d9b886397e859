// An HTTP/1.1 response as the socket delivers it, through the reader the HTTP client parses with
// (net/http_response_reader.hpp), fed in pieces as reads split it, with the client's header and body limits;
// what it read then goes where the client sends it (the rate-limit headers, the result, the limiter).
#include "net/http_response_reader.hpp"
#include "net/http_result.hpp"
#include "net/rate_limiter.hpp"

#include <boost/asio/buffer.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace http = boost::beast::http;
  // Layout: one byte picking where the reads split the rest, then the bytes from the network.
  if (size < 1) return 0;
  const std::size_t step = 1 + data[0];
  const char* bytes = reinterpret_cast<const char*>(data + 1);
  const std::size_t length = size - 1;

  platformpp::net::HttpResponse response;
  platformpp::net::http_detail::ResponseReader reader(response.status, response.headers, response.body);
  constexpr std::size_t kBodyLimit = 4096;
  reader.header_limit(1024);
  reader.body_limit(kBodyLimit);
  reader.eager(true);
  std::string pending;  // what the parser has not taken yet, as the client's connection buffer keeps it
  boost::system::error_code ec;
  for (std::size_t at = 0; at < length && !ec && !reader.is_done(); at += step) {
    pending.append(bytes + at, std::min(step, length - at));
    const std::size_t used = reader.put(boost::asio::buffer(pending), ec);
    pending.erase(0, used);
    if (ec == http::error::need_more) ec = {};
  }
  // The end of the stream, as the client hands it over: only once some of a response came (Beast asserts it).
  if (!ec && !reader.is_done() && reader.got_some()) reader.put_eof(ec);
  if (reader.is_done()) {
    if (response.status < 0 || response.status > 999) __builtin_trap();  // three digits, whatever they are
    if (response.body.size() > kBodyLimit) __builtin_trap();
  }
  if (!reader.is_header_done()) return 0;
  auto limits = platformpp::net::ReadRateLimitHeaders(response);
  bool global = limits.global;
  const double retryAfter = platformpp::net::RetryAfterSeconds(response, limits, global);
  if (!(retryAfter >= 0)) __builtin_trap();
  platformpp::net::RateLimiter limiter;
  const auto now = platformpp::net::RateLimiter::Clock::now();
  limiter.Update("GET /x", limits, now);
  (void)platformpp::net::ResultOf(response);
  return 0;
}
