#include "guild/target_users_csv.hpp"

#include <charconv>
#include <system_error>
#include <unordered_set>

namespace platformpp::emulator {

namespace {

// Whether `text` is well-formed UTF-8 without NUL bytes (a CSV file is text).
bool utf8_text(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == 0) return false;
    std::size_t extra = 0;
    std::uint32_t code = 0;
    if (byte < 0x80) {
      ++i;
      continue;
    }
    if ((byte & 0xE0) == 0xC0) {
      extra = 1;
      code = byte & 0x1F;
    } else if ((byte & 0xF0) == 0xE0) {
      extra = 2;
      code = byte & 0x0F;
    } else if ((byte & 0xF8) == 0xF0) {
      extra = 3;
      code = byte & 0x07;
    } else {
      return false;
    }
    if (i + extra >= text.size()) return false;  // cut short
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    const std::uint32_t least[] = {0, 0x80, 0x800, 0x10000};
    if (code < least[extra] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

std::string_view trim_cell(std::string_view value) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
    value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
    value.remove_suffix(1);
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
    value = value.substr(1, value.size() - 2);
  return value;
}

bool all_digits(std::string_view value) {
  if (value.empty()) return false;
  for (const char c : value) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

TargetUsersFile parse_target_users_csv(std::string_view text, std::size_t max_users) {
  TargetUsersFile file;
  if (!utf8_text(text)) {
    file.failure = "Failed to parse CSV file";
    return file;
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::unordered_set<std::string_view> seen;
  std::size_t line_number = 0;
  std::size_t invalid = 0;
  bool first = true;
  while (!text.empty()) {
    const auto end = text.find('\n');
    auto line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto value = trim_cell(line);
    if (value.empty()) continue;
    const bool header = first && !all_digits(value);
    first = false;
    if (header) continue;
    ++file.rows;
    std::uint64_t id = 0;
    const char* digits_end = value.data() + value.size();
    const char* message = nullptr;
    if (!all_digits(value)) {
      message = "invalid user ID format";
    } else if (const auto [ptr, ec] = std::from_chars(value.data(), digits_end, id);
               value.front() == '0' || ptr != digits_end || ec != std::errc()) {
      message = "invalid user ID - must be a valid Discord snowflake";
    }
    if (message != nullptr) {
      if (++invalid <= kTargetUsersReportedLines)
        file.invalid_lines.push_back("Line " + std::to_string(line_number) + ": " + message);
      continue;
    }
    if (seen.insert(value).second) file.user_ids.emplace_back(value);
  }
  if (invalid > kTargetUsersReportedLines) {
    file.invalid_lines.push_back(std::to_string(invalid - kTargetUsersReportedLines) + " more invalid lines");
  }
  if (!file.invalid_lines.empty()) return file;
  if (file.user_ids.empty()) {
    file.failure = "The file has no user IDs";
  } else if (file.user_ids.size() > max_users) {
    file.failure = "Too many users: at most " + std::to_string(max_users);
  }
  return file;
}

std::string target_users_csv(const std::vector<std::string>& user_ids) {
  std::string csv = "user_id\n";
  for (const auto& id : user_ids) {
    csv += id;
    csv += '\n';
  }
  return csv;
}

}  // namespace platformpp::emulator
