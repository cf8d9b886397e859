#include "core/form_encoding.hpp"

#include <algorithm>

namespace platformpp::emulator {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int high = hex_value(text[i + 1]);
      const int low = hex_value(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    if (is_unreserved(c)) {
      out += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

std::optional<FormFields> FormFields::parse(std::string_view text) {
  FormFields result;
  while (!text.empty()) {
    const auto amp = text.find('&');
    const auto pair = text.substr(0, amp);
    if (!pair.empty()) {
      const auto eq = pair.find('=');
      auto name = percent_decode(pair.substr(0, eq));
      auto value = percent_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
      if (!name || !value) return std::nullopt;
      result.fields_.emplace_back(std::move(*name), std::move(*value));
    }
    if (amp == std::string_view::npos) break;
    text.remove_prefix(amp + 1);
  }
  return result;
}

std::optional<std::string> FormFields::get(std::string_view name) const {
  for (const auto& [key, value] : fields_) {
    if (key == name) return value.empty() ? std::nullopt : std::optional<std::string>(value);
  }
  return std::nullopt;
}

std::optional<std::string> FormFields::repeated() const {
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    for (std::size_t j = i + 1; j < fields_.size(); ++j) {
      if (fields_[i].first == fields_[j].first) return fields_[i].first;
    }
  }
  return std::nullopt;
}

std::string_view query_of(const HttpRequest& request) {
  const std::string_view target(request.target);
  const auto question = target.find('?');
  return question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
}

bool has_form_content_type(const HttpRequest& request) {
  return request.has_media_type("application/x-www-form-urlencoded");
}

std::string append_query(std::string url, const std::vector<std::pair<std::string, std::string>>& params) {
  bool has_query = url.find('?') != std::string::npos;
  for (const auto& [name, value] : params) {
    url += has_query ? '&' : '?';
    has_query = true;
    url += percent_encode(name);
    url += '=';
    url += percent_encode(value);
  }
  return url;
}

}  // namespace platformpp::emulator
