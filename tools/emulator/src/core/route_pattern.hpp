// Path patterns shared by the router, fault injection and rate-limit rules.
// Syntax: "/users/{user_id}/x" — a literal segment matches itself, "{name}" or "*" matches any one segment
// (captured by name for "{name}"), and a trailing "/**" matches zero or more remaining segments.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::emulator {

using PathParams = std::map<std::string, std::string, std::less<>>;

class PathPattern {
 public:
  // nullopt if the pattern does not start with '/', has an empty "{}" name or a "**" anywhere but at the end.
  static std::optional<PathPattern> parse(std::string_view text);

  [[nodiscard]] bool matches(std::string_view path, PathParams* params = nullptr) const;
  // A path's segments ("/a/b": {"a", "b"}; "/": {""}), or nullopt without its leading '/': split once,
  // matched against many patterns (the router tries every route).
  using Segments = std::vector<std::string_view>;
  static std::optional<Segments> split(std::string_view path);
  [[nodiscard]] bool matches(const Segments& parts, PathParams* params = nullptr) const;
  [[nodiscard]] const std::string& text() const noexcept { return text_; }

 private:
  enum class Kind { literal, capture, any, rest };
  struct Segment {
    Kind kind;
    std::string value;  // the literal, or the capture's name
  };
  std::string text_;
  std::vector<Segment> segments_;
};

// "<METHOD> <path pattern>" where METHOD may be "*" (any method); used by faults and rate-limit rules.
class RoutePattern {
 public:
  static std::optional<RoutePattern> parse(std::string_view text);

  [[nodiscard]] bool matches(std::string_view method, std::string_view path) const;
  [[nodiscard]] const std::string& text() const noexcept { return text_; }

 private:
  RoutePattern(std::string method, PathPattern path, std::string text)
      : method_(std::move(method)), path_(std::move(path)), text_(std::move(text)) {}
  std::string method_;  // upper case, or "*"
  PathPattern path_;
  std::string text_;
};

}  // namespace platformpp::emulator
