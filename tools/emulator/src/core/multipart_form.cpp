#include "core/multipart_form.hpp"

#include <algorithm>
#include <cctype>

#include "core/http_message.hpp"

namespace platformpp::emulator {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

// The value of `key` among the `; key=value` parameters of a header value (quoted strings unquoted, with
// backslash escapes), if present.
std::optional<std::string> parameter(std::string_view header, std::string_view key) {
  std::size_t at = header.find(';');
  while (at != std::string_view::npos) {
    std::string_view rest = trim(header.substr(at + 1));
    const auto equals = rest.find('=');
    if (equals == std::string_view::npos) return std::nullopt;
    const auto name = trim(rest.substr(0, equals));
    rest = trim(rest.substr(equals + 1));
    std::string value;
    std::size_t consumed = 0;
    if (!rest.empty() && rest.front() == '"') {
      std::size_t i = 1;
      for (; i < rest.size() && rest[i] != '"'; ++i) {
        if (rest[i] == '\\' && i + 1 < rest.size()) ++i;
        value.push_back(rest[i]);
      }
      if (i >= rest.size()) return std::nullopt;  // unterminated quote
      consumed = i + 1;
    } else {
      consumed = std::min(rest.find(';'), rest.size());
      value = std::string(trim(rest.substr(0, consumed)));
    }
    if (iequals(name, key)) return value;
    const auto next = rest.find(';', consumed);
    if (next == std::string_view::npos) return std::nullopt;
    at = header.size() - rest.size() + next;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> multipart_boundary(std::string_view content_type) {
  const auto semicolon = content_type.find(';');
  if (!iequals(trim(content_type.substr(0, semicolon)), "multipart/form-data")) return std::nullopt;
  auto boundary = parameter(content_type, "boundary");
  if (!boundary || boundary->empty() || boundary->size() > 70) return std::nullopt;
  return boundary;
}

std::optional<std::vector<MultipartPart>> parse_multipart_form(std::string_view body,
                                                               std::string_view boundary,
                                                               std::size_t max_parts) {
  const std::string delimiter = "--" + std::string(boundary);
  const std::string separator = "\r\n" + delimiter;
  // The preamble ends at the first delimiter, which starts the body or a line.
  std::size_t at = 0;
  if (body.substr(0, delimiter.size()) != delimiter) {
    at = body.find(separator);
    if (at == std::string_view::npos) return std::nullopt;
    at += 2;
  }
  std::vector<MultipartPart> parts;
  while (true) {
    at += delimiter.size();
    if (body.substr(at, 2) == "--") return parts;  // the closing delimiter (an epilogue may follow)
    // Transport padding, then the line break that ends the delimiter line.
    while (at < body.size() && (body[at] == ' ' || body[at] == '\t'))
      ++at;
    if (body.substr(at, 2) != "\r\n") return std::nullopt;
    at += 2;
    if (parts.size() == max_parts) return std::nullopt;
    const auto headers_end = body.find("\r\n\r\n", at);
    const auto blank_first = body.substr(at, 2) == "\r\n";
    if (headers_end == std::string_view::npos && !blank_first) return std::nullopt;
    MultipartPart part;
    bool form_data = false;
    if (!blank_first) {
      std::string_view headers = body.substr(at, headers_end - at);
      at = headers_end + 4;
      while (!headers.empty()) {
        const auto line_end = std::min(headers.find("\r\n"), headers.size());
        const auto line = headers.substr(0, line_end);
        headers.remove_prefix(std::min(line_end + 2, headers.size()));
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) return std::nullopt;
        const auto name = trim(line.substr(0, colon));
        const auto value = trim(line.substr(colon + 1));
        if (iequals(name, "Content-Disposition")) {
          const auto semicolon = value.find(';');
          if (!iequals(trim(value.substr(0, semicolon)), "form-data")) return std::nullopt;
          auto field = parameter(value, "name");
          if (!field) return std::nullopt;
          part.name = std::move(*field);
          part.filename = parameter(value, "filename");
          form_data = true;
        } else if (iequals(name, "Content-Type")) {
          part.content_type = std::string(value);
        }
      }
    } else {
      at += 2;
    }
    if (!form_data) return std::nullopt;
    const auto end = body.find(separator, at);
    if (end == std::string_view::npos) return std::nullopt;
    part.body = std::string(body.substr(at, end - at));
    parts.push_back(std::move(part));
    at = end + 2;
  }
}

}  // namespace platformpp::emulator
