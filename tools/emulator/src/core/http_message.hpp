// Socket-free HTTP request/response types: the server translates Beast messages to and from these so that all
// emulator logic stays plain C++ and unit-testable.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace platformpp::emulator {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method;  // e.g. "GET"
  std::string target;  // path plus optional query, e.g. "/api/v10/users/@me?x=1"
  HeaderList headers;
  std::string body;
  std::string client_address;  // peer IP, identifies unauthenticated callers for rate limits

  // Case-insensitive header lookup; the first occurrence wins.
  [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const;
  // The target without its query string.
  [[nodiscard]] std::string_view path() const;
  // True when Content-Type names `media_type` (parameters such as charset ignored, case-insensitive).
  [[nodiscard]] bool has_media_type(std::string_view media_type) const;
};

class DeferredResponse;

struct HttpResponse {
  int status = 200;
  HeaderList headers;
  std::string body;
  bool close_connection = false;
  // Set when the route answers later (see DeferredResponse): the rest of this response is not sent.
  std::shared_ptr<DeferredResponse> deferred;

  // Replaces an existing header of the same name (case-insensitive) or appends it.
  void set_header(std::string_view name, std::string value);
  [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const;

  static HttpResponse json(int status, std::string body);
  static HttpResponse empty(int status);
  // A response whose content `deferred` gives later.
  static HttpResponse later(std::shared_ptr<DeferredResponse> deferred);
};

// The answer of a route that must first finish an exchange of its own on the network (the webhook events
// URL's PING): the route returns HttpResponse::later(deferred) at once, so the service's thread keeps
// serving, and the server writes what set() gives once it comes. Used on the service's thread only.
class DeferredResponse {
 public:
  using Waiter = std::function<void(HttpResponse)>;
  // Hands the answer to the waiter (now, or when it starts waiting); later calls are ignored.
  void set(HttpResponse response);
  // `waiter` gets the answer once; it runs inside wait() if the answer is already there.
  void wait(Waiter waiter);
  // Forgets the waiter without answering (the server is shutting down).
  void abandon() { waiter_ = nullptr; }
  [[nodiscard]] const std::optional<HttpResponse>& answer() const noexcept { return answer_; }

 private:
  std::optional<HttpResponse> answer_;
  Waiter waiter_;
};

[[nodiscard]] bool iequals(std::string_view a, std::string_view b) noexcept;
// The text with its ASCII letters lowercased.
[[nodiscard]] std::string ascii_lower(std::string_view text);

}  // namespace platformpp::emulator
