#include "core/router.hpp"

#include <stdexcept>

namespace platformpp::emulator {

void Router::add(std::string method, std::string_view pattern, RouteHandler handler) {
  auto parsed = PathPattern::parse(pattern);
  if (!parsed) throw std::invalid_argument("bad route pattern: " + std::string(pattern));
  std::string key = method + " " + std::string(pattern);
  routes_.push_back({std::move(method), std::move(*parsed), std::move(handler), std::move(key)});
}

Router::Match Router::match(std::string_view method, std::string_view path) const {
  Match result;
  const auto parts = PathPattern::split(path);
  if (!parts) return result;
  for (const auto& route : routes_) {
    PathParams params;
    if (!route.pattern.matches(*parts, &params)) continue;
    if (route.method == method) {
      result.kind = MatchKind::found;
      result.route = &route;
      result.params = std::move(params);
      return result;
    }
    result.kind = MatchKind::method_not_allowed;
  }
  return result;
}

std::vector<std::string> Router::keys() const {
  std::vector<std::string> keys;
  keys.reserve(routes_.size());
  for (const auto& route : routes_)
    keys.push_back(route.key);
  return keys;
}

}  // namespace platformpp::emulator
