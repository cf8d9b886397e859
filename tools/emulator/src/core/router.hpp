// Method + path-pattern dispatch table. Later issues register many routes (OAuth2, lobbies,
// relationships...); the server also consults it for 404 vs 405.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/http_message.hpp"
#include "core/route_pattern.hpp"

namespace platformpp::emulator {

struct RouteContext {
  const HttpRequest& request;
  const PathParams& params;
};

using RouteHandler = std::function<HttpResponse(const RouteContext&)>;

class Router {
 public:
  struct Route {
    std::string method;
    PathPattern pattern;
    RouteHandler handler;
    // "<METHOD> <pattern>", stable across runs; the default rate-limit bucket is derived from it.
    std::string key;
  };

  enum class MatchKind { found, not_found, method_not_allowed };
  struct Match {
    MatchKind kind = MatchKind::not_found;
    const Route* route = nullptr;
    PathParams params;
  };

  // Throws std::invalid_argument on a malformed pattern (a programming error).
  void add(std::string method, std::string_view pattern, RouteHandler handler);
  [[nodiscard]] Match match(std::string_view method, std::string_view path) const;
  // "<METHOD> <pattern>" of every route, in registration order.
  [[nodiscard]] std::vector<std::string> keys() const;

 private:
  std::vector<Route> routes_;
};

}  // namespace platformpp::emulator
