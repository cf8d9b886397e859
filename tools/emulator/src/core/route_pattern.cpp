#include "core/route_pattern.hpp"

#include <algorithm>
#include <cctype>

#include "core/http_message.hpp"

namespace platformpp::emulator {

namespace {
// Splits "/a/b" into {"a", "b"}; "/" gives {""}. The leading '/' must already be checked.
std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  path.remove_prefix(1);
  while (true) {
    const auto slash = path.find('/');
    parts.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}
}  // namespace

std::optional<PathPattern> PathPattern::parse(std::string_view text) {
  if (text.empty() || text.front() != '/') return std::nullopt;
  PathPattern pattern;
  pattern.text_ = std::string(text);
  const auto parts = split_path(text);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto part = parts[i];
    if (part == "**") {
      if (i + 1 != parts.size()) return std::nullopt;
      pattern.segments_.push_back({Kind::rest, {}});
    } else if (part == "*") {
      pattern.segments_.push_back({Kind::any, {}});
    } else if (part.size() >= 2 && part.front() == '{' && part.back() == '}') {
      if (part.size() == 2) return std::nullopt;
      pattern.segments_.push_back({Kind::capture, std::string(part.substr(1, part.size() - 2))});
    } else {
      if (part.find("**") != std::string_view::npos) return std::nullopt;
      pattern.segments_.push_back({Kind::literal, std::string(part)});
    }
  }
  return pattern;
}

std::optional<PathPattern::Segments> PathPattern::split(std::string_view path) {
  if (path.empty() || path.front() != '/') return std::nullopt;
  return split_path(path);
}

bool PathPattern::matches(std::string_view path, PathParams* params) const {
  const auto parts = split(path);
  return parts && matches(*parts, params);
}

bool PathPattern::matches(const Segments& parts, PathParams* params) const {
  PathParams captured;
  std::size_t i = 0;
  for (const auto& segment : segments_) {
    if (segment.kind == Kind::rest) {
      if (params != nullptr) *params = std::move(captured);
      return true;
    }
    if (i >= parts.size()) return false;
    switch (segment.kind) {
      case Kind::literal:
        if (parts[i] != segment.value) return false;
        break;
      case Kind::capture:
        if (parts[i].empty()) return false;
        captured.insert_or_assign(segment.value, std::string(parts[i]));
        break;
      case Kind::any:
        if (parts[i].empty()) return false;
        break;
      case Kind::rest:
        break;
    }
    ++i;
  }
  if (i != parts.size()) return false;
  if (params != nullptr) *params = std::move(captured);
  return true;
}

std::optional<RoutePattern> RoutePattern::parse(std::string_view text) {
  const auto space = text.find(' ');
  if (space == std::string_view::npos || space == 0) return std::nullopt;
  std::string method(text.substr(0, space));
  if (method != "*" && !std::all_of(method.begin(), method.end(), [](char c) {
        return std::isalpha(static_cast<unsigned char>(c)) != 0;
      })) {
    return std::nullopt;
  }
  std::transform(method.begin(), method.end(), method.begin(),
                 [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
  auto rest = text.substr(space + 1);
  while (!rest.empty() && rest.front() == ' ')
    rest.remove_prefix(1);
  auto path = PathPattern::parse(rest);
  if (!path) return std::nullopt;
  return RoutePattern(std::move(method), std::move(*path), std::string(text));
}

bool RoutePattern::matches(std::string_view method, std::string_view path) const {
  return (method_ == "*" || iequals(method_, method)) && path_.matches(path);
}

}  // namespace platformpp::emulator
